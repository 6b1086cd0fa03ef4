"""Privacy-preserving retrieval: a dual-track index over sanitized payloads, hybrid search, extraction attacks.

The design of the privacy-preserving RAG paper (§3.3): documents are sanitized once, offline,
by clinx's text engine (:mod:`clinx.rag.ingest`); a dense index (MiniLM vectors in Milvus) and
a sparse BM25 index are built over the **raw** text, so retrieval quality is that of plain RAG,
but both point to the **sanitized** payload (:mod:`clinx.rag.index`), fused by RRF
(:mod:`clinx.rag.fusion`); the generator only ever sees payloads (:mod:`clinx.rag.generate`).
:mod:`clinx.rag.attack` and :mod:`clinx.rag.metrics` measure what a grey-box attacker extracts;
:mod:`clinx.rag.corpus` is the IU chest X-ray corpus with known synthetic PHI;
:mod:`clinx.rag.experiment` compares defences; ``clinx-rag`` (:mod:`clinx.rag.cli`) runs it all.

Heavy dependencies (pymilvus, bm25s, the LLM) are imported only when used.
"""

from clinx.rag.fusion import rrf
from clinx.rag.ingest import DEFENCES

__all__ = ["rrf", "DEFENCES"]
