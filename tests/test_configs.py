"""Every option of every config group composes in every app that uses the group (Hydra compose API).

The cases are read from the files, not listed by hand: for each app
(``configs/<app>.yaml``) every entry of its defaults list that names a group
(``group: option`` or ``group@package: option``) is overridden with every file
of ``configs/<group>/``, and the composed config must resolve (mandatory
``???`` values may stay open). Experiments belong to one app each
(:data:`EXPERIMENTS`, checked to cover every file). The cheap nodes are also
instantiated (lightning-hydra-template tests its configs the same way).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hydra.utils import instantiate
from omegaconf import OmegaConf, open_dict

from clinx.config import CONFIG_DIR, compose

#: Which app each experiment (``configs/experiment/*.yaml``) is written for.
EXPERIMENTS = {
    "eval": ["demo", "paper_grid"],
    "train": ["checkpoints", "cpu_quick", "paper_table4"],
}
#: Groups that are not parts of the app (Hydra's own settings are tested by the launcher tests).
SKIP_GROUPS = {"hydra", "experiment"}


def _apps() -> list[str]:
    return sorted(p.stem for p in CONFIG_DIR.glob("*.yaml"))


def _options(group: str) -> list[str]:
    return sorted(p.stem for p in (CONFIG_DIR / group).glob("*.yaml"))


def _default_entries(app: str) -> list[tuple[str, str, bool]]:
    """``(group, package, is_list)`` of the app's defaults list, following an app that extends another (demo: eval)."""
    doc = yaml.safe_load((CONFIG_DIR / f"{app}.yaml").read_text()) or {}
    out = []
    for entry in doc.get("defaults", []):
        if isinstance(entry, str):
            if (CONFIG_DIR / f"{entry}.yaml").is_file():  # the app extends another app
                out += _default_entries(entry)
            continue
        (key, value), = entry.items()
        key = key.replace("optional ", "").replace("override ", "").lstrip("/")
        group, _, package = key.partition("@")
        if group in SKIP_GROUPS or not (CONFIG_DIR / group).is_dir():
            continue
        out.append((group, package, isinstance(value, list)))
    return out


def _cases() -> list[tuple[str, str]]:
    cases = []
    for app in _apps():
        for group, package, is_list in _default_entries(app):
            key = f"{group}@{package}" if package not in ("", group) else group
            for opt in _options(group):
                cases.append((app, f"{key}=[{opt}]" if is_list else f"{key}={opt}"))
        for exp in EXPERIMENTS.get(app, []):
            cases.append((app, f"experiment={exp}"))
    return cases


CASES = _cases()


def test_every_experiment_belongs_to_an_app_and_every_app_has_cases():
    assert sorted(sum(EXPERIMENTS.values(), [])) == _options("experiment")
    apps_with_cases = {app for app, _ in CASES}
    assert apps_with_cases == set(_apps())
    # The parts the issue names are groups of the apps that run them (not plain keys).
    groups = {app: {g for g, _, _ in _default_entries(app)} for app in _apps()}
    assert {"ocr", "localize"} <= groups["eval"] and {"callbacks", "logger", "trainer", "model"} <= groups["train"]


@pytest.mark.parametrize("app, override", CASES, ids=[f"{a}:{o}" for a, o in CASES])
def test_composes_and_resolves(app, override):
    cfg = compose(app, [override])
    # '???' marks a value the user must give (a data or model root): give one, then everything resolves.
    for key in _missing(OmegaConf.to_container(cfg, resolve=False)):
        OmegaConf.update(cfg, key, "/given")
    OmegaConf.to_container(cfg, resolve=True)


def _missing(node, prefix: str = "") -> list[str]:
    """Dotted keys whose raw value is '???' (without resolving anything)."""
    if isinstance(node, dict):
        return [k for key, v in node.items() for k in _missing(v, f"{prefix}{key}.")]
    return [prefix[:-1]] if node == "???" else []


def test_number_of_compositions():
    """The count the issue asks for (printed with -s); a group losing its options shows here."""
    print(f"\n{len(CASES)} compositions over {len(_apps())} apps")
    assert len(CASES) >= 60


# ------------------------------------------------------------------ instantiation of the cheap nodes


def test_eval_parts_instantiate_from_their_groups():
    from clinx.eval.cli import build_parts
    from clinx.eval.grid import OCRMasker
    from clinx.localize import PhiLocalizer
    from clinx.ocr.easy import EasyOCREngine
    from clinx.ocr.rapid import RapidOCREngine

    cfg = compose("eval", ["vqa=[openai_vision]", "models.openai_vision.model=m", "judge=[llama31_8b]",
                           "localize.threshold=77", "ocr.text_score=0.4"])
    parts = build_parts(cfg)
    loc = parts.masker._localizer()
    assert isinstance(parts.masker, OCRMasker) and isinstance(loc, PhiLocalizer) and loc.threshold == 77
    # The localizer reads with the `ocr` node (its settings, not a default engine) ...
    assert isinstance(loc.engine, RapidOCREngine) and loc.engine.params["text_score"] == pytest.approx(0.4)
    # ... the verifier is the independent engine, and an attacker equal to `ocr` would share its instance.
    assert isinstance(parts.verifier, PhiLocalizer) and isinstance(parts.verifier.engine, EasyOCREngine)
    assert parts.verifier.threshold == 77  # the same matcher settings as the mask
    assert set(parts.attackers) == {"rapidocr", "easyocr"} and parts.attackers["easyocr"] is parts.verifier.engine
    assert parts.conditions("ocr").fingerprint() != parts.conditions("raw").fingerprint()
    assert type(parts.models["openai_vision"]).__name__ == "OpenAIVisionVQA"
    assert parts.judges["llama31_8b"].name == "llama31_8b"


@pytest.mark.parametrize("name", _options("condition"))
def test_selected_condition_node_is_instantiated_with_its_keys(name):
    from clinx.eval.cli import build_parts

    if name in ("gskip", "prism", "prism_flat"):
        over = [f"condition={name}", "condition.device=cpu"]
    else:
        over = [f"condition={name}"]
    cfg = compose("eval", over + ["mask.source=true", "leakage=false"])
    cond = build_parts(cfg).conditions(name)
    assert cond.fingerprint()


@pytest.mark.parametrize("level", _options("text"))
def test_text_levels_instantiate(level):
    from clinx.eval.cli import build_parts

    cfg = compose("eval", [f"text={level}", "mask.source=true", "leakage=false"])
    text = build_parts(cfg).text
    assert text.pipeline(level).level == level.upper()
    assert text.fingerprint(level) != text.fingerprint("l1" if level != "l1" else "l2")


@pytest.mark.parametrize("logger", _options("logger"))
@pytest.mark.parametrize("callbacks", _options("callbacks"))
def test_training_callbacks_and_loggers_instantiate(tmp_path, callbacks, logger):
    from clinx.restore.cli import _instantiate_all

    cfg = compose("train", [f"callbacks={callbacks}", f"logger={logger}"])
    with open_dict(cfg):
        cfg.run_dir = str(tmp_path)
    cbs, lgs = _instantiate_all(cfg.callbacks), _instantiate_all(cfg.get("logger"))
    assert len(cbs) == len(cfg.callbacks) and len(lgs) == len(cfg.get("logger") or {})
    for cb in cbs:
        folder = getattr(cb, "folder", None) or getattr(cb, "dirpath", None)
        assert str(folder).startswith(str(tmp_path))
    trainer = instantiate(cfg.trainer, callbacks=cbs, logger=lgs or False, default_root_dir=str(tmp_path))
    assert trainer.max_epochs == cfg.trainer.max_epochs


@pytest.mark.parametrize("name", _options("llm"))
def test_llm_nodes_instantiate_without_loading_weights(tmp_path, name):
    over = []
    if name == "transformers":  # a local folder is all it needs to be built (weights load on first use)
        (tmp_path / "model").mkdir()
        (tmp_path / "model" / "config.json").write_text("{}")
        over = [f"llm.model_path={tmp_path / 'model'}"]
    cfg = compose("text", [f"llm={name}", f"paths.cache_dir={tmp_path}"] + over)
    llm = instantiate(cfg.llm)
    assert llm.fingerprint() and Path(llm.cache.folder) == tmp_path / "llm"


@pytest.mark.parametrize("arch", _options("model"))
def test_models_instantiate(arch):
    cfg = compose("train", [f"model={arch}", "model.generator.base=8"])
    assert instantiate(cfg.model).generator is not None
