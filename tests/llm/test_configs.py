"""configs/llm/*.yaml instantiate the right backends with config-driven parameters."""

from pathlib import Path

import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf

from clinx.config import CONFIG_DIR


def load(name, tmp_path):
    cfg = OmegaConf.create({"paths": {"cache_dir": str(tmp_path)}, "llm": OmegaConf.load(CONFIG_DIR / "llm" / f"{name}.yaml")})
    return cfg


def test_smollm2_config(tmp_path):
    cfg = load("smollm2", tmp_path)
    llm = instantiate(cfg.llm)
    assert type(llm).__name__ == "LlamaCppLLM" and llm.n_ctx == 2048 and llm.n_threads == 2
    assert llm.params.temperature == 0.0 and llm.params.max_tokens == 128
    assert Path(llm.cache.folder) == tmp_path / "llm"


def test_openai_config_overrides(tmp_path):
    cfg = load("openai", tmp_path)
    cfg.llm.base_url = "http://127.0.0.1:11434/v1"
    cfg.llm.retries = 5
    cfg.llm.params.temperature = 0.2
    llm = instantiate(cfg.llm)
    assert llm.retries == 5 and llm.params.temperature == 0.2 and llm.model_id.startswith("openai:http://127.0.0.1:11434/v1")


def test_transformers_config_needs_a_path(tmp_path):
    cfg = load("transformers", tmp_path)
    with pytest.raises(Exception):
        instantiate(cfg.llm)


def test_text_app_l3_gets_the_llm_group(tmp_path):
    """clinx text text=l3 llm=...: the L3 rewriter receives the configured backend (nothing loads yet)."""
    from clinx.config import compose

    cfg = compose("text", ["text=l3", "llm=openai", "llm.base_url=http://127.0.0.1:9/v1", f"paths.cache_dir={tmp_path}"])
    pipe = instantiate(cfg.text)
    l3 = pipe.levels[-1]
    assert type(l3).__name__ == "MultiAgentRewriter"
    assert l3.llm.model_id.startswith("openai:http://127.0.0.1:9/v1") and Path(l3.llm.cache.folder) == tmp_path / "llm"
