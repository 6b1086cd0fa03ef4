"""Restoration quality inside the PHI mask: masked PSNR and SSIM (scikit-image).

Only the masked pixels say anything about a restoration: outside the mask
every condition returns the input unchanged (composite rule), so whole-image
scores would be dominated by identical pixels. Both functions compare a
restored image with the clean image *before* PHI injection, restricted to
the mask.
"""

from __future__ import annotations

import numpy as np
from skimage.metrics import structural_similarity

from clinx.records import as_rgb, check_mask

DATA_RANGE = 255.0


def masked_mse(pred: np.ndarray, target: np.ndarray, mask: np.ndarray) -> float:
    """Mean squared error over the masked pixels (all channels); NaN for an empty mask."""
    pred, target = as_rgb(pred), as_rgb(target)
    if pred.shape != target.shape:
        raise ValueError(f"shapes differ: {pred.shape} vs {target.shape}")
    m = check_mask(mask, target)
    if not m.any():
        return float("nan")
    d = pred[m].astype(np.float64) - target[m].astype(np.float64)
    return float(np.mean(d * d))


def masked_psnr(pred: np.ndarray, target: np.ndarray, mask: np.ndarray, data_range: float = DATA_RANGE) -> float:
    """PSNR in dB over the masked pixels: ``10·log10(R² / MSE_mask)``.

    ``inf`` when the masked pixels are identical, NaN for an empty mask —
    callers aggregate with ``nanmean`` and report how many were empty.
    """
    mse = masked_mse(pred, target, mask)
    if mse != mse:
        return float("nan")
    if mse == 0:
        return float("inf")
    return float(10.0 * np.log10(data_range**2 / mse))


def masked_ssim(
    pred: np.ndarray, target: np.ndarray, mask: np.ndarray, data_range: float = DATA_RANGE, win_size: int = 7
) -> float:
    """Mean of scikit-image's SSIM map over the masked pixels; NaN for an empty mask.

    The SSIM map is computed on the whole image (so windows at the mask border
    see real context) with ``channel_axis=2``, then averaged over the mask.
    Images smaller than the window use the largest odd window that fits.
    """
    pred, target = as_rgb(pred), as_rgb(target)
    if pred.shape != target.shape:
        raise ValueError(f"shapes differ: {pred.shape} vs {target.shape}")
    m = check_mask(mask, target)
    if not m.any():
        return float("nan")
    side = min(target.shape[:2])
    win = min(win_size, side if side % 2 else side - 1)
    if win < 3:
        raise ValueError(f"image {target.shape[:2]} too small for SSIM")
    _, smap = structural_similarity(
        target, pred, data_range=data_range, channel_axis=2, win_size=win, full=True
    )
    return float(np.mean(smap.mean(axis=2)[m]))
