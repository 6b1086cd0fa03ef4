"""gskip / prism / prism_flat as sanitizer conditions."""

import numpy as np
import pytest

from clinx.errors import CheckpointError
from clinx.restore.condition import GSkipCondition, PrismCondition, PrismFlatCondition
from clinx.sanitize.conditions import Condition, get_condition


@pytest.fixture(scope="module")
def conditions(tiny_checkpoints):
    return {
        "gskip": get_condition("gskip", checkpoint=tiny_checkpoints["gskip"]),
        "prism": get_condition("prism", checkpoint=tiny_checkpoints["prism"]),
        "prism_flat": get_condition("prism_flat", checkpoint=tiny_checkpoints["prism"]),
    }


def test_registry_builds_the_restoration_classes(conditions):
    assert isinstance(conditions["gskip"], GSkipCondition) and isinstance(conditions["gskip"], Condition)
    assert isinstance(conditions["prism"], PrismCondition)
    assert isinstance(conditions["prism_flat"], PrismFlatCondition)
    assert {n: c.name for n, c in conditions.items()} == {n: n for n in conditions}


@pytest.mark.parametrize("name", ["gskip", "prism", "prism_flat"])
def test_outside_mask_pixels_unchanged(conditions, make_image, name):
    img, mask = make_image(120, 200, [(10, 10, 90, 30), (120, 90, 190, 110)], seed=2)
    before = img.copy()
    out = conditions[name].apply(img, mask, seed=5)
    assert out.dtype == np.uint8 and out.shape == img.shape
    assert np.array_equal(out[~mask], img[~mask])
    assert not np.array_equal(out[mask], img[mask])  # the text really was replaced
    assert np.array_equal(img, before)  # input not modified


def test_prism_is_seeded_and_differs_from_flat(conditions, make_image):
    img, mask = make_image(96, 96, [(8, 30, 88, 60)], seed=3)
    p = conditions["prism"]
    a, b, c = p.apply(img, mask, seed=1), p.apply(img, mask, seed=1), p.apply(img, mask, seed=2)
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    flat = conditions["prism_flat"].apply(img, mask, seed=1)
    assert not np.array_equal(a[mask], flat[mask])
    f2 = conditions["prism_flat"].apply(img, mask, seed=99)
    assert np.array_equal(flat, f2)  # no stochastic part without post-processing


def test_batch_equals_single_and_handles_mixed_sizes(conditions, make_image):
    items = [make_image(64, 96, [(5, 5, 60, 20)], seed=4), make_image(80, 80, [(30, 40, 70, 60)], seed=5)]
    empty = (items[0][0], np.zeros(items[0][1].shape, bool))
    imgs, masks = zip(*(items + [empty]))
    for name in ("gskip", "prism"):
        cond = conditions[name]
        batch = cond.apply_batch(list(imgs), list(masks), [11, 12, 13])
        for i, (im, m) in enumerate(zip(imgs, masks)):
            assert np.array_equal(batch[i], cond.apply(im, m, seed=11 + i))
        assert np.array_equal(batch[2], empty[0])  # empty mask: unchanged


def test_wrong_or_missing_checkpoint_is_an_error(tiny_checkpoints, tmp_path):
    with pytest.raises(CheckpointError):
        get_condition("gskip", checkpoint=tiny_checkpoints["prism"])
    with pytest.raises(CheckpointError, match="not found"):
        get_condition("prism", checkpoint=tmp_path / "missing.pt")


def test_fingerprint_names_checkpoint_and_postprocessing(conditions):
    assert "post_jpeg_quality=92" in conditions["prism"].fingerprint()
    assert "post_" not in conditions["prism_flat"].fingerprint()
    assert conditions["prism"].params()["checkpoint"] == conditions["prism_flat"].params()["checkpoint"]


def test_paper_scope_prism_passes_the_sanitizer_outside_check(tiny_checkpoints, make_image):
    """scope=paper perturbs past the mask by design: the condition says so and the core does not quarantine it."""
    from clinx.sanitize.core import FrameJob, sanitize_batch

    paper = get_condition("prism", checkpoint=tiny_checkpoints["prism"], post={"scope": "paper"})
    assert not paper.keeps_outside_mask and "post_scope=paper" in paper.fingerprint()
    img, mask = make_image(96, 96, [(8, 30, 88, 60)], seed=3)
    out = paper.apply(img, mask, seed=1)
    assert not np.array_equal(out[~mask], img[~mask])
    job = FrameJob(frames=[img], manifest=None, item="scan-1", masks=[mask])
    res = sanitize_batch([job], paper, None, seed=0)[0]
    assert res.released and not res.failed
    mask_scope = get_condition("prism", checkpoint=tiny_checkpoints["prism"])
    assert mask_scope.keeps_outside_mask
