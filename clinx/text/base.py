"""Types shared by every text de-identification level.

A level takes a string (and optionally the sample's :class:`~clinx.records.Manifest`)
and returns a :class:`TextResult`: the new text plus an audit trail of
:class:`RemovedSpan` objects. The audit trail never holds the removed value in
clear unless the caller asked for it (``keep_values=True``); by default it holds
a salted keyed-hash digest, which lets an auditor check "was *this* value removed?"
(given the salt) without the trail itself being a list of identifiers.

Offsets (``start``/``end``) index into the text *that level received* — for L1
the original text, for L2 the L1 output, and so on. ``level`` tells which.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol, runtime_checkable

from clinx.records import Manifest

#: Placeholder categories, in the order summaries list them.
CATEGORIES: tuple[str, ...] = (
    "NAME",
    "DATE",
    "AGE",
    "MRN",
    "ACCESSION",
    "ID",
    "SSN",
    "PHONE",
    "EMAIL",
    "URL",
    "HOSPITAL",
    "ZIP",
    "LOCATION",
)

#: Manifest field -> placeholder category (unknown fields fall back to ``ID``).
FIELD_CATEGORY: dict[str, str] = {
    "patient_name": "NAME",
    "physician_name": "NAME",
    "name": "NAME",
    "birth_date": "DATE",
    "study_date": "DATE",
    "date": "DATE",
    "age": "AGE",
    "mrn": "MRN",
    "accession": "ACCESSION",
    "hospital_name": "HOSPITAL",
    "hospital_id": "ID",
    "phone": "PHONE",
    "fax": "PHONE",
    "email": "EMAIL",
    "url": "URL",
    "ssn": "SSN",
    "zip": "ZIP",
    "address": "LOCATION",
    "other_id": "ID",
}

#: Matches a placeholder this package writes, e.g. ``[NAME]``. Later levels and
#: the re-scan treat these as already-removed, never as new PHI.
PLACEHOLDER_RE = re.compile(r"\[(?:" + "|".join(CATEGORIES) + r")\]")
#: The placeholder of a removed name: later levels' completions (an initial, a nickname, a town's state) look for it.
NAME_PLACEHOLDER_RE = re.compile(r"\[NAME\]")

# One random salt per process unless the caller pins one: digests link spans
# within a run but cannot be looked up in a table of common names across runs.
_PROCESS_SALT = secrets.token_bytes(16)
_PROCESS_HASHER = hashlib.blake2b(key=_PROCESS_SALT, digest_size=8)


_FIELD_SUFFIX = (("_date", "DATE"), ("_name", "NAME"), ("_phone", "PHONE"), ("_email", "EMAIL"), ("_id", "ID"))


def category_for_field(name: str) -> str:
    """Placeholder category for a manifest field name.

    Known names map through :data:`FIELD_CATEGORY`; numbered variants
    (``comparison_date_2``) and suffixes (``*_date``, ``*_name``, ``*_id``)
    are understood; anything else is an ``ID``.
    """
    if name in FIELD_CATEGORY:
        return FIELD_CATEGORY[name]
    base = re.sub(r"_\d+$", "", name)
    if base in FIELD_CATEGORY:
        return FIELD_CATEGORY[base]
    for suffix, cat in _FIELD_SUFFIX:
        if base.endswith(suffix):
            return cat
    return "ID"


def placeholder(category: str) -> str:
    """The typed placeholder written in place of a removed span, e.g. ``[DATE]``."""
    return f"[{category}]"


def digest_value(value: str, salt: bytes | str | None = None) -> str:
    """Keyed BLAKE2b digest of a removed value (hex, 16 chars).

    BLAKE2b in keyed mode is a MAC by design (no HMAC wrapper needed) and is
    one C call, which matters at tens of thousands of spans per second.

    ``salt=None`` uses a per-process random salt; pass a fixed salt to make
    digests comparable across runs (keep that salt as secret as the data).
    """
    if salt is None:
        # the keyed state for the process salt is built once: copying it is cheaper than keying anew
        h = _PROCESS_HASHER.copy()
        h.update(value.encode("utf-8", "surrogatepass"))
        return h.hexdigest()
    if isinstance(salt, str):
        key = salt.encode("utf-8")
    else:
        key = bytes(salt)
    return hashlib.blake2b(value.encode("utf-8", "surrogatepass"), key=key if len(key) <= 64 else hashlib.blake2b(key).digest(), digest_size=8).hexdigest()


@dataclass(frozen=True, init=False)
class RemovedSpan:
    """One removed identifier.

    ``category`` is a placeholder category (``NAME``, ``DATE``…), ``level`` the
    level that removed it (``L1``…), ``start``/``end`` its offsets in that
    level's input text, ``source`` the recogniser that fired (``rule:date``,
    ``context:name``, ``manifest:exact``, ``llm``…), ``digest`` a salted hash of
    the value and ``value`` the value itself only when ``keep_values=True``.
    """

    category: str
    level: str
    start: int
    end: int
    source: str
    digest: str
    value: str | None = None

    def __init__(self, category: str, level: str, start: int, end: int, source: str, digest: str, value: str | None = None):
        # the generated __init__ of a frozen dataclass sets each field with object.__setattr__;
        # writing the instance dict is the same state at a third of the cost (one span per
        # identifier removed, tens of thousands a second). tests/text/test_base_fast_init.py
        # checks this signature against the fields.
        d = self.__dict__
        d["category"] = category
        d["level"] = level
        d["start"] = start
        d["end"] = end
        d["source"] = source
        d["digest"] = digest
        d["value"] = value

    def to_dict(self) -> dict:
        d = {
            "category": self.category,
            "level": self.level,
            "start": self.start,
            "end": self.end,
            "source": self.source,
            "digest": self.digest,
        }
        if self.value is not None:
            d["value"] = self.value
        return d


@dataclass
class TextResult:
    """Output of a level or of the whole pipeline.

    ``accepted`` is False when a level (L3) rejected its own output and fell
    back to its input; ``notes`` carries log-safe facts about how the text was
    produced (strategy, reasons for a fallback, timings) — never PHI.
    """

    text: str
    removed: list[RemovedSpan] = field(default_factory=list)
    level: str = "L0"
    accepted: bool = True
    notes: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> Counter:
        """Removed spans per category."""
        return Counter(s.category for s in self.removed)

    def to_dict(self) -> dict:
        return {
            "text": self.text,
            "level": self.level,
            "accepted": self.accepted,
            "removed": [s.to_dict() for s in self.removed],
            "notes": dict(self.notes),
        }


@runtime_checkable
class TextLevel(Protocol):
    """One de-identification level: ``apply(text, manifest=None) -> TextResult``.

    Implementations must accept ``str`` only (raise ``TypeError`` otherwise),
    return the text unchanged when they find nothing, and never put removed
    values in ``notes``.
    """

    name: str

    def apply(self, text: str, manifest: Manifest | None = None) -> TextResult: ...


@dataclass(frozen=True, init=False)
class Candidate:
    """A span a recogniser wants removed, before overlaps are resolved."""

    start: int
    end: int
    category: str
    source: str
    score: float = 1.0

    def __init__(self, start: int, end: int, category: str, source: str, score: float = 1.0):
        # as RemovedSpan.__init__: the instance dict written directly, not five object.__setattr__
        # calls (recognisers make a dozen candidates per note)
        d = self.__dict__
        d["start"] = start
        d["end"] = end
        d["category"] = category
        d["source"] = source
        d["score"] = score


def check_text(text: object) -> str:
    """Return ``text`` if it is a ``str``; raise a clear ``TypeError`` otherwise."""
    if not isinstance(text, str):
        raise TypeError(f"text de-identification expects str, got {type(text).__name__}")
    return text


def drop_inside(cands: list[Candidate], spans: list[tuple[int, int]]) -> list[Candidate]:
    """Candidates not lying wholly inside one of ``spans`` (sorted, disjoint); O((n+m) log m)."""
    if not spans or not cands:
        return cands
    starts = [s for s, _ in spans]
    out = []
    for c in cands:
        k = bisect_right(starts, c.start) - 1
        if k >= 0 and spans[k][0] <= c.start and c.end <= spans[k][1]:
            continue
        out.append(c)
    return out


def resolve_overlaps(cands: Iterable[Candidate]) -> list[Candidate]:
    """Merge overlapping or touching-inside candidates into disjoint spans.

    Overlapping candidates are unioned (removing too much beats leaving half a
    name); the merged span takes the category of its longest member, ties going
    to the higher score.
    """
    ordered = sorted(cands, key=lambda c: (c.start, -c.end))
    out: list[Candidate] = []
    for c in ordered:
        if c.end <= c.start:
            continue
        if out and c.start < out[-1].end:
            prev = out[-1]
            best = prev if (prev.end - prev.start, prev.score) >= (c.end - c.start, c.score) else c
            out[-1] = Candidate(prev.start, max(prev.end, c.end), best.category, best.source, max(prev.score, c.score))
        else:
            out.append(c)
    return out


#: Categories of words: a span of one never ends inside an alphanumeric run.
_WORD_CATEGORIES = frozenset({"NAME", "HOSPITAL", "LOCATION"})


def whole_runs(text: str, cands: Iterable[Candidate]) -> list[Candidate]:
    """Name, organisation and place candidates widened over the few digits joined to them.

    Tokens split letters from digits, so a pass may find the letters of "Onco360" or "Health1" alone; the digits
    left beside the placeholder ("[HOSPITAL]360") are part of the name. A longer or mixed run ("RLA118764G") is an
    identifier whose letters a lexicon happened to know: left as it is.
    """
    out = []
    n = len(text)
    for c in cands:
        e = c.end
        if c.category in _WORD_CATEGORIES and c.start < e < n and text[e].isdigit() and text[e - 1].isalpha():
            k = e
            while k < n and text[k].isdigit():
                k += 1
            if k - e <= 4 and not (k < n and text[k].isalnum()):
                c = Candidate(c.start, k, c.category, c.source, c.score)
        out.append(c)
    return out


def apply_candidates(
    text: str,
    cands: Iterable[Candidate],
    level: str,
    *,
    salt: bytes | str | None = None,
    keep_values: bool = False,
) -> TextResult:
    """Replace candidate spans (names widened to whole runs, :func:`whole_runs`) with typed placeholders and build
    the audit trail."""
    spans = resolve_overlaps(whole_runs(text, cands))
    if not spans:
        return TextResult(text=text, removed=[], level=level)
    parts: list[str] = []
    removed: list[RemovedSpan] = []
    pos = 0
    for c in spans:
        parts.append(text[pos : c.start])
        parts.append(placeholder(c.category))
        value = text[c.start : c.end]
        removed.append(
            RemovedSpan(
                category=c.category,
                level=level,
                start=c.start,
                end=c.end,
                source=c.source,
                digest=digest_value(value, salt),
                value=value if keep_values else None,
            )
        )
        pos = c.end
    parts.append(text[pos:])
    return TextResult(text="".join(parts), removed=removed, level=level)
