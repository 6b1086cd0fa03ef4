#!/usr/bin/env python3
"""OCR leakage benchmark on the native-resolution held-out split, custodian manifests.

    python scripts/bench_leakage.py --quick --out bench_leakage_quick.json   # 40 images
    python scripts/bench_leakage.py --out benchmarks/results/bench_leakage.json  # 200 images

1. Builds the native split (:mod:`clinx.data.native`): held-out real scans at
   their own size and 1,024-3,072 px phantoms, scanner-sized overlays,
   header-style manifests that never hold the drawn strings, and in about half
   the images an identifier the manifest does not list. No base scan is shared
   with any training data (checked before anything runs).
2. Sanitizes it with each condition (``raw``; ``ocr`` — black fill, called
   ``blackout`` by newer sanitizers, both names accepted; ``prism``) through
   clinx's own fail-closed sanitizer: masks from ``--mask-engine``, and for
   every condition but ``raw`` verification by ``--verifier`` (default: the
   other engine). Quarantined items are counted, never dropped.
3. Attacks every released image with every attacker at native scale (the
   image is never shrunk: what RapidOCR's library defaults do on any image
   whose short side is >= 736 px). ``--attack-scope regions`` (default) reads
   native-scale crops around every drawn text, PHI and non-PHI, with context
   (:func:`clinx.metrics.leakage.attack_regions`) — the same pixels at the same
   scale, affordable with EasyOCR on 3,000² scans on 2 cores; ``full`` reads
   whole images. Scores what was drawn: ``token_recall`` (all drawn
   identifiers), ``token_recall_listed`` / ``token_recall_unlisted`` (absent
   from the manifest), each with a cluster-bootstrap standard error;
   ``char_overlap`` (the longest run of each drawn value's characters one
   detection reads at its place: partial reads); ``released_fraction``;
   ``nonphi_survival``. Every figure names its
   attacker; ``_meta.attackers`` says whether that attacker built the masks,
   verified them, or is independent of both, and ``_meta.headline`` lists the
   figures whose attacker did not build the masks.
   ``--checkpoint-dir checkpoints/phi`` runs the restored conditions with
   other generators (the PHI-fed ``restore.input=phi`` ones) under the names
   ``<condition>_phi``: the paper's skip-connection leakage experiment;
   ``--verifier off`` attacks every output, not only what verification released.
4. Speed: ``images_per_s/native/ocr`` (verification on, the run above),
   ``images_per_s/native/ocr_noverify`` (a subset, verification off) and
   ``images_per_s/512/ocr`` (built-in 512² test images, two OCR workers).

Attacker reads are cached on disk (``--cache-dir``) keyed by image digest and
engine settings, so a rerun re-reads only changed outputs. The old 512²
built-in benchmark is still reachable through :func:`attack_conditions`
(``scripts/bench_restore.py`` uses it).
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

import numpy as np

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
    """``{name: OCREngine}`` for the engines that load; a note for the others.

    ``tesseract`` is an attacker only (:class:`clinx.metrics.attackers.TesseractAttacker`), independent of
    both engines clinx sanitizes with.
    """
    from clinx.ocr import get_engine

    out = {}
    for n in names:
        try:
            t = time.perf_counter()
            if n == "tesseract":
                from clinx.metrics.attackers import TesseractAttacker

                out[n] = TesseractAttacker(**dict((params or {}).get(n, {})))
            else:
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


#: Attacker settings: each engine reads at native scale — never shrinking the image — which is what
#: RapidOCR's library defaults (limit 736 on the *short* side) do on any image whose short side is >= 736.
ATTACKER_PARAMS = {"rapidocr": {"limit_type": "max", "limit_side_len": 4096},
                   "easyocr": {"canvas_size": 4096, "mag_ratio": 1.0},
                   # Tesseract reads best at 20-40 px text: the attacker doubles the crop (see TesseractAttacker).
                   "tesseract": {"scale": 2.0, "psm": 11}}
#: The black-fill condition was renamed ``blackout``; either name is accepted.
CONDITION_ALIASES = {"ocr": ("ocr", "blackout"), "blackout": ("blackout", "ocr")}

def _le(v, x) -> bool:
    return v is not None and v <= x


def _ge(v, x) -> bool:
    return v is not None and v >= x


#: Issue 8's targets; a figure that could not be measured (None) misses. ``h``: the headline keys per condition.
NATIVE_TARGETS = {
    "raw token recall >= 0.5 (attackers other than the mask engine)": lambda f, h: bool(h.get("raw")) and all(
        _ge(f.get(k), 0.5) for k in h["raw"]),
    "ocr token recall <= 0.005": lambda f, h: bool(h.get("ocr")) and all(_le(f.get(k), 0.005) for k in h["ocr"]),
    "prism token recall <= 0.005": lambda f, h: bool(h.get("prism")) and all(_le(f.get(k), 0.005) for k in h["prism"]),
    "ocr/prism unlisted token recall <= 0.01": lambda f, h: all(
        _le(f.get(k.replace("token_recall/", "token_recall_unlisted/")), 0.01) for c in ("ocr", "prism") for k in h.get(c, [])),
    "released fraction >= 0.95 (ocr, prism)": lambda f, h: all(_ge(f.get(f"released_fraction/{c}"), 0.95) for c in ("ocr", "prism")),
    "non-PHI survival >= 0.95 (ocr, prism)": lambda f, h: all(_ge(f.get(f"nonphi_survival/{c}"), 0.95) for c in ("ocr", "prism")),
    "native ocr >= 0.5 images/s with verification": lambda f, h: _ge(f.get("images_per_s/native/ocr"), 0.5),
    "512 ocr >= 4 images/s (2 workers)": lambda f, h: _ge(f.get("images_per_s/512/ocr"), 4.0),
}


def build_condition_any(name: str, checkpoint_dir: Path | None = None):
    """The condition under ``name`` or its alias (``ocr`` / ``blackout``); ``None`` with a note if none builds.

    With ``checkpoint_dir``, a restored condition loads ``<dir>/<arch>/generator.pt``
    (e.g. ``checkpoints/phi``: generators that see the PHI pixels) instead of the shipped one.
    """
    from clinx.sanitize.conditions import RESTORING_CONDITIONS, get_condition

    kw = {"checkpoint_dir": checkpoint_dir} if checkpoint_dir is not None and name in RESTORING_CONDITIONS else {}
    for n in CONDITION_ALIASES.get(name, (name,)):
        try:
            return get_condition(n, **kw)
        except Exception as exc:  # noqa: BLE001 — reported, the run goes on
            last = exc
    log(f"NOTE: condition {name} skipped ({type(last).__name__}: {last})")
    return None


def _sanitizer_entry():
    """clinx's one sanitization path for in-memory samples (the runner; it uses the shared core when present)."""
    from clinx.sanitize.runner import sanitize_samples

    return sanitize_samples


def _verifier_for(mask_engine: str, verifier: str, params: dict):
    """``(verify, verifier, engine name)``: ``auto`` leaves the choice to the sanitizer (its default: the
    localizer's settings on the other OCR engine), a name builds that engine, ``off`` disables verification."""
    if verifier == "off":
        return False, None, "off"
    if verifier == "auto":
        try:
            from clinx.sanitize.core import independent_engine_name

            name = independent_engine_name(mask_engine)
        except ImportError:  # an older sanitizer: verify with the other engine explicitly
            name = "easyocr" if mask_engine == "rapidocr" else "rapidocr"
            from clinx.sanitize.cli import build_localizer

            return True, build_localizer(name, params.get(name, {})), name
        return True, None, name
    from clinx.sanitize.cli import build_localizer

    return True, build_localizer(verifier, params.get(verifier, {})), verifier


def sanitize_native(samples, cond, localizer, verify: bool, verifier, out_dir: Path, progress: bool):
    """Run one condition over in-memory samples with clinx's sanitizer; ``(outputs {id: path}, summary dict)``."""
    shutil.rmtree(out_dir, ignore_errors=True)
    summary = _sanitizer_entry()(samples, out_dir, cond, localizer, verify=verify, verifier=verifier,
                                 resume=False, progress=progress)
    return {k: Path(v) for k, v in summary.outputs.items()}, summary.to_dict()


def machine_info() -> dict:
    """Commit, machine and load: what a reader needs to judge a timing."""
    import subprocess

    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).resolve().parent.parent, timeout=10).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                                    text=True, cwd=Path(__file__).resolve().parent.parent, timeout=10).stdout.strip())
    except Exception:  # noqa: BLE001
        commit, dirty = "unknown", None
    return {"git_commit": commit, "git_dirty": dirty, "machine": platform.node(), "platform": platform.platform(),
            "cpu_count": os.cpu_count(), "python": platform.python_version(),
            "loadavg": [round(x, 2) for x in os.getloadavg()]}


def native_figures(results: dict, roles: dict, mask_engine: str) -> tuple[dict, dict]:
    """Flat figures from ``{condition: {"leakage": evaluate_release(...), "summary": ...}}`` and the headline keys."""
    f: dict[str, float] = {}
    headline: dict[str, list[str]] = {}
    for cname, r in results.items():
        for ename, res in r["leakage"].items():
            for kind in ("token_recall", "token_recall_listed", "token_recall_unlisted"):
                fig = res[kind]
                f[f"{kind}/{cname}/{ename}"] = fig["recall"]
                f[f"{kind}_se/{cname}/{ename}"] = fig["se"]
                f[f"{kind}_upper95/{cname}/{ename}"] = fig["upper95"]
                f[f"{kind}_tokens/{cname}/{ename}"] = fig["tokens"]
            if "char_overlap" in res:
                f[f"char_overlap/{cname}/{ename}"] = res["char_overlap"]["recall"]
                f[f"char_overlap_se/{cname}/{ename}"] = res["char_overlap"]["se"]
            f[f"nonphi_survival/{cname}/{ename}"] = res["nonphi"]["image_rate"]
            if ename != mask_engine:
                headline.setdefault(cname, []).append(f"token_recall/{cname}/{ename}")
        any_res = next(iter(r["leakage"].values()))
        f[f"released_fraction/{cname}"] = any_res["released_fraction"]
        f[f"n_quarantined/{cname}"] = any_res["n_quarantined"]
        f[f"n_released/{cname}"] = any_res["n_released"]
        # Non-PHI survival is read by an attacker that did not build the masks when there is one.
        reader = next((e for e in r["leakage"] if e != mask_engine), next(iter(r["leakage"])))
        f[f"nonphi_survival/{cname}"] = r["leakage"][reader]["nonphi"]["image_rate"]
        # Which non-PHI text is lost: image rate per kind (label, marker, position, technique, scale) and text rate.
        f[f"nonphi_survival_text/{cname}"] = r["leakage"][reader]["nonphi"]["text_rate"]
        for kind, agg in r["leakage"][reader].get("nonphi_by_kind", {}).items():
            f[f"nonphi_survival_kind/{cname}/{kind}"] = agg["image_rate"]
    clean = {k: (round(v, 5) if isinstance(v, float) and v == v else (v if not isinstance(v, float) else None))
             for k, v in f.items()}
    return clean, headline


def native_table(figures: dict, results: dict, roles: dict) -> str:
    def num(k, d=4):
        v = figures.get(k)
        return "—" if v is None else f"{v:.{d}f}"

    lines = ["| condition | attacker (role) | token recall ± SE | listed | unlisted ± SE | char overlap ± SE | released | "
             "quarantined | non-PHI survival |",
             "|---|---|---|---|---|---|---|---|---|"]
    for c, r in results.items():
        for e in r["leakage"]:
            lines.append(
                f"| {c} | {e} ({roles.get(e, '?')}) | {num(f'token_recall/{c}/{e}')} ± {num(f'token_recall_se/{c}/{e}')} | "
                f"{num(f'token_recall_listed/{c}/{e}')} | {num(f'token_recall_unlisted/{c}/{e}')} ± "
                f"{num(f'token_recall_unlisted_se/{c}/{e}')} | {num(f'char_overlap/{c}/{e}')} ± "
                f"{num(f'char_overlap_se/{c}/{e}')} | {num(f'released_fraction/{c}', 3)} | "
                f"{figures.get(f'n_quarantined/{c}')} | {num(f'nonphi_survival/{c}/{e}', 3)} |")
    for k in ("images_per_s/native/ocr", "images_per_s/native/ocr_noverify", "images_per_s/512/ocr"):
        lines.append(f"\n{k}: {num(k, 3)}" if k == "images_per_s/native/ocr" else f"{k}: {num(k, 3)}")
    table = "\n".join(lines)
    log(table)
    return table


def speed_512(n: int, mask_engine: str, workers: int, work: Path, progress: bool) -> float:
    """images/s of the ``ocr`` condition on ``n`` built-in 512² test images with ``workers`` OCR instances."""
    from clinx.data.benchmark import build_benchmark
    from clinx.sanitize.cli import build_localizers

    samples = build_benchmark("test", n, 0, 512)
    cond = build_condition_any("ocr")
    locs = build_localizers(mask_engine, workers)
    _, summary = sanitize_native(samples, cond, locs, False, None, work / "speed512", progress)
    return summary["images_per_s"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="40 images (default 200)")
    ap.add_argument("--n", type=int, default=None, help="number of native images (overrides --quick)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--phantom-share", type=float, default=0.5)
    ap.add_argument("--attackers", default="rapidocr,easyocr,tesseract",
                    help="tesseract (independent of clinx's engines) is skipped with a note when not installed")
    ap.add_argument("--attacker-params", default=None, help="JSON {engine: {param: value}} replacing ATTACKER_PARAMS")
    ap.add_argument("--conditions", default="raw,ocr,prism")
    ap.add_argument("--checkpoint-dir", type=Path, default=None,
                    help="folder with prism/ and gskip/ generators for the restored conditions (default: shipped); "
                         "their figures are named <condition>_<tag>")
    ap.add_argument("--tag", default=None, help="suffix for restored conditions run from --checkpoint-dir "
                                                "(default: the folder's name, e.g. phi -> prism_phi)")
    ap.add_argument("--attack-scope", default="regions", choices=("regions", "full"),
                    help="regions: native-scale crops around every drawn text (default, affordable on 2 cores); "
                         "full: whole images at native scale")
    ap.add_argument("--mask-engine", default="rapidocr")
    ap.add_argument("--mask-params", default=None, help="JSON params for the mask engine (default: clinx's defaults)")
    ap.add_argument("--verifier", default="auto", help="auto (the other engine) | rapidocr | easyocr | off")
    ap.add_argument("--speed-n", type=int, default=None, help="images for the no-verification timing (default: min(n, 10))")
    ap.add_argument("--speed512-n", type=int, default=24, help="512² images for the 2-worker timing (0: skip)")
    ap.add_argument("--work-dir", default=None, help="keep outputs here (default: a temp folder)")
    ap.add_argument("--cache-dir", default=".cache/clinx/bench_leakage_reads", help="on-disk attacker read cache ('' = none)")
    ap.add_argument("--no-progress", action="store_true")
    ap.add_argument("--out", required=True, help="figures JSON")
    args = ap.parse_args(argv)

    from clinx.data.native import build_native, is_held_out
    from clinx.data.images import load_image
    from clinx.metrics.leakage import ReadCache, aggregate_survival, evaluate_release, nonphi_ink_kept
    from clinx.sanitize.cli import build_localizer

    n = args.n or (40 if args.quick else 200)
    progress = not args.no_progress
    t_all = time.perf_counter()
    info = machine_info()
    tmp = None
    if args.work_dir:
        work = Path(args.work_dir)
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="clinx-bench-leakage-")
        work = Path(tmp.name)
    try:
        t = time.perf_counter()
        items = build_native(n, args.seed, args.phantom_share)
        samples = [it.sample for it in items]
        drawn = {it.id: it.drawn for it in items}
        shared = sorted({s.provenance["base_id"] for s in samples if not is_held_out(s.provenance["base_id"])})
        if shared:
            log(f"refusing to run: {len(shared)} base scans are shared with training data: {shared}")
            return 2
        n_unlisted = sum(any(not d.listed for d in it.drawn) for it in items)
        sides = [max(s.image.shape[:2]) for s in samples]
        log(f"native split: {n} images (sides {min(sides)}-{max(sides)} px, {n_unlisted} with an unlisted identifier, "
            f"{len({s.provenance['base_id'] for s in samples})} base scans, none seen in training) "
            f"built in {time.perf_counter() - t:.1f}s")

        aparams = json.loads(args.attacker_params) if args.attacker_params else ATTACKER_PARAMS
        attackers = load_engines([e for e in args.attackers.split(",") if e], aparams)
        mparams = json.loads(args.mask_params) if args.mask_params else {}
        localizer = build_localizer(args.mask_engine, mparams)
        verify, verifier, vname = _verifier_for(args.mask_engine, args.verifier, {})
        roles = {e: ("mask engine" if e == args.mask_engine else "verifier" if e == vname else "independent")
                 for e in attackers}
        log(f"masks: {args.mask_engine}; verifier: {vname}; attackers: {roles}")

        fps = {e: json.dumps({"engine": e, "params": aparams.get(e, {})}, sort_keys=True) for e in attackers}
        cache = ReadCache(args.cache_dir or None, fps)
        results: dict[str, dict] = {}
        figures_extra: dict[str, float] = {}
        from clinx.sanitize.conditions import RESTORING_CONDITIONS

        tag = (args.tag or args.checkpoint_dir.name) if args.checkpoint_dir is not None else None
        for base_name in [c for c in args.conditions.split(",") if c]:
            cond = build_condition_any(base_name, args.checkpoint_dir)
            if cond is None:
                continue
            cname = f"{base_name}_{tag}" if tag and base_name in RESTORING_CONDITIONS else base_name
            # raw releases its input unchanged: verifying it would only quarantine everything.
            outputs, summary = sanitize_native(samples, cond, localizer, verify and cname != "raw", verifier,
                                               work / "out" / cname, progress)
            log(f"sanitize[{cname}]: {summary['sanitized']} released, {summary['quarantined']} quarantined "
                f"{summary.get('quarantined_by_stage', {})}, {summary['images_per_s']:.3f} images/s")
            if cname in ("ocr", "blackout"):
                figures_extra["images_per_s/native/ocr"] = summary["images_per_s"]
            t = time.perf_counter()
            leak = evaluate_release(outputs, samples, drawn, attackers, cache=cache, scope=args.attack_scope)
            log(f"attack[{cname}]: {time.perf_counter() - t:.1f}s")
            results[cname] = {"summary": summary, "leakage": leak}
            # attacker-free: did the release leave the non-PHI text's pixels alone?
            ink = [nonphi_ink_kept([b["box"] for b in s.provenance.get("nonphi_boxes") or ()], s.image,
                                   load_image(outputs[s.id]))
                   for s in samples if s.id in outputs]
            agg = aggregate_survival(ink)
            figures_extra[f"nonphi_ink_kept/{cname}"] = agg["image_rate"]
            figures_extra[f"nonphi_ink_kept_boxes/{cname}"] = agg["text_rate"]

        speed_n = args.speed_n if args.speed_n is not None else min(n, 10)
        if speed_n:
            cond = build_condition_any("ocr")
            _, summary = sanitize_native(samples[:speed_n], cond, localizer, False, None, work / "out" / "ocr_noverify",
                                         progress)
            figures_extra["images_per_s/native/ocr_noverify"] = summary["images_per_s"]
        if args.speed512_n:
            figures_extra["images_per_s/512/ocr"] = speed_512(args.speed512_n, args.mask_engine, 2, work, progress)

        figures, headline = native_figures(results, roles, args.mask_engine)
        figures.update({k: round(v, 4) for k, v in figures_extra.items()})
        table = native_table(figures, results, roles)
        checks = {name: bool(fn(figures, headline)) for name, fn in NATIVE_TARGETS.items()}
        for name, ok in checks.items():
            log(f"{'PASS' if ok else 'MISS'}  {name}")
        wall = time.perf_counter() - t_all
        log(f"total wall time {wall:.1f}s; attacker OCR calls {cache.calls}")
        payload = {
            **figures,
            "n_images": n,
            "_meta": {
                **info,
                "loadavg_end": [round(x, 2) for x in os.getloadavg()],
                "split": "native", "seed": args.seed, "phantom_share": args.phantom_share,
                "images_with_unlisted_identifier": n_unlisted,
                "base_scans": sorted({s.provenance["base_id"] for s in samples if not s.provenance["base_id"].startswith("phantom:")}),
                "phantoms": sum(s.provenance["base_id"].startswith("phantom:") for s in samples),
                "image_sides_px": [min(sides), int(np.median(sides)), max(sides)],
                "mask_engine": args.mask_engine, "mask_params": mparams, "verifier": vname,
                "attackers": {e: {"role": roles[e], "params": aparams.get(e, {})} for e in attackers},
                "attack_scope": args.attack_scope,
                "headline": headline,
                "conditions": list(results),
                "checkpoint_dir": str(args.checkpoint_dir) if args.checkpoint_dir else None,
                "speed_noverify_n": speed_n, "speed512_n": args.speed512_n,
                "speed_notes": {
                    "images_per_s/native/ocr": "the ocr run above: all n images, masks + verification by the other engine",
                    "images_per_s/native/ocr_noverify": "first speed_noverify_n images, masks only",
                    "images_per_s/512/ocr": "built-in 512² test images, 2 single-threaded mask-engine workers, no verification",
                },
                "wall_s": round(wall, 1), "targets": checks,
                "se": "cluster bootstrap over images (1000 resamples); upper95 = rule of three when nothing was read",
            },
            "_details": {"conditions": results, "table_md": table},
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
