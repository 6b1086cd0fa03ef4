"""Rasterise matched boxes and polygons into a boolean PHI mask.

Dilation covers the anti-aliased edge pixels around glyphs that an OCR box
cuts through (paper App. B.2: "a small dilation to cover boundary pixels").
It is given in pixels and, optionally, relative to each region's text height,
so large titles get a wider margin than 9-px corner annotations.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import cv2
import numpy as np



def _is_box(r) -> bool:
    return len(r) == 4 and all(np.isscalar(v) for v in r)


def region_height(r) -> float:
    """Text height of a box ``(x0, y0, x1, y1)`` or a polygon (its vertical extent)."""
    if _is_box(r):
        return float(r[3] - r[1])
    p = np.asarray(r, dtype=float).reshape(-1, 2)
    return float(p[:, 1].max() - p[:, 1].min())


def build_mask(
    shape: Sequence[int],
    regions: Iterable,
    dilation: float = 3,
    *,
    relative_dilation: float = 0.0,
) -> np.ndarray:
    """A ``bool`` ``(H, W)`` mask with every region filled and grown.

    Parameters
    ----------
    shape:
        Image shape; only ``H, W`` are used (an ``(H, W, 3)`` shape is fine).
    regions:
        Boxes ``(x0, y0, x1, y1)`` (``x1``/``y1`` exclusive, floats allowed)
        and/or polygons (sequences of ``(x, y)`` points), or objects with a
        ``polygon``/``box`` attribute such as :class:`~clinx.localize.match.Match`
        or :class:`~clinx.records.Detection` (the polygon is used when present).
    dilation:
        Margin in pixels added on every side.
    relative_dilation:
        Extra margin as a fraction of each region's text height; the larger
        of the two margins is used.

    A region with ``limits = (left, right)`` (a
    :class:`~clinx.localize.match.Match` next to an unmatched word) is grown
    vertically as usual but horizontally only up to those x-limits, so the
    margin never eats into the label beside a value; the region itself is
    always filled.

    Boxes are grown as rectangles (exactly a square-kernel dilation);
    polygons are filled with ``cv2.fillPoly`` and dilated with a square kernel
    of the same radius. Coordinates are clipped to the image.
    """
    h, w = int(shape[0]), int(shape[1])
    mask = np.zeros((h, w), dtype=bool)
    if h == 0 or w == 0:
        return mask
    by_radius: dict[int, list[np.ndarray]] = {}
    for r in regions:
        limits = getattr(r, "limits", None)
        if limits is not None:  # ±inf (no neighbour) -> the image edge
            limits = (min(max(float(limits[0]), -1.0), w + 1.0), min(max(float(limits[1]), -1.0), w + 1.0))
        poly = getattr(r, "polygon", None)
        if poly is None and hasattr(r, "box"):
            r = r.box
        elif poly is not None:
            r = poly
        if r is None or len(r) == 0:
            continue
        rad = int(np.ceil(max(float(dilation), relative_dilation * region_height(r), 0.0)))
        if _is_box(r):
            x0, y0, x1, y1 = (float(v) for v in r)
            if x1 <= x0 or y1 <= y0:
                continue
            xa = int(np.floor(x0)) - rad
            xb = int(np.ceil(x1)) + rad
            if limits is not None:
                xa = max(xa, int(np.floor(min(x0, limits[0]))))
                xb = min(xb, int(np.ceil(max(x1, limits[1]))))
            xa, xb = max(0, xa), min(w, xb)
            ya = max(0, int(np.floor(y0)) - rad)
            yb = min(h, int(np.ceil(y1)) + rad)
            if xb > xa and yb > ya:
                mask[ya:yb, xa:xb] = True
        else:
            pts = np.round(np.asarray(r, dtype=float).reshape(-1, 2)).astype(np.int32)
            if len(pts) < 3:
                continue
            if limits is not None and rad > 0:
                # Grown on its own, then cut to its horizontal limits (never inside itself).
                layer = np.zeros((h, w), dtype=np.uint8)
                cv2.fillPoly(layer, [pts], 1)
                layer = cv2.dilate(layer, np.ones((2 * rad + 1, 2 * rad + 1), np.uint8))
                lo = max(0, int(np.floor(min(pts[:, 0].min(), limits[0]))))
                hi = min(w, int(np.ceil(max(pts[:, 0].max() + 1, limits[1]))))
                layer[:, :lo] = 0
                layer[:, hi:] = 0
                mask |= layer.astype(bool)
                continue
            by_radius.setdefault(rad, []).append(pts)
    for rad, polys in by_radius.items():
        layer = np.zeros((h, w), dtype=np.uint8)
        cv2.fillPoly(layer, polys, 1)
        # fillPoly treats vertices as inclusive pixel centres; boxes treat x1 as
        # exclusive. One pixel of difference is inside any dilation we use.
        if rad > 0:
            layer = cv2.dilate(layer, np.ones((2 * rad + 1, 2 * rad + 1), np.uint8))
        mask |= layer.astype(bool)
    return mask
