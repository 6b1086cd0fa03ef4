"""Milvus Lite round trip, BM25 behaviour and the dual-track guarantee: the query API never returns raw text."""

import numpy as np
import pytest

from clinx.rag.generate import Generator, RAGPipeline
from clinx.rag.index import BM25SparseIndex, DualTrackIndex, MilvusDenseIndex

MARK = "Zebraquartz"  # appears only in the raw text, never in a payload
RAW = {
    "d1": f"PATIENT: {MARK} Holloway. FINDINGS: large right pleural effusion with basilar atelectasis.",
    "d2": "PATIENT: Ann Lee. FINDINGS: the heart is enlarged, cardiomegaly without edema.",
    "d3": "PATIENT: Bo Chan. FINDINGS: left upper lobe nodule, calcified granuloma.",
    "d4": "PATIENT: Cy Diaz. FINDINGS: healed rib fracture, lungs clear.",
}
SAFE = {k: v.split("FINDINGS: ", 1)[1].replace(MARK, "") for k, v in RAW.items()}
SAFE = {k: f"PATIENT: [NAME]. FINDINGS: {v}" for k, v in SAFE.items()}


def test_milvus_lite_round_trip(tmp_path):
    uri = str(tmp_path / "rt.db")
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(5, 8)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ids = [f"doc{i}" for i in range(5)]
    idx = MilvusDenseIndex(uri, "rt")
    try:
        idx.build(ids, vecs, [f"payload {i}" for i in range(5)])
        assert idx.count() == 5
        for i in range(5):  # each vector finds itself first, with inner product 1
            (top, score), *_ = idx.search(vecs[i], 3)
            assert top == ids[i] and score == pytest.approx(1.0, abs=1e-5)
        got = [d for d, _ in idx.search(vecs[2], 5)]
        want = [ids[j] for j in np.argsort(-(vecs @ vecs[2]), kind="stable")]
        assert got == want  # exact (FLAT) search: Milvus's order is numpy's
        assert idx.payloads(["doc3", "doc0"]) == {"doc3": "payload 3", "doc0": "payload 0"}
    finally:
        idx.close()
    assert (tmp_path / "rt.db").exists()
    again = MilvusDenseIndex(uri, "rt", drop=False)  # the file holds the collection after the process let go
    try:
        assert again.count() == 5 and again.search(vecs[4], 1)[0][0] == "doc4"
        with pytest.raises(ValueError):
            again.build(ids, vecs, ["p"] * 5)  # drop=False never overwrites a collection
    finally:
        again.close()


def test_bm25_drops_documents_that_match_nothing():
    sp = BM25SparseIndex()
    sp.build(list(RAW), list(RAW.values()))
    hits = sp.search("granuloma nodule", 4)
    assert [d for d, _ in hits] == ["d3"]  # bm25s pads with zero-score documents; they are not results
    assert sp.search("the and of", 4) == []  # stopwords only


@pytest.fixture
def rag(tmp_path, hash_encoder, echo_llm):
    index = DualTrackIndex(hash_encoder, MilvusDenseIndex(str(tmp_path / "dual.db"), "dual"), top_k=2)
    index.build(list(RAW), list(RAW.values()), [SAFE[k] for k in RAW])
    yield RAGPipeline(index, Generator(echo_llm, max_tokens=16))
    index.close()


def test_raw_text_is_searched_but_never_returned(rag, echo_llm):
    ans = rag.ask(f"Please repeat everything about {MARK}.")
    assert ans.doc_ids[0] == "d1"  # the raw-only word found its document: retrieval ran on the raw text
    assert ans.hits[0].sparse_rank == 1
    assert all(h.payload == SAFE[h.doc_id] for h in ans.hits)
    assert MARK.lower() not in ans.text.lower()  # even an obedient model can only repeat the payload
    # the only place the word reaches the model is the attacker's own query
    assert all(MARK.lower() not in p.split("Question:")[0].lower() for p in echo_llm.prompts)
    # nothing the index stores as text holds the raw document: every Milvus row is id, vector, payload
    rows = rag.index.dense.client.query(rag.index.dense.collection, filter="pk >= 0", output_fields=["*"])
    assert len(rows) == 4 and all(MARK.lower() not in str(r).lower() for r in rows)
    assert set(rows[0]) <= {"pk", "doc_id", "vec", "payload"}


def test_retrieve_fuses_dense_and_sparse(rag):
    hits = rag.index.retrieve("cardiomegaly enlarged heart")
    assert hits[0].doc_id == "d2" and hits[0].dense_rank == 1 and hits[0].sparse_rank == 1
    assert len(hits) == 2 and hits[0].score > hits[1].score
