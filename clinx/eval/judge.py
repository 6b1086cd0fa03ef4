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

#: Closed-ended answers: a yes/no pair is graded by equality, never by the LLM.
_CLOSED = frozenset({"yes", "no"})
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")

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


def _norm_answer(text: str) -> str:
    """Lower case, punctuation and a leading article dropped, spaces collapsed: ``"The Lung."`` -> ``"lung"``."""
    s = re.sub(r"[^\w\s]", " ", str(text).lower())
    return _ARTICLE.sub("", " ".join(s.split()))


def rule_score(reference: str, prediction: str) -> int | None:
    """The verdict when no judgement is needed, else ``None``.

    1 when the answers are the same after :func:`_norm_answer`; for a
    closed-ended pair (both yes/no) equality decides, so a ``no`` against a
    ``yes`` is 0 — the exact-match scoring VQA-RAD and SLAKE use for closed
    questions. Open answers that differ go to the LLM.
    """
    r, p = _norm_answer(reference), _norm_answer(prediction)
    if not p:
        return 0
    if r == p:
        return 1
    if r in _CLOSED and p in _CLOSED:
        return 0
    return None


class LLMJudge:
    """A binary judge on top of a chat LLM.

    An empty prediction is scored 0 without asking (nothing can be consistent
    with a reference); with ``rules`` (the default) identical answers and
    closed-ended yes/no pairs are graded by :func:`rule_score` without asking
    either — the embedded SmolLM2-135M calls nearly every pair consistent
    under llama-cpp-python 0.3.35/0.3.36, so on its own it cannot tell ``no``
    from ``yes``. An unparseable reply is scored 0 and counted in
    ``unparsed`` so reports can say how often the judge failed to answer.
    """

    def __init__(self, llm: Any, name: str = "judge", max_tokens: int = 12, constrained: bool = True, rules: bool = True):
        self.rules = bool(rules)
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
                                             str(self.constrained), str(self.rules), code_digest(__name__), __version__)[:12]

    @property
    def judge_id(self) -> str:
        """Deprecated alias of :meth:`fingerprint`."""
        return self.fingerprint()

    def score_one(self, question: str, reference: str, prediction: str) -> int:
        if not str(prediction).strip():
            return 0
        if self.rules:
            v = rule_score(reference, prediction)
            if v is not None:
                return v
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


def build_judge(name: str, llm: Mapping | Any, max_tokens: int = 12, constrained: bool = True, rules: bool = True) -> LLMJudge:
    """A judge from a config: ``llm`` is a Hydra ``_target_`` node (or an already built ChatLLM)."""
    if isinstance(llm, Mapping) or hasattr(llm, "keys"):
        from hydra.utils import instantiate

        llm = instantiate(llm)
    return LLMJudge(llm, name=name, max_tokens=max_tokens, constrained=constrained, rules=rules)
