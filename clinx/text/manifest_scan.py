"""Find manifest values in text: exact, normalised, token-level and fuzzy.

Used three ways: L1 masks these spans when a manifest is given; the L3
validator and :func:`clinx.text.pipeline.rescan` use them to prove a rewrite
is clean; the text benchmark uses :func:`surviving_tokens` to decide whether an
identifier leaked ("any of its tokens survives").

Matching works on the case-folded Unicode view of the text
(:func:`clinx.text.unicode.fold`: NFKC, zero-width and format characters
removed, confusables read as Latin) with an index map back to the original,
so hits carry offsets into the text as given.
Between the tokens of a value any 0–3 non-alphanumeric characters are allowed,
which makes ``03/14/1961``, ``03-14-1961`` and ``03141961`` one value, and
``(555) 123-4567`` equal to ``555.123.4567``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from clinx.records import Manifest
from clinx.text.base import PLACEHOLDER_RE, category_for_field
from clinx.text.unicode import Folded
from clinx.text.unicode import fold as unicode_fold

#: Fuzzy matching is quadratic-ish in text length; beyond this many characters
#: only exact / normalised / token matching runs (still linear).
FUZZY_MAX_CHARS = 20_000

_ALNUM_RE = re.compile(r"[0-9a-z]+")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")

# Tokens too generic to count as an identifier on their own ("General", "Medical", "Center").
_GENERIC_TOKENS = frozenset(
    """
the of and for at de la st mt saint mount hospital hospitals medical center centre clinic health healthcare
general memorial regional university community county city state institute infirmary college school children
system services group care mr mrs ms dr md jr sr ii iii iv phd rn com org net edu www http https
""".split()
)


@dataclass(frozen=True)
class ManifestHit:
    """A manifest value found in text. ``field`` is a field *name*, never the value."""

    field: str
    category: str
    start: int
    end: int
    kind: str  # exact | token | rendering | fuzzy
    score: float = 100.0


def fold(text: str) -> tuple[str, list[int] | None]:
    """Case-folded :func:`clinx.text.unicode.fold` of ``text``: (folded, index map or None).

    The index map gives, for each folded character, its offset in ``text``;
    it is ``None`` when the two align 1:1 (ASCII), the common fast path.
    Zero-width characters, compatibility forms, accents and confusables are
    folded exactly as the recognisers see them (one implementation).
    """
    f = unicode_fold(text, casefold=True)
    return f.text, f.index


def value_tokens(value: str) -> list[str]:
    """The alphanumeric tokens of a value, folded."""
    return _ALNUM_RE.findall(fold(value)[0])


@lru_cache(maxsize=8192)
def value_regex(value: str) -> re.Pattern | None:
    """Compiled matcher for a whole value on :func:`fold`-ed text (None for a value without tokens)."""
    toks = value_tokens(value)
    if not toks:
        return None
    digits = "".join(toks)
    if digits.isdigit() and len(digits) >= 6:
        # numbers are written with any grouping: 48213377 = 48-213-377 = 4821 3377
        body = r"[\s./()-]{0,2}".join(digits)
    else:
        body = r"[^0-9a-z]{0,3}".join(re.escape(t) for t in toks)
    return re.compile(rf"(?<![0-9a-z]){body}(?![0-9a-z])")


@lru_cache(maxsize=8192)
def _token_regex(tok: str) -> re.Pattern:
    return re.compile(rf"(?<![0-9a-z]){re.escape(tok)}(?![0-9a-z])")


def _parse_date(value: str) -> date | None:
    v = value.strip()
    m = re.fullmatch(r"(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})", v)
    if m:
        y, mo, d = map(int, m.groups())
    else:
        m = re.fullmatch(r"(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})", v)
        if not m:
            return None
        mo, d, y = map(int, m.groups())
        if mo > 12:  # day-first
            mo, d = d, mo
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def date_renderings(value: str) -> tuple[str, ...]:
    """Common renderings of a date value (ISO, US, EU, dotted, ``14-Mar-1961``, ``March 14, 1961``…).

    Returns ``()`` when ``value`` is not a recognisable date.
    """
    d = _parse_date(value)
    if d is None:
        return ()
    mon, mab = _MONTHS[d.month - 1], _MONTHS[d.month - 1][:3]
    return (
        d.isoformat(),
        f"{d.month:02d}/{d.day:02d}/{d.year}",
        f"{d.month}/{d.day}/{d.year}",
        f"{d.day:02d}/{d.month:02d}/{d.year}",
        f"{d.day:02d}.{d.month:02d}.{d.year}",
        f"{d.day:02d}-{mab}-{d.year}",
        f"{mon} {d.day}, {d.year}",
        f"{mab} {d.day}, {d.year}",
        f"{d.day} {mon} {d.year}",
        f"{d.year}{d.month:02d}{d.day:02d}",
        f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}",
    )


def _strings_for(manifest: Manifest, name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(given strings, generated renderings) for one field."""
    given = manifest.values_for(name)
    generated: list[str] = []
    if category_for_field(name) == "DATE":
        for v in given:
            generated.extend(r for r in date_renderings(v) if r not in given and r not in generated)
    return given, tuple(generated)


def _countable(tok: str, category: str) -> bool:
    """Is a value token specific enough to flag on its own?"""
    if tok in _GENERIC_TOKENS:
        return False
    if tok.isdigit():
        # a lone "14" is everywhere; years and ID fragments are not
        return len(tok) >= (2 if category == "AGE" else 3)
    return len(tok) >= 3


def scan_manifest(text: str, manifest: Manifest | None, *, fuzzy: bool = True, fuzzy_threshold: float = 88.0) -> list[ManifestHit]:
    """Every place in ``text`` where a manifest value (or a distinctive token of it) appears.

    Kinds: ``exact`` (whole value, normalised), ``rendering`` (a generated
    rendering of a date), ``token`` (one distinctive token of a value, e.g. a
    surname alone) and ``fuzzy`` (rapidfuzz partial alignment ≥
    ``fuzzy_threshold`` for values of 5+ characters, texts up to
    :data:`FUZZY_MAX_CHARS`).
    """
    if not isinstance(text, str):
        raise TypeError(f"scan_manifest expects str, got {type(text).__name__}")
    if not manifest or not text:
        return []
    view = unicode_fold(text, casefold=True)
    folded = view.text
    n = len(text)
    hits: list[ManifestHit] = []
    for name in manifest.fields:
        cat = category_for_field(name)
        given, generated = _strings_for(manifest, name)
        found_whole = False
        for kind, strings in (("exact", given), ("rendering", generated)):
            for v in strings:
                rx = value_regex(v)
                if rx is None:
                    continue
                for m in rx.finditer(folded):
                    s, e = view.span_back(m.start(), m.end())
                    hits.append(ManifestHit(name, cat, s, e, kind))
                    found_whole = True
        for v in given:
            for tok in value_tokens(v):
                if not _countable(tok, cat):
                    continue
                for m in _token_regex(tok).finditer(folded):
                    s, e = view.span_back(m.start(), m.end())
                    hits.append(ManifestHit(name, cat, s, e, "token"))
        if fuzzy and not found_whole and n <= FUZZY_MAX_CHARS:
            hits.extend(_fuzzy_hits(name, cat, given, view, fuzzy_threshold))
    hits.sort(key=lambda h: (h.start, -h.end))
    return hits


def _fuzzy_hits(name, cat, given, view: Folded, threshold) -> list[ManifestHit]:
    from rapidfuzz import fuzz
    from rapidfuzz.distance import Levenshtein

    out: list[ManifestHit] = []
    folded = view.text
    words = [(m.start(), m.end(), m.group()) for m in _ALNUM_RE.finditer(folded)]
    for v in given:
        fv = " ".join(value_tokens(v))
        if len(fv) < 5 or not any(c.isalpha() for c in fv):
            continue  # short or numeric values: fuzzy matching only adds noise
        al = fuzz.partial_ratio_alignment(fv, folded, score_cutoff=threshold)
        if al is not None and al.score >= threshold:
            s, e = view.span_back(al.dest_start, al.dest_end)
            out.append(ManifestHit(name, cat, s, e, "fuzzy", float(al.score)))
        # token level: a misspelt surname ("Jonhson") still names the patient
        for tok in value_tokens(v):
            if len(tok) < 5 or tok in _GENERIC_TOKENS or tok.isdigit():
                continue
            for s, e, w in words:
                if w != tok and abs(len(w) - len(tok)) <= 1 and Levenshtein.distance(w, tok, score_cutoff=1) <= 1:
                    s0, e0 = view.span_back(s, e)
                    out.append(ManifestHit(name, cat, s0, e0, "fuzzy", 90.0))
    return out


def value_present(value: str, text: str) -> bool:
    """True when the whole ``value`` occurs in ``text`` (normalised: case, accents, separators)."""
    rx = value_regex(value)
    return bool(rx and rx.search(fold(text)[0]))


def surviving_tokens(value: str, text: str, *, ignore_text: str | None = None, min_len: int = 3) -> list[str]:
    """Tokens of ``value`` (length ≥ ``min_len``) still present as whole words in ``text``.

    This is the benchmark's leak test: an identifier leaked if any of its
    tokens survives. Tokens that also occur in ``ignore_text`` (the clean text
    the identifier was inserted into) are not counted — a surname "Hill" does
    not leak through the word "hill" that was there before. If the value has
    no token of ``min_len`` characters, all its tokens are tested. Generic
    institution words ("General", "Hospital", "Medical") identify no one and
    are not tested; placeholders (``[HOSPITAL]``) are removed before testing.
    """
    toks = [t for t in value_tokens(value) if t not in _GENERIC_TOKENS] or value_tokens(value)
    long = [t for t in toks if len(t) >= min_len] or toks
    # placeholders are what replaced the value: "[HOSPITAL]" is not the token "hospital"
    folded = fold(PLACEHOLDER_RE.sub(" ", text))[0]
    ignore = set(_ALNUM_RE.findall(fold(ignore_text)[0])) if ignore_text else set()
    return [t for t in dict.fromkeys(long) if t not in ignore and _token_regex(t).search(folded)]


def value_survives(value: str, text: str, *, ignore_text: str | None = None) -> bool:
    """True when any token of ``value`` survives in ``text`` (see :func:`surviving_tokens`)."""
    return bool(surviving_tokens(value, text, ignore_text=ignore_text))
