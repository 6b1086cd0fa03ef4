"""The native-resolution held-out split: real scans at their own size, custodian manifests.

Why a second benchmark: the built-in split (:mod:`clinx.data.benchmark`) is
512², its manifests list the exact strings drawn, and its test bases are new
augmentations of the scans the shipped networks trained on. This split is what
clinx meets in practice:

* **Images at their own size.** Real scans that no shipped checkpoint saw
  (:data:`NATIVE_SOURCES`, decoded at native resolution, never resized) and
  procedural phantoms rendered at 1,024–3,072 px from a seed stream no
  training split uses. Some greyscale bases are shown inverted (as
  MONOCHROME1 films are).
* **Overlays sized as scanners draw them.** Text cap height 0.8–2.5 % of the
  image height (never under 8 px unless 2.5 % is less), in corner blocks and
  edge bands, some flush with the image border; DejaVu, Pillow's bundled font
  and OpenCV Hershey strokes; light text on dark ground and dark text on light
  ground, sometimes on a backing box.
* **Custodian manifests.** The manifest holds header-style canonical values
  under DICOM keywords (``PatientName: DOE^JOHN``, ``PatientBirthDate:
  19530716``, ``PatientID``, ``StudyDate``, ``AccessionNumber``,
  ``InstitutionName``, ``ReferringPhysicianName``) and never a drawn
  rendering: the image shows ``07.16.1953`` or ``DOE, JOHN``, and finding
  those from the header value is clinx's job. In about half of the images at
  least one drawn identifier is absent from the manifest (a burned-in date that
  differs from the header's StudyDate, a second patient ID, a referring
  physician the manifest does not list).
* **Ground truth per value.** Every sample keeps a pixel-exact PHI mask, a
  non-PHI mask (L/R, ``LA6``-style markers, PORTABLE, AP/PA, SUPINE,
  Semi-Upright, field labels, ``5 cm`` scale text, ``120 kVp``), and the list
  of drawn identifiers with their boxes and whether the manifest lists them
  (:class:`clinx.metrics.leakage.DrawnValue`; PHI, kept beside the manifest).
* **Strictly held out.** Every sample records its base-scan id
  (``provenance["base_id"]``); none is in
  :func:`clinx.data.builtin.training_scan_ids` or the training split's phantom
  ids (a test checks it).

Deterministic in ``(index, seed)``: independent random streams for the base,
the identity, the overlay and the non-PHI annotations.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from clinx.data.builtin import RealSource, decode_source, scan_id, training_scan_ids
from clinx.data.fakephi import _faker
from clinx.data.inject import _Block, _Canvas, _draw_block, _legible_colour, _low_contrast, _overlaps, _Piece
from clinx.data.phantoms import make_phantom
from clinx.data.render import font_metrics, offline_fonts, render_text
from clinx.metrics.leakage import DrawnValue
from clinx.records import Manifest, Sample

SPLIT = "native"
_SPLIT_CODE = 7  # builtin splits use 0..2 in their seed sequences; 7 keeps this stream apart

#: Real scans no shipped checkpoint was trained on (see ``training_scan_ids``), decoded at their own size.
#: ``crop`` keeps burned-in text the files already carry out of the base.
#: Every CR/DX and large MR in pydicom-data (RG1, RG3, MR2) and ``skimage.retina`` were training bases, so
#: this split's real scans are the remaining ones; files that hold a training scan under another name or
#: crop (``JPEG-LL``/``JPEG2000`` = the whole-body NM, ``examples_overlay`` = the abdomen MR,
#: ``*_J2KI``/``*_J2KR`` re-encodings) are out. Large sizes come from phantoms (1,024-3,072 px).
NATIVE_SOURCES: tuple[RealSource, ...] = (
    RealSource("neck_ct", "bad_sequence.dcm", "ct", "neck", "axial", window=(40, 400), weight=1.0),
    RealSource("head_ct_ect", "eCT_Supplemental.dcm", "ct", "head", "axial", window="percentile", weight=1.0),
    # Ultrasound: crops that leave out the scanner's own burned-in text (labels, calipers, depth scale).
    RealSource("abdomen_us", "gdcm-US-ALOKA-16.dcm", "ultrasound", "abdomen", "", window="percentile",
               crop=(0.16, 0.80, 0.08, 0.97), weight=1.0),
    RealSource("echo_us_adult", "JPGLosslessP14SV1_1s_1f_8b.dcm", "ultrasound", "heart", "", window="percentile",
               crop=(0.20, 0.66, 0.28, 0.80), weight=1.0),
    RealSource("pathology_ihc", "skimage:immunohistochemistry", "microscopy", "tissue", "", weight=0.7),
    RealSource("microscopy_cell", "skimage:cell", "microscopy", "cell", "", weight=0.5),
)

#: Text cap height as a fraction of the image height.
TEXT_FRACTION = (0.008, 0.025)
#: Smallest cap height in pixels (unless 2.5 % of the image is less): smaller text is unreadable on a real film too.
MIN_CAP_PX = 8
PHANTOM_SIDES = (1024, 3072)

#: Manifest fields (DICOM keywords) a custodian holds.
HEADER_FIELDS = ("PatientName", "PatientBirthDate", "PatientID", "StudyDate", "AccessionNumber",
                 "InstitutionName", "ReferringPhysicianName")
#: Fields of drawn identifiers that no manifest lists.
UNLISTED_FIELDS = ("BurnedInStudyDate", "OtherPatientID", "ReferringPhysicianName")

FIELD_LABELS: dict[str, tuple[str | None, ...]] = {
    "PatientName": ("Name:", "Patient:", "Pt:", None),
    "PatientBirthDate": ("DOB:", "Birth:", "DOB"),
    "PatientID": ("ID:", "MRN:", "Pat ID:"),
    "StudyDate": ("Study Date:", "Date:", "Exam:", None),
    "BurnedInStudyDate": ("Date:", "Acq:", None),
    "AccessionNumber": ("Acc:", "Acc#:", "Accession:"),
    "InstitutionName": (None, None, "Inst:"),
    "ReferringPhysicianName": ("Dr.", "Ref:", "Ref. Phys:"),
    "OtherPatientID": ("Alt ID:", "Other ID:", "ID2:"),
}
POSITION_WORDS = ("PORTABLE", "AP", "PA", "SUPINE", "Semi-Upright", "ERECT")
ORIENTATION_MARKERS = ("LA6", "RA3", "LAO", "RPO", "LA2")
TECHNIQUE = ("120 kVp", "110 kVp", "100 kVp", "2.5 mAs", "3.2 mAs")
SCALE_LABEL = "5 cm"

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
LIGHT = ((255, 255, 255), (235, 235, 235), (210, 210, 210), (255, 240, 150))
DARK = ((0, 0, 0), (25, 25, 25), (50, 50, 50))


def native_rng(seed: int, index: int, stream: str) -> np.random.Generator:
    """An independent generator per (seed, index, purpose), disjoint from every builtin split's streams."""
    tag = int.from_bytes(hashlib.sha256(stream.encode()).digest()[:4], "little")
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, _SPLIT_CODE, int(index), tag])


# ------------------------------------------------------------------ bases ---

@dataclass
class NativeBase:
    """A clean base at native size: pixels, facts, source name and base-scan id."""

    image: np.ndarray
    facts: dict
    source: str
    base_id: str
    detail: dict = field(default_factory=dict)


@functools.lru_cache(maxsize=32)
def _decode_native(name: str) -> np.ndarray:
    src = _SOURCES[name]
    a = decode_source(src, 0, None)
    a.setflags(write=False)
    return a


def available_sources() -> list[RealSource]:
    """The :data:`NATIVE_SOURCES` that are installed here (a missing optional file is skipped, not fatal)."""
    out = []
    for s in NATIVE_SOURCES:
        try:
            _decode_native(s.name)
        except (FileNotFoundError, ImportError, OSError, ValueError):
            continue
        out.append(s)
    return out


def make_native_base(index: int, seed: int = 0, phantom_share: float = 0.5) -> NativeBase:
    """The ``index``-th base of the native split: a held-out real scan at its own size, or a large phantom."""
    rng = native_rng(seed, index, "base")
    real = available_sources()
    if not real or rng.random() < phantom_share:
        side = int(rng.integers(PHANTOM_SIDES[0], PHANTOM_SIDES[1] + 1))
        ph = make_phantom(rng, side)
        return NativeBase(ph.image, ph.facts, "phantom", f"phantom:{SPLIT}:s{int(seed)}:{int(index)}",
                          {"side": side})
    weights = np.array([s.weight for s in real], float)
    src = real[int(rng.choice(len(real), p=weights / weights.sum()))]
    image = np.array(_decode_native(src.name))
    inverted = bool(src.modality not in ("fundus photograph", "microscopy") and rng.random() < 0.25)
    if inverted:  # shown as a MONOCHROME1 film would be
        image = 255 - image
    facts = {"modality": src.modality, "region": src.region, "plane": src.plane}
    return NativeBase(image, facts, src.name, scan_id(src.file), {"inverted": inverted})


# --------------------------------------------------------------- identity ---

def _fmt_date(d: _dt.date, style: int) -> str:
    """A burned-in rendering of a date; never the DICOM ``YYYYMMDD`` the manifest holds."""
    mon = _MONTHS[d.month - 1]
    return (
        f"{d.month:02d}.{d.day:02d}.{d.year}",
        f"{d.day:02d}-{mon.upper()}-{d.year}",
        f"{d.month:02d}/{d.day:02d}/{d.year}",
        d.isoformat(),
        f"{d.day:02d}.{d.month:02d}.{d.year}",
        f"{mon} {d.day}, {d.year}",
        f"{d.day:02d}-{mon}-{d.year}",
    )[style % 7]


def _name_rendering(first: str, last: str, style: int) -> str:
    """A burned-in rendering of a person name; never the DICOM ``LAST^FIRST`` the manifest holds."""
    return (f"{last.upper()}, {first.upper()}", f"{first} {last}", f"{first.upper()} {last.upper()}",
            f"{last}, {first}", f"{last.upper()} {first.upper()}")[style % 5]


def _digits(rng, n: int) -> str:
    return "".join(str(int(d)) for d in rng.integers(0, 10, n))


@dataclass
class Identity:
    """A synthetic patient and study: the header (manifest) and what gets drawn. PHI by contract."""

    header: dict[str, str]
    drawn: dict[str, str]  # field -> the string burned into the image
    unlisted: tuple[str, ...]  # why some drawn identifiers are absent from the header


def make_identity(rng: np.random.Generator) -> Identity:
    """Draw one identity: header values (canonical DICOM forms) and the renderings drawn on the image."""
    fk = _faker()
    fk.seed_instance(int(rng.integers(0, 2**62)))
    female = rng.random() < 0.5
    first = fk.first_name_female() if female else fk.first_name_male()
    last = fk.last_name()
    dob = _dt.date(1925, 1, 1) + _dt.timedelta(days=int(rng.integers(0, 365 * 85)))
    study = _dt.date(2012, 1, 1) + _dt.timedelta(days=int(rng.integers(0, 365 * 13)))
    pid = _digits(rng, int(rng.integers(7, 11))) if rng.random() < 0.7 else f"{chr(65 + int(rng.integers(26)))}{_digits(rng, 7)}"
    acc = f"E{_digits(rng, 7)}" if rng.random() < 0.5 else f"{study.year % 100:02d}{_digits(rng, 6)}"
    city = fk.city()
    inst = (f"{city} General Hospital", f"{fk.last_name()} Memorial Hospital", f"{city} Medical Center",
            f"St. {fk.first_name()} Hospital")[int(rng.integers(4))]
    dr_first, dr_last = fk.first_name(), fk.last_name()

    header = {
        "PatientName": f"{last.upper()}^{first.upper()}",
        "PatientBirthDate": dob.strftime("%Y%m%d"),
        "PatientID": pid,
        "StudyDate": study.strftime("%Y%m%d"),
        "AccessionNumber": acc,
        "InstitutionName": inst,
        "ReferringPhysicianName": f"{dr_last.upper()}^{dr_first.upper()}",
    }
    date_style = int(rng.integers(7))  # one site, one date style for both dates
    drawn = {
        "PatientName": _name_rendering(first, last, int(rng.integers(5))),
        "PatientBirthDate": _fmt_date(dob, date_style),
        "PatientID": pid,
        "StudyDate": _fmt_date(study, date_style),
        "AccessionNumber": acc,
        "InstitutionName": inst.upper() if rng.random() < 0.4 else inst,
        "ReferringPhysicianName": (f"{dr_first} {dr_last}" if rng.random() < 0.5 else f"{dr_last.upper()}, {dr_first.upper()}"),
    }
    # Which drawn fields appear: the name always, then a random subset.
    optional = ["PatientBirthDate", "PatientID", "StudyDate", "AccessionNumber", "InstitutionName", "ReferringPhysicianName"]
    keep = {"PatientName"} | {f for f in optional if rng.random() < 0.6}
    while len(keep) < 3:
        keep.add(optional[int(rng.integers(len(optional)))])
    drawn = {k: v for k, v in drawn.items() if k in keep}

    unlisted: list[str] = []
    if rng.random() < 0.55:  # the custodian's header does not cover everything on the pixels
        kinds = ["date_mismatch", "second_id", "physician_unlisted"]
        pick = [k for k in kinds if rng.random() < 0.4] or [kinds[int(rng.integers(3))]]
        for k in pick:
            if k == "date_mismatch":
                # The burned-in date is the acquisition / a prior's date, not the header's StudyDate.
                off = int(rng.integers(1, 400)) * (1 if rng.random() < 0.5 else -1)
                drawn.pop("StudyDate", None)
                drawn["BurnedInStudyDate"] = _fmt_date(study + _dt.timedelta(days=off), date_style)
            elif k == "second_id":
                other = _digits(rng, 8)
                while other == pid:
                    other = _digits(rng, 8)
                drawn["OtherPatientID"] = other
            else:
                drawn["ReferringPhysicianName"] = drawn.get("ReferringPhysicianName") or f"{dr_first} {dr_last}"
                header.pop("ReferringPhysicianName")
            unlisted.append(k)
    if "ReferringPhysicianName" not in drawn and rng.random() < 0.5:
        header.pop("ReferringPhysicianName", None)  # often empty in real headers
    return Identity(header, drawn, tuple(unlisted))


# ---------------------------------------------------------------- overlay ---

@functools.lru_cache(maxsize=64)
def cap_ratio(font: str) -> float:
    """Cap height of ``font`` per unit of font size (ink height of ``H``)."""
    layer = render_text("H", font, 200, cache=True)
    return layer.alpha.shape[0] / 200.0


def cap_height(font: str, size: int) -> int:
    """Measured cap height in pixels of ``font`` at ``size``."""
    return int(render_text("H", font, int(size), cache=True).alpha.shape[0])


def text_px_range(height: int) -> tuple[float, float]:
    """Allowed cap heights (px) for an image ``height`` px tall."""
    lo, hi = TEXT_FRACTION[0] * height, TEXT_FRACTION[1] * height
    return max(lo, min(MIN_CAP_PX, hi)), hi


def _size_for_cap(font: str, cap_px: float, height: int) -> int:
    """Font size whose measured cap height lies in the allowed range, closest to ``cap_px``."""
    lo, hi = text_px_range(height)
    size = max(4, int(round(cap_px / cap_ratio(font))))
    for _ in range(40):
        c = cap_height(font, size)
        if c < lo:
            size += 1
        elif c > hi:
            size -= 1
        else:
            break
    return size


_LAYOUTS = (("tl", "tr"), ("tl", "br"), ("top", "bl"), ("bottom", "tl", "tr"), ("tl", "tr", "bl", "br"),
            ("top",), ("tl",), ("bl", "tr"), ("top", "bottom"))


def _slot_xy(slot: str, w: int, h: int, W: int, H: int, m: int) -> tuple[int, int]:
    x = {"tl": m, "bl": m, "tr": W - m - w, "br": W - m - w}.get(slot, (W - w) // 2)
    y = {"tl": m, "tr": m, "top": m, "bl": H - m - h, "br": H - m - h, "bottom": H - m - h}[slot]
    return int(x), int(y)


@dataclass
class NativeOverlay:
    image: np.ndarray
    mask: np.ndarray
    nonphi_mask: np.ndarray
    drawn: list[DrawnValue]
    nonphi: list[dict]  # {"text", "kind", "box"}
    blocks: list[dict]  # layout facts per PHI block (no values)
    background: np.ndarray | None = None  # the image with backing boxes, without text


def overlay_native(image: np.ndarray, identity: Identity, listed: set[str], rng: np.random.Generator) -> NativeOverlay:
    """Burn the identity's drawn values (and non-PHI annotations) into ``image`` at scanner-like sizes."""
    H, W = image.shape[:2]
    fonts = offline_fonts()
    frac = float(rng.uniform(*TEXT_FRACTION))
    lo, hi = text_px_range(H)
    cap_px = float(np.clip(frac * H, lo, hi))
    image_font = fonts[int(rng.integers(len(fonts)))]
    canvas = _Canvas(image)
    occupied: list[tuple[int, int, int, int]] = []
    from clinx.data.inject import DrawnPHI, DrawnText

    drawn_phi: list[DrawnPHI] = []
    texts: list[DrawnText] = []
    blocks_info: list[dict] = []

    fields = list(identity.drawn)
    rng.shuffle(fields)
    layout = _LAYOUTS[int(rng.integers(len(_LAYOUTS)))]
    per_slot: dict[str, list[str]] = {s: [] for s in layout}
    for i, f in enumerate(fields):
        per_slot[layout[i % len(layout)]].append(f)

    for slot, fs in per_slot.items():
        if not fs:
            continue
        font = image_font if rng.random() < 0.8 else fonts[int(rng.integers(len(fonts)))]
        size = _size_for_cap(font, cap_px * float(rng.uniform(0.92, 1.08)), H)
        band = slot in ("top", "bottom")
        pieces = []
        for f in fs:
            labels = FIELD_LABELS.get(f, (None,))
            label = labels[int(rng.integers(len(labels)))]
            pieces.append(([_Piece(label, None)] if label else []) + [_Piece(identity.drawn[f], f)])
        per_line = (3 if rng.random() < 0.3 else 2) if band else (2 if rng.random() < 0.2 else 1)
        lines = [[p for pcs in pieces[j:j + per_line] for p in pcs] for j in range(0, len(pieces), per_line)]
        block = _Block(lines, font, size, slot, (255, 255, 255))
        touch = rng.random() < 0.25
        m = 0 if touch else int(round(min(H, W) * rng.uniform(0.004, 0.02)))
        max_w = (W - 2 * m) if band else 0.46 * W - m
        # Too wide: one field per line, then drop the label, then the field (the text never shrinks below the range).
        w, h = block.measure()
        if w > max_w and per_line > 1:
            block.lines = [list(pcs) for pcs in pieces]
            w, h = block.measure()
        if w > max_w:
            for li in range(len(block.lines)):
                if block.widths[li] > max_w:
                    block.lines[li] = [p for p in block.lines[li] if p.field is not None]
            block.measure()
            block.lines = [l for l, lw in zip(block.lines, block.widths) if lw <= max_w]
        if not block.lines:
            continue
        w, h = block.measure()
        x, y = _slot_xy(slot, int(np.ceil(w)), int(h), W, H, m)
        pad = max(2, size // 4)
        rect = (max(0, x - pad), max(0, y - pad), min(W, int(np.ceil(x + w)) + pad), min(H, y + h + pad))
        if any(_overlaps(rect, o) for o in occupied):
            continue
        bg = image[rect[1]:rect[3], rect[0]:rect[2]]
        backing = rng.random() < 0.15
        if backing:
            canvas.box_fill(rect, (int(rng.integers(0, 30)),) * 3, float(rng.uniform(0.8, 1.0)))
            block.colour = LIGHT[int(rng.integers(len(LIGHT)))]
        else:
            lum = float(bg.astype(np.float32).mean()) if bg.size else 0.0
            block.colour = DARK[int(rng.integers(len(DARK)))] if lum > 140 else LIGHT[int(rng.integers(len(LIGHT)))]
            if _low_contrast(bg, block.colour):  # a busy region: viewers put a box behind the text
                canvas.box_fill(rect, (int(rng.integers(0, 30)),) * 3, 0.9)
                block.colour = LIGHT[0]
                backing = True
        _draw_block(canvas, block, x, y, w, drawn_phi, texts)
        occupied.append(rect)
        blocks_info.append({"slot": slot, "font": font, "size": int(size), "cap_px": cap_height(font, size),
                            "touches_border": bool(m == 0), "backing": bool(backing),
                            "dark_text": bool(sum(block.colour) < 300)})

    nonphi = [{"text": t.text, "kind": "label", "box": list(t.box)} for t in texts]
    _place_nonphi(canvas, rng, W, H, image_font, cap_px, occupied, nonphi)
    out, mask, nonphi_mask = canvas.finish()
    drawn = [DrawnValue(d.text, d.field, d.field in listed, tuple(int(v) for v in d.box)) for d in drawn_phi]
    return NativeOverlay(out, mask, nonphi_mask, drawn, nonphi, blocks_info, canvas.background())


def _place_nonphi(canvas: _Canvas, rng, W: int, H: int, font: str, cap_px: float,
                  occupied: list, out: list[dict]) -> None:
    """L/R, an orientation marker, a position word, technique and a ruler wherever they fit clear of the PHI."""
    src = canvas.src
    size = _size_for_cap(font, cap_px, H)
    pad = max(3, size // 2)
    m = int(round(min(H, W) * 0.01))

    def free(box) -> bool:
        return box[0] >= 0 and box[1] >= 0 and box[2] <= W and box[3] <= H and not any(_overlaps(box, o, pad) for o in occupied)

    def spots(w: int, h: int) -> list[tuple[int, int]]:
        opts = [(m, int(H * rng.uniform(0.3, 0.65))), (W - m - w, int(H * rng.uniform(0.3, 0.65))),
                ((W - w) // 2, m), ((W - w) // 2, H - m - h), (m, m), (W - m - w, m), (m, H - m - h),
                (W - m - w, H - m - h), (int(W * rng.uniform(0.2, 0.7)), m), (int(W * rng.uniform(0.2, 0.7)), H - m - h)]
        return [opts[i] for i in rng.permutation(len(opts))]

    def put(text: str, kind: str, fnt: str, fsize: int) -> None:
        layer = render_text(text, fnt, fsize, cache=True)
        h, w = layer.alpha.shape
        for x, y in spots(w, h):
            box = (x, y, x + w, y + h)
            if free(box):
                colour = _legible_colour(src, box, LIGHT[0])
                ink = canvas.blend(layer.alpha, x, y, colour, canvas.nonphi)
                if ink is not None:
                    occupied.append(box)
                    out.append({"text": text, "kind": kind, "box": list(ink)})
                return

    bold = "sans_bold" if "sans_bold" in offline_fonts() else font
    if rng.random() < 0.7:
        put("L" if rng.random() < 0.5 else "R", "marker", bold, int(size * rng.uniform(1.4, 2.0)))
    if rng.random() < 0.35:
        put(ORIENTATION_MARKERS[int(rng.integers(len(ORIENTATION_MARKERS)))], "marker", bold, int(size * 1.2))
    if rng.random() < 0.65:
        put(POSITION_WORDS[int(rng.integers(len(POSITION_WORDS)))], "position", font, size)
    if rng.random() < 0.5:
        put(TECHNIQUE[int(rng.integers(len(TECHNIQUE)))], "technique", font, size)
    if rng.random() < 0.5:
        _ruler(canvas, rng, W, H, m, font, size, free, occupied, out)


def _ruler(canvas, rng, W, H, m, font, fsize, free, occupied, out) -> None:
    import cv2

    length = int(H * rng.uniform(0.1, 0.18))
    thick = max(1, H // 600)
    tick = max(3, H // 120)
    label = render_text(SCALE_LABEL, font, fsize, cache=True)
    lh, lw = label.alpha.shape
    gap = max(2, fsize // 4)
    w, h = tick + gap + lw, max(length, lh)
    for left in ([True, False] if rng.random() < 0.5 else [False, True]):
        x = m if left else W - m - w
        y = int(H * rng.uniform(0.3, 0.6))
        box = (x, y, x + w, y + h)
        if not free(box):
            continue
        colour = _legible_colour(canvas.src, box, LIGHT[0])
        layer = np.zeros((h, w), np.uint8)
        bx = 0 if left else w - tick
        cx = bx + tick // 2
        cv2.line(layer, (cx, 0), (cx, length - 1), 255, thick)
        for ty in (0, length // 2, length - 1):
            cv2.line(layer, (bx, ty), (bx + tick - 1, ty), 255, thick)
        canvas.blend(layer, x, y, colour, canvas.nonphi)
        lx = x + tick + gap if left else x
        ink = canvas.blend(label.alpha, lx, y + (length - lh) // 2, colour, canvas.nonphi)
        occupied.append(box)
        if ink is not None:
            out.append({"text": SCALE_LABEL, "kind": "scale", "box": list(ink)})
        return


# ---------------------------------------------------------------- samples ---

@dataclass
class NativeItem:
    """One native-split sample plus its drawn identifiers (PHI; the metrics need them)."""

    sample: Sample
    drawn: list[DrawnValue]

    @property
    def id(self) -> str:
        return self.sample.id


def native_id(seed: int, index: int) -> str:
    """PHI-free, sortable sample id."""
    return f"{SPLIT}-s{int(seed)}-{int(index):05d}"


def build_native_item(index: int, seed: int = 0, phantom_share: float = 0.5) -> NativeItem:
    """The ``index``-th sample of the native split; deterministic in ``(index, seed, phantom_share)``."""
    base = make_native_base(index, seed, phantom_share)
    ident = make_identity(native_rng(seed, index, "identity"))
    manifest = Manifest(fields=dict(ident.header))
    ov = overlay_native(base.image, ident, set(manifest.fields), native_rng(seed, index, "overlay"))
    H, W = base.image.shape[:2]
    provenance = {
        "base_source": base.source,
        "base_id": base.base_id,
        "split": SPLIT,
        "seed": int(seed),
        "index": int(index),
        "height": int(H),
        "width": int(W),
        "facts": dict(base.facts),
        "base_detail": base.detail,
        "manifest_style": "header",
        "unlisted_kinds": list(ident.unlisted),
        # Geometry and field names only: the strings live in manifests/ and drawn/.
        "image_fields": list(dict.fromkeys(d.field for d in ov.drawn)),
        "phi_boxes": [{"field": d.field, "listed": d.listed, "box": list(d.box)} for d in ov.drawn],
        "nonphi_boxes": ov.nonphi,
        "overlay_blocks": ov.blocks,
    }
    sample = Sample(
        id=native_id(seed, index), image=ov.image, manifest=manifest, mask=ov.mask, provenance=provenance,
        clean_image=base.image, nonphi_mask=ov.nonphi_mask, nonphi_texts=tuple(t["text"] for t in ov.nonphi),
        background=ov.background,
    )
    return NativeItem(sample, ov.drawn)


def build_native(n: int, seed: int = 0, phantom_share: float = 0.5, start: int = 0) -> list[NativeItem]:
    """``n`` samples of the native split."""
    return [build_native_item(i, seed, phantom_share) for i in range(int(start), int(start) + int(n))]


def is_held_out(base_id: str) -> bool:
    """Whether a base-scan id is outside everything the shipped checkpoints trained on."""
    return base_id not in training_scan_ids() and not base_id.startswith(("phantom:train:", "phantom:val:"))


# ------------------------------------------------------------------- disk ---

def save_native_item(item: NativeItem, folder: str | os.PathLike) -> bool:
    """Write one sample in the benchmark layout plus ``drawn/<id>.json`` (PHI); False if already saved."""
    from clinx.atomic import write_bytes_atomic
    from clinx.data.benchmark import is_saved, save_sample

    folder = Path(folder)
    if is_saved(folder, item.id):
        return False
    # drawn/ first: save_sample writes the record last, which marks the sample finished.
    write_bytes_atomic(folder / "drawn" / f"{item.id}.json",
                       json.dumps([d.to_dict() for d in item.drawn], ensure_ascii=False).encode("utf-8"))
    return save_sample(item.sample, folder)


def save_native(items, folder: str | os.PathLike) -> Path:
    """Save native items and write the index (``samples.jsonl``); returns its path."""
    from clinx.data.benchmark import write_index

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for it in items:
        save_native_item(it, folder)
    return write_index(folder)


def load_drawn(folder: str | os.PathLike, sample_id: str) -> list[DrawnValue]:
    """The drawn identifiers of one saved native sample."""
    path = Path(folder) / "drawn" / f"{sample_id}.json"
    return [DrawnValue.from_dict(d) for d in json.loads(path.read_text(encoding="utf-8"))]


def load_native(folder: str | os.PathLike, limit: int | None = None) -> list[NativeItem]:
    """Read a saved native split back (samples and drawn identifiers)."""
    from clinx.data.benchmark import load_benchmark

    return [NativeItem(s, load_drawn(folder, s.id)) for s in load_benchmark(folder, SPLIT, limit)]


_SOURCES: dict[str, RealSource] = {}


def _register(sources) -> None:
    _SOURCES.clear()
    _SOURCES.update({s.name: s for s in sources})


_register(NATIVE_SOURCES)
