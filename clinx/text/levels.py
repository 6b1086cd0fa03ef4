"""The ``TEXT_LEVELS`` registry: ``L0``..``L3`` by name.

Each entry is a factory ``(**params) -> TextLevel``. Every factory accepts the
shared keyword arguments ``salt`` and ``keep_values`` (audit-trail digests and
whether removed values are kept in clear), plus its own:

* ``L0`` — no parameters; returns the text unchanged.
* ``L1`` — :class:`clinx.text.rules.RuleLevel` (``use_manifest``, ``fuzzy``, ``enabled``).
* ``L2`` — :class:`clinx.text.context.ContextLevel` (``window``, ``after``, ``boost``,
  ``placeholder_boost``, ``threshold``, ``ner``: ``"crf"`` (default), ``"spacy"`` or ``None``,
  the statistical layer: :mod:`clinx.text.crf`, :mod:`clinx.text.ner`).
* ``L3`` — ``clinx.text.rewrite.make_l3(strategy=..., llm=..., salt=..., keep_values=..., **params)``,
  imported lazily so that L0–L2 never import an LLM stack. Its ``apply(text,
  manifest)`` receives the *L2 output*; on a rejected rewrite it must return
  that text unchanged with ``accepted=False`` (never the original).

Levels are cumulative: the pipeline applies L1, then L2 on L1's output, and so
on (q⁽ˡ⁾ = Tₗ(q⁽ˡ⁻¹⁾)); see :mod:`clinx.text.pipeline`.
"""

from __future__ import annotations

from clinx.records import Manifest
from clinx.registry import Registry, lazy
from clinx.text.base import TextLevel, TextResult, check_text
from clinx.text.context import ContextLevel
from clinx.text.rules import RuleLevel

#: Levels in application order.
LEVEL_ORDER: tuple[str, ...] = ("L0", "L1", "L2", "L3")

#: Levels that only replace spans of their input (offsets into it in ``removed``):
#: the pipeline runs them on the Unicode-folded view and replaces the spans they
#: find in the original text. L3 rewrites the whole text and is not one of them.
SPAN_LEVELS: frozenset[str] = frozenset({"L0", "L1", "L2"})

TEXT_LEVELS: Registry = Registry("text level")


class IdentityLevel:
    """L0: the PHI-bearing text as it came (isolates the image branch in the grid)."""

    name = "L0"

    def __init__(self, *, salt=None, keep_values: bool = False):
        # accepted for a uniform factory signature; L0 removes nothing
        self.salt = salt
        self.keep_values = keep_values

    def apply(self, text: str, manifest: Manifest | None = None) -> TextResult:
        return TextResult(text=check_text(text), removed=[], level=self.name)


TEXT_LEVELS.register("L0", IdentityLevel)
TEXT_LEVELS.register("L1", RuleLevel)
TEXT_LEVELS.register("L2", ContextLevel)
TEXT_LEVELS.register("L3", lazy("clinx.text.rewrite", "make_l3"))


def normalize_level(level: str | int) -> str:
    """Accept ``"L2"``, ``"l2"``, ``"2"`` or ``2``; return the canonical ``"L2"``."""
    s = str(level).strip().upper()
    if not s.startswith("L"):
        s = "L" + s
    if s not in LEVEL_ORDER:
        raise KeyError(f"unknown text level {level!r}; known: {', '.join(LEVEL_ORDER)}")
    return s


def make_level(name: str, **params) -> TextLevel:
    """Build one level by name with its parameters."""
    return TEXT_LEVELS.get(normalize_level(name))(**params)


__all__ = ["LEVEL_ORDER", "SPAN_LEVELS", "TEXT_LEVELS", "IdentityLevel", "make_level", "normalize_level"]
