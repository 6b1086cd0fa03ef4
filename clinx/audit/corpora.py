"""Real corpora to audit against, external synthetic corpora, and the two controls.

* :func:`iu_notes` — the Indiana University chest X-ray reports shipped in
  ``torchxrayvision`` (read by :mod:`clinx.text.reports`), FINDINGS and
  IMPRESSION joined. Exact duplicates (after case and space folding) are
  kept once and notes shorter than ``min_chars`` dropped: the IU collection
  repeats boilerplate ("No acute cardiopulmonary abnormality.") across
  hundreds of patients, and a member whose text is identical to a
  non-member's cannot be told apart by any text-only attack — it would only
  add label noise to the ground truth.
* :func:`benchmark_questions` — the PHI-injected questions clinx's text levels
  rewrite (the ``rewrite`` target: released rewrites against their originals).
* :func:`read_jsonl` — any corpus as JSONL (one object per line with a text
  field and, for the real corpus of an external audit, a membership flag).
* :func:`planted_corpus` / :func:`independent_corpus` — controls that show
  the audit detects what it claims to: a synthetic corpus holding verbatim or
  near-verbatim copies of its members (M must be clearly positive), and one
  drawn from records outside the population (M must be about 0).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Sequence

import numpy as np

from clinx.errors import ConfigError, escape_text

__all__ = ["iu_notes", "benchmark_questions", "read_jsonl", "planted_corpus", "independent_corpus", "near_copy"]


def iu_notes(min_chars: int = 120, limit: int | None = None) -> tuple[list[str], list[str]]:
    """``(ids, texts)`` of de-duplicated IU report notes (FINDINGS + IMPRESSION), in report order."""
    from clinx.text.reports import load_reports

    ids: list[str] = []
    texts: list[str] = []
    seen: set[str] = set()
    for rep in load_reports():
        text = " ".join(" ".join(rep.sections.get(s, "") for s in ("FINDINGS", "IMPRESSION")).split())
        key = text.casefold()
        if len(text) < int(min_chars) or key in seen:
            continue
        seen.add(key)
        ids.append(rep.id)
        texts.append(text)
        if limit is not None and len(texts) >= int(limit):
            break
    return ids, texts


def benchmark_questions(n: int = 300, seed: int = 0) -> tuple[list[str], list[str]]:
    """``(ids, questions)``: de-duplicated PHI-injected questions of the built-in test split (synthetic PHI).

    These are what clinx's text levels rewrite; images are built at 64 px
    because only the text is used.
    """
    from clinx.data.benchmark import build_benchmark

    ids: list[str] = []
    texts: list[str] = []
    seen: set[str] = set()
    for s in build_benchmark(split="test", n=int(n), seed=int(seed), size=64):
        q = " ".join(str(s.question).split())
        if q and q.casefold() not in seen:
            seen.add(q.casefold())
            ids.append(str(s.id))
            texts.append(q)
    return ids, texts


def read_jsonl(path: str | Path, text_field: str = "text", member_field: str | None = None,
               id_field: str | None = None) -> tuple[list[str], list[str], np.ndarray | None]:
    """``(ids, texts, member flags or None)`` from a JSONL file; a bad line is a :class:`ConfigError` naming its number."""
    p = Path(str(path)).expanduser()
    if not p.is_file():
        raise ConfigError(f"corpus file not found: {escape_text(str(p))[:200]}")
    ids: list[str] = []
    texts: list[str] = []
    members: list[bool] = []
    with p.open("r", encoding="utf-8", errors="strict") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                raise ConfigError(f"{p.name} line {n}: not valid JSON") from None
            if not isinstance(rec, dict) or not isinstance(rec.get(text_field), str):
                raise ConfigError(f"{p.name} line {n}: an object with a text field {text_field!r} is expected")
            texts.append(rec[text_field])
            ids.append(str(rec.get(id_field, f"line {n}")) if id_field else f"line {n}")
            if member_field is not None:
                flag = rec.get(member_field)
                if not isinstance(flag, bool):
                    raise ConfigError(f"{p.name} line {n}: {member_field!r} must be true or false")
                members.append(flag)
    if not texts:
        raise ConfigError(f"{p.name}: no texts")
    return ids, texts, (np.asarray(members, dtype=bool) if member_field is not None else None)


_SENT = re.compile(r"(?<=[.!?])\s+")


def near_copy(text: str, rng: np.random.Generator) -> str:
    """A near-verbatim copy: one sentence dropped (when there are three or more) and the rest in a new order."""
    sents = [s for s in _SENT.split(text) if s.strip()]
    if len(sents) >= 3:
        sents.pop(int(rng.integers(len(sents))))
    if len(sents) >= 2:
        sents = [sents[i] for i in rng.permutation(len(sents))]
    return " ".join(sents)


def planted_corpus(texts: Sequence[str], members: Sequence[int], filler: Sequence[int], *,
                   verbatim_fraction: float = 0.5, seed: int = 0) -> list[str]:
    """Copies of every member (``verbatim_fraction`` verbatim, the rest :func:`near_copy`) plus the ``filler`` texts."""
    rng = np.random.default_rng([int(seed), 0x91A7])
    members = [int(i) for i in members]
    n_verb = int(round(verbatim_fraction * len(members)))
    out = [texts[i] if j < n_verb else near_copy(texts[i], rng) for j, i in enumerate(members)]
    out += [texts[int(i)] for i in filler]
    return [out[i] for i in rng.permutation(len(out))]


def independent_corpus(texts: Sequence[str], outsiders: Sequence[int]) -> list[str]:
    """A synthetic corpus unrelated to any member: the texts of records outside the audited population."""
    return [texts[int(i)] for i in outsiders]
