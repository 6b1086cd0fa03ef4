"""The text de-identification pipeline: levels applied cumulatively, and the re-scan.

``deidentify(text, level="L2", manifest)`` applies L1, then L2 on L1's output,
then L3 on L2's output, up to the requested level (q⁽ˡ⁾ = Tₗ(q⁽ˡ⁻¹⁾), ClinX
§3.3). The result carries every level's removed spans (offsets into that
level's input, see :class:`~clinx.text.base.RemovedSpan`).

``rescan(text, manifest)`` answers "is anything identifying left in this
text?" with L1 rules + L2 context + the manifest scan, all on the text as
given (placeholders are context, not findings). The L3 validator calls it on a
rewrite and rejects the rewrite if it returns anything.

Every span level (L1, L2) and the re-scan see the *folded* text
(:func:`clinx.text.unicode.fold`: NFKC, zero-width and format characters
removed, homoglyphs read as Latin), so ``Jаmes`` with a Cyrillic ``а`` is the
name James; the spans they find are mapped back and the *original* characters
are replaced. ASCII text skips the fold entirely. Before the fold they read the *line view*
(:func:`line_view`, the same length): Windows and old Mac line ends and no-break spaces as plain ones, and a
paragraph a program hard-wrapped as one line.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left, bisect_right
from functools import lru_cache
from pathlib import Path
from typing import Any

from clinx.records import Manifest
from clinx.text.base import (
    PLACEHOLDER_RE,
    Candidate,
    RemovedSpan,
    TextLevel,
    TextResult,
    apply_candidates,
    check_text,
    digest_value,
    drop_inside,
    placeholder,
    resolve_overlaps,
)
from clinx.text.context import ContextEnhancer
from clinx.text.levels import LEVEL_ORDER, SPAN_LEVELS, make_level, normalize_level
from clinx.text.rules import RuleRecognizer, manifest_candidates
from clinx.text.unicode import confusables_version, fold

#: Refuse texts longer than this (characters): every level is linear, but a
#: caller passing a whole file as one "question" is almost always a mistake.
MAX_CHARS = 10_000_000

#: What L3 returns when no rewrite validates (see :class:`TextPipeline`).
FALLBACKS = ("l2", "original")


def line_view(text: str) -> str:
    """``text`` as the recognisers read lines and blanks, the offsets unchanged.

    A no-break space reads as a blank. Windows ("\\r\\n") and old Mac ("\\r") line ends read as "\\n": a carriage
    return before a line feed becomes a blank, a lone one a line feed (notes exported from Windows systems end their
    lines so, and the recognisers read a line's end as "\\n": a signature "closing its line"). And a hard-wrapped
    paragraph reads as one line: each line feed where the writer's program wrapped (:func:`soft_wraps`) becomes a
    blank, so "Dr. John\\nSmith" is one name and a cue at a line's end still reaches the name on the next.
    """
    if "\r" in text:
        text = text.replace("\r\n", " \n").replace("\r", "\n")
    if "\xa0" in text:
        text = text.replace("\xa0", " ")  # (a no-break space, as word processors and web forms write between words)
    wraps = soft_wraps(text)
    if not wraps:
        return text
    chars = list(text)
    for k in wraps:
        chars[k] = " "
    return "".join(chars)


#: A line that opens a field or a list item ("DOB: 3/4/51", "- cont lasix", "2) f/u"): no wrapped line's rest.
_NEW_ITEM_RE = re.compile(r"[ \t]|[-*•>#]|\d{1,2}[.)][ \t]|[A-Za-z][A-Za-z /&()-]{0,24}:(?![0-9/])")
#: Lines needed near the widest one before a note counts as hard-wrapped, and how near (characters).
_WRAPPED_LINES, _WRAP_SLACK = 3, 12


def soft_wraps(text: str) -> list[int]:
    """Offsets of the line feeds a program put in to wrap a paragraph at a fixed width: where the next line's first
    word would not have fitted on the line before it. A note counts as wrapped when three lines or more reach within
    twelve characters of its widest line (at least 30); a line ending with a colon, a blank line, and a line that opens
    a field, a list item or an indent are never joined. Typed notes, whose lines end where the writer pressed enter,
    have none."""
    if text.count("\n") < 3:
        return []
    lines = text.split("\n")
    lens = [len(line.rstrip()) for line in lines]
    width = max(lens)
    if width < 30 or sum(n >= width - _WRAP_SLACK for n in lens) < _WRAPPED_LINES:
        return []
    out = []
    pos = 0
    for k in range(len(lines) - 1):
        line, nxt = lines[k], lines[k + 1]
        pos += len(line)
        body = line.rstrip()
        if body and nxt and not body.endswith(":") and _NEW_ITEM_RE.match(nxt) is None:
            first = nxt.split(" ", 1)[0]
            if lens[k] + 1 + len(first) > width:
                out.append(pos)
        pos += 1
    return out


class TextPipeline:
    """Levels L1..``level`` chained; build once, call many times.

    ``l1``, ``l2``, ``l3`` are per-level parameter dicts; ``strategy`` and
    ``llm`` are forwarded to L3. ``salt`` and ``keep_values`` go to every level.
    ``fallback`` says what L3 returns when no rewrite validates: ``"l2"`` (the
    masked L2 text, clinx's default and the only safe one) or ``"original"``
    (the input question unchanged — the ClinX paper's App. B.3 setting, for
    reproducing its grid; it releases PHI whenever the rewrite fails).
    """

    def __init__(
        self,
        level: str = "L2",
        *,
        salt: bytes | str | None = None,
        keep_values: bool = False,
        l1: dict | None = None,
        l2: dict | None = None,
        l3: dict | None = None,
        strategy: str | None = None,
        llm: Any = None,
        max_chars: int = MAX_CHARS,
        fallback: str = "l2",
    ):
        self.level = normalize_level(level)
        self.fallback = str(fallback).lower()
        if self.fallback not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS}, got {fallback!r}")
        self.max_chars = int(max_chars)
        self.salt = salt
        self.keep_values = keep_values
        params = {"L1": dict(l1 or {}), "L2": dict(l2 or {}), "L3": dict(l3 or {})}
        if "years" in params["L1"]:  # one years setting for the levels that find dates
            params["L2"].setdefault("years", params["L1"]["years"])
        if "states" in params["L1"]:  # and one states setting
            params["L2"].setdefault("states", params["L1"]["states"])
        if params["L1"].get("site_terms"):  # one term list: L2 keeps what it says to keep too
            params["L2"].setdefault("site_terms", params["L1"]["site_terms"])
        if strategy is not None:
            params["L3"]["strategy"] = strategy
        if llm is not None:
            params["L3"]["llm"] = llm
        upto = LEVEL_ORDER.index(self.level)
        self.params = {name: params[name] for name in LEVEL_ORDER[1 : upto + 1]}
        self.levels: list[TextLevel] = [
            make_level(name, salt=salt, keep_values=keep_values, **params.get(name, {})) for name in LEVEL_ORDER[1 : upto + 1]
        ]

    def run(self, text: str, manifest: Manifest | None = None) -> TextResult:
        """De-identify one text; raises ``TypeError`` for non-``str`` input."""
        check_text(text)
        if len(text) > self.max_chars:
            raise ValueError(f"text has {len(text)} characters, more than max_chars={self.max_chars}")
        cur = text
        removed: list[RemovedSpan] = []
        notes: dict[str, Any] = {}
        accepted = True
        done: list[list[RemovedSpan]] = []  # each level's removals, in its own input's offsets
        for lvl in self.levels:
            proposals = None
            if getattr(lvl, "ner", None) is not None:
                # the statistical layer reads the text as written (see clinx.text.crf), its spans carried onto this level's input
                proposals = carry_candidates(lvl.ner.find(line_view(text)), done, len(text))
            r = self._apply(lvl, cur, manifest, proposals)
            done.append(r.removed)
            removed.extend(r.removed)
            if r.notes:
                notes[lvl.name] = r.notes
            accepted = accepted and r.accepted
            cur = r.text
        if self.fallback == "original" and self.level == "L3" and not accepted:
            notes.setdefault("L3", {})["fallback"] = "original"
            return TextResult(text=text, removed=[], level=self.level, accepted=False, notes=notes)
        return TextResult(text=cur, removed=removed, level=self.level, accepted=accepted, notes=notes)

    __call__ = run

    def _apply(self, lvl: TextLevel, text: str, manifest: Manifest | None, proposals: list[Candidate] | None = None) -> TextResult:
        """One level on the folded view of ``text``, its spans replaced in ``text`` itself.

        ``proposals``: the statistical layer's candidates in ``text``'s offsets (levels with a ``ner``).
        """
        extra = {} if proposals is None else {"proposals": proposals}
        lined = line_view(text) if lvl.name in SPAN_LEVELS else text  # (same offsets as text)
        if lined is text and (text.isascii() or lvl.name not in SPAN_LEVELS):
            # ASCII: nothing to fold (the fast path); L3 rewrites, its validator re-scans the folded view
            return lvl.apply(text, manifest, **extra)
        view = fold(lined)
        if view.identity:
            if lined is text:
                return lvl.apply(text, manifest, **extra)
            r = lvl.apply(lined, manifest, **extra)  # (the spans found in the line view are the text's)
            cands = [Candidate(s.start, s.end, s.category, s.source) for s in r.removed]
        else:
            r = lvl.apply(view.text, manifest, **({} if proposals is None else {"proposals": []}))
            cands = [Candidate(*view.span_back(s.start, s.end), s.category, s.source) for s in r.removed] + (proposals or [])
        out = apply_candidates(
            text,
            cands,
            lvl.name,
            salt=getattr(lvl, "salt", self.salt),
            keep_values=getattr(lvl, "keep_values", self.keep_values),
        )
        out.accepted, out.notes = r.accepted, r.notes
        return out

    def fingerprint(self) -> str:
        """Identity of what this pipeline produces: ``"text-<level>:<12 hex>"``.

        Covers the level, every level's parameters, ``keep_values``, whether a
        salt is set (never the salt), ``clinx.__version__``, the confusables
        data, a digest of the files of :mod:`clinx.text` that define the
        recognisers, lexicons and folding (:func:`text_code_digest`), and the
        name and version of the named-entity model when L2 runs one
        (``text.l2.ner=spacy``), and a digest of the custodian's term list
        (``text.l1.site_terms``), so an edit to ``rules.py``, a parameter, the
        list or another model version is a cache miss.
        """
        from clinx.fingerprint import fingerprint_of, make_fingerprint

        params: dict[str, Any] = {}
        for name, p in self.params.items():
            params[name] = {k: (fingerprint_of(v) if k == "llm" else v) for k, v in sorted(p.items())}
        # a statistical layer's model is code too: its name and version (text.l2.ner=spacy)
        models = [lvl.ner.identity for lvl in self.levels if getattr(lvl, "ner", None) is not None]
        if models:
            params["models"] = models
        # a custodian's term list is configuration by content, not by path: an edited list is a cache miss
        sites = sorted({lvl.site.digest for lvl in self.levels if getattr(lvl, "site", None) is not None})
        if sites:
            params["site_terms_digest"] = sites
        return make_fingerprint(
            f"text-{self.level}",
            params,
            {"keep_values": bool(self.keep_values), "salted": self.salt is not None, "max_chars": self.max_chars,
             "fallback": self.fallback},
            confusables_version(),
            text_code_digest(include_rewrite=self.level == "L3"),
        )


_CACHE: dict[tuple, TextPipeline] = {}


def get_pipeline(level: str = "L2", **kw) -> TextPipeline:
    """A cached :class:`TextPipeline` (built once per distinct hashable configuration)."""
    try:
        key = (normalize_level(level), tuple(sorted((k, _freeze(v)) for k, v in kw.items())))
        hash(key)
    except TypeError:  # an LLM object or other unhashable parameter: build fresh
        return TextPipeline(level, **kw)
    pipe = _CACHE.get(key)
    if pipe is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        pipe = _CACHE[key] = TextPipeline(level, **kw)
    return pipe


def _freeze(v):
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    if isinstance(v, (list, set, frozenset)):
        return tuple(_freeze(x) for x in v)
    return v


def deidentify(text: str, level: str = "L2", manifest: Manifest | None = None, **kw) -> TextResult:
    """De-identify ``text`` up to ``level`` (``L0``..``L3``), cumulatively.

    Keyword arguments are those of :class:`TextPipeline` (``salt``,
    ``keep_values``, ``l1``/``l2``/``l3`` parameter dicts, ``strategy``, ``llm``).
    Raises ``TypeError`` when ``text`` is not a ``str``.
    """
    check_text(text)
    return get_pipeline(level, **kw).run(text, manifest)


_RULES = RuleRecognizer()
_CONTEXT = ContextEnhancer()


def carry_candidates(cands: list[Candidate], levels: list[list[RemovedSpan]], n: int) -> list[Candidate]:
    """Candidates found in an original text of length ``n``, carried through the removals of earlier levels.

    ``levels``: each earlier level's removed spans, in its own input's offsets
    (each level's input is the one before's output, with ``[CATEGORY]``
    placeholders). A candidate that ends inside a removed span reaches to the
    end of its placeholder; one that lies wholly inside removed text is dropped
    (the placeholder is already there, and its category stays).
    """
    cur = [(c.start, c.end, c) for c in cands]
    for removed in levels:
        if not removed or not cur:
            continue
        spans = sorted(removed, key=lambda r: r.start)
        ends = [r.end for r in spans]
        shifts = [0]  # shifts[i]: how far the spans before the i-th moved later text
        for r in spans:
            shifts.append(shifts[-1] + len(placeholder(r.category)) - (r.end - r.start))

        def carry(k: int, is_end: bool) -> tuple[int, bool]:
            # offset k in the level's input -> its output; and whether k falls inside a removed span
            # (bisection over the sorted spans: a scan per candidate was quadratic on long notes)
            i = bisect_left(ends, k) if is_end else bisect_right(ends, k)
            if i == len(spans):
                return k + shifts[i], False
            r = spans[i]
            if k <= r.start if is_end else k < r.start:
                return k + shifts[i], False
            return r.start + shifts[i] + (len(placeholder(r.category)) if is_end else 0), True

        nxt = []
        for s, e, c in cur:
            a, a_in = carry(s, False)
            b, b_in = carry(e, True)
            if a_in and b_in and spans[bisect_right(ends, s)].end >= e:
                continue  # wholly inside one removed span
            nxt.append((a, b, c))
        cur = nxt
    return [Candidate(a, b, c.category, c.source, c.score) for a, b, c in cur if b > a]


def rescan(
    text: str,
    manifest: Manifest | None = None,
    *,
    fuzzy: bool = True,
    context: ContextEnhancer | None = None,
    salt: bytes | str | None = None,
) -> list[RemovedSpan]:
    """Residual PHI in ``text``: L1 rules + L2 context + manifest scan, merged.

    Returns spans (``level="rescan"``) with offsets into ``text``; an empty list
    means nothing identifying was found. Placeholders such as ``[NAME]`` are
    never findings. Values are never included — only salted digests.
    """
    check_text(text)
    view = fold(line_view(text))
    seen = view.text
    cands: list[Candidate] = list(_RULES.find(seen))
    if manifest:
        cands.extend(manifest_candidates(seen, manifest, fuzzy=fuzzy))
    covered = [(c.start, c.end) for c in cands]
    cands.extend((context or _CONTEXT).find(seen, covered))
    if "[" in seen:
        cands = drop_inside(cands, [m.span() for m in PLACEHOLDER_RE.finditer(seen)])
    if not view.identity:
        cands = [Candidate(*view.span_back(c.start, c.end), c.category, c.source, c.score) for c in cands]
    return [
        RemovedSpan(c.category, "rescan", c.start, c.end, c.source, digest_value(text[c.start : c.end], salt))
        for c in resolve_overlaps(cands)
    ]


#: Files of clinx/text that do not change what a level outputs (the CLI, report tables, the
#: evasion benchmark set). Everything else counts: a stale cache is worse than a cache miss.
_NOT_RECOGNISER = frozenset({"cli.py", "reports.py", "evasion.py"})


def text_code_digest(*, include_rewrite: bool = False, root: str | Path | None = None) -> str:
    """sha256 (16 hex) of the files under ``clinx/text`` that define the recognisers.

    Every source and data file (rule tables, lexicons, context anchors,
    folding, pipeline) counts, except the CLI and report code; the L3 rewrite
    package only with ``include_rewrite``. Files are re-stated on each call
    and re-read when their size or modification time changed, so an edit is
    seen without restarting the process. ``root`` points at another copy of
    the package (tests).
    """
    base = Path(root) if root is not None else Path(__file__).resolve().parent
    stats = []
    for p in sorted(base.rglob("*")):
        rel = p.relative_to(base)
        if not p.is_file() or "__pycache__" in rel.parts or p.suffix in (".pyc", ".pyo") or rel.as_posix() in _NOT_RECOGNISER:
            continue
        if rel.parts[0] == "rewrite" and not include_rewrite:
            continue
        st = p.stat()
        stats.append((rel.as_posix(), str(p), st.st_size, st.st_mtime_ns))
    return _digest_files(tuple(stats))


@lru_cache(maxsize=64)
def _digest_files(stats: tuple[tuple[str, str, int, int], ...]) -> str:
    h = hashlib.sha256()
    for rel, path, _, _ in stats:
        h.update(rel.encode() + b"\0")
        h.update(Path(path).read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


__all__ = ["FALLBACKS", "MAX_CHARS", "TextPipeline", "deidentify", "get_pipeline", "rescan", "text_code_digest"]
