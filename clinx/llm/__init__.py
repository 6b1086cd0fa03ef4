"""LLM backends behind one chat interface.

>>> from clinx.llm import get_llm
>>> llm = get_llm("llamacpp")            # embedded SmolLM2-135M-Instruct, no download
>>> llm.chat([{"role": "user", "content": "Say OK."}], max_tokens=4)  # doctest: +SKIP

Backends (registry :data:`LLMS`, imported lazily so ``import clinx.llm`` does
not load llama.cpp, httpx or torch):

* ``llamacpp`` — in-process llama.cpp (:class:`~clinx.llm.llamacpp.LlamaCppLLM`)
* ``openai`` — OpenAI-compatible HTTP: vLLM, Ollama, llama.cpp server (:class:`~clinx.llm.openai_http.OpenAIChatLLM`)
* ``transformers`` — a local ``transformers`` folder (:class:`~clinx.llm.hf_transformers.TransformersLLM`)

Every backend caches responses on disk (see :mod:`clinx.llm.cache` — the
cache holds PHI-derived text and is private to the user).
"""

from __future__ import annotations

from clinx.llm.base import ChatLLM, ChatParams, LLMError, check_messages
from clinx.llm.cache import ResponseCache, default_cache_dir
from clinx.llm.jsonparse import JSONParseError, parse_json
from clinx.registry import Registry, lazy

LLMS: Registry = Registry("llm")
LLMS.register("llamacpp", lazy("clinx.llm.llamacpp", "LlamaCppLLM"))
LLMS.register("openai", lazy("clinx.llm.openai_http", "OpenAIChatLLM"))
LLMS.register("transformers", lazy("clinx.llm.hf_transformers", "TransformersLLM"))


def get_llm(name: str = "llamacpp", **params) -> ChatLLM:
    """Build the backend registered as ``name`` with its constructor ``params``."""
    return LLMS.get(name)(**params)


__all__ = [
    "LLMS", "get_llm", "ChatLLM", "ChatParams", "LLMError", "check_messages",
    "ResponseCache", "default_cache_dir", "JSONParseError", "parse_json",
]
