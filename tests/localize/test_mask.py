"""Rasterising boxes and polygons into PHI masks."""

import numpy as np
import pytest

from clinx.localize.mask import build_mask
from clinx.localize.match import Match
from clinx.records import Detection


def test_box_is_filled_exclusive_and_grown_by_dilation():
    m0 = build_mask((50, 60), [(10, 20, 20, 25)], dilation=0)
    assert m0.dtype == bool and m0.shape == (50, 60)
    assert m0.sum() == 10 * 5
    assert m0[20, 10] and m0[24, 19] and not m0[25, 20]
    m3 = build_mask((50, 60, 3), [(10, 20, 20, 25)], dilation=3)
    assert m3.sum() == 16 * 11
    assert m3[17, 7] and not m3[16, 7]


def test_relative_dilation_scales_with_text_height():
    small = build_mask((200, 200), [(50, 50, 100, 60)], dilation=1, relative_dilation=0.5)  # h=10 -> 5 px
    big = build_mask((200, 200), [(50, 100, 100, 140)], dilation=1, relative_dilation=0.5)  # h=40 -> 20 px
    assert small[45, 75] and not small[44, 75]
    assert big[80, 75] and not big[79, 75]


def test_polygon_is_filled_and_dilated():
    tri = [(10, 10), (40, 10), (10, 40)]
    m = build_mask((60, 60), [tri], dilation=0)
    assert m[12, 12] and not m[38, 38]
    md = build_mask((60, 60), [tri], dilation=2)
    assert md.sum() > m.sum() and md[8, 12] and not m[8, 12]


def test_clipping_and_degenerate_regions():
    m = build_mask((20, 20), [(-10, -10, 5, 5), (15, 15, 40, 40), (5, 5, 5, 9), (3, 3, 2, 2), []], dilation=0)
    assert m[:5, :5].all() and m[15:, 15:].all()
    assert m.sum() == 25 + 25
    assert build_mask((0, 0), [(0, 0, 1, 1)]).shape == (0, 0)


def test_match_and_detection_objects_use_polygon_when_present():
    poly = ((10.0, 10.0), (30.0, 12.0), (30.0, 22.0), (10.0, 20.0))
    d = Detection("x", (10, 10, 30, 22), 1.0, poly, "t", "word")
    m_box = Match(0, "mrn", 100.0, "ratio", (40, 40, 50, 50))
    mask = build_mask((64, 64), [d, m_box], dilation=0)
    assert mask[15, 20] and mask[45, 45]
    assert not mask[11, 29]  # outside the slanted polygon's top edge, inside its box


@pytest.mark.parametrize("dil", [0, 2, 5])
def test_mask_is_monotone_in_dilation(dil):
    regions = [(5, 5, 15, 9), [(30, 30), (40, 30), (40, 38), (30, 38)]]
    a = build_mask((64, 64), regions, dilation=dil)
    b = build_mask((64, 64), regions, dilation=dil + 1)
    assert (a <= b).all() and b.sum() > a.sum()
