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

Native resolution (``--native``, on by default; ``--no-native`` skips it): real
pydicom-data scans (CR, MONOCHROME1 among them, MR) scaled so the longer side
is 512, 2,000 and 3,000 px, one in three JPEG-compressed and one in three
shown inverted, with overlays sized as scanners draw them (cap height
0.8–2.5 % of the image height, corner blocks, some flush with the border):
a name, a birth date, an ID (listed in a custodian-style manifest), a study
date / accession / institution that the manifest does *not* list, and
non-PHI overlay words (PORTABLE, AP, 120 kVp 2.5 mAs, SUPINE, L). Per engine
and size:

* ``native_cpu_s/<engine>/<size>``, ``native_wall_s/<engine>/<size>`` —
  seconds per image of ``engine.read``;
* ``native_phi_masked/<engine>/<size>`` — share of drawn PHI words whose ink
  is >= 95 % inside the ``manifest+patterns`` mask built from that engine's
  read; ``native_unlisted_masked/...`` the same for the words no manifest
  lists; ``native_nonphi_kept/...`` share of non-PHI overlay words left
  untouched (< 5 % of their ink masked);
* ``native_cpu_s/ocr_verify/<size>`` — CPU seconds per image of localising
  with RapidOCR, filling the mask, and re-reading the result with EasyOCR
  (the independent verifier); ``native_verify_clean/<size>`` the share of
  those images in which the verifier found no manifest or pattern hit;
  ``images_per_s_est/native_verify_2cores/<size>`` = 2 / that CPU time
  (an estimate for two workers on two idle cores, not a measurement).

Figures are flat names in the JSON written to ``--out``; a table is printed.
Performance claims come from here, never from timed tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
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


# ----------------------------------------------------------------- native resolution
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
_BASES = ("RG1_UNCR.dcm", "RG3_UNCR.dcm", "MR2_UNCR.dcm")
_FIRST = ("JOHN", "MARIA", "PETER", "ANNA", "JAMES", "LINDA", "OMAR", "GRACE")
_LAST = ("DOE", "KOWALSKI", "NGUYEN", "BRENNAN", "OKAFOR", "LINDQVIST", "MORALES", "HARTLEY")
_HOSP = ("ST. MARY HOSPITAL", "LAKESIDE MEDICAL CENTER", "NORTHGATE CLINIC")


def _base(name: str, side: int) -> np.ndarray:
    from pydicom.data import get_testdata_file

    from clinx.data.dicom import read_dicom

    img = read_dicom(get_testdata_file(name, download=False)).frames[0]
    h, w = img.shape[:2]
    s = side / max(h, w)
    return cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)


def native_sample(index: int, side: int, seed: int = 0):
    """One scan at ``side`` px with a realistic overlay: (image, manifest, words).

    ``words`` = [(text, kind, ink_mask)] with kind ``listed`` / ``unlisted`` / ``nonphi``.
    """
    from PIL import Image, ImageDraw, ImageFont

    from clinx.records import Manifest

    rng = np.random.default_rng([seed, index, side])
    img = _base(_BASES[index % len(_BASES)], side)
    inverted = index % 3 == 1
    if inverted:
        img = 255 - img
    H, W = img.shape[:2]
    cap = max(8.0, float(rng.uniform(0.008, 0.025)) * H)
    font = ImageFont.truetype(FONT, max(8, int(round(cap / 0.73))))
    first, last = _FIRST[rng.integers(len(_FIRST))], _LAST[rng.integers(len(_LAST))]
    y, m, d = int(rng.integers(1930, 2000)), int(rng.integers(1, 13)), int(rng.integers(1, 29))
    sy, sm, sd = int(rng.integers(2015, 2024)), int(rng.integers(1, 13)), int(rng.integers(1, 29))
    pid = "".join(str(v) for v in rng.integers(0, 10, 8))
    acc = "A" + "".join(str(v) for v in rng.integers(0, 10, 7))
    manifest = Manifest({"PatientName": f"{last}^{first}", "PatientBirthDate": f"{y:04d}{m:02d}{d:02d}", "PatientID": pid,
                         "StudyDate": f"{sy:04d}{sm:02d}{(sd % 28) + 1:02d}"})  # the header's date differs from the drawn one
    blocks = {
        "tl": [[("Name:", "nonphi"), (f"{last},", "listed"), (first, "listed")], [("DOB:", "nonphi"), (f"{m:02d}.{d:02d}.{y}", "listed")], [("ID:", "nonphi"), (pid, "listed")]],
        "tr": [[(w_, "unlisted") for w_ in _HOSP[index % len(_HOSP)].split()], [(f"{sm:02d}/{sd:02d}/{sy}", "unlisted")], [("Acc:", "nonphi"), (acc, "unlisted")]],
        "bl": [[("PORTABLE", "nonphi"), ("AP", "nonphi")], [("120", "nonphi"), ("kVp", "nonphi"), ("2.5", "nonphi"), ("mAs", "nonphi")]],
        "br": [[("SUPINE", "nonphi")], [("L", "nonphi")]],
    }
    pil = Image.fromarray(img)
    draw = ImageDraw.Draw(pil)
    words = []
    margin = 0 if index % 2 == 0 else int(0.01 * W)  # every other image: text flush with the border
    lh = int(round(cap * 1.7))
    space = draw.textlength(" ", font=font)
    for corner, lines in blocks.items():
        for i, line in enumerate(lines):
            text = " ".join(t for t, _ in line)
            tw = draw.textlength(text, font=font)
            x = margin if corner[1] == "l" else W - margin - tw
            yy = margin + i * lh if corner[0] == "t" else H - margin - (len(lines) - i) * lh
            asc = font.getbbox(text)[1]
            yy -= asc if margin == 0 and corner[0] == "t" and i == 0 else 0  # glyph tops on the border
            # Legible as a scanner draws it: light text on dark ground, dark on light.
            ground = img[max(0, int(yy)) : int(yy + lh), max(0, int(x)) : int(x + tw)]
            fg = 0 if ground.size and float(ground.mean()) > 128 else 255
            if ground.size and float(ground.std()) > 40:  # mixed ground: a backing box, as viewers draw
                bb = font.getbbox(text)
                draw.rectangle((x + bb[0] - 2, yy + bb[1] - 2, x + bb[2] + 2, yy + bb[3] + 2), fill=(255 - fg,) * 3)
            for t, kind in line:
                layer = Image.new("L", (W, H), 0)
                ImageDraw.Draw(layer).text((x, yy), t, fill=255, font=font)
                draw.text((x, yy), t, fill=(fg, fg, fg), font=font)
                words.append((t, kind, np.asarray(layer) > 0))
                x += draw.textlength(t, font=font) + space
    out = np.asarray(pil).copy()
    if index % 3 == 2:  # lossy-compressed, as many archived DICOMs are
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 80])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, manifest, words


def _word_scores(mask: np.ndarray, words) -> dict:
    got = {"listed": [], "unlisted": [], "nonphi": []}
    for _t, kind, ink in words:
        frac = float(mask[ink].mean()) if ink.any() else 0.0
        got[kind].append(frac >= 0.95 if kind != "nonphi" else frac < 0.05)
    return got


def run_native(sizes: list[int], n: int, seed: int) -> dict:
    """Native-resolution speed and quality per engine and size, and the localise + verify pipeline."""
    from clinx.localize import PhiLocalizer

    figures: dict[str, float] = {"native_n_per_size": n}
    engines = {name: get_engine(name) for name in ("rapidocr", "easyocr")}
    for eng in engines.values():  # warm-up
        eng.read(native_sample(0, 512, seed)[0])
    for side in sizes:
        samples = [native_sample(i, side, seed) for i in range(n)]
        masks: dict[str, list] = {}
        for name, eng in engines.items():
            loc = PhiLocalizer(eng)
            walls, cpus, scores = [], [], {"listed": [], "unlisted": [], "nonphi": []}
            masks[name] = []
            for img, manifest, words in samples:
                w0, c0 = time.perf_counter(), time.process_time()
                dets = eng.read(img)
                walls.append(time.perf_counter() - w0)
                cpus.append(time.process_time() - c0)
                from clinx.localize.mask import build_mask

                mask = build_mask(img.shape, loc.match(dets, manifest), loc.dilation, relative_dilation=loc.relative_dilation)
                masks[name].append(mask)
                for k, v in _word_scores(mask, words).items():
                    scores[k].extend(v)
            figures[f"native_cpu_s/{name}/{side}"] = round(float(np.mean(cpus)), 3)
            figures[f"native_wall_s/{name}/{side}"] = round(float(np.mean(walls)), 3)
            figures[f"native_phi_masked/{name}/{side}"] = round(float(np.mean(scores["listed"] + scores["unlisted"])), 4)
            figures[f"native_unlisted_masked/{name}/{side}"] = round(float(np.mean(scores["unlisted"])), 4)
            figures[f"native_nonphi_kept/{name}/{side}"] = round(float(np.mean(scores["nonphi"])), 4)
            print(f"  native {name} {side}px: {figures[f'native_cpu_s/{name}/{side}']} CPU-s, {figures[f'native_wall_s/{name}/{side}']} s wall", flush=True)
        # Localise with RapidOCR, fill, verify with EasyOCR (the independent engine) at native resolution.
        loc_r, loc_e = PhiLocalizer(engines["rapidocr"]), PhiLocalizer(engines["easyocr"])
        cpus, clean = [], []
        for img, manifest, _words in samples:
            c0 = time.process_time()
            res = loc_r.locate(img, manifest)
            out = img.copy()
            out[res.mask] = 0
            residual = loc_e.locate(out, manifest)
            cpus.append(time.process_time() - c0)
            clean.append(not residual.matches)
        figures[f"native_cpu_s/ocr_verify/{side}"] = round(float(np.mean(cpus)), 3)
        figures[f"native_verify_clean/{side}"] = round(float(np.mean(clean)), 4)
        figures[f"images_per_s_est/native_verify_2cores/{side}"] = round(2.0 / max(1e-6, float(np.mean(cpus))), 3)
    return figures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="12 images (EasyOCR on 4)")
    ap.add_argument("--n", type=int, default=None, help="number of benchmark images (default 40, quick 12)")
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", choices=sorted(COMPETITORS), help="run these competitors only")
    ap.add_argument("--native", action=argparse.BooleanOptionalAction, default=True, help="native-resolution section (default on)")
    ap.add_argument("--native-sizes", type=int, nargs="*", default=[512, 2000, 3000])
    ap.add_argument("--native-n", type=int, default=None, help="images per native size (default 6, quick 3)")
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    n = a.n or (12 if a.quick else 40)
    n_easy = 4 if a.quick else 12
    names = a.only if a.only is not None else list(COMPETITORS)
    figures = run(n, n_easy, names, a.size, a.seed) if names else {}
    if a.native:
        figures.update(run_native(a.native_sizes, a.native_n or (3 if a.quick else 6), a.seed))
    figures["cpu_count"] = os.cpu_count()
    figures["load_average_1min"] = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else -1
    figures["machine"] = platform.processor() or platform.machine()
    try:
        figures["git_commit"] = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parent.parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        figures["git_commit"] = "unknown"
    cols = ("ocr_ms", "ocr_cpu_ms", "pixel_recall", "phi_box_recall", "mask_iou", "nonphi_kept", "pipeline_cpu_ms", "images_per_s/ocr_pipeline")
    print(f"\n{'competitor':<20}" + "".join(f"{c.split('/')[0][:14]:>15}" for c in cols))
    for name in names:
        if f"ocr_ms/{name}" not in figures:
            continue
        row = "".join(f"{figures.get(f'{c}/{name}', float('nan')):>15}" for c in cols)
        print(f"{name:<20}{row}")
    if a.native:
        print(f"\n{'native':<12}{'size':>6}{'CPU-s':>9}{'wall-s':>9}{'PHI masked':>12}{'unlisted':>10}{'non-PHI kept':>14}")
        for side in a.native_sizes:
            for eng in ("rapidocr", "easyocr"):
                g = lambda k: figures.get(f"{k}/{eng}/{side}", float("nan"))  # noqa: E731
                print(f"{eng:<12}{side:>6}{g('native_cpu_s'):>9}{g('native_wall_s'):>9}{g('native_phi_masked'):>12}{g('native_unlisted_masked'):>10}{g('native_nonphi_kept'):>14}")
            print(f"{'rapid+easy':<12}{side:>6}{figures[f'native_cpu_s/ocr_verify/{side}']:>9}{'':>9}  verify clean {figures[f'native_verify_clean/{side}']}, "
                  f"est. {figures[f'images_per_s_est/native_verify_2cores/{side}']} img/s on 2 cores")
    print(f"(load average during run: {figures['load_average_1min']} on {figures['cpu_count']} cores)")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(figures, indent=2, sort_keys=True))
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
