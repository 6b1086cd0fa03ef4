"""``clinx eval`` / ``clinx-eval``: run the privacy–utility grid from a Hydra config (``configs/eval.yaml``).

Overrides on the command line, e.g.::

    clinx eval condition=prism text=l2 data=slake data.root=/data/SLAKE
    clinx eval -m condition=raw,ocr,gskip,prism text=l0,l1,l2,l3 hydra/launcher=joblib
    clinx eval vqa=[baseline,openai_vision] models.openai_vision.base_url=http://gpu:8000/v1 models.openai_vision.model=medgemma

The run folder gets the resolved config, every table (Markdown, CSV, one
JSON) and the figures; the console gets the Markdown tables.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from omegaconf import OmegaConf

from clinx.cli_common import hydra_main
from clinx.config import run_dir, save_resolved
from clinx.records import text_digest

if TYPE_CHECKING:
    from .grid import GridSettings

log = logging.getLogger(__name__)


def _plain(node) -> Any:
    from omegaconf import DictConfig, ListConfig, OmegaConf

    if isinstance(node, (DictConfig, ListConfig)):
        return OmegaConf.to_container(node, resolve=True)
    return node


def grid_settings(cfg) -> "GridSettings":
    """:class:`GridSettings` from the config.

    ``condition=<name>`` (the sanitizer's condition group) narrows the grid to
    that condition and ``text=<level>`` (the text app's level group) to that
    level; the nodes themselves are instantiated by :func:`build_parts`.
    """
    from .grid import GridSettings

    selected = cfg.get("condition")
    conditions = [str(selected.name)] if selected is not None and selected.get("name") else list(_plain(cfg.conditions))
    text = cfg.get("text")
    levels = [str(text.level)] if text is not None and text.get("level") else [str(l) for l in _plain(cfg.levels)]
    levels = [l.lower() if l.lower().startswith("l") else f"l{l}" for l in levels]
    return GridSettings(
        conditions=conditions,
        levels=levels,
        leakage_only=list(_plain(cfg.get("leakage_only")) or []) if selected is None else [],
        ablation=bool(cfg.get("ablation", True)),
        leakage=bool(cfg.get("leakage", True)),
        leakage_engines=list((cfg.get("attack") or {}).keys()),
        batch_size=int(cfg.get("batch_size", 32)),
        seed=int(cfg.get("seed", 0)),
    )


def load_dataset(node: Mapping, cfg, cache_dir: Path) -> list:
    """Samples of one dataset config (``configs/data/*``), PHI-injected when it is real data.

    The built-in benchmark is saved once under ``cache_dir/benchmarks`` and
    reloaded on reruns (building it renders every overlay again).
    """
    from hydra.utils import instantiate

    from clinx.data.benchmark import inject_sample, load_benchmark, save_benchmark

    node = dict(node)
    fmt = str(node.get("fmt", "data"))
    split, n, seed, size = cfg.split, cfg.n, int(cfg.seed), int(cfg.size)
    key = text_digest(json.dumps(node, sort_keys=True, default=str), str(split), str(n), str(seed), str(size), str(cfg.inject))
    folder = cache_dir / "benchmarks" / f"{fmt}-{key[:12]}"
    done = folder / "COMPLETE"
    if done.is_file():
        return load_benchmark(folder)
    loader = instantiate(node)
    inject = cfg.inject
    preset = "paper_b1" if inject == "paper_b1" else "clinx"
    if fmt == "builtin" and preset == "clinx":
        samples = list(loader(split=split, limit=n, seed=seed, size=size))
    else:
        if fmt == "builtin":  # the paper's overlay on the built-in bases: start again from the clean image
            raw = [dataclasses.replace(s, image=s.clean_image, question=s.clean_question or s.question, manifest=None)
                   for s in loader(split=split, limit=n, seed=seed, size=size)]
        else:
            raw = list(loader(split=split, limit=n))
        if inject in ("auto", "paper_b1") or inject is True:
            samples = []
            for i, s in enumerate(raw):
                try:
                    samples.append(inject_sample(s, str(split or "test"), i, seed, size, preset=preset))
                except Exception as exc:
                    log.warning("item %s left out: %s", s.id, type(exc).__name__)
        else:
            samples = raw
    save_benchmark(samples, folder)
    done.write_text(str(len(samples)))
    return samples


@dataclass
class Parts:
    """Everything the grid runs with, instantiated from the config (nothing has run yet)."""

    models: dict
    judges: dict
    masker: object
    text: object
    conditions: Callable[[str], object]
    attackers: dict = field(default_factory=dict)
    verifier: object | None = None


def _condition_factory(cfg) -> Callable[[str], object]:
    """``name -> condition``: the selected ``condition`` node, else ``get_condition`` with ``condition_params[name]``."""
    from hydra.utils import instantiate

    selected = cfg.get("condition")
    params = cfg.get("condition_params") or {}

    def build(name: str):
        if selected is not None and str(selected.get("name")) == name:
            node = selected
            if name in params:
                node = OmegaConf.merge(selected, params[name])
            return instantiate(node, _convert_="all")
        node = {"_target_": "clinx.sanitize.conditions.get_condition", "name": name, **_plain(params.get(name, {}))}
        return instantiate(node, _convert_="all")

    return build


def _text_sanitizer(cfg, llm):
    """One :class:`TextSanitizer`: the selected ``text`` node for its level, ``text_params`` for the others."""
    from hydra.utils import instantiate

    from .grid import TextSanitizer

    params = dict(_plain(cfg.get("text_params")) or {})
    if "llm" in params:
        params["llm"] = llm  # one LLM object for every level (its fingerprint enters the text cache key)
    # The grid's own text settings win over the level configs (which serve clinx text, where the
    # manifest belongs), so that text=l1 and the full grid run the same experiment.
    use_manifest = bool(cfg.get("text_use_manifest", True))
    fallback = str(cfg.get("text_fallback", "l2"))
    params["l1"] = {**dict(params.get("l1") or {}), "use_manifest": use_manifest}
    params["fallback"] = fallback
    pipelines = {}
    text = cfg.get("text")
    if text is not None and text.get("level"):
        level = str(text.level).lower()
        l1 = {**dict(_plain(text.get("l1")) or {}), "use_manifest": use_manifest}
        pipelines[level if level.startswith("l") else f"l{level}"] = instantiate(
            text, _convert_="all", l1=l1, fallback=fallback, **({"llm": llm} if "llm" in text else {}))
    return TextSanitizer(params, pipelines)


def build_parts(cfg) -> Parts:
    """Models, judges, masker, text sanitizer, conditions, OCR attackers and verifier from the config.

    Every node is built with :func:`hydra.utils.instantiate` (its ``_target_``
    and all its keys): ``ocr`` (the engine that reads for the mask),
    ``localize`` (the matcher, given that engine), ``verify_ocr`` (the
    independent engine the verifier — ``localize`` with that engine — reads
    every sanitized image with; ``verify=false`` turns it off) and ``attack``
    (the leakage attackers; a node equal to ``ocr`` shares its instance).
    Engines and LLMs load their weights on first use, not here.
    """
    from hydra.utils import instantiate

    from .grid import OCRMasker, TrueMasker

    # A node without _target_ is a setting for a model / judge that is not selected (e.g. the
    # paper_grid experiment sets paths for all four VLMs and a sweep selects one): skip it.
    models = {name: instantiate(node) for name, node in (cfg.get("models") or {}).items() if "_target_" in node}
    judges = {name: instantiate(node) for name, node in (cfg.get("judges") or {}).items() if "_target_" in node}
    engines: dict[str, object] = {}

    def engine(node):
        key = json.dumps(_plain(node), sort_keys=True, default=str)
        if key not in engines:
            engines[key] = instantiate(node, _convert_="all")
        return engines[key]

    if str(cfg.mask.source) == "true":
        masker = TrueMasker()
    else:
        masker = OCRMasker(instantiate(cfg.localize, _convert_="all", engine=engine(cfg.ocr)))
    attackers = {name: engine(node) for name, node in (cfg.get("attack") or {}).items()} if cfg.get("leakage", True) else {}
    # The verifier is the `localize` matcher reading with the independent `verify_ocr` engine,
    # built the way clinx sanitize builds it.
    verifier = None
    if cfg.get("verify", True) and cfg.get("verify_ocr") is not None:
        verifier = instantiate(cfg.localize, _convert_="all", engine=engine(cfg.verify_ocr))
    llm = instantiate(cfg.llm, _convert_="all") if cfg.get("llm") is not None else None
    return Parts(models, judges, masker, _text_sanitizer(cfg, llm), _condition_factory(cfg), attackers, verifier)


def run_from_config(cfg, out_dir: str | Path | None = None):
    """Run the grid described by ``cfg`` and write the report into ``out_dir`` (the run folder).

    Returns ``(results.json document, GridResult)``.
    """
    from .grid import GridRunner
    from .report import write_report

    t0 = time.perf_counter()
    out = Path(out_dir or run_dir())
    save_resolved(cfg, out)
    settings = grid_settings(cfg)
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
    parts = build_parts(cfg)
    models, judges = parts.models, parts.judges
    runner = GridRunner(settings, cache, condition_factory=parts.conditions, text_fn=parts.text, masker=parts.masker,
                        ocr_engines=parts.attackers, verifier=parts.verifier, progress=bool(cfg.get("progress", True)))
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


def run(cfg) -> dict:
    """``clinx eval``: run the grid, print the tables; returns the ``results.json`` document."""
    from .report import render_markdown

    doc, result = run_from_config(cfg)
    if cfg.report.get("print", True):
        print(render_markdown(result))
        print(f"report: {run_dir()}  (wall {doc['timings'].get('wall_s', 0):.1f} s)")
    return doc


# run_from_config saves the resolved config itself (it is also called outside Hydra).
main = hydra_main("eval", run, log, save_config=False)


if __name__ == "__main__":
    main()
