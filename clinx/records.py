"""The few plain types that cross module borders.

Conventions every module relies on:

* **Images** are ``numpy.ndarray`` of dtype ``uint8``, shape ``(H, W, 3)``, RGB.
  Grayscale sources (X-ray, CT, MR) are replicated to three channels by the
  readers, so every engine and network sees one layout.
* **Masks** are ``numpy.ndarray`` of dtype ``bool``, shape ``(H, W)``;
  ``True`` marks pixels that must be removed.
* **Boxes** are ``(x0, y0, x1, y1)`` in pixel coordinates of the image they
  were found in, ``x1``/``y1`` exclusive.
* A :class:`Manifest` holds known identifiers. Its values are PHI: never put
  them in logs, exceptions or reports — use :meth:`Manifest.describe`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Mapping

import numpy as np

#: Canonical manifest fields, in the order reports list them.
PHI_FIELDS: tuple[str, ...] = (
    "patient_name",
    "birth_date",
    "study_date",
    "mrn",
    "accession",
    "hospital_name",
    "hospital_id",
    "phone",
    "email",
    "physician_name",
    "other_id",
)

ANSWER_TYPES = ("closed", "open")


@dataclass(frozen=True)
class Manifest:
    """Known identifiers of one sample, keyed by field name.

    ``fields`` maps a field (one of :data:`PHI_FIELDS` or any custom name) to
    its canonical value. ``renderings`` optionally maps a field to the exact
    strings that were drawn or written (e.g. a date as ``03/14/1961`` and
    ``14-Mar-1961``); matchers use both.
    """

    fields: Mapping[str, str] = field(default_factory=dict)
    renderings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Keep only non-empty string values: an empty field can match nothing
        # and would make every OCR string a partial match.
        clean = {str(k): str(v).strip() for k, v in dict(self.fields).items() if v is not None and str(v).strip()}
        object.__setattr__(self, "fields", clean)
        rend = {str(k): tuple(s for s in (str(x).strip() for x in v) if s) for k, v in dict(self.renderings).items()}
        object.__setattr__(self, "renderings", {k: v for k, v in rend.items() if v})

    def __bool__(self) -> bool:
        return bool(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def values_for(self, name: str) -> tuple[str, ...]:
        """Canonical value plus every known rendering of one field (deduplicated)."""
        out: list[str] = []
        if name in self.fields:
            out.append(self.fields[name])
        for r in self.renderings.get(name, ()):
            if r not in out:
                out.append(r)
        return tuple(out)

    def items(self) -> Iterator[tuple[str, str]]:
        """``(field, string)`` pairs over every canonical value and rendering."""
        for name in self.fields:
            for v in self.values_for(name):
                yield name, v

    def describe(self) -> dict[str, int]:
        """A log-safe summary: field name -> number of characters. No values."""
        return {k: len(v) for k, v in self.fields.items()}

    def to_dict(self) -> dict:
        return {"fields": dict(self.fields), "renderings": {k: list(v) for k, v in self.renderings.items()}}

    @classmethod
    def from_dict(cls, d: Mapping) -> "Manifest":
        """Accept either ``{"fields": {...}, "renderings": {...}}`` or a flat ``{field: value}``."""
        if not isinstance(d, Mapping):
            raise TypeError(f"manifest must be a JSON object, got {type(d).__name__}")
        if "fields" in d and isinstance(d["fields"], Mapping):
            return cls(fields=dict(d["fields"]), renderings=dict(d.get("renderings") or {}))
        return cls(fields={k: v for k, v in d.items() if isinstance(v, (str, int, float))})


@dataclass(frozen=True)
class Detection:
    """One OCR result: recognised text, its box, optional polygon and confidence."""

    text: str
    box: tuple[float, float, float, float]
    confidence: float = 1.0
    polygon: tuple[tuple[float, float], ...] | None = None
    engine: str = ""
    # "word": the engine gave a word box; "word_est": a word box estimated from a
    # line box by glyph widths (EasyOCR); "line": the whole recognised line.
    level: str = "word"

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


@dataclass
class Sample:
    """One image + question item as it moves through clinx.

    ``mask`` is the *true* PHI mask when known (benchmark) — never used by the
    sanitizer, only by metrics. ``clean_image`` is the image before injection,
    used only for restoration training and quality metrics.
    """

    id: str
    image: np.ndarray | None = None
    question: str = ""
    answer: str = ""
    answer_type: str = "open"
    manifest: Manifest = field(default_factory=Manifest)
    mask: np.ndarray | None = None
    provenance: dict = field(default_factory=dict)
    clean_image: np.ndarray | None = None
    clean_question: str | None = None
    nonphi_mask: np.ndarray | None = None
    nonphi_texts: tuple[str, ...] = ()
    background: np.ndarray | None = None  # x̃ without its text, backing boxes kept (built in memory only)

    @property
    def restoration_target(self) -> np.ndarray | None:
        """What a perfect restorer returns inside the mask: the background when known, else the clean image.

        They differ under a backing box drawn behind the text: the clean image
        has the scan there, which nothing in x̃ reveals; the background has the box.
        """
        return self.background if self.background is not None else self.clean_image

    def with_(self, **changes) -> "Sample":
        """A shallow copy with some fields replaced."""
        return replace(self, **changes)


def image_digest(image: np.ndarray) -> str:
    """Content hash of an image array (shape and dtype included), for caches."""
    h = hashlib.sha256()
    h.update(str(image.shape).encode())
    h.update(str(image.dtype).encode())
    h.update(np.ascontiguousarray(image).tobytes())
    return h.hexdigest()[:20]


def text_digest(*parts: str) -> str:
    """Content hash of strings, for caches and PHI-free identifiers."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()[:20]


def as_rgb(image: np.ndarray) -> np.ndarray:
    """Return ``image`` as ``uint8`` ``(H, W, 3)``; grayscale is replicated, alpha dropped."""
    a = np.asarray(image)
    if a.dtype != np.uint8:
        raise TypeError(f"expected uint8 image, got {a.dtype}")
    if a.ndim == 2:
        return np.repeat(a[:, :, None], 3, axis=2)
    if a.ndim == 3 and a.shape[2] == 1:
        return np.repeat(a, 3, axis=2)
    if a.ndim == 3 and a.shape[2] == 4:
        return np.ascontiguousarray(a[:, :, :3])
    if a.ndim == 3 and a.shape[2] == 3:
        return a
    raise ValueError(f"unsupported image shape {a.shape}")


def check_mask(mask: np.ndarray, image: np.ndarray) -> np.ndarray:
    """Validate a mask against its image and return it as ``bool``."""
    m = np.asarray(mask)
    if m.shape != image.shape[:2]:
        raise ValueError(f"mask shape {m.shape} does not match image {image.shape[:2]}")
    return m.astype(bool, copy=False)


def iter_chunks(items: Iterable, size: int) -> Iterator[list]:
    """Yield lists of up to ``size`` items."""
    chunk: list = []
    for it in items:
        chunk.append(it)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
