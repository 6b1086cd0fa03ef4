"""L3: rewrite-based de-identification with an LLM, validated, falling back to L2.

>>> from clinx.text.rewrite import make_l3
>>> l3 = make_l3("multi_agent")          # embedded SmolLM2 via llama.cpp
>>> l3.apply("Does [NAME], a retired pilot, have a fracture of the left femur?").text  # doctest: +SKIP

Strategies:

* ``single`` — the ClinX paper's one-prompt rewrite (:mod:`.single`);
* ``multi_agent`` — privacy extraction (rules, then LLM quasi-identifiers),
  semantic slots, conflict routing, reconstruction (:mod:`.agents`).

Both take the **L2 output** as input, validate every rewrite
(:mod:`.validate`) and fall back to the L2 text — never to the original.
"""

from __future__ import annotations

import threading
from typing import Any, Mapping

from clinx.text.rewrite.common import L3Base

STRATEGIES = ("multi_agent", "single")

_default_llm = None
_default_lock = threading.Lock()


def default_llm():
    """One shared embedded SmolLM2 (llama.cpp) per process, so every L3 level reuses the loaded model."""
    global _default_llm
    with _default_lock:
        if _default_llm is None:
            from clinx.llm import get_llm

            _default_llm = get_llm("llamacpp")
        return _default_llm


def resolve_llm(llm: Any = None):
    """A :class:`~clinx.llm.ChatLLM` from an instance, a registry name, a config mapping or ``None`` (default)."""
    from clinx.llm import ChatLLM, get_llm

    if llm is None:
        return default_llm()
    if isinstance(llm, ChatLLM):
        return llm
    if isinstance(llm, str):
        return get_llm(llm)
    if isinstance(llm, Mapping):
        if "_target_" in llm:
            from hydra.utils import instantiate

            return instantiate(llm, _convert_="all")
        params = dict(llm)
        return get_llm(params.pop("name", "llamacpp"), **params)
    raise TypeError(f"llm must be a ChatLLM, a backend name, a config mapping or None; got {type(llm).__name__}")


def make_l3(strategy: str = "multi_agent", llm: Any = None, **kw) -> L3Base:
    """Build the L3 level: ``make_l3(...).apply(l2_text, manifest) -> TextResult``.

    ``kw`` go to the rewriter: ``rescan`` (a ``(text, manifest) -> spans``
    function; default :func:`clinx.text.pipeline.rescan`), ``llm_params``
    (per-call chat overrides such as ``max_tokens``), ``max_growth``,
    ``min_retention``, ``salt``, ``keep_values``; for ``multi_agent`` also
    ``max_items``, ``max_facts``, ``use_draft``.
    """
    strategy = strategy.replace("-", "_")
    if strategy == "multi_agent":
        from clinx.text.rewrite.agents import MultiAgentRewriter as cls
    elif strategy == "single":
        from clinx.text.rewrite.single import SingleRewriter as cls
    else:
        raise KeyError(f"unknown L3 strategy {strategy!r}; known: {', '.join(STRATEGIES)}")
    return cls(resolve_llm(llm), **kw)


__all__ = ["make_l3", "resolve_llm", "default_llm", "STRATEGIES"]
