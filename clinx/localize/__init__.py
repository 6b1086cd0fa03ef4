"""Image-side PHI localisation: manifests, normalisation, matching, masks.

Main entry point::

    from clinx.localize import PhiLocalizer, manifest_from_dicom
    loc = PhiLocalizer("rapidocr").locate(image, manifest_from_dicom(ds), item="scan_001.dcm")
    loc.mask          # bool (H, W): pixels of the words that show manifest values or identifiers
    loc.mode_used     # "manifest+patterns" (default), or "patterns" when no manifest was given

Importing this package does not import an OCR engine; the engine is built on
first use (:func:`clinx.ocr.get_engine`).
"""

from .localizer import DEFAULT_ALLOW, MODES, Localization, PhiLocalizer
from .manifests import manifest_from_dicom, manifest_from_json, manifests_from_json
from .mask import build_mask
from .match import Match, match_detections

__all__ = [
    "DEFAULT_ALLOW",
    "MODES",
    "Localization",
    "Match",
    "PhiLocalizer",
    "build_mask",
    "manifest_from_dicom",
    "manifest_from_json",
    "manifests_from_json",
    "match_detections",
]
