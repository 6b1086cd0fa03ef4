"""Native-resolution reading of images larger than an engine's detector size.

Why: the detectors are run at a bounded input size (RapidOCR 512, EasyOCR
1,280 px). A 2,846 px X-ray shrunk to 512 turns 20-px burned-in text into
3.6-px smudges that no detector finds, so a listed patient name was released.
Running a detector on the whole image at native size instead costs ~1 CPU-µs
per pixel (RapidOCR; EasyOCR's CRAFT ~4x that) — 9 CPU-s for a 3,000² scan.

What this module does instead (measured with ``scripts/bench_ocr.py``):

1. **Where can text be?** (:func:`text_cells`) A cheap test on the full-size
   grey image: a 3x3 morphological gradient, thresholded at
   ``max(min_contrast, noise_factor * median gradient)``, averaged over
   ``cell``-pixel cells. Burned-in glyphs are sharp, high-contrast strokes;
   radiographic anatomy is smooth at native resolution. A cell whose share of
   strong-edge pixels reaches ``min_density`` may hold text. ~30 ms per
   megapixel, and on chest films only a few % of cells pass.
2. **Regions** (:func:`plan_tiles`): passing cells are grouped into
   connected components; a compact group (a text block) becomes its bounding
   rectangle, a sparse one (an anatomical edge that also passed) is read in
   ``block``-px blocks cut to their own cells, so a long diagonal edge does not
   turn into one huge piece. Rectangles are grown by ``margin`` pixels, and every rectangle larger than
   ``tile`` is cut into ``tile``-sized pieces overlapping by ``overlap``
   pixels (at least the tallest text expected, so every line is whole in some
   piece). If more than ``max_active`` of the image passes (noisy or textured
   images) the test is not trusted and the whole image is tiled.
3. **Detection at native scale** on every piece, boxes shifted back to
   full-image coordinates.
4. **One box per text line** (:func:`merge_boxes`): boxes from *different*
   pieces that overlap (the same text seen twice in an overlap band, or a line
   cut by a piece edge) are united; boxes from one piece are kept apart as
   the detector separated them.
5. **Recognition** on crops of the *full* image at those boxes, so a word
   straddling a piece edge is read once, whole.

Engines supply steps 3 and 5 (:meth:`detect` / :meth:`recognize` callables);
:func:`read_native` runs the rest.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from clinx.errors import ConfigError

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class NativeSettings:
    """How an engine reads an image larger than its detector size (see module doc).

    ``enabled=False`` restores the old behaviour (whole image shrunk to the
    detector size: fast, blind to small text on large scans).
    """

    enabled: bool = True
    #: Side of a detection piece at native resolution (px). Larger pieces mean
    #: fewer overlap bands but a detector costs more per pixel on them.
    tile: int = 768
    #: Overlap between neighbouring pieces (px); must exceed the tallest text line.
    overlap: int = 128
    #: Cell side of the text test (px).
    cell: int = 16
    #: Smallest grey-level step (0-255) that counts as a glyph edge.
    min_contrast: float = 48.0
    #: ... or this many times the image's median gradient, if larger (noisy images).
    noise_factor: float = 6.0
    #: Share of strong-edge pixels a cell needs to be read.
    min_density: float = 0.04
    #: Margin around passing cells (px); also ``margin_frac`` of the image height, whichever is larger.
    margin: int = 24
    margin_frac: float = 0.005
    #: A group of passing cells filling less than this share of its bounding box
    #: (an anatomical edge, not a text block) is read in ``block``-px blocks.
    min_fill: float = 0.3
    block: int = 256
    #: Above this share of passing cells the test is not trusted: every piece is read.
    max_active: float = 0.5
    #: ``False``: skip the test and read every piece (slowest, no assumption about text).
    skip_empty: bool = True

    def __post_init__(self) -> None:
        if self.tile < 64 or self.overlap < 0 or self.overlap >= self.tile // 2:
            raise ConfigError(f"native tile must be >= 64 px with 0 <= overlap < tile/2, got tile={self.tile} overlap={self.overlap}")
        if self.cell < 4:
            raise ConfigError(f"native cell must be >= 4 px, got {self.cell}")

    @classmethod
    def from_any(cls, value) -> "NativeSettings":
        """Build from ``None`` (defaults), a bool (enabled or not), a mapping, or an instance."""
        if value is None:
            return cls()
        if isinstance(value, NativeSettings):
            return value
        if isinstance(value, bool):
            return cls(enabled=value)
        try:
            kw = dict(value)
        except (TypeError, ValueError):
            raise ConfigError(f"native settings must be a mapping or a bool, got {type(value).__name__}") from None
        unknown = set(kw) - set(cls.__dataclass_fields__)
        if unknown:
            raise ConfigError(f"unknown native settings: {', '.join(sorted(unknown))}")
        return cls(**kw)

    def as_dict(self) -> dict:
        """Plain dict (for fingerprints and JSON)."""
        return asdict(self)


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_RGB2GRAY) if image.ndim == 3 else image


def text_cells(image: np.ndarray, s: NativeSettings) -> np.ndarray:
    """``bool`` grid (one entry per ``s.cell`` square) of cells that may hold text.

    The threshold adapts to the image: ``max(min_contrast, noise_factor *
    median gradient)``, so a noisy ultrasound does not light up everywhere
    while a clean film keeps faint 10-px text.
    """
    g = _gray(image)
    grad = cv2.morphologyEx(g, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    med = float(np.median(grad[::4, ::4]))
    thr = max(float(s.min_contrast), s.noise_factor * med)
    edges = (grad >= thr).astype(np.uint8)
    h, w = g.shape
    c = int(s.cell)
    gh, gw = -(-h // c), -(-w // c)
    if gh * c != h or gw * c != w:
        edges = cv2.copyMakeBorder(edges, 0, gh * c - h, 0, gw * c - w, cv2.BORDER_CONSTANT, value=0)
    dens = cv2.resize(edges.astype(np.float32), (gw, gh), interpolation=cv2.INTER_AREA)
    return dens >= s.min_density


def _split(a: int, b: int, tile: int, overlap: int) -> list[tuple[int, int]]:
    """Cut ``[a, b)`` into pieces of at most ``tile`` overlapping by ``overlap`` (evenly spread)."""
    n = b - a
    if n <= tile:
        return [(a, b)]
    k = int(np.ceil((n - overlap) / (tile - overlap)))
    step = (n - tile) / (k - 1)
    return [(a + int(round(i * step)), min(b, a + int(round(i * step)) + tile)) for i in range(k)]


def _tile_rect(r: Box, s: NativeSettings) -> list[Box]:
    x0, y0, x1, y1 = r
    return [(xa, ya, xb, yb) for ya, yb in _split(y0, y1, s.tile, s.overlap) for xa, xb in _split(x0, x1, s.tile, s.overlap)]


def _merge_rects(rects: list[Box], max_growth: float = 1.5) -> list[Box]:
    """Unite intersecting rectangles when their bounding box is not much larger than the two together.

    Two lines of one corner block become one piece (one detector call, no
    double-read overlap), but an L-shaped pair never becomes a huge square.
    """
    def area(r: Box) -> int:
        return max(0, r[2] - r[0]) * max(0, r[3] - r[1])

    rects = list(rects)
    changed = True
    while changed:
        changed = False
        out: list[Box] = []
        for r in rects:
            for i, o in enumerate(out):
                if r[0] < o[2] and o[0] < r[2] and r[1] < o[3] and o[1] < r[3]:
                    u = (min(r[0], o[0]), min(r[1], o[1]), max(r[2], o[2]), max(r[3], o[3]))
                    if area(u) <= max_growth * (area(r) + area(o)):
                        out[i] = u
                        changed = True
                        break
            else:
                out.append(r)
        rects = out
    return rects


def plan_tiles(image: np.ndarray, s: NativeSettings) -> tuple[list[Box], float]:
    """Pieces ``(x0, y0, x1, y1)`` to run the detector on, and the share of cells that passed the test."""
    h, w = image.shape[:2]
    whole = (0, 0, w, h)
    if not s.skip_empty:
        return _tile_rect(whole, s), 1.0
    cells = text_cells(image, s)
    active = float(cells.mean()) if cells.size else 0.0
    if active == 0.0:
        return [], 0.0
    if active > s.max_active:
        return _tile_rect(whole, s), active
    c = s.cell
    m = max(int(s.margin), int(round(s.margin_frac * h)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cells.astype(np.uint8), connectivity=8)
    rects: list[Box] = []
    b = max(1, int(s.block) // c)

    def rect(x0c: int, y0c: int, x1c: int, y1c: int) -> Box:
        return (max(0, x0c * c - m), max(0, y0c * c - m), min(w, x1c * c + m), min(h, y1c * c + m))

    for k in range(1, n):
        x, y, cw, ch, count = (int(v) for v in stats[k, :5])
        if count >= s.min_fill * cw * ch:
            rects.append(rect(x, y, x + cw, y + ch))
            continue
        # A sparse component (an anatomical edge winding across the image):
        # its bounding box would be mostly empty, so read it block by block,
        # each block cut to its own passing cells.
        sub = labels[y : y + ch, x : x + cw] == k
        for by in range(0, ch, b):
            for bx in range(0, cw, b):
                blk = sub[by : by + b, bx : bx + b]
                if not blk.any():
                    continue
                ys, xs = np.nonzero(blk)
                rects.append(rect(x + bx + int(xs.min()), y + by + int(ys.min()), x + bx + int(xs.max()) + 1, y + by + int(ys.max()) + 1))
    tiles: list[Box] = []
    for r in _merge_rects(rects):
        tiles.extend(_tile_rect(r, s))
    return tiles, active


def _aabb(q: np.ndarray) -> tuple[float, float, float, float]:
    return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())


def merge_boxes(quads: Sequence[np.ndarray], pieces: Sequence[int], min_overlap: float = 0.2) -> list[np.ndarray]:
    """One quadrilateral per text region from detections of several (overlapping) pieces.

    ``quads[i]`` is a ``(4, 2)`` box in full-image coordinates found in piece
    ``pieces[i]``. Boxes from different pieces are united (axis-aligned) when
    they intersect by at least ``min_overlap`` of the smaller box's area, or
    share a row (vertical IoU >= 0.5) and touch horizontally — the two halves
    of a line cut by a piece edge. Boxes of one piece stay apart. Unmerged
    boxes keep their own quadrilateral.
    """
    n = len(quads)
    boxes = [_aabb(np.asarray(q, dtype=float)) for q in quads]
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        a = boxes[i]
        for j in range(i + 1, n):
            if pieces[i] == pieces[j]:
                continue
            b = boxes[j]
            ix = min(a[2], b[2]) - max(a[0], b[0])
            iy = min(a[3], b[3]) - max(a[1], b[1])
            if ix < -1 or iy <= 0:
                continue
            area = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            union_y = max(a[3], b[3]) - min(a[1], b[1])
            if (ix > 0 and ix * iy >= min_overlap * max(area, 1e-6)) or iy / max(union_y, 1e-6) >= 0.5:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    out: list[np.ndarray] = []
    for members in groups.values():
        if len(members) == 1:
            out.append(np.asarray(quads[members[0]], dtype=np.float32).reshape(4, 2))
            continue
        x0 = min(boxes[i][0] for i in members)
        y0 = min(boxes[i][1] for i in members)
        x1 = max(boxes[i][2] for i in members)
        y1 = max(boxes[i][3] for i in members)
        out.append(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32))
    # Reading order: top to bottom, then left to right (engines' recognisers keep it).
    out.sort(key=lambda q: (round(float(q[:, 1].min()) / 8), float(q[:, 0].min())))
    return out


def read_native(
    image: np.ndarray,
    s: NativeSettings,
    detect: Callable[[np.ndarray], Sequence[np.ndarray]],
    recognize: Callable[[np.ndarray, list[np.ndarray]], list],
    stats: dict | None = None,
) -> list:
    """Detect on native-resolution pieces, merge, recognise on full-image crops.

    ``detect(piece)`` returns ``(4, 2)`` boxes in piece coordinates;
    ``recognize(image, quads)`` returns the engine's detections for boxes in
    full-image coordinates. ``stats``, if given, receives ``pieces``,
    ``piece_pixels`` (share of the image area detected on) and ``active``
    (share of cells that passed the text test).
    """
    tiles, active = plan_tiles(image, s)
    quads: list[np.ndarray] = []
    owner: list[int] = []
    for k, (x0, y0, x1, y1) in enumerate(tiles):
        piece = np.ascontiguousarray(image[y0:y1, x0:x1])
        for q in detect(piece):
            q = np.asarray(q, dtype=np.float32).reshape(4, 2) + np.array([x0, y0], np.float32)
            quads.append(q)
            owner.append(k)
    if stats is not None:
        area = float(image.shape[0] * image.shape[1]) or 1.0
        stats.update(pieces=len(tiles), piece_pixels=sum((t[2] - t[0]) * (t[3] - t[1]) for t in tiles) / area, active=active)
    if not quads:
        return []
    return recognize(image, merge_boxes(quads, owner))
