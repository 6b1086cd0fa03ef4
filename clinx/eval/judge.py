"""LLM-as-judge utility (ClinX Appendix C.2).

The judge sees only the question, the reference short answer and the
prediction — never the image, the privacy condition, the VQA model's name or
any PHI — and returns a binary score: 1 when the prediction is clinically
consistent with the reference, else 0. The score of a cell is the percentage
of items judged 1. Judges are reported separately, never averaged, because
they differ in strictness (the paper used Llama-3.1-8B and
Mistral-7B-Instruct-v0.3; clinx's embedded default is SmolLM2-135M, which is
far weaker — its numbers say how a tiny local judge behaves, not what a
7–8B judge would say).

Any :class:`clinx.llm.ChatLLM` backend can judge (llama.cpp GGUF in process,
an OpenAI-compatible server, local transformers).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from clinx.records import text_digest

SYSTEM = (
    "You grade answers to medical visual questions. You are given a question, the reference answer "
    "and a predicted answer. Reply 1 if the predicted answer is clinically consistent with the "
    "reference answer (same meaning, synonyms and formatting differences allowed), otherwise reply 0. "
    "Reply with the single digit only."
)
USER = "Question: {question}\nReference answer: {reference}\nPredicted answer: {prediction}\nScore (1 or 0):"
#: Constrained decoding (llama.cpp grammar, vLLM ``response_format``): the reply is always
#: ``{"score": 0|1}``. Without it a 135M judge sometimes answers the question instead of grading it.
SCORE_SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer", "enum": [0, 1]}},
    "required": ["score"],
}

_DIGIT = re.compile(r"(?<![\d.])([01])(?!\d|\.\d)")
_WORDS = re.compile(r"\b(yes|no|correct|incorrect|consistent|inconsistent|true|false)\b", re.I)
_POSITIVE = {"yes", "correct", "consistent", "true"}


def build_messages(question: str, reference: str, prediction: str) -> list[dict]:
    """The judge's chat messages: system rubric + one user turn with the three fields only."""
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": USER.format(question=question.strip(), reference=str(reference).strip(),
                                                prediction=str(prediction).strip() or "(no answer)")},
    ]


def parse_score(text: str | None) -> int | None:
    """1 / 0 from a judge reply (first standalone digit, else first verdict word); ``None`` if neither."""
    if not text:
        return None
    s = re.sub(r"<think>.*?</think>", " ", str(text), flags=re.S | re.I)
    m = _DIGIT.search(s)
    if m:
        return int(m.group(1))
    w = _WORDS.search(s)
    if w:
        return int(w.group(1).lower() in _POSITIVE)
    return None


class LLMJudge:
    """A binary judge on top of a chat LLM.

    An empty prediction is scored 0 without asking (nothing can be consistent
    with a reference); an unparseable reply is scored 0 and counted in
    ``unparsed`` so reports can say how often the judge failed to answer.
    """

    def __init__(self, llm: Any, name: str = "judge", max_tokens: int = 12, constrained: bool = True):
        self.llm = llm
        self.name = name
        self.max_tokens = int(max_tokens)
        self.constrained = bool(constrained)
        self.calls = 0
        self.unparsed = 0

    def fingerprint(self) -> str:
        """Identifies the judge: its LLM's fingerprint, the rubric, decoding and this module's code (score cache key)."""
        from clinx import __version__
        from clinx.fingerprint import code_digest, fingerprint_of

        return f"{self.name}:" + text_digest(fingerprint_of(self.llm), SYSTEM, USER, str(self.max_tokens),
                                             str(self.constrained), code_digest(__name__), __version__)[:12]

    @property
    def judge_id(self) -> str:
        """Deprecated alias of :meth:`fingerprint`."""
        return self.fingerprint()

    def score_one(self, question: str, reference: str, prediction: str) -> int:
        if not str(prediction).strip():
            return 0
        self.calls += 1
        kw = {"json_schema": SCORE_SCHEMA} if self.constrained else {}
        reply = self.llm.chat(build_messages(question, reference, prediction), max_tokens=self.max_tokens,
                              temperature=0.0, **kw)
        v = parse_score(reply)
        if v is None:
            self.unparsed += 1
            return 0
        return v

    def score(self, items: Sequence[tuple[str, str, str]]) -> list[int]:
        """Scores for ``(question, reference, prediction)`` triples, in order."""
        return [self.score_one(q, r, p) for q, r, p in items]


def build_judge(name: str, llm: Mapping | Any, max_tokens: int = 12, constrained: bool = True) -> LLMJudge:
    """A judge from a config: ``llm`` is a Hydra ``_target_`` node (or an already built ChatLLM)."""
    if isinstance(llm, Mapping) or hasattr(llm, "keys"):
        from hydra.utils import instantiate

        llm = instantiate(llm)
    return LLMJudge(llm, name=name, max_tokens=max_tokens, constrained=constrained)
