"""Training callbacks: export the best generator as a clinx checkpoint, save sample grids.

Kept out of the LightningModule so the module stays "losses, optimisers,
logging"; the export writes the small ``generator.pt`` (+ ``metrics.json``) the
sanitizer loads, independent of Lightning's own (large, resumable) ``.ckpt``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytorch_lightning as pl

from clinx.restore.checkpoint import CHECKPOINT_FILE, save_checkpoint


def _float(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


class ExportBestGenerator(pl.Callback):
    """After each validation, write ``generator.pt`` + ``metrics.json`` to ``folder`` when ``monitor`` improved (max)."""

    def __init__(self, folder: str | Path, monitor: str = "val/score"):
        self.folder = Path(folder)
        self.monitor = monitor
        self.best = -math.inf
        self.history: list[dict] = []

    def on_validation_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        if trainer.sanity_checking or not trainer.is_global_zero:
            return
        metrics = {k: _float(v) for k, v in trainer.callback_metrics.items() if k.startswith("val/")}
        if self.monitor not in metrics:
            return
        row = {"epoch": int(trainer.current_epoch), "step": int(trainer.global_step), **metrics}
        self.history.append(row)
        score = metrics[self.monitor]
        improved = score > self.best
        if improved:
            self.best = score
            save_checkpoint(self.folder / CHECKPOINT_FILE, pl_module.generator, pl_module.export_config())
        payload = {"monitor": self.monitor, "best": row if improved else self._read_best(), "history": self.history}
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "metrics.json").write_text(json.dumps(payload, indent=2, sort_keys=True))

    def _read_best(self) -> dict:
        try:
            return json.loads((self.folder / "metrics.json").read_text())["best"]
        except (OSError, ValueError, KeyError):
            return {}


def sample_grid(samples: list[tuple[np.ndarray, np.ndarray, np.ndarray]], pad: int = 2) -> np.ndarray:
    """Paper Fig. 5 layout: one column per sample, rows input x̃ / clean target x / restored x̂ (RGB uint8)."""
    h = max(s[0].shape[0] for s in samples)
    w = max(s[0].shape[1] for s in samples)
    grid = np.full((3 * h + 4 * pad, len(samples) * (w + pad) + pad, 3), 255, np.uint8)
    for j, trio in enumerate(samples):
        for i, im in enumerate(trio):
            y, x = pad + i * (h + pad), pad + j * (w + pad)
            grid[y:y + im.shape[0], x:x + im.shape[1]] = im
    return grid


class SampleGrids(pl.Callback):
    """Save ``samples/epoch_XXX.png`` (and a TensorBoard image) from the module's validation samples."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def on_validation_epoch_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        samples = getattr(pl_module, "samples", None)
        if trainer.sanity_checking or not samples or not trainer.is_global_zero:
            return
        grid = sample_grid(samples)
        self.folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(self.folder / f"epoch_{trainer.current_epoch:03d}.png"), cv2.cvtColor(grid, cv2.COLOR_RGB2BGR))
        for logger in trainer.loggers:
            exp = getattr(logger, "experiment", None)
            if hasattr(exp, "add_image"):
                exp.add_image("val/samples", grid, trainer.current_epoch, dataformats="HWC")
