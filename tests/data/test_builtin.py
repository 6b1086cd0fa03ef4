"""Built-in base data: real sources decode, bases are deterministic, splits disjoint, answers grounded."""

import cv2
import numpy as np
import pytest

from clinx.data.builtin import (
    REAL_SOURCES,
    SOURCES_BY_NAME,
    BaseSpec,
    augment_to_square,
    load_source,
    make_base,
    scan_id,
    training_scan_ids,
)
from clinx.data.phantoms import MAX_LESIONS, make_phantom
from clinx.data.questions import FAMILIES, MODALITY_PHRASES, applicable_families, make_question
from clinx.records import image_digest


@pytest.mark.parametrize("name", [s.name for s in REAL_SOURCES])
def test_every_real_source_decodes_offline(name):
    src = SOURCES_BY_NAME[name]
    frame = next(iter(src.frames["test"])) if src.frames else 0
    img = load_source(name, frame, max_side=256)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert max(img.shape[:2]) == 256 or max(img.shape[:2]) < 256
    assert min(img.shape[:2]) >= 48
    # Windowing produced a real picture, not a flat or saturated slab.
    assert img.std() > 15
    assert 0.01 < (img > 64).mean() < 0.99


def test_base_is_deterministic_and_square():
    a = make_base("test", 7, seed=3, size=96)
    b = make_base("test", 7, seed=3, size=96)
    assert a.image.shape == (96, 96, 3) and a.image.dtype == np.uint8
    assert np.array_equal(a.image, b.image) and a.facts == b.facts and a.source == b.source
    c = make_base("test", 7, seed=4, size=96)
    assert not np.array_equal(a.image, c.image)


def test_splits_never_share_an_augmented_array():
    """Array-level only: the same *scan* does recur across splits (next test), which is why the native split exists."""
    size = 64
    train = {image_digest(make_base("train", i, 0, size).image) for i in range(160)}
    val = {image_digest(make_base("val", i, 0, size).image) for i in range(60)}
    test = {image_digest(make_base("test", i, 0, size).image) for i in range(100)}
    assert len(test) == 100  # no repeats inside a split either
    assert not train & test and not val & test and not train & val


def test_base_scan_ids_show_what_the_test_split_shares_with_train():
    """Compare base-scan ids, not pixels: phantoms are split-disjoint, real scans are not (by design)."""
    def ids(split, n, spec=BaseSpec()):
        return {make_base(split, i, 0, 32, spec).detail["base_id"] for i in range(n)}

    train, test = ids("train", 300), ids("test", 120)
    assert all(i.startswith("phantom:train:") for i in train if i.startswith("phantom:"))
    shared = train & test
    assert shared and not any(i.startswith("phantom:") for i in shared)
    assert shared <= training_scan_ids()
    # Encodings of one scan share an id; the strict spec keeps only phantoms and the frame-split cine,
    # whose frames are still one exam: it is array-disjoint, not scan-disjoint.
    assert scan_id("RG1_J2KI.dcm") == scan_id("RG1_UNCR.dcm") == "pydicom:RG1"
    strict_shared = ids("test", 120, BaseSpec(strict=True)) & train
    assert strict_shared <= {scan_id("color3d_jpeg_baseline.dcm")}


def test_echo_cine_frames_are_split_disjoint():
    frames = {s: set(SOURCES_BY_NAME["echo_us"].frames[s]) for s in ("train", "val", "test")}
    assert not frames["train"] & frames["test"] and not frames["val"] & frames["test"]
    used = {make_base("test", i, 0, 32).detail["frame"] for i in range(200)
            if make_base("test", i, 0, 32).source == "echo_us"}
    assert used and used <= frames["test"]


def test_strict_spec_only_uses_split_disjoint_sources():
    sources = {make_base("test", i, 0, 32, BaseSpec(strict=True)).source for i in range(60)}
    assert sources <= {"phantom", "echo_us"} and "echo_us" in sources


def test_all_modalities_appear_in_a_benchmark_sized_test_split():
    mods = {make_base("test", i, 0, 32).facts["modality"] for i in range(300)}
    assert {"x-ray", "ct", "mri", "ultrasound", "fundus photograph", "phantom"} <= mods


def test_augmentation_with_zero_strength_is_a_plain_letterbox():
    img = np.full((40, 80, 3), 200, np.uint8)
    out, params = augment_to_square(img, np.random.default_rng(0), 64, strength=0.0)
    assert out.shape == (64, 64, 3)
    assert params["angle"] == 0 and params["zoom"] == 1.0
    assert out[32, 32].tolist() == [200, 200, 200] and out[2, 32].tolist() == [0, 0, 0]


def _bright_blobs(image):
    """Connected bright components (lesions are drawn ≥ 235, everything else ≤ 185)."""
    g = image[:, :, 0]
    n, labels, stats, cents = cv2.connectedComponentsWithStats((g > 215).astype(np.uint8))
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 20]
    return [tuple(cents[i]) for i in keep]


@pytest.mark.parametrize("seed", range(12))
def test_phantom_lesion_facts_match_the_pixels(seed):
    rng = np.random.default_rng(seed)
    n = seed % (MAX_LESIONS + 1)
    ph = make_phantom(rng, 256, n_lesions=n)
    blobs = _bright_blobs(ph.image)
    assert len(blobs) == n == ph.facts["lesion_count"]
    seen_sides = sorted("left" if x < 128 else "right" for x, _ in blobs)
    assert seen_sides == sorted(l.side for l in ph.lesions)
    assert ph.facts["lesion_left"] == ("left" in seen_sides)
    assert ph.facts["lesion_right"] == ("right" in seen_sides)


def test_phantom_questions_are_answered_from_what_was_drawn():
    for i in range(80):
        base = make_base("val", i, 1, 128, BaseSpec(phantom_share=1.0))
        for fam in applicable_families(base.facts):
            q = make_question(base.facts, np.random.default_rng(i), fam)
            blobs = _bright_blobs(base.image)
            if fam == "lesion_count":
                assert q.answer == str(len(blobs))
            if fam == "lesion_any":
                assert q.answer == ("yes" if blobs else "no")
            if fam == "lesion_side":
                side = "left" if "left half" in q.text else "right"
                has = any((x < 64) == (side == "left") for x, _ in blobs)
                assert q.answer == ("yes" if has else "no")


def test_closed_questions_are_yes_no_and_balanced():
    facts = {"modality": "ct", "region": "head", "plane": "axial"}
    rng = np.random.default_rng(0)
    answers = [make_question(facts, rng, "modality_closed") for _ in range(400)]
    yes = sum(a.answer == "yes" for a in answers)
    assert all(a.answer in ("yes", "no") and a.answer_type == "closed" for a in answers)
    assert 150 < yes < 250
    # "yes" only when the asked modality is the true one.
    assert all((a.answer == "yes") == (a.text == f"Is this {MODALITY_PHRASES['ct']}?") for a in answers)


def test_open_question_answers_come_from_the_facts():
    facts = {"modality": "x-ray", "region": "chest", "plane": "pa"}
    q = make_question(facts, np.random.default_rng(1), "region_open")
    assert q.answer == "chest" and q.answer_type == "open"
    assert "plane_open" not in applicable_families(facts)  # "pa" is a view, not an axial/coronal plane
    with pytest.raises(ValueError):
        make_question(facts, np.random.default_rng(1), "lesion_count")
    assert set(FAMILIES) >= set(applicable_families({"modality": "ct", "lesion_count": 1, "lesion_left": True, "lesion_right": False}))
