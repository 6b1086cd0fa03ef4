"""``clinx leakage`` / ``clinx-leakage``: OCR attack on released images, leakage table.

Example::

    clinx sanitize benchmark_dir=data/bench output_dir=out/ocr condition=ocr
    clinx leakage images_dir=out/ocr benchmark_dir=data/bench engines=[rapidocr,easyocr]

Released images are looked up as ``<images_dir>/<sample id>.png``; samples
without one (quarantined, never released) are counted as missing. Writes
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
    samples = load_benchmark(Path(cfg.benchmark_dir))
    if cfg.limit:
        samples = samples[: int(cfg.limit)]
    outputs = released_images(images_dir, samples)
    params = OmegaConf.to_container(cfg.engine_params, resolve=True) if cfg.engine_params else {}
    engines = {str(n): get_engine(str(n), **dict(params.get(str(n), {}))) for n in cfg.engines}
    label = str(cfg.label or images_dir.name)
    prog = (lambda it: tqdm(it, desc="leakage", leave=False)) if cfg.progress else None
    results = {label: evaluate_leakage(outputs, samples, engines, cache=ReadCache(), progress=prog)}
    md = write_tables(results, run_dir())
    print(md)
    return results


main = hydra_main("leakage", run, log)


if __name__ == "__main__":
    raise SystemExit(main())
