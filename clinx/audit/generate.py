"""The generator under test: k-shot in-context generation of synthetic notes, with membership bookkeeping.

Two regimes (the paper's formalisation of membership):

* **static** ICL — one fixed set of ``k`` exemplars serves every query. With
  ``static_reuse = r`` the ``n`` queries are served by ``ceil(n / r)``
  independent static prompts of ``r`` queries each (``r = n`` is the strict
  one-prompt pipeline; smaller ``r`` gives the audit more members to test
  at the same generation cost, while keeping prompt reuse, the paper's
  driver of risk).
* **dynamic** ICL — every query gets ``k`` exemplars drawn afresh from the
  pool (without replacement until the pool runs out, so a record enters as
  few prompts as the pool allows).

A record is a **member** when it entered at least one prompt; the plan of
which record entered which prompt is kept with every generation.

Queries under one static prompt differ by their sampling seed (``seed + query``;
temperature 0.7 by default), so the run is reproducible and a rerun is served
from the LLM cache. Optionally an instruction with ``{topic}`` gets a topic per
query from a fixed list (never taken from a record) — with SmolLM2-135M that
pulled the model away from the exemplars into repeated headings, so it is off
by default. A leading chat preamble ("Here is the new report:") is cut from
each answer: it is not note content and a custodian would not release it.
Prompts and outputs hold PHI-derived text: nothing here logs them.
"""

from __future__ import annotations

import logging
import math
import re
import time
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

__all__ = ["REGIMES", "Generation", "plan_prompts", "membership", "ICLGenerator", "strip_preamble"]

log = logging.getLogger(__name__)

REGIMES = ("static", "dynamic")


def plan_prompts(pool: Sequence[int], n: int, k: int, regime: str, *, static_reuse: int | None = None,
                 seed: int = 0) -> list[tuple[int, ...]]:
    """Which records (ids from ``pool``) enter each of ``n`` prompts, ``k`` distinct ones per prompt."""
    pool = np.asarray(list(pool))
    if regime not in REGIMES:
        raise ValueError(f"regime must be one of {REGIMES}, got {regime!r}")
    if k < 1 or n < 1:
        raise ValueError("k and n must be at least 1")
    if pool.size < k:
        raise ValueError(f"the pool holds {pool.size} records, fewer than k={k}")
    rng = np.random.default_rng([int(seed), k, REGIMES.index(regime)])
    if regime == "static":
        reuse = n if static_reuse is None else max(1, min(int(static_reuse), n))
        groups = math.ceil(n / reuse)
        picks = _draw(pool, groups * k, rng, k=k)
        return [tuple(int(x) for x in picks[(q // reuse) * k:(q // reuse + 1) * k]) for q in range(n)]
    picks = _draw(pool, n * k, rng, k=k)
    return [tuple(int(x) for x in picks[q * k:(q + 1) * k]) for q in range(n)]


def _draw(pool: np.ndarray, count: int, rng: np.random.Generator, k: int = 1) -> np.ndarray:
    """``count`` records: permutations of the pool, a fresh one each time the last runs out.

    Consecutive blocks of ``k`` never repeat a record (a prompt shows ``k`` different notes).
    """
    out: list[int] = []
    while len(out) < count:
        perm = list(rng.permutation(pool))
        while perm and len(out) < count:
            block = out[len(out) - len(out) % k:] if k > 1 else []
            j = next((i for i, x in enumerate(perm) if x not in block), None)
            if j is None:
                break
            out.append(int(perm.pop(j)))
    return np.asarray(out)


_PREAMBLE = re.compile(r"^\s*(?:sure|certainly|of course)?[,.!\s]*(?:here(?:'s| is| are)\b[^:\n]{0,120}:)\s*", re.I)


def strip_preamble(text: str) -> str:
    """The answer with a leading "Here is the new report:" cut and white space folded."""
    return " ".join(_PREAMBLE.sub("", text, count=1).split())


def membership(plans: Sequence[Sequence[int]], n_records: int) -> np.ndarray:
    """Boolean ``(n_records,)``: True for every record that entered at least one prompt."""
    mask = np.zeros(int(n_records), dtype=bool)
    for p in plans:
        mask[list(p)] = True
    return mask


@dataclass
class Generation:
    """One synthetic note and the records whose text was in its prompt."""

    query: int
    exemplars: tuple[int, ...]
    topic: str
    text: str

    def to_dict(self, ids: Sequence[str] | None = None) -> dict:
        ex = [ids[i] for i in self.exemplars] if ids is not None else list(self.exemplars)
        return {"query": self.query, "exemplars": ex, "topic": self.topic, "text": self.text}


@dataclass
class ICLGenerator:
    """k-shot prompts through a :class:`clinx.llm.ChatLLM`; the LLM's response cache makes reruns free."""

    llm: object
    system: str = "You write chest X-ray radiology reports."
    instruction: str = "Write one new chest X-ray report in the same style. Reply with the report only."
    topics: Sequence[str] = field(default_factory=list)
    max_tokens: int = 96
    temperature: float = 0.7
    top_p: float = 0.95
    seed: int = 0

    def messages(self, exemplars: Sequence[str], topic: str = "") -> list[dict]:
        """The chat of one query: the exemplars, numbered, then the instruction (with ``{topic}`` filled, if any)."""
        shots = "\n\n".join(f"Example report {i + 1}:\n{t}" for i, t in enumerate(exemplars))
        ask = self.instruction.format(topic=topic) if "{topic}" in self.instruction else self.instruction
        return [{"role": "system", "content": self.system}, {"role": "user", "content": f"{shots}\n\n{ask}"}]

    def generate(self, corpus: Sequence[str], plans: Sequence[Sequence[int]], *, label: str = "") -> list[Generation]:
        """One note per plan (records are indices into ``corpus``); topics, if any, cycle through :attr:`topics`."""
        topics = list(self.topics) or [""]
        out: list[Generation] = []
        t0 = time.perf_counter()
        for q, plan in enumerate(plans):
            topic = topics[q % len(topics)]
            text = self.llm.chat(self.messages([corpus[i] for i in plan], topic), max_tokens=self.max_tokens,
                                 temperature=self.temperature, top_p=self.top_p, seed=self.seed + q)
            out.append(Generation(q, tuple(int(i) for i in plan), topic, strip_preamble(str(text))))
            if (q + 1) % 10 == 0 or q + 1 == len(plans):
                log.info("generated %s %d/%d notes (%.0f s)", label, q + 1, len(plans), time.perf_counter() - t0)
        return out
