"""Identifiers found by pattern on OCR text: clinx's text recognisers run on every OCR line.

A custodian's manifest never lists everything drawn on a scan: a burned-in
study date differs from the header's ``StudyDate``, a second patient ID or a
referring physician is not in the header at all. So every OCR line — rebuilt
from word detections exactly as the manifest matcher builds it
(:func:`clinx.localize.match.ocr_lines`) — also goes through the same
recognisers that scan released text (:func:`clinx.text.pipeline.rescan`:
dates in every rendering, MRN / accession / other IDs, phone, e-mail, names
after cues such as ``Name:`` or ``Dr.``, ages over 89, institutions). Each
hit becomes :class:`~clinx.localize.match.Match` objects with
``field="pattern:<CATEGORY>"`` (log-safe), masked word-exact: whole words
the hit covers, the matched characters of a word it covers only in part
(``DOB:07.16.1953`` keeps its label).

Field labels survive: the characters of a label (:data:`_LABEL`: ``DOB:``,
``Pat ID:``, ``Ref. Phys:``, ``ID2:``) are taken out of every hit, because
the recognisers sometimes pull a label word into a name (``Pat`` in
``Pat ID:``, ``Phys`` in ``Ref Phys:``) or a label digit into an ID (the
``2`` of ``ID2:``). Overlay words that are not PHI must survive. A hit is dropped when every one
of its tokens is an overlay word (:data:`NON_PHI_WORDS`: laterality,
orientation markers such as ``LA6``, view and position words) or a technique
/ scale value (:data:`_TECHNIQUE`: a number with a unit such as ``120 kVp``,
``2.5 mAs``, ``5 cm``). The recognisers flag none of these today; the rule is
here so that a future recogniser change cannot silently mask them.
"""

from __future__ import annotations

import re
from typing import Sequence

from clinx.records import Detection

from .match import DEFAULT_MIN_CONFIDENCE, Match, cover_line, ocr_lines
from .normalize import normalize

#: Overlay tokens that are never identifiers (compared normalised: case, punctuation and spacing folded).
NON_PHI_WORDS = frozenset(
    normalize(w)
    for w in (
        "L", "R", "LT", "RT", "LEFT", "RIGHT", "PA", "AP", "LAT", "LATERAL", "AXIAL", "CORONAL", "SAGITTAL",
        "PORTABLE", "SUPINE", "ERECT", "UPRIGHT", "SEMI-UPRIGHT", "SEMI", "PRONE", "DECUBITUS", "OBLIQUE",
        "INSP", "EXP", "CM", "MM", "KV", "KVP", "MA", "MAS", "MS", "WL", "WW", "W", "C", "T1", "T2", "FLAIR",
        "DWI", "ADC", "CT", "MR", "MRI", "US", "CR", "DX", "XR", "PET", "HEAD", "CHEST", "ABDOMEN", "PELVIS",
        "STANDING", "SITTING", "STAT", "VIEW", "FRONTAL", "RAO", "LAO", "RPO", "LPO",
    )
)  # fmt: skip
#: Orientation / laterality markers with a number (``LA6``, ``R2``): up to three orientation letters and one
#: or two digits. Letter-only markers are listed in NON_PHI_WORDS instead, so a short surname ("LI") is never dropped.
_MARKER = re.compile(r"^[LRAPSIHF]{1,3}\d{1,2}$")
#: Field labels drawn before a value: one short word ending in ``:`` or ``#`` (``DOB:``, ``ID2:``,
#: ``Acc#:``), optionally after a known first word (``Pat ID:``, ``Ref. Phys:``, ``Alt ID:``,
#: ``Study Date:``). Only listed first words: a free one would take the surname in ``DOE ID:``.
_LABEL_FIRST = r"(?:pat|patient|pt|alt|other|ref\.?|referring|study|exam|birth|acq|acc|inst|med|rec)"
_LABEL = re.compile(rf"(?<![\w^])(?:(?i:{_LABEL_FIRST})\s{{1,2}})?[A-Za-z][A-Za-z0-9.]{{0,9}}[:#]{{1,2}}")
#: Technique and scale values: a number and a unit (``120 kVp``, ``2.5mAs``, ``5 cm``, ``0.8 mm``).
_TECHNIQUE = re.compile(r"^\d+(?:[.,]\d+)?\s*(?:kvp|kv|mas|ma|ms|s|cm|mm|m|%|deg|°)$", re.IGNORECASE)


def is_non_phi_token(token: str) -> bool:
    """True for an overlay word that is never an identifier (see module doc)."""
    n = normalize(token)
    return not n or n in NON_PHI_WORDS or bool(_MARKER.match(token.strip(".,:;").upper()))


def is_non_phi_text(text: str) -> bool:
    """True when ``text`` (a pattern hit) is made only of overlay words or technique/scale values."""
    t = text.strip()
    if not t:
        return True
    if _TECHNIQUE.match(t):
        return True
    toks = t.split()
    # "120 kVp 2.5 mAs": pairs of number + unit
    k, ok = 0, True
    while k < len(toks):
        if k + 1 < len(toks) and _TECHNIQUE.match(toks[k] + toks[k + 1]):
            k += 2
        elif _TECHNIQUE.match(toks[k]) or is_non_phi_token(toks[k]):
            k += 1
        else:
            ok = False
            break
    return ok


def _rescan(text: str):
    # Imported on use: clinx.text sits above clinx.localize in the module
    # layering; the recognisers are its job and are not copied here.
    from clinx.text.pipeline import rescan

    return rescan(text)


def pattern_matches(
    detections: Sequence[Detection],
    *,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    gap_factor: float = 2.5,
    whole_unit_fraction: float = 0.9,
) -> list[Match]:
    """Masked regions for identifiers that clinx's text recognisers find on the OCR lines.

    One :class:`Match` per masked word or word part, ``field="pattern:<CATEGORY>"``,
    ``method="pattern"``. Needs no manifest.
    """
    out: list[Match] = []
    for line in ocr_lines(detections, min_confidence, gap_factor):
        # The line as text: the words joined by single spaces, and for each
        # normalised character of line.s its offset in that text.
        parts: list[str] = []
        raw_pos: list[int] = []
        off = 0
        for u in line.units:
            raw_pos.extend(off + i for i in u.norm_idx)
            parts.append(u.text)
            off += len(u.text) + 1
        text = " ".join(parts)
        labels = [m.span() for m in _LABEL.finditer(text)]
        for span in _rescan(text):
            for a, b in _minus(span.start, span.end, labels):
                hit = text[a:b]
                if is_non_phi_text(hit) or not any(c.isalnum() for c in hit):
                    continue
                ks = [k for k, p in enumerate(raw_pos) if a <= p < b]
                if ks:
                    out.extend(cover_line(line, ks[0], ks[-1] + 1, f"pattern:{span.category}", 100.0, "pattern", whole_unit_fraction))
    return out


def _minus(start: int, end: int, cuts: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``[start, end)`` with the ranges ``cuts`` taken out (what is left, in order)."""
    pieces = [(start, end)]
    for c0, c1 in cuts:
        nxt = []
        for a, b in pieces:
            if c1 <= a or c0 >= b:
                nxt.append((a, b))
                continue
            if a < c0:
                nxt.append((a, c0))
            if c1 < b:
                nxt.append((c1, b))
        pieces = nxt
    return pieces
