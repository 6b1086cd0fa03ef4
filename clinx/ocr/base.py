"""The one OCR interface every engine implements, plus helpers they share.

An engine turns an RGB ``uint8`` image into a list of
:class:`~clinx.records.Detection`. Each detection carries a ``level``:

* ``"word"``  — the engine itself gave a box for this word (RapidOCR with
  ``return_word_box=True``);
* ``"line"``  — a box for a whole text line as the engine found it;
* ``"word_est"`` — a word box *estimated* by cutting a line box in proportion
  to character offsets (:func:`split_line`). It is an approximation: good
  enough to keep a label such as ``Name:`` out of a PHI mask on monospaced or
  near-monospaced overlays, off by up to a character or so on proportional
  fonts. Consumers that need exact geometry must treat it like ``"line"``.

Error policy: ``read`` may raise whatever the underlying library raises. The
*caller* that knows the item id turns that into a per-item
:class:`~clinx.errors.ItemError` with ``stage="ocr"`` — use
:meth:`OCREngine.read_item`, which :class:`clinx.localize.localizer.PhiLocalizer`
and the leakage attack go through. Exception texts are cut short and never
contain recognised text.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from clinx.errors import ItemError
from clinx.records import Detection, as_rgb

#: Images with a side shorter than this cannot hold legible text; engines return ``[]``.
MIN_SIDE = 8

_TOKEN = re.compile(r"\S+")


class OCREngine(ABC):
    """Abstract OCR engine: ``read(image) -> list[Detection]``.

    Implementations load their models once in ``__init__`` (they are slow to
    load) and are reused for every image.
    """

    #: Registry name of the engine, also written into ``Detection.engine``.
    name: str = ""

    @abstractmethod
    def _read(self, image: np.ndarray) -> list[Detection]:
        """Engine-specific reading of a validated ``(H, W, 3)`` RGB ``uint8`` image."""

    def read(self, image: np.ndarray) -> list[Detection]:
        """Detect and recognise text in one RGB ``uint8`` image.

        Grayscale and RGBA inputs are accepted (converted with
        :func:`clinx.records.as_rgb`). Empty images and images with a side
        shorter than :data:`MIN_SIDE` pixels return ``[]`` without calling the
        engine. Detections come in reading order (top to bottom, left to right).
        """
        a = np.asarray(image)
        if a.size == 0 or a.ndim < 2 or min(a.shape[0], a.shape[1]) < MIN_SIDE:
            return []
        a = as_rgb(a)
        dets = self._read(np.ascontiguousarray(a))
        return sort_reading_order(dets)

    def read_batch(self, images: Sequence[np.ndarray]) -> list[list[Detection]]:
        """Read several images; the default runs :meth:`read` one by one."""
        return [self.read(im) for im in images]

    def read_item(self, image: np.ndarray, item: str) -> list[Detection]:
        """:meth:`read`, with any engine failure raised as ``ItemError(item, ..., stage="ocr")``.

        This is where engine exceptions become per-item errors: batch code
        catches :class:`~clinx.errors.ItemError`, quarantines the item and goes on.
        """
        try:
            return self.read(image)
        except ItemError:
            raise
        except Exception as exc:  # any library failure is one item's failure
            msg = str(exc).splitlines()[0][:120] if str(exc) else ""
            raise ItemError(item, f"{self.name or type(self).__name__} OCR failed: {type(exc).__name__} {msg}".strip(), stage="ocr") from exc

    #: Settings that change speed only, never what is read; left out of :meth:`fingerprint`.
    SPEED_ONLY: frozenset = frozenset({"threads", "workers", "spin"})

    def settings(self) -> dict:
        """The resolved settings that decide what this engine reads (JSON-friendly)."""
        return {k: v for k, v in dict(getattr(self, "params", {}) or {}).items() if k not in self.SPEED_ONLY}

    def model_files(self) -> Mapping[str, os.PathLike]:
        """Model files the engine loaded, by role (empty for engines without files)."""
        return {}

    def library_version(self) -> str:
        """Version of the underlying OCR library ("" if unknown)."""
        return ""

    def fingerprint(self) -> str:
        """Deterministic identity: engine name, library version, resolved settings and model file digests.

        Two engines with the same fingerprint read the same image the same
        way; changing any setting that affects reads, or a model file,
        changes it. Speed-only settings (:attr:`SPEED_ONLY`) are left out.
        Model files are hashed once per process (SHA-256 of the content).
        """
        doc = {
            "engine": self.name or type(self).__qualname__,
            "version": self.library_version(),
            "settings": self.settings(),
            "models": {role: file_digest(path) for role, path in sorted(self.model_files().items())},
        }
        h = hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()
        return f"{self.name or type(self).__name__.lower()}-{h[:16]}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


_DIGESTS: dict[tuple, str] = {}
_DIGEST_LOCK = threading.Lock()


def file_digest(path: os.PathLike | str) -> str:
    """``sha256:<hex>`` of a file's content, cached per (path, size, mtime); ``missing`` if absent."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError:
        return "missing"
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns)
    with _DIGEST_LOCK:
        if key in _DIGESTS:
            return _DIGESTS[key]
    h = hashlib.sha256()
    with open(p, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    d = "sha256:" + h.hexdigest()
    with _DIGEST_LOCK:
        _DIGESTS[key] = d
    return d


def box_from_points(points) -> tuple[float, float, float, float]:
    """Axis-aligned ``(x0, y0, x1, y1)`` around a sequence of ``(x, y)`` points."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    return (float(p[:, 0].min()), float(p[:, 1].min()), float(p[:, 0].max()), float(p[:, 1].max()))


def polygon_from_points(points) -> tuple[tuple[float, float], ...]:
    """Points as a tuple of float pairs (hashable, JSON-friendly)."""
    p = np.asarray(points, dtype=float).reshape(-1, 2)
    return tuple((float(x), float(y)) for x, y in p)


def sort_reading_order(dets: Sequence[Detection]) -> list[Detection]:
    """Sort detections top-to-bottom, then left-to-right within a text row.

    Two detections are on one row when their vertical centres differ by less
    than half the smaller height; sorting by a raw ``y0`` would interleave the
    words of a slightly slanted line.
    """
    items = sorted(dets, key=lambda d: (d.box[1] + d.box[3]) / 2)
    rows: list[list[Detection]] = []
    for d in items:
        cy = (d.box[1] + d.box[3]) / 2
        if rows:
            last = rows[-1]
            ref = last[-1]
            rcy = (ref.box[1] + ref.box[3]) / 2
            if abs(cy - rcy) < 0.5 * max(1.0, min(d.height, ref.height)):
                last.append(d)
                continue
        rows.append([d])
    out: list[Detection] = []
    for row in rows:
        out.extend(sorted(row, key=lambda d: d.box[0]))
    return out


def token_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``[start, end)`` of the whitespace-separated tokens of ``text``."""
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text)]


# Advance widths (fraction of the em) of DejaVu Sans, close to Arial/Helvetica
# too. Cutting a line box by these instead of by character count puts word
# boundaries within a pixel or two on the sans fonts scanners and viewers use;
# on monospaced fonts it errs by a fraction of a character.
_WIDTHS = {
    " ": 0.318, ".": 0.318, ",": 0.318, ":": 0.337, ";": 0.337, "/": 0.337, "-": 0.361, "'": 0.275,
    "(": 0.390, ")": 0.390, "^": 0.838, "#": 0.838, "@": 1.0, "_": 0.5, "|": 0.337, "!": 0.400,
    "A": 0.684, "B": 0.686, "C": 0.698, "D": 0.770, "E": 0.632, "F": 0.575, "G": 0.775, "H": 0.752,
    "I": 0.295, "J": 0.295, "K": 0.656, "L": 0.557, "M": 0.863, "N": 0.748, "O": 0.787, "P": 0.603,
    "Q": 0.787, "R": 0.695, "S": 0.635, "T": 0.611, "U": 0.732, "V": 0.684, "W": 0.989, "X": 0.685,
    "Y": 0.611, "Z": 0.685, "a": 0.613, "b": 0.635, "c": 0.550, "d": 0.635, "e": 0.615, "f": 0.352,
    "g": 0.635, "h": 0.634, "i": 0.278, "j": 0.278, "k": 0.579, "l": 0.278, "m": 0.974, "n": 0.634,
    "o": 0.612, "p": 0.635, "q": 0.635, "r": 0.411, "s": 0.521, "t": 0.392, "u": 0.634, "v": 0.592,
    "w": 0.818, "x": 0.592, "y": 0.592, "z": 0.525,
}  # fmt: skip
_DIGIT = 0.636
_OTHER = 0.62


def char_width(c: str) -> float:
    """Relative advance width of one character (see ``_WIDTHS``)."""
    if c.isdigit():
        return _DIGIT
    return _WIDTHS.get(c, _OTHER)


def span_box(box, text: str, start: int, end: int, pad_chars: float = 0.0) -> tuple[float, float, float, float]:
    """Cut the part of ``box`` that holds characters ``[start, end)`` of ``text``.

    ``box`` is assumed to hold exactly ``text``; its width is shared out in
    proportion to typical glyph widths (:func:`char_width`) — an
    approximation. ``pad_chars`` widens the cut by that many average
    character widths on each side, clipped to ``box``, to absorb the error.
    """
    x0, y0, x1, y1 = box
    widths = [char_width(c) for c in text] or [1.0]
    total = sum(widths)
    scale = (x1 - x0) / total
    a = x0 + scale * sum(widths[:start])
    b = x0 + scale * sum(widths[:end])
    pad = pad_chars * (x1 - x0) / max(1, len(text))
    return (max(x0, a - pad), y0, min(x1, b + pad), y1)


def split_line(det: Detection) -> list[Detection]:
    """Split a multi-word line detection into ``level="word_est"`` word detections.

    Boxes are cut in proportion to typical glyph widths (see :func:`span_box`);
    a single-token detection is returned unchanged. Confidence and engine are
    inherited; polygons are dropped because the cut is axis-aligned.
    """
    spans = token_spans(det.text)
    if len(spans) <= 1:
        return [det]
    out = []
    for s, e in spans:
        out.append(
            Detection(
                text=det.text[s:e],
                box=span_box(det.box, det.text, s, e),
                confidence=det.confidence,
                polygon=None,
                engine=det.engine,
                level="word_est",
            )
        )
    return out
