"""Offline ingestion: sanitize every document once, cached on disk and resumable, with its cost.

A *defence* names how the generator's payload is made from a raw document:

* ``naive`` — the raw text itself (unprotected RAG, the attack's baseline);
* ``rules`` — clinx's L1+L2 text levels (placeholders for what the rules find);
* ``single_agent`` — L1+L2, then the single-prompt L3 rewrite;
* ``multi_agent`` — L1+L2, then the multi-agent L3 rewrite (privacy extraction, semantic slots,
  reconstruction; :mod:`clinx.text.rewrite.agents`).

All of them go through :class:`clinx.text.pipeline.TextPipeline` — this module adds no
de-identification of its own. Results are appended to a private JSONL store (folder
``0o700``, file ``0o600``: payloads and the store's keys are derived from PHI) as each
document finishes, keyed by the sanitizer's fingerprint and the document's digest, so an
interrupted ingestion resumes where it stopped and a changed rule, prompt or model is a miss.
Each entry keeps the seconds the sanitizer took, so the cost per document is known even
when every payload now comes from the store.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from clinx.records import Manifest, text_digest

log = logging.getLogger(__name__)

__all__ = ["DEFENCES", "Sanitizer", "make_sanitizer", "IngestStore", "IngestResult", "ingest"]

DEFENCES = ("naive", "rules", "single_agent", "multi_agent")
_L3 = {"single_agent": "single", "multi_agent": "multi_agent"}


class Sanitizer:
    """``sanitize(raw, manifest) -> (payload, notes)`` for one defence; ``fingerprint`` names its output."""

    def __init__(self, defence: str, pipeline: Any = None):
        if defence not in DEFENCES:
            raise KeyError(f"unknown defence {defence!r}; known: {', '.join(DEFENCES)}")
        if defence != "naive" and pipeline is None:
            raise ValueError(f"defence {defence!r} needs a text pipeline")
        self.defence = defence
        self.pipeline = pipeline

    @property
    def fingerprint(self) -> str:
        """``naive`` or ``<defence>:<text pipeline fingerprint>`` (covers rules, prompts, LLM and code)."""
        return "naive" if self.pipeline is None else f"{self.defence}:{self.pipeline.fingerprint()}"

    def sanitize(self, raw: str, manifest: Manifest | None = None) -> tuple[str, dict]:
        """The payload for ``raw`` and log-safe notes (whether an L3 rewrite was accepted; no text)."""
        if self.pipeline is None:
            return raw, {}
        r = self.pipeline.run(raw, manifest)
        notes = {"removed": len(r.removed)}
        if self.defence in _L3:
            notes["accepted"] = bool(r.accepted)
        return r.text, notes


def make_sanitizer(defence: str, *, llm: Any = None, rules: dict | None = None, l3: dict | None = None) -> Sanitizer:
    """A :class:`Sanitizer` built on :class:`~clinx.text.pipeline.TextPipeline`.

    ``rules`` holds the pipeline's L1/L2 arguments (``l1``, ``l2``, ``salt``…), ``l3`` extra
    ``make_l3`` arguments; ``llm`` is the rewriting model (a :class:`~clinx.llm.ChatLLM`, or
    ``None`` for the embedded SmolLM2).
    """
    from clinx.text.pipeline import TextPipeline

    if defence == "naive":
        return Sanitizer("naive")
    kw = dict(rules or {})
    kw.pop("level", None)
    kw.pop("_target_", None)
    if defence == "rules":
        return Sanitizer(defence, TextPipeline("L2", **kw))
    if defence in _L3:
        return Sanitizer(defence, TextPipeline("L3", strategy=_L3[defence], llm=llm, l3=dict(l3 or {}), **kw))
    raise KeyError(f"unknown defence {defence!r}; known: {', '.join(DEFENCES)}")


class IngestStore:
    """An append-only JSONL file of ``{key, payload, seconds, notes}``: the ingestion cache.

    A torn last line (a crash mid-write) reads as a miss. ``folder=None`` keeps entries in memory only.
    """

    def __init__(self, folder: str | os.PathLike | None, name: str):
        self.path = Path(folder) / f"{name}.jsonl" if folder else None
        self.entries: dict[str, dict] = {}
        if self.path and self.path.exists():
            with self.path.open("r", encoding="utf-8") as f:
                for line in f:
                    try:
                        e = json.loads(line)
                        self.entries[e["key"]] = e
                    except (ValueError, KeyError, TypeError):
                        continue  # torn or foreign line: recomputed

    def get(self, key: str) -> dict | None:
        """The stored entry, or ``None``."""
        return self.entries.get(key)

    def put(self, key: str, payload: str, seconds: float, notes: dict) -> dict:
        """Record one finished document; on disk it is flushed before returning (resume point)."""
        e = {"key": key, "payload": payload, "seconds": round(float(seconds), 4), "notes": notes}
        self.entries[key] = e
        if self.path is not None:
            new = not self.path.exists()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            os.chmod(self.path.parent, 0o700)  # payloads are derived from PHI
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as f:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
            if new:
                os.chmod(self.path, 0o600)
        return e


@dataclass
class IngestResult:
    """Payloads by document id, and what the ingestion cost."""

    defence: str
    payloads: dict[str, str]
    seconds: dict[str, float]  # sanitizer seconds per document, as recorded when it was computed
    computed: int = 0  # documents sanitized in this call (the rest came from the store)
    notes: dict[str, dict] = field(default_factory=dict)

    @property
    def s_per_doc(self) -> float:
        """Mean recorded sanitizer seconds per document."""
        return sum(self.seconds.values()) / max(1, len(self.seconds))

    def accepted_share(self) -> float | None:
        """Share of documents whose L3 rewrite validated (``None`` for defences without L3)."""
        flags = [n["accepted"] for n in self.notes.values() if "accepted" in n]
        return sum(flags) / len(flags) if flags else None


def ingest(docs: Sequence[Any], sanitizer: Sanitizer, store: IngestStore | None = None,
           progress: Callable[[Iterable], Iterable] | None = None, use_manifest: bool = False) -> IngestResult:
    """Sanitize ``docs`` (objects with ``id``, ``raw`` and ``manifest``), reusing the store's entries.

    ``use_manifest`` hands each document's known identifiers to the text engine (an EHR knows
    its patients' demographics); off by default, so the sanitizer sees only the text.
    """
    store = store or IngestStore(None, sanitizer.defence)
    fp = sanitizer.fingerprint
    res = IngestResult(sanitizer.defence, {}, {})
    it = progress(docs) if progress else docs
    for d in it:
        key = text_digest(fp, d.raw, "manifest" if use_manifest else "")
        e = store.get(key)
        if e is None:
            t0 = time.perf_counter()
            payload, notes = sanitizer.sanitize(d.raw, d.manifest if use_manifest else None)
            e = store.put(key, payload, time.perf_counter() - t0, notes)
            res.computed += 1
        res.payloads[d.id] = e["payload"]
        res.seconds[d.id] = float(e["seconds"])
        res.notes[d.id] = dict(e.get("notes") or {})
    log.info("ingest %s: %d documents, %d sanitized now", sanitizer.defence, len(docs), res.computed)
    return res
