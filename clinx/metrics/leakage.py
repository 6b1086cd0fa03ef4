"""OCR leakage: how much of the manifest an OCR attacker reads back (ClinX paper §4.1).

The threat model of the paper (§3): the attacker has the released image and
an OCR engine, not the manifest; anything from the manifest that the attacker's
OCR output contains counts as recovered. All figures here are computed per OCR
engine (the attacker) and per manifest field, then aggregated over a dataset.

Definitions
-----------
**Normalisation** ``ν`` (:func:`normalize`): Unicode NFKC, case-folded, the
DICOM person-name separator ``^`` and every character that is not a letter or
digit replaced by a space, runs of spaces collapsed. So ``DOE^JOHN``,
``Doe, John`` and ``doe  john`` all become ``doe john``; ``03/14/1961`` becomes
``03 14 1961``. :func:`tokens` and :func:`compact` (``ν`` without spaces) are
those of :mod:`clinx.localize.normalize`, so the matcher that builds masks
and this metric compare strings in exactly the same form.

**Tokens** (:func:`tokens`): maximal runs of letters/digits of ``ν(s)``.
Manifest tokens shorter than :data:`MIN_TOKEN_LEN` (2) characters are not
counted — a lone initial or digit is also read from laterality markers and
scale bars and would measure the image, not the leak.

**PHI token recall** of a field: a manifest field has a canonical value and
possibly several renderings (e.g. two date formats); each is a *variant*. A
token ``t`` of a variant is *recovered* when ``t`` equals an OCR token, or —
because OCR engines merge adjacent words (``DOEJOHN``) — when
``len(t) >= 4`` and ``t`` is a substring of an OCR token. The field's recall
is that of its best variant (the attacker needs only one rendering), counted
as ``(recovered tokens, tokens)`` of that variant. Dataset figures:
*micro* = Σ recovered / Σ tokens over all images and fields; *macro* = mean
over images of the per-image micro recall.

**Character overlap** of a field: the length of the longest common
*contiguous* substring between the variant's compact form (``ν`` without
spaces) and any single OCR detection's compact form, divided by the
variant's compact length; best variant per field. This is the
longest-common-substring measure used for verbatim-extraction audits
(Gusfield 1997, §7.4; the "longest verbatim run" of Carlini et al. 2021,
*Extracting Training Data from Large Language Models*): it says how long a run
of the identifier the attacker read verbatim, and is 0 only when not even a
single character of it was read. Unlike token recall it credits partial
reads (``DOE^JOH`` → 6/7). Random text has a small floor (one or two shared
characters), which is why both figures are reported.

**Mask quality** against the true mask: pixel IoU (micro over the dataset =
Σ|P∩T| / Σ|P∪T|; macro = mean per image with a non-empty union); the same
IoU against the filled drawn value boxes (``box_iou``: the benchmark's true
mask marks glyph pixels, which a box-shaped mask can never match, so the
glyph IoU is low even for a perfect localizer); and *PHI-box recall* — the
fraction of drawn PHI value boxes whose glyph pixels are covered by the
predicted mask to at least ``cover`` (50 %).

**Non-PHI survival**: among the non-PHI texts (``L``/``R`` markers,
``PORTABLE``…) that the engine reads on the input image, the fraction it still
reads on the released one (text-level micro), and the fraction of images on
which *every* such text is still read (image-level, the issue's target).
A non-PHI text is *read* when all its tokens are OCR tokens, or its compact
form (≥ 4 characters) is a substring of a detection's compact form.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from clinx.records import Detection, Manifest, Sample, image_digest

log = logging.getLogger(__name__)

MIN_TOKEN_LEN = 2
MERGED_TOKEN_LEN = 4

_NON_ALNUM_UNICODE = re.compile(r"[\W_]+", re.UNICODE)


def normalize(text: str) -> str:
    """``ν``: NFKC, casefold, ``^`` and non-alphanumerics to spaces, spaces collapsed."""
    s = unicodedata.normalize("NFKC", str(text)).casefold().replace("^", " ")
    return " ".join(_NON_ALNUM_UNICODE.sub(" ", s).split())


def _local_tokens(text: str) -> list[str]:
    return normalize(text).split()


def _local_compact(text: str) -> str:
    return normalize(text).replace(" ", "")


try:  # one canonical form for the matcher and the metric, when the localizer is installed
    from clinx.localize.normalize import normalize as _compact_impl, tokens as _tokens_impl
except ImportError:  # pragma: no cover - the localizer ships with clinx; fallback keeps metrics standalone
    _compact_impl, _tokens_impl = _local_compact, _local_tokens


def tokens(text: str) -> list[str]:
    """Alphanumeric tokens of ``ν(text)`` (all lengths); :func:`clinx.localize.normalize.tokens`."""
    return _tokens_impl(text)


def compact(text: str) -> str:
    """``ν(text)`` without spaces — :func:`clinx.localize.normalize.normalize` — the form character overlap compares."""
    return _compact_impl(text)


# --------------------------------------------------------------------------- OCR side


@dataclass(frozen=True)
class OCRView:
    """What the attacker read on one image, pre-normalised for the metrics."""

    tokens: frozenset[str]
    compact_texts: tuple[str, ...]

    @classmethod
    def from_detections(cls, detections: Iterable[Detection]) -> "OCRView":
        toks: set[str] = set()
        texts: list[str] = []
        for d in detections:
            toks.update(tokens(d.text))
            c = compact(d.text)
            if c:
                texts.append(c)
        return cls(frozenset(toks), tuple(texts))

    def has_token(self, t: str) -> bool:
        """Exact token, or (long tokens) inside a merged OCR token."""
        if t in self.tokens:
            return True
        if len(t) >= MERGED_TOKEN_LEN:
            return any(t in o for o in self.tokens if len(o) > len(t))
        return False

    def longest_common_run(self, s: str) -> int:
        """Longest contiguous run of ``s`` found inside one detection (0 if none)."""
        best = 0
        for txt in self.compact_texts:
            m = SequenceMatcher(None, s, txt, autojunk=False).find_longest_match(0, len(s), 0, len(txt))
            best = max(best, m.size)
            if best == len(s):
                break
        return best


# --------------------------------------------------------------------------- per image


@dataclass
class FieldLeak:
    """Counts for one manifest field on one image (no values kept)."""

    tokens_total: int = 0
    tokens_recovered: int = 0
    chars_total: int = 0
    chars_recovered: int = 0

    def add(self, other: "FieldLeak") -> None:
        self.tokens_total += other.tokens_total
        self.tokens_recovered += other.tokens_recovered
        self.chars_total += other.chars_total
        self.chars_recovered += other.chars_recovered

    @property
    def token_recall(self) -> float:
        return self.tokens_recovered / self.tokens_total if self.tokens_total else 0.0

    @property
    def char_overlap(self) -> float:
        return self.chars_recovered / self.chars_total if self.chars_total else 0.0


def _target_tokens(value: str) -> list[str]:
    # Deduplicate but keep order: a name like "Ann Ann" has one secret token.
    return list(dict.fromkeys(t for t in tokens(value) if len(t) >= MIN_TOKEN_LEN))


def field_leak(values: Sequence[str], view: OCRView) -> FieldLeak | None:
    """Token recall and character overlap of one field, best variant each; None if no variant has tokens."""
    best_tok: tuple[float, int, int] | None = None
    best_chr: tuple[float, int, int] | None = None
    for v in values:
        toks = _target_tokens(v)
        if toks:
            rec = sum(view.has_token(t) for t in toks)
            cand = (rec / len(toks), rec, len(toks))
            # Ties go to the longer variant so totals stay comparable across images.
            if best_tok is None or cand[0] > best_tok[0] or (cand[0] == best_tok[0] and cand[2] > best_tok[2]):
                best_tok = cand
        c = compact(v)
        if c:
            run = view.longest_common_run(c)
            cand = (run / len(c), run, len(c))
            if best_chr is None or cand[0] > best_chr[0] or (cand[0] == best_chr[0] and cand[2] > best_chr[2]):
                best_chr = cand
    if best_tok is None:
        return None
    assert best_chr is not None
    return FieldLeak(best_tok[2], best_tok[1], best_chr[2], best_chr[1])


def image_leakage(
    detections: Iterable[Detection], manifest: Manifest, fields: Iterable[str] | None = None
) -> dict[str, FieldLeak]:
    """Per-field leak counts of one released image read by one engine.

    ``fields`` restricts the fields counted (e.g. those drawn on the image);
    by default every manifest field with at least one token counts.
    """
    view = detections if isinstance(detections, OCRView) else OCRView.from_detections(detections)
    names = list(manifest.fields) if fields is None else [f for f in fields if f in manifest.fields]
    out: dict[str, FieldLeak] = {}
    for name in names:
        leak = field_leak(manifest.values_for(name), view)
        if leak is not None:
            out[name] = leak
    return out


def aggregate_leakage(per_image: Sequence[Mapping[str, FieldLeak]]) -> dict:
    """Micro and macro token recall / character overlap, overall and per field.

    Returns ``{"token_recall", "token_recall_macro", "char_overlap",
    "char_overlap_macro", "n_images", "tokens_total", "per_field": {field:
    {"token_recall", "token_recall_macro", "char_overlap", "char_overlap_macro", "n_images", "tokens_total"}}}``.
    """
    total = FieldLeak()
    per_field: dict[str, FieldLeak] = {}
    per_field_rates: dict[str, list[tuple[float, float]]] = {}
    img_rates: list[tuple[float, float]] = []
    for img in per_image:
        img_total = FieldLeak()
        for name, leak in img.items():
            img_total.add(leak)
            per_field.setdefault(name, FieldLeak()).add(leak)
            per_field_rates.setdefault(name, []).append((leak.token_recall, leak.char_overlap))
        if img_total.tokens_total:
            img_rates.append((img_total.token_recall, img_total.char_overlap))
        total.add(img_total)

    def _mean(xs: list[float]) -> float:
        return float(np.mean(xs)) if xs else 0.0

    return {
        "token_recall": total.token_recall,
        "token_recall_macro": _mean([r[0] for r in img_rates]),
        "char_overlap": total.char_overlap,
        "char_overlap_macro": _mean([r[1] for r in img_rates]),
        "n_images": len(img_rates),
        "tokens_total": total.tokens_total,
        "per_field": {
            name: {
                "token_recall": leak.token_recall,
                "token_recall_macro": _mean([r[0] for r in per_field_rates[name]]),
                "char_overlap": leak.char_overlap,
                "char_overlap_macro": _mean([r[1] for r in per_field_rates[name]]),
                "n_images": len(per_field_rates[name]),
                "tokens_total": leak.tokens_total,
            }
            for name, leak in sorted(per_field.items())
        },
    }


# --------------------------------------------------------------------------- masks


@dataclass
class MaskQuality:
    """Pixel and box agreement of one predicted mask with the true mask."""

    intersection: int
    union: int
    boxes_total: int
    boxes_covered: int
    box_intersection: int = 0
    box_union: int = 0

    @property
    def iou(self) -> float:
        # Both empty: the localizer correctly found nothing.
        return self.intersection / self.union if self.union else 1.0

    @property
    def box_iou(self) -> float:
        """IoU against the filled PHI value boxes (a box-shaped mask cannot match glyph pixels exactly)."""
        return self.box_intersection / self.box_union if self.box_union else 1.0

    @property
    def box_recall(self) -> float:
        return self.boxes_covered / self.boxes_total if self.boxes_total else 1.0


def boxes_from_mask(true_mask: np.ndarray, gap: int = 6) -> list[tuple[int, int, int, int]]:
    """PHI value boxes recovered from a pixel mask when the drawn boxes are not recorded.

    Glyph pixels of one value are joined by closing horizontal gaps up to
    ``gap`` pixels (inter-letter spacing), then each connected component's
    bounding box is one value box. Used only as a fallback: the benchmark's
    recorded boxes are preferred (see :func:`phi_boxes`).
    """
    from scipy import ndimage

    m = np.asarray(true_mask, dtype=bool)
    if not m.any():
        return []
    joined = ndimage.binary_closing(m, structure=np.ones((1, 2 * gap + 1), bool)) | m
    labels, n = ndimage.label(joined)
    boxes = []
    for sl in ndimage.find_objects(labels):
        if sl is None:
            continue
        ys, xs = sl
        boxes.append((xs.start, ys.start, xs.stop, ys.stop))
    return boxes


def phi_boxes(sample: Sample) -> list[tuple[int, int, int, int]]:
    """The drawn PHI value boxes of a benchmark sample.

    Reads ``provenance["phi_boxes"]`` (a list of ``[x0, y0, x1, y1]`` or of
    ``{"box": [...], ...}``) when the benchmark recorded them, else derives
    them from the true mask with :func:`boxes_from_mask`.
    """
    recorded = (sample.provenance or {}).get("phi_boxes")
    if recorded:
        out = []
        for b in recorded:
            box = b.get("box") if isinstance(b, Mapping) else b
            x0, y0, x1, y1 = (int(round(float(v))) for v in box)
            out.append((x0, y0, x1, y1))
        return out
    if sample.mask is None:
        return []
    return boxes_from_mask(sample.mask)


def mask_quality(
    pred: np.ndarray, true: np.ndarray, boxes: Sequence[tuple[int, int, int, int]] | None = None, cover: float = 0.5
) -> MaskQuality:
    """Compare a predicted PHI mask with the true mask (and the true value boxes)."""
    p = np.asarray(pred, dtype=bool)
    t = np.asarray(true, dtype=bool)
    if p.shape != t.shape:
        raise ValueError(f"predicted mask {p.shape} and true mask {t.shape} differ in shape")
    inter = int(np.count_nonzero(p & t))
    union = int(np.count_nonzero(p | t))
    if boxes is None:
        boxes = boxes_from_mask(t)
    covered = 0
    h, w = t.shape
    filled = np.zeros_like(t)
    for x0, y0, x1, y1 in boxes:
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        x1, y1 = min(w, int(x1)), min(h, int(y1))
        if x1 <= x0 or y1 <= y0:
            continue
        filled[y0:y1, x0:x1] = True
        # Coverage of the value's own glyph pixels when known, else of its box:
        # a tight box around text is mostly background that need not be masked.
        region_t = t[y0:y1, x0:x1]
        region_p = p[y0:y1, x0:x1]
        denom = np.count_nonzero(region_t) or region_t.size
        num = np.count_nonzero(region_p & region_t) if np.count_nonzero(region_t) else np.count_nonzero(region_p)
        covered += int(num / denom >= cover)
    return MaskQuality(
        inter, union, len(boxes), covered, int(np.count_nonzero(p & filled)), int(np.count_nonzero(p | filled))
    )


def aggregate_masks(qualities: Sequence[MaskQuality]) -> dict:
    """``{"iou", "iou_macro", "box_iou", "box_recall", "boxes_total", "n_images"}`` over a dataset.

    ``iou`` compares with the pixel-exact (glyph) true mask; ``box_iou`` with
    the filled value boxes — the fairer reference for box-shaped OCR masks.
    """
    inter = sum(q.intersection for q in qualities)
    union = sum(q.union for q in qualities)
    bt = sum(q.boxes_total for q in qualities)
    bc = sum(q.boxes_covered for q in qualities)
    nonempty = [q.iou for q in qualities if q.union]
    return {
        "iou": inter / union if union else 1.0,
        "iou_macro": float(np.mean(nonempty)) if nonempty else 1.0,
        "box_iou": sum(q.box_intersection for q in qualities) / bu if (bu := sum(q.box_union for q in qualities)) else 1.0,
        "box_recall": bc / bt if bt else 1.0,
        "boxes_total": bt,
        "n_images": len(qualities),
    }


# --------------------------------------------------------------------------- non-PHI text


#: Fuzzy tolerance for reading a non-PHI text (normalised Indel similarity, rapidfuzz ``ratio``/100).
NONPHI_FUZZY = 0.85
NONPHI_FUZZY_MIN_LEN = 5


def text_is_read(text: str, view: OCRView) -> bool:
    """Whether a (non-PHI) text is read in ``view`` (see module docstring).

    Read when all its tokens are OCR tokens; or a multi-token text (``5 cm``)
    was read as one word (``5cm``) — its compact form equals a detection's;
    or its compact form (≥ 4
    characters) is inside a detection's compact form; or — OCR noise such as
    ``Facilitv:`` for ``Facility:`` — a compact form of ≥ 5 characters has a
    detection (or a same-length window of one) within normalised Indel
    similarity :data:`NONPHI_FUZZY`. Short texts (``L``, ``AP``) must be exact.
    """
    toks = tokens(text)
    if not toks:
        return False
    if all(t in view.tokens for t in toks):
        return True
    c = compact(text)
    # Exact equality is safe at any length: only the spacing differs.
    if len(toks) > 1 and any(c == t for t in view.compact_texts):
        return True
    if len(c) >= MERGED_TOKEN_LEN and any(c in t for t in view.compact_texts):
        return True
    if len(c) >= NONPHI_FUZZY_MIN_LEN:
        from rapidfuzz import fuzz

        cutoff = 100 * NONPHI_FUZZY
        for t in view.compact_texts:
            if fuzz.ratio(c, t) >= cutoff:
                return True
            if len(t) > len(c) and fuzz.partial_ratio(c, t) >= cutoff:
                return True
    return False


@dataclass
class Survival:
    """Non-PHI texts of one image: how many the engine read before and still reads after."""

    read_before: int
    read_after: int

    @property
    def all_survived(self) -> bool:
        return self.read_after == self.read_before


def nonphi_survival(texts: Iterable[str], before: OCRView, after: OCRView) -> Survival:
    """Count non-PHI texts read on the input and, of those, still read on the output."""
    before_read = [t for t in dict.fromkeys(texts) if text_is_read(t, before)]
    return Survival(len(before_read), sum(text_is_read(t, after) for t in before_read))


def nonphi_ink_kept(boxes: Iterable[Sequence[int]], before: np.ndarray, after: np.ndarray, tolerance: float = 0.02) -> Survival:
    """Non-PHI text boxes (``x0, y0, x1, y1``) whose pixels the release left alone, attacker-free.

    A box is kept when at most ``tolerance`` of its pixels changed. This is
    what clinx did to the non-PHI text, independent of whether an OCR
    attacker still reads a short label beside a black box (which
    :func:`nonphi_survival` also measures). Returns a :class:`Survival`
    (``read_before`` = boxes, ``read_after`` = boxes kept).
    """
    a, b = np.asarray(before), np.asarray(after)
    if a.ndim == 3:
        a = a[..., :3].mean(-1)
    if b.ndim == 3:
        b = b[..., :3].mean(-1)
    if a.shape != b.shape:
        raise ValueError(f"released image has shape {b.shape}, input {a.shape}")
    changed = np.abs(a.astype(np.float32) - b.astype(np.float32)) > 0.5
    total = kept = 0
    for x0, y0, x1, y1 in boxes:
        if x1 <= x0 or y1 <= y0:
            continue
        total += 1
        kept += float(changed[y0:y1, x0:x1].mean()) <= tolerance
    return Survival(total, kept)


def aggregate_survival(items: Sequence[Survival]) -> dict:
    """``{"image_rate", "text_rate", "n_images"}`` over images with at least one non-PHI text read before."""
    rel = [s for s in items if s.read_before]
    rb = sum(s.read_before for s in rel)
    ra = sum(s.read_after for s in rel)
    return {
        "image_rate": float(np.mean([s.all_survived for s in rel])) if rel else float("nan"),
        "text_rate": ra / rb if rb else float("nan"),
        "n_images": len(rel),
    }


# --------------------------------------------------------------------------- datasets


class ReadCache:
    """OCR reads keyed by (engine name, image content hash).

    The ``raw`` condition's outputs equal its inputs, and the input reads are
    needed for non-PHI survival of every condition, so caching saves most of
    the attack's OCR calls.
    """

    def __init__(self, directory: str | Path | None = None, fingerprints: Mapping[str, str] | None = None) -> None:
        self._reads: dict[tuple[str, str], OCRView] = {}
        self._dets: dict[tuple[str, str], list[Detection]] = {}
        self.calls = 0
        # Optional on-disk layer: reads of a slow attacker survive a rerun. Files
        # hold recognised text (synthetic PHI on the benchmark), so the folder
        # belongs with the benchmark's own PHI files, never with released output.
        self.directory = Path(directory) if directory else None
        self.fingerprints = dict(fingerprints or {})

    def _disk_path(self, name: str, digest: str) -> Path | None:
        if self.directory is None:
            return None
        fp = self.fingerprints.get(name, name)
        import hashlib

        tag = hashlib.sha256(fp.encode()).hexdigest()[:12]
        return self.directory / f"{name}-{tag}" / f"{digest}.json"

    def detections(self, engine, image: np.ndarray, name: str | None = None) -> list[Detection]:
        name = name or engine.name
        digest = image_digest(image)
        key = (name, digest)
        if key in self._dets:
            return self._dets[key]
        path = self._disk_path(name, digest)
        if path is not None and path.is_file():
            import json

            self._dets[key] = [
                Detection(d["text"], tuple(d["box"]), float(d.get("confidence", 1.0)), None, d.get("engine", name),
                          d.get("level", "word"))
                for d in json.loads(path.read_text(encoding="utf-8"))
            ]
            return self._dets[key]
        self.calls += 1
        dets = list(engine.read(image))
        self._dets[key] = dets
        if path is not None:
            import json

            from clinx.atomic import write_text_atomic

            path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, json.dumps([
                {"text": d.text, "box": [float(v) for v in d.box], "confidence": float(d.confidence),
                 "engine": d.engine, "level": d.level} for d in dets]))
        return dets

    def view(self, engine, image: np.ndarray, name: str | None = None) -> OCRView:
        key = (name or engine.name, image_digest(image))
        if key not in self._reads:
            self._reads[key] = OCRView.from_detections(self.detections(engine, image, name))
        return self._reads[key]


class CachedEngine:
    """An OCR engine whose reads go through a :class:`ReadCache` (same ``read``/``read_item`` interface).

    Lets a :class:`clinx.localize.PhiLocalizer` build masks from reads the
    attack already made (or will make) on the same input images.
    """

    def __init__(self, engine, cache: ReadCache, name: str | None = None):
        self.engine = engine
        self.cache = cache
        self.name = name or engine.name

    def read(self, image: np.ndarray) -> list[Detection]:
        return self.cache.detections(self.engine, image, self.name)

    def read_item(self, image: np.ndarray, item: str) -> list[Detection]:
        key = (self.name, image_digest(image))
        if key in self.cache._dets:
            return self.cache._dets[key]
        dets = list(self.engine.read_item(image, item)) if hasattr(self.engine, "read_item") else list(self.engine.read(image))
        self.cache.calls += 1
        self.cache._dets[key] = dets
        return dets


def image_fields(sample: Sample) -> list[str] | None:
    """Fields drawn on the image, when the benchmark recorded them (``provenance["image_fields"]``)."""
    rec = (sample.provenance or {}).get("image_fields")
    return list(rec) if rec else None


def nonphi_kinds(sample: Sample) -> dict[str, list[str]]:
    """Non-PHI texts grouped by kind (``label``, ``marker``, ``position``, ``scale``) when the benchmark recorded kinds."""
    out: dict[str, list[str]] = {}
    for b in (sample.provenance or {}).get("nonphi_boxes") or ():
        if isinstance(b, Mapping) and b.get("text") and b.get("kind"):
            out.setdefault(str(b["kind"]), []).append(str(b["text"]))
    return out


def _as_image(obj) -> np.ndarray:
    if isinstance(obj, np.ndarray):
        return obj
    from clinx.data.images import load_image

    return load_image(Path(obj))


def evaluate_leakage(
    outputs: Mapping[str, np.ndarray | str | Path],
    samples: Sequence[Sample],
    engines: Mapping[str, object],
    *,
    cache: ReadCache | None = None,
    progress: Callable[[Iterable], Iterable] | None = None,
) -> dict:
    """Attack released images with each OCR engine and measure what is left.

    ``outputs`` maps a sample id to its released image (array or file path);
    samples without an output (quarantined, never released) are counted in
    ``n_missing`` and leak nothing. ``samples`` carry the input image, manifest
    and non-PHI texts; ``engines`` maps an engine name to an ``OCREngine``.

    Returns ``{engine: {**aggregate_leakage(...), "nonphi": aggregate_survival(...),
    "nonphi_by_kind": {kind: aggregate_survival(...)}, "n_released": int, "n_missing": int}}``. Reuse ``cache`` across conditions
    so input reads and identical outputs are OCR'd once.
    """
    cache = cache or ReadCache()
    wrap = progress or (lambda it: it)
    results: dict[str, dict] = {}
    for ename, engine in engines.items():
        per_image: list[dict[str, FieldLeak]] = []
        survival: list[Survival] = []
        by_kind: dict[str, list[Survival]] = {}
        missing = 0
        for s in wrap(samples):
            out = outputs.get(s.id)
            if out is None:
                missing += 1
                continue
            img = _as_image(out)
            view = cache.view(engine, img, ename)
            per_image.append(image_leakage(view, s.manifest, image_fields(s)))
            if s.nonphi_texts and s.image is not None:
                before = cache.view(engine, s.image, ename)
                survival.append(nonphi_survival(s.nonphi_texts, before, view))
                for kind, texts in nonphi_kinds(s).items():
                    by_kind.setdefault(kind, []).append(nonphi_survival(texts, before, view))
        res = aggregate_leakage(per_image)
        res["nonphi"] = aggregate_survival(survival)
        res["nonphi_by_kind"] = {k: aggregate_survival(v) for k, v in sorted(by_kind.items())}
        res["n_released"] = len(per_image)
        res["n_missing"] = missing
        results[ename] = res
    return results


def leakage_rows(results: Mapping[str, Mapping[str, dict]]) -> list[dict]:
    """Flatten ``{condition: evaluate_leakage(...)}`` into table rows (one per condition × engine × field, plus ``ALL``)."""
    rows = []
    for cond, per_engine in results.items():
        for ename, res in per_engine.items():
            rows.append(
                {
                    "condition": cond,
                    "engine": ename,
                    "field": "ALL",
                    "token_recall": res["token_recall"],
                    "token_recall_macro": res["token_recall_macro"],
                    "char_overlap": res["char_overlap"],
                    "char_overlap_macro": res["char_overlap_macro"],
                    "nonphi_image_rate": res["nonphi"]["image_rate"],
                    "n_images": res["n_images"],
                    "n_missing": res["n_missing"],
                }
            )
            for fname, f in res["per_field"].items():
                rows.append(
                    {
                        "condition": cond,
                        "engine": ename,
                        "field": fname,
                        "token_recall": f["token_recall"],
                        "token_recall_macro": f["token_recall_macro"],
                        "char_overlap": f["char_overlap"],
                        "char_overlap_macro": f["char_overlap_macro"],
                        "nonphi_image_rate": float("nan"),
                        "n_images": f["n_images"],
                        "n_missing": 0,
                    }
                )
    return rows


def markdown_table(rows: Sequence[Mapping], columns: Sequence[str] | None = None) -> str:
    """A Markdown table of ``rows`` (floats to 4 decimals)."""
    if not rows:
        return "(no rows)"
    cols = list(columns or rows[0].keys())

    def fmt(v) -> str:
        if isinstance(v, float):
            return "—" if v != v else f"{v:.4f}"
        return str(v)

    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    lines += ["| " + " | ".join(fmt(r.get(c, "")) for c in cols) + " |" for r in rows]
    return "\n".join(lines)


# --------------------------------------------------------------------------- drawn identifiers (native benchmark)
#
# The manifest-field recall above asks "how much of the manifest can the
# attacker read". A custodian's manifest holds header values (``DOE^JOHN``,
# ``19530716``) while the image shows renderings (``07.16.1953``) and
# identifiers the manifest never listed (a second ID, a physician, a burned-in
# date that differs from the header). What matters is what was *drawn*, so the
# native benchmark keeps a per-value record of every drawn identifier, with
# whether the manifest lists it, and the figures below count those.


@dataclass(frozen=True)
class DrawnValue:
    """One identifier drawn on an image (PHI: ``text``), its field, box and whether the manifest lists it."""

    text: str
    field: str
    listed: bool
    box: tuple[int, int, int, int]

    def to_dict(self) -> dict:
        return {"text": self.text, "field": self.field, "listed": bool(self.listed), "box": [int(v) for v in self.box]}

    @classmethod
    def from_dict(cls, d: Mapping) -> "DrawnValue":
        return cls(str(d["text"]), str(d["field"]), bool(d["listed"]), tuple(int(v) for v in d["box"]))


@dataclass
class DrawnLeak:
    """Drawn-identifier token counts of one released image (no values kept)."""

    listed_total: int = 0
    listed_recovered: int = 0
    unlisted_total: int = 0
    unlisted_recovered: int = 0
    #: Characters of the drawn values (compacted) and the longest run of each read at its place.
    chars_total: int = 0
    chars_recovered: int = 0

    @property
    def total(self) -> int:
        return self.listed_total + self.unlisted_total

    @property
    def recovered(self) -> int:
        return self.listed_recovered + self.unlisted_recovered


def _near(a: Sequence[float], b: Sequence[float], pad: float) -> bool:
    return not (a[2] + pad <= b[0] or b[2] + pad <= a[0] or a[3] + pad <= b[1] or b[3] + pad <= a[1])


def drawn_leak(values: Sequence[DrawnValue], detections: Sequence[Detection]) -> DrawnLeak:
    """Tokens of each drawn value that the attacker read *at that value's place*.

    A token (≥ :data:`MIN_TOKEN_LEN` characters, deduplicated per value) is
    recovered when an OCR detection whose box touches the value's box (padded
    by half the value's height) reads it — exactly, or inside a merged word
    for tokens of ≥ :data:`MERGED_TOKEN_LEN` characters. Location matters
    because dates share tokens (``07``, ``2021``): reading the year of an
    unmasked second date must not count as reading the masked one.

    Character overlap counts, per value, the longest contiguous run of its
    compacted characters that one local detection reads: partial reads (a
    surname's first four letters) that token recall scores as nothing.
    """
    out = DrawnLeak()
    for v in values:
        toks = _target_tokens(v.text)
        if not toks:
            continue
        pad = 0.5 * max(1, v.box[3] - v.box[1])
        local = OCRView.from_detections([d for d in detections if _near(d.box, v.box, pad)])
        rec = sum(local.has_token(t) for t in toks)
        chars = compact(v.text)
        out.chars_total += len(chars)
        out.chars_recovered += local.longest_common_run(chars) if chars else 0
        if v.listed:
            out.listed_total += len(toks)
            out.listed_recovered += rec
        else:
            out.unlisted_total += len(toks)
            out.unlisted_recovered += rec
    return out


def bootstrap_ratio_se(num: Sequence[float], den: Sequence[float], *, n_boot: int = 1000, seed: int = 0) -> float:
    """Standard error of ``Σnum / Σden`` by resampling images (cluster bootstrap).

    Tokens of one image are not independent (one mask covers them all), so
    images, not tokens, are resampled. ``nan`` with fewer than two images.
    """
    num, den = np.asarray(num, float), np.asarray(den, float)
    if len(num) < 2 or den.sum() <= 0:
        return float("nan")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(num), size=(n_boot, len(num)))
    d = den[idx].sum(axis=1)
    r = np.where(d > 0, num[idx].sum(axis=1) / np.maximum(d, 1e-12), 0.0)
    return float(r.std(ddof=1))


def _recall_figure(num: list[int], den: list[int]) -> dict:
    tot, rec = int(sum(den)), int(sum(num))
    return {
        "recall": rec / tot if tot else float("nan"),
        "se": bootstrap_ratio_se(num, den),
        # With nothing read the bootstrap SE is 0; the rule of three bounds the rate instead.
        "upper95": (3.0 / tot if rec == 0 else float("nan")) if tot else float("nan"),
        "recovered": rec,
        "tokens": tot,
        "n_images": sum(1 for d in den if d),
    }


def attack_regions(sample: Sample, drawn: Sequence[DrawnValue] = (), *, pad_lines: float = 2.0,
                   min_pad: int = 16, min_side: int = 64) -> list[tuple[int, int, int, int]]:
    """Where an evaluator points a region attacker: every drawn text (PHI and non-PHI) with context, merged.

    Each drawn box grows by ``pad_lines`` of its own height (at least
    ``min_pad`` px) on every side; overlapping boxes are merged until none
    overlap, so a block of lines becomes one region and no region cuts a line
    that another holds. Reading these at native scale is at least as strong as
    reading the whole image at native scale *for these texts* (the detector
    sees the same pixels at the same scale, with less clutter) and costs a
    fraction on a 3,000² scan; the drawn-value recall only counts reads near
    drawn values anyway.
    """
    if sample.image is None:
        return []
    H, W = sample.image.shape[:2]
    boxes = [tuple(d.box) for d in drawn]
    for b in (sample.provenance or {}).get("nonphi_boxes") or ():
        if isinstance(b, Mapping) and b.get("box"):
            boxes.append(tuple(int(v) for v in b["box"]))
    rects = []
    for x0, y0, x1, y1 in boxes:
        p = max(min_pad, int(pad_lines * max(1, y1 - y0)))
        r = [max(0, x0 - p), max(0, y0 - p), min(W, x1 + p), min(H, y1 + p)]
        # Tiny regions get room: detectors need some context around a glyph.
        for lo, hi, lim in ((0, 2, W), (1, 3, H)):
            if r[hi] - r[lo] < min_side:
                c = (r[lo] + r[hi]) // 2
                r[lo], r[hi] = max(0, c - min_side // 2), min(lim, c + min_side // 2)
        rects.append(r)
    merged = True
    while merged:
        merged = False
        out: list[list[int]] = []
        for r in rects:
            for o in out:
                if not (r[2] <= o[0] or o[2] <= r[0] or r[3] <= o[1] or o[3] <= r[1]):
                    o[0], o[1], o[2], o[3] = min(o[0], r[0]), min(o[1], r[1]), max(o[2], r[2]), max(o[3], r[3])
                    merged = True
                    break
            else:
                out.append(list(r))
        rects = out
    return [tuple(r) for r in sorted(rects)]


def read_regions(cache: "ReadCache", engine, image: np.ndarray, regions, name: str) -> list[Detection]:
    """Read each region crop at native scale; detections in full-image coordinates (cached per crop)."""
    from dataclasses import replace

    out: list[Detection] = []
    for x0, y0, x1, y1 in regions:
        crop = np.ascontiguousarray(image[y0:y1, x0:x1])
        for d in cache.detections(engine, crop, name):
            b = d.box
            out.append(replace(d, box=(b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0), polygon=None))
    return out


def evaluate_release(
    outputs: Mapping[str, np.ndarray | str | Path],
    samples: Sequence[Sample],
    drawn: Mapping[str, Sequence[DrawnValue]],
    engines: Mapping[str, object],
    *,
    cache: "ReadCache | None" = None,
    progress: Callable[[Iterable], Iterable] | None = None,
    scope: str = "full",
) -> dict:
    """Attack the released images of one condition: drawn-identifier recall, release rate, non-PHI survival.

    ``scope="full"`` reads whole images; ``"regions"`` reads the crops of
    :func:`attack_regions` (same pixels at the same scale around every drawn
    text — the affordable attack on large scans with slow engines).

    ``outputs`` maps a sample id to its released image; a sample without one
    was quarantined (or failed) and is **counted**, never dropped: every
    engine's result carries ``n_items``, ``n_released``, ``n_quarantined``
    and ``released_fraction`` beside the recalls, which are over released
    items only. ``drawn`` maps a sample id to its drawn identifiers (see
    :class:`DrawnValue`).

    Returns ``{engine: {"token_recall": {...}, "token_recall_listed": {...},
    "token_recall_unlisted": {...}, "char_overlap": {...}, "nonphi": aggregate_survival(...),
    "nonphi_by_kind": {...}, "n_items", "n_released", "n_quarantined",
    "released_fraction"}}`` where each recall is ``{"recall", "se",
    "upper95", "recovered", "tokens", "n_images"}``.
    """
    cache = cache or ReadCache()
    wrap = progress or (lambda it: it)
    results: dict[str, dict] = {}
    n_items = len(samples)
    released_ids = [s.id for s in samples if outputs.get(s.id) is not None]
    for ename, engine in engines.items():
        per: list[DrawnLeak] = []
        survival: list[Survival] = []
        by_kind: dict[str, list[Survival]] = {}
        for s in wrap(samples):
            out = outputs.get(s.id)
            if out is None:
                continue
            img = _as_image(out)
            if scope == "regions":
                regions = attack_regions(s, drawn.get(s.id, ()))
                dets = read_regions(cache, engine, img, regions, ename)
            elif scope == "full":
                dets = cache.detections(engine, img, ename)
            else:
                raise ValueError(f"scope must be 'full' or 'regions', got {scope!r}")
            per.append(drawn_leak(drawn.get(s.id, ()), dets))
            if s.nonphi_texts and s.image is not None:
                if scope == "regions":
                    before = OCRView.from_detections(read_regions(cache, engine, s.image, regions, ename))
                    after = OCRView.from_detections(dets)
                else:
                    before = cache.view(engine, s.image, ename)
                    after = cache.view(engine, img, ename)
                survival.append(nonphi_survival(s.nonphi_texts, before, after))
                for kind, texts in nonphi_kinds(s).items():
                    by_kind.setdefault(kind, []).append(nonphi_survival(texts, before, after))
        results[ename] = {
            "token_recall": _recall_figure([p.recovered for p in per], [p.total for p in per]),
            "token_recall_listed": _recall_figure([p.listed_recovered for p in per], [p.listed_total for p in per]),
            "token_recall_unlisted": _recall_figure([p.unlisted_recovered for p in per], [p.unlisted_total for p in per]),
            "char_overlap": _recall_figure([p.chars_recovered for p in per], [p.chars_total for p in per]),
            "nonphi": aggregate_survival(survival),
            "nonphi_by_kind": {k: aggregate_survival(v) for k, v in sorted(by_kind.items())},
            "n_items": n_items,
            "n_released": len(released_ids),
            "n_quarantined": n_items - len(released_ids),
            "released_fraction": len(released_ids) / n_items if n_items else float("nan"),
        }
    return results
