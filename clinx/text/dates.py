"""Dates as clinicians write them, beyond the full forms of :data:`clinx.text.rules.DATE_RE`.

``7/22`` (month/day), ``on 10-12`` (after a date word), ``'92`` (a year with an apostrophe), ``3rd of June``,
``the 14th``, ``june 3rd``, a month or weekday alone (``seen in November``,
``recheck inr thurs``), a bare year (``S/P MI 1992``). What is *not* a date:
doses and ratios (``5/325 mg``, ``25/100 TID``), vital signs and scores
(``BP 120/80``, ``pain 4/10``, ``5/5 strength``, ``MoCA 19/30``), ``2/2``
("secondary to"), clock times and durations (``14:30``, ``x3 days``,
``2 weeks``) — the validators below reject those.

Years: :data:`YEAR_RECOGNIZERS` (``'92``, bare ``1992``) run only when the
``years`` setting is ``remove`` (the default); with ``keep`` (HIPAA Safe
Harbor keeps years) they are off and :func:`strip_year` trims the year off
every other date span.
"""

from __future__ import annotations

import re

from clinx.text.base import Candidate
from clinx.text.lexicons import clinical_vocab, ordinary_words
from clinx.text.recognizers import Recognizer

_MONTHS_FULL = "january february march april june july august september october november december".split()
MONTH_ANY = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|"
    r"nov(?:ember)?|dec(?:ember)?)"
)
_DAY_ORD = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)"
_PREV_WORD_RE = re.compile(r"([A-Za-z][A-Za-z&/]{0,15}(?:-\d{1,2})?)[\s:(]{1,3}$")  # "PHQ-9 12/27": a scale's name and number
_NEXT_WORD_RE = re.compile(r"[\s(]{0,3}([A-Za-z%][A-Za-z/]{0,15})")

#: Words before a slash number that make it a measurement, not a date.
NOT_DATE_BEFORE = frozenset(
    """
bp sbp dbp pressure pressures pain strength str moca mmse gcs score scored i&o io i/o intake output ratio abg vbg vs
hr rr sat sats o2 grade murmur apgar apgars pulses reflexes dtr dtrs power motor sensation vision va acuity
fev1/fvc hearing ecog nyha tmax temp map cvp pap pcwp rvsp ef pt/inr inr x gravida para gp g p parity
was is of rated level score: percocet norco vicodin sinemet carbidopa/levodopa vicodin dose dosing
bipap cpap psv ps peep ac simv prvc vent settings setting ipap epap day tof four
berg tinetti phq phq-9 phq9 gad gad-7 gad7 braden morse nihss fim slums audit cage total sofa apache
recall ue le rue lue rle lle inattentive hyperactive fatigue distress thermometer bpp alvarado centor wells
""".split()
)
#: Words after a slash number that make it a dose, score or measurement.
NOT_DATE_AFTER = frozenset(
    """
mg mcg g gm ml cc l units u iu tab tabs tablet tablets cap caps puff puffs bid tid qid qd qhs daily prn q4h q6h q8h
pain strength str ble bue bilat bilaterally murmur score mmhg mm cm kg lb lbs hr hrs h min mins sec x % pct
dilated effaced station ratio scale grade reflexes pulses mcg/kg uti secondary
grip flexion extension abduction adduction dorsiflexion plantarflexion shrug way
sem hsm sm holosystolic systolic diastolic ejection blowing harsh rub wk wks week weeks wga twitch twitches
df pf ns nss
""".split()
)


def _prev_word(text: str, start: int) -> str:
    m = _PREV_WORD_RE.search(text, max(0, start - 20), start)
    return m.group(1).lower() if m else ""


def _next_word(text: str, end: int) -> str:
    m = _NEXT_WORD_RE.match(text, end)
    return m.group(1).lower() if m else ""


#: Words before a month/day that make it a date whatever follows ("on 2/2", "seen 12/8").
DATE_CUES = frozenset(
    """
on dated date hours from since seen radiograph radiographs film films exam exams examination examinations study studies
ct mri xray x-ray obtained comparison indication until til by before after last next due sched scheduled appt visit
admitted admit adm d/c dc discharged extubated intubated started stopped placed removed done performed intake
edd edc lmp consult review
mbss ogd egd tte tee eeg emg kub echo colonoscopy endoscopy mammogram mammo dexa
dictated transcribed typed signed cosigned faxed
mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday friday saturday sunday
""".split()
)
#: "dose" before a month/day makes it a dose ("dose 5/325") unless a word of time leads it ("last dose 6/13").
_DOSE_TIME_RE = re.compile(r"(?i)\b(?:last|next|final|first|1st|2nd|second|missed|due)[ \t]{1,2}doses?[\s:]{1,3}$")
#: "2200", "0500": a 24-hour clock time (nursing notes time every event).
CLOCK_RE = re.compile(r"(?:[01]\d|2[0-3])[0-5]\d")
#: A month and day, or a date, written with slashes ("10/24", "3/2/24").
SLASHED_DATE_RE = re.compile(r"\d{1,2}/\d{1,2}(?:/(?:\d{4}|\d\d))?")
#: Words before a four-digit number that make it a clock time, not a year ("haldol at 2000", "@ 1930").
CLOCK_BEFORE = frozenset(("at", "@", "until", "til", "till", "around", "approx", "approximately", "by"))
#: Words of a ward's events right before a four-digit number that make it the event's clock time whatever its value
#: ("LKW 1930", "ETA 2000", "HANDOFF 1900", "wife notified 0545", "dispatched 1947"): no year is written after them.
CLOCK_EVENT_BEFORE = frozenset("eta lkw handoff hand-off notified dispatched ingested paged updated".split())
#: Words of a dose or a procedure before a four-digit number, after which a year is written too ("TDAP GIVEN 2019",
#: "stent placed 2019"): the number is a clock time only where no such year can be (1900-1959).
CLOCK_OR_YEAR_BEFORE = frozenset("given administered placed started infused hung called visited".split())
#: "by phone", "via phone", "over the phone" right before a four-digit number: the phone is how someone was reached and
#: the number the hour of the call ("updated by phone 0410"), no extension.
PHONE_AS_MEANS_RE = re.compile(r"(?i)\b(?:by|via|over[ \t]+the|on[ \t]+the)[ \t]{1,2}(?:tele)?phone[ \t]{1,2}$")


#: A pain score's company: the word, its shorthand (CP, HA, LBP), a pain scale's name (NRS, VAS), or the arrow of a
#: change ("4/10 -> 2/10").
_PAIN_RE = re.compile(r"(?i)\b(?:distress|anxiety|mood|cravings?|pain|cp|ha|h/a|lbp|nrs|vas|headache|discomfort|aches?|aching|hurts?|sore(?:ness)?|tender(?:ness)?|relief|rated?|rates|scale)\b|->|→")
#: Common fractions: without a date word before them, "1/2" is a half more often than the 2nd of January.
_FRACTIONS = frozenset({(1, 2), (1, 3), (1, 4), (2, 3), (3, 4)})
#: Words after a month/day that leave it a date ("2/2 at 0800", "1/2 and 1/5").
_DATE_NEXT = frozenset(("at", "and", "to", "on", "in", "for", "by", "was", "were"))


#: A note, visit or event "of" a month/day: "progress note of 7/9", "admission of 3/2" (not "2 of 3/4 doses").
EVENT_OF = frozenset(
    """note notes addendum visit visits admission discharge encounter consult consultation letter surgery procedure
study exam report week wk as morning evening night afternoon weekend""".split()
)  # ("as of 12/1": from that day on; "the morning of 1/10")
_OF_BEFORE_RE = re.compile(r"([A-Za-z]{2,15})\s{1,3}(?i:of)\s{1,3}$")


def _of_event(text: str, s: int) -> bool:
    """Is the "of" before a month/day at ``s`` said of a note or an event ("progress note of 7/9")?"""
    m = _OF_BEFORE_RE.search(text, max(0, s - 24), s)
    return m is not None and m.group(1).lower() in EVENT_OF


#: A motor strength grade's company ("strength 5/5 upper, 4/5 lower", "weak grip 4/5").
_STRENGTH_RE = re.compile(r"(?i)\b(?:strength|strong|motor|power|grip|weak|(?:mmt|ext|flex|df|pf)\b)")


def _scale_line(text: str, s: int, e: int, company: re.Pattern, scale: int) -> bool:
    """A score out of ``scale``, not a date: ``company`` within 25 characters ("pain 4/10"), or anywhere before it
    in its line and sentence when that gives another score of the same scale ("pain 6/10, ... relief to 2/10")."""
    if company.search(text, max(0, s - 25), e + 25) is not None:
        return True
    a = max(text.rfind("\n", 0, s) + 1, text.rfind(". ", 0, s) + 2, s - 120)  # this line and sentence
    before = text[a:s]
    return company.search(before) is not None and re.search(rf"\b\d{{1,2}}/{scale}\b", before) is not None


_SCORE_10_BEFORE_RE = re.compile(r"\b\d{1,2}/10\b")


def score_change(text: str, s: int, e: int) -> bool:
    """Is the month/day-shaped ``text[s:e]`` a pain score that changed ("joint pain 3/10 from 7/10", "8/10 to 4/10")?"""
    if not text.endswith("/10", s, e) or len(text) > e and text[e].isdigit():
        return False
    a = max(0, s - 30)
    return _PAIN_RE.search(text, a, s) is not None and _SCORE_10_BEFORE_RE.search(text, a, s) is not None \
        and _prev_word(text, s) in ("from", "to")


_TO_DATE_RE = re.compile(r"[ \t]{1,2}to[ \t]{1,2}\d")


_MONTH_DAY_RE = re.compile(r"\d{1,2}/\d{1,2}")


def month_day_rejected(text: str, s: int, e: int) -> bool:
    """Is ``text[s:e]``, shaped like a month/day, one that :func:`_md_ok` reads as no date ("2/2 wet gangrene": secondary
    to; "5/5 BLE", "pain 4/10")? L2's context asks, so that a date cue nearby does not overrule the reason."""
    m = _MONTH_DAY_RE.fullmatch(text, s, e)
    if m is None or _md_ok(m, text) is not None:
        return False
    a, b = (int(x) for x in m.group().split("/"))
    # the reasons of shape only: "2/2" and "5/5", a fraction, a score out of 5, 9 or 10, or no date either way; other
    # rejections (a word before or after it) stay the context's to weigh ("d/c 8/24 vs 8/25", "dhs 20/11")
    return m.group() == "24/7" or a == b or (a, b) in _FRACTIONS or b in (5, 9, 10) and a <= b or not (1 <= a <= 31 and 1 <= b <= 31)


#: Words after which a month/day that looks like a fraction is a day ("f/u 3/3", "onset 1/2"); a unit or a count after it
#: still makes it an amount (NOT_DATE_AFTER, "onset 1/2 hr ago"; and the spans of time it lacks, "onset 1/2 hour ago").
_FOLLOW_UP_CUES = frozenset("f/u fu onset".split())
#: A drug level's word: a month/day after it is the day the level was drawn, unless shaped like a score or a fraction.
_LEVEL_WORDS = frozenset(("level", "lvl"))
_SPANS_OF_TIME = frozenset("hour hours day days month months minute minutes year years yr yrs".split())


def _md_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Month/day ``7/22`` unless it is a dose, ratio, vital sign or score."""
    s, e = m.span()
    mon, day = (int(x) for x in m.group().split("/"))
    if _british_duration(text, s, e, mon, day):
        return None
    if 1 <= mon <= 12 and day > 31:
        return _month_year_ok(s, e, text)
    if 13 <= mon <= 31 and 1 <= day <= 12 and (text[e - 2] == "0" or _prev_word(text, s) in DATE_CUES):
        return s, e  # day first, as British and Canadian notes write it ("done 31/01"; "PS 14/5" is a vent setting)
    if not (1 <= mon <= 12 and 1 <= day <= 31):
        return None
    prev, nxt = _prev_word(text, s), _next_word(text, e)
    if score_change(text, s, e):
        return None
    if mon == day == 2 and nxt == "to" and not _TO_DATE_RE.match(text, e):
        return None  # "stopped 2/2 to chest pain": "secondary to" ("2/2 to 2/5" is a range of dates)
    if text[max(0, s - 2) : s].strip()[-1:] in ("=", "+"):
        return None  # a sum's total ("(3+2+1=6/9)", "mitoses 1 = 6/9"), no day
    if prev in DATE_CUES or prev == "of" and _of_event(text, s):
        return s, e
    if prev == "dose" and nxt not in NOT_DATE_AFTER and (mon, day) not in _FRACTIONS and _DOSE_TIME_RE.search(text, max(0, s - 24), s):
        return s, e  # "last dose 6/13" (not "next dose 1/2 tab")
    if prev in ("inr", "pt/inr") and day >= 5 and nxt not in NOT_DATE_AFTER:
        return s, e  # "RECHECK INR 1/10", "INR 12/29 WAS 1.8": an INR goal is a range of two small numbers ("INR 2/3")
    if prev in _LEVEL_WORDS and nxt not in NOT_DATE_AFTER and mon != day and (mon, day) not in _FRACTIONS \
            and not (day in (5, 9, 10) and mon <= day):
        return s, e  # a drug level's day ("tac level 6/1 was 9.8", "recheck level 3/17"; "pain level 4/10" is a score)
    if prev in NOT_DATE_BEFORE or nxt in NOT_DATE_AFTER:
        return None
    if prev in _FOLLOW_UP_CUES and nxt not in _COUNT_AFTER and nxt not in _SPANS_OF_TIME:
        return s, e  # "f/u 3/3 with pcp", "onset 1/2 (dx at ed)": a visit's or an illness's day, however like a fraction
    if day == 10 and mon <= 10 and _scale_line(text, s, e, _PAIN_RE, 10):
        return None  # pain scale "4/10", "CP 4/10 -> 2/10", "HA 6/10", "pain 6/10, ... relief to 2/10"
    if day == 5 and mon <= 5 and _scale_line(text, s, e, _STRENGTH_RE, 5):
        return None  # motor strength "5/5 upper, 4/5 lower"
    padded = text[e - 2] == "0"  # "3/04", "2/02": a day written with its zero is a date, no fraction or "2/2"
    if nxt and nxt not in _DATE_NEXT and not padded and (mon == day and mon <= 5 or (mon, day) in _FRACTIONS):
        return None  # "2/2 UTI" (secondary to), "5/5 BLE", "3/3"; "1/2 tab", "crackles 1/2 way up", "3/4 of meals"
    if mon > day and prev in ("x", "of"):
        return None
    return s, e


#: British notes count days, months and weeks as sevenths, twelfths and fifty-seconds ("cephalexin for 5/7", "Hx: 3/7
#: productive cough", "8/52 postpartum"): words around such a count that a date does not take.
_DURATION_BEFORE = frozenset("for x hx last past over within".split())
#: Words before a count of weeks ("gp f/u 1/52", "clinic 4/52"): a follow-up's interval (a 12th or a 7th may be a date there).
_WEEKS_BEFORE = frozenset("f/u fu review rv clinic".split())
_DURATION_AFTER = frozenset("course hx history ago postpartum pp postop post-op post old duration".split())


def _british_duration(text: str, s: int, e: int, mon: int, day: int) -> bool:
    """Is ``mon/day`` a British count of days (``/7``), months (``/12``) or weeks (``/52``), by the words around it?"""
    if day not in (7, 12, 52) or not 1 <= mon <= day:
        return False
    prev = _prev_word(text, s)
    return prev in _DURATION_BEFORE or day == 52 and prev in _WEEKS_BEFORE or _next_word(text, e) in _DURATION_AFTER


#: Tests, procedures and events whose date notes give as month/year ("colonoscopy 5/80", "flu shot 10/68",
#: "MI in 2/69").
TEST_WORDS = frozenset(
    """
colonoscopy egd echo tte tee ekg ecg cxr ct mri mra cath stress pft pfts dexa mammogram mammo pap psa a1c hba1c biopsy bx
surgery cabg pci stent ptca stenting vaccine pneumovax flu tdap ppd scope eeg emg holter shot shots mi in during
""".split()
)


#: Words after a month/two-digit-year shape that make it a count ("3/45 nodes positive", "2/50 hpf").
_TITRE_RE = re.compile(r"(?i)\b(?:tit(?:er|re)s?|ana|dilution)\b")
_COUNT_AFTER = frozenset("nodes node ln lns lymph cells hpf lpf positive pos neg negative cores samples".split())


def _month_year_ok(s: int, e: int, text: str) -> tuple[int, int] | None:
    """Month/two-digit year ``5/80`` (the second number is no day, so the shape is a date or a count): never a
    titre, a vital sign, a dose or a count (``ANA 1/80``, ``BP 9/60``, ``Vytorin 10/40``, ``3/45 nodes``).

    A date after a date word, a test's name, in parentheses (``A1c 7.2 (10/79)``), or after an everyday or
    clinical word (``compared with 8/79``, ``CT head 11/98``, ``LMP 8/79``) or opening its line. A word no
    lexicon knows before it is most often a drug of two strengths (``Lotrel 5/40``, ``Necon 1/35``)."""
    prev, nxt = _prev_word(text, s), _next_word(text, e)
    if prev in NOT_DATE_BEFORE or nxt in NOT_DATE_AFTER or nxt in _COUNT_AFTER or prev in ("titer", "titre", "ana", "dilution", "1"):
        return None
    if prev in DATE_CUES or prev in TEST_WORDS or (s > 0 and text[s - 1] == "(" and text[e : e + 1] == ")"):
        return s, e
    if _TITRE_RE.search(text, max(0, s - 40), s) is not None:
        return None  # "titers 1/40 and 1/80"
    if prev in ordinary_words() or prev in clinical_vocab() or not text[text.rfind("\n", 0, s) + 1 : s].strip(" \t-*•"):
        return s, e  # after a word, or opening its line ("8/79 MI")
    return None


def _md_range_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A range of two month/day dates (``3/24-3/30``, ``5/2-5/14/24``) unless it is a score, setting or dose range."""
    s, e = m.span()
    if m.group("ay") or m.group("by"):
        return s, e  # a year makes each half a date
    for part in (m.group("a"), m.group("b")):
        mon, day = (int(x) for x in part.split("/"))
        if not (1 <= mon <= 12 and 1 <= day <= 31):
            return None
    prev = _prev_word(text, s)
    if prev in NOT_DATE_BEFORE and not (prev == "of" and _of_event(text, s)) or _next_word(text, e) in NOT_DATE_AFTER:
        return None  # ("2 of 3/4-4/4 doses"; but "week of 9/11-9/15")
    if m.group("b").endswith("/10") and _scale_line(text, s, e, _PAIN_RE, 10):
        return None
    return s, e


#: Words before a hyphenated month-day that make it a date ("on 10-12"); without one, "10-12" is a range.
HYPHEN_DATE_CUES = frozenset(
    """
on dated date since seen admitted admit discharged extubated intubated started stopped placed removed done performed
last next due sched scheduled appt visit before after
""".split()
)


def _md_hyphen_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Month-day with a hyphen (``on 10-12``, ``s/p TKA (6-16)``) only after a date word or alone in parentheses,
    then checked as ``10/12`` is."""
    s, e = m.span()
    if _prev_word(text, s) not in HYPHEN_DATE_CUES and not (s > 0 and text[s - 1] == "(" and text[e : e + 1] == ")"):
        return None
    mon, day = (int(x) for x in m.group().split("-"))
    if not (1 <= mon <= 12 and 1 <= day <= 31):
        return None
    return m.span()


_WEEKDAYS = frozenset("mon tue tues wed thu thur thurs fri sat sun monday tuesday wednesday thursday friday saturday sunday".split())
#: Words after "the 14th" that leave it a day ("labs from the 3rd showed", "admitted the 3rd with CHF"),
#: not "the 4th ventricle", "the 3rd time", "the 2nd dose".
_ORDINAL_NEXT = frozenset(
    """of at and or to through in when for was were is are we she he they pt patient with showed shows revealed
reviewed noted but then per w/""".split()
)


def _ordinal_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """``3rd of June``, ``the 14th``, ``on the 2nd``: an ordinal day, not ``the 4th ventricle``."""
    s, e = m.span()
    if not 1 <= int(m.group("d")) <= 31:
        return None
    if m.group("of"):
        return s, e
    prev = _prev_word(text, s)
    nxt = _next_word(text, e)
    if prev == "the" and not text[e : text.find("\n", e) if "\n" in text[e:] else len(text)].strip(" \t.,;:)"):
        return s, e  # "Neurology consult Tuesday the 5th": the ordinal ends its line
    if prev == "the" and _prev_word(text, _PREV_WORD_RE.search(text, max(0, s - 20), s).start(1)) in _WEEKDAYS:
        return s, e  # "Tues the 5th labs ok": a weekday's date
    if prev in ("the", "on", "by", "until", "til", "since", "before", "after", "from", "thru", "through") and (
        nxt in _ORDINAL_NEXT
        or not nxt
    ):
        return s, e
    return None


def _may_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """The month May only with evidence: ``in May``, ``May 2021`` (``may`` is mostly a verb)."""
    s, e = m.span()
    word = m.group()
    prev = _prev_word(text, s)
    if prev in _MONTH_PREPOSITIONS and (word[0] == "M" or _MAY_CLOSED_RE.match(text, e)):
        return s, e
    if (s > 0 and text[s - 1] == "~" or prev in _MONTH_VERBS) and _MAY_CLOSED_RE.match(text, e):
        return s, e  # "since ~may.", "ran out may.": the month closing its clause (the verb never does)
    if _APOSTROPHE_YEAR_AFTER_RE.match(text, e):
        return s, e  # "echo May '23": a year's two digits after an apostrophe follow no verb
    if s > 0 and text[s - 1] == "(" and _CLOSING_PAREN_RE.match(text, e) and _VALUE_BEFORE_PAREN_RE.search(text, max(0, s - 12), s):
        return s, e  # "vl <20 (may)": alone in parentheses after a result, the month it was drawn
    return None


#: A result's value right before an opening parenthesis ("vl <20 (", "a1c 6.9 (").
_VALUE_BEFORE_PAREN_RE = re.compile(r"\d[\d.,%]*[ \t]?\($")


_APOSTROPHE_YEAR_AFTER_RE = re.compile(r"[ \t]{1,2}['’]\d\d\b")


# "JAN OF THIS YEAR", "jan '19", "Oct 2018": a year after the month makes it a date
_OF_YEAR_RE = re.compile(r"\s{1,3}(?:of\s{1,3}(?:this|last|next|that)\s{1,3}year\b|['’]\d\d\b|(?:19|20)\d\d\b)", re.I)


def _after_date_word(m, text: str) -> tuple[int, int] | None:
    """A month abbreviation alone only after a date preposition (``in Feb``, ``since Oct``), before a year (``jan '19``,
    ``of this year``) or alone in parentheses (``a1c 8.7 (jan)``)."""
    s, e = m.span()
    if _OF_YEAR_RE.match(text, e):
        return s, e
    prev = _prev_word(text, s)
    if prev in _MONTH_PREPOSITIONS or prev in _MONTH_CUES:
        return s, e
    if s > 0 and text[s - 1] == "(" and _CLOSING_PAREN_RE.match(text, e):
        return s, e  # "a1c 8.7 (jan)", "abpi 0.92 (may)": a month alone in parentheses dates the result before it
    if s > 0 and text[s - 1] == "~":
        return s, e  # "STOPPED ON HIS OWN ~JAN": an approximate month
    if _VALUE_BEFORE_MONTH_RE.search(text, max(0, s - 12), s) and _MONTH_CLOSES_RE.match(text, e) \
            and _OPEN_PAREN_BEFORE_RE.search(text, max(0, s - 30), s):
        return s, e  # "(A1c 9.1 Jan)", "(baseline 55% jan)", "(A1C 7.4, OCT)": a result's month after its value, in parentheses
    if _MONTH_AFTER_RE.match(text, e) or _MONTH_BEFORE_RE.search(text, max(0, s - 12), s):
        return s, e  # "(Jan, Mar)", "jan and oct 2022": months listed together
    return None


_CLOSING_PAREN_RE = re.compile(r"\.?\)")
#: A result's value right before a month (not a fraction's denominator: "strength 4/5 dec" is decreased).
_VALUE_BEFORE_MONTH_RE = re.compile(r"(?<![\d/.])\d+(?:\.\d+)?%?,?[ \t]$")
#: What closes a month that dates a result: the parenthesis, or a comma or a semicolon before the next item.
_MONTH_CLOSES_RE = re.compile(r"\.?[),;]")
#: An opening parenthesis not yet closed before the month.
_OPEN_PAREN_BEFORE_RE = re.compile(r"\([^()\n]*$")


#: Words before a month that make it one ("in Feb", "since may"); and those before an abbreviation ("appt Dec.").
_MONTH_PREPOSITIONS = frozenset("in since of early late mid last next until by during from this before after".split())
_MONTH_CUES = frozenset(
    "appt appointment visit seen due sched scheduled til till thru through around "
    # a plan's month ("fitting planned sept.", "f/u echo Aug", "repeat colonoscopy Oct")
    "planned repeat recheck f/u fu followup echo mri ct cxr colonoscopy mammogram mammo dexa "
    # an operation's month ("s/p L hip ORIF Aug.", "CABG Sept")
    "orif tka tha tkr thr cabg pci ercp".split()
)
#: A medication's or a finding's month ("started Aug;", "ran out may.", "(nadir 0.3 aug)", "onset jan"): May's too.
_MONTH_VERBS = frozenset("started stopped began out nadir onset diagnosed".split())
_MONTH_CUES = _MONTH_CUES | _MONTH_VERBS
#: Another month joined to this one ("(Jan, Mar)", "jan and oct 2022"): two months together date each other.
_MONTH_AFTER_RE = re.compile(r"(?i)(?:,[ \t]?|[ \t](?:and|&|or)[ \t]|/)" + MONTH_ANY + r"\.?(?![A-Za-z])")
_MONTH_BEFORE_RE = re.compile(r"(?i)(?<![A-Za-z])" + MONTH_ANY + r"\.?(?:,[ \t]?|[ \t](?:and|&|or)[ \t]|/)$")
#: "since may." and "in may 2019" in lower case: the verb never ends a clause or comes before a year
_MAY_CLOSED_RE = re.compile(r"[ \t]*(?:[.,;:)]|$|\n|['’]?\d\d\b|(?:19|20)\d\d\b)")


#: Words before "sat"/"sun" that make them a weekday ("on sat", "next Sun"); alone they are a saturation and the sun.
_WEEKEND_CUES = frozenset("on this last next until til till by since thru through from before after every sched scheduled due overnight".split())


#: Words after "sat"/"sun" that make them a weekday ("Sat AM labs", "Sun night").
_WEEKEND_NEXT = frozenset("am pm a.m p.m night morning evening afternoon overnight into and or to".split())
#: Words before "sat" that make it a saturation ("O2 sat.", "pulse ox sat").
_SAT_BEFORE = frozenset("o2 spo2 sao2 svo2 pulse ox oxygen saturation venous art o".split())


#: An oxygen reading's words right before "sat" ("O2 sat 12/15": a saturation, no weekday).
_OXYGEN_BEFORE_RE = re.compile(r"(?i)(?:o2|02|spo2|pulse|ox)[ \t]*$")
#: A month/day right after a weekday ("Sun 2/9/2025", "SAT, 3/4").
_MONTH_DAY_AFTER_RE = re.compile(r"\.?,?[ \t]{1,2}(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])(?![\d%])")


def _weekend_ok(m, text: str) -> tuple[int, int] | None:
    """``sat``/``sun`` as a weekday: after a date word (``on sat``, ``overnight Sun``), before a time of day
    (``Sat AM``), or capitalised alone between stops (``Neuro ICU. Sat. HD#4``); "O2 sat 95%" is no date."""
    s, e = m.span()
    prev, nxt = _prev_word(text, s), _next_word(text, e)
    after = text[e : e + 6].lstrip(" .")
    if _MONTH_DAY_AFTER_RE.match(text, e) and not _OXYGEN_BEFORE_RE.search(text, max(0, s - 10), s):
        return s, e  # "Admission: Sun 2/9/2025": the weekday of the date after it
    if after[:1].isdigit() or after[:1] == "%" or nxt in ("monitor", "monitoring", "probe", "sensor", "goal", "goals", "exposure"):
        return None
    if prev in _WEEKEND_CUES or nxt in _WEEKEND_NEXT:
        return s, e
    # capitalised, alone: a dateline "Sat." between sentence stops
    if text[s].isupper() and prev not in _SAT_BEFORE and text[e : e + 1] in (".", ",", "\n", "") and (
        s == 0 or text[max(0, s - 2) : s] in (". ", ", ", "\n") or text[s - 1] == "\n"
    ):
        return s, e
    return None


def _year_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A bare year ``1992`` unless a unit or a count follows it (``1950 mL``)."""
    s, e = m.span()
    nxt = _next_word(text, e)
    if nxt in NOT_DATE_AFTER or nxt in ("kcal", "calories", "steps", "patients", "cases", "ft", "feet", "meters"):
        return None
    prev = _prev_word(text, s)
    if prev in ("room", "rm", "bed", "ext", "x", "pager", "suite", "box", "unit", "#"):
        return None
    if CLOCK_RE.fullmatch(text, s, e) and (prev in CLOCK_BEFORE or text[max(0, s - 2) : s].strip() == "@") \
            and not (prev in _SPAN_END_BEFORE and nxt not in _CLOCK_AFTER
                     and (_LIFE_PAST_RE.search(text, max(0, s - 80), s) or int(text[e - 2 : e]) % 5)):
        return None  # "haldol 0.5 at 2000", "@ 1930": nursing notes time events on a 24-hour clock ("until 2012", "til
        # 2022": a clock that ends a span is a round one, "NPO until 2100"; a year ends a life's span)
    if CLOCK_RE.fullmatch(text, s, e) and (
            prev in CLOCK_EVENT_BEFORE or prev in CLOCK_OR_YEAR_BEFORE and _no_event_year(text[s:e])  # "LKW 1930", "given 1930"
            # "adm 3/2/24 1930", "SBAR handoff 1900 6/18": the date beside it has its year; the number is a time
            or _DATE_WITH_YEAR_BEFORE_RE.search(text, max(0, s - 16), s) or _MONTH_DAY_BESIDE_RE.match(text, e)):
        return None
    if _VALUE_ARROW_BEFORE_RE.search(text, max(0, s - 16), s) \
            or _ARROW_VALUE_AFTER_RE.match(text, e) and prev not in _YEAR_PREPOSITIONS and text[s - 1 : s] != "(":
        return None  # "CK 4200 -> 1900 -> 980", "BNP 1950 -> 800": a value in a trend ("in 2019 -> 6.8" is the year's)
    return s, e


#: Words before a year that say it is one, whatever follows it ("A1c 7.2 in 2019 -> 6.8").
_YEAR_PREPOSITIONS = frozenset("in since from of until til till by year yr circa around back during".split())
#: A trend's arrow with a value that is no year on its other side ("4200 -> 1900", "1900 -> 980", "1.2→1950").
_NOT_YEAR_VALUE = r"(?:\d{1,3}(?:\.\d+)?|\d{5,}|[3-9]\d{3}|1[0-8]\d\d|2[1-9]\d\d)"
_VALUE_ARROW_BEFORE_RE = re.compile(r"(?<![\w./-])" + _NOT_YEAR_VALUE + r"[ \t]{0,2}(?:->|-->|→|=>)[ \t]{0,2}$")
_ARROW_VALUE_AFTER_RE = re.compile(r"[ \t]{0,2}(?:->|-->|→|=>)[ \t]{0,2}" + _NOT_YEAR_VALUE + r"(?![\w/])")


def _no_event_year(digits: str) -> bool:
    """Are four digits no year of a dose or a procedure in a living patient's care (1900-1959)?"""
    return 1900 <= int(digits) <= 1959


#: A date that carries its year, right before a number ("3/2/24 1930", "2024-03-02 1930").
_DATE_WITH_YEAR_BEFORE_RE = re.compile(r"(?<![\w/.-])(?:\d{1,2}/\d{1,2}/(?:\d{4}|\d\d)|\d{4}-\d\d-\d\d)[ \t]{1,2}$")
#: A month and day right after a number ("1900 6/18"): a year is not written before them.
_MONTH_DAY_BESIDE_RE = re.compile(r"[ \t]{1,2}" + SLASHED_DATE_RE.pattern + r"(?![\w/])")


#: Words after a clock time that say it is one ("until 2000 tonight").
_CLOCK_AFTER = frozenset("tonight today tomorrow hrs hr h am pm this then".split())
#: Words before a clock time or a year that end a span of time ("until 2000", "until 2019").
_SPAN_END_BEFORE = frozenset(("until", "til", "till"))
#: A verb of a life's history in the past tense, in the clause before "until": the number after it is a year
#: ("DROVE FOR ACME UNTIL 2019"), not tonight's clock ("hold heparin until 2000", "NPO until 2100").
_LIFE_PAST_RE = re.compile(
    r"(?i)\b(?:lived|worked|drove|smoked|drank|used|served|attended|stayed|resided|taught|played|practi[cs]ed|volunteered"
    r"|studied|remained|owned|ran|managed|operated|was|were|had|went|employed|married"
    # a former job or place, with no verb ("previously a warehouse operative at ... until 2014", "RETIRED ... UNTIL 2019")
    r"|previously|formerly|former|retired)\b[^.;:\n]*$"
)


#: A word that narrows a month, a holiday or a day written before it ("late Sept", "LAST JULY", "the 3rd", "around
#: Thanksgiving"): annotators mark it inside the date, and left alone it keeps nothing a reader needs.
_DATE_MODIFIER_BEFORE_RE = re.compile(r"(?i)(?<![\w-])(?:early|mid|late|last|next|this|around|the)[ \t-]$")
_WORDY_DATE_RE = re.compile(r"[A-Za-z]|\d{1,2}(?:st|nd|rd|th|ST|ND|RD|TH)\b")


def date_modifiers(text: str, cands: list) -> list[Candidate]:
    """The dates of ``cands`` written with a word (a month, a holiday, an ordinal day) taken on over the modifier
    right before them ("late [Sept]" -> "[late Sept]"), as new DATE candidates overlapping their anchors."""
    out = []
    for c in cands:
        if c.category != "DATE" or c.start < 3 or not _WORDY_DATE_RE.match(text, c.start):
            continue
        m = _DATE_MODIFIER_BEFORE_RE.search(text, max(0, c.start - 7), c.start)
        if m is not None:
            out.append(Candidate(m.start(), c.end, "DATE", c.source, c.score))
    return out


#: The end of a range of days after a date that ends in its day ("Oct 2[-6]", "admitted 3/14[-16]").
_DAY_RANGE_END_RE = re.compile(r"[ \t]?[-–][ \t]?(\d{1,2})(?![\w/.:%-]|[.,]\d)")
_LAST_NUMBER_RE = re.compile(r"(\d{1,2})$")


def date_range_ends(text: str, cands: list) -> list[Candidate]:
    """The dates of ``cands`` that end in a day, taken on over the end of a range of days after them ("Oct 2-6"),
    when that end is a later day of the month."""
    out = []
    for c in cands:
        if c.category != "DATE" or c.end >= len(text) or text[c.end] not in " \t-–":
            continue
        day, m = _LAST_NUMBER_RE.search(text, c.start, c.end), _DAY_RANGE_END_RE.match(text, c.end)
        if day is not None and m is not None and int(day.group(1)) < int(m.group(1)) <= 31 \
                and _next_word(text, m.end()) not in NOT_DATE_AFTER:  # ("7/22-25 mg": a dose)
            out.append(Candidate(c.start, m.end(), "DATE", c.source, c.score))
    return out


def _year_range_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Two years, the second later and within a lifetime (``1985-1989``, ``2015-16``, ``2015/2016``), unless a unit or a count
    follows (``2015-2020 mL``) or a room or a box comes before."""
    a, b = re.split(r"[ \t]?[-–][ \t]?|/", m.group())
    first = int(a)
    last = int(b) if len(b) == 4 else first // 100 * 100 + int(b)
    if not first < last <= first + 80:
        return None
    return _year_ok(m, text)


def _month_year_range_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Two month/year dates whose months are months."""
    s, e = m.span()
    months = [int(x.split("/")[0]) for x in re.split(r"[ \t]?[-–][ \t]?", m.group())]
    return (s, e) if all(1 <= k <= 12 for k in months) else None


def _has_digit_slash(text: str, low: str) -> bool:
    return "/" in text


def _has_apostrophe(text: str, low: str) -> bool:
    return "'" in text or "’" in text


def _month_start() -> str:
    """Month words as one branch per first letter, so the compiled pattern starts with a set of letters."""
    by_first = {
        "j": r"an(?:uary)?|une?|uly?", "f": r"eb(?:ruary)?", "m": r"ar(?:ch)?|ay", "a": r"pr(?:il)?|ug(?:ust)?",
        "s": r"ep(?:t(?:ember)?)?", "o": r"ct(?:ober)?", "n": r"ov(?:ember)?", "d": r"ec(?:ember)?",
    }
    return "(?:" + "|".join(f"[{c}{c.upper()}](?<![^\\W][{c}{c.upper()}])(?:{rest})\\b" for c, rest in by_first.items()) + ")"


# [0-9], not \d: the pattern's day is ASCII digits, and a range scans ahead faster than a Unicode category
_ORD_GATE_RE = re.compile(r"[0-9](?:st|nd|rd|th)")
_WEEKDAY_STEMS = ("mon", "tue", "wed", "thu", "fri", "saturday", "sunday")
# the middle of every month/day range ("4/3-4/", "22 - 7/"), led by its first slash (a literal scan)
_MD_RANGE_GATE_RE = re.compile(r"/(?<=\d/)\d{1,2}(?:/\d{2,4})?\s?-\s?\d{1,2}/")
_YEAR_GATE_RE = re.compile(r"(?:19|20)\d\d")
# r"\d-(?:jan|...)" led by its hyphen (the digit checked behind it): a scan for one literal character is
# many times faster than one for a set of characters, and finds a match exactly when the plain form does
_DAY_MONTH_GATE_RE = re.compile(r"-(?<=\d-)(?:jan|feb|ma[ry]|apr|ju[nl]|aug|sep|oct|nov|dec)")
# a month word (any of its spellings: 3 letters and up to 6 more) then blanks and a digit, on the
# lower-cased text: one literal-led scan, ten times cheaper than the case-insensitive pattern itself
_MONTH_DAY_GATE_RE = re.compile(r"(?:jan|feb|ma[ry]|apr|ju[nl]|aug|sep|oct|nov|dec)[a-z]{0,6}\.?\s{1,3}\d")

# a month abbreviation, a hyphen and a digit (date_month_hyphen_day); a digit, a month abbreviation and a digit (date_compact)
# (the first led by its hyphen, the look-behind after it: the engine skips to hyphens; "sept-" ends "ept-")
_MONTH_HYPHEN_GATE_RE = re.compile(r"-(?<=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|ept|oct|nov|dec)-)\d")
# a digit, blanks, and a month word's start (date_day_month_any_case; its own pattern checks the rest)
_MONTH_STEM_ANY_RE = re.compile(r"\d(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?(?:jan|feb|march|apr|jun|jul|aug|sep|oct|nov|december)")
_MONTH_RANGE_GATE_RE = re.compile(r"[-–][ \t]?(?:jan|feb|ma[ry]|apr|ju[nl]|aug|sep|oct|nov|dec)")
_COMPACT_GATE_RE = re.compile(r"\d(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\d")
# every date_holiday_phrase match holds one of these (a sound gate: literal tests, no scan for the pattern)
_HOLIDAY_WORDS = ("christmas", "xmas", "new year", "newyear", "memorial", "independence", "valentine", "mother", "father",
                  "veterans", "columbus", "presidents", "patriots", "boxing", "labor", "labour")

DATE_RECOGNIZERS: list[Recognizer] = [
    Recognizer(
        "date_md",
        # the first character is a digit so the engine skips every other position; ranges checked in _md_ok
        # ("+5/40%" and "33 2/7 wk" are vent settings and weeks of gestation: no "+" before, no "%" after)
        r"[0-9](?<![\w/.:+-][0-9])[0-9]?/[0-9]{1,2}(?![\w/%]|[.:-]\d)",
        "DATE", 0.9, validator=_md_ok, gate=_has_digit_slash,
    ),
    Recognizer(
        "date_md_hyphen",
        r"[0-9](?<![\w/.:-][0-9])[0-9]?-[0-9]{1,2}(?![\w/-]|[.:]\d)",
        "DATE", 0.85, validator=_md_hyphen_ok, gate=lambda t, low: "-" in t,
    ),
    Recognizer(
        "date_ordinal",
        rf"(?P<d>[0-9](?<![\w/.-][0-9])[0-9]?)(?:st|nd|rd|th)\b(?P<of>\s{{1,3}}of\s{{1,3}}(?i:{MONTH_ANY})\b\.?(?:,?\s{{1,3}}(?:19|20)\d\d\b)?)?",
        "DATE", 0.9, validator=_ordinal_ok, gate=lambda t, low: _ORD_GATE_RE.search(low) is not None, flags=re.I,
    ),
    Recognizer(
        "date_month_day_any_case",
        # ("JAN 28/24": a Canadian month, day and two-digit year)
        _month_start() + r"\.?\s{1,3}(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?\b(?:/(?:19|20)?\d\d\b(?![/.:]\d))?"
        # (a count or a size after the day: "may 2 times", "jan 3 mm"; an ordinal day takes none: "jan 3rd  time in 1005")
        r"(?:(?<=st|nd|rd|th)|(?!\s{0,2}(?:mm|cm|ml|mg|lesions?|nodules?|days?|weeks?|times?|units?)\b))(?![/.:]\d)",
        "DATE", 0.9, flags=re.I, gate=lambda t, low: _MONTH_DAY_GATE_RE.search(low) is not None,
        # every match starts where the gate's scan finds a month word, blanks and a digit
        starts=_MONTH_DAY_GATE_RE.pattern,
    ),
    # words: looked up on the word tokens (a set lookup, no scan)
    Recognizer("date_month_name", None, "DATE", 0.85, lexicon=frozenset(_MONTHS_FULL)),
    Recognizer("date_month_may", None, "DATE", 0.8, validator=_may_ok, lexicon=frozenset({"may"})),
    Recognizer("date_month_abbrev_plain", None, "DATE", 0.8, lexicon=frozenset({"feb", "nov"})),  # ("last flare feb.")
    Recognizer(
        "date_month_abbrev", None, "DATE", 0.8, validator=_after_date_word,
        lexicon=frozenset("jan mar apr jun jul aug sep sept oct dec".split()),
    ),
    # holidays name a day ("over Thanksgiving", "xmas eve")
    Recognizer(
        "date_holiday", None, "DATE", 0.85,
        lexicon=frozenset("thanksgiving christmas xmas easter halloween hanukkah chanukah".split()),
    ),
    # "Xmas Eve", "New Year's Day", "Memorial Day": a holiday of two words names one day
    Recognizer(
        "date_holiday_phrase",
        r"\b(?:(?:christmas|xmas|new ?years?['’]?s?)\s{1,2}(?:eve|day)|new ?year['’]s|(?:memorial|independence|valentine['’]?s|"
        r"mother['’]?s|father['’]?s|veterans['’]?|columbus|presidents['’]?|patriots['’]?|boxing|labou?r)\s{1,2}day)\b",
        "DATE", 0.85, flags=re.I,
        gate=lambda t, low: (" day" in low or " eve" in low or "new year" in low or "newyear" in low)
        and any(w in low for w in _HOLIDAY_WORDS),
    ),
    Recognizer(
        "date_day_month_any_case",
        # "14 MARCH", "14 mar" is no date but "3 jan", "22 SEPT" are: a day and a month in a one-case line, where
        # DATE_RE's capitalised month does not reach ("may" is a verb, "MAR" the medication record and "3 dec" decreased:
        # left out; "x 2 oct" is a count)
        r"[0-9](?<![\w/.:-][0-9])[0-9]?(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?"
        r"(?i:jan(?:uary)?|feb(?:ruary)?|march|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|december)\b\.?",
        "DATE", 0.85, validator=lambda m, t: None if _prev_word(t, m.start()) == "x" else m.span(),
        gate=lambda t, low: _MONTH_STEM_ANY_RE.search(low) is not None,
    ),
    Recognizer(
        "date_day_month",
        # "7-Apr", "22-SEPT": day, hyphen, month abbreviation, no year
        r"[0-9](?<![\w/.-][0-9])[0-9]?-(?i:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)\b(?!-\d)",
        "DATE", 0.85, gate=lambda t, low: _DAY_MONTH_GATE_RE.search(low) is not None,
    ),
    Recognizer(
        "date_month_hyphen_day",
        # "Jan-5", "SEPT-22": a month abbreviation, hyphen, day (the mirror of date_day_month)
        r"(?<![\w/-])(?i:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)-(?:3[01]|[12][0-9]|0?[1-9])(?![\w/-]|[.:]\d)",
        "DATE", 0.85, gate=lambda t, low: _MONTH_HYPHEN_GATE_RE.search(low) is not None,
    ),
    Recognizer(
        "date_month_range",
        # "jan-apr 2024", "X6 FEB-APR": two months joined by a dash, with or without a year (the tokens see one
        # hyphenated word, so the first month has no date word of its own); the tune notes mark four bare ranges in five
        # as dates ("winters in Boca Raton Dec-Mar"), the fifth a season ("worse apr-may")
        r"(?<![\w-])" + MONTH_ANY + r"\.?[ \t]?[-–][ \t]?" + MONTH_ANY + r"\b(?:\.?,?[ \t]{1,2}(?:(?:19|20)\d\d|['’]\d\d)\b)?",
        "DATE", 0.85, flags=re.I, gate=lambda t, low: _MONTH_RANGE_GATE_RE.search(low) is not None,
    ),
    Recognizer(
        "date_compact",
        # "01Jan2020", "5JAN21": an export's day, month abbreviation and year written together
        r"[0-9](?<![\w][0-9])[0-9]?(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:[0-9]{4}|[0-9]{2})(?![\w])",
        "DATE", 0.9, gate=lambda t, low: _COMPACT_GATE_RE.search(low) is not None,
    ),
    Recognizer(
        "date_md_range",
        # "abx 3/24-3/30", "7/22 - 7/25": date_md's look-arounds refuse each half of a range
        # (the first digit first, the look-behind after it: the engine skips every other position)
        # (either half may carry its year: "admitted 5/2-5/14/24", "5/2/24-5/14/24")
        r"(?P<a>\d(?<![\w/.:+-]\d)\d?/\d{1,2})(?P<ay>/(?:\d{4}|\d\d))?\s?-\s?(?P<b>\d{1,2}/\d{1,2})(?P<by>/(?:\d{4}|\d\d))?"
        r"(?![\w/%]|[.:-]\d)",
        "DATE", 0.9, validator=_md_range_ok, gate=lambda t, low: _MD_RANGE_GATE_RE.search(t) is not None,
    ),
    Recognizer(
        "date_part_of_month",
        # "mid-March", "early-Jan", "late-december": the hyphen makes one word of them
        r"\b(?:early|mid|late)-(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
        r"sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b",
        "DATE", 0.85, flags=re.I, gate=lambda t, low: "-" in t and ("mid-" in low or "early-" in low or "late-" in low),
    ),
    Recognizer(
        "date_season_year",
        # "spring of 2079", "Winter '98", "fall of 2019" ("fall 2019" alone is an event: s/p fall 2019)
        # ("in fall 2021", "dx fall 2021", "fall '23": after "in" or a diagnosis, or before a year's two digits, a season)
        r"\b(?:spring|summer|autumn|winter|fall(?=\s{1,3}of\b|\s{1,3}['’]\d)|(?<=\bin )fall|(?<=\bdx )fall)"
        r"\s{1,3}(?:of\s{1,3})?(?:(?:19|20)\d\d|['’]\d\d)\b",
        "DATE", 0.85, flags=re.I,
        gate=lambda t, low: ("spring" in low or "summer" in low or "autumn" in low or "winter" in low or "fall" in low)
        and any(map(str.isdigit, t)),
    ),
    Recognizer(
        "date_weekday", None, "DATE", 0.85,
        lexicon=_WEEKDAYS - {"sat", "sun"},  # ("sat", "sun": date_weekend_abbrev, with evidence)
    ),
    Recognizer("date_weekend_abbrev", None, "DATE", 0.8, validator=_weekend_ok, lexicon=frozenset({"sat", "sun"})),
]

#: Studies whose year stands before their findings' colon ("MRI 2023: ...").
_STUDY_WORDS = frozenset(
    "mri mra ct cta echo tte tee eeg emg cxr xr xray pet colonoscopy egd mammo mammogram dexa pft pfts cath biopsy "
    "bx holter ekg ecg us ultrasound angio angiogram dxa".split()
)
#: Words before a year and its colon that make the year a date: a study's ("MRI 2023:") or "in" ("Last DXA in 2016:"; a
#: nurse's time-stamped entry never follows "in").
_STUDY_YEAR_BEFORE = _STUDY_WORDS | {"in"}

#: Year-only recognisers, off when ``years="keep"``.
YEAR_RECOGNIZERS: list[Recognizer] = [
    Recognizer("date_year_apostrophe", r"['’](?<![\w'’]['’])\d\d(?![\w'’]|[.,:/-]\d)", "DATE", 0.88, gate=_has_apostrophe),
    Recognizer(
        "date_year",
        r"[12](?<![\w/.:,#-][12])(?:(?<=1)9\d\d|(?<=2)0[0-3]\d)(?![\w/%:-]|[.,]\d)",
        "DATE", 0.8, validator=_year_ok, gate=lambda t, low: _YEAR_GATE_RE.search(t) is not None,
    ),
]
YEAR_RECOGNIZERS.append(
    Recognizer(
        "date_year_of_study",
        # "MRI 2023: L MESIAL ...", "Echo 2023: no residual shunt": a study's year before its findings' colon (date_year
        # leaves a year before a colon: "2030: pt resting" is a nurse's time-stamped entry); led by the year's digits,
        # the study's word checked behind it (a scan for a word list in any case costs a tenth of a note's rules)
        r"[12](?<![\w/.:,#-][12])(?:(?<=1)9\d\d|(?<=2)0[0-3]\d)(?=:)",
        "DATE", 0.85, validator=lambda m, text: m.span() if _prev_word(text, m.start()) in _STUDY_YEAR_BEFORE else None,
        gate=lambda t, low: ":" in t and _YEAR_GATE_RE.search(t) is not None,
    )
)
YEAR_RECOGNIZERS.append(
    Recognizer(
        "date_year_range",
        # "ARMY 1985-1989", "(Fosamax 2015-2020)", "2015-16": date_year's look-arounds refuse each half of a range
        # ("cataracts OU 2015/2016": two whole years, a slash between them)
        r"[12](?<![\w/.:,#-][12])(?:(?<=1)9\d\d|(?<=2)0[0-3]\d)(?:[ \t]?[-–][ \t]?(?:19\d\d|20[0-3]\d|\d\d)|/(?:19\d\d|20[0-3]\d))"
        r"(?![\w/%:-]|[.,]\d)",
        "DATE", 0.85, validator=_year_range_ok,
        gate=lambda t, low: _YEAR_GATE_RE.search(t) is not None and ("-" in t or "–" in t or "/" in t),
    )
)
DATE_RECOGNIZERS.append(
    Recognizer(
        "date_month_year_range",
        # "(1/2023-6/2023)": two month/year dates joined (date_md_range's halves are month/day)
        r"[0-9](?<![\w/.:+-][0-9])[0-9]?/(?:19|20)\d\d[ \t]?[-–][ \t]?[0-9]{1,2}/(?:19|20)\d\d(?![\w/%]|[.:-]\d)",
        "DATE", 0.9, validator=_month_year_range_ok, gate=lambda t, low: "/" in t and _YEAR_GATE_RE.search(t) is not None,
    )
)
DATE_RECOGNIZERS.extend(YEAR_RECOGNIZERS)
YEAR_NAMES = frozenset(r.name for r in YEAR_RECOGNIZERS)

_TRAILING_YEAR_RE = re.compile(r"(?:[\s,./-]{1,3}|['’])(?:(?:19|20)\d\d|\d\d)$")
_LEADING_YEAR_RE = re.compile(r"^(?:19|20)\d\d(?:[-/.]|(?=\d{4}))")


def strip_year(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of a date without its year (Safe Harbor keeps years): ``03/14/[1961]``, ``[1961]-03-14``.

    Returns None when nothing but the year is left.
    """
    v = text[start:end]
    m = _LEADING_YEAR_RE.match(v)
    if m and m.end() < len(v):
        return start + m.end(), end
    m = _TRAILING_YEAR_RE.search(v)
    # a two-digit year only ends a date of three numbers ("3/14/61"), never "3/14"
    if m and m.start() > 0 and (len(m.group().strip(" ,./-'’")) == 4 or len(re.findall(r"\d+", v)) >= 3 or m.group()[0] in "'’"):
        return start, start + m.start()
    if re.fullmatch(r"['’]?(?:(?:19|20)\d\d|\d\d)", v):
        return None
    return start, end


__all__ = ["DATE_RECOGNIZERS", "NOT_DATE_AFTER", "NOT_DATE_BEFORE", "YEAR_NAMES", "YEAR_RECOGNIZERS", "date_modifiers", "date_range_ends", "strip_year"]
