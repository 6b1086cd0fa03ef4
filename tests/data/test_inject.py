"""Synthetic PHI injection: manifests, pixel-exact masks, non-PHI text, question templates, real OCR."""

import re

import numpy as np
import pytest

from clinx.data.builtin import make_base
from clinx.data.fakephi import GENERATED_FIELDS, make_manifest
from clinx.data.inject import (
    QUESTION_TEMPLATES,
    inject_image,
    inject_question,
    inject_question_detailed,
)
from clinx.records import Manifest


def _changed(a, b):
    return (a != b).any(axis=2)


def _box_mask(shape, boxes):
    m = np.zeros(shape, bool)
    for x0, y0, x1, y1 in boxes:
        m[y0:y1, x0:x1] = True
    return m


@pytest.fixture(scope="module")
def cases():
    """Injected images over several bases, sizes and seeds (built once for the module)."""
    out = []
    for i, size in enumerate([512, 512, 384, 224, 224, 160, 512, 300]):
        base = make_base("test", i, 5, size).image
        m = make_manifest(100 + i)
        out.append((base, m, inject_image(base, m, 200 + i)))
    return out


def test_manifest_is_complete_deterministic_and_realistic():
    a, b, c = make_manifest(1), make_manifest(1), make_manifest(2)
    assert a == b and a != c
    assert set(GENERATED_FIELDS) <= set(a.fields)
    assert re.fullmatch(r"\d{8}", a.fields["mrn"])
    assert re.fullmatch(r"ACC\d{4}-\d{6}", a.fields["accession"])
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", a.fields["birth_date"])
    assert "@" in a.fields["email"]
    dob = a.renderings["birth_date"]
    y, mo, d = a.fields["birth_date"].split("-")
    assert f"{mo}/{d}/{y}" in dob and f"{d}.{mo}.{y}" in dob and any(re.fullmatch(r"\d{2}-[A-Z][a-z]{2}-\d{4}", r) for r in dob)
    assert any("^" in r for r in a.renderings["patient_name"])  # DICOM PN style
    # The log-safe summary holds lengths only.
    assert set(a.describe().values()) <= set(range(200))
    assert not any(v in str(a.describe()) for v in a.fields.values())


def test_true_mask_is_pixel_exact(cases):
    for base, manifest, inj in cases:
        assert inj.image.shape == base.shape and inj.image.dtype == np.uint8
        assert inj.mask.dtype == bool and inj.mask.shape == base.shape[:2]
        changed = _changed(inj.image, base)
        assert inj.mask.any() and inj.mask.sum() < 0.25 * inj.mask.size
        assert not (inj.mask & ~changed).any(), "mask pixels must all be changed"
        assert not (inj.mask & inj.nonphi_mask).any()
        explained = inj.mask | inj.nonphi_mask | _box_mask(inj.mask.shape, inj.backings)
        assert not (changed & ~explained).any(), "every change is PHI, kept text or a backing box"
        # The mask is glyphs, not boxes: well under the area of the drawn boxes.
        boxes = _box_mask(inj.mask.shape, [d.box for d in inj.drawn])
        assert not (inj.mask & ~boxes).any()
        assert inj.mask.sum() < 0.8 * boxes.sum()


def test_labels_and_markers_are_outside_the_mask(cases):
    kinds = set()
    for _, _, inj in cases:
        for t in inj.nonphi_texts:
            kinds.add(t.kind)
            x0, y0, x1, y1 = t.box
            assert not inj.mask[y0:y1, x0:x1].any(), f"{t.kind} box overlaps the PHI mask"
            assert inj.nonphi_mask[y0:y1, x0:x1].any()
        # Non-PHI elements never overlap PHI values.
        for t in inj.nonphi_texts:
            for d in inj.drawn:
                a, b = t.box, d.box
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert {"label", "marker"} <= kinds


def test_drawn_values_are_exact_manifest_renderings(cases):
    for _, manifest, inj in cases:
        assert len(inj.drawn) >= 2
        for d in inj.drawn:
            assert d.text in manifest.values_for(d.field)
            x0, y0, x1, y1 = d.box
            assert inj.mask[y0:y1, x0:x1].any()
            # Tight: the box's border rows / columns touch glyph coverage.
            sub = inj.mask[y0:y1, x0:x1]
            assert sub[:, 0].any() or sub[:, 1].any()
            assert sub[0].any() or sub[1].any()
            assert 1 <= len(d.word_boxes) <= len(d.text.split())


def test_injection_is_deterministic_and_leaves_the_input_alone():
    base = make_base("test", 0, 0, 256).image
    before = base.copy()
    m = make_manifest(5)
    a, b = inject_image(base, m, 9), inject_image(base, m, 9)
    assert np.array_equal(base, before)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.mask, b.mask)
    c = inject_image(base, m, 10)
    assert not np.array_equal(a.image, c.image)


def test_style_varies_across_samples():
    base = make_base("test", 1, 0, 512).image
    styles = [inject_image(base, make_manifest(i), i).style for i in range(40)]
    assert len({f for s in styles for f in s["fonts"]}) >= 4
    assert len({sl for s in styles for sl in s["slots"]}) >= 5
    assert any(s["backing"] for s in styles) and not all(s["backing"] for s in styles)
    assert any(len(s["slots"]) > 1 for s in styles)


def test_empty_manifest_draws_no_phi():
    base = make_base("test", 2, 0, 128).image
    inj = inject_image(base, Manifest(), 0)
    assert not inj.mask.any() and inj.drawn == []


@pytest.mark.parametrize("tid,position,template", QUESTION_TEMPLATES)
def test_every_question_template_keeps_the_question_and_the_values(tid, position, template):
    m = make_manifest(7)
    q = "Is there a lesion in the left half of the image?"
    for k in range(60):
        iq = inject_question_detailed(q, m, k)
        if iq.template == tid:
            break
    else:
        pytest.fail(f"template {tid} never drawn")
    assert iq.position == position
    assert q[:-1] in iq.text
    if position == "before":
        assert iq.text.endswith(q)
    elif position == "after":
        assert iq.text.startswith(q)
    else:
        assert iq.text.endswith("?") and not iq.text.startswith(q) and not iq.text.endswith(q)
    assert iq.fields
    for f in iq.fields:
        assert any(v in iq.text for v in m.values_for(f)), f"{f} value missing"


def test_question_positions_all_occur_and_plain_api_returns_text():
    m = make_manifest(8)
    pos = {inject_question_detailed("What imaging modality is shown?", m, k).position for k in range(40)}
    assert pos == {"before", "after", "inside"}
    assert isinstance(inject_question("Is this a CT scan?", m, 1), str)
    assert inject_question("Is this a CT scan?", Manifest(), 1) == "Is this a CT scan?"


@pytest.fixture(scope="module")
def rapidocr():
    from rapidocr import RapidOCR

    return RapidOCR()


def _tokens(text):
    return set(re.findall(r"[a-z0-9]{2,}", text.lower()))


@pytest.mark.slow
def test_rapidocr_reads_injected_phi_at_512(rapidocr):
    """The attack must be real: RapidOCR recovers PHI tokens from a raw injected image."""
    base = make_base("test", 3, 0, 512).image
    inj = inject_image(base, make_manifest(11), 12)
    res = rapidocr(inj.image)
    read = _tokens(" ".join(res.txts or ()))
    truth = set().union(*(_tokens(d.text) for d in inj.drawn))
    recall = len(truth & read) / len(truth)
    assert recall >= 0.3, f"token recall {recall:.2f}"


def test_paper_b1_preset_draws_the_four_identifier_types_in_one_fixed_region():
    from clinx.data.inject import PAPER_B1_FIELDS

    base = make_base("test", 2, 0, 512).image
    runs = [inject_image(base, make_manifest(i), 50 + i, preset="paper_b1") for i in range(6)]
    for inj in runs:
        assert inj.fields == list(PAPER_B1_FIELDS)  # all four, nothing else, in order
        assert inj.nonphi_texts == [] and not inj.nonphi_mask.any()  # no labels, markers or scale bar
        assert inj.style["preset"] == "paper_b1" and inj.style["slots"] == ["tl"]
        assert inj.style["resolution"] == [512, 512]
        ys, xs = np.nonzero(inj.mask)
        assert xs.max() < 256 and ys.max() < 256  # the predefined top-left region
    # Predefined: the same region whatever the identity (only the strings differ).
    # (the tight box of the first glyph moves by its side bearing, a few pixels)
    xs0 = [inj.drawn[0].box[0] for inj in runs]
    ys0 = {inj.drawn[0].box[1] for inj in runs}
    assert max(xs0) - min(xs0) <= 4 and len(ys0) == 1
    with pytest.raises(ValueError, match="preset"):
        inject_image(base, make_manifest(1), 1, preset="random")


def test_background_keeps_backing_boxes_and_drops_all_text(cases):
    """The restoration target: x̃ without text; under a backing box it is the box, not the hidden scan."""
    boxed = 0
    for base, _, inj in cases:
        bg = inj.background
        assert bg.shape == base.shape and bg.dtype == np.uint8
        text = inj.mask | inj.nonphi_mask
        # outside the text, the background is what was released (a handful of drawn pixels
        # that no mask claims, e.g. a scale-bar tick, are the only exceptions)
        assert _changed(bg, inj.image)[~text].sum() <= 5
        # no text survives: inside the PHI mask the background differs from x̃ (a few faint
        # anti-aliased edge pixels on a backing box round to the box colour itself)
        assert _changed(bg, inj.image)[inj.mask].mean() > 0.97
        in_box = _box_mask(base.shape[:2], [(x0, y0, x1, y1) for x0, y0, x1, y1 in inj.backings])
        free = ~in_box
        assert np.array_equal(bg[free], base[free])  # away from boxes it is the clean scan
        if (inj.mask & in_box).any():
            boxed += 1
            # under a box the target is dark like the box, not the scan beneath it
            assert bg[inj.mask & in_box].mean() < 40
            assert not np.array_equal(bg[inj.mask & in_box], base[inj.mask & in_box])
    assert boxed >= 1  # the fixture draws at least one backing box
