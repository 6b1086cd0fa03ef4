"""Any OpenAI-compatible vision chat endpoint as a MedVQA model (vLLM, SGLang, llama.cpp server…).

Each item is one ``POST {base_url}/chat/completions`` with the image as a
base64 ``data:`` URL in an ``image_url`` part and the question plus the
short-answer instruction in a text part; greedy (temperature 0), at most 32
new tokens. Transient failures (connection errors, timeouts, HTTP 429 and
5xx) are retried with exponential back-off; anything else fails the batch
with the status code — never the request body, which carries PHI at L0.

Serving one of the paper's models with vLLM::

    vllm serve /models/medgemma-1.5-4b-it --served-model-name medgemma
    clinx-eval vqa=openai_vision vqa.base_url=http://localhost:8000/v1 vqa.model=medgemma
"""

from __future__ import annotations

import base64
import io
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np

from clinx.errors import ClinxError

from .base import SHORT_ANSWER_PROMPT, VQAModel, check_batch, parse_answer

log = logging.getLogger(__name__)

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class EndpointError(ClinxError):
    """The endpoint refused or kept failing; the message names the status, never the request."""


def image_data_url(image: np.ndarray, fmt: str = "png", quality: int = 95) -> str:
    """Encode an RGB ``uint8`` image as a ``data:image/...;base64,`` URL (PNG is lossless: the model sees x̂ exactly)."""
    from PIL import Image

    buf = io.BytesIO()
    pil = Image.fromarray(np.asarray(image))
    if fmt.lower() in ("jpg", "jpeg"):
        pil.save(buf, format="JPEG", quality=quality)
        mime = "jpeg"
    else:
        pil.save(buf, format="PNG")
        mime = "png"
    return f"data:image/{mime};base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def build_messages(image: np.ndarray, question: str, system: str | None = None, image_format: str = "png",
                   instruction: str = SHORT_ANSWER_PROMPT) -> list[dict]:
    """The chat messages of one item: optional system turn, then image + question in one user turn."""
    msgs: list[dict] = []
    if system:
        msgs.append({"role": "system", "content": system})
    msgs.append({
        "role": "user",
        "content": [
            {"type": "image_url", "image_url": {"url": image_data_url(image, image_format)}},
            {"type": "text", "text": f"{question.strip()}\n{instruction}"},
        ],
    })
    return msgs


class OpenAIVisionVQA(VQAModel):
    """A VQA model served behind an OpenAI-compatible ``/chat/completions`` endpoint.

    ``api_key`` defaults to ``$OPENAI_API_KEY`` (vLLM accepts any value);
    ``transport`` lets tests plug in an ``httpx.MockTransport``; ``sleep`` is
    the back-off clock (tests pass a no-op).
    """

    def __init__(self, base_url: str, model: str, api_key: str | None = None, name: str | None = None,
                 timeout: float = 120.0, max_retries: int = 4, backoff: float = 1.0, max_tokens: int = 32,
                 temperature: float = 0.0, concurrency: int = 4, image_format: str = "png",
                 system: str | None = None, transport=None, sleep: Callable[[float], None] = time.sleep,
                 instruction: str | None = None):
        import httpx

        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = name or f"openai:{model}"
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.max_tokens = int(max_tokens)
        self.temperature = float(temperature)
        self.concurrency = max(1, int(concurrency))
        self.image_format = image_format
        self.system = system
        self.instruction = str(instruction or SHORT_ANSWER_PROMPT)  # a thinking model served here needs its own
        self._sleep = sleep
        key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", "EMPTY")
        self._client = httpx.Client(
            base_url=self.base_url, timeout=timeout, transport=transport,
            headers={"Authorization": f"Bearer {key}"},
        )
        self.calls = 0

    def id_parts(self):
        return (type(self).__name__, self.base_url, self.model, self.instruction, self.temperature,
                self.max_tokens, self.system or "", self.image_format)

    def payload(self, image: np.ndarray, question: str) -> dict:
        """The JSON body for one item (exposed for tests)."""
        return {
            "model": self.model,
            "messages": build_messages(image, question, self.system, self.image_format, self.instruction),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }

    def _post(self, body: dict) -> str:
        import httpx

        last = ""
        for attempt in range(self.max_retries + 1):
            try:
                r = self._client.post("/chat/completions", json=body)
            except (httpx.TransportError, httpx.TimeoutException) as exc:
                last = type(exc).__name__
            else:
                if r.status_code == 200:
                    try:
                        return r.json()["choices"][0]["message"].get("content") or ""
                    except (ValueError, KeyError, IndexError, TypeError):
                        raise EndpointError(f"{self.base_url}: malformed chat completion response") from None
                if r.status_code not in RETRY_STATUS:
                    raise EndpointError(f"{self.base_url}: HTTP {r.status_code} for model {self.model!r}")
                last = f"HTTP {r.status_code}"
            if attempt < self.max_retries:
                self._sleep(self.backoff * (2 ** attempt))
        raise EndpointError(f"{self.base_url}: gave up after {self.max_retries + 1} attempts ({last})")

    def answer(self, images: list[np.ndarray], questions: list[str]) -> list[str]:
        check_batch(images, questions)
        bodies = [self.payload(im, q) for im, q in zip(images, questions)]
        if self.concurrency == 1 or len(bodies) == 1:
            raw = [self._post(b) for b in bodies]
        else:
            with ThreadPoolExecutor(self.concurrency) as pool:
                raw = list(pool.map(self._post, bodies))
        self.calls += len(questions)
        return [parse_answer(r) for r in raw]

    def close(self) -> None:
        self._client.close()
