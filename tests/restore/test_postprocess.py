"""Table 4 post-processing: seeded, mask-confined."""

import numpy as np

from clinx.restore.postprocess import PostProcessConfig, feathered_mask, postprocess


def _case(make_image):
    img, mask = make_image(96, 128, [(10, 20, 90, 50)], seed=1)
    restored = img.copy()
    restored[mask] = 120
    return img, mask, restored


def test_same_seed_same_output(make_image, make_generator):
    img, mask, restored = _case(make_image)
    a = postprocess(restored, img, mask, seed=7)
    b = postprocess(restored, img, mask, seed=7)
    assert np.array_equal(a, b)


def test_different_seed_different_output(make_image, make_generator):
    img, mask, restored = _case(make_image)
    assert not np.array_equal(postprocess(restored, img, mask, seed=1), postprocess(restored, img, mask, seed=2))


def test_outside_mask_unchanged_and_inside_perturbed(make_image, make_generator):
    img, mask, restored = _case(make_image)
    out = postprocess(restored, img, mask, seed=3)
    assert np.array_equal(out[~mask], img[~mask])
    assert np.abs(out[mask].astype(int) - restored[mask].astype(int)).mean() > 0.5


def test_feather_is_zero_at_the_border_and_ramps_inside(make_image, make_generator):
    mask = np.zeros((60, 60), bool)
    mask[10:50, 10:50] = True
    mf = feathered_mask(mask, 10.0, 8)
    assert mf[~mask].max() == 0
    assert mf[10, 30] < mf[18, 30] <= mf[30, 30]  # edge band ramp
    assert 0 < mf[30, 30] <= 1


def test_disabled_steps_give_the_restored_pixels(make_image, make_generator):
    img, mask, restored = _case(make_image)
    cfg = PostProcessConfig(grain=0.0, jitter_std=0.0, blur_sigma=0.0, jpeg_quality=100)
    assert np.array_equal(postprocess(restored, img, mask, seed=0, cfg=cfg)[mask], restored[mask])


def test_empty_mask_returns_the_input(make_image, make_generator):
    img, mask, restored = _case(make_image)
    empty = np.zeros_like(mask)
    assert np.array_equal(postprocess(restored, img, empty, seed=0), img)


def test_paper_scope_reaches_past_the_mask_and_stays_seeded(make_image, make_generator):
    img, mask, restored = _case(make_image)
    cfg = PostProcessConfig(scope="paper")
    a = postprocess(restored, img, mask, seed=5, cfg=cfg)
    assert np.array_equal(a, postprocess(restored, img, mask, seed=5, cfg=cfg))
    # The feathered mask spills past the border and JPEG touches every block:
    # pixels next to the mask change, which scope=mask never allows.
    ring = np.zeros_like(mask)
    ring[8:19, 18:93] = True
    ring &= ~mask
    assert np.abs(a[ring].astype(int) - img[ring].astype(int)).mean() > 0.5
    assert not cfg.keeps_outside_mask and PostProcessConfig().keeps_outside_mask


def test_unknown_scope_is_refused():
    import pytest

    with pytest.raises(ValueError, match="scope"):
        PostProcessConfig(scope="everywhere")
