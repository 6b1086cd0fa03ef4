#!/usr/bin/env python
"""Membership-disclosure audit benchmark: static vs dynamic ICL with SmolLM2, k = 1..3, and the two controls.

    python scripts/bench_audit.py [--quick] --out FILE.json [--resamples N] [--n-synthetic N --static-reuse R]

Data: de-duplicated FINDINGS + IMPRESSION notes of the Indiana University
chest X-ray reports shipped in ``torchxrayvision`` (at least 120 characters;
``--quick``: the first 600). The generator is clinx's embedded SmolLM2-135M
(llama.cpp, sampled at temperature 0.7 with a seed per query; generations go through the LLM
response cache, so a rerun costs only the embeddings and the resampling —
``llm_calls`` and ``llm_cache_hits`` say how much of a run was cold). The
attack uses the shipped all-MiniLM-L6-v2 embeddings (no disk cache here, so
``embed_per_s`` is measured on every run).

Figures (flat names):
  * ``f1/<regime>/k<k>/<feature>``, ``M/<regime>/k<k>/<feature>``, ``M_ci_low/…``, ``M_ci_high/…``
    (regime ``static`` | ``dynamic``; feature ``max`` | ``top3`` | ``mean``; means and central 95 %
    intervals over resampled partitions);
  * ``M/planted/<feature>``, ``M/independent/<feature>`` (and their ``f1`` / interval keys): the controls;
    ``M/planted_verbatim/<feature>``: the planted control with every copy verbatim;
  * ``M/rewrite_L2/<feature>``, ``M/rewrite_L3/<feature>``: clinx's own L2 / L3 rewrites of PHI-injected
    questions, released for a draw of members, audited against the original questions;
  * ``median_member/<…>/<feature>``, ``median_nonmember/<…>/<feature>``: the feature's median over members
    and over non-members of the population (the separation before any threshold);
  * ``members/<…>``, ``synthetic/<…>``: how many members and synthetic notes each audit had;
  * ``release/<…>``: the decision rule (M's upper interval bound at most ``config/max_m`` for every feature);
  * ``embed_per_s`` (MiniLM, texts per second, one process), ``generation_s``, ``seconds_per_note``.
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="600 notes, 8 synthetic notes per (regime, k), 48 tokens")
    ap.add_argument("--out", required=True, help="figures JSON")
    ap.add_argument("--resamples", type=int, default=None)
    ap.add_argument("--n-synthetic", type=int, default=None, help="synthetic notes per (regime, k)")
    ap.add_argument("--static-reuse", type=int, default=None, help="queries served by one static prompt")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    start = provenance()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")

    from clinx.audit.core import AttackSettings, decide
    from clinx.audit.corpora import iu_notes
    from clinx.audit.experiment import run_control, run_icl
    from clinx.audit.generate import ICLGenerator
    from clinx.audit.partition import split_population
    from clinx.audit.report import flat_figures, markdown
    from clinx.config import compose
    from clinx.embed import SentenceEncoder
    from clinx.llm import get_llm

    # The bench runs the app's own defaults (prompt, topics, priors), changing only the sizes.
    cfg = compose("audit")
    quick = dict(limit=600, n_synthetic=8, static_reuse=2, max_tokens=48, resamples=300, n_members=60, n_outsiders=60,
                 n_questions=200, n_rewrite_members=20)
    full = dict(limit=None, n_synthetic=int(cfg.generator.n_synthetic), static_reuse=int(cfg.generator.static_reuse),
                max_tokens=int(cfg.generator.max_tokens), resamples=int(cfg.attack.resamples),
                n_members=int(cfg.controls.n_members), n_outsiders=int(cfg.controls.n_outsiders),
                n_questions=int(cfg.rewrite.n_questions), n_rewrite_members=int(cfg.rewrite.n_members))
    size = dict(quick if args.quick else full)
    if args.n_synthetic:
        size["n_synthetic"] = args.n_synthetic
    if args.static_reuse:
        size["static_reuse"] = args.static_reuse
    resamples = args.resamples or size["resamples"]
    settings = AttackSettings(prior=float(cfg.attack.prior), adversary_fraction=float(cfg.attack.adversary_fraction),
                              resamples=resamples, ci=float(cfg.attack.ci), seed=args.seed)
    t_all = time.perf_counter()
    ids, texts = iu_notes(int(cfg.corpus.min_chars), size["limit"])
    encoder = SentenceEncoder(cache_dir=None)  # no disk cache: embed_per_s is measured every run
    encoder.encode(texts)
    embed_per_s = encoder.encoded / encoder.encode_seconds

    g = cfg.generator
    llm = get_llm("llamacpp", n_threads=int(cfg.generator.llm_threads))  # default response cache: reruns are served from disk
    gen = ICLGenerator(llm, system=g.system, instruction=g.instruction, topics=list(g.topics),
                       max_tokens=size["max_tokens"], temperature=float(g.temperature), top_p=float(g.top_p),
                       seed=args.seed)
    split = split_population(len(texts), float(cfg.population.pool_fraction), args.seed)
    t0 = time.perf_counter()
    results, _ = run_icl(texts, split, gen, encoder, settings, regimes=list(g.regimes), shots=[int(k) for k in g.shots],
                         n_synthetic=size["n_synthetic"], static_reuse=size["static_reuse"], seed=args.seed)
    generation_s = time.perf_counter() - t0
    llm_stats = llm.stats
    llm.close()
    for kind in ("planted", "independent"):
        results.append(run_control(kind, texts, encoder, settings, n_members=size["n_members"],
                                   n_outsiders=size["n_outsiders"],
                                   verbatim_fraction=float(cfg.controls.verbatim_fraction), seed=args.seed))
    # the planted control with every copy verbatim: the ceiling the audit must reach (M near 1)
    verbatim = run_control("planted", texts, encoder, settings, n_members=size["n_members"],
                           n_outsiders=size["n_outsiders"], verbatim_fraction=1.0, seed=args.seed)
    verbatim["regime"] = "planted_verbatim"
    results.append(verbatim)
    # clinx's own rewrites of PHI-injected questions, released for a draw of members: L2 (rules) and L3 (SmolLM2)
    from clinx.audit.experiment import rewriter
    from clinx.audit.corpora import benchmark_questions
    from clinx.audit.experiment import run_rewrite

    _, questions = benchmark_questions(size["n_questions"], args.seed)
    l3_llm = get_llm("llamacpp", n_threads=int(cfg.generator.llm_threads))
    t0 = time.perf_counter()
    for level in ("L2", "L3"):
        results.append(run_rewrite(questions, rewriter(level, str(cfg.rewrite.strategy), l3_llm), encoder, settings,
                                   n_members=size["n_rewrite_members"], label=f"rewrite_{level}", seed=args.seed))
    rewrite_s = time.perf_counter() - t0
    l3_stats = l3_llm.stats
    l3_llm.close()
    max_m = float(cfg.decision.max_m)
    figures = flat_figures(results)
    for r in results:
        key = f"{r['regime']}/k{r['k']}" if r["target"] == "icl" else str(r["regime"])
        figures[f"release/{key}"] = decide(r, max_m=max_m, statistic=str(cfg.decision.statistic))["release"]
        figures[f"eval_size/{key}"] = round(r["eval_size"], 1)
    n_gen = sum(r["n_synthetic"] for r in results if r["target"] == "icl")
    figures.update({
        "embed_per_s": round(embed_per_s, 2),
        "generation_s": round(generation_s, 1),
        "seconds_per_note": round(generation_s / max(1, n_gen), 2),
        "rewrite_s": round(rewrite_s, 1),
        "l3_llm_calls": l3_stats.calls,
        "l3_llm_cache_hits": l3_stats.cache_hits,
        "llm_calls": llm_stats.calls,
        "llm_cache_hits": llm_stats.cache_hits,
        "wall_s": round(time.perf_counter() - t_all, 1),
        "config/quick": bool(args.quick),
        "config/notes": len(texts),
        "config/n_synthetic": size["n_synthetic"],
        "config/static_reuse": size["static_reuse"],
        "config/max_tokens": size["max_tokens"],
        "config/resamples": resamples,
        "config/rewrite_questions": len(questions),
        "config/rewrite_members": size["n_rewrite_members"],
        "config/rewrite_l3_strategy": str(cfg.rewrite.strategy),
        "config/prior": settings.prior,
        "config/max_m": max_m,
        "config/decision_statistic": str(cfg.decision.statistic),
        "config/embedding": encoder.model_id,
        "config/llm": f"llamacpp SmolLM2-135M-Instruct Q4_1, temperature {g.temperature}, top_p {g.top_p}, {int(cfg.generator.llm_threads)} thread(s)",
    })
    print(markdown(results, ci=settings.ci, resamples=resamples))
    print(f"\nembed_per_s {figures['embed_per_s']}  generation {figures['generation_s']} s "
          f"({figures['seconds_per_note']} s/note, {llm_stats.cache_hits}/{llm_stats.calls} from cache)  "
          f"wall {figures['wall_s']} s")
    write_figures(args.out, figures, start=start)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
