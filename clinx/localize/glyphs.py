"""Snap a cut inside one OCR word to the ink gap between two glyphs.

A value glued to its label (``ID:1254397539``, ``DOB:08.19.2007``) is one
OCR word; the matcher cuts the value's characters out of the word's box by
typical glyph widths (:func:`clinx.ocr.base.span_box`) with half a
character of slack. At native resolution that slack lands on the label's
last glyph (the colon, the ``D`` of ``ID``), so the label is clipped.

Here the word's box is read back from the image: its columns are split
into runs of ink (one per glyph in the usual overlay fonts). Counting glyphs
from either end of the word, the cut's edge moves to the gap between the
label's last glyph and the value's first; the gap is masked but for the third
next to the label, whose ink is not. Where the runs and the characters do not
agree (touching serifs, texture behind the text, a tilted word) a count is
trusted only at a gap clearly wider than the word's usual one, and never more
than a glyph and a half from the estimate; otherwise the cut stays as the
matcher made it. Snapping happens only on evidence, and the verifier still
reads every released image.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import cv2
import numpy as np

from clinx.records import as_rgb

from .match import Match

__all__ = ["glyph_runs", "snap_cuts"]


def glyph_runs(gray: np.ndarray) -> list[tuple[int, int]]:
    """Column runs ``[start, end)`` that hold ink in a ``uint8`` grey crop of one word.

    Ink is the minority side of an Otsu threshold (text on film can be light
    on dark or dark on light). A crop too small or too flat to threshold
    gives no runs.
    """
    if gray.ndim != 2 or gray.shape[0] < 4 or gray.shape[1] < 4 or int(gray.max()) - int(gray.min()) < 32:
        return []
    _, binary = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = binary.astype(bool)
    if ink.mean() > 0.5:
        ink = ~ink
    cols = ink.any(axis=0)
    runs, start = [], None
    for x, on in enumerate(cols):
        if on and start is None:
            start = x
        elif not on and start is not None:
            runs.append((start, x))
            start = None
    if start is not None:
        runs.append((start, len(cols)))
    return runs


def _boundaries(runs: list[tuple[int, int]], from_left: int, from_right: int, exact: bool) -> list[int]:
    """Run indices ``i`` (the gap before run ``i``) that may be the cut, counted from either end of the word.

    With as many runs as glyphs both counts agree. Otherwise a count is taken
    only when its gap is clearly wider than the word's usual gap between
    glyphs (a label's colon and space, not two digits that touch): the glyphs
    that merged or split are then on the other side of it.
    """
    cands = {i for i in (from_left, len(runs) - from_right) if 1 <= i < len(runs)}
    if exact:
        return sorted(cands)
    gaps = [runs[i][0] - runs[i - 1][1] for i in range(1, len(runs))]
    usual = float(np.median(gaps)) if gaps else 0.0
    return sorted(i for i in cands if runs[i][0] - runs[i - 1][1] >= max(2.0, 2.0 * usual))


def snap_cuts(image: np.ndarray, matches: Sequence[Match]) -> list[Match]:
    """``matches`` with every cut edge that borders unmatched glyphs moved to the ink gap, where the image agrees.

    Only matches with a ``cut`` (a part of one OCR word) change, and only on
    the side where unmatched letters or digits of the same word sit (there
    the matcher already limited the margin to the cut's edge). The new edge
    lies in a gap between glyphs; where two readings of the runs disagree,
    the one that masks more wins.
    """
    if not any(m.cut for m in matches):
        return list(matches)
    image = np.asarray(image)
    h, w = image.shape[:2]
    out = []
    for m in matches:
        if not m.cut:
            out.append(m)
            continue
        (ux0, uy0, ux1, uy1), g0, g1, n = m.cut
        x0, x1 = max(0, int(np.floor(ux0))), min(w, int(np.ceil(ux1)))
        y0, y1 = max(0, int(np.floor(uy0))), min(h, int(np.ceil(uy1)))
        # only the word's crop is turned grey: the rest of a 3,000-px scan is never touched
        runs = glyph_runs(cv2.cvtColor(as_rgb(image[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)) if x1 > x0 and y1 > y0 else []
        if len(runs) < 2 or not (0 <= g0 < g1 <= n):
            out.append(m)
            continue
        exact = len(runs) == n
        bx0, by0, bx1, by1 = m.box
        left, right = m.limits if m.limits is not None else (-float("inf"), float("inf"))
        # A gap more than a glyph and a half from where the glyph widths put the cut is not this cut.
        reach = 1.5 * (ux1 - ux0) / n
        if g0 > 0 and left >= bx0:  # unmatched glyphs on the left: mask from just after them
            # a third of the gap stays with the label: the faint anti-aliased edge of its last glyph
            edges = [x0 + runs[i - 1][1] + (runs[i][0] - runs[i - 1][1]) // 3 for i in _boundaries(runs, g0, n - g0, exact)]
            edges = [e for e in edges if abs(e - bx0) <= reach]
            if edges:
                bx0 = left = float(min(edges))
        if g1 < n and right <= bx1:  # ... on the right: up to just before them
            edges = [x0 + runs[i][0] - (runs[i][0] - runs[i - 1][1]) // 3 for i in _boundaries(runs, g1, n - g1, exact)]
            edges = [e for e in edges if abs(e - bx1) <= reach]
            if edges:
                bx1 = right = float(max(edges))
        out.append(replace(m, box=(bx0, by0, bx1, by1), limits=(left, right)))
    return out
