"""L2: context-aware masking of residual identifier-like tokens near anchors.

Presidio's context enhancer, adapted: every token gets a *base score* from its
shape alone (a Title-case word that is not a clinical or function word, a
known first/last name, an alphanumeric code with digits, a long digit run…);
the score is *boosted* when an anchor word ("Patient", "Name", "DOB", "MRN",
"ID", "Hospital", "seen at", "Dr.", "admitted to", "born"…) or an earlier
placeholder (``[NAME]``) lies within a window of tokens; a token scoring at or
above ``threshold`` is masked. The anchor also decides the category
(``born 1961`` -> ``[DATE]``, ``seen at Riverside`` -> ``[HOSPITAL]``).

What L2 adds over L1: lower-case names after cues ("patient john smith"),
bare surnames and codes next to anchors ("MRN 4471", "ID: QX77"), and the
second half of a name whose first half L1 already replaced ("[NAME] Jr").
Clinical tokens (lexicon words, "T2", "C5-C6", "5 cm") have base score 0, so
no anchor can push them over the threshold.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from clinx.records import Manifest
from clinx.text.base import PLACEHOLDER_RE, Candidate, TextResult, apply_candidates, check_text, drop_inside
from clinx.text.clinical import CLINICAL_CODE_RE
from clinx.text.dates import CLOCK_BEFORE, CLOCK_EVENT_BEFORE, CLOCK_OR_YEAR_BEFORE, CLOCK_RE, PHONE_AS_MEANS_RE, month_day_rejected
from clinx.text.evidence import (
    CARE_WORDS,
    HEAD_AS_ADJECTIVE,
    OCCUPATIONS,
    ROLES,
    STATE_NAMES,
    TIME_WORDS,
    US_STATES,
    check_states,
    classify,
    compass_letters_of_places,
    cut_regions_out,
    drop_state_and_country_parts,
    nicknames_of_found_names,
    regions_after_places,
    report_verb_word,
    scored_eponym,
    street_words_after_places,
    streets_after_places,
    streets_meeting_places,
)
from clinx.text.institutions import (
    articles_of_institutions,
    at_names_of_institutions,
    complete_institutions,
    join_institution_parts,
    openers_of_institutions,
    possessive_businesses,
)
from clinx.text.lexicons import first_names, fold
from clinx.text.ner import make_ner
from clinx.text.rules import (
    NON_NAMES, _extend_name_left, towns_after_institutions, given_names_before_names, partners_after_names, initials_before_names, middle_initials_after_names, given_names_after_header_surnames, id_prefixes, initials_beside_names, surnames_closing_names, name_gazetteer, phone_extensions, signer_codes,
    typists_after_names,
)

#: Single-word anchors -> the category a boosted token most likely has.
ANCHORS: dict[str, str] = {
    # people
    "patient": "NAME", "pt": "NAME", "name": "NAME", "named": "NAME", "mr": "NAME", "mrs": "NAME",
    "ms": "NAME", "miss": "NAME", "dr": "NAME", "doctor": "NAME", "physician": "NAME", "radiologist": "NAME",
    "surgeon": "NAME", "attending": "NAME", "nurse": "NAME", "mother": "NAME", "father": "NAME",
    "wife": "NAME", "husband": "NAME", "son": "NAME", "daughter": "NAME", "guardian": "NAME",
    "re": "NAME", "attn": "NAME", "signed": "NAME", "dictated": "NAME", "referred": "NAME", "called": "NAME", "mrs.": "NAME",
    "mr.": "NAME", "dr.": "NAME", "ms.": "NAME", "prof": "NAME", "prof.": "NAME", "rabbi": "NAME", "rev": "NAME",
    "reverend": "NAME", "pastor": "NAME", "imam": "NAME",
    # dates
    "dob": "DATE", "d.o.b": "DATE", "d.o.b.": "DATE", "born": "DATE", "birth": "DATE", "birthday": "DATE",
    "date": "DATE", "dated": "DATE", "admitted": "DATE", "discharged": "DATE", "deceased": "DATE",
    # record numbers and ids
    "mrn": "MRN", "record": "MRN", "chart": "MRN", "accession": "ACCESSION", "acc": "ACCESSION",
    "id": "ID", "identifier": "ID", "ssn": "SSN", "account": "ID", "acct": "ID", "case": "ID",
    "number": "ID", "#": "ID", "policy": "ID", "insurance": "ID", "serial": "ID", "s/n": "ID",
    # institutions and places
    "hospital": "HOSPITAL", "clinic": "HOSPITAL", "center": "HOSPITAL", "centre": "HOSPITAL",
    "facility": "HOSPITAL", "institution": "HOSPITAL", "infirmary": "HOSPITAL", "ward": "HOSPITAL",
    "address": "LOCATION", "lives": "LOCATION", "resides": "LOCATION", "city": "LOCATION", "town": "LOCATION",
    "zip": "ZIP",
    # contact
    "phone": "PHONE", "pager": "PHONE", "beeper": "PHONE", "pgr": "PHONE", "tel": "PHONE", "telephone": "PHONE", "fax": "PHONE", "cell": "PHONE", "email": "EMAIL",
    "age": "AGE", "aged": "AGE",
}

#: Two-word anchors (checked on consecutive lower-cased tokens).
ANCHOR_PAIRS: dict[tuple[str, str], str] = {
    ("seen", "at"): "HOSPITAL", ("admitted", "to"): "HOSPITAL", ("transferred", "from"): "HOSPITAL",
    ("transferred", "to"): "HOSPITAL", ("treated", "at"): "HOSPITAL", ("referred", "from"): "HOSPITAL",
    ("imaged", "at"): "HOSPITAL", ("performed", "at"): "HOSPITAL", ("seen", "by"): "NAME",
    ("referred", "by"): "NAME", ("read", "by"): "NAME", ("born", "on"): "DATE", ("born", "in"): "DATE",
    ("date", "of"): "DATE", ("study", "for"): "NAME", ("results", "for"): "NAME", ("scan", "of"): "NAME",
    ("study", "of"): "NAME", ("images", "of"): "NAME", ("lives", "in"): "LOCATION", ("resident", "of"): "LOCATION",
}

#: Words before a place on the ward; the number after one is the room's, the bed's or the bay's (not an apartment's or
#: a unit's, which may be part of an address).
_PLACE_IN_WARD_WORDS = frozenset("room rm bed bay pod stretcher chair cubicle".split())
_NUMERIC_CATS = frozenset({"DATE", "MRN", "ACCESSION", "ID", "SSN", "PHONE", "ZIP", "AGE"})
_ALPHA_CATS = frozenset({"NAME", "HOSPITAL", "LOCATION"})

# Tokens: placeholders, or runs of word characters with inner ./-#' (bounded length).
_TOKEN_RE = re.compile(r"\[[A-Z]{2,10}\]|[#]|[^\W_](?:[\w'’./#-]{0,48}[^\W_])?")
# the same for ASCII text ([^\W_] is A-Z, a-z, 0-9 there and "’" cannot occur): the same matches
# (a property test checks), with plain ranges the engine can skip on instead of Unicode categories
_TOKEN_RE_ASCII = re.compile(r"\[[A-Z]{2,10}\]|[#]|[A-Za-z0-9](?:[\w'./#-]{0,48}[A-Za-z0-9])?")
_PLACEHOLDER_TOKEN_RE = re.compile(r"\[[A-Z]{2,10}\]")
_HAS_DIGIT_RE = re.compile(r"\d")
# "4x3", "550x12", "2.5x1.8": sizes and vent settings (volume x rate), no codes
# ... and "3-in-1" / "3-IN-1" (a commode), "7P-7A", "11p-7a" (a nursing shift)
_DIMENSION_RE = re.compile(r"\d+(?:\.\d+)?[xX]\d+(?:\.\d+)?(?:[xX]\d+(?:\.\d+)?)?|\d-(?i:in)-\d|\d{1,2}[aApP][mM]?-\d{1,2}[aApP][mM]?")
#: Names of a score or a vital sign: a slash number right after one is that, even near a date cue ("born at 0312, apgars 8/9").
_SCORE_NAMES = frozenset("apgar apgars bp sbp dbp pain strength gcs moca mmse score murmur grade reflexes pulses".split())
# "3/14", "3-14-61", "03.14.61"; a dotted pair is a decimal ("INR 3.4", "TMAX 38.6"), no date
_DATEISH_RE = re.compile(r"\d{1,4}[/-]\d{1,2}(?:[/-]\d{1,4})?|\d{1,4}\.\d{1,2}\.\d{1,4}")
# "HR 150s", "SBP 90's", "sats high 80S": readings in a decade, no identifier
_READINGS_RE = re.compile(r"\d{0,2}0['’]?[sS]|\d{1,3}[xX](?:/[A-Za-z]{1,5})?")  # ...and "2x", "10x/hr", "10X/HR": a frequency
# "60cc/hr", "5mg", "2units/kg": a dose or a rate, no identifier
_DOSE_RE = re.compile(r"\d+(?:\.\d+)?(?:cc|ml|mls|mg|mcg|g|gm|kg|l|u|units?|meq|mmol|gtts?)(?:/(?:hr|h|min|kg|day|d))*", re.I)
# "10am", "4:15pm" (read as "15pm" after the colon), "9p": a clock time, no identifier
_AMPM_RE = re.compile(r"\d{1,2}(?:[ap]m?|[ap]\.m\.?)", re.I)
_NUMBER_CATS = frozenset({"MRN", "ACCESSION", "ID", "SSN", "PHONE", "ZIP"})
#: Wards named by a floor and a side ("TRANSFERRED TO 5 EAST", "7 North"): a hospital's unit, no institution.
_WARD_SIDES = frozenset("north south east west n s e w".split())
#: Units that are also names or places ("150 ft" and Ft. Lauderdale, "2 mi"): no name right after a number.
_UNITS_AFTER_NUMBER = frozenset("ft mi yd yds km".split())
#: Words that may stand between an ID word and its number ("ID no. 4471", "record number is 4471").
_ID_CONNECTORS = frozenset({"no", "num", "number", "nr", "is", "#", "of"})
# "48h", "x12", "3y1m", "28w2d", "10d": a duration, a count or a child's or a pregnancy's age in shorthand, no code
# (in any case: "(12H POST DOSE)" in a note in capitals)
_COUNT_RE = re.compile(r"[xX]\d{1,3}|\d{1,3}(?:\.\d)?(?:h|hr|hrs|d|wk|wks|mo|mos|min|mins)|\d{1,2}[yY]\d{1,2}[mM]|\d{1,2}[wW]\d[dD]", re.I)
#: "4-6", "10-14": a range of small numbers, and the unit of time or count after one ("4-6 WK", "2-3 x/day").
_RANGE_RE = re.compile(r"\d{1,2}-\d{1,2}")
#: A bed or a bay as a sign-out writes one, alone or as a range of beds ("B4", "B7-12"): no ID without an ID's cue.
_BED_CODE_RE = re.compile(r"[A-Za-z]\d{1,2}(?:-\d{1,2})?")
_UNIT_AFTER_RANGE_RE = re.compile(r"[ \t]{0,2}(?:wks?|weeks?|days?|d|hrs?|hours?|h|mos?|months?|min|mins|minutes|yrs?|years?|x|times)\b", re.I)
#: A day of a course of treatment ("oseltamivir d5/5", "vanc day3"): after an ID word some words back (the ID system's
#: header), a count, no identifier.
_DAY_OF_COURSE_RE = re.compile(r"(?i)d(?:ay)?\d{1,2}(?:/\d{1,2})?")
#: "@" or "~" right before a four-digit number: a clock time ("@ 1630", "~0600"), never a phone's or an ID's digits.
_TIME_MARK_BEFORE_RE = re.compile(r"[@~][ \t]?$")
#: Words before a four-digit clock time ("LM at 0320", "@ 2230"): no phone or ID number stands there. "since" too,
#: which the date rules leave out ("since 2000" there is a year; beside a removed phone number it is the hour).
_TIME_PREPS = CLOCK_BEFORE | frozenset(("since", "~", "before", "after"))  # ("IF QS BEFORE 0700": an hour)
#: Words of a ward's events before a four-digit clock time beside a removed phone number ("[PHONE] notified 0545",
#: "RETURNED CALL 0240"): the hour of the call, no extension.
_CLOCK_EVENT_WORDS = CLOCK_EVENT_BEFORE | CLOCK_OR_YEAR_BEFORE | frozenset(("call", "lvm", "lm", "vm", "aware", "removal"))
# ages, also as age-and-sex shorthand ("72M", "45F", "67yom"): ages under 90 are no identifiers (L1 removes the others)
_AGE_WORD_RE = re.compile(r"\d{1,3}-?(?:years?|yrs?|months?|weeks?|days?|y/?o|[mf]|yo[mf]|yow[mf])(?:-old)?", re.I)
# r"[.?!;\n]\s|\n" written to start on one character set (the engine skips other positions)
_SENT_BREAK_RE = re.compile(r"[.?!;\n](?:(?<=[.?!;\n])\s|(?<=\n))")
_SEP_ONLY_RE = re.compile(r"[\s,:;=()-]{0,4}")
#: First words of the two-word anchors: the pair lookup runs only after one of them
#: (built once here, not on every call).
_PAIR_FIRSTS = frozenset(a for a, _ in ANCHOR_PAIRS)


_ABBREV = frozenset("dr mr mrs ms st mt ft prof no vs jr sr dept approx e.g i.e".split())


#: A dot after this many letters or more ends a sentence: no abbreviation in _ABBREV is as long.
_ABBREV_REACH = max(len(w) for w in _ABBREV) + 1


def _sentence_breaks(text: str) -> list[int]:
    """Offsets where a new sentence or line starts; "Dr. Smith" and initials do not break."""
    out = []
    for m in _SENT_BREAK_RE.finditer(text):
        i = m.start()
        if text[i] == ".":
            # the letters before the dot, looked at only as far as the longest abbreviation and one more:
            # a longer word is neither an abbreviation nor an initial (the plain form in the tests walks the whole word)
            j = i
            stop = i - _ABBREV_REACH if i > _ABBREV_REACH else 0
            while j > stop and text[j - 1].isalpha():
                j -= 1
            if i - j < _ABBREV_REACH:
                word = text[j:i].lower()
                if word in _ABBREV or len(word) == 1:
                    continue
        out.append(m.end())
    return out


_ZIP_NEXT_RE = re.compile(r"[ \t]{1,2}(?:\d{5}(?:-\d{4})?\b|\[ZIP\])")
#: Second word of a two-word state -> its first ("hampshire" of "new hampshire").
_STATE_SECOND: dict[str, set[str]] = {}
for _first, _, _second in (s.partition(" ") for s in STATE_NAMES if " " in s):
    if _second not in STATE_NAMES:
        _STATE_SECOND.setdefault(_second, set()).add(_first)


def _new_clause_after(text: str, e: int, s: int, ph_cat: str | None, low: str) -> bool:
    """Does an everyday word that is also a name start a new clause after a removed place (``[HOSPITAL], fall``), or a
    word that is no name open a parenthesis describing a removed institution (``[HOSPITAL] (bar)``)?

    After a person's name a comma may join a given name ("[NAME], John"), no other word; after an
    institution or a place it ends the name, and an ambiguous word there is the sentence's ("home with [HOSPITAL], daily
    visits", "from [HOSPITAL], fall at home"), not an identifier beside it.
    """
    if ")" in text[e:s]:
        return True  # "st. luke's ([LOCATION]) prior to transfer": a closed parenthesis ends the name it held
    if ph_cat == "HOSPITAL" and "(" in text[e:s] and classify(low) not in ("N", "U"):
        return True  # "[HOSPITAL] (bar)", "[HOSPITAL] (ice cream place)": what kind of place it is, no more of its name
    if "," not in text[e:s] or classify(low) != "A":
        return False
    # after a removed name, only a given name may follow the comma ("[NAME], Will" of "Smith, Will"; not "call back")
    return ph_cat in ("HOSPITAL", "LOCATION") or ph_cat == "NAME" and low not in first_names()


def _shape_score(t: str, low: str, start: int, text: str, first: frozenset, last: frozenset, lower_text: bool) -> tuple[float, str]:
    """Base score and shape class (``alpha``/``numeric``) of token ``t`` at ``start``, from its shape alone.

    ``lower_text``: ``text`` is written all in lower case (:func:`_all_lower`), so lower case says nothing.
    """
    if low in NON_NAMES or low.rstrip(".") in NON_NAMES or scored_eponym(text, low, start + len(t)):
        return 0.0, "alpha"  # ("ALVARADO 8", "Ottawa ankle rules +": a score or a rule, no person or town)
    if (low in _UNITS_AFTER_NUMBER or low in _WARD_SIDES) and start >= 2 and text[start - 1] == " " and text[start - 2].isdigit():
        # "ambulated 150 ft": a unit after its number ("Ft. Lauderdale" stays a place); "to 5 East": a ward
        return 0.0, "alpha"
    if _HAS_DIGIT_RE.search(t):
        if CLINICAL_CODE_RE.fullmatch(t) or _AGE_WORD_RE.fullmatch(t) or _DIMENSION_RE.fullmatch(t) or _READINGS_RE.fullmatch(t) \
                or _AMPM_RE.fullmatch(t) or _DOSE_RE.fullmatch(t) or _COUNT_RE.fullmatch(t):
            return 0.0, "numeric"
        digits = sum(ch.isdigit() for ch in t)
        if t.isdigit():
            return (0.45 if digits >= 4 else 0.15), "numeric"
        if _DATEISH_RE.fullmatch(t):
            return 0.5, "numeric"
        if digits >= 2 and any(ch.isalpha() for ch in t):
            return (0.5 if digits >= 3 else 0.35), "numeric"
        return 0.1, "numeric"
    if not t[0].isalpha():
        return 0.0, "alpha"
    if low in STATE_NAMES or low in _STATE_SECOND and (text[max(0, start - 8) : start].lower().split() or [""])[-1] in _STATE_SECOND[low]:
        return 0.0, "alpha"  # "lives in florida", "moved from new hampshire": a state is no identifier (Safe Harbor)
    if len(t) == 2 and (t.isupper() or lower_text) and low in US_STATES and (
            text[max(0, start - 2) : start].lstrip(" ").startswith(",") or _ZIP_NEXT_RE.match(text, start + 2)):
        return 0.0, "alpha"  # "Somerville, MA", "chelsea ma 02150": the state after a town, or before its ZIP code
    # lexicon class, not capitalisation, decides (see clinx.text.evidence): everyday and
    # clinical words are never candidates, ambiguous names need more than one piece of evidence
    cls = classify(fold(t), t)
    if cls == "W" and t[0].isupper() and not t.isupper() and low not in CARE_WORDS and low not in OCCUPATIONS and low not in TIME_WORDS and start > 0 and text[start - 1] == " " and text[start - 2 : start - 1] not in (".", ":", "?", "!", "\n") \
            and text[start + len(t) : start + len(t) + 1] != ":":
        # (a word before a colon heads a section: "Hospital Course:", "Clinic Visit:")
        # a capitalised everyday word mid-sentence: a place or institution name only right after
        # a place anchor ("seen at Riverside"); the loop below checks the anchor's category
        return 0.25, "place"
    if cls in ("C", "W"):
        return 0.0, "alpha"
    if cls == "N":
        # a name in lower case inside mixed-case text is more likely a foreign or rare word ("el", "claro")
        if t[0].islower() and not lower_text:
            return 0.2, "alpha"
        return 0.5, "alpha"
    if cls == "A" and (low in OCCUPATIONS or low in ROLES):
        return 0.0, "alpha"  # "[HOSPITAL] driver", "[HOSPITAL] Medic 81": a worker of the place, not its name
    if cls == "A":
        # an ambiguous word in lower case is the everyday word ("a person", "will"); L1's cues
        # catch the lower-case names that follow "wife", "dr"
        if report_verb_word(t):
            return 0.0, "alpha"  # "[NAME] STATES PT WAS CONFUSED": a verb of saying after a removed name ("States" is a surname too)
        if t[0].islower():
            return (0.2 if lower_text else 0.0), "alpha"
        return 0.2, "alpha"
    # unknown words: a capitalised one mid-sentence in mixed case is a proper noun more often than not
    if t[0].isupper() and not t.isupper():
        i = start - 1
        while i >= 0 and text[i] in " \t":
            i -= 1
        initial = i < 0 or text[i] in ".?!:;\n"
        return (0.2 if initial else 0.35), "alpha"
    if t.isupper() and len(t) > 1:
        return 0.2, "alpha"
    return 0.0, "alpha"


#: matched token text -> what L2 knows of it from its characters alone (see :func:`_token_info`);
#: every entry is a pure function of the key, so what was seen before never changes a result
_TOKEN_INFO: dict[str, tuple] = {}


def _token_info(g: str) -> tuple:
    """``(t, low, anchor, pair_first, skip, digit_score, placeholder, length, special)`` for the matched token text ``g``.

    ``t`` is the token without a possessive "'s"; ``anchor`` its single-word anchor category
    (``None`` when it is none); ``pair_first`` whether a two-word anchor may start with it; ``skip``
    whether it can never be a candidate wherever it stands (an anchor, a clinical or function word,
    a lower-case or all-capitals everyday word, a number :func:`_shape_score` scores 0);
    ``digit_score`` :func:`_shape_score`'s answer for a token with a digit (it depends on the
    characters alone), else ``None``; ``placeholder`` whether it is a ``[CATEGORY]`` placeholder;
    ``length`` is ``len(t)`` and ``special`` is ``anchor or pair_first or placeholder`` (both read
    once per token of every text: kept here, they are not recomputed).
    """
    t = g
    if len(t) > 2 and t[-2] in "'’" and t[-1] in "sS":
        t = t[:-2]  # possessive: the token is the name, not the "'s"
    low = t.lower()
    ph = t[0] == "[" and _PLACEHOLDER_TOKEN_RE.fullmatch(t) is not None
    # rstrip changes the word (and the second lookup) only when it ends in "." or ":"
    anchor = ANCHORS.get(low) or (low[-1] in ".:" and ANCHORS.get(low.rstrip(".:"))) or None
    has_digit = _HAS_DIGIT_RE.search(t) is not None
    skip = low in ANCHORS or low.rstrip(".:") in ANCHORS or low in NON_NAMES
    c0 = t[0]
    if not skip and c0.isalpha():
        # a lower-case word that no lexicon calls a name, or a clinical word, in any case ("PMH", "CAD",
        # "Lasix"), scores 0 (classify(), not a look in its cache: what was classified before must not count)
        cls = classify(fold(t))
        first, last = name_gazetteer()
        if cls == "C" or (cls == "W" or cls is None and not (low in first or low in last)) and c0.islower() and not has_digit:
            skip = True
        # an everyday word in capitals ("CHIEF COMPLAINT") too (only a Title-case one can be a place name)
        elif cls == "W" and t.isupper() and not has_digit:
            skip = True
    digit_score = None
    if not skip and has_digit:
        first, last = name_gazetteer()
        # the context arguments are not read for a token with a digit
        digit_score = _shape_score(t, low, 0, t, first, last, False)
        skip = digit_score[0] <= 0.0
    if len(_TOKEN_INFO) > 100_000:
        _TOKEN_INFO.clear()
    pair_first = low in _PAIR_FIRSTS
    info = _TOKEN_INFO[g] = (t, low, anchor, pair_first, skip, digit_score, ph, len(t), bool(anchor or pair_first or ph))
    return info


def _all_lower(text: str) -> bool:
    """Is ``text`` written all in lower case (placeholders aside)? Then lower case says nothing."""
    s = _PLACEHOLDER_TOKEN_RE.sub("", text) if "[" in text else text
    if s.isascii():
        return s == s.lower()  # in ASCII only A-Z are upper case, and lower() changes exactly those
    return not any(ch.isupper() for ch in s)


class ContextEnhancer:
    """Score tokens by shape + nearby anchors; return L2 candidates.

    ``window`` is how many tokens before a candidate an anchor may stand,
    ``after`` how many after (``"Smith, patient"``); ``boost`` is added once
    when an anchor is in range, ``placeholder_boost`` when an earlier
    placeholder is adjacent; ``threshold`` is the masking cut-off.
    """

    def __init__(
        self,
        *,
        window: int = 4,
        after: int = 1,
        boost: float = 0.35,
        placeholder_boost: float = 0.3,
        threshold: float = 0.6,
        years: str = "remove",
    ):
        if years not in ("remove", "keep"):
            raise ValueError(f"years must be 'remove' or 'keep', got {years!r}")
        # text.years=keep (HIPAA Safe Harbor keeps years): no year is a candidate, cue or not ("born 1961")
        self.keep_years = years == "keep"
        self.window = int(window)
        self.after = int(after)
        self.boost = float(boost)
        self.placeholder_boost = float(placeholder_boost)
        self.threshold = float(threshold)

    def find(self, text: str, covered: list[tuple[int, int]] | None = None) -> list[Candidate]:
        """Candidates in ``text``; ``covered`` spans (already found by L1) are anchors, not candidates."""
        check_text(text)
        first, last = name_gazetteer()
        # one pass over the tokens: offsets, and what each token's text alone says (memoised per
        # text, see _token_info); only tokens that may anchor or may be candidates are visited again
        starts: list[int] = []
        ends: list[int] = []
        infos: list[tuple] = []
        special: list[int] = []  # placeholders, anchors and first words of two-word anchors
        maybe: list[int] = []  # tokens that may be candidates
        info_of = _TOKEN_INFO.get
        i = 0
        for m in (_TOKEN_RE_ASCII if text.isascii() else _TOKEN_RE).finditer(text):
            g = m.group()
            info = info_of(g) or _token_info(g)
            s = m.start()
            starts.append(s)
            ends.append(s + info[7])
            infos.append(info)
            if info[8]:
                special.append(i)
            if not info[4]:
                maybe.append(i)
            i += 1
        n = i
        if not n:
            return []
        covered = sorted(covered) if covered else ()
        ncov = len(covered)
        # anchor category per token index (None when not an anchor)
        anchor: list[str | None] = [None] * n
        is_ph = [False] * n
        if ncov:
            ci = 0
            for i in range(n):
                if infos[i][6]:
                    continue  # a placeholder is one whether covered or not
                st = starts[i]
                while ci < ncov and covered[ci][1] <= st:
                    ci += 1
                if ci < ncov and covered[ci][0] < ends[i]:
                    is_ph[i] = True  # inside an L1 span: acts like a placeholder
        any_anchor = False
        for i in special:
            info = infos[i]
            if info[6]:
                is_ph[i] = True
                anchor[i] = info[0][1:-1]
                any_anchor = True
                continue
            if is_ph[i]:
                continue  # covered by an L1 span
            a = info[2]
            if a:
                anchor[i] = a
                any_anchor = True
            if i + 1 < n and info[3]:
                pair = ANCHOR_PAIRS.get((info[1], infos[i + 1][1]))
                if pair:
                    anchor[i + 1] = anchor[i + 1] or pair
                    anchor[i] = anchor[i] or pair
                    any_anchor = True
        if not any_anchor:
            return []
        lower_text = _all_lower(text)  # once per text: _shape_score reads it for every token

        out: list[Candidate] = []
        masked_prev = -10
        breaks: list[int] | None = None
        window, after, threshold = self.window, self.after, self.threshold
        for i in maybe:
            if is_ph[i]:
                continue  # removed spans are context, not candidates
            t, low, _, _, _, digit_score, _, _, _ = infos[i]
            if low in HEAD_AS_ADJECTIVE and i > 0 and anchor[i - 1] == "HOSPITAL":
                continue  # "Hospital Course", "[HOSPITAL] Visit": the institution describes this noun
            if low in _PLACE_IN_WARD_WORDS and i + 1 < n and infos[i + 1][0][:1].isdigit():
                continue  # "Pt [NAME], rm 537", "bed 12": a room or a bed on the ward, no more of a name
            # a token with a digit is scored on its characters alone (memoised with the token)
            if digit_score is not None:
                base, shape = digit_score
                st = starts[i]
                if st >= 2 and text[st - 1] == ":" and text[st - 2].isdigit():
                    continue  # a clock's minutes, however joined to the next time ("14:20–15:10")
            else:
                base, shape = _shape_score(t, low, starts[i], text, first, last, lower_text)
            if base <= 0.0:
                continue
            if breaks is None:
                # anchors do not reach across sentences or lines ("COMPARISON: [DATE]\nINDICATION: 56-year-old")
                breaks = _sentence_breaks(text)
            si = bisect_right(breaks, starts[i]) if breaks else 0
            cat = None
            boost = 0.0
            ph_anchor = forward = False
            lo, hi = max(0, i - window), min(n, i + after + 1)
            for j in range(i - 1, lo - 1, -1):
                if anchor[j] is not None and (not breaks or bisect_right(breaks, starts[j]) == si):
                    # a placeholder vouches only for tokens of its own shape:
                    # "[AGE]-year-old with Hodgkin" is not a name by proximity
                    if is_ph[j] and (shape == "alpha") != (anchor[j] in _ALPHA_CATS):
                        continue
                    cat, boost, ph_anchor = anchor[j], self.boost, is_ph[j]
                    if cat in _NUMBER_CATS and not ph_anchor and shape == "numeric" \
                            and (t.isdigit() and len(t) <= 5 or _DAY_OF_COURSE_RE.fullmatch(t)) \
                            and any(infos[m][1] not in _ID_CONNECTORS for m in range(j + 1, i)):
                        # "id: tmax 101.4 @ 0200": a short number some words after an ID word (there a nursing
                        # header, infectious disease) is a reading or a clock time; an ID stands right after its cue
                        cat, boost = None, 0.0
                    break
            else:
                for j in range(i + 1, hi):
                    if anchor[j] is not None and not is_ph[j] and (not breaks or bisect_right(breaks, starts[j]) == si):
                        cat, boost, forward = anchor[j], self.boost, True
                        break
            # adjacent to a removed span, or continuing a token L2 just masked
            # ("[NAME] Okafor", "Re: Pavla [NAME]"): evidence on top of an anchor
            if base >= 0.2:
                adj = (i > 0 and is_ph[i - 1] and _SEP_ONLY_RE.fullmatch(text, ends[i - 1], starts[i])
                       and not _new_clause_after(text, ends[i - 1], starts[i], anchor[i - 1], low)
                       # (a number closing a line vouches for no word opening the next: "trauma # [ID]\nMOI: fall")
                       and not (anchor[i - 1] in _NUMERIC_CATS and "\n" in text[ends[i - 1] : starts[i]])) or (
                    i + 1 < n and is_ph[i + 1] and _SEP_ONLY_RE.fullmatch(text, ends[i], starts[i + 1])
                    # ("call [PHONE]", "cb [PHONE]": an everyday word before a number is no name; a name is, "Ana [PHONE]")
                    and not (base < 0.3 and anchor[i + 1] in _NUMERIC_CATS)
                )
                if adj or masked_prev == i - 1:
                    boost += self.placeholder_boost
            score = base + boost
            if score < threshold:
                continue
            if shape == "place":
                if cat not in ("HOSPITAL", "LOCATION"):
                    continue
                shape = "alpha"
            if shape == "numeric" and "-" in t and _UNIT_AFTER_RANGE_RE.match(text, ends[i]) and _RANGE_RE.fullmatch(t):
                continue  # "UROLOGY 4-6 WK", "f/u 2-3 days": a range of time, no date or ID
            if shape == "numeric" and "/" in t and month_day_rejected(text, starts[i], ends[i]):
                continue  # "bka 2/2 wet gangrene", "5/5 BLE": what L1's dates read as no date a date cue nearby does not make one
            if shape == "numeric" and "/" in t and i > 0 and infos[i - 1][1] in _SCORE_NAMES:
                continue  # "born at 0312, apgars 8/9", "BP 90/60": a score or a vital sign after its name, near a date cue
            if shape == "numeric" and i > 0 and infos[i - 1][1] in _PLACE_IN_WARD_WORDS and ends[i - 1] + 2 >= starts[i]:
                continue  # "[DATE] B.   ROOM 204-A", "bed 12": a room, a bed or a bay on the ward, no date or ID
            if shape == "numeric" and CLOCK_RE.fullmatch(t) and (
                    i > 0 and (infos[i - 1][1] in _TIME_PREPS or infos[i - 1][1] in _CLOCK_EVENT_WORDS) and ends[i - 1] + 2 >= starts[i]
                    or _TIME_MARK_BEFORE_RE.search(text, max(0, starts[i] - 2), starts[i])
                    or PHONE_AS_MEANS_RE.search(text, max(0, starts[i] - 24), starts[i])
                    or forward and cat in _NUMBER_CATS):
                continue  # "LM at 0320", "@ 1630", "PICKUP ~0600" beside a removed phone number: a clock time, the hour of
                # the call; so is one before its ID or phone cue ("1ST ATTEMPT 0930: NUMBER ON FILE"): numbers follow cues
            if shape == "numeric" and cat not in _NUMBER_CATS:
                if _BED_CODE_RE.fullmatch(t):
                    continue  # "RNs: [NAME] (B1-6)", "0137 B11 [NAME]": the nurse's beds, the patient's bed
                # a name or place cue vouches for no plain number ("wife called at 2200"; a code with
                # letters may be a user name), and a clock time is an identifier only after an ID cue
                if cat in _ALPHA_CATS and not any(ch.isalpha() for ch in t):
                    continue
                if len(t) == 4 and t.isdigit() and 1900 <= int(t) <= 2039 and (cat is None or ph_anchor or self.keep_years):
                    # a year beside a span L1 removed ("[DATE] 2019") is one L1 chose to keep; a year
                    # after a word cue ("born 1961") stays a date unless text.years is keep
                    continue
                if CLOCK_RE.fullmatch(t) and not (cat == "DATE" and not ph_anchor and 1900 <= int(t) <= 2039):
                    continue
            if cat is None or (shape == "alpha") != (cat in _ALPHA_CATS):
                cat = "NAME" if shape == "alpha" else "ID"
            out.append(Candidate(starts[i], ends[i], cat, f"context:{cat.lower()}", round(score, 3)))
            masked_prev = i
        if out:
            words = [info[0] for info in infos]
            lows = [info[1] for info in infos]
            out.extend(self._backfill(text, starts, ends, words, lows, out, is_ph, first, last, lower_text))
            out = [_extend_name_left(text, c) if c.category == "NAME" else c for c in out]
        return out

    def _backfill(self, text, starts, ends, words, lows, found, is_ph, first, last, lower_text) -> list[Candidate]:
        """Tokens right before a span L2 masked, shaped like it ("WIKTOR [KRASA], born"): mask them too.

        One backward sweep: the forward pass already chains tokens *after* a
        masked one; this catches the given name standing before an anchored surname.
        """
        by_start = {c.start: c for c in found}
        extra: list[Candidate] = []
        for i in range(len(words) - 2, -1, -1):
            c = by_start.get(starts[i + 1])
            if c is None or is_ph[i] or not _SEP_ONLY_RE.fullmatch(text, ends[i], starts[i + 1]):
                continue
            if lows[i] in ANCHORS:
                continue
            base, shape = _shape_score(words[i], lows[i], starts[i], text, first, last, lower_text)
            if base >= 0.2 and (shape == "alpha") == (c.category in _ALPHA_CATS) and base + self.placeholder_boost + 0.1 >= self.threshold:
                cand = Candidate(starts[i], ends[i], c.category, c.source, c.score)
                extra.append(cand)
                by_start[starts[i]] = cand
        return extra


class ContextLevel:
    """L2 as a :class:`~clinx.text.base.TextLevel`.

    Applied on L1's output (placeholders there act as anchors). ``ner``
    (``"crf"``, the default, ``"spacy"`` or ``None``) adds the statistical layer
    (:mod:`clinx.text.crf`, :mod:`clinx.text.ner`);
    the other parameters are :class:`ContextEnhancer`'s. When used
    stand-alone on raw text it runs L1's recognisers first so their spans
    count as anchors — see :func:`clinx.text.pipeline.rescan`.
    """

    name = "L2"

    def __init__(self, *, salt: bytes | str | None = None, keep_values: bool = False, ner: str | None = "crf",
                 ner_min_marginal: float | None = None, site_terms: str | None = None, states: str = "with_place", **params):
        from clinx.text.site_terms import load_site_terms

        self.states = check_states(states)  # (text.l1.states, as at L1)
        self.enhancer = ContextEnhancer(**params)
        # the custodian's terms to keep (text.l1.site_terms) hold for L2's candidates too
        self.site = load_site_terms(site_terms)
        # the optional statistical layer (text.l2.ner): loaded here, so a missing package fails at build time
        # (ner_min_marginal: the crf layer's gate, see clinx.text.crf.MIN_MARGINAL)
        self.ner = make_ner(ner, **({"min_marginal": ner_min_marginal} if ner in ("crf", "crf+minilm") and ner_min_marginal is not None else {}))
        self.salt = salt
        self.keep_values = keep_values

    def find(self, text: str, covered: list[tuple[int, int]] | None = None) -> list[Candidate]:
        """L2's rule candidates: context evidence and completed institution names."""
        out = self.enhancer.find(text, covered)
        out = drop_state_and_country_parts(text, out + complete_institutions(text, out))
        return self.site.apply(text, out, remove=False) if self.site is not None else out

    def apply(self, text: str, manifest: Manifest | None = None, proposals: list[Candidate] | None = None) -> TextResult:
        """L2 on ``text``; ``proposals``: the statistical layer's candidates in ``text``'s offsets.

        The pipeline runs the layer on the text as written and passes its spans here
        (:meth:`clinx.text.pipeline.TextPipeline.run`); stand-alone, the layer reads ``text``.
        """
        # The manifest is used at L1; L2 deliberately works from context alone so
        # its added value is measurable on text that arrives without one.
        check_text(text)
        cands = self.find(text)
        if proposals is None and self.ner is not None:
            proposals = self.ner.find(text)
        if proposals:
            if "[" in text:  # a placeholder is never re-labelled by a model span inside it
                proposals = drop_inside(proposals, [m.span() for m in PLACEHOLDER_RE.finditer(text)])
            proposals = drop_state_and_country_parts(text, proposals)  # a state or country is no identifier
            proposals = proposals + complete_institutions(text, proposals)  # over the kind words the model left
            if self.site is not None:  # the custodian's keep terms hold for the model's spans too
                proposals = self.site.apply(text, proposals, remove=False)
            cands = cands + proposals
        cands = cands + streets_meeting_places(text, cands)  # the model's street, and the other street of the crossing
        cands = cands + streets_after_places(text, cands)  # "[fry's pharmacy] on broadway": the street after a business
        if self.states == "with_place":  # "[LOCATION], OH": the state closing a removed town goes with it
            cands = cands + regions_after_places(text, cands)
        else:  # ("keep": a span of the model that runs over a town's state leaves the state)
            cands = cut_regions_out(text, cands)
        cands = cands + compass_letters_of_places(text, cands)
        cands = cands + street_words_after_places(text, cands)  # "([Colesville] Rd)": the street's word the model left
        cands = cands + signer_codes(text, cands)  # "[FILBERT BRIGHT], M.D.    FB59": the model's names too
        cands = cands + phone_extensions(text, cands)  # "nurse line [ID] ext 31": the number's extension
        cands = cands + id_prefixes(text, cands)  # "MRN BMC [ID]": the issuer's letters before the number
        cands = cands + typists_after_names(text, cands)  # "-- dr. [NAME] / ts": the typist after the model's names too
        cands = cands + initials_before_names(text, cands)  # "—S. [Oduya]": and their initials
        cands = cands + given_names_before_names(text, cands)  # "house mgr will [tsosie]": and given names that are words
        cands = cands + partners_after_names(text, cands)  # "([GILLES] & ROSE)": and the given name named with a name
        cands = cands + surnames_closing_names(text, cands)  # "dr [amy] ng / resident": the surname closing the field
        cands = cands + initials_beside_names(text, cands)  # "-jk ([Jasper Kim] MD)": the initials it signs with
        cands = cands + middle_initials_after_names(text, cands)  # "PT: [OKONJO, FAITH] A.   MRN": and middle initials
        cands = cands + given_names_after_header_surnames(text, cands)  # "PATIENT: [BROWN], WILL   MRN": and given names
        cands = cands + nicknames_of_found_names(text, cands)  # "[NAME] (\"Ben\")": and the names they go by
        # "[VETERANS HOME] AT [CARVERTON]": the small word between two parts of one institution's name that the model,
        # or the model and L1, found apart (L1 joins its own parts): "AT" left would keep the name from being removed
        removed = [Candidate(m.start(), m.end(), m.group()[1:-1], "placeholder", 1.0) for m in PLACEHOLDER_RE.finditer(text)]
        cands = cands + join_institution_parts(text, cands + removed, with_and=False)
        cands = cands + articles_of_institutions(text, cands + removed)  # "Facility: The [Arbors]": and the "The" it begins with
        cands = cands + at_names_of_institutions(text, cands + removed)  # "The Willows at [Bayshore]": and the rest of an "X at Y" name
        cands = cands + towns_after_institutions(text, cands + removed)  # "[Raigmore Hospital], Inverness": and its town
        cands = cands + openers_of_institutions(text, cands)  # "NAVAJO [NATION EMS]", "la [rabida]": and the word it begins with
        cands = cands + possessive_businesses(text, cands + removed)  # "works at [Kessler]'s (warehouse)": and its possessive
        return apply_candidates(text, cands, self.name, salt=self.salt, keep_values=self.keep_values)


__all__ = ["ANCHORS", "ANCHOR_PAIRS", "ContextEnhancer", "ContextLevel"]
