"""Landmarks by their head word: motels, parks, stations, plazas and bridges named before it ("AT HILL COUNTRY MOTEL",
"found near Civic Center Park", "collapsed at Whitechapel Station", "LEAVE THE DELUXE MOTEL").

Street medicine, EMS and police notes say where a patient was found or stays by a landmark as often as by an
address, and the landmark is as identifying as the street. The name is the words right before the head (one to
four, joined by single blanks), and it is a name only when

* none of its words is a function or clinical word, a number, or all of them are words that say what kind of
  landmark it is ("bus station", "NURSES STATION", "trailer park", "the local motel": :data:`GENERIC`);
* in a mixed-case line, every word is capitalised ("at Union Station"; "at the bus station" names none);
* in a line of one case (capitals or lower case), a cue of place or a field's colon stands right before it ("AT",
  "FROM", "NEAR", "THE", "outside", "leave", "LOCATION:"): without one the words may be the sentence's own.

A person whose surname is a head word is no landmark: a credential after it ("Ji-woo Park, MD"), or one given name
before "Park", "Beach" or "Bridges" ("seen by Grace Park"), says so. The head goes with the name (LOCATION), as
annotators mark it.
"""

from __future__ import annotations

import re

from clinx.text import evidence as _E
from clinx.text.base import Candidate
from clinx.text.clinical import EPONYMS
from clinx.text.lexicons import FUNCTION_WORDS, first_names

#: Head words of landmarks, singular (a plural "s" is allowed).
HEADS = frozenset(
    "motel hotel inn park station plaza mall square bridge pier campground stadium beach library market terminal "
    "overpass underpass encampment".split()
)
#: Words before a head that say what kind of landmark it is, not which one.
GENERIC = frozenset(
    """
bus train gas fuel police fire nurses nurse's nursing work docking charging subway metro transit rail railway
dog trailer skate state national city county public local nearby nearest cheap shopping strip outlet weigh service
rest truck parking mobile home rv water ball amusement theme car farmers flea fish super grocery food court
regional community main central old new big small little good nice same other that this next last first
public-access pay ambulance base space power pump lift radio tv weather research field filling relay way
""".split()
)
#: Words right before the name that make it a place in a line of one case.
CUES = frozenset("at from near the to in outside behind under by into leave left leaving staying stays stayed".split())

#: Heads that are common surnames too ("Park", "Beach"): after one given name they close a person's name.
_SURNAME_HEADS = frozenset("park parks beach bridge bridges market square".split())
_CREDENTIAL_AFTER_RE = re.compile(r"(?i),?[ \t]*(?:md|do|rn|np|pa|pa-c|phd|dds|lcsw|licsw|msw|pharmd|crna|lpn|cna|dpt)\b")
_HEAD_RE = re.compile(r"(?i)(?<![\w'’-])(?:" + "|".join(sorted(HEADS)) + r")s?(?![\w'’-])")
_WORD_BEFORE_RE = re.compile(r"([A-Za-z][A-Za-z'’-]*)([ \t])$")


def find_landmarks(text: str) -> list[Candidate]:
    """LOCATION candidates: a landmark's name and its head word (see the module docstring)."""
    C, classify = _E.C, _E.classify
    out: list[Candidate] = []
    for h in _HEAD_RE.finditer(text):
        line_start = text.rfind("\n", 0, h.start()) + 1
        one_case = _E.line_case_at(text, h.start()) != "mixed"  # (as the word classes read a line's case)
        words: list[re.Match] = []
        pos = h.start()
        while len(words) < 4:
            m = _WORD_BEFORE_RE.search(text, max(line_start, pos - 40), pos)
            if m is None or m.start(1) < line_start:
                break
            low = m.group(1).lower()
            if low in FUNCTION_WORDS or low in CUES or low in _E.TITLES or not one_case and not m.group(1)[:1].isupper():
                break  # (in a mixed-case line the name is the capitalised run before the head)
            words.insert(0, m)
            pos = m.start(1)
        if not words:
            continue
        lows = [w.group(1).lower() for w in words]
        if _CREDENTIAL_AFTER_RE.match(text, h.end()) or len(words) == 1 and h.group().lower() in _SURNAME_HEADS \
                and (lows[0] in first_names() or "-" in lows[0]):
            continue  # "Ji-woo Park, MD", "seen by Grace Park": a person whose surname is a head word
        # (a clinical word names no landmark, but an eponym's surname may: "HILL COUNTRY MOTEL")
        if all(w in GENERIC for w in lows) or any(classify(w) == C and w not in GENERIC and w not in EPONYMS for w in lows):
            continue
        if one_case and not text[line_start:pos].rstrip().endswith(":"):  # (a field's label is a cue: "LOCATION: ...")
            cue = _WORD_BEFORE_RE.search(text, max(line_start, pos - 20), pos)
            if cue is None or cue.group(1).lower() not in CUES:
                continue
        out.append(Candidate(words[0].start(1), h.end(), "LOCATION", "rule:landmark", 0.85))
    return out


__all__ = ["CUES", "GENERIC", "HEADS", "find_landmarks"]
