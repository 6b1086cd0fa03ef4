"""Match OCR detections against a manifest and keep only the words that are PHI.

The paper's rule (ClinX §3.2, App. B.2): a detection is PHI when its
normalised string is similar enough to a normalised manifest identifier and
its OCR confidence passes a threshold. Doing that per *detection* is too
coarse — ``Name: JOHN DOE    L`` read as one line would mask the label and
the laterality marker with the name — and too fine when one value is split
over several boxes (``JOHN`` | ``DOE``, ``03/14/`` | ``1961``). So matching
works on **text lines of word units**:

1. Every detection above ``min_confidence`` becomes word units: an engine
   word box as is, a multi-word line cut into estimated word boxes by
   character offsets (:func:`clinx.ocr.base.span_box`).
2. Units are grouped into text lines (same row, small horizontal gaps) in
   reading order, and each line becomes one normalised string with a map
   from every character back to its unit and character offset.
3. For each manifest value and each of its renderings (dates in all common
   forms, names in both orders), three scorers run and every hit above the
   threshold is kept:

   * ``ratio`` — the value aligned inside the line string with
     ``rapidfuzz.fuzz.partial_ratio_alignment`` (the best window scored by
     whole-string ``ratio``): finds the value whether it fills one word,
     spans several consecutive words, or sits glued to a label
     (``MRN00482913``), and returns *which characters* matched;
   * ``partial`` — a line that is only a *piece* of a longer value (a
     wrapped hospital name) matches when it is long enough and starts and
     ends on the value's token boundaries;
   * ``token_set`` — name parts in any order: each unit is compared with each
     token of the value; a run of matching units is scored with
     ``token_set_ratio``. Units that match no token (``Name:``) stay out.

   Comparisons are done on OCR-confusion skeletons (:mod:`.normalize`) so
   ``J0HN D0E`` matches ``JOHN DOE`` and ``0O482913`` matches ``00482913``.
4. Only matched characters are masked: a unit covered almost whole is masked
   whole (its engine box or polygon); a partly covered unit gets a
   sub-box cut by character offsets, widened by half a character.

Short tokens (≤ 2 normalised characters) never match by partial or token
scores — only by exact equality with a whole, equally short value — so the
``L``/``R`` markers on an image survive a name containing an ``l``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from rapidfuzz import fuzz

from clinx.ocr.base import span_box, token_spans
from clinx.records import Detection, Manifest

from .normalize import (
    date_renderings,
    is_numeric_like,
    is_person_name_field,
    name_variants,
    normalize_with_map,
    numeric_skeleton,
    skeleton_for,
    tokens,
)

#: Default similarity threshold (0-100, rapidfuzz scale).
DEFAULT_THRESHOLD = 82.0
#: Default minimum OCR confidence for a detection to be considered.
DEFAULT_MIN_CONFIDENCE = 0.3
#: Tokens this short match only by exact equality.
SHORT_TOKEN = 2


@dataclass(frozen=True)
class Match:
    """One masked region: which detection, which manifest field, how, and where.

    ``box`` is the region to mask in image pixels (the whole word, or the
    matched characters of it). ``polygon`` is set when the whole engine word
    matched and the engine gave a polygon. Holds no text, so it is log-safe.
    """

    detection_index: int
    field: str
    score: float
    method: str
    box: tuple[float, float, float, float]
    polygon: tuple[tuple[float, float], ...] | None = None
    #: ``(left, right)`` x-limits the mask's *horizontal* dilation may not
    #: cross (the region itself is always kept): halfway to the neighbouring
    #: words of the line, or the region's own edge where unmatched characters
    #: of the same word follow (``MRN:`` before ``00482913``). ``None``: no limit.
    limits: tuple[float, float] | None = None
    #: For a part of one OCR word: ``(word box, first glyph, end glyph, glyphs in the word)``,
    #: glyphs counted without spaces, so :func:`clinx.localize.glyphs.snap_cuts` can move the
    #: cut to the ink gap beside a glued label. ``None`` for whole words.
    cut: tuple[tuple[float, float, float, float], int, int, int] | None = None


@dataclass
class _Unit:
    det_index: int
    text: str  # the unit's characters as OCR'd
    box: tuple[float, float, float, float]
    polygon: tuple | None
    estimated: bool  # box cut from a line by character offsets
    norm: str = ""
    norm_idx: tuple[int, ...] = ()


@dataclass
class _Line:
    units: list[_Unit]
    s: str  # normalised line string
    owner: list[tuple[int, int]]  # per char of s: (unit position in line, char index in unit.norm)
    skel_cache: dict = field(default_factory=dict)


@dataclass(frozen=True)
class _Target:
    field: str
    norm: str
    skel: object  # skeleton function
    value_tokens: tuple[str, ...]
    value_token_bounds: frozenset[int]  # positions in norm where a value token starts or ends
    person: bool


# ------------------------------------------------------------------ units
def _units(dets: Sequence[Detection], min_confidence: float) -> list[_Unit]:
    units: list[_Unit] = []
    for i, d in enumerate(dets):
        if d.confidence < min_confidence or not d.text or not d.text.strip():
            continue
        spans = token_spans(d.text)
        if len(spans) <= 1:
            units.append(_Unit(i, d.text.strip(), tuple(d.box), d.polygon, d.level not in ("word", "line")))
            continue
        for s, e in spans:
            units.append(_Unit(i, d.text[s:e], span_box(d.box, d.text, s, e), None, True))
    for u in units:
        n, idx = normalize_with_map(u.text)
        u.norm, u.norm_idx = n, tuple(idx)
    return [u for u in units if u.norm]


def _lines(units: list[_Unit], gap_factor: float) -> list[_Line]:
    """Chain units into text lines, left to right.

    A unit continues the line of the nearest unit to its left that overlaps
    it vertically (intersection over union of the y-extents ≥ 0.5) and ends
    less than ``gap_factor`` text heights before it. Vertical IoU rather than
    a row band keeps two stacked, tightly spaced annotation lines apart; the
    gap limit keeps text in the left and right corners of one row apart, so
    no match is built across columns.
    """
    order = sorted(range(len(units)), key=lambda k: (units[k].box[0], units[k].box[1]))
    nxt: dict[int, int] = {}
    prv: dict[int, int] = {}
    for k in order:
        u = units[k]
        h = max(1.0, u.box[3] - u.box[1])
        best, best_gap = None, None
        for j in order:
            if j == k or j in nxt:
                continue
            v = units[j]
            if v.box[0] >= u.box[0]:
                continue
            gap = u.box[0] - v.box[2]
            vh = max(1.0, v.box[3] - v.box[1])
            if gap > gap_factor * max(h, vh) or gap < -0.5 * min(h, vh):
                continue
            inter = min(u.box[3], v.box[3]) - max(u.box[1], v.box[1])
            union = max(u.box[3], v.box[3]) - min(u.box[1], v.box[1])
            if union <= 0 or inter / union < 0.5:
                continue
            if best_gap is None or gap < best_gap:
                best, best_gap = j, gap
        if best is not None:
            nxt[best] = k
            prv[k] = best
    lines: list[_Line] = []
    for k in order:
        if k in prv:
            continue
        chain = [units[k]]
        while k in nxt:
            k = nxt[k]
            chain.append(units[k])
        lines.append(_make_line(chain))
    return lines


def _line_skeleton(line: _Line, t: _Target) -> str:
    """The line string folded with the target's OCR-confusion skeleton, unit by unit.

    For numeric values only units that contain a digit are folded: the ``l``
    of a ``Tel:`` label must not turn into the ``1`` of a ``+1`` country
    code. Cached per line and skeleton.
    """
    key = t.skel
    cached = line.skel_cache.get(key)
    if cached is None:
        numeric = t.skel is numeric_skeleton
        cached = "".join(_fold_numeric(u) if numeric else t.skel(u.norm) for u in line.units)
        line.skel_cache[key] = cached
    return cached


def _fold_numeric(u: _Unit) -> str:
    """The unit folded with :func:`numeric_skeleton`, except its label.

    A unit without digits is a word, not a misread number: unfolded. In a
    unit such as ``Tel:(756)530-3006`` or ``MRN:00482913`` the letters before
    the last ``:`` are a label: folding the ``l`` of ``Tel`` into ``1`` would
    let a ``+1 756 …`` rendering pull the label into the match.
    """
    if not any(c.isdigit() for c in u.norm):
        return u.norm
    colon = u.text.rfind(":")
    if colon <= 0 or not u.text[:colon].strip().isalpha():
        return numeric_skeleton(u.norm)
    return "".join(c if u.norm_idx[k] < colon else numeric_skeleton(c) for k, c in enumerate(u.norm))


def _make_line(units: list[_Unit]) -> _Line:
    s: list[str] = []
    owner: list[tuple[int, int]] = []
    for p, u in enumerate(units):
        for ci, ch in enumerate(u.norm):
            s.append(ch)
            owner.append((p, ci))
    return _Line(units, "".join(s), owner)


# ---------------------------------------------------------------- targets
def _targets(manifest: Manifest) -> list[_Target]:
    """Every normalised string a manifest field may appear as, deduplicated per field."""
    out: list[_Target] = []
    seen: set[tuple[str, str]] = set()
    for field in manifest.fields:
        person = is_person_name_field(field)
        values: list[str] = []
        for v in manifest.values_for(field):
            values.append(v)
            values.extend(date_renderings(v))
            if person:
                values.extend(name_variants(v))
        for v in values:
            norm = normalize_with_map(v)[0]
            if not norm or (field, norm) in seen:
                continue
            seen.add((field, norm))
            toks = tuple(tokens(v))
            bounds: set[int] = {0, len(norm)}
            pos = 0
            for t in toks:
                j = norm.find(t, pos)
                if j >= 0:
                    bounds.update((j, j + len(t)))
                    pos = j + len(t)
            out.append(_Target(field, norm, skeleton_for(v), toks, frozenset(bounds), person))
    return out


def _threshold_for(n: int, threshold: float, numeric: bool = False) -> float:
    """The similarity a string of ``n`` normalised characters needs.

    Short strings must match exactly: one wrong character in four is 75 %,
    but a different word. Numbers tolerate at most one misread digit, and
    only from 8 digits up: ``031461`` (a short-year date) is not ``031419``.
    """
    if n <= 4 or (numeric and n < 8):
        return 100.0
    if numeric:
        return max(threshold, 100.0 * (1.0 - 1.01 / n))
    return threshold


# --------------------------------------------------------------- matching
def match_detections(
    detections: Sequence[Detection],
    manifest: Manifest,
    threshold: float = DEFAULT_THRESHOLD,
    *,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    min_fragment_len: int = 5,
    whole_unit_fraction: float = 0.9,
    gap_factor: float = 2.5,
    max_hits_per_line: int = 4,
) -> list[Match]:
    """Find the words of ``detections`` that show values of ``manifest``.

    Parameters
    ----------
    detections:
        OCR output of one image (any mix of word and line levels).
    manifest:
        Known identifiers of the image.
    threshold:
        Minimum similarity (0-100, rapidfuzz scale) between a normalised
        window of OCR text and a normalised manifest value. Values of ≤ 4
        characters must match exactly.
    min_confidence:
        Detections with lower OCR confidence are ignored.
    min_fragment_len:
        Shortest line (normalised characters) that may match as a *piece* of a
        longer value.
    whole_unit_fraction:
        A word whose characters are matched at least this much is masked
        whole rather than cut.
    gap_factor:
        Words farther apart than this many text heights are on different lines.
    max_hits_per_line:
        How many occurrences of one value are searched per line.

    Returns
    -------
    One :class:`Match` per masked word or word part, deduplicated (best score
    kept), in detection order.
    """
    if not manifest:
        return []
    units = _units(detections, min_confidence)
    if not units:
        return []
    lines = _lines(units, gap_factor)
    best: dict[tuple, Match] = {}

    def add(m: Match) -> None:
        key = (m.detection_index, tuple(round(v, 1) for v in m.box))
        old = best.get(key)
        if old is None or m.score > old.score:
            best[key] = m

    by_field: dict[str, list[_Target]] = {}
    for t in _targets(manifest):
        by_field.setdefault(t.field, []).append(t)
    for field, targets in by_field.items():
        for line in lines:
            for m in _match_ratio(line, targets, threshold, whole_unit_fraction, max_hits_per_line):
                add(m)
            for t in targets:
                for m in _match_fragment(line, t, threshold, min_fragment_len):
                    add(m)
                for m in _match_tokens(line, t, threshold):
                    add(m)
    return sorted(best.values(), key=lambda m: (m.detection_index, m.box[0]))


def ocr_lines(detections: Sequence[Detection], min_confidence: float = DEFAULT_MIN_CONFIDENCE, gap_factor: float = 2.5) -> list[_Line]:
    """The text lines of ``detections`` as the matcher sees them (word units chained left to right).

    Shared with :mod:`clinx.localize.patterns`, so manifest and pattern hits
    are found on the same lines and masked by the same rules.
    """
    units = _units(detections, min_confidence)
    return _lines(units, gap_factor) if units else []


def cover_line(line: _Line, start: int, end: int, field: str, score: float, method: str, whole_unit_fraction: float = 0.9) -> list[Match]:
    """Masks for normalised characters ``[start, end)`` of ``line``: whole words or cut word parts (see :func:`_cover`)."""
    return _cover(line, start, end, field, score, method, whole_unit_fraction)


def _cover(line: _Line, start: int, end: int, field: str, score: float, method: str, whole_unit_fraction: float) -> list[Match]:
    """Masks for characters ``[start, end)`` of ``line.s``: whole words or cut word parts."""
    per_unit: dict[int, list[int]] = {}
    for k in range(start, end):
        p, ci = line.owner[k]
        per_unit.setdefault(p, []).append(ci)
    out = []
    for p, cis in per_unit.items():
        u = line.units[p]
        n = len(u.norm)
        if len(cis) >= whole_unit_fraction * n or n - len(cis) <= 1:
            out.append(Match(u.det_index, field, score, method, _unit_box(u), u.polygon, _limits(line, p)))
            continue
        # Cut the matched characters out of the word box. Map normalised
        # indices back to the unit's raw characters so punctuation
        # (``MRN:00482913``) is counted in the proportion.
        a = u.norm_idx[min(cis)]
        b = u.norm_idx[max(cis)] + 1
        box = span_box(u.box, u.text, a, b, pad_chars=0.5)
        left, right = _limits(line, p)
        # Unmatched letters or digits of the same word next to the cut (the
        # label in ``MRN:00482913``): the half-character pad is all the margin
        # that side gets, or the dilation eats into the label.
        if any(c.isalnum() for c in u.text[:a]):
            left = box[0]
        if any(c.isalnum() for c in u.text[b:]):
            right = box[2]
        glyphs = (tuple(u.box), _glyphs(u.text[:a]), _glyphs(u.text[:b]), _glyphs(u.text))
        out.append(Match(u.det_index, field, score, method, box, None, (left, right), glyphs))
    return out


def _glyphs(text: str) -> int:
    """Glyphs drawn for ``text``: its characters less the spaces."""
    return sum(not c.isspace() for c in text)


def _limits(line: _Line, p: int) -> tuple[float, float]:
    """The edges of the neighbouring words of unit ``p`` in its line (±inf at the line ends).

    The mask's margin may fill the whole gap up to a neighbour's box but never
    enters it, so an unmatched neighbour (a label) keeps its ink. Not the
    midpoint: word boxes cut from a line (RapidOCR's CTC positions, estimated
    splits) are off by a few pixels, and at native resolution the first
    glyph column of a name then sat outside a midpoint limit.
    """
    u = line.units[p]
    left = -float("inf") if p == 0 else line.units[p - 1].box[2]
    right = float("inf") if p + 1 >= len(line.units) else line.units[p + 1].box[0]
    return (min(left, u.box[0]), max(right, u.box[2]))


def _unit_box(u: _Unit) -> tuple[float, float, float, float]:
    """The box to mask for a whole unit; estimated word boxes get half a character of slack.

    A box cut from a line by character offsets can miss the edge of a wide
    glyph (``W``, ``M``) on a proportional font; the slack keeps it covered.
    """
    if not u.estimated:
        return tuple(u.box)
    x0, y0, x1, y1 = u.box
    pad = 0.5 * (x1 - x0) / max(1, len(u.text))
    return (x0 - pad, y0, x1 + pad, y1)


def _match_ratio(line: _Line, targets: list[_Target], threshold: float, whole_unit_fraction: float, max_hits: int) -> list[Match]:
    """Values of one field (all renderings) aligned inside the line, best hit first.

    All renderings of a field compete for the same characters: the best
    (highest score, then longest) hit is taken, its characters are blanked,
    and the search repeats for further occurrences. Without that, a short
    rendering (``03/14/61``) would match again, fuzzily, inside the characters
    a long one (``03/14/1961``) already explained, and spill onto the label.
    """
    out: list[Match] = []
    blank = set()
    for t in targets:
        if len(t.norm) <= SHORT_TOKEN:
            # Short values: only a whole unit that equals the value.
            for u in line.units:
                if t.skel(u.norm) == t.skel(t.norm):
                    out.append(Match(u.det_index, t.field, 100.0, "exact", _unit_box(u), u.polygon, _limits(line, line.units.index(u))))
    for _ in range(max_hits):
        best = None
        for t in targets:
            n = len(t.norm)
            if n <= SHORT_TOKEN or n > len(line.s):
                continue
            need = _threshold_for(n, threshold, is_numeric_like(t.norm))
            s = "".join("\x00" if k in blank else c for k, c in enumerate(_line_skeleton(line, t)))
            al = fuzz.partial_ratio_alignment(t.skel(t.norm), s, score_cutoff=need)
            if al is None or al.score < need or al.dest_end <= al.dest_start:
                continue
            score, a, b = _refine(t.skel(t.norm), s, line, al.score, al.dest_start, al.dest_end)
            if any(k in blank for k in range(a, b)):
                continue
            if n <= 5 and not (_at_unit_start(line, a) and _at_unit_end(line, b)):
                continue  # a short value inside a longer word ("ann" in "annual") is not that value
            key = (score, b - a)
            if best is None or key > best[0]:
                best = (key, t, a, b)
        if best is None:
            break
        (score, _), t, a, b = best
        out.extend(_cover(line, a, b, t.field, float(score), "ratio", whole_unit_fraction))
        blank.update(range(a, b))
    return out


def _refine(v: str, s: str, line: _Line, score: float, a: int, b: int) -> tuple[float, int, int]:
    """Nudge an alignment window by one character at either end if that scores as well or better.

    rapidfuzz returns the first best window; with one misread character the
    window can slide onto a neighbouring label (``n0048291`` instead of
    ``00482918`` in ``mrn00482918``). Among equal scores, windows that start
    and end on word boundaries win.
    """
    best = (score, _at_unit_start(line, a) + _at_unit_end(line, b), a, b)
    for da in (-1, 0, 1):
        for db in (-1, 0, 1):
            x, y = a + da, b + db
            if x < 0 or y > len(s) or y - x < 1 or (da == 0 and db == 0):
                continue
            cand = (fuzz.ratio(v, s[x:y]), _at_unit_start(line, x) + _at_unit_end(line, y), x, y)
            if cand[:2] > best[:2]:
                best = cand
    return float(best[0]), best[2], best[3]


def _at_unit_start(line: _Line, k: int) -> bool:
    return k == 0 or line.owner[k][0] != line.owner[k - 1][0]


def _at_unit_end(line: _Line, k: int) -> bool:
    return k >= len(line.owner) or line.owner[k][0] != line.owner[k - 1][0]


def _match_fragment(line: _Line, t: _Target, threshold: float, min_len: int) -> list[Match]:
    """Runs of whole words that are a piece of a longer value, cut on its token boundaries.

    This finds a value wrapped over two lines (``St. Mary`` / ``Hospital``).
    Every run of consecutive units shorter than the value is aligned inside
    it; a run counts when it scores above the threshold *and* both its ends
    sit on token boundaries of the value (±1 character), or ``CHEST`` would
    match inside ``CHESTER GENERAL``. Best runs win; overlapping runs are dropped.
    """
    k = len(line.units)
    cands = []
    v = t.skel(t.norm)
    sk = _line_skeleton(line, t)
    starts = [0]
    for u in line.units:
        starts.append(starts[-1] + len(u.norm))
    for i in range(k):
        for j in range(i, k):
            n = starts[j + 1] - starts[i]
            if n >= len(t.norm):
                break
            if n < min_len:
                continue
            need = _threshold_for(n, threshold, is_numeric_like(t.norm))
            al = fuzz.partial_ratio_alignment(sk[starts[i] : starts[j + 1]], v, score_cutoff=need)
            if al is None or al.score < need:
                continue
            # The end words must be pieces of the value themselves, or a label
            # next to a fragment ("Pt: Cunningham") would ride along.
            if not (_unit_in_value(sk, starts, i, v, need) and _unit_in_value(sk, starts, j, v, need)):
                continue
            if not (_near_bound(t, al.dest_start) and _near_bound(t, al.dest_end)):
                continue
            cands.append((al.score, n, i, j))
    out: list[Match] = []
    used: set[int] = set()
    for score, _, i, j in sorted(cands, reverse=True):
        if used.intersection(range(i, j + 1)):
            continue
        used.update(range(i, j + 1))
        out.extend(Match(line.units[p].det_index, t.field, float(score), "partial", _unit_box(line.units[p]), line.units[p].polygon, _limits(line, p)) for p in range(i, j + 1))
    return out


def _unit_in_value(sk: str, starts: list[int], p: int, v: str, need: float) -> bool:
    piece = sk[starts[p] : starts[p + 1]]
    if len(piece) <= SHORT_TOKEN:
        return False
    al = fuzz.partial_ratio_alignment(piece, v, score_cutoff=_threshold_for(len(piece), need))
    return al is not None


def _near_bound(t: _Target, x: int) -> bool:
    return any(abs(x - b) <= 1 for b in t.value_token_bounds)


def _match_tokens(line: _Line, t: _Target, threshold: float) -> list[Match]:
    """Name parts in any order: runs of units that each equal (fuzzily) a token of the value."""
    toks = [tok for tok in t.value_tokens if len(tok) > SHORT_TOKEN]
    if len(t.value_tokens) < 2 or not toks or is_numeric_like(t.norm):
        return []
    sk_toks = [t.skel(tok) for tok in toks]
    hits: list[tuple[int, float]] = []
    for p, u in enumerate(line.units):
        if len(u.norm) <= SHORT_TOKEN:
            continue
        su = t.skel(u.norm)
        score = max(fuzz.ratio(su, tok) for tok in sk_toks)
        if score >= _threshold_for(len(u.norm), threshold):
            hits.append((p, score))
    if not hits:
        return []
    # Consecutive hits form runs; a run is scored against the whole value.
    runs: list[list[tuple[int, float]]] = [[hits[0]]]
    for h in hits[1:]:
        if h[0] == runs[-1][-1][0] + 1:
            runs[-1].append(h)
        else:
            runs.append([h])
    out: list[Match] = []
    for run in runs:
        text = " ".join(t.skel(line.units[p].norm) for p, _ in run)
        ts = fuzz.token_set_ratio(text, " ".join(sk_toks))
        covered = sum(len(line.units[p].norm) for p, _ in run)
        # A single name part is PHI on its own; for other fields (a hospital
        # name) one common word such as "Hospital" is not enough.
        if not (t.person or len(run) >= 2 or covered * 2 >= len(t.norm)):
            continue
        for p, sc in run:
            u = line.units[p]
            out.append(Match(u.det_index, t.field, float(min(sc, ts) if len(run) > 1 else sc), "token_set", _unit_box(u), u.polygon, _limits(line, p)))
    return out
