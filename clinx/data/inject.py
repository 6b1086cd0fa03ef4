"""Synthetic PHI injection (ClinX paper, Appendix B.1): x -> (x̃, true mask), q -> q̃.

Image side: the manifest's identifiers are burned in the way scanners and
viewers draw them — blocks in the corners and bands along the top or bottom
edge, one or several lines, DejaVu sans / mono / serif / bold, sizes that
scale with the image, white / near-white / grey / yellowish text, sometimes on
a dark backing box. Field labels (``Name:``, ``DOB:``, ``MRN``) are drawn as
separate non-PHI text on the same line as their value.

Non-PHI burned-in text that de-identification must keep is added too:
laterality markers ``L`` / ``R``, patient-position words (``PORTABLE``,
``SEMI-UPRIGHT``, ``AP``, ``SUPINE``) and a scale bar labelled ``5 cm``. It is
placed so that it never overlaps the PHI.

**The true mask is pixel-exact**: every string is rendered into its own
coverage layer; the mask is the set of pixels that some PHI *value* layer
covers and whose colour the overlay actually changed. So ``mask`` ⊆ changed
pixels, labels and markers are outside it, and every changed pixel lies in
the mask, the non-PHI mask or a backing box.

``preset="paper_b1"`` draws instead what the ClinX paper's App. B.1 and §3.2
describe: the four identifier types (name, date of birth, MRN, hospital
identifier) as plain values, one per line, in one predefined placement region
(the top-left corner, one font, white, 4 % of the image side), with no labels
and no other text. It exists to compare with the paper's numbers; the default
``clinx`` preset is harder and closer to what scanners draw.

Question side: :func:`inject_question` wraps the clinical question with
identifiers — before it, after it, or inside the sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from clinx.data.fakephi import as_rng, make_manifest  # noqa: F401  (re-exported: the contract names inject.make_manifest)
from clinx.data.render import available_fonts, font_metrics, render_text, text_width
from clinx.records import Manifest

Box = tuple[int, int, int, int]

#: Labels a scanner prints before a value (non-PHI). ``None`` = value alone.
FIELD_LABELS: dict[str, tuple[str | None, ...]] = {
    "patient_name": ("Name:", "Patient:", "Pt:", None),
    "birth_date": ("DOB:", "Born:", "DOB"),
    "study_date": ("Study:", "Date:", "Exam:", None),
    "mrn": ("MRN:", "MRN", "ID:"),
    "accession": ("Acc:", "Accession:", None),
    "hospital_name": (None, None, "Inst:"),
    "hospital_id": ("Hosp ID:", "Facility:"),
    "phone": ("Tel:", "Ph:", None),
    "email": ("Email:", None),
}
#: Injection presets: clinx's scanner-like layouts, or the paper's fixed region and four fields.
PRESETS = ("clinx", "paper_b1")
#: The paper's four identifier types (§3.2: names, dates of birth, MRNs, hospital identifiers).
PAPER_B1_FIELDS = ("patient_name", "birth_date", "mrn", "hospital_id")

POSITION_WORDS = ("PORTABLE", "SEMI-UPRIGHT", "AP", "SUPINE")
SCALE_LABEL = "5 cm"

#: Text colours (RGB): white, near-white, light grey, grey, yellowish.
TEXT_COLOURS = (
    (255, 255, 255), (240, 240, 240), (225, 225, 225), (190, 190, 190),
    (255, 240, 150), (240, 230, 120),
)


@dataclass(frozen=True)
class DrawnPHI:
    """One PHI value burned into the image: its field, exact string and tight boxes."""

    field: str
    text: str
    box: Box
    word_boxes: tuple[Box, ...] = ()


@dataclass(frozen=True)
class DrawnText:
    """One non-PHI text element (``kind``: label | marker | position | scale)."""

    text: str
    box: Box
    kind: str


@dataclass
class Injected:
    """Result of :func:`inject_image`.

    ``image`` is x̃; ``mask`` the true PHI mask; ``nonphi_mask`` the pixels
    of non-PHI text and the scale bar; ``nonphi_texts`` their strings and
    boxes; ``drawn`` the PHI values drawn; ``backings`` the dark boxes drawn
    behind some blocks (neither PHI nor text); ``style`` log-safe layout facts;
    ``background`` the input with those boxes but without any text (the
    restoration target, see :meth:`_Canvas.background`).
    """

    image: np.ndarray
    mask: np.ndarray
    nonphi_mask: np.ndarray
    nonphi_texts: list[DrawnText]
    drawn: list[DrawnPHI]
    backings: list[Box] = field(default_factory=list)
    style: dict = field(default_factory=dict)
    background: np.ndarray | None = None

    @property
    def fields(self) -> list[str]:
        """Fields drawn, in drawing order, deduplicated."""
        return list(dict.fromkeys(d.field for d in self.drawn))


# ---------------------------------------------------------------- layout ---

@dataclass
class _Piece:
    text: str
    field: str | None  # None for a non-PHI label
    x: float = 0.0  # pen offset within the line


@dataclass
class _Block:
    lines: list[list[_Piece]]
    font: str
    size: int
    slot: str
    colour: tuple[int, int, int]
    widths: list[float] = field(default_factory=list)

    def measure(self) -> tuple[float, int]:
        m = font_metrics(self.font, self.size)
        gap_label, gap_field = m.space, 3 * m.space
        self.widths = []
        for line in self.lines:
            x = 0.0
            for i, p in enumerate(line):
                if i:
                    x += gap_label if line[i - 1].field is None else gap_field
                p.x = x
                x += text_width(p.text, self.font, self.size)
            self.widths.append(x)
        return max(self.widths), self.line_h * len(self.lines)

    @property
    def line_h(self) -> int:
        return int(round(font_metrics(self.font, self.size).line_height * 1.12))


def _overlaps(a: Box, b: Box, pad: int = 0) -> bool:
    return not (a[2] + pad <= b[0] or b[2] + pad <= a[0] or a[3] + pad <= b[1] or b[3] + pad <= a[1])


def _slot_origin(slot: str, w: float, h: float, size: int, margin: int) -> tuple[int, int]:
    """Top-left of a block of ``w``×``h`` in a slot of a ``size``² image."""
    w, h = int(np.ceil(w)), int(np.ceil(h))
    x = {"tl": margin, "bl": margin, "tr": size - margin - w, "br": size - margin - w}.get(slot, (size - w) // 2)
    y = {"tl": margin, "tr": margin, "top": margin, "bl": size - margin - h, "br": size - margin - h,
         "bottom": size - margin - h}[slot]
    return int(x), int(y)


_LAYOUTS = (
    ("tl", "tr", "bl", "br"),
    ("tl", "tr"),
    ("tl", "br"),
    ("top", "bl", "br"),
    ("bottom", "tl", "tr"),
    ("top", "bottom"),
    ("tl", "tr", "bottom"),
    ("tl",),
    ("top",),
)


def _plan_blocks(manifest: Manifest, rng: np.random.Generator, size: int) -> list[_Block]:
    """Choose fields, renderings, labels, fonts and slots; no pixels yet."""
    fields = [f for f in FIELD_LABELS if manifest.values_for(f)]
    fields += [f for f in manifest.fields if f not in fields]  # custom fields: drawn unlabelled
    rng.shuffle(fields)
    k = int(rng.integers(min(3, len(fields)), len(fields) + 1))
    chosen = fields[:k]
    layout = _LAYOUTS[int(rng.integers(len(_LAYOUTS)))]
    fonts = available_fonts()
    image_font = fonts[int(rng.integers(len(fonts)))]
    image_colour = TEXT_COLOURS[int(rng.integers(len(TEXT_COLOURS)))]
    base_size = max(7, int(round(size * rng.uniform(0.032, 0.048))))

    # Deal fields to slots round-robin so every slot gets something.
    per_slot: dict[str, list[str]] = {s: [] for s in layout}
    for i, f in enumerate(chosen):
        per_slot[layout[i % len(layout)]].append(f)

    blocks = []
    for slot, fs in per_slot.items():
        if not fs:
            continue
        pieces_per_field = []
        for f in fs:
            opts = manifest.values_for(f)
            value = opts[int(rng.integers(len(opts)))]
            labels = FIELD_LABELS.get(f, (None,))
            label = labels[int(rng.integers(len(labels)))]
            pcs = ([_Piece(label, None)] if label else []) + [_Piece(value, f)]
            pieces_per_field.append(pcs)
        band = slot in ("top", "bottom")
        lines: list[list[_Piece]] = []
        if band:
            # Bands: two (sometimes three) fields side by side per line.
            per = 3 if rng.random() < 0.3 else 2
            for j in range(0, len(pieces_per_field), per):
                lines.append([p for pcs in pieces_per_field[j:j + per] for p in pcs])
        else:
            # Corners: mostly one field per line, sometimes two (e.g. "Name  DOB").
            i = 0
            while i < len(pieces_per_field):
                take = 2 if (i + 1 < len(pieces_per_field) and rng.random() < 0.25) else 1
                lines.append([p for pcs in pieces_per_field[i:i + take] for p in pcs])
                i += take
        font = image_font if rng.random() < 0.8 else fonts[int(rng.integers(len(fonts)))]
        colour = image_colour if rng.random() < 0.85 else TEXT_COLOURS[int(rng.integers(len(TEXT_COLOURS)))]
        fsize = max(7, int(round(base_size * rng.uniform(0.9, 1.1))))
        blocks.append(_Block([l for l in lines if l], font, fsize, slot, colour))
    return blocks


def _fit(block: _Block, size: int, margin: int) -> tuple[float, int] | None:
    """Make a block fit its slot: shrink the font down to a legible floor, then drop fields.

    The floor (2.4 % of the image side, 12 px at 512²) keeps PHI readable
    by OCR — unreadably tiny text would make the leakage attack look
    weaker than it is. Then labels go, then fields that still do not fit
    (those are not drawn, so not reported in ``drawn``). ``None`` when
    nothing fits — on images under ~150 px some samples carry no PHI.
    """
    band = block.slot in ("top", "bottom")
    max_w = size - 2 * margin if band else 0.48 * size - margin
    max_h = 0.30 * size
    floor = max(7, int(round(0.024 * size)))
    while block.lines:
        w, h = block.measure()
        if w <= max_w and h <= max_h:
            return w, h
        if block.size > floor:
            block.size = max(floor, int(block.size * min(0.92, max_w / max(w, 1))))
            continue
        if h > max_h:
            block.lines.pop()
            continue
        # Too wide at the floor: first drop the labels of the widest line (the
        # PHI matters more than its caption), then its last field.
        widest = block.lines[int(np.argmax(block.widths))]
        if any(p.field is None for p in widest):
            widest[:] = [p for p in widest if p.field is not None]
            continue
        last_value = max(i for i, p in enumerate(widest) if p.field is not None)
        start = last_value - 1 if last_value > 0 and widest[last_value - 1].field is None else last_value
        del widest[start:last_value + 1]
        block.lines = [l for l in block.lines if any(p.field for p in l)]
    return None


# ------------------------------------------------------------- compositing ---

class _Canvas:
    """Float working copy of the image plus one coverage accumulator per class."""

    def __init__(self, image: np.ndarray):
        self.src = image
        self.out = image.astype(np.float32)
        self.backdrop: np.ndarray | None = None  # boxes without text: see background()
        h, w = image.shape[:2]
        self.phi = np.zeros((h, w), np.uint8)
        self.nonphi = np.zeros((h, w), np.uint8)

    def blend(self, alpha: np.ndarray, x: int, y: int, colour, target: np.ndarray | None) -> Box | None:
        """Composite ``colour`` through ``alpha`` at (x, y); clip to the image; return the ink box."""
        H, W = self.phi.shape
        ah, aw = alpha.shape
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + aw, W), min(y + ah, H)
        if x1 <= x0 or y1 <= y0:
            return None
        a = alpha[y0 - y:y1 - y, x0 - x:x1 - x]
        af = (a.astype(np.float32) / 255.0)[:, :, None]
        reg = self.out[y0:y1, x0:x1]
        reg *= 1.0 - af
        reg += af * np.asarray(colour, np.float32)
        if target is not None:
            np.maximum(target[y0:y1, x0:x1], a, out=target[y0:y1, x0:x1])
        ys, xs = np.nonzero(a)
        if len(ys) == 0:
            return None
        return (x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1)

    def box_fill(self, box: Box, colour, opacity: float) -> None:
        if self.backdrop is None:
            self.backdrop = self.src.astype(np.float32)
        x0, y0, x1, y1 = box
        for layer in (self.out, self.backdrop):
            reg = layer[y0:y1, x0:x1]
            reg *= 1.0 - opacity
            reg += opacity * np.asarray(colour, np.float32)

    def background(self) -> np.ndarray:
        """The image with the backing boxes but none of the text: what a perfect restorer returns.

        Under a backing box the scan is hidden; the box is not PHI and stays in
        the released image, so the right fill inside the text mask is the box,
        not a guess of the tissue beneath it.
        """
        if self.backdrop is None:
            return self.src.copy()
        return np.clip(self.backdrop + 0.5, 0, 255).astype(np.uint8)

    def finish(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        img = np.clip(self.out + 0.5, 0, 255).astype(np.uint8)
        changed = (img != self.src).any(axis=2)
        return img, (self.phi > 0) & changed, (self.nonphi > 0) & changed


def _luminance(rgb) -> float:
    r, g, b = (float(c) for c in rgb)
    return 0.299 * r + 0.587 * g + 0.114 * b


def _low_contrast(bg: np.ndarray, colour) -> bool:
    """Whether more than ~8 % of ``bg`` is too close in luminance to ``colour`` to read text on it."""
    lum = bg.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    return bool(lum.size) and float((np.abs(lum - _luminance(colour)) < 80).mean()) > 0.08


def _legible_colour(image: np.ndarray, box: Box, colour):
    """``colour``, or black / white when it would vanish into the background under ``box``.

    Markers and rulers get no backing box (they are usually drawn straight on
    the film), so they switch colour instead — as lead markers and viewer
    rulers look dark on bright regions and bright on dark ones.
    """
    bg = image[box[1]:box[3], box[0]:box[2]]
    if not _low_contrast(bg, colour):
        return colour
    return (15, 15, 15) if float(bg.mean()) > 127 else (255, 255, 255)


def _draw_block(canvas: _Canvas, block: _Block, x: int, y: int, w: float,
                drawn: list[DrawnPHI], texts: list[DrawnText]) -> None:
    right = block.slot in ("tr", "br")
    for li, line in enumerate(block.lines):
        lx = x + (w - block.widths[li]) if right else x + (w - block.widths[li]) / 2 if block.slot in ("top", "bottom") else x
        ly = y + li * block.line_h
        for p in line:
            px = int(round(lx + p.x))
            layer = render_text(p.text, block.font, block.size, cache=p.field is None)
            target = canvas.nonphi if p.field is None else canvas.phi
            box = canvas.blend(layer.alpha, px + layer.dx, ly + layer.dy, block.colour, target)
            if box is None:
                continue
            if p.field is None:
                texts.append(DrawnText(p.text, box, "label"))
            else:
                drawn.append(DrawnPHI(p.field, p.text, box, _word_boxes(p.text, block, px, ly, box)))


def _word_boxes(text: str, block: _Block, px: int, py: int, tight: Box) -> tuple[Box, ...]:
    """Approximate per-word boxes (pen advance per word), clipped to the value's tight box."""
    out = []
    start = 0
    for word in text.split(" "):
        if word:
            off = text_width(text[:start], block.font, block.size)
            layer = render_text(word, block.font, block.size)
            ah, aw = layer.alpha.shape
            x0 = int(round(px + off + layer.dx))
            b = (max(x0, tight[0]), max(py + layer.dy, tight[1]), min(x0 + aw, tight[2]), min(py + layer.dy + ah, tight[3]))
            if b[2] > b[0] and b[3] > b[1]:
                out.append(b)
        start += len(word) + 1
    return tuple(out)


def _place_nonphi(canvas: _Canvas, rng, size: int, margin: int, base_font: str, base_size: int,
                  colour, occupied: list[Box], texts: list[DrawnText]) -> None:
    """Laterality marker, a position word and a scale bar wherever they fit without touching PHI."""
    pad = max(3, base_size // 2)

    def free(box: Box) -> bool:
        return (box[0] >= 0 and box[1] >= 0 and box[2] <= size and box[3] <= size
                and not any(_overlaps(box, o, pad) for o in occupied))

    def candidates(w: int, h: int) -> list[tuple[int, int]]:
        mid = [(margin, int(size * rng.uniform(0.3, 0.65))), (size - margin - w, int(size * rng.uniform(0.3, 0.65))),
               ((size - w) // 2, margin), ((size - w) // 2, size - margin - h)]
        corners = [(margin, margin), (size - margin - w, margin), (margin, size - margin - h),
                   (size - margin - w, size - margin - h)]
        extra = [(int(rng.integers(margin, max(margin + 1, size - margin - w))), y)
                 for y in (margin, size - margin - h)]
        opts = mid + corners + extra
        order = rng.permutation(len(opts))
        return [opts[i] for i in order]

    def put_text(text: str, kind: str, font: str, fsize: int) -> None:
        layer = render_text(text, font, fsize, cache=True)
        h, w = layer.alpha.shape
        for x, y in candidates(w, h):
            box = (x, y, x + w, y + h)
            if free(box):
                ink = canvas.blend(layer.alpha, x, y, _legible_colour(canvas.src, box, colour), canvas.nonphi)
                if ink is not None:
                    occupied.append(box)
                    texts.append(DrawnText(text, ink, kind))
                return

    if rng.random() < 0.75:
        put_text("L" if rng.random() < 0.5 else "R", "marker",
                 "sans_bold" if "sans_bold" in available_fonts() else base_font, int(base_size * rng.uniform(1.3, 1.9)))
    if rng.random() < 0.65:
        put_text(POSITION_WORDS[int(rng.integers(len(POSITION_WORDS)))], "position", base_font, base_size)
    if rng.random() < 0.6:
        _scale_bar(canvas, rng, size, margin, base_font, base_size, colour, free, occupied, texts)


def _scale_bar(canvas, rng, size, margin, font, fsize, colour, free, occupied, texts) -> None:
    """A vertical ruler with end ticks and a ``5 cm`` label beside it, on the left or right edge."""
    length = int(size * rng.uniform(0.12, 0.2))
    thick = max(1, size // 256)
    tick = max(3, size // 80)
    label = render_text(SCALE_LABEL, font, fsize, cache=True)
    lh, lw = label.alpha.shape
    gap = max(2, fsize // 4)
    w = tick + gap + lw
    h = max(length, lh)
    for left in ([True, False] if rng.random() < 0.5 else [False, True]):
        x = margin if left else size - margin - w
        y = int(size * rng.uniform(0.3, 0.6))
        box = (x, y, x + w, y + h)
        if not free(box):
            continue
        colour = _legible_colour(canvas.src, box, colour)
        layer = np.zeros((h, w), np.uint8)
        bx = 0 if left else w - tick
        cx = bx + tick // 2
        cv2.line(layer, (cx, 0), (cx, length - 1), 255, thick)
        for ty in (0, length // 2, length - 1):
            cv2.line(layer, (bx, ty), (bx + tick - 1, ty), 255, thick)
        canvas.blend(layer, x, y, colour, canvas.nonphi)
        lx = x + tick + gap if left else x
        ly = y + (length - lh) // 2
        ink = canvas.blend(label.alpha, lx, ly, colour, canvas.nonphi)
        occupied.append(box)
        if ink is not None:
            texts.append(DrawnText(SCALE_LABEL, ink, "scale"))
        return


def _paper_b1_block(manifest: Manifest, size: int) -> list[_Block]:
    """The paper's overlay: the four identifier types, values only, one per line, top-left."""
    lines = [[_Piece(manifest.values_for(f)[0], f)] for f in PAPER_B1_FIELDS if manifest.values_for(f)]
    if not lines:
        return []
    return [_Block(lines, available_fonts()[0], max(7, int(round(size * 0.04))), "tl", TEXT_COLOURS[0])]


def inject_image(image: np.ndarray, manifest: Manifest, rng, preset: str = "clinx") -> Injected:
    """Burn the manifest's identifiers (and non-PHI annotations) into a copy of ``image``.

    ``image``: ``uint8`` ``(H, W, 3)``; square images are the norm, others
    work with the shorter side as the scale. ``rng``: a ``Generator`` or int
    seed; the same state gives the same pixels. The input is never modified.
    ``preset``: ``clinx`` (varied scanner-like layouts with labels and
    non-PHI text) or ``paper_b1`` (the paper's fixed region, see the module
    docstring).
    """
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"inject_image expects uint8 (H, W, 3), got {image.dtype} {image.shape}")
    if preset not in PRESETS:
        raise ValueError(f"unknown injection preset {preset!r}; known: {', '.join(PRESETS)}")
    rng = as_rng(rng)
    H, W = image.shape[:2]
    size = min(H, W)
    margin = max(2, int(round(size * (0.02 if preset == "paper_b1" else rng.uniform(0.012, 0.03)))))
    canvas = _Canvas(image)
    drawn: list[DrawnPHI] = []
    texts: list[DrawnText] = []
    occupied: list[Box] = []
    backings: list[Box] = []

    if not manifest:
        blocks = []
    elif preset == "paper_b1":
        blocks = _paper_b1_block(manifest, size)
    else:
        blocks = _plan_blocks(manifest, rng, size)
    for block in blocks:
        fit = _fit(block, size, margin)
        if fit is None:
            continue
        w, h = fit
        x, y = _slot_origin(block.slot, w, h, size, margin)
        if block.slot in ("tr", "br", "top", "bottom"):  # non-square images: anchor to the real edges
            x += (W - size) if block.slot in ("tr", "br") else (W - size) // 2
            y += (H - size) if block.slot in ("bl", "br", "bottom") else 0
        elif block.slot == "bl":
            y += H - size
        pad = max(2, block.size // 4)
        rect = (max(0, x - pad), max(0, y - pad), min(W, int(np.ceil(x + w)) + pad), min(H, y + h + pad))
        if any(_overlaps(rect, o) for o in occupied):
            continue
        # A dark backing box sometimes — and always when the text would not stand out.
        # Force a backing box if the block would sit on background too close
        # to the text colour: viewers do the same so annotations stay legible.
        low_contrast = _low_contrast(image[rect[1]:rect[3], rect[0]:rect[2]], block.colour)
        backing = low_contrast or (preset == "clinx" and rng.random() < 0.2)
        if backing:
            canvas.box_fill(rect, (int(rng.integers(0, 35)),) * 3, float(rng.uniform(0.75, 1.0)))
            backings.append(rect)
        _draw_block(canvas, block, x, y, w, drawn, texts)
        occupied.append(rect)

    if preset == "clinx":
        base_font = blocks[0].font if blocks else available_fonts()[0]
        base_size = blocks[0].size if blocks else max(7, size // 25)
        colour = blocks[0].colour if blocks else TEXT_COLOURS[0]
        _place_nonphi(canvas, rng, size, margin, base_font, base_size, colour, occupied, texts)

    out, mask, nonphi_mask = canvas.finish()
    style = {"preset": preset, "fonts": sorted({b.font for b in blocks}), "sizes": sorted({b.size for b in blocks}),
             "slots": [b.slot for b in blocks], "backing": len(backings), "resolution": [int(H), int(W)]}
    return Injected(out, mask, nonphi_mask, texts, drawn, backings, style, canvas.background())


# --------------------------------------------------------------- questions ---

#: (id, position, template). Placeholders name manifest fields; ``{q}`` is the
#: clinical question, ``{q_stem}`` the same without its final "?".
QUESTION_TEMPLATES: tuple[tuple[str, str, str], ...] = (
    ("b1", "before", "Patient {patient_name} (MRN {mrn}), DOB {birth_date}: {q}"),
    ("b2", "before", "{patient_name}, born {birth_date}, seen at {hospital_name}. {q}"),
    ("b3", "before", "Re: {patient_name} / Acc {accession} / {study_date}. {q}"),
    ("b4", "before", "For MRN {mrn}: {q}"),
    ("b5", "before", "Hospital ID {hospital_id}, patient {patient_name}, phone {phone}. {q}"),
    ("a1", "after", "{q} Study for {patient_name} on {study_date} at {hospital_name}."),
    ("a2", "after", "{q} (Patient: {patient_name}, MRN {mrn})"),
    ("a3", "after", "{q} Send results for {patient_name} to {email} or call {phone}."),
    ("a4", "after", "{q} Accession {accession}, DOB {birth_date}."),
    ("i1", "inside", "{q_stem} for patient {patient_name} (MRN {mrn})?"),
    ("i2", "inside", "{q_stem} in the {study_date} study of {patient_name}?"),
    ("i3", "inside", "{q_stem} on {patient_name}'s scan from {hospital_name}?"),
    ("i4", "inside", "{q_stem}, given DOB {birth_date} and accession {accession}?"),
)


@dataclass(frozen=True)
class InjectedQuestion:
    text: str
    fields: tuple[str, ...]  # manifest fields used (names only: safe to log)
    template: str
    position: str  # before | after | inside


def _natural(field: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """Renderings that read naturally in prose (no DICOM ``^`` names, no bare ``YYYYMMDD``)."""
    good = tuple(o for o in options if "^" not in o and not (field.endswith("_date") and o.isdigit()))
    return good or options


def inject_question_detailed(question: str, manifest: Manifest, rng) -> InjectedQuestion:
    """Like :func:`inject_question` but also says which fields and template were used."""
    rng = as_rng(rng)
    usable = [t for t in QUESTION_TEMPLATES
              if all(manifest.values_for(f) for f in _template_fields(t[2]))]
    if not usable or not question.strip():
        return InjectedQuestion(question, (), "none", "none")
    tid, position, tmpl = usable[int(rng.integers(len(usable)))]
    values = {}
    for f in _template_fields(tmpl):
        opts = _natural(f, manifest.values_for(f))
        values[f] = opts[int(rng.integers(len(opts)))]
    q = question.strip()
    stem = q[:-1].rstrip() if q.endswith("?") else q
    text = tmpl.format(q=q, q_stem=stem, **values)
    return InjectedQuestion(text, tuple(_template_fields(tmpl)), tid, position)


def inject_question(question: str, manifest: Manifest, rng) -> str:
    """The clinical ``question`` with identifiers from ``manifest`` before, after or inside it."""
    return inject_question_detailed(question, manifest, rng).text


def _template_fields(tmpl: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(tmpl) if name and name not in ("q", "q_stem")]
