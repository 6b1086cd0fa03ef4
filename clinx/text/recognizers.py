"""Recognisers as records: one :class:`Recognizer` per identifier form, as Presidio's ``PatternRecognizer``.

A record says everything about one recogniser — its name, its regular
expression, the placeholder category, a score that breaks ties between
overlapping spans, the context words that must stand before it (when
``needs_context``), a validator that can reject or trim a match, and an
optional cheap *gate* that says "this pattern cannot match this text".
Adding a recogniser is one edit: append a record to :data:`EXTRA_RECOGNIZERS`
(or to :data:`clinx.text.dates.DATE_RECOGNIZERS`) and :class:`~clinx.text.rules.RuleRecognizer`
runs it, gated and validated, like the built-in ones.

Gates must be *sound*: False only when the pattern cannot match (the
property tests in ``tests/text/test_rules.py`` check this for every record);
a record without a gate always runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

#: An ordinal over 89 ("102ND", "91st"): the gate of age_ordinal_birthday, led by its digits.
_ORDINAL_OVER_89_RE = re.compile(r"(?<!\d)(?:9\d|1[01]\d)(?:st|nd|rd|th)\b", re.I)

#: validator(match, text) -> (start, end) to mask, or None to drop the match
Validator = Callable[[re.Match, str], "tuple[int, int] | None"]
#: gate(text, lower_text) -> False when the pattern cannot match
Gate = Callable[[str, str], bool]

_WORDS_BEFORE_RE = re.compile(r"[A-Za-z][A-Za-z/&'.-]{0,30}")


@dataclass(frozen=True)
class Recognizer:
    """One pattern recogniser.

    ``pattern`` may name a group ``v``: then only that group is masked (the
    cue before it stays). ``context`` lists lower-case words; with
    ``needs_context`` a match counts only when one of them is among the
    ``context_window`` words before it ("on 3/14", "seen 12/8").

    A *lexicon* recogniser has ``lexicon`` (lower-case words) instead of a
    pattern: the word-token pass of :mod:`clinx.text.evidence` looks each token
    up in it (a set lookup instead of a regex scan) and hands the validator a
    :class:`TokenMatch`.

    ``starts`` (optional, a speed-up) is a cheap regular expression run on the
    *lower-cased* text whose hits include every position where ``pattern`` can
    start a match, a hit never covering another such position; the pattern is then
    tried only there (:func:`clinx.text.rules._starts_matches`), with the
    same matches as a full scan. The property tests in ``tests/text/test_rules.py``
    check this for every record that has one. Leave it out when unsure: a record
    without it is scanned in full.
    """

    name: str
    pattern: str | None
    category: str
    score: float = 0.9
    context: tuple[str, ...] = ()
    needs_context: bool = False
    context_window: int = 3
    validator: Validator | None = None
    gate: Gate | None = None
    flags: int = 0
    lexicon: frozenset[str] = frozenset()
    starts: str | None = None
    compiled: re.Pattern | None = field(init=False, repr=False, compare=False)
    compiled_starts: re.Pattern | None = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if (self.pattern is None) == (not self.lexicon):
            raise ValueError(f"recogniser {self.name!r} needs exactly one of pattern or lexicon")
        if self.starts is not None and self.pattern is None:
            raise ValueError(f"recogniser {self.name!r}: starts needs a pattern")
        object.__setattr__(self, "compiled", re.compile(self.pattern, self.flags) if self.pattern is not None else None)
        object.__setattr__(self, "compiled_starts", re.compile(self.starts) if self.starts is not None else None)

    def has_context(self, text: str, start: int) -> bool:
        """Is one of :attr:`context` among the ``context_window`` words before ``start``?"""
        words = _WORDS_BEFORE_RE.findall(text, max(0, start - 12 * self.context_window), start)
        ctx = set(self.context)
        return any(w.lower().rstrip(".:") in ctx for w in words[-self.context_window :])

    def check(self, m: re.Match, text: str) -> tuple[int, int] | None:
        """The span to mask for match ``m`` (context and validator applied), or None."""
        s, e = m.span("v") if self.compiled is not None and "v" in self.compiled.groupindex else m.span()
        if self.needs_context and not self.has_context(text, m.start()):
            return None
        if self.validator is not None:
            return self.validator(m, text)
        return s, e


class TokenMatch:
    """The part of :class:`re.Match` a validator uses, for a word a lexicon recogniser matched."""

    __slots__ = ("_text", "_s", "_e")

    def __init__(self, text: str, start: int, end: int):
        self._text, self._s, self._e = text, start, end

    def span(self, group=0) -> tuple[int, int]:
        return self._s, self._e

    def start(self, group=0) -> int:
        return self._s

    def end(self, group=0) -> int:
        return self._e

    def group(self, group=0) -> str:
        return self._text[self._s : self._e]


# a capital, "/", a small letter: every dictation_initials match holds one; led by the slash (a one-character
# literal scan, many times faster than a scan for a character set)
_INITIALS_GATE_RE = re.compile(r"/(?<=[A-Z][A-Z]/)[A-Za-z]")  # (two capitals before the slash: not "S/P", "A/P")
_UNIT_AFTER_RE = re.compile(r"\s{0,2}(?:ml|cc|mg|mcg|units?|kcal|cal|l|g)\b", re.I)


#: A house number ending right before a street or a road ("22 ROUTE 130", "2218 W Cermak Rd").
HOUSE_NUMBER_BEFORE_RE = re.compile(r"(?<![\w/.,:-])\d{1,5}[A-Za-z]?[ \t]{1,2}$")


def _with_house_number(m: re.Match, text: str) -> tuple[int, int]:
    """The road's span, taking in a house number right before it ("22 ROUTE 130")."""
    before = HOUSE_NUMBER_BEFORE_RE.search(text, max(0, m.start() - 9), m.start())
    return (before.start() if before else m.start()), m.end()


def _extension_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A telephone extension (``x4471``, ``ext. 4-3321``) unless a unit follows (``x1000 mL``).

    The span takes an "x" written onto the digits ("x4-7721": annotators mark it whole about as often as not), not the
    word "ext" or "extension", which they leave outside in every tune note ("ext [PHONE]" reads as what it was).
    """
    if _UNIT_AFTER_RE.match(text, m.end()):
        return None
    return (m.start() if m.start("v") == m.start() + 1 else m.start("v")), m.end("v")


#: A dictation's field label: the dates it was dictated and typed, its job number ("D:", "T:", "DT:", "Job #").
_DICTATION_FIELD_LABEL = r"(?i:dd?|dt|t|dict|trans|job)[ \t]?[:#]"
#: A dictation's fields after its initials, two blanks on ("D: 01/04  T: 01/05").
_DICTATION_FIELD_AFTER = r"[ \t]{2,}" + _DICTATION_FIELD_LABEL


def _initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Initials unless the capitals are a clinical abbreviation ("HTN/dm", "CHF/copd" on a line of their own)."""
    from clinx.text.lexicons import is_clinical_term

    from clinx.text.lexicons import zipf

    upper, *lower = m.group("v").split("/")
    if m.group("field") is not None and not (is_clinical_term(upper) and is_clinical_term(lower[0])):
        return m.span("v")  # ("PR/KLM  D: 01/04  T: 01/05": the dictation's dates vouch for the initials; "PT/OT  T: ..." no)
    if is_clinical_term(upper) or any(is_clinical_term(w) and len(w) > 2 for w in lower):
        return None
    if lower[0].isupper() and (is_clinical_term(lower[0]) or zipf(upper.lower()) >= 3.0 or zipf(lower[0].lower()) >= 3.5):
        return None  # "AKR/TJ" is two signers; "AM/PM", "YES/NO", "DNR/DNI" are words or shorthand
    if any(len(w) > 3 for w in lower) and (zipf(upper.lower()) >= 3.0 or len(lower) == 1 and zipf(lower[0]) >= 3.0):
        return None  # "PAIN/none", "HOB/elevated": a header and its value; initials are no word ("GPP/church/olinger")
    return m.span("v")


_STATES_ANY_CASE = (
    "al|ak|az|ar|ca|co|ct|de|fl|ga|hi|id|il|in|ia|ks|ky|la|me|md|ma|mi|mn|ms|mo|mt|ne|nv|nh|nj|nm|ny|nc|nd|oh|ok|or|pa|ri|"
    "sc|sd|tn|tx|ut|vt|va|wa|wv|wi|wy|dc"
)
_FIVE_DIGITS_RE = re.compile(r"\d{5}")
# what the short paging number itself needs (a sound gate: the words before are the validator's)
_PAGER_GATE_RE = re.compile(r"\d(?:-\d{4}|\d{3})")


def _short_number_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """An in-house number (:func:`_extension_ok`), except four digits that read as a 24-hour clock ("page at 0300")."""
    from clinx.text.dates import CLOCK_RE  # (dates imports this module)

    if len(m.group("v")) == 4 and CLOCK_RE.fullmatch(m.group("v")):
        return None
    return _extension_ok(m, text)


#: Dotted letters that abbreviate a dosing, a route or a time, not a signer ("p.o.", "a.m.", "q.d.").
_DOTTED_ABBREVIATIONS = frozenset("po pr iv im sc sq od os ou am pm hs qd qh ac pc cc".split())


def _signature_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A signer's initials before a credential on a line of their own ("kd/rn", "-- JS RN", "f.a. lcsw"), not an
    abbreviation or an everyday word."""
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    g = "v" if m.group("v") is not None else "w" if m.group("w") is not None else "x"
    letters = m.group(g).replace(".", "").replace(" ", "").lower()
    if "." in m.group(g):
        # dotted letters before a credential are initials ("c.r. md"), but for a dosing or a time ("p.o.", "a.m.")
        return None if letters in _DOTTED_ABBREVIATIONS else m.span(g)
    dash = text[max(0, m.start(g) - 2) : m.start(g)].strip(" \t").endswith("-")
    if is_clinical_term(letters) and not (dash and len(letters) == 2) or letters in FUNCTION_WORDS or zipf(letters) >= 4.5:
        return None  # ("no ma", "see md": words, no initials; after a dash two letters sign: "-sc rn")
    return m.span(g)


#: Credentials and roles that close a dictation line after a slash ("Dictated by X / MD"): no typist's initials.
_DICTATION_ROLES = frozenset("md do np pa rn rd pt ot sw".split())


def _dictation_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """The typist's initials after a dictating signer's name and a slash ("Dictated by Amy Lee / tf"): on that line any
    two or three letters are initials, even an abbreviation's (TF), but for a function word or a credential."""
    from clinx.text.lexicons import FUNCTION_WORDS

    letters = m.group("v").lower()
    return None if letters in FUNCTION_WORDS or letters in _DICTATION_ROLES else m.span("v")


#: Relatives after whose word an age over 89 may follow, in parentheses or after their name ("husband (97)", "wife Ana, 93,").
_RELATIVES = (r"(?:husband|wife|mother|mom|mum|father|dad|sister|brother|aunt|uncle|grandmother|grandfather|spouse|partner"
              # ("paternal gm nora alive, 91", "great-aunt (94)": a pedigree's short forms and the older generations)
              r"|grandma|grandpa|gm|gf|gma|gpa|mgm|pgm|mgf|pgf|great-grandmother|great-grandfather|great-aunt|great-uncle"
              r"|stepmother|stepfather|mother-in-law|father-in-law)")
#: The kinds of military unit that follow an ordinal ("3rd battalion", "1ST CAVALRY DIVISION", "362nd engineer company").
#: A bare "division" is not one ("4th division of ward"); after a unit's kind it closes the name ("1st Cavalry Division").
#: (and their short forms: "3rd bct", "2ND BN", "1st Cav", "4th bde")
_MILITARY_UNIT = (r"(?:battalion|brigade|infantry|airborne|marines|cavalry|regiment|squadron|fleet|armou?red"
                  r"|artillery|rangers|bn|bde|bct|sbct|cav|(?:engineer|mp|signal|support|transportation)[ \t]company"
                  r"|(?:air|fighter|airlift)[ \t]wing)(?:[ \t](?:division|brigade|regiment|battalion|group))?")
_MILITARY_GATE_RE = re.compile(r"battalion|brigade|division|infantry|airborne|marines|cavalry|regiment|squadron|fleet|armou?red"
                               r"|artillery|rangers|company|wing|\d(?:st|nd|rd|th)[ \t](?:bn|bde|bct|sbct|cav)\b|\d-\d{1,3}[ \t]")


#: Words after a relative's name that say the relative lives ("paternal gm nora alive, 91").
_STILL_LIVING = frozenset("alive living".split())


def _relative_name_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """The age after a relative's name ("husband Joe, 92,"), unless the words before the comma are everyday or
    clinical words ("wife checked glucose, 95.", a reading)."""
    from clinx.text.lexicons import FUNCTION_WORDS, first_names, is_clinical_term, last_names, zipf

    words = (m.group("name") or "").split()
    if len(words) > 1 and words[-1].lower() in _STILL_LIVING:
        words = words[:-1]  # ("gm nora alive, 91": the word that says the relative lives is no part of the name)
    for k, w in enumerate(words):
        low = w.lower()
        if k and low in last_names() and words[k - 1].lower() in first_names() and not is_clinical_term(low):
            continue  # a surname that is a word too after a given name ("MOTHER ODESSA PRICE, 97")
        if low in FUNCTION_WORDS or is_clinical_term(low) or zipf(low) >= 4.0 and low not in first_names():
            return None
    return m.start("v"), m.end("v")


def _given_name_before_age_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A given name in a form that names a person (before a child's age in parentheses: "Ruby (7) had anaphylaxis",
    "SIBLING HOPE (3)"; quoted after "asking for": 'asking for "dawn"'), unless the word is a function word, a
    clinical term or a month's or a weekday's name ("May (3)")."""
    from clinx.text.evidence import CALENDAR_GIVEN_NAMES
    from clinx.text.lexicons import FUNCTION_WORDS, first_names, is_clinical_term

    low = m.group("v").lower()
    if low not in first_names() or low in FUNCTION_WORDS or low in CALENDAR_GIVEN_NAMES or is_clinical_term(low):
        return None
    return m.start("v"), m.end("v")


def _lower_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Two signers' initials in lower case on a line of their own ("bh/kt"), unless either half is a
    clinical abbreviation or an everyday word ("abd/ext", "and/or")."""
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    first, second = m.group("v").split("/", 1)
    if second in _SIGNER_ROLES and not (is_clinical_term(first) or first in FUNCTION_WORDS or zipf(first) >= 4.5):
        return m.start("v"), m.start("v") + len(first)  # "rb/cm", "jt/rn": the signer's initials and role
    dash = text[text.rfind("\n", 0, m.start("v")) + 1 : m.start("v")].strip(" \t") in ("-", "--")
    if m.group("mid") is not None and not _last_line(text, m.end()):
        return None  # (after a sentence, only the note's closing line signs)
    if not dash and (_last_line(text, m.end()) or m.group("for") is not None):
        # on the note's last line ("pk/ab"): common words and clinical abbreviations are refused ("abd/ext"), rarer
        # words sign ("ab" is no abbreviation clinx lists)
        if _common_or_clinical_pair(first, second):
            return None
        return m.span("v")
    for part in (first, second):
        # (after a dash "mm" of "-- jk/mm" is a typist's, not a word: only common words are refused there)
        if part in FUNCTION_WORDS or zipf(part) >= (5.0 if dash else 4.5) or not dash and (is_clinical_term(part) or zipf(part) >= 3.5):
            return None  # (after a signature's dash only words are refused: "-- mb/rs" signs, "-- and/or" does not)
    return m.span("v")


_SIGNER_PAIR_RE = (
    r"(?m)^[ \t]*(?:-{1,2}[ \t]?)?(?P<v>[A-Za-z]{2,3})[ \t](?i:rn|lpn|np|md|pa|cna|pct|rt|rrt|sw|cm|lcsw|emt|medic)"
    r"[ \t]?/[ \t]?(?P<w>[A-Za-z]{2,3})[ \t](?i:rn|lpn|np|md|pa|cna|pct|rt|rrt|sw|cm|lcsw|emt|medic)[ \t]*$"
)


def _given_before_relative_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A census given name, capitalised where its line is in mixed case, no clinical or function word ("w/ rose and
    son"; "with pt and son", "with PT and daughter" name none)."""
    from clinx.text.evidence import line_case_at
    from clinx.text.lexicons import FUNCTION_WORDS, first_names, is_clinical_term

    v = m.group("v")
    low = v.lower()
    if low not in first_names() or low in FUNCTION_WORDS or is_clinical_term(low):
        return None
    if line_case_at(text, m.start("v")) == "mixed" and not v[:1].isupper():
        return None
    return m.span("v")


def _clinician_after_service_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A surname (a name and no word, in the name lists, or an unknown word) or a given name and a surname in parentheses
    right after a service ("GYN ONC (LAKSHMANAN)", "cardiology (Aisha Osei)"); "ortho (hand)", "GI (EGD)" name none."""
    from clinx.text.evidence import N, SERVICES, U, classify
    from clinx.text.lexicons import first_names, fold, last_names

    before = _SERVICE_BEFORE_RE.search(text, max(0, m.start() - 16), m.start() + 1)
    svc = before.group(1).lower() if before else ""
    if svc not in SERVICES and svc not in _SERVICE_SHORT:
        return None
    words = m.group("v").split()
    if len(words) == 1:
        low = fold(words[0].lower())
        # (a listed surname, or a word no lexicon knows long enough to be no abbreviation: "(LAKSHMANAN)")
        return m.span("v") if classify(low) == N and low in last_names() or classify(low) == U and len(low) >= 6 else None
    a, b = (fold(w.lower()) for w in words)
    return m.span("v") if a in first_names() and b in last_names() and classify(b) == N else None


_SERVICE_BEFORE_RE = re.compile(r"(?<![A-Za-z])([A-Za-z]{2,14})[ \t]\($")
#: Services written short that SERVICES does not list ("GYN ONC", "hem/onc", "ID", "nephro").
_SERVICE_SHORT = frozenset("onc hem heme nephro endo gastro neph cards pulm id tox palliative palliation pall ortho".split())


# what every signer pair holds: a slash, initials and a credential closing the line (led by the slash: a literal scan)
_SIGNER_PAIR_GATE_RE = re.compile(r"(?m)/(?=[ \t]?[A-Za-z]{2,3}[ \t](?i:rn|lpn|np|md|pa|cna|pct|rt|rrt|sw|cm|lcsw|emt|medic)[ \t]*$)")


def _signer_pair_gate(t: str, low: str) -> bool:
    return "/" in t and _SIGNER_PAIR_GATE_RE.search(t) is not None


def _signer_pair_ok(m: re.Match, text: str, group: str) -> tuple[int, int] | None:
    """One signer's initials (``group``) of "RT RN / LG PCT", unless either is a function word or a discipline ("PT RN /
    OT MD" is a bullet of disciplines)."""
    from clinx.text.lexicons import FUNCTION_WORDS

    for g in ("v", "w"):
        low = m.group(g).lower()
        if low in FUNCTION_WORDS or low in _PAIR_ROLES:
            return None
    return m.span(group)


#: Roles that stand before a credential as a discipline, not a signer ("PT RN / OT MD": a bullet of disciplines).
_PAIR_ROLES = frozenset("pt pts ot rn md np sw cm pa slp".split())


def _initials_in_paren_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Letters before a credential in parentheses ("(lt, rn)") unless a word or a clinical abbreviation ("(pt, rn)")."""
    from clinx.text.evidence import CREDENTIALS, ROLES
    from clinx.text.lexicons import FUNCTION_WORDS, zipf

    low = m.group("v").lower()
    # (a clinical abbreviation may be initials here, "(lt, rn)"; a role, a word or the patient's "pt" is not)
    if low in FUNCTION_WORDS or low in ROLES or low in CREDENTIALS or low in ("pt", "pts", "per") or zipf(low) >= 4.5:
        return None
    return m.span("v")


def _caps_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Two signers' initials in capitals after a dash ("-- YA/CNGP") or on the note's last line ("RF/LMK"), unless both
    halves are clinical abbreviations or either is a common word ("-- PT/OT", "BP/HR")."""
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    if m.group("dash") is None and not _last_line(text, m.end()):
        return None
    parts = m.group("v").lower().split("/")
    if parts[1] in _SIGNER_ROLES and not is_clinical_term(parts[0]) and zipf(parts[0]) < 5.0:
        return m.start("v"), m.start("v") + len(parts[0])  # "--JR/RN": the signer's initials and role
    if m.group("dash") is not None and (any(part in FUNCTION_WORDS or zipf(part) >= 5.0 for part in parts) or all(is_clinical_term(part) for part in parts)):
        return None  # ("-- PT/OT": clinical halves)
    if m.group("dash") is None and _common_or_clinical_pair(*parts):
        return None  # ("BP/HR", "HOB/TED": clinical halves; "RF/LMK", "KB/LMP" sign)
    return m.span("v")


def _common_or_clinical_pair(first: str, second: str) -> bool:
    """Are the two halves of a pair alone on a note's last line a note's shorthand, not two writers' initials? Both
    clinical ("bp/hr", "abd/ext"), either a common word ("and/or"), or one clinical and the other a word ("ok/rt");
    one clinical half beside rare letters signs ("kb/lt": "lt" is left, "kb" no word)."""
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    if any(part in FUNCTION_WORDS or zipf(part) >= 5.0 for part in (first, second)):
        return True
    a, b = is_clinical_term(first), is_clinical_term(second)
    return a and b or a and zipf(second) >= 4.0 or b and zipf(first) >= 4.0


def _last_line(text: str, pos: int) -> bool:
    """Is ``pos`` on the note's last line (nothing but blanks on the lines after it)?"""
    nl = text.find("\n", pos)
    return nl < 0 or not text[nl:].strip()


#: What every numbered street holds: a digit and an ordinal's ending ("14th st", "Kimball & 9th)").
_ORDINAL_GATE_RE = re.compile(r"\d(?:st|nd|rd|th)\b")


def _written_by_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Initials after "transcribed by", not a title or a credential ("dictated by Dr. Nguyen")."""
    from clinx.text.evidence import CREDENTIALS, TITLES
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    parts = m.group("v").lower().split("/")
    if any(v in TITLES or v in CREDENTIALS or v in ("the", "pt", "and") for v in parts):
        return None
    if _FIELD_COLON_RE.match(m.group()) and any(v in FUNCTION_WORDS or zipf(v) >= 4.5 for v in parts):
        return None  # after a field's colon a word is the field's text ("dict: see below"); after "by" a writer's
    if _HANDOFF_RE.match(m.group()) and any(v in FUNCTION_WORDS or zipf(v) >= 4.5 or is_clinical_term(v) for v in parts):
        return None  # ("given by iv", "received: ok", "cosign pending": a route, a word, no one)
    return m.span("v")


_FIELD_COLON_RE = re.compile(r"(?i)(?:dictated|dict\.?|typed):")
_HANDOFF_RE = re.compile(r"(?i)(?:given|passed|received|cosign)")


#: Words before a reading that name lists hold too ("O2 Sat, 92, on RA").
_READING_WORDS = frozenset("sat sats pulse rate temp weight glucose sugar level score".split())


#: A parenthesis opened by a person's words, up to the comma before an age ("(dorothy young, 95)").
_NAME_OPENS_PARENS_RE = re.compile(r"\(([A-Za-z][A-Za-z'’-]*)(?:[ \t][A-Za-z][A-Za-z'’-]*){0,2}$")
#: A date of birth in parentheses right after an age.
_DOB_AFTER_AGE_RE = re.compile(r"[ \t]\((?i:dob|d\.o\.b|born|b\.)")


def _age_after_name_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """An age after a person's name ("mrs. murphy, 92, lives"): the word before the comma is a name or unknown, no
    clinical word or reading ("o2 sat, 92, on ra")."""
    from clinx.text.evidence import N, U, classify
    from clinx.text.lexicons import first_names, is_clinical_term, last_names

    # (a nickname in parentheses between the name and the age: the word before it decides)
    before = re.search(r"([A-Za-z][A-Za-z'’-]*)(?:[ \t]\([A-Za-z'’\"“” -]{1,20}\))?$", text[max(0, m.start() - 50) : m.start()])
    if before is None:
        return None
    if _DOB_AFTER_AGE_RE.match(text, m.end()) and not is_clinical_term(before.group(1).lower()):
        return m.span("v")  # ("mrs doreen pike, 93 (dob 02/05/1930)": the date of birth vouches for the age)
    word = before.group(1)
    low = word.lower()
    opened = _NAME_OPENS_PARENS_RE.search(text, max(0, m.start() - 50), m.start())
    if opened is not None and opened.group(1).lower() in first_names() and classify(opened.group(1).lower()) in (N, U) \
            and text.startswith(")", m.end()):
        return m.span("v")  # ("(dorothy young, 95)": a given name opens the parenthesis that the age closes)
    # ("Joan Smith, 93, lives": a surname that is a word too, written as a name is in mixed case; not "o2 sat, 92")
    titled = word[:1].isupper() and not word.isupper() and (low in last_names() or low in first_names()) \
        and low not in _READING_WORDS and not is_clinical_term(low)
    # ("Patient: Gertrude Bishop, 92, MRN": a listed surname after a listed given name, however much a word or a score
    # it is too)
    lo = max(0, m.start() - 50)
    given = re.search(r"([A-Za-z][A-Za-z'’-]*)[ \t]+" + re.escape(word) + r"$", text[lo : lo + before.end()])
    full = given is not None and low in last_names() and low not in _READING_WORDS and all(
        part in first_names() for part in given.group(1).lower().split("-")) and (given.group(1)[:1].isupper() == word[:1].isupper())
    if classify(low) not in (N, U) and not titled and not full:
        return None
    return m.span("v")


def _dash_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A signer's initials after a dash, closing a line ("... monitor. --kt/rn", "-jm", "--J.S."), unless the letters
    are a clinical abbreviation, an everyday word or a count ("- NC", "-ok", "-pod"); with a role after a slash
    ("--kt/rn") only a clinical abbreviation of three letters stops them."""
    from clinx.text.lexicons import is_clinical_term

    letters = m.group("v").replace(".", "").replace(" ", "").lower()
    if "." in m.group("v"):
        return None if is_clinical_term(letters) else m.span("v")  # dotted letters are initials unless clinical: "p.o."
    if m.group("role"):
        if letters in _SIGNER_ROLES:
            return None  # "- PT/OT": two roles, a bullet of disciplines
        return None if is_clinical_term(letters) and len(letters) > 2 else m.span("v")
    if m.group().startswith("--") and _last_line(text, m.end()) and not text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip():
        # "\n-- ck" closing the note: a signature's double dash on a line of its own signs even letters an abbreviation
        # shares ("CK"); a single dash is a bullet ("- NC")
        from clinx.text.lexicons import FUNCTION_WORDS, zipf

        return None if letters in FUNCTION_WORDS or letters in _SIGNER_ROLES or zipf(letters) >= 5.0 else m.span("v")
    return None if _letters_are_a_word(letters) else m.span("v")


def _will_before_surname_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """"will" and the word after it, when that word is a listed surname that is no common English word and no clinical
    term ("will santos", "will becker"; not "will call", "will bell", "will ambulate"), written in the
    same case as "will" ("Will Tran", "WILL FERNANDES"; not "will Tran" in a mixed-case line)."""
    from clinx.text.lexicons import is_clinical_term, last_names, ordinary_words, zipf

    will, word = m.group("v").split()[0], m.group("v").split()[-1]
    low = word.lower().replace("’", "'")
    if low not in last_names() or zipf(low) >= 4.2 or low in ordinary_words() and zipf(low) >= 3.6 or is_clinical_term(low):
        return None  # (a rare word the surname lists hold passes: "becker"; "bell", "hunt", "ambulate" do not)
    if not (will.islower() and word.islower() or will.isupper() and word.isupper() or will.istitle() and word[:1].isupper()):
        return None
    return m.span("v")


def _initial_surname_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """An initial and a listed surname ("B. Song", "M. FOX"), no title before it ("Dr. B. Song" is the title rule's)."""
    from clinx.text.evidence import TITLES
    from clinx.text.lexicons import last_names

    surname = m.group("v").split(".", 1)[1].strip().lower()
    if not all(part in last_names() for part in surname.split("-")):
        return None
    before = re.search(r"([A-Za-z]+)\.?[ \t]*$", text[max(0, m.start() - 16) : m.start()])
    if before is not None and before.group(1).lower() in TITLES:
        return None
    return m.span("v")


def _address_abroad_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """An address line's house number and street: no word of the street a clinical term, a drug's or a unit's ("2
    Tylenol, Motrin", "3 Days, then"), and a town after the comma no clinical word either."""
    from clinx.text.lexicons import is_clinical_term

    street = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", m.group("v")) if w not in _ADDRESS_PREFIXES]
    town = re.match(r",[ \t]+([A-Za-z][A-Za-z'’-]*)", text[m.end() :])
    if any(is_clinical_term(w) or w in _UNIT_WORDS for w in street) or town is None or is_clinical_term(town.group(1).lower()):
        return None
    if all(w in _WARD_WORDS for w in street):
        return None  # "4 West, Bed 12", "6 North, St. Elizabeth's": a ward by its floor and wing
    return m.span("v")


#: Words before an address line's house number, and the street's article ("Level 2, 88 Oxford St", "77 The Parade").
_ADDRESS_PREFIXES = frozenset("Level Unit Suite Flat Apt Apartment Shop Floor The".split())
#: Words of a ward's name after its floor ("4 West", "6 North Tower").
_WARD_WORDS = frozenset("north south east west northeast northwest southeast southwest tower wing pavilion building bldg ward pod bay annex".split())
#: Units and counts a number before capitalised words may carry ("3 Days, then", "2 Tabs, BID").
_UNIT_WORDS = frozenset("days day weeks week months month years year hours hour tabs tablets caps capsules doses times units puffs mg ml".split())


def _closing_line_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Two or three letters opening the note's last line, after a dash or before a slash ("-jk", "-nb / tc",
    "JLR / J.L. Rivera MD", "MKB / pgr 4418"): the signer. Every such closing line of the tune notes signs (over 300),
    but the letters must be no clinical abbreviation, English word or common token ("- NC", "- BSC", "HOB/TED"), and
    what follows the slash no English word but a role's, a credential's or a service's ("BR/BATH ON 1ST FLOOR")."""
    from clinx.text.evidence import CREDENTIALS, ROLES, SERVICES
    from clinx.text.lexicons import ordinary_words

    g = "v" if m.group("v") is not None else "w"
    letters = m.group(g).lower()
    if _letters_are_a_word(letters) or letters in _SIGNER_ROLES:
        return None
    if m.group("slash") is not None:
        after = m.group("rest").strip().split()
        first = after[0].lower().strip(".,:;()") if after else ""
        if first in ordinary_words() and first not in CREDENTIALS and first not in ROLES and first not in SERVICES:
            return None
    return m.span(g)


def _dash_initials_role_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Initials after a line's opening dash when the word after them, or the one after that, is a credential or a
    role ("-jk PGY3", "-ld echo fellow") and the letters are no abbreviation, role, credential or common word
    ("- ED RN aware", "- PT OT eval", "- ok RN")."""
    from clinx.text.evidence import CREDENTIALS, ROLES, SERVICES
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    w, role = (m.group("w") or "").lower(), m.group("role").lower()
    if "(" in text[m.end("v") : m.start("role")] and (w or role not in CREDENTIALS and role not in _TRAINEE_ROLES):
        return None  # "-jp (pgy3)" signs; "- RTW (forklift operator, ...)" says what the work is
    if not (role in CREDENTIALS or role in ROLES or role in _MORE_CREDENTIALS
            or (w in CREDENTIALS or w in ROLES) and (role in SERVICES or role in _SIGNER_UNITS)):
        return None  # ("-ld echo fellow", "-mk rn ortho"; "- hh rn visits": a verb after the role)
    # a signature's line goes on with a mark, a number, a service or nothing ("-jk PGY3 ortho, pgr 2281"); a
    # bullet's with a verb ("- hh rn visits 2x/wk", "- ED RN aware")
    rest = m.group("rest")
    after = rest.split()[0].lower().strip(",;/") if rest.split() else ""
    if not (not after or rest.lstrip()[:1] in ",;/()" or after[:1].isdigit() or after in SERVICES or after in _SIGNER_CONTACT):
        return None
    letters = m.group("v").lower()
    # a trainee's year or a pager after the letters makes them a person's even where they spell a clinical
    # abbreviation ("-jp (pgy3)": not the drain; "-sm intern, pgr 2210")
    sure_signer = role in _TRAINEE_ROLES or any(word.lower().strip(",;:") in _SIGNER_CONTACT for word in rest.split()[:2])
    # a comma and a credential or a role closing the line sign it whatever the letters spell ("-TB, AGNP", "-ps, ed sw")
    sure_signer = sure_signer or "," in text[m.end("v") : m.start("role")] and not rest.strip(" \t.") \
        and (role in CREDENTIALS or role in ROLES or role in _MORE_CREDENTIALS)
    if is_clinical_term(letters) and not sure_signer or letters in FUNCTION_WORDS or letters in ROLES \
            or letters in _SIGNER_ROLES or letters in _NOT_SIGNATURE or zipf(letters) >= 4.5:
        return None
    return m.span("v")


#: Credentials of nurse practitioners and diabetes specialists the credential lists lack ("-TB, AGNP", "-rm, cds").
_MORE_CREDENTIALS = frozenset("agnp agacnp fnp whnp pnp ccds cds cdcs mlp".split())
#: Where or when a signer works, after their credential ("-tn rn triage", "-kb rn nights").
_SIGNER_UNITS = frozenset("triage nights days float icu micu sicu ccu nicu picu pacu ed er".split())
#: Roles of doctors in training, after whose initials a signature is sure ("-jp (pgy3)", "-sm intern").
_TRAINEE_ROLES = frozenset("pgy intern resident nightfloat fellow".split())
#: Words of a signer's contact after their role ("-jk PGY3, pgr 2281", "-AW NNP x4410").
_SIGNER_CONTACT = frozenset("pgr pager p ph phone cell ext x beeper voalte vocera".split())


#: Dotted letters that are words or abbreviations, never initials ("a.m.", "e.g.", "vs.", "no."; "n.p.o." and the
#: like are clinical terms).
_DOTTED_WORDS = frozenset("am pm eg ie vs no".split())
#: A prescription's dosing shorthand, which "SIG:" heads as it heads a signer's initials ("SIG: T.I.D.").
_DOSING_LETTERS = frozenset("bid tid qid qd qod qhs hs prn po pr sl im iv sc sq ac pc od os ou".split())
_DOTTED_GATE_RE = re.compile(r"[A-Za-z]\.[ ]?[A-Za-z]\.")


def _dotted_abbreviation(low: str) -> bool:
    """Are dotted letters (lower case, without their dots) a dotted word, dosing shorthand or a credential ("a.m.",
    "t.i.d.", "m.d.")?"""
    from clinx.text.evidence import CREDENTIALS

    return low in _DOTTED_WORDS or low in _DOSING_LETTERS or low in CREDENTIALS


def dotted_letters_may_be_initials(letters: str) -> bool:
    """Can dotted letters (without their dots, "kl" of "k.l.") be a person's initials: no dotted word, dosing
    shorthand, credential or clinical term ("a.m.", "p.o.", "t.i.d.", "m.d.", "c.o.")?"""
    from clinx.text.lexicons import is_clinical_term

    low = letters.lower()
    return not _dotted_abbreviation(low) and not is_clinical_term(low)


#: Words after an ordinal and "and" that are no street ("the 3rd and final dose").
_NOT_A_STREET = frozenset("final last latest first second third fourth fifth next other".split())


def _crossing_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """The named street of a crossing is no function word, date word ("5th and June", "3rd & Friday": dates) or
    ordinal's word, nor a clinical word that is no surname or place too ("jefferson & 9th" is a crossing)."""
    from clinx.text.evidence import C, classify
    from clinx.text.institutions import DATE_WORDS
    from clinx.text.lexicons import FUNCTION_WORDS, last_names, places

    word = (m.group("a") or m.group("b")).lower()
    if len(word) < 3 or word in FUNCTION_WORDS or word in _NOT_A_STREET or word in DATE_WORDS:
        return None
    if classify(word) == C and word not in last_names() and word not in places():
        return None
    return m.span("v")


def _dotted_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Dotted initials unless the letters are a clinical abbreviation or a dotted word ("p.o.", "b.i.d.", "a.m.")."""
    from clinx.text.lexicons import is_clinical_term

    letters = m.group("v").replace(".", "").replace(" ", "").lower()
    if _dotted_abbreviation(letters):
        return None
    if is_clinical_term(letters) and _SIGNING_LABEL_BEFORE_RE.search(text, max(0, m.start("v") - 24), m.start("v")) is None:
        return None  # ("RN: M.R." may be the valve's; after "SIG:" or "COLLECTOR:" the letters sign: "SIG: M.R.")
    return m.span("v")


#: A label that asks for a signer's initials ("SIG: M.R.", "COLLECTOR: D.S.", "drawn by: m.s."), right before them.
_SIGNING_LABEL_BEFORE_RE = re.compile(r"(?i)\b(?:signed|signature|sig|initials|collector|(?:collected|drawn)[ \t]by)[ \t]*:?[ \t]*$")


def _dash_signature_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A given name and a surname after a signature's dash: the first a name (a given name when it is also a word) or,
    on the note's last line, an unknown word; the second no function word. "-- Chest Pain", "-- Will Follow" are no one."""
    from clinx.text.evidence import A, N, U, classify
    from clinx.text.lexicons import FUNCTION_WORDS, first_names, fold
    from clinx.text.rules import name_gazetteer

    first, last = m.group("first"), m.group("last")
    c1, c2 = classify(fold(first), first), classify(fold(last), last)
    if last.lower() in FUNCTION_WORDS or c1 not in (N, U, A):
        return None
    if c1 == A and not (first.lower() in first_names() and (c2 in (N, U) or c2 == A and last.lower() in name_gazetteer()[1])):
        return None
    if c1 == U and first.lower() not in first_names() and not _last_line(text, m.end()):
        return None  # an unknown first word ("- EXPECTANT MANAGEMENT, ANTICIPATE SVD" in a list of bullets) signs only on the last line
    return m.span("v")


def _cosigner_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Initials after a signer's credential and a slash, or before a slash and the other signer, unless they are a
    credential, a role, a department's letters, a word or a clinical abbreviation of three letters ("RN / NP", "PT/OT",
    "MD / and", "UR / CM NOTE", "Dr. Smith / ICU"; two letters sign even where they spell one: "MD PGY-3 / SL")."""
    from clinx.text.evidence import CREDENTIALS, ROLES
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    letters = m.group("v").lower()
    if letters in CREDENTIALS or letters in ROLES or letters in FUNCTION_WORDS or letters in ("ot", "pt", "sn", "cm", "pta", "ur") \
            or zipf(letters) >= 5.0 or len(letters) == 3 and is_clinical_term(letters):
        return None
    return m.span("v")


def _police_department_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A police or fire department by its letters ("SFPD", "cpd") or a town's name and PD ("HULL PD", "seattle pd"):
    the town's words are no clinical or function words; before punctuation alone only after a verb of bringing
    ("bib seattle pd,", "by SFPD;"), since "BPD." is also a disorder."""
    from clinx.text.evidence import C, classify
    from clinx.text.lexicons import FUNCTION_WORDS

    start, end = m.span("v")
    words = list(re.finditer(r"[A-Za-z]+", text[start:end]))
    while len(words) > 1 and (words[0].group().lower() in FUNCTION_WORDS or classify(words[0].group().lower()) == C):
        words.pop(0)  # ("bib seattle pd": the verb of bringing is no part of the town's name)
    start += words[0].start()
    if len(words) > 1 and any(classify(w.group().lower()) == C for w in words[:-1]):
        return None
    after = text[m.end() : m.end() + 3].lstrip(" \t")[:1]
    if after in (",", ";", ".", ")") and not _BROUGHT_BY_RE.search(text, max(0, start - 12), start):
        return None  # ("pmh: BPD, PTSD": a disorder)
    return start, end


_BROUGHT_BY_RE = re.compile(r"(?i)\b(?:bib|by|per|via)[ \t]{1,2}$")
#: Words beside "air" that make no service's name: kinds of air and of transport, findings and things ("room air", "air
#: entry", "air mattress", "air ambulance", "Air Force").
_NOT_AIR_SERVICE = frozenset(
    """
room the free fresh open hot cold warm dry moist humidified compressed medical ambient outside inside indoor outdoor
entry leak leaks trapping trapped space spaces way ways flow fluid embolism embolus bronchogram bronchograms hunger mattress
bed travel quality conditioning conditioner conditioned filter purifier pollution force ambulance transport transfer
evacuation medevac bag bags bubble bubbles swallowing sinus sinuses cell cells contrast gun pump pressure exchange
via and with from for per into onto then when while under over by on in of to or no not
""".split()
)
#: A transport cue before the name, or an aircraft's words after it.
_AIR_BEFORE_RE = re.compile(r"(?i)(?:\b(?:via|by|transport(?:ed)?(?:[ \t]by)?|flown|flight|medevac(?:['’]?d)?|transferred|arranged|called|contacted)[ \t]*:?[ \t]{1,2}$)")
_AIR_AFTER_RE = re.compile(r"(?i)[ \t,]{1,3}(?:fixed[ \t-]wing|rotor|rotary|helicopter|flight|crew|eta|etd|lands?|landed|launched)\b")
#: The word "air" on its own ("repair", "chair" and "stairs" hold no service).
_AIR_WORD_RE = re.compile(r"(?<![a-z])air(?![a-z])")
#: What every air service match's text holds near it (the gate of ``air_transport_service``).
_AIR_CONTEXT_RE = re.compile(r"via|by|transport|flown|flight|medevac|transferred|arranged|called|contacted|wing|rotor|rotary|helicopter|crew|eta|etd|land|launch")


def _air_service_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """An air ambulance service's name: the word beside "air" no kind of air or transport and no clinical or function word,
    with a transport cue before it or an aircraft's words after it."""
    from clinx.text.evidence import C, classify

    other = (m.group("a") or m.group("b")).lower()
    start, end = m.span("v")
    aircraft = _AIR_AFTER_RE.match(text, end) is not None
    # (a word the clinical vocabulary holds only before an aircraft's words: "GUARDIAN AIR FIXED WING")
    if other in _NOT_AIR_SERVICE or classify(other) == C and not aircraft:
        return None
    if not (aircraft or _AIR_BEFORE_RE.search(text, max(0, start - 24), start)):
        return None
    return start, end



#: What every police or fire department match holds: "pd" or "fd" closing a word.
_DEPARTMENT_GATE_RE = re.compile(r"[pf]d\b|sp[ \t]{1,2}trooper")


def _role_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Two or three letters after a role's label closing a line ("attending: sl", "scribe ls"): initials even when an
    abbreviation shares them, unless they are a common word, a credential or a placeholder of none ("scribe: n/a")."""
    from clinx.text.evidence import CREDENTIALS, ROLES
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    v = m.group("v").lower()
    if v in FUNCTION_WORDS or v in CREDENTIALS or v in ROLES or v in ("na", "nil", "tbd", "yes", "pgy") or zipf(v) >= 5.0:
        return None
    return m.span("v")


#: Words a signer writes after the comma of a dash signature besides the credentials evidence lists
#: ("-- CB, DISCHARGE COORDINATOR", "-- hope s, rn case mgr", "-- dk/lm pta").
_SIGNER_TAIL_WORDS = frozenset("pta cota lisw discharge case charge social".split())


#: What may follow the typist's initials on their line and after them: a date, a time (the transcription's), and the
#: dictation's and the typing's fields before them ("JT/MM  D: 2/16/24  T: 2/17/24").
_AFTER_TYPIST_RE = re.compile(r"(?:[\s\d/:.-]|(?<=[ \t])" + _DICTATION_FIELD_LABEL + ")*")


#: Pairs of abbreviations that may close a note alone and are no initials ("IV/PO", "BP/HR", "and/or").
_CLINICAL_PAIRS = frozenset("""iv/po po/iv bp/hr hr/bp am/pm pm/am and/or r/o s/p w/o w/ n/v d/c c/o h/o f/u y/o ct/mri mri/ct
    o2/ra ra/o2 sq/iv iv/sq im/iv iv/im pt/inr inr/pt cbc/bmp bmp/cbc hob/ted ted/hob dnr/dni dni/dnr i/o i/d a/p""".split())


#: The end of a sentence or a dash before a note's closing initials, where an export flattened the note onto one line
#: ("... CAB VOUCHER GIVEN. JT/MM", "... 2/9. -- tb/cc").
_SENTENCE_END_BEFORE_RE = re.compile(r"(?:[.;!?)]|[ \t][-–—]{1,2})[ \t]*[-–—]*[ \t]*$")


def _alone_on_last_line(m: re.Match, text: str) -> bool:
    """Is ``m`` alone on the note's last line (a dash or blanks before it; a date or a time may follow), or, in a note
    with no line break, closing it after a sentence's end or a dash?"""
    if _AFTER_TYPIST_RE.fullmatch(text, m.end()) is None:
        return False
    ls = text.rfind("\n", 0, m.start()) + 1
    if ls == 0:
        return "\n" not in text and _SENTENCE_END_BEFORE_RE.search(text, max(0, m.start() - 12), m.start()) is not None
    return not text[ls : m.start()].strip(" \t-–—")


def _typist_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Two signers' initials joined by a slash or a colon ("JT/MM", "KH:RB", "lkm/rt"), the dictating clinician's and
    the typist's: on the note's last line (a date or a time may follow), or closing a signature's line after its
    credential ("A. RAMIREZ, DPM  AR/MM"); not with a role or a credential ("PT/OT", "kd/rn"), two words ("AND/OR") or
    clinical abbreviations ("BP/HR", "HOB/TED")."""
    from clinx.text.evidence import CREDENTIALS, ROLES
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    if m.group("cred") is None and _AFTER_TYPIST_RE.fullmatch(text, m.end()) is None:
        return None  # not the note's last words: "CS/RL MICU TEAM B" names a team
    halves = re.split("[/:]", m.group("v").lower())
    roles = [h in CREDENTIALS or h in ROLES or h in _SIGNER_ROLES or h in _PAIR_ROLES for h in halves]
    if m.group("cred") is None and _alone_on_last_line(m, text) and m.group("v").lower() not in _CLINICAL_PAIRS \
            and all(len(h) == 2 or len(h) == 3 and not is_clinical_term(h) for h in halves) and not roles[-1]:
        return m.span("v")  # ("ML/PS", "ss/ep", "SW/DL" alone closing the note: the dictating and the typing initials,
        # whatever else two letters abbreviate; not "PT/OT", "IV/PO", "BP/HR", "abd/ext", nor a signer and a credential:
        # "kd/rn")
    if any(roles):
        return None  # ("kd/rn": the signer and the credential, another recogniser's)
    clinical = [is_clinical_term(h) or h in _DOTTED_ABBREVIATIONS for h in halves]  # ("AM/PM")
    if all(h in FUNCTION_WORDS or zipf(h) >= 5.0 for h in halves) or all(clinical) \
            or any(c and len(h) >= 3 for h, c in zip(halves, clinical)):
        return None  # ("BP/HR", "IV/PO", "HOB/TED": readings, routes, orders; initials of three letters are no abbreviation)
    return m.span("v")


def _dash_signer_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A signer after a signature's dash, closing the line: two initials pairs ("-- afds/rk", "-- ET/kb") unless both
    halves are clinical or either is a common word ("-- PT/OT", "- and/or"); or, before a comma and a credential or
    a role ("-- GW, RN CASE MGR", "-- grace l, rn", "—R. Long, RN"), two or three letters that are no credential or
    word, a given name and an initial, or an initial and a surname."""
    from clinx.text.evidence import CREDENTIALS, ROLES
    from clinx.text.lexicons import FUNCTION_WORDS, first_names, is_clinical_term, last_names, zipf

    role = (m.group("role") or "").lower().rstrip(".")
    v = m.group("v")
    low = v.lower()
    dotted = "." in v and re.fullmatch(r"(?:[a-z]\.){2,3}", low) is not None  # ("b.k.", "K.O.": dotted initials)
    if m.group("role") is not None and role not in CREDENTIALS and role not in ROLES and role not in _SIGNER_TAIL_WORDS \
            and not (dotted and role in _SIGNER_ROLES):
        return None  # "- bp, hr stable": a comma's tail that is no credential or role ("—K.O., PT" after initials is one)
    if "/" in v:
        halves = low.split("/")
        if any(h in FUNCTION_WORDS or zipf(h) >= 5.0 or h in _SIGNER_ROLES for h in halves) or all(is_clinical_term(h) for h in halves):
            return None
        return m.span("v")
    if m.group("role") is None:
        return None
    words = low.replace(".", " ").split()
    if dotted:
        # "- b.k. rn", "—K.O., PT": dotted initials before the credential or role; not "- a.m. rn aware"
        return None if low.replace(".", "") in _DOTTED_WORDS else m.span("v")
    if len(words) == 1:  # "GW", "CB": initials
        w = words[0]
        if w in CREDENTIALS or w in ROLES or w in FUNCTION_WORDS or zipf(w) >= 4.5 or len(w) == 3 and is_clinical_term(w):
            return None
        return m.span("v")
    a, b = words[0], words[-1]
    if len(b) == 1:  # "grace l": a given name and the initial of the surname
        return m.span("v") if a in first_names() and a not in FUNCTION_WORDS else None
    if len(a) == 1:  # "R. Long": an initial and a surname
        return m.span("v") if b in last_names() and b not in FUNCTION_WORDS and not is_clinical_term(b) else None
    return None


def _letters_are_a_word(letters: str) -> bool:
    """Are two or three bare letters a clinical abbreviation, an English word, a very common token or a count ("nc",
    "ok", "pod")? Then they are no signer's initials (frequent letter pairs that are none of these, "mk", "rb", are:
    web text is full of them)."""
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, ordinary_words, zipf

    return is_clinical_term(letters) or letters in FUNCTION_WORDS or letters in ordinary_words() or zipf(letters) >= 4.5 \
        or letters in _NOT_SIGNATURE


_PAGER_P_GATE_RE = re.compile(r"p[ \t]?\d(?:\d{3}|-\d{4})")
_CLOSING_INITIALS_GATE_RE = re.compile(r"\n[ \t]*/?[ \t]?[A-Za-z]{2,3}\s*\Z")


def _closing_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Letters alone on the last line ("jb") unless a word, a clinical abbreviation or a count ("ok", "dnr", "pod")."""
    return None if _letters_are_a_word(m.group("v").lower()) else m.span("v")


#: Roles a signer writes after a slash ("rb/cm": case manager; "jt/rn").
_SIGNER_ROLES = frozenset("rn cm sw np md pa ot pt lpn slp cna rt lcsw msw".split())


#: What may stand on the line after an entry's signer: nothing, a separator, or the next entry's date or time.
_NEXT_ENTRY_RE = re.compile(r"[ \t]*(?:\Z|\n[ \t]*(?:\Z|\n|[-=*_~#]{3}|\d{1,4}[/:.-]\d|\d{4}\b|\[DATE\]))")
_DOTTED_ALONE_RE = re.compile(r"[-–—~]?[ \t]?(?:[A-Za-z]\.){1,3}")
#: A line that is a list's item: it opens with a bullet's mark.
_LIST_ITEM_RE = re.compile(r"[ \t]*(?:[-–—*•·>]|\d{1,2}[.)])[ \t]?\S")
#: Departments and roles written after a dash as the writer's service ("-PT", "- RN", "-ED"), no person's initials.
_SERVICE_SIGNERS = frozenset("ed er or icu ccu ot pt st sw cm rt rn md np pa do lpn cna slp rd sn ns pca hha ems".split())


def _entry_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Initials closing an entry ("...STEADY. -G.A.", "-tb" after a portal message, "— PS" on the note's last line,
    "g." alone after an entry), unless a service ("-PT", "- RN"), or a line of a list ("- HTN\n- OA", "PMH:\n- TB").

    Letters a word or a clinical abbreviation shares ("kit", "ps", "NC") only where the entry ends with them (a blank
    line, a separator, the next entry's date after them), and a clinical abbreviation's only on a line of its own or
    after a double dash ("-- ck"; not "On 2L. - NC").
    """
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    v = m.group("v")
    letters = v.replace(".", "").lower()
    if letters in _SERVICE_SIGNERS or letters in _SIGNER_ROLES or letters in _DOTTED_WORDS \
            or "." not in v and (letters in FUNCTION_WORDS or zipf(letters) >= 5.0):
        return None  # ("-PT", "- RN", "-ok", "a.m.")
    ls = text.rfind("\n", 0, m.start("v")) + 1
    own_line = text[ls : m.start("v")].strip(" \t-–—~") == ""
    if own_line:
        if m.group("dash") is None and "." not in v:
            return None  # (bare letters alone on a line are the note's last line's, closing_initials)
        prev_end = ls - 1
        prev_start = text.rfind("\n", 0, max(0, prev_end)) + 1
        prev = text[prev_start:prev_end] if prev_end > 0 else ""
        if not prev.strip() or prev.rstrip().endswith(":") or _LIST_ITEM_RE.match(prev) and m.group("dash") is not None \
                or _DOTTED_ALONE_RE.fullmatch(prev.strip()):
            return None  # ("PMH:\n- TB", "- HTN\n- OA": an item of a list; "a.\nb.": a list's letters)
        if text[m.end() : m.end() + 1] == "\n" and _LIST_ITEM_RE.match(text, m.end() + 1) and m.group("dash") is not None:
            return None  # ("stable.\n- OA\n- DM": the first item of a list)
    if "." not in v and _letters_are_a_word(letters) and (
            _NEXT_ENTRY_RE.match(text, m.end()) is None
            or is_clinical_term(letters) and not (own_line or m.group("dash") == "--")):
        return None  # ("- ps\nMeds:": letters a word shares that do not close the entry; "On 2L. - NC": after a
        # sentence on its line, a clinical abbreviation, though a signature's own line or a double dash may close on one)
    return m.span("v")


def _given_in_paren_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A given name in parentheses after a role ("PT (Mark)", "sw (will)"): a census given name that is no clinical
    abbreviation, written capitalised where its line is in mixed case."""
    from clinx.text.evidence import line_case_at
    from clinx.text.lexicons import first_names, is_clinical_term

    v = m.group("v")
    if v.lower() not in first_names() or is_clinical_term(v.lower()):
        return None  # ("PT (BID)": a dosing time)
    if v.islower() and line_case_at(text, m.start("v")) == "mixed":
        return None  # (in a mixed-case line a name is capitalised)
    return m.span("v")


def _code_signature_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A signer's initials and a number closing a line ("jl4", "-KT3"), unless the letters are clinical ("hd3")."""
    from clinx.text.lexicons import is_clinical_term

    letters = m.group("v").rstrip("0123456789")
    if is_clinical_term(letters) or letters.lower() in _NOT_SIGNATURE:
        return None
    return m.span("v")


#: Letters before a digit at a line's end that are no signer: a day or a count ("pod3", "hd2", "x2", "cn7", "gr2").
_NOT_SIGNATURE = frozenset("pod hd hod day dy wk cycle c cn gr g gp grade stage ta tb no q x".split())
# two letters, a digit, blanks, then a line end: every code_signature match holds one (led by the digit)
_CODE_SIGNATURE_GATE_RE = re.compile(r"\d(?<=[A-Za-z]{2}\d)\d?[ \t]*(?:\n|$)")


def _code_signature_gate(t: str, low: str) -> bool:
    """Sound gate of ``code_signature``: a line ends on two letters and a digit or two. A one-line text (a
    question) is decided by its last characters alone."""
    if "\n" not in t:
        e = len(t.rstrip(" \t"))
        return e > 2 and t[e - 1].isdigit() and _CODE_SIGNATURE_GATE_RE.search(t, max(0, e - 2)) is not None
    return _CODE_SIGNATURE_GATE_RE.search(t) is not None

_TOWN_STATE_BEFORE_RE = re.compile(r"(?<![\w])[A-Za-z]{3,20},?[ \t]{1,2}(?i:" + _STATES_ANY_CASE + r")\.?,?[ \t]{1,3}$")
#: Every age_after_name match holds a comma or a dash, a blank, then a 9 or a 1.
_AGE_AFTER_NAME_GATE_RE = re.compile(r"[,—–-][ \t][91]")
_PAGING_BEFORE_RE = re.compile(
    r"(?i:\b(?:(?:page|paged|pagers?|pgrs?|beeper|bpr|spectra|spectralink|vocera|ascom)\.?:?\s{0,2}(?:at\s{1,2})?#?\s{0,2}"
    # ("PAGE ACKERLEY 4866": the person paged between the word and the number; "SPECTRA 6001": a ward's handset)
    r"(?:[a-z][a-z'-]+\s{1,2})?"
    r"|(?:call|callback|call\s{1,2}back|contact)\.?:?\s{0,2}(?:at\s{1,2})?#?\s{0,2}"
    # ("pgrs 3350 / 3371": the second pager of a list)
    r"|(?:pgrs?|pagers?)\.?:?\s{0,2}#?\s{0,2}\d{3,5}\s{0,2}[/,&]\s{0,2}))$"
)


def _before_ok(before: re.Pattern, then: Validator | None = None) -> Validator:
    """A validator: the match counts when ``before`` matches the 40 characters that end where it starts."""

    def ok(m: re.Match, text: str) -> tuple[int, int] | None:
        s = m.start()
        if before.search(text, max(0, s - 40), s) is None:
            return None
        return then(m, text) if then is not None else m.span()

    return ok


#: Records beyond the built-in patterns of :mod:`clinx.text.rules` and the dates of
#: :mod:`clinx.text.dates`: append one here (one edit) and ``RuleRecognizer`` runs it.
# every grouped number above holds a digit, a blank and a digit ("0412 555", "2 9555")
#: A letter and four digits then a digit group: where a blood unit's number may be (the gate of ``id_blood_unit``).
_BLOOD_UNIT_RE = re.compile(r"[A-Za-z]\d{4}[ ]?\d{2}")
_GROUPED_DIGITS_RE = re.compile(r"\d \d")
_HEALTH_NUMBER_WORD_RE = re.compile(r"medicare|phn|phin|ohip|ihi|hsn|hcn|nhs|health card|health number|mcp|ramq|health ?#|id|crn")


def _eircode_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """An Eircode after its label ("eircode t12 x4kp") or closing an Irish address line after a comma ("Cork, T12 X4KP")."""
    before = text[max(0, m.start() - 20) : m.start()].lower()
    if "eircode" in before or before.rstrip(" \t").endswith(",") and m.group()[:1].isupper():
        return m.span()
    return None


def _uk_postcode_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A British postcode, with the listed post town right before it ("Glasgow G51 4BJ")."""
    from clinx.text.lexicons import fold, places

    town = m.group("town")
    if town is not None and fold(town.lower()) in places():
        return m.start("town"), m.end("v")
    return m.span("v")


def _staff_initials_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """Initials in a staff field unless every group is a clinical abbreviation or a word ("TECH: CT", "RN: PT/OT")."""
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term

    if not m.group("v").isupper():
        return None  # (the field's flags ignore case: "Assisted: no")
    groups = [g.strip().lower() for g in m.group("v").split("/")]
    if all(is_clinical_term(g) or g in FUNCTION_WORDS for g in groups):
        return None
    return m.span("v")


#: Common Korean and Chinese surnames as notes spell them.
_EAST_ASIAN_SURNAMES = frozenset(
    """
park kim lee choi jung chung kang cho yoon jang lim han shin seo kwon hwang ahn song yoo hong jeon moon
wang zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo lin he gao luo zheng liang xie tang
""".split()
)


def _hyphenated_given_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A hyphenated given name before an East Asian surname, unless its halves are English words or clinical
    abbreviations ("ex-wife lee", "pre-op park", "s/p in-law kim")."""
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, ordinary_words

    halves = m.group("v").split()[0].lower().split("-")
    if any(h in FUNCTION_WORDS or h in _ENGLISH_PREFIXES or is_clinical_term(h) for h in halves) \
            or all(h in ordinary_words() for h in halves):
        return None
    return m.span("v")


#: Prefixes English joins to a word by a hyphen ("pre-op", "step-son", "self-pay").
_ENGLISH_PREFIXES = frozenset("pre post non co re ex in self step half anti sub mid semi multi".split())


#: Words a letter or a message greets that name no one ("Dear Colleague", "Dear Sir/Madam", "Hi team,").
_SALUTATION_GENERIC = frozenset(
    """
colleague colleagues sir sirs madam doctor doctors dr team all everyone patient patients parent parents guardian friend
friends family nurse nurses provider providers member members customer whom reader caregiver caregivers there folks
""".split()
)


def _salutation_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """The greeted person's name unless it is a generic word or starts with a title (name_title takes those)."""
    from clinx.text.evidence import ROLES, TITLES
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term

    g = "w" if m.group("low") else "v"
    words = [w.lower().strip("'’") for w in m.group(g).split()]
    if words[0] in TITLES or words[0] in _SALUTATION_GENERIC or any(w in _SALUTATION_GENERIC for w in words):
        return None
    if g == "w" and any(w in FUNCTION_WORDS or w in ROLES or is_clinical_term(w) and not m.group("title") for w in words):
        return None  # ("hi there,", "dear doctor,", "hi team:": no one's name in small letters; after a title any word is
        # the name, "dear ms hill,")
    return m.span(g)


#: What every British postcode above holds: a blank, a digit and two capitals closing a word ("M33 5BW").
_UK_INWARD_GATE_RE = re.compile(r"[ \t]\d[A-Z]{2}\b")
#: What every Canadian postal code holds: a letter and a digit, a blank, a digit, a letter and a digit.
_CA_POSTCODE_GATE_RE = re.compile(r"[a-z][ \t]\d[a-z]\d")


def _university_short_form_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A university's short form ("Stockton U", "U of M"), unless the words before "U" are clinical (a drug's name
    before its units: "Glargine U", "Regular U"), a function word, a title or a role, or the line is in one case."""
    from clinx.text.evidence import ROLES, TITLES, line_case_at
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, places, zipf

    if line_case_at(text, m.start()) != "mixed":
        return None
    words = [w.lower() for w in m.group("v").split()[:-1]] if not m.group("v").startswith("U ") else []
    if any(w in FUNCTION_WORDS or w in TITLES or w in ROLES or is_clinical_term(w) for w in words):
        return None
    if words and not (words[-1] in places() or zipf(words[-1]) < 4.0):
        return None  # ("Give Regular U per scale": an everyday word before units; a university's is a town's or a rare word)
    return m.span("v")


_IN_HOUSE_GATE_RE = re.compile(r"\d-\d{4}")
_YEAR_RE = re.compile(r"(?:19|20)\d\d")


def _in_house_number_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """An in-house number ("4-2290"), unless its four digits are a year ("3-2019": a month and a year) or a unit
    follows ("1-1000 mL", "2-4000 units")."""
    if _YEAR_RE.fullmatch(m.group("v")[2:]) or _UNIT_AFTER_RE.match(text, m.end()):
        return None
    return m.span("v")


#: What a society's or an association's name may be followed by where it names a grading, not the organisation
#: ("New York Heart Association class III", "Endocrine Society criteria").
_GRADING_AFTER_RE = re.compile(r"[ \t]*\(?(?i:class|classification|criteria|guidelines?|grade|grading|stage|score|functional)\b")
_ADVOCACY_WORD_RE = re.compile(r"[^\s&]+")


def _advocacy_organisation_ok(m: re.Match, text: str) -> tuple[int, int] | None:
    """A patients' organisation named by its disease or its cause and a head ("Undiagnosed Diseases Network",
    "OXALOSIS & HYPEROXALURIA FOUNDATION"): the capitalised words after the last function word, title or role before
    the head ("APPLYING TO [...]"), at least one; in a line of capitals only after such a word or a mark and before a
    foundation, an association or a society ("GOOD SUPPORT NETWORK" is no name); never a grading's name."""
    from clinx.text.evidence import ROLES, TITLES
    from clinx.text.lexicons import FUNCTION_WORDS, is_clinical_term, zipf

    if _GRADING_AFTER_RE.match(text, m.end("v")):
        return None
    words = list(_ADVOCACY_WORD_RE.finditer(text, m.start("v"), m.end("v")))
    start, kept = m.start("v"), 0
    for w in words[:-1]:
        low = w.group().lower().strip("'’")
        if low in ("and", "of", "for") and kept:
            continue
        if low in FUNCTION_WORDS or low in TITLES or low in ROLES:
            start, kept = w.end(), 0
            while start < m.end("v") and text[start] in " \t&":
                start += 1
            continue
        kept += 1
    if kept == 0:
        return None
    names = [w.group().lower() for w in words[:-1] if w.start() >= start and w.group().lower() not in ("and", "of", "for")]
    if all(zipf(w) >= 4.5 and not is_clinical_term(w) for w in names):
        return None  # "a Strong Support Network": everyday words, capitalised or not, name no one organisation
    head = words[-1].group()
    if head.isupper() and text[start : m.end("v")].isupper():
        line_start = text.rfind("\n", 0, start) + 1
        if start == m.start("v") and text[line_start:start].strip() and not text[line_start:start].rstrip()[-1:] in ":,;(-":
            return None  # (in capitals a name needs its cue or a mark before it)
        if head not in ("FOUNDATION", "ASSOCIATION", "SOCIETY"):
            return None
    return start, m.end("v")


EXTRA_RECOGNIZERS: list[Recognizer] = [
    # "match @ Stockton U", "Merrimont U SHS", "sophomore at U of M": a university by its short form, a name's
    # capitalised word before a lone "U" in a mixed-case line ("10 U insulin", "Lantus U-100" are units), or "U of" and
    # a capitalised word
    Recognizer(
        "university_short_form",
        r"(?<![\w.-])(?P<v>(?:[A-Z][a-z'’]+[ \t]){1,2}U|U[ \t]of[ \t][A-Z][A-Za-z'’]*)(?![\w/-]|\.[A-Za-z])",
        "HOSPITAL", 0.85, validator=_university_short_form_ok,
        gate=lambda t, low: " U" in t or "U of " in t,
    ),
    # "Undiagnosed Diseases Network", "OXALOSIS & HYPEROXALURIA FOUNDATION", "Sickle Cell Association": a patients'
    # organisation named by its disease or its cause, which no lexicon lists (the listed ones it repeats)
    Recognizer(
        "advocacy_organisation",
        r"(?P<v>(?<![\w&'’-])(?:[A-Z][\w'’-]*[ \t]{1,2}(?:(?:&|and|AND|of|OF|for|FOR)[ \t]{1,2})?){1,5}"
        r"(?:Foundation|Association|Society|Network|Alliance|Coalition|FOUNDATION|ASSOCIATION|SOCIETY|NETWORK|ALLIANCE|COALITION))"
        r"(?![\w'’-])",
        "HOSPITAL", 0.85, validator=_advocacy_organisation_ok,
        gate=lambda t, low: "foundation" in low or "association" in low or "society" in low or "network" in low
        or "alliance" in low or "coalition" in low,
    ),
    # "Initials G.H.", "init t.w.", "INITIALS: PL": a research subject's initials after the field's word
    Recognizer(
        "subject_initials",
        # ("init" is "initiated" too: "init tpn"; after it only dotted letters)
        r"(?i)(?<![\w/])init(?P<full>ials|s)?\.?[ \t]{0,2}:?[ \t]{1,3}"
        r"(?P<v>[a-z]\.[ \t]?[a-z]\.(?:[ \t]?[a-z]\.)?|(?(full)[a-z]{2,3}(?![\w.'’-])|(?!)))",
        "NAME", 0.85, gate=lambda t, low: "init" in low,
    ),
    # "XG/ss", "GPP/church/olinger", "AKR/TJ" on a line of its own under a dictated note's signature: the author's initials,
    # then the typist's initials or names
    Recognizer(
        "dictation_initials",
        # ("NFH/gw   D: 01/04/2026  T: ...": the dictation's and the typing's dates may follow after two blanks)
        # ("Dictated by ... MD. RC/jk 12/04/26": after the dictating doctor's credential on the same line, a date may follow)
        r"(?m)(?:^[ \t]*|(?<=\bMD\.[ \t])|(?<=\bM\.D\.[ \t]))(?P<v>[A-Z]{2,4}/(?:[a-z]{2,12}(?:/[a-z]{2,12})?|[A-Z]{2,3}))"
        r"(?:[ \t]*$|(?P<field>" + _DICTATION_FIELD_AFTER + r")|(?<=[a-z])(?=[ \t]+\d{1,2}/\d{1,2}/\d{2,4}[ \t]*$))",
        "NAME", 0.85, validator=_initials_ok, gate=lambda t, low: _INITIALS_GATE_RE.search(t) is not None,
    ),
    # "kd/rn", "-- JS RN", "- ml, np": a signer's initials before a credential, alone on the last lines
    Recognizer(
        "signature_initials",
        # ("Will monitor. tq/rn": after a sentence on the same line only with the slash)
        # ("f.a. lcsw", "mw ma", "pmk dpm": dotted initials, a medical assistant's, a podiatrist's)
        # ("jn rn, hch outreach", "dq rrt  pager 1234", "C.M. RD LD": more credentials, then a comma's, two blanks' or
        # a bar's tail, may follow the first)
        r"(?im)(?:^[ \t]*(?:-{1,2}[ \t]?)?(?P<v>[a-z]{2,3}|[a-z]\.[ ]?[a-z]\.)(?:[ \t]?/[ \t]?|,?[ \t])|[.;!][ \t]{1,3}(?P<w>[a-z]{2,3})[ \t]?/[ \t]?"
        # ("MRN 1234567. -- KM, RN": after a sentence, a signature's dash too)
        r"|[.;!][ \t]{1,3}-{1,2}[ \t]?(?P<x>[a-z]{2,3})(?:,?[ \t]|[ \t]?/[ \t]?))"
        r"(?:rn|lpn|np|md|pa|pa-c|cna|msw|lcsw|licsw|rrt|ma|cma|dpm|rd|dpt|slp|cnm|cm)\.?"
        r"(?:(?:,?[ \t]|[ \t]?/[ \t]?)(?:rn|lpn|np|md|cna|msw|lcsw|licsw|rrt|rd|ld|ldn|phn|cde|ibclc|bsn|ccm|cdces|cm)\b\.?)*"
        # ("-- jt, md (pgy-3) / attending ...": a parenthesis or a slash's tail too)
        # ("-- bh, np 617-555-0101": or a phone number after one blank)
        # ("kr/cm ext 4417": or the signer's extension or pager)
        r"(?:[ \t]*(?:,|\||[ \t]{2}|[ \t]-[ \t]|\(|/)[^\n]*|[ \t](?=[\d(])[^\n]*|[ \t](?:ext|x|pager|pg|cell)\.?[ \t]?\d[^\n]*)?[ \t]*$",
        "NAME", 0.85, validator=_signature_initials_ok,
        gate=lambda t, low: "rn" in low or "np" in low or "md" in low or "pa" in low or "cna" in low or "sw" in low or "rrt" in low
        or "ma" in low or "dpm" in low or "rd" in low or "dpt" in low or "slp" in low or "cnm" in low or "cm" in low,
    ),
    # "D. MCCRORY, MD / KLT", "S. Greenblatt MD/klp": the typist's initials after the signer's credential, closing the line
    Recognizer(
        "typist_initials",
        r"(?m)(?:\bmd|\bm\.d\.|\bdo|\bnp|\bpa-c|\bdpm)[ \t]?/[ \t]?(?P<v>[a-z]{2,4})[ \t]*$",
        "NAME", 0.85, validator=_signature_initials_ok, flags=re.I, gate=lambda t, low: "/" in t,
    ),
    # "Dictated by Amy Lee / tf", "DICTATED JOHN SMITH / JK": the typist's initials after a dictating signer's name and a
    # slash, closing the line
    Recognizer(
        "dictation_typist_initials",
        r"(?im)\b(?:dictated|transcribed)\b[^\n/]{3,60}[ \t]/[ \t]?(?P<v>[a-z]{2,3})[ \t]*$",
        "NAME", 0.85, validator=_dictation_initials_ok, gate=lambda t, low: "dictated" in low or "transcribed" in low,
    ),
    # "transcribed by dp.", "TRANSCRIBED BY SW.": after a verb of writing and "by", two or three letters closing the
    # clause are the writer's initials, even letters an abbreviation also uses
    Recognizer(
        "written_by_initials",
        # ("REGISTERED BY: TC", "Dictated by PR / transcribed jk/mm": a typist's pair after "transcribed" needs no "by")
        # ("DICT: MOD/JRS", "DICTATED: SBA   TRANSCRIBED: ...": after a dictation field's colon too, the next field after
        # two blanks)
        # ("given by: nk, rn  to: ...", "PASSED BY: TS / RECEIVED: AKB", "cosign MF": a handoff's or a co-signer's field)
        r"(?i)\b(?:(?:transcribed|typed|dictated|entered|scribed|written|registered|given|passed|received|cosigned|grossed)[ \t]+by:?"
        # ("dictated tq / transcribed lw 01/05": a bare "dictated" before a slash, the typist's date after one blank)
        r"|transcribed:?|(?:dictated|dict\.?|typed|received):|dictated(?=[ \t]+[a-z]{2,3}[ \t]*/)|cosign(?:ed)?:?)[ \t]+"
        # ("TRANSCRIBED GW JOB 44719": the transcription's job number after one blank)
        r"(?P<v>[a-z]{2,3}(?:/[a-z]{2,3})?)(?=[ \t]*(?:[.,;)/]|$|\n)|[ \t]{2,}|[ \t]\d|[ \t]job\b)",
        "NAME", 0.85, validator=_written_by_ok, gate=lambda t, low: "transcribed" in low or "dict" in low or " by" in low and (
            "typed" in low or "entered" in low or "scribed" in low or "written" in low or "registered" in low or "given" in low
            or "passed" in low or "received" in low or "grossed" in low) or "typed:" in low or "received:" in low or "cosign" in low,
    ),
    # "mrs. murphy, 92, lives with daughter": an age over 89 between commas right after a name
    Recognizer(
        "age_after_name",
        # ("resident jane doe, 94. alert": a sentence's end after the age too)
        # ("Alleged victim: [NAME], 90 (DOB ...)": or a date of birth in parentheses)
        # ("Mrs Ada Byrne, 93 y, lives": a unit of years after it; "Nora Healy (Nonie), 96,": a nickname before it)
        # ("great-grandmother (Ilona Farkas, 93) who": the parenthesis that holds name and age closing; "Odessa
        # Washington, 94, "sharp as a tack"": a quotation after the comma)
        # ("• 705 Mrs. Goldfarb — 92, aspiration PNA": a census line's dash for the comma)
        r"(?<=[A-Za-z)])(?:,|[ \t][—–-])[ \t](?P<v>9\d|1[01]\d)(?:[ \t]?(?:y|yo|yrs?|y/o)\b)?"
        # ("harold whitcombe, 93, 1147 county rd 9": an address after the comma)
        r"(?:,(?=[ \t]+[\"“']?[a-z]|[ \t]+\d{1,5}[ \t]+[a-z])|\.(?=[ \t]+[a-z])|(?=\)(?!\d))|(?=[ \t]\((?i:dob|d\.o\.b|born|b\.)))",
        "AGE", 0.85, validator=_age_after_name_ok, flags=re.I,
        gate=lambda t, low: _AGE_AFTER_NAME_GATE_RE.search(t) is not None,
    ),
    # "RM 112 PEARL ABERNATHY (97) - SLEPT WELL", "resident jane doe (94) alert": an age in parentheses right after a name
    Recognizer(
        "age_in_parens_after_name",
        r"(?<=[A-Za-z])[ \t]\((?P<v>9\d|1[01]\d)\)(?![ \t]?(?:%|/|[a-z]))",
        "AGE", 0.85, validator=_age_after_name_ok, gate=lambda t, low: "(9" in t or "(1" in t,
    ),
    # "lives with husband (97)", "MOM (91) HAD 2 FALLS": an age over 89 in parentheses after a relative
    Recognizer(
        "age_after_relative",
        # ("wife ann (90) present": or after the relative's given name)
        # ("maternal grandmother (91, lives in Santo Domingo)": the age opening a parenthesis that goes on)
        r"(?i)\b" + _RELATIVES + r"(?:[ \t]{1,2}[A-Za-z][A-Za-z'’-]{1,20}){0,3}[ \t]{1,2}\((?P<v>9\d|1[01]\d)(?:\)|,[ \t])",
        "AGE", 0.85, gate=lambda t, low: "(9" in t or "(1" in t,
    ),
    # "husband Joe, 92, at home", "MOTHER ROSA DIAZ, 101,": an age over 89 set off by commas after a relative's name
    Recognizer(
        "age_after_relative_name",
        # ("FATHER DECEASED; MOTHER, 91, RESIDES AT ...": or right after the relative's word)
        r"(?i)\b" + _RELATIVES + r"(?:[ \t]{1,2}(?P<name>[a-z][a-z'’-]*(?:[ \t][a-z][a-z'’-]*){0,2}))?,[ \t]{1,2}(?P<v>9\d|1[01]\d)"
        r"(?=[ \t]*(?:[,;)]|\.(?!\d)|$|y/?o\b|yrs?\b|years?\b))",
        "AGE", 0.85, validator=_relative_name_ok, gate=lambda t, low: ", 9" in t or ", 1" in t,
    ),
    # "served with 3rd battalion, 7th marines", "82nd Airborne", "362ND ENGINEER COMPANY": a military unit by its number
    Recognizer(
        "military_unit",
        # ("2ND BN 8TH MARINES": the battalion and its regiment with no comma between; "2-17 FIELD ARTILLERY", "1-2 SBCT":
        # a battalion and its regiment written with a hyphen before the arm, its short form in capitals only)
        r"(?i)(?<![\w/-])(?P<v>(?:\d{1,3}(?:st|nd|rd|th)[ \t](?:[a-z]+[ \t]){0,2}" + _MILITARY_UNIT
        + r"(?:,?[ \t]\d{1,3}(?:st|nd|rd|th)[ \t](?:[a-z]+[ \t])?" + _MILITARY_UNIT + r")?"
        r"|\d{1,2}-\d{1,3}[ \t](?:field[ \t]artillery|infantry|cavalry|armou?r|aviation|(?-i:SBCT|BCT|IN|AR|FA|CAV))))(?![\w-])",
        "HOSPITAL", 0.85, gate=lambda t, low: _MILITARY_GATE_RE.search(low) is not None,
    ),
    # "eircode t12 x4kp", "Cork, T12 X4KP": an Irish postcode, its routing key and four characters of letters and digits
    Recognizer(
        "eircode",
        r"(?i)(?<![\w-])[acdefhknprtvwxy]\d{2}[ \t]?(?=[0-9a-z]{0,3}\d)(?=[0-9a-z]{0,3}[a-z])[0-9acdefhknprtvwxy]{4}(?![\w-])",
        "ZIP", 0.85, validator=_eircode_ok, gate=lambda t, low: "eircode" in low or "ireland" in low or "co. " in low,
    ),
    # "toronto, on m9a 4x9", "postal code K1A 0B1": a Canadian postal code, its two halves apart and in one case (no
    # stage: "T2N0M0" is written whole or with blanks after each digit, and the codes' letters exclude D, F, I, O, Q, U)
    Recognizer(
        "ca_postcode",
        r"(?<![\w/-])(?:[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t]\d[ABCEGHJ-NPRSTV-Z]\d"
        r"|[abceghj-nprstvxy]\d[abceghj-nprstv-z][ \t]\d[abceghj-nprstv-z]\d)(?![\w-])",
        "ZIP", 0.85, gate=lambda t, low: _CA_POSTCODE_GATE_RE.search(low) is not None,
    ),
    # "rn will o'hara", "pt will santos", "WILL FERNANDES, PA-C": "will" before a surname that is no word of English is
    # a given name (the modal takes a verb); every such pair in the tune notes names a person (137 of 137)
    Recognizer(
        "will_before_surname",
        r"(?<![\w'’-])(?P<v>(?:will|Will|WILL)[ \t]+[A-Za-z][A-Za-z'’-]+)(?![\w'’-])",
        "NAME", 0.85, validator=_will_before_surname_ok, gate=lambda t, low: "will " in low or "will\t" in low,
    ),
    # "Ruby (7) had anaphylaxis at school", "SIBLING HOPE (3) ATTENDS": a given name before a child's age in parentheses
    Recognizer(
        "given_name_before_age",
        r"(?<![\w'’-])(?P<v>[A-Z][a-z]{2,}|[A-Z]{3,})[ \t]\((?:age[ \t])?\d{1,2}(?:[ \t]?(?:y|yo|yrs?|mos?))?\)",
        "NAME", 0.85, validator=_given_name_before_age_ok, gate=lambda t, low: "(" in t,
    ),
    # 'pt keeps asking for "dawn"', 'calling out for "frank"': a given name in quotation marks that a patient asks or
    # calls for (not "water", "help", "mom": no given names)
    Recognizer(
        "given_name_called_for",
        r"(?i)\b(?:ask(?:s|ed|ing)?|call(?:s|ed|ing)?(?:[ \t]+out)?|cr(?:y|ies|ied|ying)(?:[ \t]+out)?|yell(?:s|ed|ing)?|"
        r"scream(?:s|ed|ing)?|look(?:s|ed|ing))[ \t]+for[ \t]+[\"“'‘](?P<v>[a-z][a-z'’-]+)[\"”'’]",
        "NAME", 0.85, validator=_given_name_before_age_ok, gate=lambda t, low: " for " in low and ('"' in t or "“" in t or "'" in t or "‘" in t),
    ),
    # "Sale, M33 5BW", "Leeds LS6 2QT": a British postcode, in capitals, its two halves apart (an ordinal's ending is no
    # inward code: "L4 5TH NERVE"; a spinal level has no letters after its digit: "L5 S1")
    Recognizer(
        "uk_postcode",
        # ("Glasgow G51 4BJ": a listed post town right before it goes with it, though "Glasgow" is a coma scale too)
        r"(?<![\w/-])(?:(?P<town>[A-Z][A-Za-z'-]+(?:[ \t][A-Z][A-Za-z'-]+)?),?[ \t])?"
        r"(?P<v>[A-Z]{1,2}\d[A-Z\d]?[ \t]\d(?!(?:ST|ND|RD|TH)\b)[ABD-HJLNP-UW-Z]{2})(?![\w-])",
        "ZIP", 0.85, validator=_uk_postcode_ok, gate=lambda t, low: _UK_INWARD_GATE_RE.search(t) is not None,
    ),
    # "Dear Joe,", "Hi Grace -": the person a letter or a message greets, at its line's start (a title's name is
    # name_title's; "Dear Colleague", "Dear Sir/Madam" greet no one in particular)
    Recognizer(
        "salutation_name",
        # ("dear ms hill,", "hi grace,": in a note typed in small letters the greeting is too, the comma closing it; the
        # title before the name is the greeting's)
        r"(?m)^[ \t]*(?:Dear|DEAR|Hi|HI|Hello|HELLO|(?P<low>dear|hi|hello))[ \t]+"
        r"(?(low)(?P<title>(?:mr|mrs|ms|miss|dr|prof|rev)\.?[ \t]+)?(?P<w>[a-z][a-z'’-]+(?:[ \t][a-z][a-z'’-]+){0,2})[ \t]*[,:]"
        r"|(?P<v>[A-Z][A-Za-z'’-]+(?:[ \t][A-Z][A-Za-z'’-]+){0,2})[ \t]*(?:,|:|[ \t]-[ \t]|$))",
        "NAME", 0.85, validator=_salutation_ok, gate=lambda t, low: "dear " in low or "hi " in low or "hello " in low,
    ),
    # "SONOGRAPHER: KM / DB", "Scribe: JT": initials in a field for the staff who did the work, closing the line (one
    # group that is a clinical abbreviation, "TECH: CT", or two, "RN: PT/OT", is what was done, no one's initials)
    Recognizer(
        "initials_in_staff_field",
        r"(?im)^[ \t]*(?:[a-z]+[ \t])?(?:sonographer|tech|technologist|scribe|transcriptionist|typist|nurse|rn|therapist|"
        r"supervisor|interpreter|assist(?:ed)?|assistant|witness)s?[ \t]*:[ \t]*"
        r"(?P<v>[A-Z]{2,3}(?:[ \t]*/[ \t]*[A-Z]{2,3})?)[ \t]*$",
        "NAME", 0.85, validator=_staff_initials_ok, gate=lambda t, low: ":" in t,
    ),
    # "client hye-jin park", "JI-WOO KIM": a Korean or Chinese given name of two syllables joined by a hyphen, then a
    # common surname of those languages, in any case
    Recognizer(
        "hyphenated_given_name",
        r"(?i)(?<![\w'’-])(?P<v>[a-z]{1,4}-[a-z]{2,4}[ \t](?:" + "|".join(sorted(_EAST_ASIAN_SURNAMES)) + r"))(?![\w'’-])",
        "NAME", 0.85, validator=_hyphenated_given_ok, gate=lambda t, low: "-" in t,
    ),
    # "shield 22817, 67th Precinct": a police precinct by its number
    Recognizer(
        "police_precinct",
        r"(?i)(?<![\w/-])(?P<v>\d{1,3}(?:st|nd|rd|th)[ \t](?:police[ \t])?precinct)(?![\w-])",
        "HOSPITAL", 0.85, gate=lambda t, low: "precinct" in low,
    ),
    # "pt is ninety-three", "aged ninety one", "TURNED 90 LAST WEEK", "DOB 01/02/1930 (94)": an age over 89 in words, after
    # "turned", or in parentheses after a date of birth
    Recognizer(
        "age_in_words",
        r"(?i)\b(?:is|aged?|turned|turns)[ \t]{1,2}(?P<v>(?:ninety|one[ \t-]hundred)(?:[ \t-](?:and[ \t])?(?:one|two|three|four|five|six|seven|eight|nine|ten))?)\b"
        r"(?![ \t-]*(?:percent|%|degrees?|deg|°|point|one|two|three|four|five|six|seven|eight|nine|mg|ml|minutes?|mins?|seconds?|pounds?|lbs?|kg|times))",
        "AGE", 0.85, gate=lambda t, low: "ninety" in low or "hundred" in low,
    ),
    # "mrs. ada quarshie, ninety-three, at request of": an age over 89 in words between commas after a name
    Recognizer(
        "age_in_words_apposed",
        r"(?i)(?<=,[ \t])(?P<v>(?:ninety|one[ \t-]hundred)(?:[ \t-](?:and[ \t])?(?:one|two|three|four|five|six|seven|eight|nine))?),",
        "AGE", 0.85, gate=lambda t, low: "ninety" in low or "hundred" in low,
    ),
    # "A STORY FOR HER 102ND IN NOVEMBER", "his 95th birthday": an ordinal over 89 after a possessive is a birthday
    # (not a growth chart's "her 95th percentile")
    Recognizer(
        "age_ordinal_birthday",
        r"(?i)\b(?:her|his|my|their)[ \t](?P<v>(?:9\d|1[01]\d)(?:st|nd|rd|th))\b(?![ \t]*(?:percentile|%ile|centile|%|pctl))",
        "AGE", 0.85, gate=lambda t, low: _ORDINAL_OVER_89_RE.search(t) is not None,
    ),
    Recognizer(
        "age_turned",
        r"(?i)\bturn(?:ed|s)?[ \t]{1,2}(?P<v>9\d|1[01]\d)(?![\w.%°]|[ \t]*(?:degrees?|deg|°|%|percent|mg|ml|min|minutes?))",
        "AGE", 0.85, gate=lambda t, low: "turn" in low,
    ),
    # 'I've had 95 good years', 'made it to 100 on New Year's Day', 'would like to make 100': a life's count of years
    Recognizer(
        "age_years_lived",
        r"(?i)\b(?:had[ \t]{1,2}(?P<v>9\d|1[01]\d)(?=[ \t]{1,2}(?:good[ \t]|great[ \t]|wonderful[ \t]|long[ \t])?years\b)"
        r"|(?:made[ \t]it[ \t]to|make[ \t]it[ \t]to|to[ \t]make|celebrat(?:ed|e|es))[ \t]{1,2}(?P<w>9\d|1[01]\d)"
        r"(?![\w.%°/-]|[ \t]*(?:degrees?|deg|°|%|percent|mg|ml|mmhg|mm|lb|lbs|kg|bpm)\b))",
        "AGE", 0.85, validator=lambda m, text: m.span("v") if m.group("v") else m.span("w"),
        gate=lambda t, low: "had " in low or "make" in low or "made" in low or "celebrat" in low,
    ),
    Recognizer(
        "age_after_birth_date",
        r"(?i)\b(?:dob|d\.o\.b\.?|date[ \t]of[ \t]birth)[ \t]*:?[ \t]*[\d/.-]{6,10}[ \t]{0,2}\((?P<v>9\d|1[01]\d)(?:[ \t]?(?:y|yo|y/o|yrs?|years?))?\)",
        "AGE", 0.85, gate=lambda t, low: "(9" in t or "(1" in t,
    ),
    # "SPD officer", "nnpd officer on scene": a police department by its letters, before an officer or its unit
    Recognizer(
        "police_department",
        # ("cpd youth division", "BPD ACCIDENT REPORT": a division or a report of it; "SFFD Medic 81": a fire department's unit)
        # ("HULL PD ON SCENE", "bib seattle pd,": a town's name, then PD; after "bib"/"by" no cue is needed after it)
        # ("MSP TROOPER", "nysp trooper": a state police by its letters, before its trooper)
        r"(?i)(?<![\w/-])(?P<v>[a-z]{1,4}(?:pd|fd)|(?:[a-z]{3,15}[ \t]){1,2}(?:pd|fd)|[a-z]{1,3}sp(?=[ \t]{1,2}troopers?\b))"
        r"(?=[ \t]{1,2}(?:officers?|ofc|police|detectives?|det|sgt|sergeant|troopers?|units?|on[ \t]scene|patrol|case|youth|division|accident|"
        r"report|incident|medic|engine|ladder|rescue|ems)\b|(?<=pd)[ \t]*[,;.)]|(?<=fd)[ \t]*[,;.)])",
        "HOSPITAL", 0.85, validator=_police_department_ok, gate=lambda t, low: _DEPARTMENT_GATE_RE.search(low) is not None,
    ),
    # "TRANSPORT: MISSION AIR", "AIR LIFE FIXED WING", "via air care 1": an air ambulance service named "<word> Air" or
    # "Air <word>", where a transport cue comes before it or an aircraft's words after it (never "room air", "air entry")
    Recognizer(
        "air_transport_service",
        r"(?i)(?<![\w/-])(?P<v>(?!(?:via|and|with|from|for|per|the|room)[ \t])(?P<a>[a-z]{3,15})[ \t]air|air[ \t](?P<b>[a-z]{3,15})(?:[ \t]\d{1,2}(?![\w.:/-]))?)(?![\w-])",
        "HOSPITAL", 0.85, validator=_air_service_ok,
        gate=lambda t, low: "air" in low and _AIR_WORD_RE.search(low) is not None and _AIR_CONTEXT_RE.search(low) is not None,
    ),
    # "RT RN / LG PCT" on a line of its own: two signers' initials, each with a credential (one record for each signer)
    Recognizer("signer_pair_first", _SIGNER_PAIR_RE, "NAME", 0.85, validator=lambda m, t: _signer_pair_ok(m, t, "v"), gate=_signer_pair_gate),
    Recognizer("signer_pair_second", _SIGNER_PAIR_RE, "NAME", 0.85, validator=lambda m, t: _signer_pair_ok(m, t, "w"), gate=_signer_pair_gate),
    # "REFERRAL TO GYN ONC (LAKSHMANAN)", "cardiology (Aisha Osei)": the clinician of a service, in parentheses after it
    Recognizer(
        "clinician_after_service",
        # (led by the parenthesis, a literal scan; the validator reads the service before it)
        r"(?i)\((?<=[a-z][ \t]\()(?P<v>[a-z][a-z'’-]{2,20}(?:[ \t][a-z][a-z'’-]{2,20})?)\)",
        "NAME", 0.85, validator=_clinician_after_service_ok, gate=lambda t, low: "(" in t,
    ),
    # "family training w/ rose and son", "met with Joy and her daughter": a given name beside a relative of the patient's
    Recognizer(
        "given_name_before_relative",
        r"(?i)\b(?:with|w/)[ \t]+(?P<v>[a-z]{3,12})[ \t]+(?:and|&)[ \t]+(?:(?:her|his|their)[ \t]+)?"
        r"(?:son|sons|daughter|daughters|husband|wife|mother|father|mom|dad|sister|brother|grandson|granddaughter|niece|"
        r"nephew|partner|children|kids)\b",
        "NAME", 0.85, validator=_given_before_relative_ok, gate=lambda t, low: " and " in low or "&" in low,
    ),
    # "reply 12/4 (lt, rn): refills sent": a writer's initials and credential in parentheses
    Recognizer(
        "initials_credential_in_paren",
        r"(?i)\((?P<v>[a-z]{2,3}),?[ \t](?:rn|lpn|np|md|pa|pa-c|cna|msw|lcsw|licsw|rrt|rd|slp|cma|pharmd|rph)\)",
        "NAME", 0.85, validator=_initials_in_paren_ok, gate=lambda t, low: "(" in t,
    ),
    # "bh/kt" on a line of its own: the author's and the typist's initials written in lower case
    Recognizer(
        "dictation_initials_lower",
        # ("-- mb/rs": after a signature's dash too; "rtc 2 wks.   hn/rt": after a sentence and two blanks, on the last line)
        # ("jk/mm for Dr Okafor, attending": a typist's pair for the doctor who dictated)
        # ("jk/mm  D: 03/02  T: 03/03": the dictation's and the typing's dates may follow after two blanks, as in capitals)
        r"(?m)(?:^[ \t]*(?:-{1,2}[ \t]?)?|(?P<mid>(?<=[.;!])[ \t]{2,}))(?P<v>[a-z]{2,3}/[a-z]{2,3})(?:[ \t]*$|(?P<for>[ \t]+for[ \t]+(?i:dr|doctor)\b)"
        r"|(?=" + _DICTATION_FIELD_AFTER + r"))",
        "NAME", 0.85, validator=_lower_initials_ok, gate=lambda t, low: "/" in t,
    ),
    # "-- YA/CNGP" closing a note: the author's and the typist's initials in capitals after a signature's dash
    Recognizer(
        "dictation_initials_caps",
        # (without a dash: on the last line, at its start or after a sentence and two blanks, "TOTAL TIME 12 MIN.  DMC/TR")
        r"(?m)(?:^[ \t]*(?P<dash>-{1,2}[ \t]?)?|(?<=[.;!])[ \t]{2,})(?P<v>[A-Z]{2,3}/[A-Z]{2,4})[ \t]*$",
        "NAME", 0.85, validator=_caps_initials_ok, gate=lambda t, low: "/" in t,
    ),
    # "page surg resident (p 2290)", "MD - Hospitalist, p7-1129": a pager number after "p" (a pulse has two or three
    # digits, no hyphen)
    Recognizer(
        "pager_after_p",
        r"(?i)(?<![\w./-])p[ \t]?(?P<v>\d{4,5}|\d-\d{4})(?![\w/.%-]|[.,]\d|[ \t]*(?:mg|mcg|g|kg|ml|cc|units?|u|steps|ft|feet|m|k?cal)\b)",
        "ID", 0.85, gate=lambda t, low: _PAGER_P_GATE_RE.search(low) is not None,
        # ("EMT-P #P4471": after a number sign the letter is the number's own, a crew member's certificate)
        validator=lambda m, t: (m.start(), m.end("v")) if t[m.start() - 1 : m.start()] == "#" else m.span("v"),
    ),
    # "jl4" alone on the last line, "Pt agreeable. -KT3", "FILBERT BRIGHT, M.D.    FB59": a signer's initials and a
    # number closing a line
    Recognizer(
        "code_signature",
        r"(?m)(?:^[ \t]*-{0,2}[ \t]?|[.;!][ \t]{1,8}-{0,2}[ \t]?)(?P<v>[A-Za-z]{2,3}\d{1,2})[ \t]*$",
        "NAME", 0.85, validator=_code_signature_ok, gate=_code_signature_gate,
    ),
    # "Pt resting. --kt/rn", "plan d/c home. -jm", "--J.S.": a signer's initials after a dash, closing a line
    Recognizer(
        "dash_initials",
        # (the dash first, the look-behind after it: the engine skips to dashes; no word, slash or dash before it)
        # ("— A.V.": an em or en dash signs as a hyphen does)
        r"(?m)[-—–](?<![\w/\-—–][-—–])[-—–]?[ \t]?(?P<v>[A-Za-z]{2,3}|[A-Za-z]\.[ ]?[A-Za-z]\.(?:[ ]?[A-Za-z]\.)?)"
        r"(?P<role>[ \t]?/[ \t]?(?i:rn|lpn|np|md|pa|cna|rt|rrt|sw|cm|pt|ot|slp))?[ \t]*$",
        "NAME", 0.85, validator=_dash_initials_ok, gate=lambda t, low: "-" in t or "—" in t or "–" in t,
    ),
    # the note's last line opening with a signer's letters after a dash or before a slash ("-ps", "-nb / tc",
    # "JLR / J.L. Rivera MD")
    Recognizer(
        "closing_line_initials",
        # (only the note's last line can match: blanks alone may follow it)
        r"(?m)^[ \t]*(?:(?P<dash>[-—–~]{1,3})[ \t]?(?P<v>[A-Za-z]{2,3})[ \t]*$"
        r"|(?:[-—–~]{1,3}[ \t]?)?(?P<w>[A-Za-z]{2,3})[ \t]*(?P<slash>/)(?P<rest>[^\n]*))(?=\s*\Z)",
        "NAME", 0.85, validator=_closing_line_initials_ok, gate=lambda t, low: "/" in t or "-" in t or "—" in t or "–" in t,
    ),
    # "-jk PGY3 ortho, pgr 2281", "-AW NNP", "-ld echo fellow", "-rm, ccds": a signer's initials after the dash that
    # opens a line, before their credential or role (dash_initials wants the line's end)
    Recognizer(
        "dash_initials_before_role",
        r"(?m)^[ \t]*[-—–]{1,2}[ \t]?(?P<v>[A-Za-z]{2,3})(?:,[ \t]{0,2}|[ \t]{1,3})\(?(?:(?P<w>[A-Za-z]{2,9})[ \t])?"
        r"(?P<role>[A-Za-z]{2,10})\d?\b(?P<rest>[^\n]{0,12})",
        "NAME", 0.85, validator=_dash_initials_role_ok, gate=lambda t, low: "-" in t or "—" in t or "–" in t,
    ),
    # "RECORDED BY: K.B., RN", "SIGNED J.O.B.", "K. Sorensen, MSW / J.R. (SW intern)", "— LPN G.H.", "counselor: r.t.",
    # "-- T.W., UNIT CLERK", "-M.A. / D.W.", "-BED MGMT, J.P.", "Pt T.M., rm 537": dotted initials after "by", "signed",
    # a signer's credential or role, the patient's word, a signers' slash or a signature's dash (or its line's words and
    # a comma), or opening a line, before a comma, a parenthesis, a slash or the line's end
    Recognizer(
        "dotted_initials",
        r"(?im)(?:\b(?:by|signed|signature|sig|initials|collector|rn|lpn|lvn|np|md|pa|pa-c|pharmd|rph|cna|rrt|lcsw|msw|counselor|clerk|nurse|therapist"
        r"|aide|tech|dietitian|chaplain|interpreter|scribe|pt|patient)\b[ \t]*[:,]?|/|^[ \t]*[-—–]{1,2}[^\n,]{1,30},"
        r"|^[ \t]*(?:[-—–]{1,2})?)[ \t]*"
        r"(?P<v>[a-z]\.[ ]?[a-z]\.(?:[ ]?[a-z]\.)?)(?=[ \t]*(?:$|[,;(/]))",
        "NAME", 0.85, validator=_dotted_initials_ok, gate=lambda t, low: _DOTTED_GATE_RE.search(t) is not None,
    ),
    # "attending: sl", "Jane Doe, md / scribe ls": initials after a role's label closing the line
    Recognizer(
        "initials_after_role",
        r"(?im)(?<![\w/-])(?:attending|scribe|scribed|resident|fellow|intern|typist|transcriptionist|supervisor|preceptor)"
        r"(?:[ \t]*:)?[ \t]{1,2}(?P<v>[a-z]{2,3})[ \t]*$",
        "NAME", 0.85, validator=_role_initials_ok,
        gate=lambda t, low: "attending" in low or "scribe" in low or "resident" in low or "fellow" in low or "intern" in low
        or "typist" in low or "transcriptionist" in low or "supervisor" in low or "preceptor" in low,
    ),
    # "-- afds/rk", "-- ET/kb", "-- GW, RN CASE MGR", "-- grace l, rn", "—R. Long, RN", "- b.k. rn": a signer after a
    # signature's dash (an em or en dash too), at a line's start or after a sentence or a number ("mrn 0048 -- kd, rn"),
    # closing the line
    Recognizer(
        "dash_signer",
        r"(?m)(?:^[ \t]*|(?<=[.;!?)\d])[ \t]{1,3})(?:--?|[—–])[ \t]?"
        r"(?P<v>[A-Za-z]{2,4}/[A-Za-z]{2,4}|[A-Za-z]{2,3}(?=,)|[A-Za-z][A-Za-z'’-]+[ \t][A-Za-z]\.?(?=,)|[A-Za-z]\.[ \t]?[A-Za-z][A-Za-z'’-]+(?=,)"
        r"|(?:[A-Za-z]\.){2,3}(?=,?[ \t]))"
        r"(?:,?[ \t]{1,2}(?P<role>[A-Za-z][A-Za-z-]*\.?)(?:[ \t,/][^\n]*)?)?[ \t]*$",
        "NAME", 0.85, validator=_dash_signer_ok, gate=lambda t, low: "-" in t or "—" in t or "–" in t,
    ),
    # "STEADY. -G.A.", "-tb" before the next entry, "— PS" on the last line, "g." alone after an entry: the writer's
    # initials closing an entry, after a dash or dotted
    Recognizer(
        "entry_initials",
        r"(?m)(?:^[ \t]*|(?<=[.;!?)])[ \t]{1,3})(?P<dash>--?|[—–~])?[ \t]?"
        r"(?P<v>(?:[A-Za-z]\.){1,3}|(?<=[-—–~])(?:[A-Z]{2,3}|[a-z]{2,3})|(?<=[-—–~][ \t])(?:[A-Z]{2,3}|[a-z]{2,3}))[ \t]*$",
        "NAME", 0.85, validator=_entry_initials_ok, gate=lambda t, low: "\n" in t or "-" in t or "—" in t or "–" in t,
    ),
    # "JT/MM" on the note's last line, "A. RAMIREZ, DPM  AR/MM", "KH:RB": the dictating clinician's and the typist's
    # initials, in one letter case, alone on the last line or closing the signature's line after its credential
    Recognizer(
        "typist_initials",
        # (or after the last sentence, on the last line or where an export flattened the note: "... CAB VOUCHER GIVEN. JT/MM")
        # ("JT/mm": the dictating clinician's initials in capitals, the typist's in lower case)
        r"(?m)(?:^[ \t]*(?:--?|[—–])?[ \t]?|(?P<cred>\b(?i:md|do|dpm|np|fnp|aprn|cnm|pa-c|pa|rn|dds|phd|lcsw|licsw|lisw)[ \t]{2,})"
        r"|(?<=[.;!?)])[ \t]{1,2}(?:--?[ \t]?)?)"
        r"(?P<v>[A-Z]{2,3}[/:][A-Z]{2,4}|[a-z]{2,3}/[a-z]{2,4}|[A-Z]{2,3}/[a-z]{2,4})(?=[ \t]*(?:$|[ \t]\d)|" + _DICTATION_FIELD_AFTER + ")",
        "NAME", 0.85, validator=_typist_initials_ok, gate=lambda t, low: "/" in t or ":" in t,
    ),
    # "-- Kirra Walker (Physio)", "- JOHN T. OKAFOR, SW": a signer's given name and surname after a dash, on their own line
    Recognizer(
        "dash_signature_name",
        r"(?m)^[ \t]*-{1,2}[ \t]?(?P<v>(?P<first>[A-Z][A-Za-z'’-]+)(?:[ \t][A-Z]\.?)?[ \t](?P<last>[A-Z][A-Za-z'’-]+))"
        r"(?=[ \t]*(?:[,(/]|$)|[ \t]{2})",
        "NAME", 0.85, validator=_dash_signature_ok, gate=lambda t, low: "-" in t,
    ),
    # "Ambulated x2 w/ PT (Mark)", "sw (will) to contact": a given name in parentheses after a role
    Recognizer(
        "given_name_after_role",
        r"(?i)(?<![\w/])(?:pt|ot|st|sw|rn|lpn|cna|hha|pca|psw|aide|cm|np|pa|chaplain|interpreter|dietitian|rd|rt|slp|charge)"
        r"[ \t]?\((?P<v>[a-z][a-z'-]{1,14})\)",
        "NAME", 0.85, validator=_given_in_paren_ok, gate=lambda t, low: "(" in t,
    ),
    # "-- [NAME], RN / TR", "DPT / AH, PTA": a co-signer's or a student's initials after a credential and a slash, closing
    # the signature's line
    Recognizer(
        "cosigner_initials",
        # ("-- [NAME], LADC I / mf": a counsellor's licence and its grade)
        # ("D. MOSKOWITZ, MD PGY-3 / SL", "Dr. Halvorsen / KB MA", "T. ABERNATHY, MD / LN, LISW", "Dr. Sorensen / kd (MS3)": a
        # trainee's year or a placeholder's name before the slash, a role or a parenthesis after the initials; a word
        # that says what the second signer did may come first, "/ reviewed AY", "/ DICT. LD")
        r"(?im)(?:\b(?:rn|lpn|np|md|do|pa-c|dpt|pt|ot|otr/l|slp|rd|msw|lcsw|licsw|lisw|rrt|cna|dpm|pharmd|phd|ladc(?:[ \t]i{1,2})?|lmhc|lpc"
        r"|lmft|cadc|pgy-?\d)\.?|\[NAME\]|\bdr\.?[ \t]+(?:[a-z]\.[ \t]?)?[a-z][a-z'’-]+)[ \t]?/[ \t]?(?:(?:reviewed|dict\.?|cc|scribe)[ \t])?(?P<v>[a-z]{2,3})"
        r"(?=(?:,?[ \t](?:rn|lpn|np|md|pa|pta|cota|spt|sn|student|cna|ma|pct|lisw|lcsw|scribe)|[ \t]\((?:ms[1-4]|pgy-?\d|scribe|student)\))?[ \t]*$)",
        "NAME", 0.85, validator=_cosigner_ok, gate=lambda t, low: "/" in t,
    ),
    # "-- kh/palliative np", "—BF / Dr. Sandoval-Hu", "gk, pgy-2 / dr sampson", "NV / Ravi Sundaram, MD": a signer's
    # initials opening a signature's line before a slash and a doctor, a role or a signer's name and credential
    Recognizer(
        "initials_before_signer",
        r"(?im)^[ \t]*(?:-{1,2}|—|–)?[ \t]?(?P<v>[a-z]{2,3})(?:,[ \t]?(?:pgy-?\d|ms[1-4]))?[ \t]?/[ \t]?"
        r"(?=dr\.?[ \t]|(?:(?:palliative|charge|case|night|day|triage)[ \t])?(?:rn|np|md|pa|cm|sw|lcsw)\b"
        r"|(?-i:[A-Z][a-z]+[ \t][A-Z][a-z'’-]+),[ \t]?(?:md|do|np|pa|rn)\b)",
        "NAME", 0.85, validator=_cosigner_ok, gate=lambda t, low: "/" in t,
    ),
    # "... cap refill <3 sec.\njb": two or three letters alone on the note's last line are its writer's initials
    Recognizer(
        "closing_initials",
        # ("/sv": a typist's initials after a slash)
        r"\n[ \t]*/?[ \t]?(?P<v>[A-Za-z]{2,3})[ \t]*\s*\Z",
        "NAME", 0.85, validator=_closing_initials_ok, gate=lambda t, low: _CLOSING_INITIALS_GATE_RE.search(t, max(0, len(t) - 12)) is not None,
    ),
    # "chelsea ma 02150", "Lowell, Ma 01852": a ZIP code after a town and a state written in any case
    # (the pattern starts on the digits, which the engine finds fast; the validator reads the words before)
    Recognizer(
        "zip_state_any_case",
        r"\d(?<![\w-]\d)\d{4}(?:-\d{4})?(?![\w-])",
        "ZIP", 0.9, validator=_before_ok(_TOWN_STATE_BEFORE_RE), gate=lambda t, low: _FIVE_DIGITS_RE.search(t) is not None,
    ),
    # "ninety-two year old", "in her 90s", "in his late nineties": ages over 89 are identifiers (Safe Harbor),
    # spelled out or as a decade after a possessive ("HR in the 90s" is a vital sign)
    Recognizer(
        "age_over_89_words",
        r"\b(?:(?P<v>(?:ninety|one[- ]hundred(?:[- ]and)?)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?)"
        r"(?=[- ](?:years?|yrs?|y/?o)\b)|(?:her|his)\s(?:(?:early|mid|late)[- ]?)?(?P<w>90s|90['’]s|nineties))",
        "AGE", 0.85, validator=lambda m, t: m.span("v") if m.group("v") else m.span("w"), flags=re.I,
        gate=lambda t, low: "ninet" in low or "hundred" in low or "90" in low,
    ),
    # "She is 93.", "pt is now 91 and lives alone", "father is 94", "mother died at 96", "alive at 93", "Pt, 92, A&Ox2",
    # "I'm 96": an age over 89 said of the patient or a relative (not "pt is 95% on RA", "she is 98.6", "he is 92 kg",
    # "sats were 92")
    Recognizer(
        "age_over_89_said",
        r"\b(?:(?:she|he|pt|patient|mother|father|mom|dad|wife|husband|spouse|sister|brother|aunt|uncle|grandmother|"
        r"grandfather|grandma|grandpa|resident|res|client)[ \t]{1,2}(?:is|was|turned|turns)[ \t]{1,2}(?:now[ \t]{1,2})?"
        # ("I'M 96, I'VE HAD A GOOD RUN": the patient's own words)
        r"|i['’]?m[ \t]{1,2}(?:now[ \t]{1,2})?|i[ \t]am[ \t]{1,2}(?:now[ \t]{1,2})?"
        # ("Mother: alive at 93", "father a&w at 91", "grandfather lived to 97": a family history's relative)
        r"|(?:died|passed[ \t]{1,2}away|passed|deceased|alive|(?:alive[ \t]{1,2}and|a&)[ \t]?well|a&w|lived)[ \t]{1,2}(?:at|aged?|to)[ \t]{1,2}(?:age[ \t]{1,2})?"
        # ("florence passed march 2021 at 92", "mother d. at 96", "died in 2019 aged 94": a date or the short "d." between)
        r"|(?:died|passed(?:[ \t]{1,2}away)?|(?<![\w.])d\.)[ \t]{1,2}(?:(?:in[ \t]{1,2})?(?:[A-Za-z]{3,9}\.?[ \t]{1,2})?"
        r"(?:\d{1,2},?[ \t]{1,2})?(?:(?:19|20)\d\d|['’]\d\d)[ \t]{1,2})?(?:at|aged?)[ \t]{1,2}(?:age[ \t]{1,2})?"
        r"|(?:pt|patient),[ \t]{1,2}(?=\d+,))"
        r"(?P<v>9\d|1[01]\d)"
        r"(?![\w%/]|\.\d|[ \t]{0,2}(?:%|kg|lbs?|bpm|mmhg|f\b|degrees|on\b|at\b|percent|mg\b|mcg\b|ml\b))",
        "AGE", 0.85, flags=re.I,
        gate=lambda t, low: (" is " in low or " was " in low or " turn" in low or "died" in low or "passed" in low or "deceased" in low or "alive" in low or "well at" in low
                             or "d. " in low
                             or "a&w" in low or "lived" in low
                             or "pt," in low or "patient," in low or "i'm" in low or "i’m" in low or "im " in low
                             or "i am" in low) and any(map(str.isdigit, t)),
    ),
    # "resident will be 102 on April 19", "(would be 104)", "husband jae-won, who is 97", "she'll be 91 in May": an age
    # over 89 to come, or said in a clause about a person named before (not "goal would be 100", "will be 90 days", "who
    # is 95% on RA")
    Recognizer(
        "age_over_89_to_come",
        r"(?:\b(?:she|he|pt|patient|resident|res|client|mother|father|mom|dad|wife|husband|spouse|sister|brother|aunt|uncle|"
        r"grandmother|grandfather|grandma|grandpa)(?:[ \t]{1,2}(?:will|would)|['’]ll)[ \t]{1,2}(?:be|turn)"
        r"|\((?:she|he)?[ \t]?(?:will|would)[ \t]{1,2}(?:be|turn|have[ \t]{1,2}been)"
        r"|\bwho(?:[ \t]{1,2}(?:is|was|turned|turns|will[ \t]{1,2}be)|['’]s))[ \t]{1,2}(?:now[ \t]{1,2})?"
        r"(?P<v>9\d|1[01]\d)"
        r"(?![\w%/]|\.\d|[ \t]{0,2}(?:%|kg|lbs?|bpm|mmhg|f\b|degrees|percent|mg\b|mcg\b|ml\b|days?\b|d\b|hours?\b|hrs?\b|min|weeks?\b"
        r"|wks?\b|months?\b|mos?\b|units?\b|pounds\b|points?\b|cm\b|mm\b|inches\b|in\.))",
        "AGE", 0.85, flags=re.I, validator=lambda m, t: m.span("v"),
        gate=lambda t, low: ("will " in low or "would " in low or "'ll " in low or "’ll " in low or "who" in low) and any(map(str.isdigit, t)),
    ),
    # "home # 555 0199", "call 555.0199": a seven-digit number split by a blank or a dot after a phone word
    # (with a hyphen it is L1's phone pattern already)
    Recognizer(
        "phone_seven_spaced",
        # (the first digit first, the look-behind after it: the engine skips every other position)
        r"\d(?<![\w/.,-]\d)\d{2}[ .]\d{4}(?![\w/]|[.,]\d)",
        "PHONE", 0.85, needs_context=True, context_window=3,
        context=("phone", "ph", "tel", "cell", "home", "work", "call", "called", "#", "number", "no", "reached", "pager", "beeper",
                 "pgr", "fax", "contact", "c", "h", "w"),
        gate=lambda t, low: any(map(str.isdigit, t)) and (" " in t or "." in t),
    ),
    # "ROUTE 1", "Rte 128", "Hwy 9", "I-95": a numbered road is an address below the state level
    # (with the house number before it: "22 ROUTE 130")
    Recognizer(
        "numbered_road",
        r"(?<![\w/-])(?:route|rte|highway|hwy|interstate)\.?\s{0,2}#?\s{0,2}\d{1,3}[A-Za-z]?(?![\w/.-]|[.,]\d)|(?<![\w/-])I-\d{2,3}(?![\w/-])"
        # "off rt 2", "on Rt 116" ("rt" alone is right: only after a word of where); "near exit 22"
        r"|(?:(?<=off )|(?<=on )|(?<=near )|(?<=along )|(?<=via ))rt\.?\s{0,2}\d{1,3}(?![\w/-]|[.,]\d)"
        r"|(?<![\w/-])exit\s{1,2}\d{1,3}[A-Za-z]?(?![\w/-]|[.,]\d)",
        "LOCATION", 0.85, flags=re.I, validator=_with_house_number,
        gate=lambda t, low: ("rout" in low or "rte" in low or "hwy" in low or "highway" in low or "interstate" in low or "i-" in low
                             or "rt" in low or "exit" in low)
        and any(map(str.isdigit, t)),
        # a match starts on the first letter of a road word or of "I-" (the case-insensitive pattern
        # gives the engine no first characters to skip on; this scan of the lower-cased text does)
        starts=r"r(?=oute|te|t)|h(?=ighway|wy)|i(?=nterstate|-)|e(?=xit)",
    ),
    # "page 4-5512", "pgr #34567", "call back 5-1234", "please page 4417": a short in-house number after a paging or
    # calling word (four digits only when they are no clock time: "call 2200" is when)
    Recognizer(
        "pager_short",
        r"(?P<v>\d(?<![\w/.,-]\d)(?:-\d{4}|\d{3,4}))(?![\w-]|[.,]\d)",
        "PHONE", 0.85, validator=_before_ok(_PAGING_BEFORE_RE, _short_number_ok),
        gate=lambda t, low: _PAGER_GATE_RE.search(t) is not None,
    ),
    # "PO Box 12", "P.O. BOX 4471", "post office box 9": a mail box is an address below the state level; so is a rural
    # route's box ("RR 2 BOX 418", "rt 3 box 114", "HC 61 Box 20")
    Recognizer(
        "po_box",
        r"(?<![\w/-])(?:p\.?[ \t]?o\.?|post[ \t]office|(?:rr|r\.r\.|rt|rte|rural[ \t]route|hc|hcr)[ \t]?#?\d{1,3},?[ \t])"
        r"[ \t]{0,2}box[ \t]{0,2}#?[ \t]{0,2}\d{1,6}(?![\w/-])",
        "LOCATION", 0.9, flags=re.I,
        gate=lambda t, low: "box" in low and any(map(str.isdigit, t)),
        starts=r"p(?=\.?[ \t]?o|ost[ \t]office)|r(?=r|\.r\.|te?[ \t]?#?\d|ural)|h(?=cr?[ \t]?#?\d)",
    ),
    # "Palliative care (B. Song, pager 617-...)", "Dr. Quintero / M. Fox PT", "R. HILL RN": an initial and a surname that
    # is also a word, before how to reach the person or their credential in capitals (a species is no capitalised
    # word's: "E. coli"; "Dr. Song" is the title's to take)
    Recognizer(
        "initial_surname_before_contact",
        r"(?<![\w.&])(?P<v>[A-Z]\.[ \t]?(?:[A-Z][a-z'’]+(?:-[A-Z][a-z'’]+)?|[A-Z]{2,}(?:-[A-Z]{2,})?))"
        r"(?=,?[ \t]{1,2}(?:(?:pager|pgr|cell|phone|ph|ext|beeper|vocera)\.?:?[ \t]*#?[ \t]*\(?\d"
        r"|(?:PT|OT|RN|NP|PA|PA-C|MD|DO|SLP|RT|RD|CNA|LPN|DPT|OTR|COTA|PTA|CNM|NNP|CRNA)(?![\w-])))",
        "NAME", 0.85, validator=_initial_surname_ok, gate=lambda t, low: ". " in t or "." in t,
    ),
    # "14 Castlegate, Malton", "Level 2, 88 Oxford St, Bondi Junction", "77 The Parade, Norwood SA": an address line of
    # a letter from abroad, a house number (a flat's, a unit's or a level's before it) and a street named by capitalised
    # words with or without a street's word, a comma and a town; at a line's start or after a comma (not "2 Tylenol,
    # Motrin": no clinical word, and the line opens with the number)
    Recognizer(
        "address_line_abroad",
        r"(?m)(?:^[ \t]*|(?<=,[ \t]))(?P<v>(?:(?:Level|Unit|Suite|Flat|Apt|Apartment|Shop|Floor)[ \t]\d{1,4}[A-Za-z]?,?[ \t]+)?"
        r"\d{1,5}[A-Za-z]?(?:/\d{1,5})?[ \t]+(?:The[ \t]+)?[A-Z][a-z'’-]+(?:[ \t][A-Z][a-z'’-]+){0,2})(?=,[ \t]+[A-Z][a-z])",
        "LOCATION", 0.85, validator=_address_abroad_ok, gate=lambda t, low: ", " in t,
    ),
    # "lives off cr 212", "ON FM 1882", "on County Rd 250 N": a county road or a farm-to-market road by its number, after
    # a word of where (not "Cr 212" alone, a creatinine in micromoles; not "FM 2" or "CR 1.2")
    Recognizer(
        "county_road",
        r"(?i)\b(?:on|off|at|near|along|from|via)[ \t]{1,2}(?P<v>(?:cr|fm|co[ \t]rd|county[ \t]+r(?:oa)?d|farm[ \t]+(?:to[ \t]+market[ \t]+)?r(?:oa)?d"
        r"|ranch[ \t]+r(?:oa)?d)[ \t-]?\d{2,4}(?:[ \t][nsew]\b)?)(?![\w/-]|[.,]\d)",
        "LOCATION", 0.85, validator=lambda m, t: m.span("v"),
        gate=lambda t, low: ("cr" in low or "fm" in low or " rd" in low or "road" in low) and any(map(str.isdigit, t)),
    ),
    # "E 14th St", "w 3rd st", "5TH AVE": a numbered street (with its compass letter), which has no name word a
    # lexicon could know
    Recognizer(
        "street_ordinal",
        r"(?<![\w/-])(?:[nsew]\.?[ \t]|(?:north|south|east|west)[ \t])?\d{1,3}(?:st|nd|rd|th)[ \t]{1,2}"
        r"(?:st(?!\.[ \t]*[a-z])|street|ave|avenue|rd|road|blvd|boulevard|pl|place|dr|drive|ln|lane|way|terr|terrace|ct|court)\b",
        "LOCATION", 0.88, flags=re.I, validator=_with_house_number,
        gate=lambda t, low: _ORDINAL_GATE_RE.search(low) is not None,
    ),
    # "ON 5TH AND WALNUT", "(corner store, Kimball & 9th)": a numbered street and a named one meeting, after a word of
    # where or a comma, closing the clause
    Recognizer(
        "ordinal_crossing",
        r"(?im)(?:\b(?:on|at|of|near|corner)[ \t]+|[,(][ \t]*)(?P<v>\d{1,3}(?:st|nd|rd|th)[ \t]+(?:and|&)[ \t]+(?P<a>[a-z][a-z'’-]+)"
        r"|(?P<b>[a-z][a-z'’-]+)[ \t]+(?:and|&)[ \t]+\d{1,3}(?:st|nd|rd|th))"
        r"(?:[ \t]+(?:st|street|ave|avenue|rd|road|blvd))?(?=[ \t]*(?:[,.;)]|$)|[ \t]+(?:since|until|till|for|when|after|before)\b)",
        "LOCATION", 0.85, validator=_crossing_ok,
        gate=lambda t, low: ("and" in low or "&" in t) and _ORDINAL_GATE_RE.search(low) is not None,
    ),
    # "(617)5550148", "(617) 5550148": an area code in parentheses before seven digits written together
    Recognizer(
        "phone_paren_unseparated",
        r"\((?<![\w(]\()\d{3}\)[ \t]{0,2}\d{7}(?![\w/-]|[.,]\d)",
        "PHONE", 0.95, gate=lambda t, low: "(" in t and ")" in t,
    ),
    # "617/555-0148": an area code written before a slash
    Recognizer(
        "phone_slash_area",
        r"\d(?<![\w/.-]\d)\d{2}/\d{3}-\d{4}(?![\w-])",
        "PHONE", 0.95, gate=lambda t, low: "/" in t and "-" in t,
    ),
    # "0412 555 018", "02 9555 0147", "01653 555 210", "+44 7700 900123": a national number written in groups as
    # Australian and British notes do (a leading zero or a country code; no dose or count is written so)
    Recognizer(
        "phone_national_groups",
        r"(?:(?<![\w/.,+-])0(?:4\d{2}[ ]\d{3}[ ]\d{3}|[2378][ ]\d{4}[ ]\d{4}|[1-9]\d{2,3}[ ]\d{3}[ ]\d{3,4})"
        r"|(?<![\w/.,+-])07\d{3}[ ]\d{6}"  # (a British mobile: "07700 900461")
        # (a British landline: a five-digit area code and six digits, "01632 960417"; or "020 7946 0958")
        r"|(?<![\w/.,+-])01\d{3}[ ]\d{5,6}|(?<![\w/.,+-])0[1-9]\d[ ]\d{4}[ ]\d{4}"
        # (dialled from North America: "011 353 91 555 0187")
        r"|(?<![\w/.,+-])011[ ]\d{1,3}(?:[ ]\d{1,5}){2,4}"
        r"|\((?<![\w(]\()0[2378]\)[ ]?\d{4}[ ]\d{4}"  # (an Australian landline's area code in parentheses: "(02) 9555 0182")
        r"|\+(?<![\w+]\+)\d{1,3}[ ](?:\(0\)[ ]?)?\d{1,4}(?:[ ]\d{2,6}){1,3})(?![\w/]|[.,]\d)",
        "PHONE", 0.9, gate=lambda t, low: _GROUPED_DIGITS_RE.search(t) is not None,
        validator=lambda m, text: m.span() if sum(ch.isdigit() for ch in m.group()) >= 9 else None,  # ("+3 200 300": counts)
    ),
    # "PHN: 9876 543 210", "Medicare 2953 71840 1", "OHIP 4821 663 901 KT", "HCN ...": a national health number in groups after its
    # name (the cue recogniser's value is one run without blanks)
    Recognizer(
        "id_health_number_groups",
        # ("Medicare no. 2953 71846 1": an Australian Medicare number, its issue digit last)
        # ("MCP 204 881 337 015", "RAMQ: TREM 4805 1219", "MB HEALTH # 118 442 907", "plan id thp 889 204 661",
        # "Medicaid ID 0051 8847 221": Canadian provinces' cards, and any ID in groups, with the issuer's letters before it)
        r"(?<![\w-])(?i:(?:medicare|nhs|health[ ]card)(?:[ ](?:no|number)\.?)?|phn|phin|ohip|ihi|hsn|hcn|health[ ]number"
        # ("CRN 204 381 977K": an Australian Centrelink customer reference number, its check letter joined)
        r"|mcp|ramq|health[ ]?#|id|crn)[ \t]{0,2}[:#]?[ \t]{0,2}"
        r"(?P<v>(?:(?!(?i:is|no|nr|of|the|was)[ ])[A-Za-z]{2,4}[ ])?\d{3,5}(?:[ ]\d{1,5}){1,3}(?:[ -][A-Z]{2}|[A-Z])?)(?![\w-])",
        "ID", 0.9, gate=lambda t, low: _GROUPED_DIGITS_RE.search(t) is not None and _HEALTH_NUMBER_WORD_RE.search(low) is not None,
    ),
    # "Unit W0421 24 771902", "DIN W042124771918": a blood unit's ISBT 128 donation identification number (the collecting
    # facility's letter and four digits, the year's two digits, a six-digit serial), which transfusion records and
    # nursing checks copy in full; no dose or lab value is written so
    Recognizer(
        "id_blood_unit",
        r"(?<![\w-])[A-Za-z]\d{4}[ ]?\d{2}[ ]?\d{6}(?:[ ]?\d{2})?(?![\w-])",
        "ID", 0.9, gate=lambda t, low: _BLOOD_UNIT_RE.search(t) is not None,
    ),
    # "CALL FELLOW GRACE AT 4-2290", "ICU fellow Ananya 6-2231": a digit, a hyphen and four digits standing alone are a
    # hospital's in-house number (in the tune notes 117 of 120 such are marked a phone or an ID); not a month and a
    # year ("dx 3-2019"), a range of a measure ("1-1000 mL"), money or a part of a longer number
    Recognizer(
        "in_house_number",
        r"(?<![\w/.,:$#-])(?P<v>\d-\d{4})(?![\w/-]|[.,]\d)",
        "PHONE", 0.85, validator=_in_house_number_ok,
        gate=lambda t, low: _IN_HOUSE_GATE_RE.search(t) is not None,
    ),
    # "x4471", "ext 4-3321", "extension 52210": four digits and more (x2, x10/hr are counts and rates); "x 4-8812" after a
    # blank only in the in-house form of a digit, a hyphen and four digits, which no count takes ("x 4 days", "x 2-3 d")
    Recognizer(
        "phone_extension",
        r"(?<![\w/])(?:x(?:[ \t](?=\d-\d{4}(?!\d)))?|ext\.?\s{0,2}|extension\s{1,2})(?P<v>\d(?:-?\d){3,5})(?![\w/]|[.,]\d)",
        "PHONE", 0.85, validator=_extension_ok, flags=re.I,
        gate=lambda t, low: ("x" in low) and any(map(str.isdigit, t)),
        # a match starts on "x" before a digit or on "ext" ("extension" too)
        starts=r"x(?=\d|[ \t]\d-\d{4})|e(?=xt)",
    ),
]

__all__ = ["EXTRA_RECOGNIZERS", "Gate", "Recognizer", "TokenMatch", "Validator"]
