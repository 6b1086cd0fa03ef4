"""PhiLocalizer: fail-closed policy, all-text mode, and the real engines end to end."""

import numpy as np
import pytest

from clinx.errors import ConfigError, ItemError
from clinx.localize import Localization, PhiLocalizer
from clinx.ocr.base import OCREngine
from clinx.records import Detection, Manifest

MANIFEST = Manifest({"patient_name": "DOE^JOHN", "mrn": "00482913", "birth_date": "19610314"})


class FixedEngine(OCREngine):
    name = "fixed"

    def __init__(self, dets, fail=False):
        self.dets, self.fail = dets, fail

    def _read(self, image):
        if self.fail:
            raise ValueError("onnx session broke")
        return list(self.dets)


DETS = [
    Detection("Name:", (10, 10, 60, 30), 0.99, None, "fixed", "word"),
    Detection("JOHN", (70, 10, 110, 30), 0.99, None, "fixed", "word"),
    Detection("DOE", (120, 10, 150, 30), 0.99, None, "fixed", "word"),
    Detection("PORTABLE", (10, 100, 90, 120), 0.99, None, "fixed", "word"),
    Detection("L", (200, 10, 210, 30), 0.99, None, "fixed", "word"),
]
IMG = np.zeros((128, 256, 3), np.uint8)


def test_locate_masks_only_matched_words():
    loc = PhiLocalizer(FixedEngine(DETS), dilation=2, relative_dilation=0, mode="manifest")
    res = loc.locate(IMG, MANIFEST, item="a.png")
    assert isinstance(res, Localization) and res.mask.shape == (128, 256) and res.mask.dtype == bool
    assert res.fields == ["patient_name"]
    assert res.mask[20, 90] and res.mask[20, 135]
    assert not res.mask[20, 30] and not res.mask[20, 205] and not res.mask[110, 50]
    assert sorted(res.detections, key=repr) == sorted(DETS, key=repr)


def test_empty_manifest_fails_closed_in_manifest_mode():
    loc = PhiLocalizer(FixedEngine(DETS), mode="manifest")
    for empty in (Manifest(), None, Manifest({"mrn": "  "})):
        with pytest.raises(ItemError) as ei:
            loc.locate(IMG, empty, item="b.png")
        assert ei.value.stage == "manifest" and ei.value.item == "b.png"


def test_all_text_mode_masks_everything_but_allowed_tokens():
    loc = PhiLocalizer(FixedEngine(DETS + [Detection("DOB 03/14/1961 L", (10, 50, 170, 70), 0.9, None, "fixed", "line")]), mode="all_text", dilation=0, relative_dilation=0)
    res = loc.locate(IMG, Manifest(), item="c.png")  # no manifest needed
    assert res.mask[20, 30] and res.mask[20, 90]  # "Name:" and "JOHN" are text, so masked
    assert not res.mask[20, 205] and not res.mask[110, 50]  # "L", "PORTABLE" allowed
    assert res.mask[60, 100] and not res.mask[60, 165]  # the date masked, the trailing L kept


def test_engine_failure_is_an_ocr_item_error():
    loc = PhiLocalizer(FixedEngine(DETS, fail=True))
    with pytest.raises(ItemError) as ei:
        loc.locate(IMG, MANIFEST, item="d.png")
    assert ei.value.stage == "ocr" and "ValueError" in ei.value.problem


def test_bad_settings_are_config_errors():
    with pytest.raises(ConfigError):
        PhiLocalizer(FixedEngine([]), mode="everything")
    with pytest.raises(ConfigError):
        PhiLocalizer(FixedEngine([]), threshold=0.8 * 1000)


def _check_overlay_mask(mask, ink):
    covered = lambda key: mask[ink[key]].mean()  # noqa: E731 — fraction of that piece's ink masked
    assert covered("JOHN DOE") > 0.99
    assert covered("00482913") > 0.99
    assert covered("L") == 0.0
    assert covered("MRN") < 0.1
    name_ink = ink["Name:"].copy()
    name_ink[:, int(np.nonzero(name_ink.any(axis=0))[0].max()) - 3 :] = False  # the letters, not the colon
    assert mask[name_ink].mean() < 0.05


@pytest.mark.slow
def test_rapidocr_localizes_overlay(overlay, rapid_engine):
    img, ink = overlay
    res = PhiLocalizer(rapid_engine).locate(img, MANIFEST, item="overlay.png")
    assert {"patient_name", "mrn"} <= set(res.fields)
    _check_overlay_mask(res.mask, ink)


@pytest.mark.slow
def test_easyocr_localizes_overlay(overlay, easy_engine):
    img, ink = overlay
    res = PhiLocalizer(easy_engine).locate(img, MANIFEST, item="overlay.png")
    assert {"patient_name", "mrn"} <= set(res.fields)
    _check_overlay_mask(res.mask, ink)


def test_locate_batch_keeps_order_and_can_return_errors_in_place():
    loc = PhiLocalizer(FixedEngine(DETS), mode="manifest")
    out = loc.locate_batch([IMG, IMG], [MANIFEST, Manifest()], ["ok.png", "empty.png"], return_errors=True)
    assert isinstance(out[0], Localization) and out[0].fields == ["patient_name"]
    assert isinstance(out[1], ItemError) and out[1].item == "empty.png"
    with pytest.raises(ItemError):
        loc.locate_batch([IMG, IMG], [MANIFEST, Manifest()], ["ok.png", "empty.png"])
