"""Shared fixtures: a rendered 512x512 overlay with known ink masks, and the real OCR engines."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _font(size):
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        return ImageFont.load_default(size=size)


def render_pieces(lines, size=512, bg=70, fg=240, font_size=20):
    """Draw ``lines`` = [(x, y, [piece, ...])] and return the image and each piece's ink mask.

    Pieces on one line are drawn one after the other separated by their own
    spacing (a piece may start with spaces). The ink mask of a piece is the set
    of pixels its glyphs changed, so tests can ask whether exactly those
    pixels are masked.
    """
    font = _font(font_size)
    img = Image.new("L", (size, size), bg)
    draw = ImageDraw.Draw(img)
    ink = {}
    for x, y, pieces in lines:
        cx = x
        for piece in pieces:
            layer = Image.new("L", (size, size), 0)
            ImageDraw.Draw(layer).text((cx, y), piece, fill=255, font=font)
            draw.text((cx, y), piece, fill=fg, font=font)
            ink[piece.strip()] = np.asarray(layer) > 0
            cx += draw.textlength(piece, font=font)
    rgb = np.repeat(np.asarray(img)[:, :, None], 3, axis=2).copy()
    return rgb, ink


@pytest.fixture(scope="session")
def overlay():
    """``Name: JOHN DOE    L`` and ``MRN 00482913`` burned into a gray 512x512 image."""
    rng = np.random.default_rng(0)
    img, ink = render_pieces([(24, 30, ["Name: ", "JOHN DOE", "        L"]), (24, 70, ["MRN ", "00482913"])])
    # a little texture, so the image is not a clean document
    noise = rng.normal(0, 4, img.shape[:2])
    img = np.clip(img.astype(float) + noise[:, :, None], 0, 255).astype(np.uint8)
    return img, ink


@pytest.fixture(scope="session")
def rapid_engine():
    from clinx.ocr import get_engine

    return get_engine("rapidocr")


@pytest.fixture(scope="session")
def easy_engine():
    from clinx.ocr import get_engine

    return get_engine("easyocr")


@pytest.fixture
def fixed_engine():
    """A factory for an OCR engine that 'reads' exactly the detections it was given (no OCR model)."""
    from clinx.ocr.base import OCREngine

    class FixedEngine(OCREngine):
        name = "fixed"

        def __init__(self, dets):
            self.dets = list(dets)
            self.params = {"n": len(self.dets)}

        def _read(self, image):
            return list(self.dets)

    return FixedEngine
