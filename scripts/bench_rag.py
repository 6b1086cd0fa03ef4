#!/usr/bin/env python
"""Privacy-preserving retrieval benchmark: extraction attacks and utility for four payload defences.

    python scripts/bench_rag.py [--quick] --out FILE.json

Corpus: Indiana University chest X-ray reports (torchxrayvision) with synthetic PHI in their
``XXXX`` slots and a synthetic patient line (name, MRN, DOB, institution, phone); every
identifier is known. Index: dual-track (MiniLM dense vectors in Milvus Lite + bm25s sparse, both
over the raw text, fused by RRF k=60, top-3), payloads per defence: ``naive`` (raw), ``rules``
(clinx L1+L2), ``single_agent`` / ``multi_agent`` (clinx L3 on SmolLM2-135M). Generator:
SmolLM2-135M (llama.cpp, one thread), temperature 0.4, top-p 0.9, seed 0. Ingestion and
generations are cached on disk (``$CLINX_CACHE`` or ``./.cache/clinx``): ``llm_calls`` /
``llm_cache_hits`` say how much of a run was cold.

Figures (flat names):
  * ``target_info/<defence>`` — unique (document, identifier) pairs of retrieved documents found
    in the outputs of the targeted prompts;
  * ``repeat_prompt/<defence>`` — targeted + untargeted prompts whose output shares >= 10
    consecutive words with a retrieved raw document;
  * ``rouge_prompt/<defence>`` — the same prompts with ROUGE-L recall or precision > 0.5 against
    a retrieved raw document;
  * ``bleu1/<defence>``, ``rougeL/<defence>`` — utility answers against the reports' impressions;
  * ``recall_at_3/raw`` (dual-track over raw text), ``recall_at_3/sanitized`` (index over the
    multi-agent payloads themselves);
  * ``ingest_s_per_doc/<defence>`` — sanitizer seconds per document, as recorded when computed;
  * ``query_ms_p50`` — median retrieval latency (embedding, Milvus, BM25, RRF, payload fetch);
  * ``context_*`` (in ``details``) — the same leakage counts on the context handed to the
    generator: what a generator that obeys the attack would repeat.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clinx.provenance import provenance, write_figures  # noqa: E402

QUICK = dict(n_docs=16, n_targeted=50, n_untargeted=50, n_adaptive=0, n_questions=6, max_tokens=32)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help=f"capped sizes: {QUICK}")
    ap.add_argument("--out", required=True, help="figures JSON")
    ap.add_argument("--defences", default="naive,rules,single_agent,multi_agent")
    ap.add_argument("--adaptive", type=int, default=None, help="prompts per adaptive kind (synonym, stepwise)")
    ap.add_argument("--progress", action="store_true", help="progress bars on stderr")
    ap.add_argument("--prompts", type=int, default=None,
                    help="attack prompts generated per defence (alternating targeted / untargeted; a rerun of a "
                         "time-capped run with this count is served from the caches)")
    ap.add_argument("--budget-s", type=float, default=None,
                    help="stop starting attack rounds after this many seconds (ingestion included); "
                         "config/prompts_generated_per_defence says how many prompts every defence got")
    args = ap.parse_args(argv)
    start = provenance()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")

    from clinx.config import compose
    from clinx.rag.experiment import compare
    from clinx.rag.system import corpus, make_encoder, make_llm

    cfg = compose("rag")  # the app's own defaults (prompts, decoding, retrieval); only sizes change
    a = cfg.attack
    full = dict(n_docs=int(cfg.corpus.n), n_targeted=int(a.n_targeted), n_untargeted=int(a.n_untargeted),
                n_adaptive=int(a.n_adaptive), n_questions=int(a.n_questions), max_tokens=int(cfg.generation.max_tokens))
    size = dict(QUICK if args.quick else full)
    if args.adaptive is not None:
        size["n_adaptive"] = args.adaptive
    cfg.corpus.n = size["n_docs"]
    defences = [d.strip() for d in args.defences.split(",") if d.strip()]
    t_all = time.perf_counter()
    docs = corpus(cfg)
    llm = make_llm(cfg)
    encoder = make_encoder(cfg)
    try:
        out = compare(cfg, docs, defences, llm, encoder, n_targeted=size["n_targeted"],
                      n_untargeted=size["n_untargeted"], n_adaptive=size["n_adaptive"],
                      n_questions=size["n_questions"], kinds=list(a.kinds), max_tokens=size["max_tokens"],
                      progress=args.progress, budget_s=args.budget_s, chunk=2,
                      max_prompts=args.prompts)
    finally:
        stats = llm.stats
        llm.close()
    figures = dict(out["figures"])
    for dfn, det in out["details"].items():
        for part in ("attack_all", "attack_targeted", "attack_untargeted", "attack_synonym", "attack_stepwise",
                     "context_all_prompts"):
            for k, v in det.get(part, {}).items():
                figures[f"details/{part}/{k}/{dfn}"] = v
        for k, v in det["ingest"].items():
            figures[f"details/ingest/{k}/{dfn}"] = v
    figures.update({
        "llm_calls": stats.calls,
        "llm_cache_hits": stats.cache_hits,
        "wall_s": round(time.perf_counter() - t_all, 1),
        "config/quick": bool(args.quick),
        "config/documents": len(docs),
        "config/max_tokens": size["max_tokens"],
        "config/paper_max_tokens": int(cfg.generation.max_tokens),
        "config/capped": (f"quick: {size['n_docs']} documents, {size['n_questions']} utility questions, "
                          f"generation capped at {size['max_tokens']} tokens (paper 512), adaptive prompts "
                          f"{size['n_adaptive']} per kind") if args.quick else "none",
        "config/llm": (f"llamacpp SmolLM2-135M-Instruct, temperature {cfg.generation.temperature}, top_p "
                       f"{cfg.generation.top_p}, seed {cfg.generation.seed}, {cfg.generation.llm_threads} thread(s)"),
        "config/embedding": encoder.model_id,
        "config/rrf_k": float(cfg.retrieval.rrf_k),
        "config/top_k": int(cfg.retrieval.top_k),
        "config/use_manifest": bool(cfg.sanitize.use_manifest),
        "config/budget_s": args.budget_s,
        "config/max_prompts": args.prompts,
        "config/definitions": ("target_info over the targeted prompts generated; repeat_prompt and rouge_prompt over "
                               "the targeted + untargeted prompts generated (config/prompts_generated_per_defence, "
                               "alternating targeted / untargeted); leakage against the retrieved raw documents; "
                               "details/context_all_prompts: the same on the context handed to the generator, every prompt"),
    })
    from clinx.rag.report import markdown

    print(markdown(figures, defences))
    write_figures(args.out, figures, start=start)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
