#!/usr/bin/env python3
"""Benchmark the privacy–utility grid of ``clinx demo``: figures, cold and cached wall time.

    python scripts/bench_eval.py --out bench_eval.json            # the demo grid (32 items)
    python scripts/bench_eval.py --quick --out bench_eval.json    # 12 items
    python scripts/bench_eval.py --n 24 --set text_params.strategy=single --out x.json

Runs the demo configuration twice in one process against a fresh cache
folder: the first run is cold (benchmark build, OCR masks, restoration, L1–L3
text, VQA answers, judge calls, OCR attacks all computed; model loading
included), the second is served from the cache. Prints Table 1 and the
leakage table, writes flat figures to JSON:

* ``em/<level>/<condition>``, ``f1/…``, ``yn_em/…`` (percent),
  ``se/<metric>/<level>/<condition>`` (their standard errors),
* ``judge/<judge>/<level>/<condition>`` (percent),
* ``ablation/<metric>/<level>/<raw|clean>`` (text-only ablation),
* ``token_recall/<condition>/<engine>``, ``char_overlap/<condition>/<engine>`` (fractions),
* ``diff/<metric>/<level>/<a>-<b>`` and ``diff_se/…`` (paired differences, percentage points),
* ``em/evidence/<condition>`` (+ ``se/…``, ``n/evidence``) and ``em_diff/evidence/<a>-ocr`` with
  ``em_diff_se/…`` on evidence-under-the-mask items, read at L0 (``--evidence-share``),
* ``released/<condition>`` and ``quarantined/<condition>`` (items the verifier let through / held back),
* ``wall_s`` (cold) and ``wall_s_cached`` (rerun), ``n_items``, ``missing/<part>`` = 1 for parts not evaluated.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="where to write the JSON figures")
    ap.add_argument("--quick", action="store_true", help="12 items instead of the demo's 32")
    ap.add_argument("--n", type=int, default=None, help="items (overrides --quick)")
    ap.add_argument("--workdir", default=None, help="cache + report folder (default: a fresh temporary folder)")
    ap.add_argument("--evidence-share", type=float, default=0.0,
                    help="share of evidence-under-the-mask items in the built-in data (default 0: the demo's data)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="extra Hydra override (repeatable)")
    args = ap.parse_args(argv)

    from clinx.config import compose
    from clinx.eval.cli import run_from_config
    from clinx.eval.report import paired_comparisons, render_markdown

    from clinx.provenance import provenance

    start = provenance()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="clinx_bench_eval_"))
    n = args.n if args.n is not None else (12 if args.quick else 32)
    overrides = [f"n={n}", f"paths.cache_dir={work / 'cache'}", f"paths.runs_dir={work / 'runs'}", "progress=false"] + (
        [f"data.evidence_share={args.evidence_share}"] if args.evidence_share else []) + args.set
    cfg = compose("demo", overrides)

    t0 = time.perf_counter()
    doc, result = run_from_config(cfg, out_dir=work / "report_cold")
    wall = time.perf_counter() - t0
    t1 = time.perf_counter()
    doc2, result2 = run_from_config(cfg, out_dir=work / "report_cached")
    wall_cached = time.perf_counter() - t1

    print(render_markdown(result, brief=True))
    figs = dict(doc["figures"])
    for c in paired_comparisons(result):
        for m in ("em", "f1", "yn_em") + tuple(k for k in c if k.startswith("judge/")):
            if m in c and c[m].n:
                figs[f"diff/{m}/{c['level']}/{c['a']}-{c['b']}"] = round(c[m].value, 4)
                figs[f"diff_se/{m}/{c['level']}/{c['a']}-{c['b']}"] = round(c[m].se, 4)
    for part in doc.get("missing", {}):
        figs[f"missing/{part}"] = 1
    figs["wall_s"] = round(wall, 2)
    figs["wall_s_cached"] = round(wall_cached, 2)
    figs["n_items"] = sum(result.meta.get("datasets", {}).values())
    # Released vs quarantined per condition (the verifier's verdicts): leakage is measured on released images only.
    for keys in result.image_keys.values():
        for cond, items in keys.items():
            figs[f"released/{cond}"] = figs.get(f"released/{cond}", 0) + len(items)
    for k, v in result.counts.items():
        if k.startswith("quarantined/"):
            figs[k] = v
    figs["model_calls_cold"] = result.counts.get("model_calls", 0)
    figs["model_calls_cached"] = result2.counts.get("model_calls", 0)
    for k, v in result.timings.items():
        figs[f"time/{k}"] = round(v, 2)
    same = sorted(json.dumps(r, sort_keys=True) for r in result.rows) == sorted(json.dumps(r, sort_keys=True) for r in result2.rows)
    figs["rerun_identical"] = int(same)
    from clinx.provenance import write_figures

    out = write_figures(args.out, figs, start=start)
    print(f"cold {wall:.1f} s, cached {wall_cached:.1f} s, rerun identical: {same}; figures -> {out}; reports in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
