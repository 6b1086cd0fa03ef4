"""Shared pieces of the RAG tests: a bag-of-words encoder and a scripted LLM (no model, deterministic)."""

from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

from clinx.llm.base import ChatLLM


class HashEncoder:
    """Deterministic bag-of-words vectors (hashed words, L2-normalised): texts sharing words are close."""

    model_id = "hash-bow"

    def __init__(self, dim: int = 64):
        self.dim = dim

    def encode(self, texts):
        out = np.zeros((len(texts), self.dim), np.float32)
        for i, t in enumerate(texts):
            for w in re.findall(r"[a-z0-9]+", t.lower()):
                out[i, int(hashlib.sha256(w.encode()).hexdigest(), 16) % self.dim] += 1.0
            n = np.linalg.norm(out[i])
            out[i] = out[i] / n if n else out[i]
        return out


class EchoLLM(ChatLLM):
    """Answers with the context it was handed (the perfectly obedient attack victim); records every prompt."""

    name = "echo"

    def __init__(self):
        super().__init__(cache=None)
        self.prompts: list[str] = []

    @property
    def model_id(self) -> str:
        return "echo"

    def _complete(self, messages, params):
        user = messages[-1]["content"]
        self.prompts.append("\n".join(m["content"] for m in messages))
        m = re.search(r"Context:\n(.*)\n\nQuestion:", user, re.S)
        return m.group(1) if m else ""


@pytest.fixture
def hash_encoder():
    return HashEncoder()


@pytest.fixture
def echo_llm():
    return EchoLLM()
