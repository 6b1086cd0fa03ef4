"""``clinx eval`` / ``clinx-eval``: run the privacy–utility grid from a Hydra config (``configs/eval.yaml``).

Overrides on the command line, e.g.::

    clinx eval condition=prism text=l2 data=slake data.root=/data/SLAKE
    clinx eval -m condition=raw,ocr,gskip,prism text=l0,l1,l2,l3 hydra/launcher=joblib
    clinx eval vqa=[baseline,openai_vision] models.openai_vision.base_url=http://gpu:8000/v1 models.openai_vision.model=medgemma

The run folder gets the resolved config, every table (Markdown, CSV, one
JSON) and the figures; the console gets the Markdown tables.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any, Mapping

from clinx.config import hydra_app, run_dir, save_resolved
from clinx.records import text_digest

log = logging.getLogger(__name__)


def _plain(node) -> Any:
    from omegaconf import DictConfig, ListConfig, OmegaConf

    if isinstance(node, (DictConfig, ListConfig)):
        return OmegaConf.to_container(node, resolve=True)
    return node


def grid_settings(cfg) -> tuple["GridSettings", dict, dict]:
    """:class:`GridSettings`, per-condition parameters and text parameters from the config.

    ``condition=<name>`` (the sanitizer's condition group) narrows the grid to
    that condition, its config keys becoming the condition's parameters;
    ``text=<level>`` (the text app's level group) narrows it to that level,
    its config keys (strategy, llm, per-level settings) becoming the text
    parameters.
    """
    from .grid import GridSettings

    params = {k: dict(v) for k, v in (_plain(cfg.get("condition_params")) or {}).items()}
    conditions = list(_plain(cfg.conditions))
    selected = _plain(cfg.get("condition"))
    if isinstance(selected, Mapping) and selected.get("name"):
        name = str(selected["name"])
        conditions = [name]
        extra = {k: v for k, v in selected.items() if k not in ("_target_", "name", "_partial_")}
        params[name] = {**extra, **params.get(name, {})}
    text_params = dict(_plain(cfg.get("text_params")) or {})
    levels = [str(l) for l in _plain(cfg.levels)]
    text = _plain(cfg.get("text"))
    if isinstance(text, Mapping) and text.get("level"):
        levels = [str(text["level"])]
        text_params.update({k: v for k, v in text.items() if k not in ("_target_", "level", "_partial_")})
    levels = [l.lower() if l.lower().startswith("l") else f"l{l}" for l in levels]
    s = GridSettings(
        conditions=conditions,
        levels=levels,
        leakage_only=list(_plain(cfg.get("leakage_only")) or []) if not selected else [],
        ablation=bool(cfg.get("ablation", True)),
        leakage=bool(cfg.get("leakage", True)),
        leakage_engines=list(_plain(cfg.get("leakage_engines")) or []),
        batch_size=int(cfg.get("batch_size", 32)),
        seed=int(cfg.get("seed", 0)),
    )
    return s, params, text_params


def load_dataset(node: Mapping, cfg, cache_dir: Path) -> list:
    """Samples of one dataset config (``configs/data/*``), PHI-injected when it is real data.

    The built-in benchmark is saved once under ``cache_dir/benchmarks`` and
    reloaded on reruns (building it renders every overlay again).
    """
    from hydra.utils import instantiate

    from clinx.data.benchmark import inject_sample, is_saved, load_benchmark, save_benchmark

    node = dict(node)
    fmt = str(node.get("fmt", "data"))
    split, n, seed, size = cfg.split, cfg.n, int(cfg.seed), int(cfg.size)
    key = text_digest(json.dumps(node, sort_keys=True, default=str), str(split), str(n), str(seed), str(size), str(cfg.inject))
    folder = cache_dir / "benchmarks" / f"{fmt}-{key[:12]}"
    done = folder / "COMPLETE"
    if done.is_file():
        return load_benchmark(folder)
    loader = instantiate(node)
    if fmt == "builtin":
        samples = list(loader(split=split, limit=n, seed=seed, size=size))
    else:
        raw = list(loader(split=split, limit=n))
        inject = cfg.inject
        if inject == "auto" or inject is True:
            samples = []
            for i, s in enumerate(raw):
                try:
                    samples.append(inject_sample(s, str(split or "test"), i, seed, size))
                except Exception as exc:
                    log.warning("item %s left out: %s", s.id, type(exc).__name__)
        else:
            samples = raw
    save_benchmark(samples, folder)
    done.write_text(str(len(samples)))
    return samples


def build_parts(cfg, text_params: Mapping):
    """Models, judges, masker and text function from the config (nothing runs yet)."""
    from hydra.utils import instantiate

    from .grid import OCRMasker, TrueMasker, default_text_fn

    # A node without _target_ is a setting for a model / judge that is not selected (e.g. the
    # paper_grid experiment sets paths for all four VLMs and a sweep selects one): skip it.
    models = {name: instantiate(node) for name, node in (cfg.get("models") or {}).items() if "_target_" in node}
    judges = {name: instantiate(node) for name, node in (cfg.get("judges") or {}).items() if "_target_" in node}
    if str(cfg.mask.source) == "true":
        masker = TrueMasker()
    else:
        loc = {k: v for k, v in (_plain(cfg.mask.get("localizer")) or {}).items() if k not in ("_target_",)}
        masker = OCRMasker(**loc)
    # The text cache key covers every setting that can change a sanitized question.
    text_id = text_digest(json.dumps(text_params, sort_keys=True, default=str))
    return models, judges, masker, default_text_fn(**text_params), text_id


def run_from_config(cfg, out_dir: str | Path | None = None):
    """Run the grid described by ``cfg`` and write the report into ``out_dir`` (the run folder).

    Returns ``(results.json document, GridResult)``.
    """
    from .grid import GridRunner
    from .report import write_report

    t0 = time.perf_counter()
    out = Path(out_dir or run_dir())
    save_resolved(cfg, out)
    settings, cond_params, text_params = grid_settings(cfg)
    cache = Path(str(cfg.cache_dir))
    nodes = _plain(cfg.get("datasets")) or {}
    if not nodes:
        data = _plain(cfg.data)
        nodes = {str(data.get("fmt", "data")): data}
    datasets = {}
    for name, node in nodes.items():
        t = time.perf_counter()
        datasets[name] = load_dataset(node, cfg, cache)
        log.info("dataset %s: %d items (%.1f s)", name, len(datasets[name]), time.perf_counter() - t)
    models, judges, masker, text_fn, text_id = build_parts(cfg, text_params)
    runner = GridRunner(settings, cache, condition_params=cond_params, text_fn=text_fn, text_id=text_id,
                        masker=masker, progress=bool(cfg.get("progress", True)))
    result = runner.run(datasets, models, judges)
    result.timings["wall_s"] = time.perf_counter() - t0
    for name, j in judges.items():
        result.counts[f"judge_unparsed/{name}"] = getattr(j, "unparsed", 0)
    doc = write_report(result, out, figures=bool(cfg.report.get("figures", True)))
    for m in models.values():
        close = getattr(m, "close", None)
        if close:
            close()
    return doc, result


@hydra_app("eval")
def _app(cfg) -> None:
    from .report import render_markdown

    doc, result = run_from_config(cfg)
    if cfg.report.get("print", True):
        print(render_markdown(result))
        print(f"report: {run_dir()}  (wall {doc['timings'].get('wall_s', 0):.1f} s)")


def main() -> None:
    """Console entry point ``clinx-eval``."""
    _app()


if __name__ == "__main__":
    main()
