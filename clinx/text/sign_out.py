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

Sign-outs, team lists and call logs also name clinicians by surname alone, and surnames are often everyday words (Hill,
Cook, Page, Long, King, May), which the evidence pass takes only after a title or beside a credential. Four slots
hold a person and nothing else (:func:`find_team_names`), so a name that is a word too counts there:

* a surname in parentheses after a service or a team ("ortho (Hill)", "IR (Cook)", "DAY TEAM (BROWN)", "B (Hill/Cook)")
  or after a service inside them ("(ortho Rao)", "(SURG KING)");
* each side of a hand-off arrow ("hand-off hill -> cook", "Gupta → Young", "CHARGE RN: MAY -> LONG"), when the other side
  is a name or a hand-off cue opens the line;
* whom a call log paged or discussed with ("re-paged king x2", "d/w May, accepted", "call hill.", "page long first");
* the values of a team list's role label ("ATTG: HILL | CHIEF: ...", "seniors: pak / arturo", "CARDS FELLOW: MAY PGR",
  "| attg May |").

An everyday or clinical word is never taken ("pt (alert)", "ortho (hip)", "afib -> rvr", "paged renal", "call bell"),
nor, in a mixed-case line, a word written in lower case ("d/w family re may").
"""

from __future__ import annotations

import re

from clinx.text import evidence as _E
from clinx.text.base import Candidate
from clinx.text.lexicons import AMBIGUOUS_NAMES, first_names

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


_WORD = r"(?<![A-Za-z'’-])[A-Za-z][A-Za-z'’-]*[A-Za-z](?![A-Za-z'’-])"
#: Services and teams whose clinician a surname in parentheses names ("ortho (Hill)", "DAY TEAM (BROWN)"). Not
#: "pharmacy" or "team" alone, whose parentheses name a business or a club as often ("pharmacy (Omnicare)").
_CARE_SERVICE_NAMES = (
    "ortho ir surg surgery renal nephro palliative pall endo cards cardiology id gi nsgy neurosurg nutrition pt ot slp uro "
    "urology mfm rheum eeg geri geriatrics primary medicine icu micu sicu picu nicu ccu ed er hospitalist day night vasc "
    "vascular onc heme pulm neuro psych anes anesthesia ent derm cts trauma acs hepatology transplant ep hf stroke "
    "radiology wound sw cm chaplain rrt resp covering consult consults ob gyn peds dialysis hd".split()
) + ["day team", "night team", "bed control"]
#: Clinicians' roles, whose person a surname in parentheses names too ("on-call np (hill)", "call chief (ben)").
_ROLE_NAMES = "np attg attending fellow resident intern senior chief nocturnist".split()


def _alternatives(names: list[str]) -> str:
    """A regex alternation of ``names``, longest first, a blank inside a name matching a blank or a tab."""
    return "|".join(re.escape(n).replace(r"\ ", r"[ \t]") for n in sorted(names, key=len, reverse=True))


_CARE_SERVICES = _alternatives(_CARE_SERVICE_NAMES)
_SERVICES = _alternatives(_CARE_SERVICE_NAMES + _ROLE_NAMES)
#: The words of those services and roles: never the person in a slot ("d/w cards (dr. oyelowo)", "call senior").
_SERVICE_WORDS = frozenset(w for n in _CARE_SERVICE_NAMES + _ROLE_NAMES for w in n.split()) \
    | frozenset("junior backup moonlighter charge team service".split())
#: What parentheses after a service or a team hold: one surname or a pair ("(Hill)", "(Hill/Cook)").
_PAREN_NAMES_RE = re.compile(rf"\([ \t]*(?P<a>{_WORD})(?:[ \t]*/[ \t]*(?P<b>{_WORD}))?[ \t]*\)")
#: A service or a role ending where the blanks before a parenthesis begin ("ortho (Hill)", "on-call np (hill)").
_SERVICE_BEFORE_RE = re.compile(rf"(?i)(?<![\w/'’-])(?:{_SERVICES})\Z")
#: A service and its clinician inside the parentheses ("(ortho Rao)", "(SURG KING)").
_SERVICE_INSIDE_RE = re.compile(rf"\((?i:{_CARE_SERVICES})[ \t]+(?P<a>{_WORD})\)")
_LONGEST_SERVICE = max(len(n) for n in _CARE_SERVICE_NAMES + _ROLE_NAMES)


def _parenthesised_names(text: str):
    """The word spans of each surname, or pair, in parentheses after a service or a team, or after a service inside
    them (see the module docstring), one tuple of spans per parenthesis. Led by each "(" of the text: a pattern that
    started with the service would be tried at every character of a note."""
    p = text.find("(")
    while p >= 0:
        q = p
        while q > 0 and text[q - 1] in " \t":
            q -= 1
        m = _PAREN_NAMES_RE.match(text, p)
        if m is not None and _SERVICE_BEFORE_RE.search(text, max(0, q - _LONGEST_SERVICE), q) is not None:
            yield tuple(m.span(g) for g in "ab" if m.group(g) is not None)
        elif m is not None and m.group("b") is not None and q < p and q > 0 and "A" <= text[q - 1] <= "Z" \
                and (q == 1 or not (text[q - 2].isalnum() or text[q - 2] in "_/'’-")):
            yield m.span("a"), m.span("b")  # a team's letter before a pair of surnames ("teams: A (Nguyen/Fox)  B (Hill/Cook)")
        elif (m := _SERVICE_INSIDE_RE.match(text, p)) is not None:
            yield (m.span("a"),)
        p = text.find("(", (m.end() if m is not None else p + 1))


#: A hand-off: two single words either side of an arrow, the first opening its field, the second closing it.
_HANDOFF_RE = re.compile(
    rf"(?:^|(?<=[:|(,—–])|(?<=[ \t][-—–])|(?<=[ \t]{{2}}))[ \t]*(?P<cue>(?i:hand-?off|handover|sign-?out|sign[ \t]out|s/o|from)[ \t]+)?"
    rf"(?P<a>{_WORD})[ \t]*(?:->|-->|→|=>|⇒)[ \t]*(?P<b>{_WORD})(?=[ \t]*(?:$|[(,;|.]|(?i:at)\b|\d)|[ \t]{{2}})",
    re.M,
)
#: Words on a line before a hand-off that make its two sides people ("sign-out", "CHARGE RN:").
_HANDOFF_CUE_RE = re.compile(r"(?i)(?<![\w-])(?:hand-?offs?|handover|sign-?outs?|sign[ \t]out|s/o|charge(?:[ \t]rn)?:|report)(?![\w-])")
#: Whom a call log reached: "re-paged king x2", "d/w May, accepted", "call hill." (not after "page", a given name
#: itself that :func:`clinx.text.rules.given_names_before_names` would take before the name).
_CALLED_RE = re.compile(
    rf"(?i)(?<![\w/-])(?P<verb>re-?paged|paged|d/w|called[ \t]+back[ \t]+for|call)[ \t]+(?P<a>{_WORD})"
    r"(?=[ \t]*(?:$|[,.;:)(|]|[-—–][ \t]|x[ \t]?\d|(?:re|at|on|via|again|first|pgr|back|aware|@)(?![\w-])))",
    re.M,
)
#: Words after "call" that are what is called, not whom ("call bell", "call light", "Call List").
_CALL_OBJECTS = frozenset("bell light button back box center centre line list schedule team room".split())
#: A team list's role label, then one to four people closing their field ("ATTG: HILL |", "seniors: pak / arturo",
#: "CARDS FELLOW: MAY PGR 2-8810"; without a colon only between bars: "| attg May |").
_TEAM_ROLES = (
    r"attg|attending|chief|(?:[a-z]{2,5}[ \t])?fellow|seniors?|residents?|interns?|jr|sr|np|nps|pa|ep|charge(?:[ \t]rn)?|"
    r"nocturnist|backup|moonlighter|anes|rt(?:[ \t]on[ \t]unit)?|day|days|night|nights|overnight"
)
_TEAM_LIST_RE = re.compile(
    rf"(?im)(?:^|(?<=[|;])|(?<=[ \t]{{2}}))[ \t]*(?:{_TEAM_ROLES})[ \t]*:[ \t]*"
    rf"(?P<v>{_WORD}(?:[ \t]*[/,&][ \t]*{_WORD}){{0,3}})(?=[ \t]*(?:$|\||\(|;|->|→|[ \t]{{2}}|(?:pgr|pager|ext|x\d)))"
    rf"|(?:^|(?<=\|))[ \t]*(?:{_TEAM_ROLES})[ \t]+(?P<w>{_WORD})[ \t]*(?=\||$)"
)
_VALUE_WORD_RE = re.compile(_WORD)


#: Common surnames the clinical vocabulary lists as a sign's, a disease's or a scale's name ("Hill-Sachs", "Bell's
#: palsy", "Baker's cyst"): in a person's slot they are the person; anatomy ("hand", "foot") never is.
_EPONYM_SURNAMES = frozenset(
    "hill bell baker bishop walker turner clark bennett barton wells stone simpson jefferson arnold barrett graves nash "
    "brady parkinson".split()
)


def _person_here(text: str, s: int, e: int, mixed: bool) -> bool:
    """May the word ``text[s:e]`` in a person's slot be a name: a name, an unknown word or a name that is an everyday
    word too (capitalised in a mixed-case line), and no everyday or clinical word, title, role or placeholder value?"""
    w = text[s:e]
    low = w.lower()
    if low in _NO_ONE or low in _SERVICE_WORDS or low in _E.TITLES or low in _E.ROLES or low in _E.RELATIONS or low in _E.CREDENTIALS:
        return False
    if len(low) < 3 or "-" in low and any(_E.classify(p) in (_E.W, _E.C) for p in low.split("-") if p):
        return False  # ("(gi se)", "NIGHT (SIT-UPS)")
    c = _E.classify(low)
    if c == _E.N or c == _E.U and any(v in low for v in "aeiouy"):
        return True  # (an unknown word needs a vowel: no "(TTN)", "(senior bldg)")
    if c == _E.C and low in _EPONYM_SURNAMES:
        c = _E.A  # a common surname the clinical vocabulary lists for its sign or disease ("Hill", "Bell")
    if c != _E.A or low in _E.FUNCTION_WORDS and low not in AMBIGUOUS_NAMES:
        return False
    return not mixed or w[:1].isupper()


def find_team_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """NAME candidates: clinicians in the slots of sign-outs, team lists and call logs (see the module docstring).

    ``cands``: the candidates found so far; a hand-off's side already found as a name vouches for the other side.
    """
    lowered = text.lower()
    if not any(ch in text for ch in "(>→:|/") and "call" not in lowered and "page" not in lowered:  # ("re-paged king x2")
        return []
    out: list[Candidate] = []
    mixed_at: dict[int, bool] = {}

    def mixed(pos: int) -> bool:
        ls = text.rfind("\n", 0, pos) + 1
        if ls not in mixed_at:
            mixed_at[ls] = _E.line_case_at(text, pos) == "mixed"
        return mixed_at[ls]

    def take(s: int, e: int, source: str) -> None:
        if _person_here(text, s, e, mixed(s)):
            out.append(Candidate(s, e, "NAME", source, 0.85))

    for spans in _parenthesised_names(text):
        if all(_person_here(text, s, e, mixed(s)) for s, e in spans):
            out += [Candidate(s, e, "NAME", "rule:team_paren", 0.85) for s, e in spans]
    names = [(c.start, c.end) for c in cands if c.category == "NAME"]
    arrows = "->" in text or "→" in text or "=>" in text or "⇒" in text
    for m in _HANDOFF_RE.finditer(text) if arrows else ():
        sides = [m.span("a"), m.span("b")]
        mx = mixed(m.start("a"))
        if not all(_person_here(text, s, e, mx) for s, e in sides):
            continue
        vouched = any(_E.classify(text[s:e].lower()) in (_E.N, _E.U) or any(a <= s and e <= b for a, b in names) for s, e in sides)
        ls = text.rfind("\n", 0, m.start("a")) + 1
        if vouched or m.group("cue") or _HANDOFF_CUE_RE.search(text, ls, m.start("a")):
            out += [Candidate(s, e, "NAME", "rule:handoff", 0.85) for s, e in sides]
    for m in _CALLED_RE.finditer(text) if "page" in lowered or "call" in lowered or "d/w" in lowered else ():
        low = m.group("a").lower()
        if m.group("verb").lower() == "call" and (low in _CALL_OBJECTS or m.group("verb") == "Call" and mixed(m.start())):
            continue
        take(*m.span("a"), "rule:called")
    for m in _TEAM_LIST_RE.finditer(text):
        g = "v" if m.group("v") is not None else "w"
        for w in _VALUE_WORD_RE.finditer(text, *m.span(g)):
            take(*w.span(), "rule:team_list")
    return out
