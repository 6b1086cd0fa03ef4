"""Generation: the user's query and the retrieved *sanitized* payloads, answered through clinx's LLM interface.

The prompt follows the RAG extraction literature (context, then the question); decoding is
sampled with the paper's settings (temperature 0.4, top-p 0.9, at most 512 tokens — all in
``configs/rag.yaml``) under a fixed seed, so the LLM response cache makes reruns free and
identical.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from clinx.rag.index import DualTrackIndex, Hit

__all__ = ["Generator", "Answer", "RAGPipeline", "DEFAULT_SYSTEM", "DEFAULT_TEMPLATE"]

DEFAULT_SYSTEM = "You are a clinical assistant. Answer the question using the context."
DEFAULT_TEMPLATE = "Context:\n{context}\n\nQuestion: {query}\nAnswer:"


class Generator:
    """``answer(query, payloads) -> text`` with one :class:`~clinx.llm.ChatLLM`."""

    def __init__(self, llm: Any, *, system: str = DEFAULT_SYSTEM, template: str = DEFAULT_TEMPLATE,
                 temperature: float = 0.4, top_p: float = 0.9, max_tokens: int = 512, seed: int = 0,
                 separator: str = "\n\n"):
        if "{context}" not in template or "{query}" not in template:
            raise ValueError("the generation template needs {context} and {query}")
        self.llm, self.system, self.template, self.separator = llm, system, template, separator
        self.temperature, self.top_p, self.max_tokens, self.seed = float(temperature), float(top_p), int(max_tokens), int(seed)

    def context(self, payloads: Sequence[str]) -> str:
        """The context block exactly as the model sees it."""
        return self.separator.join(p.strip() for p in payloads)

    def answer(self, query: str, payloads: Sequence[str]) -> str:
        """The model's answer to ``query`` given ``payloads``."""
        user = self.template.replace("{context}", self.context(payloads)).replace("{query}", query)
        msgs = ([{"role": "system", "content": self.system}] if self.system else []) + [{"role": "user", "content": user}]
        return self.llm.chat(msgs, temperature=self.temperature, top_p=self.top_p, max_tokens=self.max_tokens,
                             seed=self.seed).strip()


@dataclass
class Answer:
    """A generated answer and the hits (ids, payloads) it was generated from."""

    text: str
    hits: list[Hit] = field(default_factory=list)
    retrieve_ms: float = 0.0

    @property
    def doc_ids(self) -> list[str]:
        return [h.doc_id for h in self.hits]


class RAGPipeline:
    """Retrieve over the dual-track index, generate from the sanitized payloads."""

    def __init__(self, index: DualTrackIndex, generator: Generator):
        self.index, self.generator = index, generator

    def ask(self, query: str) -> Answer:
        """Answer one query."""
        hits = self.index.retrieve(query)
        ms = self.index.last_ms
        return Answer(self.generator.answer(query, [h.payload for h in hits]), hits, ms)
