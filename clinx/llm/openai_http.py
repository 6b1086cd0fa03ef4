"""OpenAI-compatible chat completions over HTTP (vLLM, Ollama, llama.cpp server, OpenAI).

Point it at any server that speaks ``POST {base_url}/chat/completions``:

* vLLM:              ``base_url=http://host:8000/v1``, ``model=<served model name>``
* Ollama:            ``base_url=http://localhost:11434/v1``, ``model=llama3.1:8b``
* llama.cpp server:  ``base_url=http://127.0.0.1:8080/v1`` (``python -m llama_cpp.server``)

Transient failures (connection errors, timeouts, HTTP 429 and 5xx) are retried
with exponential backoff; other 4xx fail at once. The API key is read from the
config or ``api_key_env`` and never logged. Remember that the prompts carry
the text being de-identified: use only servers you trust with PHI.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from clinx.llm.base import ChatLLM, ChatParams, LLMError

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})

#: How JSON mode is requested. ``json_schema`` is the OpenAI / vLLM / Ollama
#: structured-output form; ``llamacpp`` is llama.cpp server's
#: ``{"type": "json_object", "schema": ...}``; ``json_object`` asks for any
#: JSON object; ``none`` sends nothing (prompt-only JSON, parsed robustly).
JSON_STYLES = ("json_schema", "llamacpp", "json_object", "none")


class OpenAIChatLLM(ChatLLM):
    """Chat client for OpenAI-compatible servers, built on :mod:`httpx`."""

    name = "openai"

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000/v1",
        model: str = "default",
        *,
        api_key: str | None = None,
        api_key_env: str | None = "OPENAI_API_KEY",
        timeout: float = 60.0,
        connect_timeout: float = 5.0,
        retries: int = 3,
        backoff: float = 0.5,
        backoff_max: float = 8.0,
        json_style: str = "json_schema",
        send_seed: bool = True,
        extra_body: dict | None = None,
        params: ChatParams | dict | None = None,
        cache=True,
        transport=None,
    ):
        super().__init__(params=params, cache=cache)
        import httpx

        if json_style not in JSON_STYLES:
            raise ValueError(f"json_style must be one of {JSON_STYLES}, got {json_style!r}")
        if int(retries) < 0:
            raise ValueError("retries must be >= 0")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.retries = int(retries)
        self.backoff = float(backoff)
        self.backoff_max = float(backoff_max)
        self.json_style = json_style
        self.send_seed = bool(send_seed)
        self.extra_body = dict(extra_body or {})
        key = api_key or (os.environ.get(api_key_env) if api_key_env else None)
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(float(timeout), connect=float(connect_timeout)),
            transport=transport,
        )
        self._sleep = time.sleep  # swapped out by unit tests
        self._rng = random.Random(0)  # jitter; seeded so retries are reproducible

    @property
    def model_id(self) -> str:
        return f"openai:{self.base_url}:{self.model}"

    def _payload(self, messages: list[dict], p: ChatParams) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": p.temperature,
            "top_p": p.top_p,
            "max_tokens": p.max_tokens,
        }
        if self.send_seed:
            body["seed"] = p.seed
        if p.stop:
            body["stop"] = list(p.stop)
        if p.json_mode and self.json_style != "none":
            if self.json_style == "json_schema" and p.json_schema is not None:
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": "clinx_output", "schema": dict(p.json_schema), "strict": True},
                }
            elif self.json_style == "llamacpp" and p.json_schema is not None:
                body["response_format"] = {"type": "json_object", "schema": dict(p.json_schema)}
            else:
                body["response_format"] = {"type": "json_object"}
        body.update(self.extra_body)
        return body

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(float(retry_after), self.backoff_max)
            except ValueError:
                pass
        base = min(self.backoff * (2 ** attempt), self.backoff_max)
        return base * (0.5 + 0.5 * self._rng.random())

    def _complete(self, messages: list[dict], params: ChatParams) -> str:
        import httpx

        body = self._payload(messages, params)
        last = "no attempt made"
        for attempt in range(self.retries + 1):
            retry_after = None
            try:
                resp = self._client.post("/chat/completions", json=body)
            except (httpx.TimeoutException, httpx.TransportError) as e:
                last = f"{type(e).__name__}"
            else:
                if resp.status_code == 200:
                    return self._content(resp)
                if resp.status_code not in RETRY_STATUS:
                    # A client error will not fix itself; report the status only
                    # (the body may echo the prompt).
                    raise LLMError(f"openai: HTTP {resp.status_code} from {self.base_url}")
                last = f"HTTP {resp.status_code}"
                retry_after = resp.headers.get("retry-after")
            self.stats.extra["retries"] = self.stats.extra.get("retries", 0) + (attempt < self.retries)
            if attempt < self.retries:
                self._sleep(self._delay(attempt, retry_after))
        raise LLMError(f"openai: {last} from {self.base_url} after {self.retries + 1} attempt(s)")

    @staticmethod
    def _content(resp) -> str:
        try:
            data = resp.json()
            msg = data["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise LLMError("openai: response is not a chat completion") from e
        content = msg.get("content")
        if content is None:
            content = ""
        if not isinstance(content, str):
            raise LLMError("openai: message content is not text")
        # Reasoning servers (vLLM --reasoning-parser) put thoughts in a separate
        # field; we return only the answer, and jsonparse strips inline <think>.
        return content

    def models(self) -> list[str]:
        """Model names the server lists at ``GET /models`` (a readiness / config check)."""
        resp = self._client.get("/models")
        if resp.status_code != 200:
            raise LLMError(f"openai: HTTP {resp.status_code} listing models at {self.base_url}")
        return [m.get("id", "") for m in resp.json().get("data", [])]

    def close(self) -> None:
        self._client.close()
