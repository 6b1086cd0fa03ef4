"""Cuts inside one OCR word snap to the ink gap: a glued label keeps its glyphs, the value is covered whole."""

import numpy as np
import pytest
from PIL import Image, ImageDraw

from clinx.data.render import get_font
from clinx.localize import PhiLocalizer
from clinx.localize import localizer as localizer_module
from clinx.localize.glyphs import glyph_runs, snap_cuts
from clinx.localize.match import Match
from clinx.records import Detection, Manifest


def glued(label: str, value: str, font: str = "sans", size: int = 22, light_on_dark: bool = True):
    """An image with ``label`` and ``value`` drawn as one word, the ink of each, and the word's OCR detection."""
    fnt = get_font(font, size)
    bg, fg = (10, 245) if light_on_dark else (235, 20)
    parts = {}
    for name, text, x in (("label", label, 20), ("value", value, 20 + fnt.getlength(label))):
        im = Image.new("L", (400, 60), 0)
        ImageDraw.Draw(im).text((x, 15), text, font=fnt, fill=255)
        parts[name] = np.asarray(im) > 96
    ink = parts["label"] | parts["value"]
    img = np.full((60, 400), bg, np.uint8)
    img[ink] = fg
    ys, xs = np.nonzero(ink)
    det = Detection(label + value, (float(xs.min()), float(ys.min() - 2), float(xs.max() + 1), float(ys.max() + 3)), 0.99, None, "fixed", "word")
    return np.stack([img] * 3, -1), parts["label"], parts["value"], det


@pytest.mark.parametrize("font", ["sans", "serif", "mono"])
@pytest.mark.parametrize("light_on_dark", [True, False])
def test_glued_label_keeps_its_ink_and_the_value_is_covered(font, light_on_dark, fixed_engine):
    img, label_ink, value_ink, det = glued("DOB:", "08.19.2007", font, light_on_dark=light_on_dark)
    loc = PhiLocalizer(fixed_engine([det]), mode="manifest")
    mask = loc.locate(img, Manifest({"PatientBirthDate": "20070819"})).mask.astype(bool)
    assert mask[value_ink].all()
    assert not mask[label_ink].any()


def test_without_snapping_the_label_is_clipped(monkeypatch, fixed_engine):
    """The case the module exists for: the width estimate's slack lands on the label's colon."""
    img, label_ink, value_ink, det = glued("DOB:", "08.19.2007")
    monkeypatch.setattr(localizer_module, "snap_cuts", lambda image, matches: list(matches))
    mask = PhiLocalizer(fixed_engine([det]), mode="manifest").locate(img, Manifest({"PatientBirthDate": "20070819"})).mask.astype(bool)
    assert mask[value_ink].all()
    assert mask[label_ink].any()


def test_glyph_runs_one_per_glyph_in_either_polarity():
    for light in (True, False):
        img, _, _, det = glued("ID:", "1254", "mono", light_on_dark=light)
        x0, y0, x1, y1 = (int(v) for v in det.box)
        assert len(glyph_runs(img[y0:y1, x0:x1, 0])) == 7


def test_flat_or_tiny_crops_give_no_runs():
    assert glyph_runs(np.full((20, 50), 128, np.uint8)) == []
    assert glyph_runs(np.zeros((2, 2), np.uint8)) == []


def _cut(box, g0, g1, n, est_x0):
    return Match(0, "PatientID", 100.0, "ratio", (est_x0, box[1], box[2], box[3]), None, (est_x0, float("inf")), (box, g0, g1, n))


def test_cut_far_from_any_gap_is_left_alone():
    """Texture behind the text: the runs are not glyphs, so the estimate stands."""
    rng = np.random.default_rng(0)
    noise = (rng.random((30, 120)) * 255).astype(np.uint8)
    m = _cut((0.0, 0.0, 120.0, 30.0), 3, 10, 10, 33.0)
    assert snap_cuts(noise, [m])[0] == m


def test_whole_word_matches_are_untouched():
    img, _, _, det = glued("DOB:", "08.19.2007")
    whole = Match(0, "PatientBirthDate", 100.0, "exact", det.box)
    assert snap_cuts(img, [whole]) == [whole]


def test_merged_value_glyphs_still_snap_from_the_label_side():
    """Serifs that touch in the value: the count from the label's end finds the wide gap after the colon."""
    img, label_ink, value_ink, det = glued("Acc:", "19044051", "serif", size=16)
    x0, y0, x1, y1 = det.box
    # the value's glyphs run together as one blob of ink
    value_cols = np.nonzero(value_ink.any(0))[0]
    img[int(y0) + 8, value_cols.min():value_cols.max() + 1] = img[value_ink][0]
    n = len("Acc:19044051")
    est = x0 + (x1 - x0) * 3.5 / n  # half a glyph into the label, as the width estimate's slack puts it
    snapped = snap_cuts(img, [_cut(det.box, 4, n, n, est)])[0]
    label_right = np.nonzero(label_ink.any(0))[0].max()
    assert label_right < snapped.box[0] <= value_cols.min()
    assert snapped.limits[0] == snapped.box[0]
