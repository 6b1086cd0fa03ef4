#!/usr/bin/env python3
"""Restoration quality benchmark: PRISM, PRISM-flat, g-skip vs OpenCV inpainting and black fill.

    python scripts/bench_restore.py --quick --out bench_restore_quick.json
    python scripts/bench_restore.py --out bench_restore.json --size 224

On a held-out split, in one process. ``--split native`` (the default) is the
strict one: real scans no shipped checkpoint saw and phantoms from a seed
stream no training split uses, at their own resolution (1,024–3,072 px,
:mod:`clinx.data.native`; every base id is checked with
:func:`clinx.data.native.is_held_out`). ``--split test`` is the built-in 512²
test split, whose real bases are new augmentations of the training scans.

1. **Quality** inside the mask, against the restoration target — the image
   without its text, backing boxes kept
   (:attr:`clinx.records.Sample.restoration_target`: the scan hidden under a
   box is unknowable, so no fill is scored on guessing it): masked PSNR and SSIM (:mod:`clinx.metrics.image_quality`, scikit-image)
   and wall time per image, for ``prism``, ``prism_flat``, ``gskip`` (the
   shipped checkpoints unless ``--checkpoint-dir``), ``telea`` and ``ns``
   (OpenCV ``cv2.inpaint``, radius ``--radius``) and ``black`` (the ``ocr``
   condition). Every method fills the same pixels: ``--mask true`` is the
   glyph mask dilated by ``--dilation`` px (thin strokes, where Telea is
   strong); ``--mask boxes`` the word boxes an OCR engine returns (what
   ``clinx sanitize`` actually restores); ``--mask both`` (default) reports
   both, the box figures under ``…_boxes``.
   Figures ``psnr_mask/<method>``, ``psnr_mask_se/<method>`` (standard error
   over images), ``ssim_mask/<method>``, ``ms_per_image/<method>``, and per
   restored method ``win_rate_vs_telea/<method>`` (share of images with a
   higher masked PSNR than Telea) and ``psnr_diff_vs_telea/<method>`` with
   ``psnr_diff_vs_telea_se/<method>`` (paired, per image).
2. **Leakage** (built-in split only; skip with ``--no-leakage``; the native
   split's leakage is ``scripts/bench_leakage.py``): the restored conditions run through
   the real sanitizer with RapidOCR masks and are attacked with RapidOCR and
   EasyOCR, reusing ``scripts/bench_leakage.py``'s :func:`attack_conditions`
   (which calls :func:`clinx.metrics.leakage.evaluate_leakage`). Figures
   ``token_recall/<condition>/<engine>`` and ``char_overlap/<condition>/<engine>``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # see clinx/restore/__init__.py: before torch is imported
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from clinx.sanitize.conditions import RESTORING_CONDITIONS as RESTORED  # noqa: E402
#: ``--mask`` choice -> figure-family suffix; the first listed is the unsuffixed headline.
MASK_SUFFIX = {"true": "", "boxes": "_boxes"}
MASK_LABELS = {"": "true glyph mask dilated", "_boxes": "OCR-like word boxes dilated"}
METHODS = (*RESTORED, "telea", "ns", "black")


def log(msg: str) -> None:
    print(msg, flush=True)


class OpenCVInpaint:
    """``cv2.inpaint`` as a method with the condition call shape (the classical baselines)."""

    def __init__(self, flag: int, radius: int):
        self.flag, self.radius = flag, radius

    def apply_batch(self, images, masks, seeds=None):
        return [cv2.inpaint(im, m.astype(np.uint8) * 255, self.radius, self.flag) for im, m in zip(images, masks)]


def build_methods(names, checkpoint_dir: Path | None, radius: int) -> dict:
    from clinx.sanitize.conditions import get_condition

    out = {}
    for n in names:
        if n in RESTORED:
            out[n] = get_condition(n, checkpoint_dir=checkpoint_dir)  # a missing checkpoint is an error, not a skipped row
        elif n == "telea":
            out[n] = OpenCVInpaint(cv2.INPAINT_TELEA, radius)
        elif n == "ns":
            out[n] = OpenCVInpaint(cv2.INPAINT_NS, radius)
        elif n == "black":
            out[n] = get_condition("ocr")
        else:
            raise SystemExit(f"unknown method {n!r}; known: {', '.join(METHODS)}")
    return out


def quality(samples, methods: dict, dilation: int, mask_mode: str = "true", suffix: str = "", batch: int = 8) -> tuple[dict, dict]:
    """``(figures, per_image)``: masked PSNR (mean and its standard error) / SSIM / ms per image of every method.

    ``mask_mode`` is :func:`clinx.restore.datamodule.training_mask`'s mode
    (``true`` glyphs or OCR-like ``boxes``); ``suffix`` is appended to each
    figure's family (``psnr_mask_boxes/telea``).
    """
    from clinx.metrics.image_quality import masked_psnr, masked_ssim
    from clinx.restore.datamodule import training_mask

    items = [(s, training_mask(s.mask, mask_mode, dilation)) for s in samples if s.mask is not None and s.mask.any()]
    figures, per_image = {}, {}
    for name, method in methods.items():
        psnr, ssim, secs = [], [], 0.0
        for k in range(0, len(items), batch):
            chunk = items[k:k + batch]
            t = time.perf_counter()
            outs = method.apply_batch([s.image for s, _ in chunk], [m for _, m in chunk], [k + i for i in range(len(chunk))])
            secs += time.perf_counter() - t
            for (s, m), out in zip(chunk, outs):
                assert np.array_equal(out[~m], s.image[~m]), f"{name} changed pixels outside the mask"
                # Against the background (x̃ without text, backing boxes kept), not the
                # clean scan: under a box the scan is hidden and no fill should guess it.
                psnr.append(masked_psnr(out, s.restoration_target, m))
                ssim.append(masked_ssim(out, s.restoration_target, m))
        p = np.array(psnr, float)
        p[~np.isfinite(p)] = np.nan
        figures[f"psnr_mask{suffix}/{name}"] = round(float(np.nanmean(p)), 4)
        figures[f"psnr_mask_se{suffix}/{name}"] = round(standard_error(p), 4)
        figures[f"ssim_mask{suffix}/{name}"] = round(float(np.nanmean(ssim)), 4)
        figures[f"ms_per_image{suffix}/{name}"] = round(1000.0 * secs / max(1, len(items)), 2)
        per_image[name] = {"psnr": [round(float(v), 3) for v in p], "ssim": [round(float(v), 4) for v in ssim]}
        log(f"quality[{name}, {mask_mode}]: psnr_mask {figures[f'psnr_mask{suffix}/{name}']:.2f} "
            f"± {figures[f'psnr_mask_se{suffix}/{name}']:.2f} dB  ssim_mask {figures[f'ssim_mask{suffix}/{name}']:.4f}  "
            f"{figures[f'ms_per_image{suffix}/{name}']:.1f} ms/image")
    if "telea" in per_image:
        for m in RESTORED:
            if m in per_image:
                wins, diff, se, median = paired_vs(per_image, m, "telea")
                figures[f"win_rate_vs_telea{suffix}/{m}"] = round(wins, 4)
                figures[f"psnr_diff_vs_telea{suffix}/{m}"] = round(diff, 4)
                figures[f"psnr_diff_vs_telea_se{suffix}/{m}"] = round(se, 4)
                # The mean is pulled by a few images where every fill is far off (text on a
                # backing box hides what is under it); the median says what a typical image gets.
                figures[f"psnr_diff_vs_telea_median{suffix}/{m}"] = round(median, 4)
    return figures, per_image


def standard_error(values) -> float:
    """Standard error of the mean of the finite values (NaN with fewer than two)."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    return float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")


def paired_vs(per_image: dict, a: str, b: str) -> tuple[float, float, float, float]:
    """``(win rate, mean PSNR difference, its standard error, median difference)`` of ``a`` over ``b``, image by image."""
    pa, pb = np.array(per_image[a]["psnr"], float), np.array(per_image[b]["psnr"], float)
    ok = np.isfinite(pa) & np.isfinite(pb)
    if not ok.any():
        return float("nan"), float("nan"), float("nan"), float("nan")
    d = pa[ok] - pb[ok]
    return float(np.mean(d > 0)), float(d.mean()), standard_error(d), float(np.median(d))


def held_out_samples(split: str, n: int, seed: int, size: int) -> list:
    """``n`` samples of a held-out split; ``native`` is checked scan by scan against the training bases."""
    if split == "native":
        from clinx.data.native import build_native, is_held_out

        samples = [it.sample for it in build_native(n, seed)]
        leaked = [s.id for s in samples if not is_held_out(s.provenance["base_id"])]
        if leaked:
            raise SystemExit(f"native samples share a base scan with training: {leaked}")
        return samples
    from clinx.data.benchmark import build_benchmark

    return build_benchmark(split, n, seed, size)


def qualitative(samples, methods: dict, dilation: int, mask_mode: str, path: Path, k: int = 4) -> None:
    """A PNG grid of crops restored by each method beside the restoration target (the picture behind the table).

    The ``k`` samples whose target pixels under the mask vary most (texture is
    where fills differ; a flat black corner says nothing) each give a crop at
    the start of their largest text group. The overlaid image is never shown:
    its text is (synthetic) PHI; the ``black`` column shows where the mask lies.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from clinx.restore.datamodule import training_mask

    items = [(s, training_mask(s.mask, mask_mode, dilation)) for s in samples if s.mask is not None and s.mask.any()]
    items = sorted(items, key=lambda it: -float(it[0].restoration_target[it[1]].std()))[:k]
    cols = [*methods, "target"]
    fig, axes = plt.subplots(len(items), len(cols), figsize=(2.0 * len(cols), 2.0 * len(items) + 0.4), squeeze=False)
    for r, (s, m) in enumerate(items):
        _, _, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(m.astype(np.uint8), np.ones((1, 25), np.uint8)))
        j = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        x, y, _, h = stats[j, :4]
        side = 3 * h + 16  # the text line plus a line of context above and below
        H, W = m.shape
        y0, x0 = int(np.clip(y - h - 8, 0, max(0, H - side))), int(np.clip(x - 8, 0, max(0, W - side)))
        outs = {**{name: meth.apply_batch([s.image], [m], [0])[0] for name, meth in methods.items()}, "target": s.restoration_target}
        for c, name in enumerate(cols):
            ax = axes[r, c]
            ax.imshow(outs[name][y0:y0 + side, x0:x0 + side], cmap="gray")
            ax.set_xticks([]), ax.set_yticks([])
            if r == 0:
                ax.set_title(name, fontsize=9)
        axes[r, 0].set_ylabel(str(s.provenance.get("base_source", s.id))[:16], fontsize=8)
    fig.suptitle(f"held-out crops, {MASK_LABELS[MASK_SUFFIX[mask_mode]]} {dilation} px", fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def leakage(samples, work: Path, conditions: dict, engine_names, progress: bool) -> dict:
    from bench_leakage import attack_conditions, flat_figures, load_engines

    from clinx.data.benchmark import save_benchmark
    from clinx.metrics.leakage import ReadCache

    bench = work / "bench"
    save_benchmark(samples, bench)
    engines = load_engines(engine_names)
    if "rapidocr" not in engines:
        raise SystemExit("RapidOCR is needed to build the masks for the leakage part")
    results = attack_conditions(bench / "images", bench / "manifests", samples, conditions, engines, work / "out",
                                mask_engine="rapidocr", cache=ReadCache(), progress=progress)
    flat = flat_figures(results, {})
    keep = {k: v for k, v in flat.items() if k.startswith(("token_recall/", "char_overlap/"))}
    details = {c: {"summary": r["summary"], "leakage": {e: {k: v for k, v in l.items() if k != "per_field"}
                                                          for e, l in r["leakage"].items()}} for c, r in results.items()}
    return keep, details


def table(figures: dict, methods, suffixes=("",)) -> str:
    lines = []
    for sfx in suffixes:
        lines += [f"mask: {MASK_LABELS[sfx]}", "",
                  "| method | masked PSNR (dB) ± SE | Δ vs Telea ± SE (median) | wins vs Telea | masked SSIM | ms / image |",
                  "|---|---|---|---|---|---|"]
        for m in methods:
            d = figures.get(f"psnr_diff_vs_telea{sfx}/{m}")
            delta = (f"{d:+.2f} ± {figures[f'psnr_diff_vs_telea_se{sfx}/{m}']:.2f} "
                     f"(median {figures[f'psnr_diff_vs_telea_median{sfx}/{m}']:+.2f})") if d is not None else ""
            w = figures.get(f"win_rate_vs_telea{sfx}/{m}")
            lines.append(f"| {m} | {figures[f'psnr_mask{sfx}/{m}']:.2f} ± {figures[f'psnr_mask_se{sfx}/{m}']:.2f} | {delta} | "
                         f"{'' if w is None else f'{w:.0%}'} | {figures[f'ssim_mask{sfx}/{m}']:.4f} | {figures[f'ms_per_image{sfx}/{m}']:.1f} |")
        lines.append("")
    recalls = sorted(k for k in figures if k.startswith("token_recall/"))
    if recalls:
        lines += ["", "| condition | engine | token recall | char overlap |", "|---|---|---|---|"]
        for k in recalls:
            _, c, e = k.split("/")
            lines.append(f"| {c} | {e} | {figures[k]:.4f} | {figures.get(f'char_overlap/{c}/{e}', float('nan')):.4f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="40 images for quality, 30 for leakage (default 200 / 100)")
    ap.add_argument("--mask", choices=("true", "boxes", "both"), default="both",
                    help="which mask every method fills: glyphs, OCR-like word boxes, or both (figures *_boxes)")
    ap.add_argument("--n", type=int, default=None, help="images for the quality part")
    ap.add_argument("--n-leakage", type=int, default=None, help="images for the leakage part")
    ap.add_argument("--size", type=int, default=512, help="built-in image side (bench_leakage uses 512; the paper 224); "
                    "the native split keeps each scan's own size")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split", default="native", choices=("native", "test", "val"),
                    help="native: strictly held-out scans at their own size (default); test: built-in 512² split")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--radius", type=int, default=5, help="cv2.inpaint radius for telea / ns")
    ap.add_argument("--dilation", type=int, default=3, help="px the true PHI mask is dilated by")
    ap.add_argument("--checkpoint-dir", type=Path, default=None, help="folder with prism/ and gskip/ (default: shipped)")
    ap.add_argument("--engines", default="rapidocr,easyocr")
    ap.add_argument("--no-leakage", action="store_true")
    ap.add_argument("--figure", type=Path, default=None,
                    help="also write a PNG grid of crops (largest masks, OCR-box mask) restored by every method")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    from clinx.provenance import provenance

    start = provenance()  # the commit that runs, before anything can change it
    if args.split == "train":
        raise SystemExit("the benchmark must run on a held-out split")

    import torch

    torch.set_num_threads(args.threads)
    t_all = time.perf_counter()
    n = args.n or (40 if args.quick else 200)
    do_leak = not args.no_leakage and args.split != "native"  # native leakage: bench_leakage.py
    n_leak = (args.n_leakage or (30 if args.quick else 100)) if do_leak else 0
    t = time.perf_counter()
    samples = held_out_samples(args.split, max(n, n_leak), args.seed, args.size)
    sides = sorted({max(s.image.shape[:2]) for s in samples})
    log(f"benchmark: {len(samples)} {args.split} images, sides {sides[0]}-{sides[-1]} px, in {time.perf_counter() - t:.1f}s")
    names = [m for m in args.methods.split(",") if m]
    methods = build_methods(names, args.checkpoint_dir, args.radius)
    modes = ("true", "boxes") if args.mask == "both" else (args.mask,)
    figures, per_image = {}, {}
    for mode in modes:
        f, p = quality(samples[:n], methods, args.dilation, mode, MASK_SUFFIX[mode])
        figures.update(f)
        per_image[mode] = p
    if args.figure is not None:
        qualitative(samples[:n], methods, args.dilation, modes[-1], args.figure)
        log(f"wrote {args.figure}")
    details = {}
    if do_leak:
        conds = {m: methods[m] for m in RESTORED if m in methods}
        with tempfile.TemporaryDirectory(prefix="clinx-bench-restore-") as tmp:
            leak, details = leakage(samples[:n_leak], Path(tmp), conds, [e for e in args.engines.split(",") if e], progress=False)
        figures.update(leak)
    md = table(figures, names, [MASK_SUFFIX[m] for m in modes])
    log(md)
    meta = {
        "n_quality": min(n, len(samples)), "n_leakage": n_leak, "size": "native" if args.split == "native" else args.size,
        "image_sides_px": [sides[0], sides[-1]], "masks": list(modes),
        "split": args.split, "seed": args.seed, "radius": args.radius, "dilation": args.dilation,
        "checkpoints": {m: str(getattr(methods[m], "checkpoint", "")) for m in RESTORED if m in methods},
        "mask_for_quality": f"true PHI mask dilated {args.dilation}px", "mask_for_leakage": "RapidOCR + manifest (PhiLocalizer)",
        "torch_threads": args.threads, "cpu_count": os.cpu_count(), "python": platform.python_version(),
        "wall_s": round(time.perf_counter() - t_all, 1),
    }
    from clinx.provenance import write_figures

    write_figures(args.out, figures, start=start, _meta=meta, _details={"leakage": details, "table_md": md, "per_image": per_image})
    log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
