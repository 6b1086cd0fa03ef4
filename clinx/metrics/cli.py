"""``clinx leakage`` / ``clinx-leakage``: OCR attack on released images, leakage table.

Example::

    clinx sanitize benchmark_dir=data/bench output_dir=out/ocr condition=ocr
    clinx leakage images_dir=out/ocr benchmark_dir=data/bench engines=[rapidocr,easyocr]

Released images are looked up as ``<images_dir>/<sample id>.png``; samples
without one (quarantined, never released) are counted as missing — the table
gives the released fraction beside every recall. On a native-split benchmark
(``clinx build split=native``: it has ``drawn/``) the figures are the drawn-
identifier recalls of :func:`clinx.metrics.leakage.evaluate_release`: all,
listed and unlisted (absent from the manifest), each with a bootstrap standard
error, read with ``scope`` (``regions`` or ``full``). Writes
``leakage.md``, ``leakage.csv`` and ``leakage.json`` into the run folder and
prints the Markdown table. The table names fields and counts, never values.
"""

from __future__ import annotations

import csv
import json
import logging
from pathlib import Path

from clinx.cli_common import hydra_main
from clinx.config import run_dir
from clinx.errors import ClinxError

log = logging.getLogger("clinx.leakage")

TABLE_COLUMNS = (
    "condition",
    "engine",
    "field",
    "token_recall",
    "token_recall_macro",
    "char_overlap",
    "char_overlap_macro",
    "nonphi_image_rate",
    "n_images",
    "n_missing",
)


def write_tables(results: dict, folder: Path, stem: str = "leakage") -> str:
    """Write ``{condition: evaluate_leakage(...)}`` as Markdown, CSV and JSON; returns the Markdown."""
    from clinx.metrics.leakage import leakage_rows, markdown_table

    folder.mkdir(parents=True, exist_ok=True)
    rows = leakage_rows(results)
    md = markdown_table(rows, TABLE_COLUMNS)
    (folder / f"{stem}.md").write_text(md + "\n")
    with open(folder / f"{stem}.csv", "w", newline="") as fp:
        w = csv.DictWriter(fp, fieldnames=list(TABLE_COLUMNS))
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k) for k in TABLE_COLUMNS})
    (folder / f"{stem}.json").write_text(json.dumps(results, indent=2, default=float))
    return md


NATIVE_COLUMNS = ("condition", "engine", "token_recall", "token_recall_se", "token_recall_listed",
                  "token_recall_unlisted", "token_recall_unlisted_se", "released_fraction", "n_quarantined",
                  "nonphi_image_rate", "n_items")


def native_rows(results: dict) -> list[dict]:
    """Rows of ``{condition: evaluate_release(...)}`` (one per condition and engine)."""
    rows = []
    for cond, per_engine in results.items():
        for ename, r in per_engine.items():
            rows.append({
                "condition": cond, "engine": ename,
                "token_recall": r["token_recall"]["recall"], "token_recall_se": r["token_recall"]["se"],
                "token_recall_listed": r["token_recall_listed"]["recall"],
                "token_recall_unlisted": r["token_recall_unlisted"]["recall"],
                "token_recall_unlisted_se": r["token_recall_unlisted"]["se"],
                "released_fraction": r["released_fraction"], "n_quarantined": r["n_quarantined"],
                "nonphi_image_rate": r["nonphi"]["image_rate"], "n_items": r["n_items"],
            })
    return rows


def released_images(images_dir: Path, samples) -> dict[str, Path]:
    """``sample id -> <images_dir>/<id>.png`` for the ids that were released."""
    out = {}
    for s in samples:
        p = images_dir / f"{s.id}.png"
        if p.is_file():
            out[s.id] = p
    return out


def run(cfg) -> dict:
    """Run the leakage attack described by a composed ``leakage`` config."""
    from omegaconf import OmegaConf
    from tqdm.auto import tqdm

    from clinx.data.benchmark import load_benchmark
    from clinx.metrics.leakage import ReadCache, evaluate_leakage
    from clinx.ocr import get_engine

    if not cfg.images_dir or not cfg.benchmark_dir:
        raise ClinxError("images_dir=... and benchmark_dir=... are both required")
    images_dir = Path(cfg.images_dir)
    if not images_dir.is_dir():
        raise ClinxError("images_dir does not exist or is not a folder")
    bench = Path(cfg.benchmark_dir)
    samples = load_benchmark(bench)
    if cfg.limit:
        samples = samples[: int(cfg.limit)]
    outputs = released_images(images_dir, samples)
    params = OmegaConf.to_container(cfg.engine_params, resolve=True) if cfg.engine_params else {}
    engines = {}
    for n in cfg.engines:
        if str(n) == "tesseract":  # an attacker only, independent of clinx's engines
            from clinx.metrics.attackers import TesseractAttacker

            engines["tesseract"] = TesseractAttacker(**dict(params.get("tesseract", {})))
        else:
            engines[str(n)] = get_engine(str(n), **dict(params.get(str(n), {})))
    label = str(cfg.label or images_dir.name)
    prog = (lambda it: tqdm(it, desc="leakage", leave=False)) if cfg.progress else None
    if (bench / "drawn").is_dir():
        from clinx.data.native import load_drawn
        from clinx.metrics.leakage import evaluate_release, markdown_table

        drawn = {s.id: load_drawn(bench, s.id) for s in samples}
        results = {label: evaluate_release(outputs, samples, drawn, engines, cache=ReadCache(), progress=prog,
                                           scope=str(cfg.get("scope", "regions")))}
        md = markdown_table(native_rows(results), NATIVE_COLUMNS)
        folder = run_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "leakage.md").write_text(md + "\n")
        (folder / "leakage.json").write_text(json.dumps(results, indent=2, default=float))
        print(md)
        return results
    results = {label: evaluate_leakage(outputs, samples, engines, cache=ReadCache(), progress=prog)}
    md = write_tables(results, run_dir())
    n = len(samples)
    print(md)
    print(f"released {len(outputs)} of {n} items ({len(outputs) / n if n else float('nan'):.3f}); "
          f"{n - len(outputs)} quarantined or missing: recalls are over released items only")
    return results


main = hydra_main("leakage", run, log)


if __name__ == "__main__":
    raise SystemExit(main())
