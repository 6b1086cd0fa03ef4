"""Towns named by words ("Plain City", "Friendship", "Bar Harbor", "Hope, AR"), found only where a cue makes them places.

``places.txt`` leaves out the ZIP-code towns whose names are words: the evidence rules accept a listed place after
any "in" or "to", where "hope" or "union" is mostly the word. ``word_places.txt`` keeps them with their states, and
this finder reads one only where the sentence says it is a place:

* after a cue of living or coming from (:data:`clinx.text.evidence.PLACE_CUES`: "lives in friendship", "moved from
  commerce", "son in hope"), "outside" or "out of", any word town, and a listed town that is a frequent word too
  ("lives in mobile, ..."), when punctuation or a word that opens no phrase of it follows;
* after a bare "in", "from", "to", "near" or "out of", a town of two or more words, capitalised in a mixed-case line
  ("plant in Silver Bay") or holding a word rarer than an everyday one ("NEAR MAMMOTH SPRING"): "in deep water",
  "to new home" need the cue above;
* before a comma and a state code it lies in ("PLAIN CITY, OH", "Hope, AR 71801"), with no cue.

In a mixed-case line the town must be written capitalised ("lives in Friendship"; "lives in hope" is the word).

A quarter of a listed town ("east oakland", "SOUTH PHILLY") is found here too (:func:`find_quarters`): the cue rules
read the word right after a cue, which is the direction word.
"""

from __future__ import annotations

import functools
import re

from clinx.text import evidence as _E
from clinx.text import institutions as _I
from clinx.text.base import Candidate
from clinx.text.lexicons import ordinary_words, places, word_places

#: The word before a town: a cue of place (with the word before it, a cue of living: "lives in").
#: (matched on the lower-cased text, the word after it captured: most cues are thrown out on that word alone)
_CUE_RE = re.compile(r"(?<![\w'’-])(in|to|from|near|outside|of)[ \t]{1,2}([a-z][a-z'’]*)")
_CUE_ANY_CASE_RE = re.compile(_CUE_RE.pattern, re.IGNORECASE)
_PREV_WORD_RE = re.compile(r"([A-Za-z']+)[ \t]{1,2}$")
#: A town's words: letters, inner apostrophes and hyphens, a dot closing an abbreviation ("Mt.", "St.").
_TOWN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]*(?:-[A-Za-z]+)*\.?")
_GAP_RE = re.compile(r"[ \t]")
#: A comma and a state code after a town ("Hope, AR", "plain city, oh 43064").
_STATE_AFTER_RE = re.compile(r",[ \t]{0,2}([A-Z]{2}\b|[A-Za-z]{2}(?=[ \t]+\d{5}\b))")
#: Words that follow a cue of living as what, not where ("lives in comfort", "home in may", "moved to home").
_NOT_A_TOWN = frozenset(
    """
home house apartment apartments town city country state county area fear comfort shelter car van tent trailer camper
basement bed chair floor room unit rehab care may june april march july august time order law waiting same hiding
peace poverty pain denial school college hospital jail prison church work welcome success energy industry charity
""".split()
)
#: What may follow a one-word town: punctuation, a line's end, a number or a word that opens no phrase of it.
_ONE_WORD_END_RE = re.compile(r"(?i)[ \t]*(?:$|[\n.,;:()!?/\d-]|(?:with|w/|and|but|since|until|area|county|x)\b)")
#: Small words a town's name may hold in lower case in a mixed-case line ("Bird in Hand", "Truth or Consequences").
_JOINERS = frozenset("in or of the and by la de du".split())
#: How rare a word of a town of bare-cue words must be ("harbor", "mammoth"; not "deep water", "new home").
_RARE_ZIPF = 4.6


@functools.cache
def _first_words() -> frozenset[str]:
    """First words of the word towns and of the listed places (a cue's next word must be one)."""
    return frozenset(name.split(" ")[0].split("-")[0] for name in (*word_places(), *places()))


def _key(words: list[str]) -> str:
    return " ".join(w.lower().replace("’", "").replace("'", "").replace("-", " ").rstrip(".") for w in words)


def _words_after(text: str, pos: int, limit: int = 4) -> list[re.Match]:
    out: list[re.Match] = []
    while len(out) < limit:
        m = _TOWN_WORD_RE.match(text, pos)
        if m is None:
            break
        out.append(m)
        if m.group().endswith(".") and len(m.group()) > 4:
            break  # a sentence's end
        g = _GAP_RE.match(text, m.end())
        if g is None:
            break
        pos = g.end()
    return out


def _capitalised(words: list[re.Match]) -> bool:
    return all(w.group()[:1].isupper() or w.group().lower() in _JOINERS for w in words) and words[0].group()[:1].isupper()


def find_word_towns(text: str) -> list[Candidate]:
    """Word towns where a cue makes them places (see the module docstring)."""
    towns = word_places()
    out: list[Candidate] = []
    firsts = _first_words()
    lowered = text.lower()
    cues = _CUE_RE.finditer(lowered) if len(lowered) == len(text) else _CUE_ANY_CASE_RE.finditer(text)
    for cue in cues:
        if cue.group(2).lower().replace("'", "").replace("’", "") not in firsts:
            continue  # (most words after "in"/"to" start no town: one set lookup before the rest)
        c = cue.group(1).lower()
        prev = _PREV_WORD_RE.search(text, max(0, cue.start() - 24), cue.start())
        p = prev.group(1).lower() if prev is not None else ""
        if c == "of" and p not in ("out", "outside"):
            continue
        strong = (p, c) in _E.PLACE_CUES or c == "outside" or c == "of"
        words = _words_after(text, cue.start(2))
        mixed = None
        for n in range(len(words), 0, -1):
            key = _key([w.group() for w in words[:n]])
            if key not in towns and not (n == 1 and strong and key in places()):
                continue  # (a listed town that is also a frequent word, after a cue of living: "lives in mobile, ...")
            parts = key.split()
            if n == 1 and (not strong or key in _NOT_A_TOWN or _E.classify(key) == _E.C) or key in _E.STATE_NAMES:
                break  # (a state or a country is no identifier: "moved from Mexico")
            if mixed is None:
                mixed = _E.line_case_at(text, cue.start()) == "mixed"
            if mixed and not _capitalised(words[:n]):
                break
            if n > 1 and not strong and not mixed and min(_E.zipf(w) for w in parts) >= _RARE_ZIPF:
                break  # (capitalised inside a mixed-case sentence, "in Silver Bay" names a place)
            if n == 1 and not _ONE_WORD_END_RE.match(text, words[0].end()):
                break  # "lives in public housing", "lives in hope that ...": the word of a phrase
            if n == 1 and _E.unit_before_number(text, key, words[0].end()):
                break  # "moved to Bay 4": a part of the hospital by its number
            end = words[n - 1].end() - (1 if words[n - 1].group().endswith(".") and parts[-1] not in ("st", "mt", "ft") else 0)
            out.append(Candidate(words[0].start(), end, "LOCATION", "rule:word_town", 0.85))
            break
    if "," in text:
        for st in _STATE_AFTER_RE.finditer(text):
            state = st.group(1).upper()
            lo = max(0, st.start() - 48, text.rfind("\n", 0, st.start()) + 1)
            before = list(_TOWN_WORD_RE.finditer(text, lo, st.start()))
            for n in range(min(4, len(before)), 0, -1):
                words = before[-n:]
                if words[-1].end() != st.start() or any(
                        _GAP_RE.fullmatch(text, a.end(), b.start()) is None for a, b in zip(words, words[1:])):
                    continue
                if state in towns.get(_key([w.group() for w in words]), ()):
                    out.append(Candidate(words[0].start(), words[-1].end(), "LOCATION", "rule:word_town", 0.85))
                    break
    return out


#: Words of direction or part that open a quarter's name before a listed town ("east oakland", "SOUTH PHILLY",
#: "north minneapolis", "lower manhattan").
_QUARTER_WORDS = frozenset(
    "east west north south northeast northwest southeast southwest upper lower central downtown uptown midtown".split()
)
_QUARTER_RE = re.compile(
    r"(?i)(?<![\w'’-])(" + "|".join(sorted(_QUARTER_WORDS)) + r")[ \t]([A-Za-z][A-Za-z'’.-]*(?:[ \t][A-Za-z][A-Za-z'’.-]*)?)"
)


def find_quarters(text: str) -> list[Candidate]:
    """A quarter of a listed town: a direction word right before the town ("lives in east oakland", "from north
    minneapolis"), which the cue rules, reading the word after a cue, never reach. The town must be a listed place
    that is no everyday word, state or country ("north carolina", "south side", "west wing" name none); in a mixed-case
    line both words capitalised."""
    low = text.lower()
    if not any(w in low for w in ("east", "west", "north", "south", "upper", "lower", "central", "town")):
        return []
    listed = places()
    out: list[Candidate] = []
    for m in _QUARTER_RE.finditer(text):
        words = m.group(2).split()
        for n in (2, 1):
            if len(words) < n:
                continue
            key = _key(words[:n])
            if key not in listed or key in _E.STATE_NAMES or f"{m.group(1).lower()} {key}" in _E.STATE_NAMES:
                continue
            whole = f"{m.group(1).lower()} {key}" in listed  # ("south boston": a listed quarter)
            if n == 1 and not whole and (key in ordinary_words() or _E.classify(key) == _E.C or len(key) < 4):
                break  # ("south side", "west end", "upper lake": everyday words)
            end = m.start(2) + len(" ".join(words[:n]).rstrip("."))  # (not a sentence's full stop)
            mixed = _E.line_case_at(text, m.start()) == "mixed"
            if mixed and not (m.group(1)[:1].isupper() and words[0][:1].isupper()):
                break
            out.append(Candidate(m.start(1), end, "LOCATION", "rule:quarter", 0.85))
            break
    return out


#: Words after a town that make it a branch's place ("delaware tech dover campus", "our draper location", "(here,
#: Peabody site)", "ob middletown office").
_BRANCH_RE = re.compile(r"(?i)(?<![\w'’.-])([a-z][a-z'’-]*(?:[ \t][a-z][a-z'’-]*)?)[ \t](campus|office|location|site|branch)\b")


def find_branch_towns(text: str) -> list[Candidate]:
    """A town written before "campus", "office", "location", "site" or "branch": the branch of an institution there
    ("dover campus", "our draper location"). The town is a listed one or a word town; in a mixed-case line it is
    capitalised, in a one-case line a listed town or no everyday word ("main office", "home office", "field office"
    stay)."""
    out: list[Candidate] = []
    listed, towns = places(), word_places()
    for m in _BRANCH_RE.finditer(text):
        words = m.group(1).split()
        for n in (len(words), 1) if len(words) > 1 else (1,):
            part = words[-n:]
            key = _key(part)
            if key not in listed and key not in towns or key in _E.STATE_NAMES or _E.classify(key.split()[0]) == _E.C:
                continue
            start = m.end(1) - len(" ".join(part))
            if _I._CLINICIAN_BEFORE.search(text, max(0, start - 12), start):
                break  # ("called dr lindqvist office": a clinician's office)
            mixed = _E.line_case_at(text, m.start()) == "mixed"
            if mixed and not all(w[:1].isupper() for w in part) or not mixed and any(
                    w.lower() in ordinary_words() and (key not in listed or _E.zipf(w.lower()) >= _RARE_ZIPF) for w in part):
                break  # (in one case a listed town that is a rarer word still counts: "dover campus", "draper location")
            out.append(Candidate(start, m.end(1), "LOCATION", "rule:branch_town", 0.85))
            break
    return out


__all__ = ["find_branch_towns", "find_quarters", "find_word_towns"]
