"""Conditions registry and the composite rule (pixels outside the mask are untouched)."""

import numpy as np
import pytest

from clinx.sanitize.conditions import (
    CONDITIONS,
    BlackFillCondition,
    Condition,
    RawCondition,
    composite,
    get_condition,
    outside_mask_changed,
)


@pytest.fixture
def image_and_mask():
    rng = np.random.default_rng(1)
    img = rng.integers(0, 256, size=(40, 56, 3), dtype=np.uint8)
    mask = np.zeros((40, 56), bool)
    mask[5:12, 3:30] = True
    mask[30:38, 40:55] = True
    return img, mask


def test_registry_has_foundation_and_lazy_restoration_names():
    assert {"raw", "ocr", "gskip", "prism", "prism_flat"} <= set(CONDITIONS.names())


def test_unknown_condition_lists_known_names():
    with pytest.raises(KeyError, match="known: .*ocr"):
        get_condition("blur9000")


@pytest.mark.parametrize("name", ["raw", "ocr"])
def test_outside_mask_bit_identical(name, image_and_mask):
    img, mask = image_and_mask
    before = img.copy()
    out = get_condition(name).apply(img, mask, seed=3)
    assert out.dtype == np.uint8 and out.shape == img.shape
    assert np.array_equal(out[~mask], img[~mask])
    assert outside_mask_changed(img, mask, out) == 0
    assert np.array_equal(img, before), "input must not be modified in place"
    assert out is not img


def test_raw_is_identity_copy(image_and_mask):
    img, mask = image_and_mask
    out = RawCondition().apply(img, mask)
    assert np.array_equal(out, img)
    assert RawCondition.needs_mask is False


def test_blackout_fills_mask_black_and_ocr_is_its_alias(image_and_mask):
    img, mask = image_and_mask
    out = get_condition("blackout").apply(img, mask)
    assert (out[mask] == 0).all() and (out[~mask] == img[~mask]).all()
    alias = get_condition("ocr")
    assert alias.name == "blackout" and alias.fingerprint() == get_condition("blackout").fingerprint()
    assert np.array_equal(alias.apply(img, mask), out)


def test_condition_configs_blackout_and_its_ocr_alias_compose_to_the_same_node():
    from clinx.config import compose

    nodes = [compose("sanitize", [f"condition={n}"]).condition for n in ("blackout", "ocr")]
    assert nodes[0] == nodes[1] and nodes[0].name == "blackout"


def test_ocr_custom_fill_and_bad_fill(image_and_mask):
    img, mask = image_and_mask
    out = BlackFillCondition(fill=(10, 20, 30)).apply(img, mask)
    assert (out[mask] == [10, 20, 30]).all()
    with pytest.raises(ValueError):
        BlackFillCondition(fill=300)


def test_mask_shape_mismatch_is_an_error(image_and_mask):
    img, _ = image_and_mask
    with pytest.raises(ValueError, match="mask shape"):
        get_condition("ocr").apply(img, np.zeros((3, 3), bool))


def test_apply_batch_matches_apply_and_checks_lengths(image_and_mask):
    img, mask = image_and_mask
    small = img[:20, :20].copy()
    cond = get_condition("ocr")
    outs = cond.apply_batch([img, small], [mask, mask[:20, :20]], [0, 1])
    assert np.array_equal(outs[0], cond.apply(img, mask))
    assert np.array_equal(outs[1], cond.apply(small, mask[:20, :20]))
    with pytest.raises(ValueError):
        cond.apply_batch([img], [mask, mask])


def test_composite_helper(image_and_mask):
    img, mask = image_and_mask
    pred = np.full_like(img, 128)
    out = composite(img, mask, pred)
    assert (out[mask] == 128).all() and np.array_equal(out[~mask], img[~mask])


def test_outside_mask_changed_counts_violations(image_and_mask):
    img, mask = image_and_mask
    bad = img.copy()
    bad[0, 0] = 255 - bad[0, 0]
    bad[39, 55] = 255 - bad[39, 55]
    assert outside_mask_changed(img, mask, bad) == 2


def test_fingerprint_changes_with_params():
    assert BlackFillCondition(0).fingerprint() != BlackFillCondition(255).fingerprint()


def test_custom_condition_plugs_in():
    class Invert(Condition):
        name = "invert_test"

        def apply(self, image, mask, *, seed=0):
            return composite(image, mask, 255 - image)

    img = np.zeros((8, 8, 3), np.uint8)
    m = np.zeros((8, 8), bool)
    m[2:4, 2:4] = True
    out = Invert().apply(img, m)
    assert out[m].min() == 255 and out[~m].max() == 0


def test_importing_the_sanitizer_does_not_import_torch():
    import subprocess
    import sys

    code = "import sys, clinx.sanitize.conditions, clinx.sanitize.runner; print('torch' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr[-500:]
