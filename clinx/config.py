"""Where clinx's Hydra configs live and how apps and tests compose them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Sequence

#: ``configs/`` at the repository root (editable install), overridable for packaged installs.
CONFIG_DIR = Path(os.environ.get("CLINX_CONFIG_DIR", Path(__file__).resolve().parent.parent / "configs"))


def compose(config_name: str, overrides: Sequence[str] = ()):
    """Compose a config outside a Hydra app (tests, notebooks, the Python API).

    Returns an ``omegaconf.DictConfig``; interpolations that need a Hydra run
    (``${hydra:...}``) are not resolved here.
    """
    from hydra import compose as _compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    if GlobalHydra.instance().is_initialized():
        GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        return _compose(config_name=config_name, overrides=list(overrides), return_hydra_config=False)


def hydra_app(config_name: str) -> Callable[[Callable], Callable]:
    """Decorator: turn ``fn(cfg)`` into a Hydra console entry point reading ``configs/<config_name>.yaml``."""
    import hydra

    def deco(fn: Callable) -> Callable:
        return hydra.main(version_base="1.3", config_path=str(CONFIG_DIR), config_name=config_name)(fn)

    return deco


def run_dir() -> Path:
    """The current Hydra run folder (or the working directory outside Hydra)."""
    try:
        from hydra.core.hydra_config import HydraConfig

        return Path(HydraConfig.get().runtime.output_dir)
    except Exception:  # not inside a Hydra app
        return Path.cwd()


def save_resolved(cfg, folder: Path | None = None) -> Path:
    """Write the fully resolved config beside the results as ``config_resolved.yaml``."""
    from omegaconf import OmegaConf

    folder = Path(folder or run_dir())
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "config_resolved.yaml"
    out.write_text(OmegaConf.to_yaml(cfg, resolve=True))
    return out
