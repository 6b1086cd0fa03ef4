"""The restoration benchmark's statistics and its strict split (scripts/bench_restore.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import bench_restore  # noqa: E402

from clinx.records import Sample  # noqa: E402


def test_standard_error_ignores_nan_and_matches_formula():
    v = [1.0, 2.0, 4.0, float("nan")]
    expected = np.std([1.0, 2.0, 4.0], ddof=1) / np.sqrt(3)
    assert bench_restore.standard_error(v) == pytest.approx(expected)
    assert np.isnan(bench_restore.standard_error([3.0]))


def test_paired_vs_is_image_by_image():
    per = {"a": {"psnr": [30.0, 20.0, 25.0, float("inf")]}, "b": {"psnr": [29.0, 22.0, 24.0, 10.0]}}
    per["a"]["psnr"][3] = float("nan")  # an empty mask is dropped from both sides
    wins, diff, se, median = bench_restore.paired_vs(per, "a", "b")
    d = np.array([1.0, -2.0, 1.0])
    assert wins == pytest.approx(2 / 3)
    assert diff == pytest.approx(d.mean())
    assert se == pytest.approx(d.std(ddof=1) / np.sqrt(3))
    assert median == pytest.approx(1.0)


def _sample(i: int) -> Sample:
    rng = np.random.default_rng(i)
    yy, xx = np.mgrid[0:96, 0:96]
    clean = np.repeat(((xx + yy) * 1.2 + rng.normal(0, 2, (96, 96))).clip(0, 255).astype(np.uint8)[..., None], 3, 2)
    image = clean.copy()
    cv2.putText(image, "AB12", (10, 50), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    mask = np.any(image != clean, axis=2)
    return Sample(id=f"s{i}", image=image, mask=mask, clean_image=clean)


def test_quality_reports_se_and_paired_figures_per_mask_family():
    samples = [_sample(i) for i in range(3)]
    methods = {"telea": bench_restore.OpenCVInpaint(cv2.INPAINT_TELEA, 5), "gskip": bench_restore.OpenCVInpaint(cv2.INPAINT_NS, 5)}
    figures, per_image = bench_restore.quality(samples, methods, dilation=1, mask_mode="boxes", suffix="_boxes")
    assert set(per_image) == {"telea", "gskip"} and len(per_image["telea"]["psnr"]) == 3
    for fam in ("psnr_mask", "psnr_mask_se", "ssim_mask", "ms_per_image"):
        assert f"{fam}_boxes/telea" in figures
    wins, diff, se, median = bench_restore.paired_vs(per_image, "gskip", "telea")
    assert figures["psnr_diff_vs_telea_boxes/gskip"] == pytest.approx(diff, abs=1e-4)
    assert figures["win_rate_vs_telea_boxes/gskip"] == pytest.approx(wins, abs=1e-4)
    assert "win_rate_vs_telea_boxes/telea" not in figures  # telea against itself is not a figure
    # both fills beat leaving the text: the PSNR is finite and well above the overlaid image's
    from clinx.metrics.image_quality import masked_psnr
    from clinx.restore.datamodule import training_mask

    raw = np.mean([masked_psnr(s.image, s.clean_image, training_mask(s.mask, "boxes", 1)) for s in samples])
    assert figures["psnr_mask_boxes/telea"] > raw + 3


def test_native_split_refuses_a_base_seen_in_training(monkeypatch):
    import clinx.data.native as native

    monkeypatch.setattr(native, "build_native", lambda n, seed: [native.build_native_item(0, seed)])
    assert len(bench_restore.held_out_samples("native", 1, 0, 512)) == 1
    monkeypatch.setattr(native, "is_held_out", lambda base_id: False)
    with pytest.raises(SystemExit, match="share a base scan"):
        bench_restore.held_out_samples("native", 1, 0, 512)
