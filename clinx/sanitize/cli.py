"""``clinx sanitize`` / ``clinx-sanitize``: sanitize a folder or a benchmark with a condition.

Examples::

    clinx sanitize input_dir=scans/ output_dir=clean/ manifest=dicom
    clinx sanitize input_dir=pngs/ output_dir=clean/ manifest=manifests/ condition=ocr
    clinx sanitize benchmark_dir=data/bench output_dir=clean/ condition=prism verify=false

Writes the sanitized files, ``progress.jsonl``, ``quarantine.jsonl`` and
``summary.json`` into ``output_dir``; the run folder gets the resolved config
and a copy of the summary. Exit code 0 when the run completed (quarantined
items are a normal outcome, listed in the summary), 2 for an unusable setup.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from clinx.cli_common import finish_run, hydra_main
from clinx.config import run_dir
from clinx.errors import ClinxError

log = logging.getLogger("clinx.sanitize")


def build_localizer(engine_name: str, engine_params=None, localize_params=None):
    """An OCR engine + :class:`clinx.localize.PhiLocalizer` from config values."""
    from clinx.localize.localizer import PhiLocalizer
    from clinx.ocr import get_engine

    engine = get_engine(str(engine_name), **dict(engine_params or {}))
    return PhiLocalizer(engine, **dict(localize_params or {}))


def build_localizers(engine_name: str, workers: int, engine_params=None, localize_params=None) -> list:
    """``workers`` localizers, each with its own engine instance, sharing the cores between them.

    With one worker the cached engine instance is used. With several, each
    engine gets ``cores // workers`` threads unless ``threads`` is given.
    """
    from clinx.localize.localizer import PhiLocalizer
    from clinx.ocr import get_engine

    workers = max(1, int(workers))
    if workers == 1:
        return [build_localizer(engine_name, engine_params, localize_params)]
    params = dict(engine_params or {})
    params.setdefault("threads", max(1, (os.cpu_count() or 1) // workers))
    return [PhiLocalizer(get_engine(str(engine_name), cache=False, **params), **dict(localize_params or {})) for _ in range(workers)]


def run(cfg) -> dict:
    """Run the sanitizer described by a composed ``sanitize`` config; returns the summary dict."""
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    from clinx.sanitize.runner import sanitize_folder, sanitize_samples

    if not cfg.output_dir:
        raise ClinxError("output_dir is required (a new folder for the sanitized files)")
    if bool(cfg.input_dir) == bool(cfg.benchmark_dir):
        raise ClinxError("give exactly one of input_dir=... or benchmark_dir=...")
    condition = instantiate(cfg.condition)
    localize = OmegaConf.to_container(cfg.localize, resolve=True) if cfg.localize else {}
    engine_params = OmegaConf.to_container(cfg.ocr.params, resolve=True) if cfg.ocr.params else {}
    workers = int(cfg.get("workers", 1) or 1)
    localizer = build_localizers(cfg.ocr.engine, workers, engine_params, localize)
    verifier = None
    if cfg.verify and cfg.verify_engine and cfg.verify_engine != cfg.ocr.engine:
        verifier = build_localizers(cfg.verify_engine, workers, {}, localize)
    common = dict(
        verify=bool(cfg.verify),
        verifier=verifier,
        batch_size=int(cfg.batch_size),
        seed=int(cfg.seed),
        resume=bool(cfg.resume),
        progress=bool(cfg.progress),
    )
    if cfg.benchmark_dir:
        from clinx.data.benchmark import load_benchmark

        samples = load_benchmark(Path(cfg.benchmark_dir))
        summary = sanitize_samples(samples, cfg.output_dir, condition, localizer, **common)
    else:
        if str(cfg.manifest) == "benchmark":
            raise ClinxError("manifest=benchmark needs benchmark_dir=...; for a folder use manifest=dicom or a JSON path")
        summary = sanitize_folder(
            cfg.input_dir, cfg.output_dir, condition, localizer, cfg.manifest, max_pixels=int(cfg.max_pixels), **common
        )
    out = summary.to_dict()
    out["output_dir"] = str(cfg.output_dir)
    note = f"quarantined items are listed in {Path(cfg.output_dir) / 'quarantine.jsonl'}" if summary.quarantined else None
    return finish_run(out, run_dir(), summary.table(), note)


main = hydra_main("sanitize", run, log)


if __name__ == "__main__":
    raise SystemExit(main())
