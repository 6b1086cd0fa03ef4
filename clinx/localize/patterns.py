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

Field labels survive: the characters of a label (:func:`line_labels`:
``DOB:``, ``Pat ID:``, ``Ref. Phys:``, ``ID2:``, and what OCR makes of them —
``Narne:``, ``DOB`` without its colon, ``PatID:``, ``Ref.Phys``, ``Phy3:``,
``Pat IL``) are taken out of every hit, because the recognisers take a label
word for a name (``Pat`` in ``Pat ID:``, ``Birthe`` for ``Birth:``) or a label
digit for an ID (the ``2`` of ``ID2:``); the localizer also keeps the mask's
margins off label boxes (:func:`label_boxes`). The words after a name label
(``Name:``, ``Patient:``, ``Pt:``, ``Ref Phys:``, ``Physician:``, ``Dr``), up to
the next label, are masked as ``pattern:NAME`` even where no recogniser flags
them (``Name: DOE, JOHN``). A word that is a manifest value is never a label.
Overlay words that are not PHI must survive. A hit is dropped when every one
of its tokens is an overlay word (:data:`NON_PHI_WORDS`: laterality,
orientation markers such as ``LA6``, view and position words) or a technique
/ scale value (:data:`_TECHNIQUE`: a number with a unit such as ``120 kVp``,
``2.5 mAs``, ``5 cm``). The recognisers flag none of these today; the rule is
here so that a future recogniser change cannot silently mask them.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from rapidfuzz.distance import Levenshtein

from clinx.ocr.base import span_box
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
#: The field-label vocabulary, normalised (case and punctuation folded): the words scanners and
#: overlays print before a value, and the glued forms of two-word labels (``PatID:``, ``Ref.Phys``).
LABEL_WORDS = frozenset(
    (
        "name", "patient", "pt", "patname", "patientname", "dob", "birth", "birthdate", "dateofbirth", "born",
        "id", "id2", "mrn", "pid", "patid", "patientid", "altid", "otherid", "study", "date", "studydate",
        "exam", "examdate", "acq", "acqdate", "acc", "accno", "accession", "inst", "institution", "hospital",
        "dr", "ref", "refphys", "referring", "refphysician", "referringphysician", "phys", "physician",
        "alt", "other", "sex", "age", "tel", "phone", "fax", "series", "ser", "img", "im",
    )
)  # fmt: skip
#: Labels whose value is a person's name: every word after them, up to the next label, is masked.
NAME_LABELS = frozenset(
    ("name", "patient", "pt", "patname", "patientname", "dr", "ref", "refphys", "referring", "refphysician",
     "referringphysician", "phys", "physician")
)  # fmt: skip
#: First words of two-word labels (``Pat ID:``, ``Ref. Phys:``, ``Study Date:``, ``Alt ID:``).
_LABEL_FIRST_WORDS = frozenset(("pat", "patient", "pt", "alt", "other", "ref", "referring", "study", "exam", "acq", "acc", "birth", "date"))
#: Vocabulary words that are also given names (``Pat``): a label only before another label, or alone on a line.
_NAMEISH = frozenset(("pat",))
#: Characters OCR reads a label's colon as.
_COLONISH = ":#?;"
_STRONG = re.compile(r"^([A-Za-z][A-Za-z0-9. ]{0,18}?)\s*([:#?;]+)")
#: A short word ending in ``:``/``#`` is a label even when it is not in the vocabulary (``Facility:``).
_GENERIC_STRONG = re.compile(r"^[A-Za-z][A-Za-z0-9.]{0,9}[:#]{1,2}")
_DIGIT_TO_LETTER = str.maketrans("0135", "oils")
#: Every word a label may be made of, for the fuzzy comparisons.
_ALL_LABEL_WORDS = tuple(sorted(LABEL_WORDS | _LABEL_FIRST_WORDS))


def _label_word(word: str, *, fuzzy: bool, min_len: int = 3) -> bool:
    """Whether ``word`` (normalised) is a vocabulary label, or — ``fuzzy`` — one OCR misread away from one.

    A misread is one edit (``Phy3`` for ``Phys``, ``MPN`` for ``MRN``, ``Birthe``
    for ``Birth:`` with its colon read as a letter) or ``rn`` for ``m``
    (``Narne``). Fuzzy matches need three characters and the right first letter:
    two-letter words (``LI``) are surnames as often as labels. ``min_len``: the
    shortest word matched fuzzily (4 for a word without a colon, so ``DOE`` is
    not taken for ``DOB``).
    """
    if not word:
        return False
    if word in LABEL_WORDS or word in _LABEL_FIRST_WORDS:
        return True
    if not fuzzy or len(word) < max(3, min_len):
        return False
    for w in {word, word.replace("rn", "m"), word.translate(_DIGIT_TO_LETTER)}:
        if w in LABEL_WORDS or w in _LABEL_FIRST_WORDS:
            return True
        for v in _ALL_LABEL_WORDS:
            if len(v) >= 3 and v[0] == w[0] and abs(len(v) - len(w)) <= 1 and Levenshtein.distance(w, v, score_cutoff=1) <= 1:
                return True
    return False


def _label_key(word: str) -> str:
    """The vocabulary label ``word`` (normalised) is read as, or ``""``: tells name-type labels apart."""
    if word in LABEL_WORDS or word in _LABEL_FIRST_WORDS:
        return word
    for w in (word, word.replace("rn", "m"), word.translate(_DIGIT_TO_LETTER)):
        if w in LABEL_WORDS or w in _LABEL_FIRST_WORDS:
            return w
        best = [v for v in _ALL_LABEL_WORDS if len(v) >= 3 and w and v[0] == w[0] and abs(len(v) - len(w)) <= 1
                and Levenshtein.distance(w, v, score_cutoff=1) <= 1]
        if best:
            return min(best)
    return ""


def line_labels(texts: Sequence[str], protect: Iterable[str] = ()) -> list[tuple[int, bool]]:
    """For each word of one OCR line (left to right): ``(label characters at its start, is a name label)``.

    ``0`` means the word is no label; ``len(text)`` a whole-word label;
    anything between a label glued to its value (``DOB:07.16.1953``,
    ``Patient:Fisher;``). Tolerates what OCR does to labels: a lost or
    misread colon (``DOB``, ``ID?``, ``Birthe``), one misread letter
    (``Narne:``, ``Phy3:``, ``MPN``), a two-word label read as one word
    (``PatID:``, ``Ref.Phys``) or with its second word misread (``Pat IL``
    once the ID beside it is masked). A word without a colon counts only in
    a label's place — not inside the value of a name label (``Name: Pat
    Li``), and a fuzzy one only before a number or on a line of labels —
    so a given name is not taken for a label. Words in ``protect``
    (normalised manifest values) are never labels: PHI stays masked even
    when it looks like a label.
    """
    protect = frozenset(protect)
    norms = [normalize(t) for t in texts]
    n = len(texts)

    def strong(k: int) -> int:
        """Label characters of a word with a colon-like mark (0: none)."""
        t = texts[k]
        if norms[k] in protect:
            return 0
        m = _STRONG.match(t)
        if m and _label_word(normalize(m.group(1)), fuzzy=True):
            return m.end()
        m = _GENERIC_STRONG.match(t)
        return m.end() if m else 0

    def loose(k: int) -> bool:
        """A word that reads as a label with or without its colon (context decides)."""
        return 0 <= k < n and norms[k] not in protect and (strong(k) > 0 or _label_word(norms[k], fuzzy=True))

    has_digit = [any(c.isdigit() for c in t) for t in texts]
    all_labels = n > 0 and all(loose(k) or (len(norms[k]) <= 2 and k > 0 and norms[k - 1] in _LABEL_FIRST_WORDS) for k in range(n))
    out: list[tuple[int, bool]] = []
    in_name = False
    for k, t in enumerate(texts):
        w = norms[k]
        nxt_digit = k + 1 < n and has_digit[k + 1]
        size = strong(k)
        if size:
            head = normalize(t[:size])
            # A name label's value may be glued to it ("Patient:Fisher;"): the label part decides.
            name = _label_key(head) in NAME_LABELS or bool(k > 0 and out[-1][0] and _label_key(norms[k - 1] + head) in NAME_LABELS)
            out.append((size, name))
            in_name = name
            continue
        label = False
        if w and w not in protect:
            exact = w in LABEL_WORDS or w in _LABEL_FIRST_WORDS
            first = w in _LABEL_FIRST_WORDS or _label_key(w) in _LABEL_FIRST_WORDS
            before_label = k + 1 < n and (strong(k + 1) > 0 or (first and _label_word(norms[k + 1], fuzzy=True)))
            short_id = (len(w) <= 2 and k > 0 and out[-1][0] > 0 and norms[k - 1] in _LABEL_FIRST_WORDS
                        and Levenshtein.distance(w, "id") <= 1 and (k + 1 == n or nxt_digit))  # "Pat IL": ID misread
            if in_name:
                # Inside a name's value only a vocabulary word starts the next field ("Name: CRUZ MICHAEL
                # DOB 12.04.2005"); "Name: Pat Li" and "Pt: Birthe" are names.
                label = exact and w not in _NAMEISH
            elif all_labels:
                # A line of labels whose values are masked; a three-letter misread only before another label.
                label = exact or short_id or _label_word(w, fuzzy=True, min_len=4) or (len(w) == 3 and before_label)
            elif w in _NAMEISH:
                label = before_label
            elif exact:
                label = True  # no name is spelt like these words
            elif _label_word(w, fuzzy=True, min_len=4) or (len(w) == 3 and before_label and _label_word(w, fuzzy=True)):
                label = nxt_digit or before_label
            else:
                label = short_id
        if label:
            key = _label_key(w)
            name = key in NAME_LABELS or bool(k > 0 and out[-1][0] > 0 and _label_key(norms[k - 1] + w) in NAME_LABELS)
            out.append((len(t), name))
            in_name = name
        else:
            out.append((0, False))
    return out


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


def _line_text(line) -> tuple[str, list[int], list[int]]:
    """The line as text (words joined by single spaces), each normalised character's offset in it, and each word's start."""
    parts: list[str] = []
    raw_pos: list[int] = []
    starts: list[int] = []
    off = 0
    for u in line.units:
        raw_pos.extend(off + i for i in u.norm_idx)
        starts.append(off)
        parts.append(u.text)
        off += len(u.text) + 1
    return " ".join(parts), raw_pos, starts


def _protected(protect: Iterable[str]) -> frozenset[str]:
    return frozenset(normalize(p) for p in protect if p)


def pattern_matches(
    detections: Sequence[Detection],
    *,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    gap_factor: float = 2.5,
    whole_unit_fraction: float = 0.9,
    protect: Iterable[str] = (),
) -> list[Match]:
    """Masked regions for identifiers that clinx's text recognisers find on the OCR lines.

    One :class:`Match` per masked word or word part, ``field="pattern:<CATEGORY>"``,
    ``method="pattern"``. Needs no manifest. Field labels (:func:`line_labels`)
    are cut out of every hit; the words after a name label (``Name:``,
    ``Pt:``, ``Ref. Phys:``, ``Dr``) up to the next label are masked as
    ``pattern:NAME`` whether or not a recogniser flags them. ``protect``:
    manifest value tokens, never taken for labels.
    """
    prot = _protected(protect)
    out: list[Match] = []
    seen: set[tuple] = set()
    for line in ocr_lines(detections, min_confidence, gap_factor):
        text, raw_pos, starts = _line_text(line)
        labs = line_labels([u.text for u in line.units], prot)
        labels = [(starts[p], starts[p] + size) for p, (size, _) in enumerate(labs) if size]
        spans = [(sp.start, sp.end, sp.category) for sp in _rescan(text)]
        # The value of a name label: its words up to the next label (a cue the recognisers may miss:
        # "Name: DOE, JOHN" was flagged on JOHN only).
        for p, (size, name) in enumerate(labs):
            if not name:
                continue
            if size < len(line.units[p].text):  # "Patient:Fisher;": the glued rest is the value
                spans.append((starts[p] + size, starts[p] + len(line.units[p].text), "NAME"))
            for q in range(p + 1, len(line.units)):
                if labs[q][0]:
                    break
                word = line.units[q].text
                if sum(c.isalpha() for c in word) >= 2 and not is_non_phi_text(word):
                    spans.append((starts[q], starts[q] + len(word), "NAME"))
        for start, end, category in spans:
            for a, b in _minus(start, end, labels):
                hit = text[a:b]
                if is_non_phi_text(hit) or not any(c.isalnum() for c in hit):
                    continue
                ks = [k for k, p in enumerate(raw_pos) if a <= p < b]
                if ks:
                    for m in cover_line(line, ks[0], ks[-1] + 1, f"pattern:{category}", 100.0, "pattern", whole_unit_fraction):
                        key = (m.detection_index, tuple(round(v, 1) for v in m.box))
                        if key not in seen:  # a recogniser's hit and the name-label rule on the same word
                            seen.add(key)
                            out.append(m)
    return out


def label_boxes(
    detections: Sequence[Detection],
    *,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    gap_factor: float = 2.5,
    protect: Iterable[str] = (),
) -> list[tuple[float, float, float, float]]:
    """Boxes of the field labels on the OCR lines (:func:`line_labels`): kept out of a mask's margins.

    A glued label (``DOB:07.16.1953``) gets the part of its word box that
    holds the label's characters, without padding.
    """
    prot = _protected(protect)
    out = []
    for line in ocr_lines(detections, min_confidence, gap_factor):
        for u, (size, _) in zip(line.units, line_labels([u.text for u in line.units], prot)):
            if size >= len(u.text):
                out.append(tuple(u.box))
            elif size:
                out.append(span_box(u.box, u.text, 0, size))
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
