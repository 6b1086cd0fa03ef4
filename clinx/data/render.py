"""Text rendering for burned-in overlays: cached fonts, one alpha layer per string.

Each string is rendered into its own 8-bit coverage layer (Pillow's
anti-aliased glyph raster). Keeping layers separate is what makes the true
PHI mask pixel-exact: the mask is the union of the *value* layers only, so a
field label such as ``DOB:`` drawn on the same line never enters it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

#: Font key -> DejaVu file. Scanners use plain sans, monospace, sometimes serif or bold.
FONT_FILES = {
    "sans": "DejaVuSans.ttf",
    "sans_bold": "DejaVuSans-Bold.ttf",
    "sans_condensed": "DejaVuSansCondensed.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono_bold": "DejaVuSansMono-Bold.ttf",
    "serif": "DejaVuSerif.ttf",
}


#: OpenCV's built-in stroke fonts (always available, no file): key -> cv2 font id.
HERSHEY_FONTS = {"hershey_simplex": 0, "hershey_plain": 1, "hershey_duplex": 2, "hershey_complex": 3}


def available_fonts() -> list[str]:
    """Font keys whose file exists here (all of them on a machine with DejaVu)."""
    return [k for k, f in FONT_FILES.items() if (FONT_DIR / f).is_file()] or ["default"]


def offline_fonts() -> list[str]:
    """Every font that renders without a download: DejaVu (when installed), Pillow's bundled font, cv2 Hershey."""
    dejavu = [k for k, f in FONT_FILES.items() if (FONT_DIR / f).is_file()]
    return dejavu + ["pil_default"] + list(HERSHEY_FONTS)


def _hershey(key: str, size: int) -> tuple[int, float, int]:
    """cv2 font id, scale and stroke thickness giving a cap height of ~0.72 ``size`` (like DejaVu)."""
    import cv2

    fid = HERSHEY_FONTS[key]
    (_, cap1), _ = cv2.getTextSize("H", fid, 1.0, 1)
    scale = 0.72 * size / max(cap1, 1)
    return fid, scale, max(1, int(round(0.72 * size / 11)))


@functools.lru_cache(maxsize=512)
def get_font(key: str, size: int) -> ImageFont.FreeTypeFont:
    """A cached font; falls back to Pillow's bundled font when DejaVu is missing (and for ``pil_default``)."""
    path = FONT_DIR / FONT_FILES.get(key, "")
    if key in FONT_FILES and path.is_file():
        return ImageFont.truetype(str(path), int(size))
    return ImageFont.load_default(size=int(size))


@dataclass(frozen=True)
class FontMetrics:
    ascent: int
    descent: int
    space: float

    @property
    def line_height(self) -> int:
        return self.ascent + self.descent


@functools.lru_cache(maxsize=512)
def font_metrics(key: str, size: int) -> FontMetrics:
    """Ascent, descent and space width of a font at ``size``."""
    if key in HERSHEY_FONTS:
        import cv2

        fid, scale, th = _hershey(key, size)
        (sw, _), _ = cv2.getTextSize(" ", fid, scale, th)
        return FontMetrics(int(round(0.95 * size)), int(round(0.3 * size)), float(sw))
    f = get_font(key, size)
    asc, desc = f.getmetrics()
    return FontMetrics(int(asc), int(desc), float(f.getlength(" ")))


@functools.lru_cache(maxsize=8192)
def text_width(text: str, key: str, size: int) -> float:
    """Advance width of ``text`` in pixels (cached: labels and markers repeat)."""
    if key in HERSHEY_FONTS:
        import cv2

        fid, scale, th = _hershey(key, size)
        return float(cv2.getTextSize(text, fid, scale, th)[0][0])
    return float(get_font(key, size).getlength(text))


@dataclass(frozen=True)
class TextLayer:
    """Coverage of one rendered string: ``alpha`` (uint8) placed at ``(dx, dy)`` from the pen origin.

    The pen origin is the left end of the line's ascender top (Pillow anchor
    ``la``), so strings on one line share a ``y`` origin and stay aligned.
    """

    alpha: np.ndarray
    dx: int
    dy: int


def _render_hershey(text: str, key: str, size: int) -> TextLayer:
    import cv2

    fid, scale, th = _hershey(key, size)
    (w, h), base = cv2.getTextSize(text, fid, scale, th)
    asc = font_metrics(key, size).ascent
    pad = 2 * th + 2
    canvas = np.zeros((asc + base + 2 * pad, w + 2 * pad), np.uint8)
    # Baseline at ``asc`` below the pen origin's top, as for the FreeType fonts.
    cv2.putText(canvas, text, (pad, pad + asc), fid, scale, 255, th, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    if len(ys) == 0:
        a = np.zeros((1, 1), np.uint8)
        return TextLayer(a, 0, 0)
    a = np.ascontiguousarray(canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    a.setflags(write=False)
    return TextLayer(a, int(xs.min()) - pad, int(ys.min()) - pad)


@functools.lru_cache(maxsize=4096)
def _render_cached(text: str, key: str, size: int) -> TextLayer:
    if key in HERSHEY_FONTS:
        return _render_hershey(text, key, size)
    font = get_font(key, size)
    l, t, r, b = font.getbbox(text, anchor="la")
    w, h = max(1, r - l), max(1, b - t)
    im = Image.new("L", (w, h), 0)
    ImageDraw.Draw(im).text((-l, -t), text, font=font, fill=255, anchor="la")
    a = np.asarray(im)
    a.setflags(write=False)
    return TextLayer(a, int(l), int(t))


def render_text(text: str, key: str, size: int, cache: bool = False) -> TextLayer:
    """Render ``text`` into a tight coverage layer.

    ``cache=True`` only for non-PHI strings (labels, markers): PHI values are
    fresh per sample, and keeping them in a process-wide cache would hold
    identifiers in memory for no gain.
    """
    if cache:
        return _render_cached(text, key, size)
    return _render_cached.__wrapped__(text, key, size)
