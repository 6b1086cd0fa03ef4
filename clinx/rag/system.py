"""Assemble a RAG system from a composed ``rag`` config: corpus, sanitizer, index, generator.

Shared by the ``clinx-rag`` CLI and ``scripts/bench_rag.py`` so both run the same objects.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Sequence

from clinx.errors import ConfigError
from clinx.rag.generate import Generator, RAGPipeline
from clinx.rag.index import BM25SparseIndex, DualTrackIndex, MilvusDenseIndex
from clinx.rag.ingest import DEFENCES, IngestResult, IngestStore, ingest, make_sanitizer

__all__ = ["corpus", "make_llm", "make_encoder", "run_ingest", "build_rag", "check_defence"]


def check_defence(name: str) -> str:
    """``name`` if it is a known defence, else a :class:`ConfigError`."""
    if name not in DEFENCES:
        raise ConfigError(f"defence must be one of {', '.join(DEFENCES)}, got {name!r}")
    return name


def corpus(cfg) -> list:
    """The configured documents."""
    from clinx.rag.corpus import build_corpus

    if cfg.corpus.source != "iu":
        raise ConfigError(f"corpus.source must be iu, got {cfg.corpus.source!r}")
    n = int(cfg.corpus.n)
    if n < 1:
        raise ConfigError("corpus.n must be at least 1")
    return build_corpus(n, int(cfg.corpus.seed))


def make_llm(cfg):
    """The configured chat LLM; a llama.cpp backend gets ``generation.llm_threads`` threads."""
    from hydra.utils import instantiate

    extra = {}
    if "n_threads" in cfg.llm and cfg.generation.get("llm_threads"):
        extra["n_threads"] = int(cfg.generation.llm_threads)
    return instantiate(cfg.llm, _convert_="all", **extra)


def make_encoder(cfg):
    """The shared sentence encoder (:class:`clinx.embed.SentenceEncoder`) with its embedding cache."""
    from clinx.embed import SentenceEncoder

    i = cfg.index
    return SentenceEncoder(i.get("embedding_model") or None, cache_dir=i.get("embedding_cache") or None)


def run_ingest(cfg, docs: Sequence[Any], defence: str, llm: Any = None, progress: bool | None = None) -> IngestResult:
    """Sanitize ``docs`` for ``defence`` through the ingestion store (cached, resumable)."""
    from omegaconf import OmegaConf

    rules = OmegaConf.to_container(cfg.sanitize.rules, resolve=True)
    san = make_sanitizer(check_defence(defence), llm=llm, rules=rules,
                         l3=OmegaConf.to_container(cfg.sanitize.l3, resolve=True))
    store = IngestStore(cfg.sanitize.get("store") or None, defence)
    show = cfg.sanitize.get("progress", True) if progress is None else progress
    bar = None
    if show and defence != "naive":
        from tqdm import tqdm

        def bar(it):
            return tqdm(it, desc=f"ingest {defence}", unit="doc")
    return ingest(docs, san, store, progress=bar, use_manifest=bool(cfg.sanitize.use_manifest))


def build_rag(cfg, ids: Sequence[str], index_texts: Sequence[str], payloads: Sequence[str], encoder: Any,
              llm: Any, collection: str, max_tokens: int | None = None) -> RAGPipeline:
    """A :class:`RAGPipeline`: ``index_texts`` indexed (dense in Milvus, sparse BM25), ``payloads`` handed out."""
    i, r, g = cfg.index, cfg.retrieval, cfg.generation
    uri = str(i.uri)
    if not uri.startswith(("http://", "https://", "tcp://", "unix:")):
        Path(uri).expanduser().parent.mkdir(parents=True, exist_ok=True)
        os.chmod(Path(uri).expanduser().parent, 0o700)
        uri = str(Path(uri).expanduser())
    dense = MilvusDenseIndex(uri, f"{i.collection_prefix}_{collection}", token=i.get("token") or None)
    index = DualTrackIndex(encoder, dense, BM25SparseIndex(float(i.bm25_k1), float(i.bm25_b)),
                           rrf_k=float(r.rrf_k), top_k=int(r.top_k), depth=int(r.depth))
    index.build(ids, index_texts, payloads)
    gen = Generator(llm, system=str(g.system), template=str(g.template), temperature=float(g.temperature),
                    top_p=float(g.top_p), max_tokens=int(max_tokens or g.max_tokens), seed=int(g.seed))
    return RAGPipeline(index, gen)
