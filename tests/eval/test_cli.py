"""Hydra configs of clinx eval / clinx demo: composition, group overrides, experiments, launchers."""

import pytest
from omegaconf import OmegaConf

from clinx.config import compose
from clinx.eval.cli import grid_settings


def test_default_grid_is_the_papers():
    cfg = compose("eval")
    s = grid_settings(cfg)
    assert s.conditions == ["raw", "ocr", "gskip", "prism"] and s.levels == ["l0", "l1", "l2", "l3"]
    assert s.leakage_only == ["prism_flat"] and s.ablation and s.leakage_engines == ["rapidocr", "easyocr"]
    assert list(cfg.models) == ["baseline"] and list(cfg.judges) == ["smollm2"]
    assert cfg.data.fmt == "builtin" and cfg.text_params.strategy == "multi_agent"
    # The parts come from their groups: the mask engine, the matcher, the verifier, the attackers.
    assert cfg.ocr._target_.endswith("RapidOCREngine") and cfg.verify_ocr._target_.endswith("EasyOCREngine")
    assert cfg.localize._target_.endswith("PhiLocalizer")


def test_condition_text_and_data_overrides_narrow_the_grid():
    from clinx.eval.cli import build_parts

    cfg = compose("eval", ["condition=ocr", "condition.fill=9", "text=l2", "text.l2.threshold=0.9", "data=slake",
                           "data.root=/data/SLAKE", "mask.source=true", "leakage=false"])
    s = grid_settings(cfg)
    assert s.conditions == ["blackout"] and s.levels == ["l2"]  # condition=ocr is the paper's alias of blackout
    assert s.leakage_only == []  # a single-condition run does not add the diagnostic row
    assert cfg.data.fmt == "slake"
    parts = build_parts(cfg)
    # The selected nodes are instantiated with all their keys (nothing stripped or renamed on the way).
    assert parts.conditions("blackout").fingerprint() != compose_condition("blackout").fingerprint()
    assert parts.text.fingerprint("l2") != build_parts(compose("eval", ["text=l2", "mask.source=true",
                                                                        "leakage=false"])).text.fingerprint("l2")


def compose_condition(name):
    from clinx.sanitize.conditions import get_condition

    return get_condition(name)


def test_experiments_and_several_models_and_judges():
    demo = compose("demo")
    assert demo.n == 32 and list(demo.models) == ["baseline"] and demo.text_params.strategy == "single"
    assert compose("eval", ["experiment=demo"]).n == 32
    cfg = compose("eval", ["vqa=[baseline,medgemma_4b]", "judge=[llama31_8b,mistral7b]", "models.medgemma_4b.path=/m"])
    assert list(cfg.models) == ["baseline", "medgemma_4b"] and cfg.models.medgemma_4b.model == "medgemma-1.5-4b"
    assert cfg.judges.llama31_8b.llm.model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.judges.mistral7b.llm.model == "mistralai/Mistral-7B-Instruct-v0.3"
    paper = compose("eval", ["experiment=paper_grid", "data_root=/d", "models_root=/m"])
    d = OmegaConf.to_container(paper, resolve=True)
    assert set(d["datasets"]) == {"vqa_rad", "slake", "pathvqa"} and d["datasets"]["slake"]["root"] == "/d/SLAKE"
    assert d["models"]["hulumed_4b"]["path"] == "/m/Hulu-Med-4B" and len(d["models"]) == 4
    # The paper's L3: one prompt, Qwen2.5-7B-Instruct behind an OpenAI-compatible server, original-question fallback.
    assert d["text_params"]["strategy"] == "single" and d["text_fallback"] == "original" and not d["text_use_manifest"]
    assert d["llm"]["model"] == "Qwen/Qwen2.5-7B-Instruct" and d["llm"]["_target_"].endswith("OpenAIChatLLM")


@pytest.mark.parametrize("launcher, target", [("joblib", "JoblibLauncher"), ("slurm", "SlurmLauncher")])
def test_launchers_compose(launcher, target):
    from hydra import compose as hcompose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from clinx.config import CONFIG_DIR

    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        cfg = hcompose("eval", overrides=[f"hydra/launcher={launcher}"], return_hydra_config=True)
    assert cfg.hydra.launcher._target_.endswith(target)


def test_grid_text_levels_default_to_the_papers_regex_only_l1():
    """L1/L2 in the grid do not see the ground-truth manifest unless asked; text=<level> follows the same switch."""
    from clinx.eval.cli import build_parts
    from clinx.records import Manifest

    man = Manifest({"patient_name": "Rose Garden"})
    q = "Is the lesion under the rose garden tattoo benign?"  # common words: only the manifest can know them
    base = ["mask.source=true", "leakage=false"]
    for extra in ([], ["text=l1"]):
        off = build_parts(compose("eval", base + extra)).text
        on = build_parts(compose("eval", base + extra + ["text_use_manifest=true"])).text
        assert "rose garden" in off(q, "l1", man) and "rose garden" not in on(q, "l1", man)
        assert off.settings()["l1_uses_manifest"] is False and on.settings()["l1_uses_manifest"] is True
        assert off.fingerprint("l1") != on.fingerprint("l1")
    paper = build_parts(compose("eval", base + ["text_fallback=original"])).text
    assert paper.settings()["l3_fallback"] == "original" and paper.pipeline("l3").fallback == "original"


def test_inject_paper_b1_reinjects_the_builtin_bases_with_the_papers_overlay(tmp_path):
    from clinx.data.inject import PAPER_B1_FIELDS
    from clinx.eval.cli import load_dataset

    cfg = compose("eval", ["n=2", "inject=paper_b1", "size=256"])
    samples = load_dataset(cfg.data, cfg, tmp_path)
    assert len(samples) == 2
    for s in samples:
        assert s.provenance["overlay_style"]["preset"] == "paper_b1"
        assert s.provenance["image_fields"] == list(PAPER_B1_FIELDS) and s.mask.any()
        assert s.image.shape[:2] == (256, 256) and s.clean_image is not None
    default = load_dataset(cfg.data, compose("eval", ["n=2", "size=256"]), tmp_path)
    assert all(s.provenance["overlay_style"]["preset"] == "clinx" for s in default)
