"""Image-side PHI localisation: OCR → manifest matching ∪ identifier patterns → PHI-only mask (ClinX §3.2, App. B.2).

Four modes:

* ``mode="manifest+patterns"`` (default) — mask text that matches the item's
  manifest *and* identifiers that clinx's text recognisers find on the OCR
  lines (:mod:`clinx.localize.patterns`: dates in any rendering, IDs, phone,
  names after cues, …), so a burned-in date that differs from the header, or
  an ID no manifest lists, is masked too. With an empty manifest only the
  patterns run and :attr:`Localization.mode_used` says ``"patterns"``.
* ``mode="manifest"`` — mask only text that matches the item's
  manifest. Without known identifiers we cannot tell PHI from clinical text,
  so an **empty manifest fails closed**: :meth:`PhiLocalizer.locate` raises
  :class:`~clinx.errors.ItemError` (``stage="manifest"``) and the batch
  runner quarantines the item instead of releasing it unmasked.
* ``mode="patterns"`` — the recognisers only; the manifest is not used.
* ``mode="all_text"`` — an explicit opt-in fallback for data without
  manifests: mask *every* detected word except an allow-list of known
  non-PHI tokens (laterality markers, positioning and view words, units).
  Safer for privacy, harsher on utility; it never looks at the manifest.

Engine failures inside :meth:`~PhiLocalizer.locate` are raised as
``ItemError(stage="ocr")`` naming the item (via :meth:`OCREngine.read_item`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from clinx.errors import ConfigError, ItemError
from clinx.fingerprint import settings_digest
from clinx.records import Detection, Manifest

from .glyphs import snap_cuts
from .mask import build_mask
from .match import DEFAULT_MIN_CONFIDENCE, DEFAULT_THRESHOLD, Match, match_detections
from .normalize import normalize, tokens
from .patterns import label_boxes, pattern_matches

#: Localisation modes (see module doc); the first is the default.
MODES = ("manifest+patterns", "manifest", "patterns", "all_text")

#: Burned-in words that are not PHI and that ``mode="all_text"`` keeps.
DEFAULT_ALLOW = (
    "L", "R", "LT", "RT", "LEFT", "RIGHT", "PA", "AP", "LAT", "LATERAL", "AXIAL", "CORONAL", "SAGITTAL",
    "PORTABLE", "SUPINE", "ERECT", "UPRIGHT", "SEMI-UPRIGHT", "SEMI", "PRONE", "DECUBITUS", "OBLIQUE",
    "INSP", "EXP", "CM", "MM", "KV", "MA", "MAS", "WL", "WW", "W", "C", "T1", "T2", "FLAIR", "DWI",
    "ADC", "CT", "MR", "MRI", "US", "CR", "DX", "XR", "PET", "HEAD", "CHEST", "ABDOMEN", "PELVIS",
)  # fmt: skip


@dataclass
class Localization:
    """What :meth:`PhiLocalizer.locate` found in one image.

    ``mask`` is the PHI mask (``bool (H, W)``), ``matches`` the masked word
    regions with their manifest field (or ``pattern:<CATEGORY>`` for a
    pattern hit), ``detections`` everything OCR read (kept so callers can
    count surviving non-PHI text without re-running OCR). ``mode_used`` is
    what actually ran: ``"manifest+patterns"``, ``"manifest"``,
    ``"patterns"`` (also when ``manifest+patterns`` got no manifest) or
    ``"all_text"``.
    """

    mask: np.ndarray
    matches: list[Match] = field(default_factory=list)
    detections: list[Detection] = field(default_factory=list)
    mode_used: str = ""

    @property
    def fields(self) -> list[str]:
        """Manifest fields and ``pattern:<CATEGORY>`` labels that were found (sorted, log-safe)."""
        return sorted({m.field for m in self.matches})

    @property
    def pattern_hits(self) -> int:
        """Masked regions found by pattern (not by the manifest)."""
        return sum(1 for m in self.matches if m.field.startswith("pattern:"))


class PhiLocalizer:
    """OCR an image, match the words against a manifest, rasterise a PHI-only mask.

    Parameters
    ----------
    engine:
        An :class:`~clinx.ocr.base.OCREngine`, or an engine name for
        :func:`clinx.ocr.get_engine` (built once and cached).
    threshold:
        Similarity threshold (0-100) for :func:`~clinx.localize.match.match_detections`.
    dilation:
        Mask margin in pixels around every matched word.
    relative_dilation:
        Extra margin as a fraction of text height (the larger margin wins).
    min_confidence:
        OCR confidence below which a detection is ignored.
    mode:
        ``"manifest+patterns"`` (default), ``"manifest"`` (fails closed on
        an empty manifest), ``"patterns"`` or ``"all_text"`` (mask all text
        except ``allow``); see the module doc.
    allow:
        Non-PHI tokens kept in ``"all_text"`` mode (compared normalised).
    match_params:
        Further keyword arguments for ``match_detections``.
    """

    def __init__(
        self,
        engine="rapidocr",
        threshold: float = DEFAULT_THRESHOLD,
        dilation: float = 3,
        *,
        relative_dilation: float = 0.15,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        mode: str = "manifest+patterns",
        allow: Sequence[str] = DEFAULT_ALLOW,
        engine_params: dict | None = None,
        match_params: dict | None = None,
    ):
        if mode not in MODES:
            raise ConfigError(f"PhiLocalizer mode must be one of {', '.join(MODES)}, got {mode!r}")
        if not 0 <= float(threshold) <= 100:
            raise ConfigError(f"threshold is a 0-100 similarity, got {threshold}")
        if isinstance(engine, str):
            from clinx.ocr import get_engine

            engine = get_engine(engine, **dict(engine_params or {}))
        self.engine = engine
        self.threshold = float(threshold)
        self.dilation = float(dilation)
        self.relative_dilation = float(relative_dilation)
        self.min_confidence = float(min_confidence)
        self.mode = mode
        self.allow = frozenset(normalize(a) for a in allow)
        self.match_params = dict(match_params or {})

    def locate(self, image: np.ndarray, manifest: Manifest | None, *, item: str = "<image>") -> Localization:
        """Find the PHI in ``image``.

        ``item`` is a safe identifier used in errors. Raises
        :class:`~clinx.errors.ItemError` with ``stage="manifest"`` when the
        manifest is empty in ``"manifest"`` mode, and with ``stage="ocr"``
        when the engine fails.
        """
        manifest = manifest if manifest is not None else Manifest()
        if self.mode == "manifest" and not manifest:
            raise ItemError(
                item,
                "manifest has no non-empty fields: without known identifiers PHI cannot be told from other text "
                "(give a manifest, or use mode=all_text to mask all text)",
                stage="manifest",
            )
        dets = self.engine.read_item(image, item)
        matches = snap_cuts(image, self.match(dets, manifest))
        mask = build_mask(np.shape(image), matches, self.dilation, relative_dilation=self.relative_dilation)
        if matches and self.mode != "all_text":
            mask = self._spare_labels(mask, dets, matches, manifest)
        return Localization(mask=mask, matches=matches, detections=dets, mode_used=self.mode_used(manifest))

    def _spare_labels(self, mask: np.ndarray, dets, matches, manifest: Manifest) -> np.ndarray:
        """The mask with its margins taken back off the field labels' boxes (``Pt:`` above a masked name).

        The margin (dilation) of a value, or of the line above or below, would
        otherwise clip a label's glyphs. Only margins: the matched regions
        themselves stay masked, so a value whose box overlaps a label's box is
        still covered whole, and a label-looking manifest value is never a label.
        """
        gap = float(self.match_params.get("gap_factor", 2.5))
        boxes = label_boxes(dets, min_confidence=self.min_confidence, gap_factor=gap, protect=_manifest_tokens(manifest))
        if not boxes:
            return mask
        keep = build_mask(mask.shape, boxes, 0)
        core = build_mask(mask.shape, matches, 0)
        return (mask & ~keep) | core

    def mode_used(self, manifest: Manifest | None) -> str:
        """The mode that runs for ``manifest``: ``manifest+patterns`` falls back to ``patterns`` without one."""
        if self.mode == "manifest+patterns" and not manifest:
            return "patterns"
        return self.mode

    def locate_batch(
        self,
        images: Iterable[np.ndarray],
        manifests: Iterable[Manifest],
        items: Iterable[str] | None = None,
        *,
        return_errors: bool = False,
    ) -> list:
        """:meth:`locate` over paired images and manifests, in order.

        Uses the engine's ``workers`` (RapidOCR ``workers=2, threads=1`` reads
        two images at once on two cores). With ``return_errors=True`` a failed
        item yields its :class:`~clinx.errors.ItemError` in place and the
        others still complete; otherwise the first failure is raised.
        """
        images = list(images)
        manifests = list(manifests)
        items = list(items) if items is not None else [f"<image {i}>" for i in range(len(images))]

        def one(args):
            im, m, it = args
            try:
                return self.locate(im, m, item=it)
            except ItemError as exc:
                if return_errors:
                    return exc
                raise

        jobs = list(zip(images, manifests, items))
        workers = int(getattr(self.engine, "workers", 1) or 1)
        if workers <= 1 or len(jobs) <= 1:
            return [one(j) for j in jobs]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(workers) as pool:
            return list(pool.map(one, jobs))

    def match(self, detections: Sequence[Detection], manifest: Manifest) -> list[Match]:
        """The masked regions for already-read detections (no OCR)."""
        if self.mode == "all_text":
            return self._all_text(detections)
        out: list[Match] = []
        if self.mode in ("manifest", "manifest+patterns") and manifest:
            out.extend(match_detections(detections, manifest, self.threshold, min_confidence=self.min_confidence, **self.match_params))
        if self.mode in ("patterns", "manifest+patterns"):
            gap = float(self.match_params.get("gap_factor", 2.5))
            out.extend(pattern_matches(detections, min_confidence=self.min_confidence, gap_factor=gap, protect=_manifest_tokens(manifest)))
        return out

    def fingerprint(self) -> str:
        """Identity of what this localizer does: engine fingerprint, own settings, mode, pattern code.

        Deterministic; changes when a setting, the engine (its settings or
        model files) or the source of the recognisers and matcher changes.
        Engines without ``fingerprint()`` contribute their class and ``params``.
        """
        eng = self.engine.fingerprint() if hasattr(self.engine, "fingerprint") else f"{type(self.engine).__qualname__}:{getattr(self.engine, 'params', {})}"
        doc = {
            "engine": eng,
            "mode": self.mode,
            "threshold": self.threshold,
            "dilation": self.dilation,
            "relative_dilation": self.relative_dilation,
            "min_confidence": self.min_confidence,
            "allow": sorted(self.allow),
            "match_params": self.match_params,
            "code": code_digest(),
        }
        h = hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()
        return f"localizer-{h[:16]}"

    def _all_text(self, detections: Sequence[Detection]) -> list[Match]:
        from clinx.ocr.base import span_box, token_spans

        out: list[Match] = []
        for i, d in enumerate(detections):
            if d.confidence < self.min_confidence:
                continue
            spans = token_spans(d.text)
            if len(spans) <= 1:
                if normalize(d.text) not in self.allow:
                    out.append(Match(i, "all_text", 100.0, "all_text", tuple(d.box), d.polygon))
                continue
            for s, e in spans:  # keep allowed words of a line, mask the rest
                if normalize(d.text[s:e]) not in self.allow:
                    out.append(Match(i, "all_text", 100.0, "all_text", span_box(d.box, d.text, s, e, pad_chars=0.5)))
        return out

    def __repr__(self) -> str:
        return f"PhiLocalizer(engine={self.engine!r}, threshold={self.threshold}, dilation={self.dilation}, mode={self.mode!r})"


def _manifest_tokens(manifest: Manifest | None) -> frozenset[str]:
    """Every normalised token of the manifest's values: words that are never taken for a field label."""
    if not manifest:
        return frozenset()
    return frozenset(t for f in manifest.fields for v in manifest.values_for(f) for t in tokens(v))


def code_digest() -> str:
    """sha256 (16 hex) of the code and data that decide a mask besides the settings.

    The text recognisers with their lexicons and rule tables
    (:func:`clinx.text.pipeline.text_code_digest`: every file under
    ``clinx/text`` but the CLI, reports and L3) and every module of
    :mod:`clinx.localize` (matcher, patterns, glyph snapping, mask).
    """
    from clinx.fingerprint import code_digest as modules_digest
    from clinx.text.pipeline import text_code_digest

    return settings_digest(text_code_digest(), modules_digest("clinx.localize"))
