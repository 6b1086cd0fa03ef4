"""Normalise OCR strings and manifest values so that equal identifiers compare equal.

Everything here is pure string work, shared by the matcher and the manifest
builders:

* :func:`normalize` — NFKC, casefold, DICOM ``^`` as a space, punctuation and
  spacing removed: ``"DOE^JOHN"``, ``"Doe, John"`` and ``"doe john"`` all give
  ``"doejohn"``. :func:`normalize_with_map` also returns, for every kept
  character, its index in the input, so a match can be mapped back onto the
  pixels of the word it came from.
* OCR confusions: :func:`numeric_skeleton` folds letters that OCR mistakes for
  digits (O→0, I/l→1, S→5, B→8, Z→2) and is applied only to numeric-looking
  values (MRNs, dates, phone numbers), so names are never turned into
  numbers. :func:`alpha_skeleton` is its mirror for alphabetic values: digits
  inside an OCR'd word are read as the letters they resemble (``J0HN`` →
  ``john``), and ``i``/``l`` collapse.
* Dates: :func:`parse_dates` reads any common rendering of a date;
  :func:`date_renderings` writes every common rendering back, so a manifest
  date matches whichever form was burned into the image.
* Names: :func:`name_variants` gives both orders of a person name
  (``DOE^JOHN^Q`` → ``JOHN Q DOE``, ``DOE JOHN``…).
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from functools import lru_cache

_NUMERIC_FOLD = str.maketrans({"o": "0", "q": "0", "i": "1", "l": "1", "s": "5", "b": "8", "z": "2"})
_ALPHA_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "5": "s", "8": "b", "2": "z"})

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _norm_char(c: str) -> str:
    """NFKC + casefold of one character, keeping only letters and digits."""
    if c == "^":  # DICOM PN component separator
        return ""
    s = unicodedata.normalize("NFKC", c).casefold()
    return "".join(ch for ch in s if ch.isalnum())


def normalize(text: str) -> str:
    """Compact comparison form: NFKC, casefolded, letters and digits only.

    >>> normalize("Name: DOE^John")
    'namedoejohn'
    >>> normalize("03/14/1961")
    '03141961'
    """
    return normalize_with_map(text)[0]


def normalize_with_map(text: str) -> tuple[str, list[int]]:
    """:func:`normalize` plus, for each output character, the index of its source character.

    The text is first Unicode-folded as the text recognisers see it
    (:func:`clinx.text.unicode.fold`: zero-width characters dropped,
    full-width forms and homoglyphs read as Latin), so ``Ѕmіth`` in a
    manifest or an OCR read matches ``Smith``; the map points past the fold
    to the characters as given.
    """
    from clinx.text.unicode import fold  # one Unicode fold for text and image matching (pure string work)

    view = fold(text, casefold=True)
    back = view.index
    out: list[str] = []
    idx: list[int] = []
    for i, c in enumerate(view.text):
        n = _norm_char(c)
        for ch in n:
            out.append(ch)
            idx.append(i if back is None else back[i])
    return "".join(out), idx


def tokens(text: str) -> list[str]:
    """Normalised tokens: the input split on spacing, punctuation and ``^``; empty ones dropped.

    >>> tokens("DOE^JOHN Q.")
    ['doe', 'john', 'q']
    """
    t = unicodedata.normalize("NFKC", text).replace("^", " ")
    return [w for w in (normalize(p) for p in re.split(r"[\s\W_]+", t)) if w]


def is_numeric_like(text: str) -> bool:
    """True when at least half of the letters and digits are digits (IDs, dates, phones)."""
    n = normalize(text)
    return bool(n) and sum(ch.isdigit() for ch in n) * 2 >= len(n)


def numeric_skeleton(norm: str) -> str:
    """Fold letters OCR confuses with digits (O/0, I/l/1, S/5, B/8, Z/2) in a normalised string.

    Length-preserving, so indices from :func:`normalize_with_map` stay valid.
    """
    return norm.translate(_NUMERIC_FOLD)


def alpha_skeleton(norm: str) -> str:
    """Read digits as look-alike letters (0→o, 1→l, 5→s, 8→b, 2→z) and collapse i/l.

    Length-preserving. Used for alphabetic values only, on both sides of a
    comparison, so ``J0HN`` matches ``JOHN`` and ``W1LL1AM`` matches ``WILLIAM``.
    """
    return norm.translate(_ALPHA_FOLD)


def skeleton_for(value: str):
    """The skeleton function that suits a manifest value (numeric or alphabetic)."""
    return numeric_skeleton if is_numeric_like(value) else alpha_skeleton


# --------------------------------------------------------------------- dates
_SEP = r"[\s/.\-]"
_RX = {
    "ymd": re.compile(rf"^\s*(\d{{4}}){_SEP}(\d{{1,2}}){_SEP}(\d{{1,2}})\s*$"),
    "compact": re.compile(r"^\s*(\d{4})(\d{2})(\d{2})\s*$"),
    "xyz": re.compile(rf"^\s*(\d{{1,2}}){_SEP}(\d{{1,2}}){_SEP}(\d{{4}}|\d{{2}})\s*$"),
    "d_mon_y": re.compile(r"^\s*(\d{1,2})[\s\-./]*([A-Za-z]{3,9})\.?[\s\-./,]*(\d{4})\s*$"),
    "mon_d_y": re.compile(r"^\s*([A-Za-z]{3,9})\.?[\s\-./]*(\d{1,2})(?:st|nd|rd|th)?[\s,\-./]*(\d{4})\s*$"),
    "y_mon_d": re.compile(r"^\s*(\d{4})[\s\-./]*([A-Za-z]{3,9})\.?[\s\-./]*(\d{1,2})\s*$"),
}


def _month(name: str) -> int | None:
    key = name[:3].casefold()
    if key in MONTHS and (len(name) <= 4 or _MONTH_NAMES[MONTHS.index(key)].casefold().startswith(name.casefold().rstrip("."))):
        return MONTHS.index(key) + 1
    return None


def _mk(y: int, m: int, d: int) -> _dt.date | None:
    if not 1800 <= y <= 2200:
        return None
    try:
        return _dt.date(y, m, d)
    except ValueError:
        return None


def _year(y: str) -> int:
    """Two-digit years pivot at 30: ``61`` → 1961, ``12`` → 2012 (a guess, as any reader's)."""
    v = int(y)
    if len(y) == 2:
        v += 1900 if v >= 30 else 2000
    return v


@lru_cache(maxsize=4096)
def parse_dates(text: str) -> tuple[_dt.date, ...]:
    """Every calendar date that ``text`` can be read as (empty when it is not a date).

    Ambiguous numeric forms such as ``03/04/1961`` return both the US
    (March 4) and the EU (April 3) reading: matching both is the safe side.
    Accepts ISO (``1961-03-14``), DICOM (``19610314``), US/EU with ``/ - .``,
    ``14-Mar-1961``, ``14 March 1961``, ``Mar 14, 1961`` and ``1961 Mar 14``.
    """
    s = unicodedata.normalize("NFKC", str(text)).strip()
    out: list[_dt.date] = []

    def add(d):
        if d is not None and d not in out:
            out.append(d)

    if m := _RX["compact"].match(s):
        add(_mk(int(m[1]), int(m[2]), int(m[3])))
    elif m := _RX["ymd"].match(s):
        add(_mk(int(m[1]), int(m[2]), int(m[3])))
    elif m := _RX["xyz"].match(s):
        a, b, y = int(m[1]), int(m[2]), _year(m[3])
        add(_mk(y, a, b))  # US month/day first: the common rendering on scanners
        add(_mk(y, b, a))
    elif m := _RX["d_mon_y"].match(s):
        mo = _month(m[2])
        if mo:
            add(_mk(int(m[3]), mo, int(m[1])))
    elif m := _RX["mon_d_y"].match(s):
        mo = _month(m[1])
        if mo:
            add(_mk(int(m[3]), mo, int(m[2])))
    elif m := _RX["y_mon_d"].match(s):
        mo = _month(m[2])
        if mo:
            add(_mk(int(m[1]), mo, int(m[3])))
    return tuple(out)


def format_date(d: _dt.date) -> tuple[str, ...]:
    """The common renderings of one date (ISO, US, EU, DICOM, month-name forms)."""
    mon = MONTHS[d.month - 1].capitalize()
    full = _MONTH_NAMES[d.month - 1]
    y, m, dd = d.year, d.month, d.day
    return (
        f"{y:04d}-{m:02d}-{dd:02d}",
        f"{m:02d}/{dd:02d}/{y:04d}",
        f"{m}/{dd}/{y:04d}",
        f"{dd:02d}/{m:02d}/{y:04d}",
        f"{dd:02d}.{m:02d}.{y:04d}",
        f"{dd:02d}-{mon}-{y:04d}",
        f"{y:04d}{m:02d}{dd:02d}",
        f"{mon} {dd}, {y:04d}",
        f"{full} {dd}, {y:04d}",
        f"{dd} {mon} {y:04d}",
        f"{dd} {full} {y:04d}",
        f"{y:04d}/{m:02d}/{dd:02d}",
        f"{m:02d}/{dd:02d}/{y % 100:02d}",
        f"{dd:02d}/{m:02d}/{y % 100:02d}",
    )


def date_renderings(text: str) -> tuple[str, ...]:
    """All common renderings of every date ``text`` can be read as; ``()`` if it is no date.

    >>> "14-Mar-1961" in date_renderings("19610314")
    True
    """
    out: list[str] = []
    for d in parse_dates(text):
        for r in format_date(d):
            if r not in out:
                out.append(r)
    return tuple(out)


# --------------------------------------------------------------------- names
def is_person_name_field(field: str) -> bool:
    """Fields that hold a person's name (their parts are PHI on their own)."""
    f = field.casefold()
    return "name" in f and not any(k in f for k in ("hospital", "institution", "facility", "department", "station", "site"))


def name_parts(value: str) -> list[str]:
    """Name components: DICOM ``^`` groups, or ``Family, Given``, or whitespace words.

    >>> name_parts("DOE^JOHN^Q")
    ['DOE', 'JOHN', 'Q']
    >>> name_parts("Doe, John")
    ['Doe', 'John']
    """
    v = unicodedata.normalize("NFKC", value).strip()
    if "^" in v:
        return [p.strip() for p in v.split("^") if p.strip()]
    if "," in v:
        fam, _, rest = v.partition(",")
        return [fam.strip()] + rest.split()
    return v.split()


def name_variants(value: str) -> tuple[str, ...]:
    """The orders a person name is commonly drawn in.

    For ``DOE^JOHN^Q`` (family, given, middle — DICOM order) or ``Doe, John``:
    ``"DOE JOHN Q"``, ``"JOHN Q DOE"``, ``"JOHN DOE"``, ``"DOE JOHN"``,
    ``"DOE, JOHN"``. A plain ``"John Doe"`` is read as given-first and also
    reversed. The input itself is always first.
    """
    parts = name_parts(value)
    out = [value]
    if len(parts) >= 2:
        if "^" in value or "," in value:
            fam, given, rest = parts[0], parts[1], parts[2:]
        else:
            fam, given, rest = parts[-1], parts[0], parts[1:-1]
        cands = [
            " ".join([fam, given, *rest]),
            " ".join([given, *rest, fam]),
            f"{given} {fam}",
            f"{fam} {given}",
            f"{fam}, {given}",
        ]
        for c in cands:
            if c not in out:
                out.append(c)
    return tuple(out)
