"""Masked PSNR / SSIM on hand-made images."""

import numpy as np
import pytest

from clinx.metrics.image_quality import masked_mse, masked_psnr, masked_ssim


@pytest.fixture
def pair():
    rng = np.random.default_rng(0)
    target = rng.integers(0, 256, size=(32, 32, 3), dtype=np.uint8)
    mask = np.zeros((32, 32), bool)
    mask[8:20, 8:24] = True
    return target, mask


def test_identical_inside_mask_is_perfect(pair):
    target, mask = pair
    pred = target.copy()
    pred[~mask] = 0  # differences outside the mask must not count
    assert masked_psnr(pred, target, mask) == float("inf")
    assert masked_ssim(pred, target, mask) > 0.5
    assert masked_mse(pred, target, mask) == 0


def test_known_error_gives_known_psnr(pair):
    target, mask = pair
    pred = target.astype(np.int16)
    pred[mask] = np.clip(pred[mask] + 10, 0, 255)
    pred = pred.astype(np.uint8)
    # clipping makes the exact MSE slightly below 100; check against the definition
    mse = masked_mse(pred, target, mask)
    assert masked_psnr(pred, target, mask) == pytest.approx(10 * np.log10(255**2 / mse))
    assert 25 < masked_psnr(pred, target, mask) < 30


def test_worse_restoration_scores_lower(pair):
    target, mask = pair
    good = target.copy()
    good[mask] = np.clip(target[mask].astype(int) + 3, 0, 255).astype(np.uint8)
    bad = target.copy()
    bad[mask] = 0
    assert masked_psnr(good, target, mask) > masked_psnr(bad, target, mask)
    assert masked_ssim(good, target, mask) > masked_ssim(bad, target, mask)


def test_empty_mask_is_nan_and_shapes_checked(pair):
    target, _ = pair
    empty = np.zeros(target.shape[:2], bool)
    assert np.isnan(masked_psnr(target, target, empty))
    assert np.isnan(masked_ssim(target, target, empty))
    with pytest.raises(ValueError):
        masked_psnr(target[:8], target, empty)
