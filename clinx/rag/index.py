"""Dual-track storage: dense (Milvus) and sparse (BM25) indexes over the raw text, pointing to sanitized payloads.

* :class:`MilvusDenseIndex` — sentence embeddings of the **raw** documents in a Milvus
  collection through ``pymilvus``: Milvus Lite (an embedded local file, ``uri`` ending in
  ``.db``) by default, a Milvus server by ``http://host:19530`` URI for corpora that outgrow
  one machine; nothing else changes between the two. Each row holds the document id, its
  vector and the **sanitized payload** — never the raw text.
* :class:`BM25SparseIndex` — a ``bm25s`` index over the raw text's tokens (the corpus
  itself is not kept; scores only).
* :class:`DualTrackIndex` — both searches, fused by RRF (:mod:`clinx.rag.fusion`), returning
  :class:`Hit` objects with the payload. Raw text enters at :meth:`DualTrackIndex.build`
  and is not stored by any object here: the query API cannot return it.

The guarantee is query-level, as in the paper (§3.3): the indexes are *derived* from the raw
text (vectors, BM25 vocabulary), so whoever can read the index files is inside the trust
boundary; the index files are made private (``0o600``).
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clinx.rag.fusion import rrf

__all__ = ["Hit", "MilvusDenseIndex", "BM25SparseIndex", "DualTrackIndex"]

_MAX_PAYLOAD = 65_535  # Milvus VARCHAR limit (bytes)

# pymilvus 3 asks the server for a timestamp that Milvus Lite 3.2 does not implement; the client
# falls back, but the embedded server logs a traceback for every call. Nothing is lost by muting it.
logging.getLogger("grpc._server").setLevel(logging.CRITICAL)


@dataclass(frozen=True)
class Hit:
    """A retrieved document: its id, fused score, ranks in each list (``None`` = absent) and sanitized payload."""

    doc_id: str
    score: float
    payload: str
    dense_rank: int | None = None
    sparse_rank: int | None = None


class MilvusDenseIndex:
    """Inner-product search over L2-normalised vectors in one Milvus collection (exact FLAT index).

    ``uri``: a local ``*.db`` file (Milvus Lite, started by pymilvus as a local process) or
    a server URI; ``token`` for a server that needs one.
    """

    def __init__(self, uri: str, collection: str = "clinx_rag", *, token: str | None = None, drop: bool = True):
        from pymilvus import MilvusClient

        self.uri = str(uri)
        if not self.uri.startswith(("http://", "https://", "tcp://", "unix:")):
            Path(self.uri).parent.mkdir(parents=True, exist_ok=True)
        kw: dict[str, Any] = {"token": token} if token else {}
        if self.uri.endswith(".db"):
            # Milvus Lite serves from a thread of this process and refuses pymilvus's 10 s keepalive pings
            # ("too_many_pings", a GOAWAY and a reconnect each time); a local socket needs no keepalive
            kw["grpc_options"] = {"grpc.keepalive_time_ms": 3_600_000, "grpc.keepalive_permit_without_calls": False}
        self.client = MilvusClient(self.uri, **kw)
        self.collection = collection
        self._drop = drop
        self.dim: int | None = None

    def build(self, ids: Sequence[str], vectors: np.ndarray, payloads: Sequence[str]) -> None:
        """(Re)create the collection and insert one row per document."""
        from pymilvus import DataType

        vectors = np.asarray(vectors, dtype=np.float32)
        if len(ids) != len(vectors) or len(ids) != len(payloads):
            raise ValueError("ids, vectors and payloads must have the same length")
        self.dim = int(vectors.shape[1])
        if self.client.has_collection(self.collection):
            if not self._drop:
                raise ValueError(f"collection {self.collection!r} exists (drop=False)")
            self.client.drop_collection(self.collection)
        schema = self.client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("pk", DataType.INT64, is_primary=True)
        schema.add_field("doc_id", DataType.VARCHAR, max_length=256)
        schema.add_field("vec", DataType.FLOAT_VECTOR, dim=self.dim)
        schema.add_field("payload", DataType.VARCHAR, max_length=_MAX_PAYLOAD)
        ip = self.client.prepare_index_params()
        ip.add_index(field_name="vec", index_type="FLAT", metric_type="IP")
        self.client.create_collection(self.collection, schema=schema, index_params=ip)
        rows = []
        for i, (d, v, p) in enumerate(zip(ids, vectors, payloads)):
            if len(p.encode("utf-8")) > _MAX_PAYLOAD:
                raise ValueError(f"payload of document {i} exceeds {_MAX_PAYLOAD} bytes")
            rows.append({"pk": i, "doc_id": str(d), "vec": v.tolist(), "payload": p})
        for s in range(0, len(rows), 1000):
            self.client.insert(self.collection, rows[s : s + 1000])
        self.client.load_collection(self.collection)
        if self.uri.endswith(".db") and Path(self.uri).exists():
            os.chmod(self.uri, 0o600)  # vectors and payloads are PHI-derived

    def search(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """``[(doc_id, inner product)]`` of the ``k`` nearest documents, best first."""
        res = self.client.search(self.collection, data=[np.asarray(vector, np.float32).tolist()], limit=int(k),
                                 anns_field="vec", output_fields=["doc_id"], search_params={"metric_type": "IP"})
        return [(h["entity"]["doc_id"], float(h["distance"])) for h in res[0]]

    def payloads(self, doc_ids: Sequence[str]) -> dict[str, str]:
        """The sanitized payloads of ``doc_ids`` (the only text this collection holds)."""
        if not doc_ids:
            return {}
        quoted = ", ".join('"' + str(d).replace("\\", "\\\\").replace('"', '\\"') + '"' for d in doc_ids)
        rows = self.client.query(self.collection, filter=f"doc_id in [{quoted}]", output_fields=["doc_id", "payload"])
        return {r["doc_id"]: r["payload"] for r in rows}

    def count(self) -> int:
        """Rows in the collection."""
        return int(self.client.get_collection_stats(self.collection)["row_count"])

    def close(self) -> None:
        """Close the client (Milvus Lite stops its local process)."""
        self.client.close()


class BM25SparseIndex:
    """BM25 (``bm25s``, Lucene variant, English stopwords) over raw token streams; keeps no text."""

    def __init__(self, k1: float = 1.5, b: float = 0.75, stopwords: str | None = "en"):
        self.k1, self.b, self.stopwords = float(k1), float(b), stopwords
        self._bm25 = None
        self._ids: list[str] = []

    def build(self, ids: Sequence[str], texts: Sequence[str]) -> None:
        """Index ``texts`` under ``ids``."""
        import bm25s

        self._ids = [str(i) for i in ids]
        tokens = bm25s.tokenize(list(texts), stopwords=self.stopwords, show_progress=False)
        self._bm25 = bm25s.BM25(k1=self.k1, b=self.b)
        self._bm25.index(tokens, show_progress=False)

    def search(self, query: str, k: int) -> list[tuple[str, float]]:
        """``[(doc_id, score)]`` best first, at most ``k``, only documents sharing a term with the query.

        ``bm25s`` fills ``k`` results with zero-score documents when fewer match; those are
        dropped here — a document that matches nothing is absent from the sparse list.
        """
        import bm25s

        if self._bm25 is None:
            raise RuntimeError("index not built")
        q = bm25s.tokenize([query], stopwords=self.stopwords, show_progress=False)
        if not q.ids or not q.ids[0]:
            return []
        k = min(int(k), len(self._ids))
        docs, scores = self._bm25.retrieve(q, k=k, show_progress=False, n_threads=1)
        return [(self._ids[int(i)], float(s)) for i, s in zip(docs[0], scores[0]) if s > 0]


class DualTrackIndex:
    """Hybrid retrieval over the raw text that hands out only sanitized payloads.

    ``encoder`` has ``encode(texts) -> (N, d)`` normalised vectors (:class:`clinx.embed.SentenceEncoder`);
    ``depth`` is how many results each search contributes to the fusion.
    """

    def __init__(self, encoder: Any, dense: MilvusDenseIndex, sparse: BM25SparseIndex | None = None, *,
                 rrf_k: float = 60.0, top_k: int = 3, depth: int = 20):
        self.encoder = encoder
        self.dense = dense
        self.sparse = sparse or BM25SparseIndex()
        self.rrf_k, self.top_k, self.depth = float(rrf_k), int(top_k), int(depth)
        self.last_ms: float = 0.0

    def build(self, ids: Sequence[str], index_texts: Sequence[str], payloads: Sequence[str]) -> None:
        """Index ``index_texts`` (the raw documents, or anything else to compare) with ``payloads`` as values."""
        vecs = self.encoder.encode(list(index_texts))
        self.dense.build(ids, vecs, payloads)
        self.sparse.build(ids, index_texts)

    def retrieve(self, query: str, top_k: int | None = None) -> list[Hit]:
        """The fused top-K for ``query``: ids, scores, ranks and sanitized payloads (never the raw text)."""
        t0 = time.perf_counter()
        k = self.top_k if top_k is None else int(top_k)
        qv = self.encoder.encode([query])[0]
        dense = [d for d, _ in self.dense.search(qv, self.depth)]
        sparse = [d for d, _ in self.sparse.search(query, self.depth)]
        fused = rrf([dense, sparse], k=self.rrf_k, top_k=k)
        payload = self.dense.payloads([d for d, _ in fused])
        dr = {d: r for r, d in enumerate(dense, 1)}
        sr = {d: r for r, d in enumerate(sparse, 1)}
        hits = [Hit(d, s, payload[d], dr.get(d), sr.get(d)) for d, s in fused]
        self.last_ms = (time.perf_counter() - t0) * 1000.0
        return hits

    def close(self) -> None:
        """Release the vector store."""
        self.dense.close()
