#!/usr/bin/env python3
"""OCR leakage benchmark: every image condition attacked by every OCR engine.

    python scripts/bench_leakage.py --quick --out bench_leakage_quick.json
    python scripts/bench_leakage.py --out bench_leakage.json          # >= 300 images

1. Builds a held-out benchmark split (``test``; ``--quick``: 60 images, full:
   300, at 512²) and saves it to disk, so sanitizing reads and writes real files.
2. Builds PHI masks with each OCR engine and scores them against the true
   masks (``mask_iou/<engine>``, plus box IoU and PHI-box recall).
3. Sanitizes the split with each available condition (``raw``, ``ocr``, and
   ``gskip`` / ``prism`` / ``prism_flat`` when their checkpoints load —
   skipped with a printed note otherwise) through the real fail-closed runner,
   masks built with RapidOCR, verification off so that the timing is the
   pipeline itself: decode, OCR, match, fill, encode (``images_per_s/<condition>``).
4. Attacks every released image with every engine and writes flat figures
   ``token_recall/<condition>/<engine>``, ``char_overlap/<condition>/<engine>``,
   ``nonphi_survival/<condition>`` (RapidOCR reader; per engine as
   ``nonphi_survival/<condition>/<engine>``), prints a table and checks the
   foundation issue's targets.

The leakage evaluation itself is :func:`clinx.metrics.leakage.evaluate_leakage`;
:func:`attack_conditions` below is the reusable piece for other benchmarks
(``scripts/bench_restore.py`` calls it with its own conditions).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clinx.metrics.leakage import (  # noqa: E402
    CachedEngine,
    ReadCache,
    aggregate_masks,
    evaluate_leakage,
    mask_quality,
    phi_boxes,
)

ALL_CONDITIONS = ("raw", "ocr", "gskip", "prism", "prism_flat")
TARGETS = {
    "raw token recall >= 0.30 per engine": lambda f, engines: all(f.get(f"token_recall/raw/{e}", 0) >= 0.30 for e in engines),
    "ocr (RapidOCR masks) token recall <= 0.01 with every engine": lambda f, engines: all(
        f.get(f"token_recall/ocr/{e}", 1) <= 0.01 for e in engines
    ),
    "ocr non-PHI survival >= 0.90 of images": lambda f, engines: f.get("nonphi_survival/ocr", 0) >= 0.90,
    "ocr >= 4 images/s at 512x512": lambda f, engines: f.get("images_per_s/ocr", 0) >= 4.0,
}


def log(msg: str) -> None:
    print(msg, flush=True)


def load_engines(names, params=None) -> dict:
    """``{name: OCREngine}`` for the engines that load; a note for the others."""
    from clinx.ocr import get_engine

    out = {}
    for n in names:
        try:
            t = time.perf_counter()
            out[n] = get_engine(n, **dict((params or {}).get(n, {})))
            log(f"engine {n}: loaded in {time.perf_counter() - t:.1f}s")
        except Exception as exc:  # noqa: BLE001 — a missing engine is reported, not fatal
            log(f"NOTE: engine {n} unavailable ({type(exc).__name__}: {exc}); skipped")
    return out


def build_condition(name: str):
    """The condition, or ``None`` with a printed note when it cannot be built (e.g. no checkpoint)."""
    from clinx.sanitize.conditions import get_condition

    try:
        return get_condition(name)
    except Exception as exc:  # noqa: BLE001
        log(f"NOTE: condition {name} skipped ({type(exc).__name__}: {exc})")
        return None


def mask_scores(samples, engines: dict, cache: ReadCache, localizer_params=None) -> dict:
    """``{engine: aggregate_masks(...)}``: PHI masks built with each engine vs the true masks."""
    from clinx.localize.localizer import PhiLocalizer

    out = {}
    for ename, eng in engines.items():
        loc = PhiLocalizer(CachedEngine(eng, cache, ename), **dict(localizer_params or {}))
        qs = []
        t = time.perf_counter()
        for s in samples:
            if s.mask is None:
                continue
            m = loc.locate(s.image, s.manifest, item=s.id).mask
            qs.append(mask_quality(m, s.mask, phi_boxes(s)))
        out[ename] = aggregate_masks(qs)
        log(f"masks[{ename}]: {len(qs)} images in {time.perf_counter() - t:.1f}s")
    return out


def attack_conditions(
    images_dir: Path,
    manifests_dir: Path,
    samples,
    conditions: dict,
    engines: dict,
    work_dir: Path,
    *,
    mask_engine: str = "rapidocr",
    cache: ReadCache | None = None,
    localizer_params=None,
    progress: bool = True,
    on_done=None,
    workers: int = 1,
) -> dict:
    """Sanitize ``images_dir`` with each condition (real files, fail-closed runner) and attack the outputs.

    ``conditions`` maps a name to a built condition; masks are built with
    ``engines[mask_engine]`` (uncached, so the timing is end to end); with
    ``workers > 1`` that many single-engine localizers OCR items in parallel.
    Returns ``{condition: {"summary": RunSummary.to_dict(), "leakage":
    evaluate_leakage(...)}}``. Reusable by other benchmarks.
    """
    from clinx.localize.localizer import PhiLocalizer
    from clinx.sanitize.runner import sanitize_folder

    cache = cache or ReadCache()
    if workers > 1:
        from clinx.sanitize.cli import build_localizers

        localizer = build_localizers(mask_engine, workers, {}, localizer_params)
    else:
        localizer = PhiLocalizer(engines[mask_engine], **dict(localizer_params or {}))
    results = {}
    for cname, cond in conditions.items():
        out_dir = work_dir / cname
        shutil.rmtree(out_dir, ignore_errors=True)
        summary = sanitize_folder(
            images_dir, out_dir, cond, localizer, manifests_dir, verify=False, resume=False, progress=progress
        )
        outputs = {Path(k).with_suffix("").as_posix(): v for k, v in summary.outputs.items()}
        log(f"sanitize[{cname}]: {summary.sanitized} released, {summary.quarantined} quarantined, "
            f"{summary.images_per_s:.2f} images/s")
        t = time.perf_counter()
        leak = evaluate_leakage(outputs, samples, engines, cache=cache)
        log(f"attack[{cname}]: {time.perf_counter() - t:.1f}s")
        results[cname] = {"summary": summary.to_dict(), "leakage": leak}
        if on_done is not None:
            on_done(results)
    return results


def flat_figures(results: dict, masks: dict, reader: str = "rapidocr") -> dict:
    """The flat named figures of the issue from :func:`attack_conditions` / :func:`mask_scores` output."""
    f: dict[str, float] = {}
    for cname, r in results.items():
        for ename, leak in r["leakage"].items():
            f[f"token_recall/{cname}/{ename}"] = leak["token_recall"]
            f[f"char_overlap/{cname}/{ename}"] = leak["char_overlap"]
            f[f"nonphi_survival/{cname}/{ename}"] = leak["nonphi"]["image_rate"]
        if reader in r["leakage"]:
            f[f"nonphi_survival/{cname}"] = r["leakage"][reader]["nonphi"]["image_rate"]
            for kind, agg in r["leakage"][reader].get("nonphi_by_kind", {}).items():
                f[f"nonphi_survival_kind/{cname}/{kind}"] = agg["image_rate"]
        f[f"images_per_s/{cname}"] = r["summary"]["images_per_s"]
        done = r["summary"]["processed"] - r["summary"]["skipped_resumed"]
        if done:
            f[f"cpu_s_per_image/{cname}"] = r["summary"]["cpu_s"] / done
    for ename, m in masks.items():
        f[f"mask_iou/{ename}"] = m["iou"]
        f[f"mask_box_iou/{ename}"] = m["box_iou"]
        f[f"mask_box_recall/{ename}"] = m["box_recall"]
    return {k: (round(v, 4) if v == v else None) for k, v in f.items()}


def print_table(results: dict, masks: dict) -> str:
    lines = ["| condition | engine | token recall | char overlap | non-PHI survival (images) | images/s | released |",
             "|---|---|---|---|---|---|---|"]
    for cname, r in results.items():
        for ename, leak in r["leakage"].items():
            nonphi = leak["nonphi"]["image_rate"]
            lines.append(
                f"| {cname} | {ename} | {leak['token_recall']:.4f} | {leak['char_overlap']:.4f} | "
                f"{'—' if nonphi != nonphi else f'{nonphi:.3f}'} | {r['summary']['images_per_s']:.2f} | "
                f"{leak['n_released']} |"
            )
    lines += ["", "| mask engine | pixel IoU (glyphs) | box IoU | PHI-box recall |", "|---|---|---|---|"]
    for ename, m in masks.items():
        lines.append(f"| {ename} | {m['iou']:.4f} | {m['box_iou']:.4f} | {m['box_recall']:.4f} |")
    table = "\n".join(lines)
    log(table)
    return table


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="60 images (default 300)")
    ap.add_argument("--n", type=int, default=None, help="number of images (overrides --quick)")
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", default="test", help="held-out split to build (never the training split)")
    ap.add_argument("--engines", default="rapidocr,easyocr")
    ap.add_argument("--conditions", default=",".join(ALL_CONDITIONS))
    ap.add_argument("--mask-engine", default="rapidocr")
    ap.add_argument("--workers", type=int, default=1, help="parallel OCR instances in the sanitizer (timed)")
    ap.add_argument("--work-dir", default=None, help="keep the benchmark and outputs here (default: a temp folder)")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--out", required=True, help="figures JSON")
    args = ap.parse_args(argv)

    from clinx.data.benchmark import build_benchmark, save_benchmark

    n = args.n or (60 if args.quick else 300)
    t_all = time.perf_counter()
    tmp = None
    if args.work_dir:
        work = Path(args.work_dir)
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="clinx-bench-leakage-")
        work = Path(tmp.name)
    try:
        t = time.perf_counter()
        samples = build_benchmark(args.split, n, args.seed, args.size)
        bench = work / "bench"
        save_benchmark(samples, bench)
        log(f"benchmark: {len(samples)} {args.split} images at {args.size}² built and saved in {time.perf_counter() - t:.1f}s")

        engines = load_engines([e for e in args.engines.split(",") if e])
        if args.mask_engine not in engines:
            log(f"mask engine {args.mask_engine} is not available; cannot sanitize")
            return 2
        conditions = {}
        for name in [c for c in args.conditions.split(",") if c]:
            cond = build_condition(name)
            if cond is not None:
                conditions[name] = cond

        cache = ReadCache()
        masks = mask_scores(samples, engines, cache)

        def checkpoint(partial: dict) -> None:
            # A long run that is interrupted still leaves the figures measured so far.
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(json.dumps(
                {**flat_figures(partial, masks), "_meta": {"partial": True, "n_images": len(samples)}}, indent=2))

        results = attack_conditions(
            bench / "images", bench / "manifests", samples, conditions, engines, work / "out",
            mask_engine=args.mask_engine, cache=cache, progress=not args.no_progress, on_done=checkpoint,
            workers=args.workers,
        )
        figures = flat_figures(results, masks)
        table = print_table(results, masks)
        checks = {name: bool(fn(figures, list(engines))) for name, fn in TARGETS.items()}
        for name, ok in checks.items():
            log(f"{'PASS' if ok else 'MISS'}  {name}")
        wall = time.perf_counter() - t_all
        log(f"total wall time {wall:.1f}s, OCR calls in the attack cache: {cache.calls}")
        payload = {
            **figures,
            "_meta": {
                "n_images": len(samples),
                "size": args.size,
                "split": args.split,
                "seed": args.seed,
                "engines": list(engines),
                "conditions": list(conditions),
                "skipped_conditions": [c for c in args.conditions.split(",") if c and c not in conditions],
                "mask_engine": args.mask_engine,
                "workers": args.workers,
                "wall_s": round(wall, 1),
                "cpu_count": os.cpu_count(),
                "python": platform.python_version(),
                "targets": checks,
            },
            "_details": {
                "masks": masks,
                "conditions": {c: {"summary": r["summary"], "leakage": r["leakage"]} for c, r in results.items()},
                "table_md": table,
            },
        }
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(payload, indent=2, default=float))
        log(f"wrote {args.out}")
        return 0
    finally:
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    raise SystemExit(main())
