"""Training objective of ClinX-PRISM / g-skip (paper §3.2):

``L = λ_adv·L_adv + λ_mask·L_mask + λ_id·L_id + λ_tv·L_tv``

* ``L_adv`` — hinge GAN loss on the PatchGAN realism map (the generator side
  uses the composite ``x̂`` so the discriminator judges what is released);
* ``L_mask`` — L1 between ``ŷ`` and the clean ``x`` *inside* the mask,
  normalised by the mask area so small masks weigh as much as large ones;
* ``L_id`` — L1 between ``ŷ`` and ``x̃`` *outside* the mask: the composite
  discards those pixels anyway, but asking the raw prediction to agree with the
  input there keeps the seam at the mask border continuous;
* ``L_tv`` — total variation of ``x̂`` over the (one-pixel dilated) mask, a
  light smoothness prior against checkerboard artefacts.

All images in ``[-1, 1]``; masks ``(B, 1, H, W)`` in ``{0, 1}``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F

_EPS = 1.0


def masked_l1(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Mean absolute error over the pixels where ``weight`` is 1 (per channel), 0 for an empty weight."""
    w = weight.expand_as(pred)
    return (torch.abs(pred - target) * w).sum() / (w.sum() + _EPS)


def total_variation(x: torch.Tensor, weight: torch.Tensor | None = None) -> torch.Tensor:
    """Mean absolute horizontal + vertical difference, restricted to ``weight`` when given."""
    dh = torch.abs(x[..., 1:, :] - x[..., :-1, :])
    dw = torch.abs(x[..., :, 1:] - x[..., :, :-1])
    if weight is None:
        return dh.mean() + dw.mean()
    wh = torch.maximum(weight[..., 1:, :], weight[..., :-1, :]).expand_as(dh)
    ww = torch.maximum(weight[..., :, 1:], weight[..., :, :-1]).expand_as(dw)
    return (dh * wh).sum() / (wh.sum() + _EPS) + (dw * ww).sum() / (ww.sum() + _EPS)


def d_hinge(real_logits: torch.Tensor, fake_logits: torch.Tensor) -> torch.Tensor:
    """Discriminator hinge loss: ``E[relu(1 - D(x))] + E[relu(1 + D(x̂))]``."""
    return F.relu(1.0 - real_logits).mean() + F.relu(1.0 + fake_logits).mean()


def g_hinge(fake_logits: torch.Tensor) -> torch.Tensor:
    """Generator hinge loss: ``-E[D(x̂)]``."""
    return -fake_logits.mean()


def d_lsgan(real_logits: torch.Tensor, fake_logits: torch.Tensor) -> torch.Tensor:
    """Least-squares GAN discriminator loss (targets 1 real, 0 fake)."""
    return 0.5 * ((real_logits - 1) ** 2).mean() + 0.5 * (fake_logits**2).mean()


def g_lsgan(fake_logits: torch.Tensor) -> torch.Tensor:
    """Least-squares GAN generator loss."""
    return 0.5 * ((fake_logits - 1) ** 2).mean()


GAN_LOSSES = {"hinge": (d_hinge, g_hinge), "lsgan": (d_lsgan, g_lsgan)}


@dataclass
class LossWeights:
    """λ weights of the objective (set in ``configs/model/*.yaml`` under ``loss``)."""

    adv: float = 0.01
    mask: float = 1.0
    id: float = 0.1
    tv: float = 0.01
    gan: str = "hinge"

    def __post_init__(self) -> None:
        if self.gan not in GAN_LOSSES:
            raise ValueError(f"unknown GAN loss {self.gan!r}; known: {', '.join(GAN_LOSSES)}")


def generator_loss(raw, comp, x_tilde, x, mask, fake_logits, w: LossWeights) -> dict[str, torch.Tensor]:
    """All generator terms and their weighted sum under key ``"total"``."""
    dil = F.max_pool2d(mask, 3, stride=1, padding=1)
    terms = {
        "mask": masked_l1(raw, x, mask),
        "id": masked_l1(raw, x_tilde, 1.0 - mask),
        "tv": total_variation(comp, dil),
        "adv": GAN_LOSSES[w.gan][1](fake_logits) if fake_logits is not None else raw.new_zeros(()),
    }
    terms["total"] = w.adv * terms["adv"] + w.mask * terms["mask"] + w.id * terms["id"] + w.tv * terms["tv"]
    return terms


def discriminator_loss(real_logits, fake_logits, w: LossWeights) -> torch.Tensor:
    """The discriminator side of the chosen GAN loss."""
    return GAN_LOSSES[w.gan][0](real_logits, fake_logits)
