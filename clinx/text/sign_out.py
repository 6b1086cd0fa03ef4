"""Patients' names in sign-out, handoff and census lists: the words between a bed and the age and sex.

Ward lists name each patient on one line, in a fixed order: the bed or room, a dash, the name, the age and sex, then
the problem ("Bed 17 – J.T., 44F, EtOH w/d", "8W-05 Mahlangu, S. 23M open tib-fib fx", "• MICU-4 Nakamura-Reid 36F
neutropenic fever", "- 3W FALL — LOWENTHAL, ROSE 96 Y/O"). The age and sex ("44F", "23 M", "96 Y/O", "2 yo") is the
anchor: the name is the run of name-like tokens right before it on its line, read leftwards —

* initials ("J.T.", "r.t.", "H."), a nickname in quotes ("'big mike'"), and words the lexicons class as a name
  (``N``), unknown (``U``) or a name that is a word too (``A``), at most one comma between them ("Bertrand, H.");
  after a surname's comma any listed given name ("Borowski, Ed": "ed" is a clinical abbreviation too);
* a clinical, function or everyday word ends the run ("pleasant", "obese", "kid": "HPI: pleasant 45M" names none).

The run is a name when it holds initials or a nickname ("703 foster kid j.d. 2 yo"), or when it starts a list item:
at a line's start, after a bullet or a dash, after a bed or room (a token with a digit, "bed", "rm", "ch") or a
patient's cue ("pt", "pt:"), and holds a name or an unknown word; a run of words that are names and everyday words
alike ("Strand 71M") only right after a bed, a bullet or a dash, where no sentence's adjective stands.

A sign-out's header names the clinicians of each shift after a label ("Night: Aisling", "NNP on: Oyinda", "NIGHT:
ACKERLEY / DAY TEAM: ..."): one word there, closing its field, that the lexicons class as a name or unknown, or a
name that is a word too written capitalised, is a person (:func:`find_shift_names`; not "Night: stable", "Off: keppra").
"""

from __future__ import annotations

import re

from clinx.text import evidence as _E
from clinx.text.base import Candidate
from clinx.text.lexicons import first_names

#: The age and sex that close a list item's name ("44F", "23 M", "45m", "96 Y/O", "2 yo", "61 y.o."): not a dose, a
#: distance or a time ("5 mg", "45 min", "walked 45m" ends no name: "walked" is an everyday word).
AGE_SEX_RE = re.compile(r"(?<![\w./:-])(?P<age>\d{1,3})[ \t]?(?:[MFmf]|[yY][ \t]?/[ \t]?[oO]|[yY][oO]|y\.o\.)(?![\w/])")
_TOKEN_RE = re.compile(
    r"(?P<init>(?<![\w/&.])(?:[A-Za-z]\.){1,3})(?![A-Za-z])"  # (not "d/c.", "f/u.", "612B.")
    r"|(?P<nick>[\"“'‘][A-Za-z][A-Za-z .'’-]{0,20}[\"”'’])"
    r"|(?P<word>[A-Za-z][A-Za-z'’-]*)"
    r"|(?P<comma>,)"
    r"|(?P<other>\S)"
)
#: Words that open a list item before the name: a bed, a room, a chair, a bay, a patient's cue.
_ITEM_WORDS = frozenset("bed rm room ch chair bay pod cubicle stretcher pt patient name resident client".split())
_ITEM_MARKS = frozenset("-–—•*·|#>:")


def find_listed_patients(text: str) -> list[Candidate]:
    """NAME candidates: a patient's name before the age and sex in a list item (see the module docstring); and AGE
    candidates: an age over 89 in the age and sex ("castellanos 98 m": Safe Harbor's ages 90 and over)."""
    out: list[Candidate] = []
    for a in AGE_SEX_RE.finditer(text):
        ls = text.rfind("\n", 0, a.start()) + 1
        toks = list(_TOKEN_RE.finditer(text, ls, a.start()))
        span = _name_run(toks)
        if span is not None:
            out.append(Candidate(span[0], span[1], "NAME", "rule:listed_patient", 0.85))
        age = int(a.group("age"))
        opens = toks and (toks[-1].group() in _ITEM_MARKS and toks[-1].group() != ":" or _bed_like(toks, len(toks) - 1))
        if 90 <= age <= 119 and (span is not None or opens):
            # (after the name, or right where a list item opens: "Bed 3 - 92F"; "6MWT 210 m", "walked 95m" are metres,
            # "spiked a temp of 101F", "Tmax: 101F" degrees: a field's colon opens no list item)
            out.append(Candidate(*a.span("age"), "AGE", "rule:listed_patient_age", 0.9))
    return out


def _name_run(toks: list[re.Match]) -> tuple[int, int] | None:
    """The name's span in ``toks`` (a line's tokens up to the age), read from the right, or None."""
    classify, given = _E.classify, first_names()
    i = len(toks) - 1
    if i >= 0 and toks[i].lastgroup == "comma":
        i -= 1  # ("J.T., 44F")
    if i < 0:
        return None
    end, last = toks[i].end(), i
    lettered = False  # initials or a nickname in the run
    words = ""  # the word classes of the run, right to left
    comma = False
    while i >= 0:
        t = toks[i]
        kind = t.lastgroup
        if kind in ("init", "nick"):
            lettered = True
        elif kind == "word":
            low = t.group().lower()
            c = classify(low[:-2] if low.endswith(("'s", "’s")) else low)  # ("pt's 3 yo son": the patient's)
            if c in (_E.N, _E.U, _E.A):
                words += c
            elif i == last and i >= 2 and toks[i - 1].lastgroup == "comma" and toks[i - 2].lastgroup == "word" \
                    and t.group().lower() in given:
                words += _E.N  # ("Borowski, Ed 57M": a listed given name after the surname's comma)
            else:
                break
        elif kind == "comma" and not comma and i != last and i > 0 and toks[i - 1].lastgroup in ("word", "init"):
            comma = True
        else:
            break
        i -= 1
    first = i + 1
    if first > last or toks[first].lastgroup == "comma":
        return None
    if lettered:
        return toks[first].start(), end
    if len(words) > 4:
        return None
    before = toks[i] if i >= 0 else None
    bed = before is not None and _bed_like(toks, i)
    opens = before is None or bed or before.group() in _ITEM_MARKS or before.group().lower() in _ITEM_WORDS
    if not opens:
        return None
    if set(words) == {_E.A} and not (bed or before is not None and before.group() in _ITEM_MARKS and before.group() != ":"):
        return None  # ("Young 45M with cp", "HPI: pleasant 45M": a word alone there may be the sentence's own)
    return toks[first].start(), end


def _bed_like(toks: list[re.Match], i: int) -> bool:
    """Is ``toks[i]`` the end of a bed's or a room's label, written without blanks and holding a digit ("9E-12",
    "MICU-4", "5S-24", "FT6", "703")?"""
    j = i
    while j > 0 and toks[j - 1].end() == toks[j].start() and toks[j - 1].lastgroup in ("word", "other"):
        j -= 1
    return any(ch.isdigit() for t in toks[j : i + 1] for ch in t.group())


#: A shift's label and its colon, then one word closing its field (a line's end, a slash, a bar, a parenthesis, a comma).
_SHIFT_NAME_RE = re.compile(
    r"(?im)(?:^|(?<=[|/;]))[ \t]*(?:night|nights|day|days|eve|evening|covering|coverage|cross[- ]?cover|on[ \t]call|oncoming|"
    r"offgoing|incoming|outgoing|(?:rn|md|np|nnp|pa|resident|intern|charge|day[ \t]team|night[ \t]team)[ \t]+(?:on|off)|on|off)"
    r"[ \t]*:[ \t]*(?P<v>[A-Za-z][A-Za-z'’-]+)(?=[ \t]*(?:$|/|\||\(|,))"
)
#: Values of a shift's field that name no one.
_NO_ONE = frozenset("tbd tba me self same none pending unknown open vacant float agency locum resident intern team".split())


def find_shift_names(text: str) -> list[Candidate]:
    """NAME candidates: the clinician after a sign-out's shift label (see the module docstring)."""
    out: list[Candidate] = []
    for m in _SHIFT_NAME_RE.finditer(text):
        w = m.group("v")
        low = w.lower()
        if low in _NO_ONE:
            continue
        c = _E.classify(low)
        if c in (_E.N, _E.U) or c == _E.A and w[:1].isupper():
            out.append(Candidate(m.start("v"), m.end("v"), "NAME", "rule:shift_name", 0.85))
    return out
