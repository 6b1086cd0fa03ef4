"""Institutions whose names follow a fixed pattern, in any letter case, with no lexicon entry and no head the other
finders know: a church "Our Lady of <words>", a veterans' post, lodge or union local with its number ("VFW Post 8914",
"IBEW Local 7"), a school named "<words> High" or "<words> Middle" after a cue of going to school ("junior at central
high", "kids at Lincoln Elementary & Central Middle").
"""

from __future__ import annotations

import re

from clinx.text import evidence as _E
from clinx.text import institutions as _I
from clinx.text.base import Candidate

#: "Our Lady of Peace", "our lady of the lake", "OUR LADY OF PERPETUAL HELP": a parish, a school or a hospital.
_OUR_LADY_RE = re.compile(r"(?i)\bour[ \t]+lady[ \t]+of[ \t]+(?:the[ \t]+)?")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]*")
_BLANK_RE = re.compile(r"[ \t]")
#: Veterans', fraternal and trade-union bodies numbered by post, lodge or local ("VFW Post 8914", "UAW Local 600",
#: "American Legion Post 12", "Elks Lodge #1049", "Troop 45"): the number names one hall.
_NUMBERED_BODY_RE = re.compile(
    r"(?i)\b(?:(?:vfw|american[ \t]+legion|amvets|dav|elks|moose|eagles|knights[ \t]+of[ \t]+columbus|teamsters|ibew|uaw|"
    r"seiu|afscme|ufcw|usw|cwa|iatse|ila|ilwu|liuna|laborers|carpenters|plumbers|pipefitters|ironworkers|"
    r"boy[ \t]+scouts?|girl[ \t]+scouts?|cub[ \t]+scouts?)[ \t]+(?:union[ \t]+|lodge[ \t]+|hall[ \t]+)?"
    r"(?:post|local|lodge|chapter|council|troop|pack|aerie|hall)[ \t]*(?:no\.?[ \t]*|#[ \t]*)?\d{1,5})\b"
)
#: A cue of going to school before a school's name ("attends", "junior at", "kids at", "teacher at").
_SCHOOL_CUE_RE = re.compile(
    r"(?i)\b(?:attends|attend|attended|attending|(?:student|junior|senior|sophomore|freshman|grader|teacher|coach|"
    r"principal|nurse|kids?|son|daughter|children|grade|enrolled|plays[ \t]+\w+)[ \t]+at|goes[ \t]+to)[ \t]+"
)
#: A school's name closed by its level, and what may follow it: punctuation, "&"/"and" another school, a line's end, a
#: word that opens a new clause; not a noun the level qualifies ("central high school" has its head already).
_SCHOOL_NAME_RE = re.compile(r"(?i)((?:[A-Za-z][A-Za-z'’.-]*[ \t]){1,3})(high|middle|elementary|jr[ \t]high|junior[ \t]high)\b")
_SCHOOL_END_RE = re.compile(r"(?i)[ \t]*(?:$|[\n.,;:)(!?/-]|&|(?:and|plays|where|in|for|since|until|x|\d)\b)")


def find_patterned_institutions(text: str) -> list[Candidate]:
    """Churches "Our Lady of ...", numbered posts and locals, and schools named by their level after a school cue."""
    low = text.lower()
    out: list[Candidate] = []
    if "lady" in low:
        for m in _OUR_LADY_RE.finditer(text):
            end = _dedication_end(text, m.end())
            if end is not None:
                out.append(Candidate(m.start(), end, "HOSPITAL", "rule:patterned_institution", 0.9))
    if any(k in low for k in ("post", "local", "lodge", "chapter", "council", "troop", "pack", "aerie", "hall")):
        for m in _NUMBERED_BODY_RE.finditer(text):
            out.append(Candidate(m.start(), m.end(), "HOSPITAL", "rule:patterned_institution", 0.9))
    if any(k in low for k in ("high", "middle", "elementary")):
        for cue in _SCHOOL_CUE_RE.finditer(text):
            m = _SCHOOL_NAME_RE.match(text, cue.end())
            if m is None or not _SCHOOL_END_RE.match(text, m.end()):
                continue
            words = m.group(1).lower().split()
            # the name's words: no function word, no kind of school ("at the high", "attends public high"); after a
            # school cue a word the lexicons call clinical names a school too ("central high", "center point high")
            if any(w in _E.FUNCTION_WORDS or w in _NOT_SCHOOL_NAME for w in words):
                continue
            out.append(Candidate(m.start(), m.end(), "HOSPITAL", "rule:patterned_institution", 0.85))
    return out


def _dedication_end(text: str, pos: int) -> int | None:
    """End of the one to three words a dedication names after "Our Lady of" ("Peace", "Perpetual Help", "Mount
    Carmel"), up to a function word, a kind of place or a change of letter case; None if there is none."""
    end = None
    shape = None
    for _ in range(3):
        m = _WORD_RE.match(text, pos)
        if m is None:
            break
        w = m.group()
        if w.lower() in _E.FUNCTION_WORDS or w.lower() in _I.HEADS:
            break  # "Our Lady of Lourdes Hospital": the completion takes the head
        sh = "upper" if w.isupper() else "lower" if w.islower() else "title"
        if shape is not None and sh != shape:
            break
        shape, end = sh, m.end()
        b = _BLANK_RE.match(text, end)
        if b is None:
            break
        pos = b.end()
    return end


#: Words that say which kind of school, not which one ("attends public high", "a local middle").
_NOT_SCHOOL_NAME = frozenset("public private local regular special alternative new old same nearby area charter magnet".split())

__all__ = ["find_patterned_institutions"]
