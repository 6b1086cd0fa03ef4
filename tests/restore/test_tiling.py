"""Large images are restored window by window and pasted back at native resolution."""

import numpy as np

from clinx.restore.tiling import mask_groups, plan_windows, restore_tiled


def _two_far_components(h=700, w=1300):
    mask = np.zeros((h, w), bool)
    mask[40:60, 50:260] = True      # top-left label
    mask[620:650, 1000:1250] = True  # bottom-right label, far away
    img = np.random.default_rng(0).integers(0, 256, (h, w, 3), dtype=np.uint8)
    return img, mask


def test_far_components_get_separate_native_windows():
    img, mask = _two_far_components()
    calls = []

    def run(crops, masks):
        calls.append([c.shape for c in crops])
        for c, m in zip(crops, masks):
            assert c.shape[:2] == m.shape
        # Paint the masked pixels a constant so we can see exactly what was pasted.
        return [np.where(m[..., None], np.uint8(7), c) for c, m in zip(crops, masks)]

    out = restore_tiled([img], [mask], run, resolution=128, context=16, merge_gap=24)[0]
    shapes = [s for call in calls for s in call]
    assert len(shapes) == 2  # one window per component, not the whole image
    for s in shapes:
        assert 128 <= s[0] < 700 and 128 <= s[1] < 1300 and s[0] % 8 == 0 and s[1] % 8 == 0
    assert out.shape == img.shape  # native resolution, not squashed
    assert np.all(out[mask] == 7)  # every masked pixel restored exactly (no resampling)
    assert np.array_equal(out[~mask], img[~mask])  # nothing outside the mask changed


def test_close_components_are_merged():
    mask = np.zeros((200, 300), bool)
    mask[50:60, 20:60] = True
    mask[50:60, 70:120] = True  # 10 px gap: same label line
    mask[150:160, 200:260] = True
    _, n = mask_groups(mask, merge_gap=24)
    assert n == 2


def test_oversized_group_is_downscaled_and_pasted_back():
    img = np.full((600, 900, 3), 100, np.uint8)
    mask = np.zeros((600, 900), bool)
    mask[100:130, 50:850] = True  # a line longer than max_side
    seen = []

    def run(crops, masks):
        seen.extend(c.shape for c in crops)
        return [np.where(m[..., None], np.uint8(200), c) for c, m in zip(crops, masks)]

    out = restore_tiled([img], [mask], run, resolution=64, context=8, max_side=256)[0]
    assert max(seen[0][:2]) <= 256
    assert out.shape == img.shape
    assert np.array_equal(out[~mask], img[~mask])
    assert np.median(out[mask]) >= 190  # restored values came back through the upscale


def test_small_image_window_is_padded_to_the_network_multiple():
    mask = np.zeros((50, 70), bool)
    mask[10:20, 10:40] = True
    (win,) = plan_windows(0, mask, resolution=64, context=8, merge_gap=8, max_side=128, multiple=8)
    assert (win.y1 - win.y0, win.x1 - win.x0) == (50, 64)  # clipped to the image height, padded for the net
    assert win.out_h % 8 == 0 and win.out_w % 8 == 0 and not win.scaled


def test_empty_masks_are_returned_untouched():
    img = np.zeros((40, 40, 3), np.uint8)
    out = restore_tiled([img], [np.zeros((40, 40), bool)], lambda c, m: 1 / 0, resolution=32)
    assert np.array_equal(out[0], img)
