"""One chat interface for every LLM backend.

A backend implements :meth:`ChatLLM._complete` (messages + resolved
:class:`ChatParams` -> text). Everything shared lives here: parameter
defaults and per-call overrides, message validation, the on-disk response
cache (so reruns are free and deterministic) and strict-JSON helpers.

Messages follow the OpenAI shape: ``[{"role": "system"|"user"|"assistant",
"content": str}, ...]``. Prompts and responses may contain PHI, so nothing in
this module logs them; errors name the backend and the problem only.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping, Sequence

from clinx.errors import ClinxError, safe_reason

ROLES = ("system", "user", "assistant")


class LLMError(ClinxError):
    """A backend could not produce a response (load failure, HTTP error, timeout…)."""


@dataclass(frozen=True)
class ChatParams:
    """Decoding parameters; every field takes part in the cache key.

    ``temperature=0`` means greedy decoding, the default, so that the same
    prompt always gives the same answer. ``json_schema`` (a JSON Schema dict)
    asks backends that support constrained decoding (llama.cpp grammars,
    vLLM / llama.cpp server ``response_format``) to emit only JSON of that
    shape; ``json_mode`` alone asks for any JSON object.
    """

    temperature: float = 0.0
    max_tokens: int = 128
    seed: int = 0
    top_p: float = 1.0
    stop: tuple[str, ...] = ()
    json_mode: bool = False
    json_schema: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.temperature < 0:
            raise ValueError("temperature must be >= 0")
        if int(self.max_tokens) < 1:
            raise ValueError("max_tokens must be >= 1")
        if not 0 < self.top_p <= 1:
            raise ValueError("top_p must be in (0, 1]")
        stop = (self.stop,) if isinstance(self.stop, str) else tuple(self.stop or ())
        object.__setattr__(self, "stop", tuple(str(s) for s in stop))
        object.__setattr__(self, "max_tokens", int(self.max_tokens))
        object.__setattr__(self, "seed", int(self.seed))
        object.__setattr__(self, "temperature", float(self.temperature))
        if self.json_schema is not None:
            object.__setattr__(self, "json_mode", True)

    def merged(self, **overrides: Any) -> "ChatParams":
        """A copy with the non-``None`` overrides applied."""
        changes = {k: v for k, v in overrides.items() if v is not None}
        unknown = set(changes) - set(self.__dataclass_fields__)
        if unknown:
            raise TypeError(f"unknown chat parameter(s): {', '.join(sorted(unknown))}")
        return replace(self, **changes) if changes else self

    def to_dict(self) -> dict:
        d = asdict(self)
        d["stop"] = list(self.stop)
        d["json_schema"] = dict(self.json_schema) if self.json_schema is not None else None
        return d


def check_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict]:
    """Validate and copy chat messages; raise ``ValueError`` naming the bad index (never the content)."""
    if isinstance(messages, (str, bytes)) or not isinstance(messages, Sequence) or not messages:
        raise ValueError("messages must be a non-empty list of {'role', 'content'} dicts")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, Mapping):
            raise ValueError(f"message {i} is not a mapping")
        role, content = m.get("role"), m.get("content")
        if role not in ROLES:
            raise ValueError(f"message {i} has role {role!r}; expected one of {ROLES}")
        if not isinstance(content, str):
            raise ValueError(f"message {i} content must be a string, got {type(content).__name__}")
        out.append({"role": role, "content": content})
    return out


@dataclass
class ChatStats:
    """Counters for reports: calls, cache hits and backend time (seconds)."""

    calls: int = 0
    cache_hits: int = 0
    backend_seconds: float = 0.0
    errors: int = 0
    extra: dict = field(default_factory=dict)


class ChatLLM(ABC):
    """Abstract chat model: ``chat(messages, **params) -> str``.

    Subclasses set ``name`` (the registry name) and ``model_id`` (what
    identifies the weights, e.g. a GGUF file name and size, or a served model
    name + base URL). :meth:`fingerprint` adds the default decoding
    parameters and the backend's code; the response cache is keyed by it, so
    two models, two settings or two code versions never share answers.
    """

    name: str = "abstract"

    def __init__(self, *, params: ChatParams | Mapping[str, Any] | None = None, cache=True):
        if isinstance(params, Mapping):
            params = ChatParams(**params)
        self.params: ChatParams = params or ChatParams()
        # ``cache`` is a ResponseCache, a folder path, True (the default folder,
        # see clinx.llm.cache) or None/False (off). On by default: reruns are free.
        from clinx.llm.cache import as_cache

        self.cache = as_cache(cache)
        self.stats = ChatStats()
        self._lock = threading.Lock()  # backends like llama.cpp are not re-entrant

    @property
    @abstractmethod
    def model_id(self) -> str:
        """Stable identifier of the model weights / endpoint used in cache keys."""

    def fingerprint(self) -> str:
        """The LLM's identity for caches: ``model_id``, default parameters, backend code and ``clinx.__version__``."""
        from clinx.fingerprint import make_fingerprint

        return make_fingerprint(self.model_id, self.params.to_dict(), code=(type(self).__module__, __name__))

    @abstractmethod
    def _complete(self, messages: list[dict], params: ChatParams) -> str:
        """Run the model once and return the assistant text (no caching here)."""

    def chat(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        seed: int | None = None,
        stop: Sequence[str] | str | None = None,
        json_mode: bool | None = None,
        json_schema: Mapping[str, Any] | None = None,
        top_p: float | None = None,
    ) -> str:
        """Answer a conversation; per-call arguments override the configured :class:`ChatParams`.

        Identical requests (same model, messages and parameters) are served
        from the on-disk cache when one is configured.
        """
        msgs = check_messages(messages)
        p = self.params.merged(
            temperature=temperature, max_tokens=max_tokens, seed=seed,
            stop=tuple(stop) if isinstance(stop, (list, tuple)) else stop,
            json_mode=json_mode, json_schema=json_schema, top_p=top_p,
        )
        self.stats.calls += 1
        key = None
        if self.cache is not None:
            key = self.cache.key(self.fingerprint(), msgs, p.to_dict())
            hit = self.cache.get(key)
            if hit is not None:
                self.stats.cache_hits += 1
                return hit
        import time

        t0 = time.perf_counter()
        try:
            with self._lock:
                text = self._complete(msgs, p)
        except LLMError:
            self.stats.errors += 1
            raise
        except Exception as e:  # wrap backend errors without echoing the prompt
            self.stats.errors += 1
            raise LLMError(f"{self.name}: {safe_reason(e)}") from e
        finally:
            self.stats.backend_seconds += time.perf_counter() - t0
        if not isinstance(text, str):
            raise LLMError(f"{self.name}: backend returned {type(text).__name__}, not text")
        if key is not None:
            self.cache.put(key, text, model_id=self.model_id)
        return text

    def chat_json(self, messages: Sequence[Mapping[str, Any]], *, schema: Mapping[str, Any] | None = None, expect: type | None = None, **params: Any) -> Any:
        """:meth:`chat` in JSON mode, parsed with :func:`clinx.llm.jsonparse.parse_json`.

        Raises :class:`clinx.llm.jsonparse.JSONParseError` when no JSON value
        can be recovered from the answer.
        """
        from clinx.llm.jsonparse import parse_json

        text = self.chat(messages, json_mode=True, json_schema=schema, **params)
        return parse_json(text, expect=expect)

    def close(self) -> None:
        """Release model memory / connections. Safe to call twice."""

    def __enter__(self) -> "ChatLLM":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model_id={self.model_id!r})"
