#!/usr/bin/env python3
"""OCR engines and settings side by side: speed per 512² image and PHI-mask quality.

    python scripts/bench_ocr.py --quick --out bench_ocr_quick.json
    python scripts/bench_ocr.py --out bench_ocr.json

For each competitor (RapidOCR with clinx's defaults and with variations,
RapidOCR's stock settings, EasyOCR) on the same held-out benchmark images:

* ``ocr_ms/<name>`` — wall-clock milliseconds per image of ``engine.read``;
  ``ocr_cpu_ms/<name>`` — this process's CPU milliseconds per image (less
  sensitive to other jobs on a shared machine; with 2 threads it can exceed
  wall time);
* ``pixel_recall/<name>`` — fraction of true PHI pixels inside the mask;
  ``phi_box_recall/<name>`` — fraction of drawn PHI words whose pixels are
  ≥ 95 % covered; ``mask_iou/<name>`` — pixel IoU with the true glyph mask
  (low by construction: we mask dilated boxes, the truth is glyph pixels);
  ``nonphi_kept/<name>`` — fraction of non-PHI text pixels (labels, L/R,
  PORTABLE, scale bar) left unmasked;
* ``images_per_s/ocr_pipeline/<name>`` — the ``ocr`` condition end to end
  in one process: PNG decode, OCR, match, mask, black fill, PNG encode
  (``workers`` images at a time for multi-worker engines);
  ``pipeline_cpu_ms/<name>`` — its CPU milliseconds per image (all threads).

Figures are flat names in the JSON written to ``--out``; a table is printed.
Performance claims come from here, never from timed tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from clinx.data.benchmark import build_benchmark  # noqa: E402
from clinx.localize import PhiLocalizer  # noqa: E402
from clinx.ocr import get_engine  # noqa: E402

#: name -> (engine, params). The first is clinx's default.
COMPETITORS = {
    "rapidocr": ("rapidocr", {}),
    "rapidocr_1thread": ("rapidocr", {"threads": 1}),
    "rapidocr_2workers": ("rapidocr", {"threads": 1, "workers": 2}),
    "rapidocr_recbatch6": ("rapidocr", {"rec_batch": 6}),
    "rapidocr_side384": ("rapidocr", {"limit_side_len": 384}),
    "rapidocr_stock": ("rapidocr", {"limit_type": "min", "limit_side_len": 736, "use_cls": True, "spin": True}),
    "easyocr": ("easyocr", {}),
}


def _quality(sample, mask: np.ndarray) -> dict:
    truth = sample.mask.astype(bool)
    inter = int((truth & mask).sum())
    union = int((truth | mask).sum())
    covered = []
    for d in sample.provenance.get("phi_boxes", []):
        for x0, y0, x1, y1 in d.get("word_boxes") or [d["box"]]:
            t = truth[y0:y1, x0:x1]
            covered.append(bool((mask[y0:y1, x0:x1] & t).sum() >= 0.95 * max(1, t.sum())))
    nonphi = sample.nonphi_mask.astype(bool) if sample.nonphi_mask is not None else np.zeros_like(truth)
    return {
        "pixel_recall": inter / truth.sum() if truth.sum() else 1.0,
        "mask_iou": inter / union if union else 1.0,
        "phi_box_hits": sum(covered),
        "phi_boxes": len(covered),
        "nonphi_kept": 1.0 - (nonphi & mask).sum() / nonphi.sum() if nonphi.sum() else 1.0,
    }


def _pipeline(localizer: PhiLocalizer, samples) -> tuple[float, float]:
    """(images per second, CPU-ms per image) for decode → OCR → match → fill → encode.

    With an engine of several ``workers`` the images go through
    :meth:`PhiLocalizer.locate_batch`, ``workers`` at a time.
    """
    encoded = [cv2.imencode(".png", s.image[:, :, ::-1])[1].tobytes() for s in samples]
    step = max(1, int(getattr(localizer.engine, "workers", 1) or 1))
    t0, c0 = time.perf_counter(), time.process_time()
    for k in range(0, len(samples), step):
        chunk = list(zip(samples[k : k + step], encoded[k : k + step]))
        imgs = [cv2.imdecode(np.frombuffer(buf, np.uint8), cv2.IMREAD_COLOR)[:, :, ::-1] for _, buf in chunk]
        locs = localizer.locate_batch(imgs, [s.manifest for s, _ in chunk], [s.id for s, _ in chunk])
        for img, loc in zip(imgs, locs):
            out = img.copy()
            out[loc.mask] = 0
            cv2.imencode(".png", np.ascontiguousarray(out[:, :, ::-1]))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return len(samples) / wall, 1000 * cpu / len(samples)


def run(n: int, n_easy: int, names: list[str], size: int, seed: int) -> dict:
    samples = build_benchmark("test", n, seed, size)
    figures: dict[str, float] = {"n_images": n, "n_images_easyocr": min(n, n_easy), "size": size}
    for name in names:
        engine_name, params = COMPETITORS[name]
        t0 = time.perf_counter()
        engine = get_engine(engine_name, cache=False, **params)
        figures[f"load_s/{name}"] = round(time.perf_counter() - t0, 2)
        subset = samples[: min(n, n_easy)] if engine_name == "easyocr" else samples
        engine.read(subset[0].image)  # warm-up: first call allocates buffers
        loc = PhiLocalizer(engine)
        walls, cpus, q = [], [], []
        for s in subset:
            w, c = time.perf_counter(), time.process_time()
            dets = engine.read(s.image)
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
            matches = loc.match(dets, s.manifest)
            from clinx.localize.mask import build_mask

            q.append(_quality(s, build_mask(s.image.shape, matches, loc.dilation, relative_dilation=loc.relative_dilation)))
        figures[f"ocr_ms/{name}"] = round(1000 * float(np.mean(walls)), 1)
        figures[f"ocr_cpu_ms/{name}"] = round(1000 * float(np.mean(cpus)), 1)
        figures[f"pixel_recall/{name}"] = round(float(np.mean([x["pixel_recall"] for x in q])), 4)
        figures[f"mask_iou/{name}"] = round(float(np.mean([x["mask_iou"] for x in q])), 4)
        figures[f"phi_box_recall/{name}"] = round(sum(x["phi_box_hits"] for x in q) / max(1, sum(x["phi_boxes"] for x in q)), 4)
        figures[f"nonphi_kept/{name}"] = round(float(np.mean([x["nonphi_kept"] for x in q])), 4)
        if engine_name != "easyocr":
            ips, cpu_ms = _pipeline(loc, subset)
            figures[f"images_per_s/ocr_pipeline/{name}"] = round(ips, 2)
            figures[f"pipeline_cpu_ms/{name}"] = round(cpu_ms, 1)
        print(f"  {name}: {figures[f'ocr_ms/{name}']} ms/image", flush=True)
    return figures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="12 images (EasyOCR on 4)")
    ap.add_argument("--n", type=int, default=None, help="number of benchmark images (default 40, quick 12)")
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", choices=sorted(COMPETITORS), help="run these competitors only")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    n = a.n or (12 if a.quick else 40)
    n_easy = 4 if a.quick else 12
    names = a.only or list(COMPETITORS)
    figures = run(n, n_easy, names, a.size, a.seed)
    figures["cpu_count"] = os.cpu_count()
    figures["load_average_1min"] = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else -1
    figures["machine"] = platform.processor() or platform.machine()
    cols = ("ocr_ms", "ocr_cpu_ms", "pixel_recall", "phi_box_recall", "mask_iou", "nonphi_kept", "pipeline_cpu_ms", "images_per_s/ocr_pipeline")
    print(f"\n{'competitor':<20}" + "".join(f"{c.split('/')[0][:14]:>15}" for c in cols))
    for name in names:
        row = "".join(f"{figures.get(f'{c}/{name}', float('nan')):>15}" for c in cols)
        print(f"{name:<20}{row}")
    print(f"(load average during run: {figures['load_average_1min']} on {figures['cpu_count']} cores)")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(figures, indent=2, sort_keys=True))
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
