"""Pieces both L3 strategies share: the safe starting text, LLM calls that never raise, results.

Both strategies work on the **L2 text** (L3 is ``T3(q⁽²⁾)``), never on the
original: whatever L1/L2 removed is already a placeholder, and anything a
re-scan still finds is masked *before* the text is shown to an LLM — so a
remote backend (vLLM, Ollama) is never sent an identifier the rules know about.
"""

from __future__ import annotations

import time
from typing import Any, Mapping

from clinx.llm.base import ChatLLM, LLMError
from clinx.llm.jsonparse import JSONParseError
from clinx.records import Manifest
from clinx.text.base import TextResult, check_text
from clinx.text.rewrite.validate import RescanFn, Verdict, default_rescan, safe_fallback, validate_rewrite


class LLMCall:
    """Run one JSON-mode chat and classify failures into log-safe reason codes."""

    def __init__(self, llm: ChatLLM, params: Mapping[str, Any] | None = None):
        self.llm = llm
        self.params = dict(params or {})
        self.calls = 0
        self.seconds = 0.0

    def __call__(self, messages: list[dict], schema: dict, key: str) -> tuple[Any, str | None]:
        """``(parsed JSON, None)`` or ``(None, reason)``; ``key`` names the field the schema requires."""
        from clinx.llm.jsonparse import parse_json

        t0 = time.perf_counter()
        self.calls += 1
        try:
            raw = self.llm.chat(messages, json_schema=schema, **self.params)
            data = parse_json(raw, expect=dict)
        except LLMError:
            return None, "llm_error"
        except JSONParseError:
            return None, "unparseable"
        finally:
            self.seconds += time.perf_counter() - t0
        if key not in data:
            return None, "bad_shape"
        return data, None


class L3Base:
    """Shared plumbing for the L3 rewriters: ``apply(text, manifest) -> TextResult``.

    Subclasses implement :meth:`_candidates`, yielding ``(source, text)``
    rewrites in order of preference; the first one :func:`validate_rewrite`
    accepts wins, otherwise the result is :func:`safe_fallback` of the input.
    """

    name = "L3"
    strategy = "abstract"

    def __init__(self, llm: ChatLLM, *, rescan: RescanFn | None = None, llm_params: Mapping[str, Any] | None = None,
                 max_growth: float = 2.0, min_retention: float = 1.0, salt=None, keep_values: bool = False):
        self.llm = llm
        self.rescan = rescan or default_rescan
        self.llm_params = dict(llm_params or {})
        self.max_growth = max_growth
        self.min_retention = min_retention
        self.salt = salt
        self.keep_values = keep_values

    # -- subclass hook -----------------------------------------------------------------
    def _candidates(self, base: str, l2_text: str, manifest: Manifest | None, notes: dict, call: LLMCall, state: dict):
        """Yield ``(source, rewrite or None)``. ``state`` is per-call scratch space (may hold PHI; never logged)."""
        raise NotImplementedError

    def _extra_removed(self, base_result: TextResult, notes: dict, state: dict) -> list:
        """Spans the strategy itself removed (audit trail), beyond the fallback masking."""
        return []

    # -- the level -------------------------------------------------------------------
    def apply(self, text: str, manifest: Manifest | None = None) -> TextResult:
        """Rewrite ``text`` (the L2 output); fall back to the (masked) L2 text when no rewrite validates."""
        check_text(text)
        t0 = time.perf_counter()
        base_res = safe_fallback(text, manifest, rescan=self.rescan, salt=self.salt, keep_values=self.keep_values)
        base = base_res.text
        notes: dict[str, Any] = {"strategy": self.strategy, "fallback_masked": base_res.notes.get("fallback_masked", 0), "verdicts": []}
        call = LLMCall(self.llm, self.llm_params)
        chosen: tuple[str, str] | None = None
        state: dict[str, Any] = {}
        if base.strip():
            try:
                for source, cand in self._candidates(base, text, manifest, notes, call, state):
                    if cand is None:
                        continue
                    v: Verdict = validate_rewrite(cand, text, manifest, rescan=self.rescan, max_growth=self.max_growth, min_retention=self.min_retention)
                    notes["verdicts"].append({"source": source, **v.to_notes()})
                    if v.ok:
                        chosen = (source, cand.strip())
                        break
            except Exception as e:  # fail closed: an unexpected failure means "no rewrite", never a crash mid-batch
                notes["internal_error"] = type(e).__name__
                chosen = None
        else:
            notes["reasons"] = ["empty_input"]
        notes["llm_calls"] = call.calls
        notes["llm_seconds"] = round(call.seconds, 4)
        removed = list(base_res.removed)
        if chosen is not None:
            notes["source"] = chosen[0]
            removed += self._extra_removed(base_res, notes, state)
            out = TextResult(text=chosen[1], removed=removed, level="L3", accepted=True, notes=notes)
        else:
            notes["source"] = "fallback"
            out = TextResult(text=base, removed=removed, level="L3", accepted=False, notes=notes)
        notes["seconds"] = round(time.perf_counter() - t0, 4)
        return out

    __call__ = apply

    def __repr__(self) -> str:
        return f"{type(self).__name__}(llm={self.llm!r})"
