"""Save and load restoration checkpoints (generator weights + the architecture that fits them).

File layout (a plain ``dict`` that ``torch.load(weights_only=True)`` accepts)::

    {"format": "clinx-restore/1",
     "config": "<JSON string>",      # arch, generator params, fill, resolution, ...
     "state_dict": {name: tensor}}   # the generator only (no discriminator, no optimiser)

Loading never falls back silently: a missing file, a file torch cannot read
(truncated, not a checkpoint, pickled objects beyond tensors) or weights that do
not fit the recorded architecture all raise :class:`clinx.errors.CheckpointError`
with the path and the reason.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import torch
from torch import nn

from clinx.errors import CheckpointError
from clinx.restore.composite import Restorer
from clinx.restore.networks import GENERATORS, build_generator

FORMAT = "clinx-restore/1"
CHECKPOINT_FILE = "generator.pt"

#: Repository default checkpoints (``checkpoints/<arch>/generator.pt``); ``CLINX_CHECKPOINTS_DIR`` overrides.
CHECKPOINTS_DIR = Path(os.environ.get("CLINX_CHECKPOINTS_DIR", Path(__file__).resolve().parents[2] / "checkpoints"))


def default_checkpoint(arch: str, folder: str | os.PathLike | None = None) -> Path:
    """Path of the checkpoint for ``arch`` (``prism`` | ``gskip``): the shipped one, or ``<folder>/<arch>/generator.pt``."""
    return Path(folder or CHECKPOINTS_DIR) / arch / CHECKPOINT_FILE


def restorer_config(arch: str, params: dict, fill: str, fill_radius: int, resolution: int, **extra) -> dict:
    """The JSON-able description stored beside the weights."""
    cfg = {"arch": arch, "params": dict(params), "fill": fill, "fill_radius": int(fill_radius), "resolution": int(resolution)}
    cfg.update(extra)
    json.dumps(cfg)  # fail now, not at load time, if something is not JSON-able
    return cfg


def save_checkpoint(path: str | os.PathLike, generator: nn.Module, config: dict) -> Path:
    """Write ``generator``'s weights and ``config`` atomically to ``path`` (float32 CPU tensors)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to("cpu", torch.float32 if v.is_floating_point() else v.dtype).contiguous() for k, v in generator.state_dict().items()}
    payload = {"format": FORMAT, "config": json.dumps(config, sort_keys=True), "state_dict": state}
    fd, tmp = tempfile.mkstemp(prefix=".tmp_", suffix=".pt", dir=path.parent)
    os.close(fd)
    try:
        torch.save(payload, tmp)
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; a shared checkpoint must be readable
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def read_checkpoint(path: str | os.PathLike) -> tuple[dict, dict]:
    """``(config, state_dict)`` of a checkpoint file, validated; raises :class:`CheckpointError`."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"restoration checkpoint not found: {path} (train one with `clinx-train` or scripts/train_checkpoints.py)")
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # truncated zip, random bytes, disallowed pickle globals ...
        raise CheckpointError(f"restoration checkpoint {path} is unreadable or corrupt: {type(exc).__name__}: {str(exc)[:200]}") from exc
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise CheckpointError(f"{path} is not a clinx restoration checkpoint (expected format {FORMAT!r})")
    try:
        config = json.loads(payload["config"])
        state = payload["state_dict"]
        arch = config["arch"]
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"restoration checkpoint {path} has a malformed header: {exc}") from exc
    if arch not in GENERATORS:
        raise CheckpointError(f"restoration checkpoint {path} names unknown architecture {arch!r}; known: {', '.join(GENERATORS.names())}")
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise CheckpointError(f"restoration checkpoint {path} has no tensor state_dict")
    return config, state


def load_restorer(path: str | os.PathLike, *, expect_arch: str | None = None, device: str | torch.device = "cpu") -> tuple[Restorer, dict]:
    """Build the :class:`Restorer` stored at ``path`` (eval mode) and return it with its config.

    ``expect_arch`` guards against e.g. a g-skip file given to the PRISM condition.
    """
    config, state = read_checkpoint(path)
    if expect_arch is not None and config["arch"] != expect_arch:
        raise CheckpointError(f"restoration checkpoint {path} holds a {config['arch']!r} generator, expected {expect_arch!r}")
    try:
        gen = build_generator(config["arch"], **config.get("params", {}))
        gen.load_state_dict(state, strict=True)
        restorer = Restorer(gen, fill=config.get("fill", "telea"), fill_radius=config.get("fill_radius", 5))
    except (RuntimeError, TypeError, ValueError) as exc:
        raise CheckpointError(f"restoration checkpoint {path} does not fit its recorded {config['arch']!r} architecture: {str(exc)[:300]}") from exc
    return restorer.to(device).eval(), config
