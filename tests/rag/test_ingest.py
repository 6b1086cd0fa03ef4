"""Ingestion: every document sanitized once, cached, resumable after a crash, invalidated by a new sanitizer."""

import os
import stat
from dataclasses import dataclass, field

import pytest

from clinx.rag.corpus import build_corpus
from clinx.rag.ingest import IngestStore, Sanitizer, ingest, make_sanitizer
from clinx.records import Manifest


@dataclass
class Doc:
    id: str
    raw: str
    manifest: Manifest = field(default_factory=Manifest)


class CountingPipeline:
    """Upper-cases the text; counts calls; its fingerprint is settable (a changed rule / prompt / model)."""

    def __init__(self, fp="v1"):
        self.calls = 0
        self.fp = fp

    def fingerprint(self):
        return self.fp

    def run(self, text, manifest=None):
        from clinx.text.base import TextResult

        self.calls += 1
        return TextResult(text=text.upper(), removed=[], level="L2")


DOCS = [Doc(f"d{i}", f"report number {i}") for i in range(4)]


def test_second_ingestion_is_served_from_the_store(tmp_path):
    pipe = CountingPipeline()
    san = Sanitizer("rules", pipe)
    first = ingest(DOCS, san, IngestStore(tmp_path, "rules"))
    assert first.computed == 4 and pipe.calls == 4
    assert first.payloads["d2"] == "REPORT NUMBER 2"
    again = ingest(DOCS, san, IngestStore(tmp_path, "rules"))  # a new process: read back from disk
    assert again.computed == 0 and pipe.calls == 4
    assert again.payloads == first.payloads and again.seconds == first.seconds  # the recorded cost survives
    mode = stat.S_IMODE(os.stat(tmp_path / "rules.jsonl").st_mode)
    assert mode == 0o600  # payloads are PHI-derived


def test_interrupted_ingestion_resumes_and_a_torn_line_is_redone(tmp_path):
    pipe = CountingPipeline()
    san = Sanitizer("rules", pipe)

    class Crash(Exception):
        pass

    def crash_after_two(it):
        for n, d in enumerate(it):
            if n == 2:
                raise Crash
            yield d

    with pytest.raises(Crash):
        ingest(DOCS, san, IngestStore(tmp_path, "rules"), progress=crash_after_two)
    assert pipe.calls == 2
    with open(tmp_path / "rules.jsonl", "a") as f:
        f.write('{"key": "half-writ')  # a crash in the middle of a line
    res = ingest(DOCS, san, IngestStore(tmp_path, "rules"))
    assert res.computed == 2 and pipe.calls == 4 and len(res.payloads) == 4


def test_a_changed_sanitizer_is_a_miss(tmp_path):
    ingest(DOCS, Sanitizer("rules", CountingPipeline("v1")), IngestStore(tmp_path, "rules"))
    pipe2 = CountingPipeline("v2")
    res = ingest(DOCS, Sanitizer("rules", pipe2), IngestStore(tmp_path, "rules"))
    assert res.computed == 4 and pipe2.calls == 4


def test_naive_keeps_the_raw_text_and_rules_remove_the_known_identifiers():
    docs = build_corpus(6, seed=3)
    naive = ingest(docs, make_sanitizer("naive"))
    assert all(naive.payloads[d.id] == d.raw for d in docs)
    rules = ingest(docs, make_sanitizer("rules"))
    for d in docs:
        payload = rules.payloads[d.id]
        assert payload != d.raw
        for fld, value in d.identifiers:
            if fld in ("mrn", "phone", "birth_date"):
                assert value not in payload  # rules mask every structured identifier of the header
    with pytest.raises(KeyError):
        make_sanitizer("magic")
