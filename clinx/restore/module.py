"""LightningModule for restoration training: losses, optimisers, logging — nothing else.

Generator and discriminator are built from plain configs (``arch`` + constructor
params) so the exported checkpoint can record a JSON-able architecture. The two
networks are optimised alternately with manual optimisation (one D step, then
one G step per batch), the usual GAN recipe that Lightning's automatic
optimisation does not express.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytorch_lightning as pl
import torch

from clinx.metrics.image_quality import masked_psnr, masked_ssim
from clinx.restore.checkpoint import restorer_config
from clinx.restore.composite import Restorer, to_tensor, to_uint8
from clinx.restore.losses import LossWeights, discriminator_loss, generator_loss
from clinx.restore.networks import PatchDiscriminator, build_generator, count_parameters
from clinx.restore.tiling import restore_tiled


class RestorationModule(pl.LightningModule):
    """Adversarial masked-restoration training of a PRISM or g-skip generator.

    Args:
        arch: ``prism`` | ``gskip``.
        generator: generator constructor params.
        discriminator: :class:`PatchDiscriminator` params.
        fill / fill_radius: base fill the wrapper feeds the network (see :mod:`clinx.restore.composite`).
        resolution: window side used at inference (normally the training crop).
        lr / betas: Adam settings for both networks (paper: lr 1e-4).
        loss: :class:`LossWeights` fields (λ_adv, λ_mask, λ_id, λ_tv, gan).
        adv_start_step: G steps of pure reconstruction before the adversarial terms switch on
            (lets a short CPU run learn the fill correction before the GAN game starts).
        n_samples: validation images drawn into the sample grid.
    """

    def __init__(self, arch: str = "prism", generator: dict | None = None, discriminator: dict | None = None,
                 fill: str = "telea", fill_radius: int = 5, resolution: int = 128, lr: float = 1e-4,
                 betas: tuple[float, float] = (0.5, 0.999), loss: dict | None = None, adv_start_step: int = 0,
                 n_samples: int = 6):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.arch = arch
        self.gen_params = dict(generator or {})
        self.restorer = Restorer(build_generator(arch, **self.gen_params), fill=fill, fill_radius=fill_radius)
        self.discriminator = PatchDiscriminator(**dict(discriminator or {}))
        self.weights = LossWeights(**dict(loss or {}))
        self.resolution = int(resolution)
        self.lr, self.betas = float(lr), tuple(float(b) for b in betas)
        self.adv_start_step = int(adv_start_step)
        self.n_samples = int(n_samples)
        self._val: list[tuple[float, float, float]] = []
        self.samples: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    # ------------------------------------------------------------------ plumbing
    @property
    def generator(self) -> torch.nn.Module:
        return self.restorer.generator

    def export_config(self) -> dict:
        """JSON-able architecture record for :func:`clinx.restore.checkpoint.save_checkpoint`."""
        return restorer_config(self.arch, self.gen_params, self.restorer.fill, self.restorer.fill_radius,
                               self.resolution, generator_parameters=count_parameters(self.generator),
                               discriminator_parameters=count_parameters(self.discriminator))

    def forward(self, x_tilde: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.restorer(x_tilde, mask).composite

    def configure_optimizers(self):
        opt_g = torch.optim.Adam(self.generator.parameters(), lr=self.lr, betas=self.betas)
        opt_d = torch.optim.Adam(self.discriminator.parameters(), lr=self.lr, betas=self.betas)
        return [opt_g, opt_d]

    # ------------------------------------------------------------------ training
    def training_step(self, batch: dict[str, torch.Tensor], batch_idx: int) -> None:
        opt_g, opt_d = self.optimizers()
        x_tilde, mask, x = batch["x_tilde"], batch["mask"], batch["x"]
        out = self.restorer(x_tilde, mask)
        use_adv = self.weights.adv > 0 and self.global_step // 2 >= self.adv_start_step
        d = self.discriminator
        if use_adv:
            # The discriminator sees the composite, i.e. what the sanitizer releases.
            d_loss = discriminator_loss(d(torch.cat([x, mask], 1)), d(torch.cat([out.composite.detach(), mask], 1)), self.weights)
            opt_d.zero_grad(set_to_none=True)
            self.manual_backward(d_loss)
            opt_d.step()
            self.log("train/d_loss", d_loss.detach(), prog_bar=False)
        d.requires_grad_(False)  # G step: no gradients into D's weights
        fake_logits = d(torch.cat([out.composite, mask], 1)) if use_adv else None
        terms = generator_loss(out.raw, out.composite, x_tilde, x, mask, fake_logits, self.weights)
        opt_g.zero_grad(set_to_none=True)
        self.manual_backward(terms["total"])
        opt_g.step()
        d.requires_grad_(True)
        if not use_adv:
            # Keep the two optimisers' step counters in lockstep so global_step
            # (which counts both) advances uniformly.
            opt_d.step()
        self.log_dict({f"train/g_{k}": v.detach() for k, v in terms.items() if k != "total"}, prog_bar=False)
        self.log("train/g_total", terms["total"].detach(), prog_bar=True)

    # ------------------------------------------------------------------ validation
    @torch.no_grad()
    def _run_windows(self, crops: list[np.ndarray], masks: list[np.ndarray]) -> list[np.ndarray]:
        x, m = to_tensor(crops, masks)
        return to_uint8(self.restorer(x.to(self.device), m.to(self.device)).composite)

    def validation_step(self, batch: dict[str, torch.Tensor], batch_idx: int) -> None:
        # Restore exactly as the sanitizer condition does: window by window, in uint8.
        x_tilde, x = to_uint8(batch["x_tilde"]), to_uint8(batch["x"])
        masks = [m[0].cpu().numpy() > 0.5 for m in batch["mask"]]
        restored = restore_tiled(x_tilde, masks, self._run_windows, resolution=self.resolution,
                                 multiple=self.restorer.multiple)
        for xt, m, r, c in zip(x_tilde, masks, restored, x):
            if not m.any():
                continue
            self._val.append((masked_psnr(r, c, m), masked_ssim(r, c, m), masked_psnr(self._fill(xt, m), c, m)))
            if len(self.samples) < self.n_samples:
                self.samples.append((xt, c, r))

    def _fill(self, image: np.ndarray, mask: np.ndarray) -> np.ndarray:
        from clinx.restore.composite import base_fill

        return base_fill(image, mask, self.restorer.fill, self.restorer.fill_radius)

    def on_validation_epoch_start(self) -> None:
        self._val, self.samples = [], []

    def val_figures(self) -> dict[str, float]:
        """The validation figures of the epoch so far: masked PSNR / SSIM, base-fill PSNR and the selection score."""
        a = np.array(self._val, dtype=np.float64)
        a[~np.isfinite(a)] = np.nan
        psnr, ssim, fill = np.nanmean(a, axis=0)
        # Selection score: masked PSNR, with SSIM as a tie-breaker on the same scale (0.01 SSIM ~ 0.1 dB).
        return {"val/psnr_mask": float(psnr), "val/ssim_mask": float(ssim), "val/psnr_mask_fill": float(fill),
                "val/score": float(psnr + 10.0 * ssim)}

    def on_validation_epoch_end(self) -> None:
        if not self._val:
            return
        self.log_dict(self.val_figures(), prog_bar=True)

    def on_train_start(self) -> None:
        self.log_dict({"params/generator": float(count_parameters(self.generator)),
                       "params/discriminator": float(count_parameters(self.discriminator))})
