"""The restoration wrapper: base fill -> generator -> composite ``x̂ = ŷ⊙m + x̃⊙(1−m)``.

Design decisions (see also ``docs`` in the module docstrings of the networks):

* **What the generator sees.** The input is ``concat(x_in, m)`` where ``x_in``
  is ``x̃`` with every masked pixel *replaced* — never the PHI pixels
  themselves. Zeroing the region (``fill="zero"``) is the classic choice; the
  default ``fill="telea"`` replaces it with OpenCV's Telea fast-marching fill,
  which is computed from pixels *outside* the mask only. Either way no pixel
  of the burned-in text reaches the network, which is the point of a
  privacy-oriented restorer: the paper's no-skip argument (App. C.1) is about
  not copying PHI-contaminated features, and removing them at the input makes
  that hold for g-skip too.
* **``fill="phi"``: the paper's setting.** The network sees ``x̃`` itself, PHI
  pixels included, with ``m`` (ClinX §3.2: "ClinX-PRISM receives only the
  PHI-overlaid image and its PHI mask"); the residual then starts from
  mid-grey inside the mask, so the only way a PHI pixel reaches the output is
  through the network — the skip connections of g-skip, or whatever the
  no-skip PRISM bottleneck carries. This is the mode in which the paper's
  claim (skips copy PHI-contaminated features, the no-skip generator does not)
  can be tested; it is a research setting, never the default.
* **Refining a fill.** The networks' output heads are zero-initialised and the
  wrapper returns ``ŷ = clamp(x_in + G(x_in, m), -1, 1)``: an untrained network
  reproduces the base fill exactly, and training learns the correction
  (texture, gradients across large masks) that a diffusion-style fill cannot
  produce. Telea is strong on thin strokes, so starting from it makes the
  learned restorer at least as good as Telea from step 0 and lets a short CPU
  training run improve on it. ``x_in`` inside the mask is a function of pixels
  outside the mask only, so this residual does not re-open a path for PHI.
* **Composite.** Only ``ŷ`` inside ``m`` leaves the wrapper; outside, the input
  is returned. In ``uint8`` space (:func:`composite_uint8`) the outside pixels
  are bit-identical by construction.

Tensors are ``float`` in ``[-1, 1]``, ``(B, 3, H, W)``; masks ``(B, 1, H, W)`` in ``{0, 1}``.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import torch
from torch import nn

from clinx.sanitize.conditions import composite as composite_uint8

FILLS = ("telea", "ns", "zero", "phi")

__all__ = ["FILLS", "Restorer", "RestoreOutput", "base_fill", "composite_uint8", "to_tensor", "to_uint8"]


def base_fill(image: np.ndarray, mask: np.ndarray, method: str = "telea", radius: int = 5) -> np.ndarray:
    """``image`` (``uint8 (H, W, 3)``) with the masked pixels replaced by a fill computed from outside the mask.

    ``telea`` / ``ns``: OpenCV's fast-marching (Telea 2004) / Navier-Stokes
    inpainting with ``radius``; ``zero``: mid-grey (0 in ``[-1, 1]``);
    ``phi``: the image unchanged (the network sees the PHI pixels).
    """
    m = np.asarray(mask, dtype=bool)
    if method == "phi":
        return image.copy()
    if method == "zero":
        out = image.copy()
        out[m] = 128
        return out
    if method not in ("telea", "ns"):
        raise ValueError(f"unknown fill {method!r}; known: {', '.join(FILLS)}")
    if not m.any():
        return image.copy()
    flag = cv2.INPAINT_TELEA if method == "telea" else cv2.INPAINT_NS
    return cv2.inpaint(np.ascontiguousarray(image), m.astype(np.uint8) * 255, radius, flag)


def to_tensor(images, masks=None):
    """``uint8 (H, W, 3)`` images (same size) -> ``(B, 3, H, W)`` in ``[-1, 1]``; masks -> ``(B, 1, H, W)`` float."""
    x = torch.from_numpy(np.stack([np.asarray(i) for i in images])).permute(0, 3, 1, 2).float().div_(127.5).sub_(1.0)
    if masks is None:
        return x
    m = torch.from_numpy(np.stack([np.asarray(k, dtype=bool) for k in masks])).unsqueeze(1).float()
    return x, m


def to_uint8(x: torch.Tensor) -> list[np.ndarray]:
    """``(B, 3, H, W)`` in ``[-1, 1]`` -> list of ``uint8 (H, W, 3)`` (rounded, clipped)."""
    a = ((x.detach().float().clamp(-1, 1) + 1.0) * 127.5).round().to(torch.uint8).permute(0, 2, 3, 1).cpu().numpy()
    return [np.ascontiguousarray(i) for i in a]


@dataclass
class RestoreOutput:
    """What :class:`Restorer` returns: raw prediction ``ŷ``, composite ``x̂`` and the network input fill."""

    raw: torch.Tensor
    composite: torch.Tensor
    base: torch.Tensor


class Restorer(nn.Module):
    """Wrap a generator so that only ``ŷ`` inside the mask leaves it.

    Args:
        generator: a network ``(x_in ⊕ m, m) -> residual`` (PRISM or g-skip).
        fill: what the network sees inside the mask: a fill computed from outside it (``telea``,
            ``ns``, ``zero``) or the PHI pixels themselves (``phi``, the paper's setting).
        fill_radius: inpainting radius for ``telea`` / ``ns``.
    """

    def __init__(self, generator: nn.Module, fill: str = "telea", fill_radius: int = 5):
        super().__init__()
        if fill not in FILLS:
            raise ValueError(f"unknown fill {fill!r}; known: {', '.join(FILLS)}")
        self.generator = generator
        self.fill = fill
        self.fill_radius = int(fill_radius)

    @property
    def multiple(self) -> int:
        """Spatial sizes must be multiples of this (the generator's total downsampling)."""
        return 2 ** int(getattr(self.generator, "n_down", 3))

    @torch.no_grad()
    def prepare(self, x_tilde: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """``x_in``: ``x̃`` with the masked pixels replaced by the base fill (no gradient; the fill is fixed).

        With ``fill="phi"`` it is ``x̃`` unchanged.
        """
        m = mask > 0.5
        if self.fill == "phi":
            return x_tilde
        if self.fill == "zero":
            return torch.where(m, torch.zeros_like(x_tilde), x_tilde)
        imgs = to_uint8(x_tilde)
        masks = m[:, 0].cpu().numpy()
        filled = [base_fill(i, k, self.fill, self.fill_radius) for i, k in zip(imgs, masks)]
        base = to_tensor(filled).to(device=x_tilde.device, dtype=x_tilde.dtype)
        # Outside the mask keep the exact float input (to_uint8 rounding would otherwise leak in).
        return torch.where(m, base, x_tilde)

    def forward(self, x_tilde: torch.Tensor, mask: torch.Tensor, base: torch.Tensor | None = None) -> RestoreOutput:
        """Restore ``x_tilde`` inside ``mask``; ``base`` may be passed when already computed."""
        if base is None:
            base = self.prepare(x_tilde, mask)
        residual = self.generator(torch.cat([base, mask], dim=1), mask)
        # The residual refines the fill; in phi mode there is no fill, so it starts from mid-grey
        # inside the mask (adding it to x̃ would hand the PHI to the output around the network).
        start = torch.where(mask > 0.5, torch.zeros_like(base), base) if self.fill == "phi" else base
        raw = (start + residual.to(base.dtype)).clamp(-1.0, 1.0)
        comp = raw * mask + x_tilde * (1.0 - mask)
        return RestoreOutput(raw=raw, composite=comp, base=base)
