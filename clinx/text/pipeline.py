"""The text de-identification pipeline: levels applied cumulatively, and the re-scan.

``deidentify(text, level="L2", manifest)`` applies L1, then L2 on L1's output,
then L3 on L2's output, up to the requested level (q⁽ˡ⁾ = Tₗ(q⁽ˡ⁻¹⁾), ClinX
§3.3). The result carries every level's removed spans (offsets into that
level's input, see :class:`~clinx.text.base.RemovedSpan`).

``rescan(text, manifest)`` answers "is anything identifying left in this
text?" with L1 rules + L2 context + the manifest scan, all on the text as
given (placeholders are context, not findings). The L3 validator calls it on a
rewrite and rejects the rewrite if it returns anything.
"""

from __future__ import annotations

from typing import Any

from clinx.records import Manifest
from clinx.text.base import (
    PLACEHOLDER_RE,
    Candidate,
    RemovedSpan,
    TextLevel,
    TextResult,
    check_text,
    digest_value,
    drop_inside,
    resolve_overlaps,
)
from clinx.text.context import ContextEnhancer
from clinx.text.levels import LEVEL_ORDER, make_level, normalize_level
from clinx.text.rules import RuleRecognizer, manifest_candidates

#: Refuse texts longer than this (characters): every level is linear, but a
#: caller passing a whole file as one "question" is almost always a mistake.
MAX_CHARS = 10_000_000


class TextPipeline:
    """Levels L1..``level`` chained; build once, call many times.

    ``l1``, ``l2``, ``l3`` are per-level parameter dicts; ``strategy`` and
    ``llm`` are forwarded to L3. ``salt`` and ``keep_values`` go to every level.
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
    ):
        self.level = normalize_level(level)
        self.max_chars = int(max_chars)
        params = {"L1": dict(l1 or {}), "L2": dict(l2 or {}), "L3": dict(l3 or {})}
        if strategy is not None:
            params["L3"]["strategy"] = strategy
        if llm is not None:
            params["L3"]["llm"] = llm
        upto = LEVEL_ORDER.index(self.level)
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
        for lvl in self.levels:
            r = lvl.apply(cur, manifest)
            removed.extend(r.removed)
            if r.notes:
                notes[lvl.name] = r.notes
            accepted = accepted and r.accepted
            cur = r.text
        return TextResult(text=cur, removed=removed, level=self.level, accepted=accepted, notes=notes)

    __call__ = run


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
    cands: list[Candidate] = list(_RULES.find(text))
    if manifest:
        cands.extend(manifest_candidates(text, manifest, fuzzy=fuzzy))
    covered = [(c.start, c.end) for c in cands]
    cands.extend((context or _CONTEXT).find(text, covered))
    if "[" in text:
        cands = drop_inside(cands, [m.span() for m in PLACEHOLDER_RE.finditer(text)])
    return [
        RemovedSpan(c.category, "rescan", c.start, c.end, c.source, digest_value(text[c.start : c.end], salt))
        for c in resolve_overlaps(cands)
    ]


__all__ = ["MAX_CHARS", "TextPipeline", "deidentify", "get_pipeline", "rescan"]
