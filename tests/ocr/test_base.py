"""The OCR interface: input guards, reading order, line splitting, error policy, lazy registry."""

import subprocess
import sys

import numpy as np
import pytest

from clinx.errors import ItemError
from clinx.ocr import OCR_ENGINES, get_engine
from clinx.ocr.base import OCREngine, char_width, sort_reading_order, span_box, split_line
from clinx.records import Detection


class FakeEngine(OCREngine):
    """Returns fixed detections and records the images it was given."""

    name = "fake"

    def __init__(self, dets=(), fail=False):
        self.dets = list(dets)
        self.fail = fail
        self.seen = []

    def _read(self, image):
        self.seen.append(image.shape)
        if self.fail:
            raise RuntimeError("model exploded")
        return list(self.dets)


@pytest.mark.parametrize("shape", [(0, 0, 3), (1, 1, 3), (7, 200, 3), (200, 5), (0,)])
def test_empty_and_tiny_images_return_nothing_without_calling_the_engine(shape):
    eng = FakeEngine([Detection("x", (0, 0, 1, 1))])
    assert eng.read(np.zeros(shape, np.uint8)) == []
    assert eng.seen == []


def test_grayscale_and_rgba_are_converted_to_rgb():
    eng = FakeEngine()
    eng.read(np.zeros((32, 40), np.uint8))
    eng.read(np.zeros((32, 40, 4), np.uint8))
    assert eng.seen == [(32, 40, 3), (32, 40, 3)]


def test_read_item_turns_engine_failures_into_item_errors():
    eng = FakeEngine(fail=True)
    with pytest.raises(ItemError) as ei:
        eng.read_item(np.zeros((32, 32, 3), np.uint8), "scan_01.png")
    assert ei.value.stage == "ocr" and ei.value.item == "scan_01.png"
    assert "RuntimeError" in str(ei.value)
    with pytest.raises(RuntimeError):  # plain read() leaves the error to the caller
        eng.read(np.zeros((32, 32, 3), np.uint8))


def test_reading_order_rows_then_columns():
    d = lambda t, x, y: Detection(t, (x, y, x + 30, y + 20))  # noqa: E731
    dets = [d("c", 10, 52), d("b", 100, 11), d("a", 10, 9), d("d", 100, 50)]
    assert [x.text for x in sort_reading_order(dets)] == ["a", "b", "c", "d"]


def test_span_box_follows_glyph_widths():
    # Uniform glyphs share the box equally.
    assert span_box((0, 0, 100, 10), "0123456789", 2, 5) == pytest.approx((20, 0, 50, 10))
    assert span_box((0, 0, 100, 10), "0123456789", 0, 10, pad_chars=1) == (0, 0, 100, 10)  # clipped
    # A wide "M" takes more of the box than a narrow "i".
    x = span_box((0, 0, 100, 10), "Mi", 0, 1)
    assert x[2] > 70
    assert char_width("W") > char_width("n") > char_width("l")


def test_split_line_gives_estimated_word_boxes():
    det = Detection("Name: JOHN DOE", (0, 0, 140, 20), 0.9, ((0, 0), (140, 0), (140, 20), (0, 20)), "e", "line")
    parts = split_line(det)
    assert [p.text for p in parts] == ["Name:", "JOHN", "DOE"]
    assert all(p.level == "word_est" and p.confidence == 0.9 and p.engine == "e" for p in parts)
    assert parts[0].box[0] == 0 and parts[-1].box[2] == pytest.approx(140)
    assert parts[0].box[2] < parts[1].box[0] < parts[1].box[2] < parts[2].box[0]  # spaces between words
    single = Detection("JOHN", (0, 0, 40, 20))
    assert split_line(single) == [single]


def test_registry_names_and_unknown_engine():
    assert {"rapidocr", "easyocr"} <= set(OCR_ENGINES.names())
    with pytest.raises(KeyError, match="unknown ocr engine"):
        get_engine("tesseract-9000")


def test_get_engine_caches_per_params():
    name = "fake-cache-test"
    if name not in OCR_ENGINES:
        OCR_ENGINES.register(name, FakeEngine)
    a = get_engine(name)
    assert get_engine(name) is a
    assert get_engine(name, fail=True) is not a
    assert get_engine(name, cache=False) is not a


def test_importing_clinx_ocr_does_not_import_heavy_engines():
    code = "import sys, clinx.ocr, clinx.localize; print('onnxruntime' in sys.modules, 'torch' in sys.modules, 'rapidocr' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False", "False"]
