"""The one interface every MedVQA model implements.

A model takes a batch of RGB ``uint8`` images and questions and returns one
short answer string per item. ``fingerprint()`` names the model *and* everything
that changes its answers (weights, prompt, decoding, the code that runs it), so
the grid runner can cache predictions per (fingerprint, image, question) and
never reuse an answer produced by a different model, setting or code version.
"""

from __future__ import annotations

import abc
import re
from typing import Sequence

import numpy as np

from clinx.records import text_digest

#: The instruction appended to every generative model's question (ClinX §4.1).
SHORT_ANSWER_PROMPT = "Answer with a single word or phrase."


class VQAModel(abc.ABC):
    """Abstract MedVQA model: ``answer(images, questions) -> answers``."""

    #: Short human-readable name used in reports ("baseline", "medgemma-1.5-4b", ...).
    name: str = "vqa"

    def fingerprint(self) -> str:
        """A stable identifier of the weights, settings and code; the prediction-cache key.

        Subclasses extend :meth:`id_parts`; the fingerprint is ``name`` plus a
        digest of those parts, the source of the model's module and of this
        one (prompt, answer parsing) and ``clinx.__version__``.
        """
        from clinx import __version__
        from clinx.fingerprint import code_digest

        code = code_digest(type(self).__module__, __name__)
        return f"{self.name}-{text_digest(*[str(p) for p in self.id_parts()], code, __version__)[:12]}"

    @property
    def model_id(self) -> str:
        """Deprecated alias of :meth:`fingerprint` (kept for callers of the old name)."""
        return self.fingerprint()

    def id_parts(self) -> Sequence[object]:
        """Everything that changes this model's answers (weights digest, prompt, decoding)."""
        return (type(self).__name__, self.name)

    @abc.abstractmethod
    def answer(self, images: list[np.ndarray], questions: list[str]) -> list[str]:
        """Answer each ``(image, question)`` pair; returns one string per pair, same order.

        Images are ``uint8`` ``(H, W, 3)`` RGB. Implementations batch internally
        as they see fit and must return exactly ``len(questions)`` strings.
        """

    def close(self) -> None:
        """Release resources (GPU memory, HTTP connections). Safe to call twice."""

    def __enter__(self) -> "VQAModel":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def check_batch(images: Sequence[np.ndarray], questions: Sequence[str]) -> None:
    """Raise ``ValueError`` when a batch is malformed (length mismatch, non-RGB-uint8 image)."""
    if len(images) != len(questions):
        raise ValueError(f"got {len(images)} images for {len(questions)} questions")
    for i, im in enumerate(images):
        a = np.asarray(im)
        if a.dtype != np.uint8 or a.ndim != 3 or a.shape[2] != 3:
            raise ValueError(f"image {i} must be uint8 (H, W, 3), got {a.dtype} {a.shape}")


_THINK = re.compile(r"<think>.*?</think>", flags=re.S | re.I)
_OPEN_THINK = re.compile(r"<think>.*\Z", flags=re.S | re.I)
_ANSWER_TAG = re.compile(r"<answer>(.*?)(?:</answer>|\Z)", flags=re.S | re.I)
_PREFIX = re.compile(
    r"^\s*(?:(?:assistant|model|gpt)\s*:\s*)?(?:(?:the\s+)?(?:final\s+)?answer(?:\s+is)?\s*[:\-]?\s*)?",
    flags=re.I,
)
_SPECIAL = re.compile(r"</?s>|<\|[^|>]*\|>|<end_of_turn>|<start_of_turn>|\[/?INST\]")


def parse_answer(text: str | None) -> str:
    """Reduce a generative model's reply to its short answer.

    Drops ``<think>…</think>`` blocks (and an unterminated ``<think>`` tail,
    which means the model ran out of tokens while reasoning: no answer; a
    reply holding only the end of a block the template opened keeps what
    follows ``</think>``),
    keeps the inside of ``<answer>…</answer>`` when present, strips leftover
    special tokens, an ``Answer:`` / ``The answer is`` prefix, surrounding
    quotes or ``**`` and trailing periods, and keeps the first non-empty line.
    """
    if not text:
        return ""
    s = str(text)
    if "</think>" in s.lower() and "<think>" not in s.lower():
        # Templates that open the <think> block in the prompt: the reply holds only its end.
        s = s[s.lower().rindex("</think>") + len("</think>"):]
    tagged = _ANSWER_TAG.findall(_THINK.sub(" ", s))
    if tagged:
        s = tagged[-1]
    else:
        s = _OPEN_THINK.sub("", _THINK.sub(" ", s))
    s = _SPECIAL.sub(" ", s)
    lines = [ln.strip() for ln in s.splitlines() if ln.strip()]
    if not lines:
        return ""
    s = _PREFIX.sub("", lines[0], count=1).strip()
    s = s.strip("*_`\"' ").strip()
    s = s.rstrip(".").strip()
    return s
