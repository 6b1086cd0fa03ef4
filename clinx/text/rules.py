"""L1: pattern recognisers for surface identifiers.

Every recogniser is a precompiled regular expression with **bounded**
quantifiers only (``{1,30}``, never ``+`` inside a repeated group), anchored on
a word boundary or a look-behind, so each match attempt costs a constant and a
scan is linear in the input length — no catastrophic backtracking on hostile
input (see ``tests/text/test_adversarial.py``).

Names are found four ways: after a title (``Dr. X``), after a cue
(``patient X``, ``Name: X``), in written forms (``LAST^FIRST``, ``Doe, John``,
``John Doe's``) and as runs of Title-case tokens that hit a first/last-name
gazetteer (Faker's census-derived lists, shipped in the ``faker`` package) or
stand mid-sentence where only proper nouns are capitalised. Clinical words
(:mod:`clinx.text.clinical`) and common function words are never names, so
"Is the left lung clear?" passes untouched.

Manifest values (when a manifest is given and ``use_manifest`` is on) are masked
at L1 too: the manifest is the strongest evidence there is, and the same
manifest governs the image branch. Benchmarks report recall with and without it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from clinx.records import Manifest
from clinx.text.base import NAME_PLACEHOLDER_RE, PLACEHOLDER_RE, Candidate, TextResult, apply_candidates, check_text, drop_inside
from clinx.text.clinical import CLINICAL_CODE_RE, CLINICAL_WORDS, EPONYM_HEADS, EPONYMS
from clinx.text.evidence import (
    CREDENTIALS,
    HEADER_FIELD_AFTER,
    HEAD_AS_ADJECTIVE,
    ROLE_SHORTHANDS,
    ROLES,
    SERVICES,
    TITLES,
    US_STATES,
    _NEVER,
    _lexicon_index,
    check_states,
    classify,
    compass_letters_of_places,
    drop_state_and_country_parts,
    find_address_fields,
    find_counties,
    find_evidence,
    find_initials_after_credentials,
    find_nicknames,
    find_listed_children,
    find_place_fields,
    regions_after_places,
    mixed_case_line,
    streets_after_places,
    streets_meeting_places,
    towns_after_places,
    report_verb_word,
    units_before_streets,
)
from clinx.text.landmarks import find_landmarks
from clinx.text.sign_out import find_listed_patients, find_shift_names, find_team_names
from clinx.text.institutions import (
    complete_institutions,
    openers_of_institutions,
    find_bare_institutions,
    find_institution_fields,
    find_header_institutions,
    find_affiliations,
    find_capitalised_institutions,
    find_kinds_of_places,
    find_placement_replies,
    find_hospital_acronyms,
    find_institutions_before_units,
    find_described_businesses,
    find_employers,
    find_businesses_on_bare_streets,
    find_parenthesised_institutions,
    join_institution_parts,
    names_no_institution,
    repeated_institution_words,
)
from clinx.text.lexicons import AMBIGUOUS_NAMES, first_names, fold, is_clinical_term, last_names, ordinary_words, word_places
from clinx.text.word_towns import find_branch_towns, find_quarters, find_word_towns
from clinx.text.institution_patterns import (
    complete_institution_lists,
    find_acronym_hospitals,
    find_acronym_pairs,
    find_patterned_institutions,
    find_system_short_forms,
    find_unknown_referral_names,
)
from clinx.text.dates import CLOCK_RE, DATE_RECOGNIZERS, MONTH_ANY, PHONE_AS_MEANS_RE, SLASHED_DATE_RE, YEAR_NAMES, date_modifiers, date_range_ends, score_change, strip_year
from clinx.text.recognizers import EXTRA_RECOGNIZERS, Recognizer, dotted_letters_may_be_initials

# --------------------------------------------------------------------------- vocabularies

#: Capitalised words that start sentences or questions and are never names.
FUNCTION_WORDS = frozenset(
    """
a an the this that these those there here it its is are was were be been being am do does did done has have had
can could should would will shall may might must what which where when who whom whose why how whether if then
than and or but nor not no yes of in on at by for from with without within into onto over under between among
to as per via about after before during since until while upon near also any all some each every both either
neither one two three four five six seven eight nine ten first second third last next new old other same such
please name list describe identify show locate specify give state indicate determine count compare find see
patient patients pt name names age sex male female man woman boy girl child infant adult history indication
comparison findings finding impression technique report exam examination study studies procedure clinical
diagnosis question answer image images picture photo figure scan view views hospital clinic medical center
centre health doctor dr mr mrs ms miss prof professor nurse physician radiologist surgeon department
unit ward room emergency icu er ed today yesterday tomorrow morning evening night date dob mrn id record
number phone fax email address zip city state country street avenue road
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december jan feb mar apr jun jul aug sep sept oct nov dec
none normal stable chest xray ct mri pet us cxr pa ap lat lateral frontal mass
""".split()
)

#: Words never masked as names. Eponyms are *not* here: "Turner" is a surname
#: unless a head noun follows ("Turner syndrome"), which the name rules check.
#: Words that begin a sentence or clause and never begin an institution's name.
START_WORDS = frozenset(
    """
a an the this that is are was were does do did can could should would will has have had what which where when who
how why in on at from to for of with by and or but patient pt seen study studies visit scan image images please
""".split()
)

#: ("SN [ID]": a serial number's cue beside the number L1 removed is no name; "SN Jones" is L1's to decide)
# ("goes" of "[NAME] (goes by [NAME])": a surname too, but between two names it is the nickname's cue)
# ("job": a transcription's job number, "TRANSCRIBED GW JOB 44719", though Job is a given name)
# ("des": a drug-eluting stent, "90% LAD -> DES x1"; "adv": a plan's Advantage, "HUMANA MEDICARE ADV"; "mgr": a manager,
# "CASE MGR TODD"; "um": utilisation management, "the plan's UM nurse"; "lm": the left main, "LM 70%": given names in the
# lists, and none of the out-of-fold removals they made in the tune notes a person)
NON_NAMES = FUNCTION_WORDS | CLINICAL_WORDS | EPONYM_HEADS | frozenset({"xxxx", "re", "cc", "attn", "sn", "goes", "job", "des", "adv", "mgr", "um", "lm"})

_HOSPITAL_WORDS_TITLE = r"(?:Hospitals?|Medical\s{1,3}Cent(?:er|re)|Health\s{1,3}(?:Cent(?:er|re)|System|Sciences\s{1,3}Cent(?:er|re))|Healthcare|Clinic|Infirmary|Cancer\s{1,3}Cent(?:er|re)|Imaging\s{1,3}Cent(?:er|re)|Institute|Sanatorium|Hospice|Medical\s{1,3}Group|Medical\s{1,3}College|Nursing\s{1,3}Home)"
# The same keywords in capitals (headers and overlays write "GENERAL HOSPITAL");
# spelled out rather than (?i:...) so "the clinic" in running text is not a keyword.
_HOSPITAL_WORDS = "(?:" + _HOSPITAL_WORDS_TITLE + "|" + re.sub(r"[a-z]", lambda m: m.group(0).upper(), _HOSPITAL_WORDS_TITLE).replace("\\S", "\\s") + ")"


@lru_cache(maxsize=1)
def name_gazetteer() -> tuple[frozenset[str], frozenset[str]]:
    """Filtered gazetteer: see :func:`raw_gazetteer`; clinical and function words removed."""
    first, last = raw_gazetteer()
    bad = {w.lower() for w in NON_NAMES}
    return frozenset(first - bad), frozenset(last - bad)


@lru_cache(maxsize=1)
def raw_gazetteer() -> tuple[frozenset[str], frozenset[str]]:
    """(first names, last names), lower-cased, from Faker's English person providers.

    Unfiltered: a word such as "Ward" or "Stone" is here. Rules use it only
    for *pairs* (a known given name next to a known surname), where an
    ordinary word is far less likely than a person.
    """
    first: set[str] = set()
    last: set[str] = set()
    import importlib

    for loc in ("en_US", "en_GB", "en_CA", "en_AU", "en_IE", "en_NZ"):
        try:
            prov = importlib.import_module(f"faker.providers.person.{loc}").Provider
        except Exception:  # a Faker without that locale: the others still work
            continue
        for attr in ("first_names", "first_names_female", "first_names_male"):
            first.update(n.lower() for n in getattr(prov, attr, ()) or ())
        last.update(n.lower() for n in getattr(prov, "last_names", ()) or ())
    return frozenset(first), frozenset(last)


# --------------------------------------------------------------------------- building blocks

#: A name token: Title-case, optional apostrophe prefix (O'Neil), CamelCase
#: second part (McDonald, DeAngelo) and one hyphenated part (Smith-Jones).
#: Letters beyond ASCII: Latin-1 and Latin Extended-A (Białasik, Øster, Šimek).
#: Extended-A mixes cases at alternate code points, so it sits in both classes.
_UP = "A-ZÀ-ÖØ-Þ\u0100-\u017f"
_LO = "a-zß-öø-ÿ\u0100-\u017f"
NT = rf"(?:[{_UP}]['’])?[{_UP}][{_LO}]{{1,20}}(?:[{_UP}][{_LO}]{{1,20}})?(?:-[{_UP}][{_LO}]{{1,20}})?"
#: The same in capitals (DICOM and header style: SMITH, O'NEIL).
NT_UP = rf"(?:[{_UP}]['’])?[{_UP}]{{2,20}}(?:-[{_UP}]{{2,20}})?"
_INITIAL = r"(?:[A-Z]\.\s{0,2})"
#: What may not stand before a possessive name ("(?<![\w'])").
_NOT_AFTER_POSS = r"\w'"
#: What may not stand before a "Last, First" name ("(?<![\w,])").
_NOT_AFTER_COMMA_NAME = r"\w,"


def _capital_first(behind: str, caps: bool = False) -> str:
    """:data:`NT` (:data:`NT_UP` with ``caps``) not preceded by a character of the class ``behind``.

    Written to start on a capital with the look-behind after it ("[A-Z](?<![\\w'].)" for
    "(?<![\\w'])[A-Z]"), so the compiled pattern starts with a character set and the engine
    skips every position that is not a capital. ``[UP](?:['’][UP])?`` matches what
    ``(?:[UP]['’])?[UP]`` matches, the O'-prefix first in both; the property tests check the
    patterns built from it against their plain forms.
    """
    head = rf"[{_UP}](?<![{behind}].)(?:['’][{_UP}])?"
    if caps:
        return head + rf"[{_UP}]{{1,19}}(?:-[{_UP}]{{2,20}})?"
    return head + rf"[{_LO}]{{1,20}}(?:[{_UP}][{_LO}]{{1,20}})?(?:-[{_UP}][{_LO}]{{1,20}})?"


#: One to three name tokens, initials allowed between them.
NAMESEQ = rf"(?:{_INITIAL}?{NT}(?:\s{{1,3}}{_INITIAL}?{NT}){{0,2}}|{NT_UP}(?:\s{{1,3}}{NT_UP}){{0,2}})"
_SUFFIX = r"(?:,?\s{1,2}(?:Jr|Sr|II|III|IV|MD|M\.D|PhD|DO|RN|NP|PA-C)\b\.?)?"

MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_MON_NUM = r"(?:1[0-2]|0?[1-9])"
_DAY_NUM = r"(?:3[01]|[12]\d|0?[1-9])"
_YEAR4 = r"(?:1[89]\d\d|20\d\d)"
_YEAR = rf"(?:{_YEAR4}|'?\d\d)"
# only the ISO "T" form joins a clock time to its date ("2023-05-02T10:30:00" is one token); a time written
# after a blank ("03/09/2011 16:12", "March 3 at 2:15 pm") is no identifier and stays in the text
_TIME = (
    r"(?:T(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?"
    r"(?:Z|[+-]\d\d:?\d\d)?)?"
)

DATE_RE = rf"""(?x)
(?<![\w/.-])
(?:
    {_YEAR4}[-/.]{_MON_NUM}[-/.]{_DAY_NUM}                          # 1961-03-14, 2023/05/02
  | {_DAY_NUM}(?P<dsep>[-/.]){_DAY_NUM}(?P=dsep)(?:{_YEAR4}|\d\d)     # 03/14/1961, 14.03.1961, 3-14-61 (one separator:
                                                                  # "pain 5-6/10" is a range of scores)
  | {_DAY}(?:\s{{1,3}}of)?[\s.-]{{1,3}}(?i:{MONTH})\.?[\s.,-]{{1,3}}{_YEAR}     # 14-Mar-1961, 14 March 1961
  | (?i:{MONTH})\.?[\s.-]{{1,3}}{_DAY}(?:,\s{{0,3}}|[\s.-]{{1,3}}){_YEAR}       # March 14, 1961
  | (?i:{MONTH})\.?(?:,?\s{{1,3}}|-){_YEAR4}                                    # March 1961, Oct-2017
  | {MONTH}\.?\s{{1,3}}{_DAY}(?!\s{{0,2}}(?:mm|cm|ml|mg|lesions?|nodules?)\b)   # March 14
  | {_DAY}\s{{1,3}}(?:of\s{{1,3}})?{MONTH}\b                                    # 14 March
  | (?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:T?(?:[01]\d|2[0-3])[0-5]\d(?:[0-5]\d)?)?  # 20230502
  | (?:{_MON_NUM}/|(?:0[1-9]|1[0-2])-){_YEAR4}                                 # 03/1961, 10-2017 (two-digit month)
)
{_TIME}
(?![\w]|[-/.:]\d)                                                  # ("June, 02:40", "FEB 14 20:05": an hour, no year)
"""

# ---- cue-introduced identifiers: (cue regex, category); the value follows the cue
# ("mrn HC 229 4810", "DL# TX 40917735": a short prefix in capitals, one blank, then three digits or more, is the value's)
_ID_VALUE = r"(?P<v>(?:[A-Z]{1,3}[ \t](?=\d{3}))?[A-Za-z0-9](?:[A-Za-z0-9/.-]{0,28}[A-Za-z0-9])?)"
# (the words in any case: "COLLAR NO 4471LX", "MRN IS 123")
_CUE_SEP = r"(?:\s{0,3}(?:[:#=]|(?i:is|was|number|no\.?|num\.?))){0,2}\s{0,3}#?\s{0,2}"
ID_CUES: list[tuple[str, str]] = [
    (
        r"MRN|MR\s?#|MR\s?(?:No|Num)\.?|med(?:ical)?\s{1,3}rec(?:ord)?s?(?:\s{1,3}(?:no\.?|num(?:ber)?|#))?|"
        r"(?:patient|pt)\s{0,3}(?:id|#|no\.?|number)|record\s{0,3}(?:no\.?|num(?:ber)?|#)|chart\s{0,3}(?:no\.?|num(?:ber)?|#)|"
        # (URN, "UR No": the Australian unit record number)
        r"unit\s{1,3}(?:no\.?|number)|PID|URN|UR\s?(?:No|#)\.?",
        "MRN",
    ),
    # ("accn 25-MTH-00412": the laboratories' short form too)
    (r"accession(?:\s{0,3}(?:no\.?|num(?:ber)?|#))?|acc(?:ession|n)?\.?(?:\s{0,3}(?:no\.?|num(?:ber)?|#))?", "ACCESSION"),
    (r"ssn|social\s{1,3}security(?:\s{1,3}(?:no\.?|num(?:ber)?|#))?", "SSN"),
    (r"phone|tel(?:ephone)?|fax|cell|mobile|pager|pgr|beeper|bleep|contact\s{1,3}(?:no\.?|number)", "PHONE"),
    (
        r"(?:hospital|hosp|clinic|facility|study|exam|order|visit|encounter|case|specimen|requisition|member|insurance|"
        r"policy|account|acct|license|licence|device|serial|health\s{1,3}plan|beneficiary|subscriber|task|trip|job|"
        r"employee|badge|passport|vehicle|provider|prescriber|registration|gmc|nmc)\s{0,3}(?:id|no\.?|num(?:ber)?|#)|id(?:entifier)?(?:\s{0,3}(?:no\.?|num(?:ber)?|#))?|"
        # "Acct: 55-1234-9": an account word alone before a colon or "#" ("into account 2 episodes" is prose)
        # ("ACCT 77-1043": the abbreviation before a number with a hyphen or of five digits and more is one too)
        r"(?:acct|account)(?=\.?\s{0,2}[:#])|acct(?=\.?\s{1,2}(?:\d+-\d|\d{5}))|"
        # words that alone name the number after them: a prior authorisation's key, a claim, a confirmation, an
        # officer's badge, an implant's lot ("covermymeds key BXR7LTQ2", "badge 3317", "LOT PM2209X", "conf # 88-1234")
        # a research subject's number, a prescription's ("subj 0412-0029", "Subject # 07-009", "RX# 6620391-04"): three
        # digits or more after the word ("subject to change", "rx 2 wks" are none); a pharmacy's prescription number
        # without the "#" in its own form, six digits or more and a two-digit fill ("Rx 4471120-05")
        r"subj(?:ect)?(?=\s{0,3}(?:#|(?i:no\.?|num(?:ber)?))?\s{0,2}[:#]?\s{0,2}[A-Za-z]{0,3}\d[\d-]{2})|rx(?=\s{0,2}#\s{0,2}[A-Za-z]{0,3}\d[\d-]{2}|\s{1,2}\d{6,}-\d{2}\b)|"
        # a court's, a jail's, a veteran's claim file's and an interpreter's numbers ("docket 2285cr00617", "bkg 2024-8831",
        # "inmate # QN-4471", "c-file 27 448 901",
        # "cause # 24-1-00912-32", "LanguageLine interp 48213"; "interp by phone" holds no number)
        r"docket|booking|bkg|inmate|c-file|cause(?=\s{0,2}#)|interp(?:reter)?(?=\s{0,3}(?:id|#|no\.?)?\s{0,2}[:#]?\s{0,2}\d{4})|"
        r"badge|shield(?=\s{0,3}#?\s{0,2}\d{3})|batch(?=\s{0,3}[:#]?\s{0,2}[A-Za-z]{0,4}\d)|key|lot|claim|conf|confirmation|auth|authorization|authorisation|incident|ticket|tracking|ref|reference|"
        # a national health number's name, the last four of a social security number, an ambulance run's number
        # ("OHIP 4821-663-901-KT", "LAST4 4471", "RUN# 24-0817"; a run of fluid has no "#"), a trauma activation's number
        # ("trauma # 23-1187"; "trauma 2 activation" has no "#")
        # (Ontario's health card number and New Zealand's national health index: "HCN 4532-281-906-KT", "nhi zkh4712";
        # Medicare's older claim number, "HICN 452-88-1903A")
        r"ohip|hcn|hicn|nhi|medicare|medicaid|mbi|last\s?(?:4|four)|(?:run|trauma)(?=\s{0,2}(?:#|no\b|number))|"
        # a licence's short form before a number of four digits and more, an issuer's letters before it ("LIC NM-P-20931")
        r"lic(?=\.?\s{0,3}[:#]?\s{0,3}(?:[A-Za-z]{1,3}-?){0,2}\d{4})|"
        # a device's serial number ("rcvr SN 4M71-8820-XK", "S/N: AB12-3344"); "SN" is a student nurse and skilled nursing
        # too: six characters or more with a digit follow ("SN 2W2, 1W4" is a visit frequency)
        r"s/n|sn(?=\s{0,3}[:#]?\s{0,3}(?=[A-Za-z-]*\d)[A-Za-z0-9-]{6})|"
        # the VA's patient identifiers ("ICN 1012847756V339204", "EDIPI 1234567890")
        # a British police officer's collar number ("PC Adeyemi (collar 4471HT)")
        r"icn|edipi|collar(?=\s{0,3}(?:#|(?i:no\.?|number))?\s{0,2}\d)|"
        # a laboratory's CLIA number, a portal's or a home exercise programme's access code, a key safe's code
        # ("CLIA 05D0987654", "access code k7tq2mx", "keysafe code 4471")
        r"clia|(?:access|door|gate|keysafe|key\s{0,2}safe|lockbox)\s{1,3}code|"
        # an insurance plan's group number, of five digits and more ("GROUP 0884120-10-004"; not "group 2", "group b")
        r"(?:group|grp)(?=\s{0,3}(?:#|(?i:no\.?|num(?:ber)?))?\s{0,2}[:#]?\s{0,2}[A-Za-z]{0,3}\d[\d-]{4})",
        "ID",
    ),
    (r"zip(?:\s{0,3}code)?|postal\s{1,3}code|post\s?code", "ZIP"),
]

_STATES = (
    "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR "
    "PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR"
).split()

_STREET_WORDS = (
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr(?!\.?\s{1,3}[A-Z][a-z])|Court|Ct|Way|Place|Pl|Terrace|"
    r"Circle|Parkway|Pkwy|Highway|Hwy|Square|Sq|Concourse|Pike|Turnpike|Plaza|Crescent|Loop|Trail|Trl|Close|Row|Cove)"
)

#: A phone number's area code: "(555) " or "555-".
_PHONE_AREA = r"(?:\(\d{3}\)\s{0,2}|\d{3}[\s.-])"
#: One word of an institution's name before its head word, with the short words that join them: a
#: capital, then the rest (the hospital pattern consumes the first capital before the rest).
_HOSP_NAME_WORD_REST = r"[A-Za-z'’&.-]{0,30}\s{1,3}(?:(?:of|the|and|&|de|la)\s{1,3}){0,2}"
_HOSP_NAME_WORD = "[A-Z]" + _HOSP_NAME_WORD_REST

# Plain patterns: (name, regex, category, score). Score breaks ties between
# overlapping spans of equal length (a compact date beats a generic ID).
PATTERNS: list[tuple[str, str, str, float]] = [
    # the last label is a top-level domain, letters only (or punycode): "thresh 0.75V@0.4ms" is no address
    ("email", r"(?<![\w.+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,5}"
     r"\.(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})(?![\w-])", "EMAIL", 1.0),
    # (any letter case: capitals notes write "WWW.EXAMPLE.ORG/PORTAL")
    ("url", r"(?<![\w/])(?i:(?:https?|ftp)://|www\.)[^\s<>\"'\]\[)(]{1,2000}", "URL", 0.99),
    (
        "domain",
        r"(?<![\w@./-])[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,3}\.(?:(?:(?i:com|org|net|edu|gov|info|biz)|io|health|us|uk|ca)"
        r"(?:/[^\s<>\"']{0,500})?"
        # short and link-shortening domains only with a path ("doxy.me/drlee", "bit.ly/3xYz"; "wt.me" is no address)
        r"|(?:me|ly|co|app|link|tv|gl|gg)/[^\s<>\"']{1,500})(?![\w-])",
        "URL",
        0.9,
    ),
    ("ssn", r"\d(?<![\w-]\d)\d{2}-\d{2}-\d{4}(?![\w-])", "SSN", 1.0),
    (
        "phone",
        # "(?<![\w+])(?:(?:\+|00)?\d{1,3}[\s.-]{1,2})?(?:\(\d{3}\)\s{0,2}|\d{3}[\s.-])\d{3}..." written to start on its
        # first character ("+", "(" or a digit) with the look-behind after it; then the old form's ways to go
        # on from that character, in the old order: "+" country code, "(" area code, "00" prefix, a digit
        # country code, a digit area code (plain form in tests/text/test_rules.py)
        r"[+(\d](?<![\w+].)(?:(?<=\+)\d{1,3}[\s.-]{1,2}" + _PHONE_AREA + r"|(?<=\()\d{3}\)\s{0,2}"
        r"|(?<=0)0\d{1,3}[\s.-]{1,2}" + _PHONE_AREA + r"|(?<=\d)\d{0,2}[\s.-]{1,2}" + _PHONE_AREA + r"|(?<=\d)\d{2}[\s.-])"
        r"\d{3}[\s.-]\d{4}(?:\s{0,2}(?:[xX]|[eE][xX][tT]\.?|[eE]xtension)\s{0,2}\d{1,6})?(?!\w)",  # ("X212" in capitals too)
        "PHONE",
        0.97,
    ),
    ("date", DATE_RE, "DATE", 0.98),
    # month/day without a year, only after a date cue ("on 3/14", "hours 3/14"): bare, it is a fraction
    ("date_md_cue", r"(?i:(?:\b(?:on|dated?|hours|from|since|seen|radiographs?|films?|exams?|examinations?|study|studies|ct|mri|x-?ray|obtained|comparison|indication|faxed|submitted|mailed|emailed|approved|signed|scheduled|hearing|court|appt|appointment|surgery)|[ap]\.m\.):?\s{1,3})(?P<v>(?:1[0-2]|0?[1-9])/(?:3[01]|[12]\d|0?[1-9]))(?![\w/]|\.\d)", "DATE", 0.97),
    (
        "age_over_89",
        # "(?<![\w.])(?:9\d|1[01]\d)..." with its first digit first (the engine skips other positions);
        # "92 y.o." ends on a dot: no word boundary after it; "93 f on doac": a lower-case sex letter after a blank only
        # where a history goes on (not "ambulated 100 m")
        r"[91](?<![\w.][91])(?:(?<=9)\d|(?<=1)[01]\d)(?=\s{0,2}-?\s{0,2}(?:(?:(?i:years?|yrs?|y/?o|yo[mfa]?)|[MF](?!/)|(?<=\d)[mf](?!/)|(?<=\s)[mf](?=,|[ \t]{2,}\S|[ \t]+(?:w/?|with|on|s/p|c/o|h/o|pmh|hx|who|presents?|presenting|here|admitted|from|bibems|bib|biba|brought)\b))(?:[\s-]{1,2}(?i:old))?\b|(?i:y\.o\.)))",
        "AGE",
        0.96,
    ),
    ("age_cue", r"(?i:\baged?\b\s{0,2}:?\s{0,2})(?P<v>9\d|1[01]\d)(?![\w]|\.\d)", "AGE", 0.96),
    ("zip_state", r"\b(?:" + "|".join(_STATES) + r")\.?,?\s{1,3}(?P<v>\d{5}(?:-\d{4})?)(?![\w-])", "ZIP", 0.95),
    ("zip4", r"\d(?<![\w-]\d)\d{4}-\d{4}(?![\w-])", "ZIP", 0.95),
    (
        "street",
        r"\d(?<![\w-]\d)\d{0,5}\s{1,3}(?:[A-Z][a-z]{1,20}\s{1,3}){1,3}" + _STREET_WORDS + r"\b\.?"
        # a unit with its letter ("Apt 3B", "Unit #2C")
        r"(?:,?\s{1,3}(?:Apt|Suite|Unit|Ste)\.?\s{0,2}#?\d{1,6}[A-Za-z]?\b)?",
        "LOCATION",
        0.95,
    ),
    # generic identifiers: letters+digits or long digit runs (clinical numbers are short).
    # Look-behinds stand after a pattern's first character ("\d(?<![\w-]\d)" for
    # "(?<![\w-])\d"): the same matches, but the pattern starts with a character
    # set, so the engine skips positions that cannot start it.
    # (a prefix of up to three letter groups: "ZR-66019223", "AUTH-0093321", "PSP-SAK-0041188")
    ("id_prefixed", r"[A-Za-z](?<![\w-].)[A-Za-z]{0,4}(?:-[A-Za-z]{1,5}){0,2}[-#]?\d{5,12}[A-Za-z]{0,3}(?![\w-])", "ID", 0.9),
    ("id_prefixed_parts", r"[A-Za-z](?<![\w-].)[A-Za-z]{0,4}[-#]?\d{2,8}(?:[-/]\d{2,8}){1,2}(?![\w-])", "ID", 0.9),
    ("id_digits", r"\d(?<![\w.,-]\d)\d{5,14}(?![\w-]|[.,]\d)", "ID", 0.9),
    # (a check digit may close it: "55-1234-9", "123-45-67-8")
    ("id_hyphenated", r"\d(?<![\w.:-]\d)\d{1,5}(?:-\d{2,8}){1,3}(?:-\d)?(?![\w-]|:\d)", "ID", 0.85),  # (not "03:30-05:10")
    # three to six groups of letters and digits, five digits in all and a letter ("NPHL-21-COV-0442", "4417-228-913-KT",
    # "SLD-R-24-0611": laboratories' and agencies' case numbers; checked in _validate)
    ("id_mixed_groups", r"[A-Za-z0-9](?<![\w-].)[A-Za-z0-9]{0,11}(?:-[A-Za-z0-9]{1,12}){2,5}(?![\w-])", "ID", 0.85),
    # names in written forms
    ("name_title", rf"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Drs|Prof|Doctor|Professor)\.?\s{{1,3}}(?P<v>{NAMESEQ}{_SUFFIX})", "NAME", 0.95),
    ("name_dicom", r"(?<![\w^])[A-Za-z][A-Za-z'-]{0,30}\^[A-Za-z][A-Za-z'-]{0,30}(?:\^[A-Za-z.'-]{0,30}){0,3}", "NAME", 0.97),
    # (the name patterns start on a capital, see _capital_first; plain forms in tests/text/test_rules.py)
    ("name_comma", rf"(?P<v>{_capital_first(_NOT_AFTER_COMMA_NAME)},\s{{0,2}}{NT}(?:\s{{1,2}}[A-Z]\.?(?![\w]))?)", "NAME", 0.9),
    ("name_possessive_caps", rf"(?P<v>{_capital_first(_NOT_AFTER_POSS, caps=True)}(?:\s{{1,3}}{NT_UP}){{1,2}})['’]s(?![\w])", "NAME", 0.9),
    # "(?:NT\s)*NT" written "NT(?:\sNT)*": the same names (tokens are split by blanks only), capital first
    ("name_possessive", rf"(?P<v>{_capital_first(_NOT_AFTER_POSS)}(?:\s{{1,3}}{NT}){{0,2}})['’]s?(?![\w])", "NAME", 0.9),
    (
        "name_cue",
        r"(?i:\b(?:patient(?:'s)?(?:\s{1,3}full)?\s{1,3}name|name|named|called|patient|pt|mother|father|wife|"
        r"husband|son|daughter|guardian|next\s{1,3}of\s{1,3}kin|referred\s{1,3}by|referring\s{1,3}physician|"
        r"attending|physician|radiologist|surgeon|signed\s{1,3}by|dictated\s{1,3}by|read\s{1,3}by|seen\s{1,3}by|"
        r"consultant|contact|client|participant))"
        # "PTSD", "SONG": the cue word ends where the word does (a name never starts inside one)
        r"\b"
        # "SON-IN-LAW", "daughter-in-law": the cue is part of a longer relation word, not before a name
        r"(?![-‐](?i:in)[-‐])"
        rf"(?:\s{{0,3}}(?:[:=,-]|is|was)){{0,2}}\s{{0,3}}(?P<v>{NAMESEQ}{_SUFFIX})",
        "NAME",
        0.9,
    ),
    # institutions: capitalised words before a hospital word, or "Hospital of X"
    (
        "hospital",
        # "(?<![\w])(?:(?:St|Mt|Ft)\.?\s{1,3})?(?:WORD){1,5}HEAD" written to start on its first capital with the
        # look-behind after it: "St."/"Mt."/"Ft." then one to five words, or the rest of a first word then up
        # to four more, in that order as before (plain form in tests/text/test_rules.py)
        r"[A-Z](?<![\w].)(?:(?<=[SMF])t\.?\s{1,3}(?:" + _HOSP_NAME_WORD + r"){1,5}|" + _HOSP_NAME_WORD_REST + r"(?:" + _HOSP_NAME_WORD + r"){0,4})"
        + _HOSPITAL_WORDS
        + r"\b(?:\s{1,3}(?:of|for|at)\s{1,3}(?:the\s{1,3})?[A-Z][A-Za-z'.-]{0,30}(?:\s{1,3}[A-Z][A-Za-z'.-]{0,30}){0,3})?",
        "HOSPITAL",
        0.95,
    ),
    (
        "hospital_of",
        r"(?<![\w])(?:Hospital|Clinic|Infirmary|Medical\s{1,3}Cent(?:er|re)|University)\s{1,3}(?:of|for)\s{1,3}(?:the\s{1,3})?"
        r"[A-Z][A-Za-z'.-]{0,30}(?:\s{1,3}[A-Z][A-Za-z'.-]{0,30}){0,3}",
        "HOSPITAL",
        0.95,
    ),
]


def _compile_cues() -> re.Pattern:
    # One scan for every cue-introduced identifier: the cue that matched is the
    # named group (cue_mrn, cue_id, ...); the value must hold a digit, checked
    # by a bounded look-ahead so a wordy "ID: pending" fails inside the regex.
    alts = "|".join(f"(?P<cue_{cat.lower()}>{cue})" for cue, cat in ID_CUES)
    return re.compile(
        rf"(?<![\w])(?i:{alts})(?![A-Za-z]){_CUE_SEP}(?=[A-Za-z0-9/.-]{{0,29}}\d|[A-Z]{{1,3}}[ \t]\d{{3}}){_ID_VALUE}(?![\w])"
    )


#: A medication or allergy list's label ("MEDICATIONS:", "Discharge meds:", "ALLERGIES:").
_MEDICATION_LIST_RE = re.compile(r"(?i)\b(?:medications?|meds|rx|allerg(?:y|ies)|prescriptions?)\b[ \t]{0,3}:")


def _paragraph_start(text: str, pos: int) -> int:
    """Where the paragraph holding ``pos`` starts: after the last blank line before it (at most 400 characters back)."""
    k = text.rfind("\n\n", max(0, pos - 400), pos)
    return k + 2 if k >= 0 else max(0, pos - 400)


_BASE_VALIDATED = frozenset({"age_over_89", "date_md_cue", "name_cue", "name_title", "name_comma", "name_possessive", "hospital", "id_prefixed", "id_hyphenated", "id_digits", "id_mixed_groups"})


def _base_validator(name: str):
    return lambda m, text: _validate(name, m, text)


#: Every pattern recogniser as a record (:class:`~clinx.text.recognizers.Recognizer`): the
#: built-in patterns above (gated by :func:`_plan`), then :data:`EXTRA_RECOGNIZERS` (each
#: gated by its own ``gate``). Append a record to add a recogniser.
RECOGNIZERS: list[Recognizer] = [
    Recognizer(n, p, c, sc, validator=_base_validator(n) if n in _BASE_VALIDATED else None) for n, p, c, sc in PATTERNS
] + list(DATE_RECOGNIZERS) + list(EXTRA_RECOGNIZERS)
_EXTRA = {r.name: r for r in list(DATE_RECOGNIZERS) + list(EXTRA_RECOGNIZERS) if r.compiled is not None}
PATTERNS = [(r.name, r.pattern, r.category, r.score) for r in RECOGNIZERS if r.pattern is not None]

_COMPILED: list[tuple[str, re.Pattern, str, float]] = [(r.name, r.compiled, r.category, r.score) for r in RECOGNIZERS if r.compiled is not None]
#: Lexicon records: looked up on the word tokens of the evidence pass.
_LEXICON_RECS: tuple[Recognizer, ...] = tuple(r for r in RECOGNIZERS if r.compiled is None)
_CUE_RE = _compile_cues()
_EXTRA_UNGATED = tuple(n for n, r in _EXTRA.items() if r.gate is None)
_EXTRA_GATED = tuple((n, r.gate) for n, r in _EXTRA.items() if r.gate is not None)
_CUE_CATEGORY = {f"cue_{cat.lower()}": cat for _, cat in ID_CUES}

# ---- gates: cheap tests that say a pattern cannot match, so it is not run at all.
# Most text holds no identifier of most kinds; skipping a scan is the main speed-up.
# Every gate is *sound*: it is False only when its pattern cannot match (the
# comments give the reason), so gating never changes what is found.
_DIGIT_RUN_RE = re.compile(r"\d+")
_STREET_GATE_RE = re.compile(r"\s" + _STREET_WORDS + r"\b")
_TLD_RE = re.compile(r"\.(?:com|org|net|edu|gov|info|biz|io|health|us|uk|ca|(?:me|ly|co|app|link|tv|gl|gg)/)\b", re.IGNORECASE)
_HOSP_GATE_RE = re.compile(r"Hospital|HOSPITAL|Clinic|CLINIC|Cent(?:er|re)|CENT(?:ER|RE)|Infirmary|INFIRMARY|Institute|"
                           r"INSTITUTE|Health|HEALTH|Sanatorium|Hospice|HOSPICE|Medical|MEDICAL|Nursing|NURSING|University")
_TITLES = ("Mr", "Ms", "Dr", "Prof", "Doctor", "Miss", "Mx")
_TITLE_GATE_RE = re.compile("|".join(_TITLES))
_MONTH_STEMS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# month/day after a cue: the value is "m/d" not followed by another "/" or digit group
# (led by its slash, the digit checked behind it: a one-character literal scan, many times faster)
_MD_GATE_RE = re.compile(r"/(?<=[0-9]/)[0-9]{1,2}(?![\w/]|\.\d)")
# "Doe, John": a name token ends on a lower-case letter, the next starts on a capital after ", "
_NAME_COMMA_GATE_RE = re.compile(rf",(?<=[{_LO}],)\s{{0,2}}[{_UP}]")
# every word that can start a name cue (lower-cased substrings; "next of kin" starts with "next")
_NAME_CUE_WORDS = (
    "name", "called", "patient", "pt", "mother", "father", "wife", "husband", "son", "daughter", "guardian",
    "next", "referr", "attending", "physician", "radiologist", "surgeon", "signed", "dictated", "read", "seen",
    "consultant", "contact", "client", "participant",
)


def _word_start_re(words: Iterable[str]) -> re.Pattern:
    """Find where any of ``words`` (lower-case) starts, not right after a letter a-z.

    Built as one branch per first letter with the look-behind *after* that
    letter ("m(?<![a-z].)(?:rn|r|ed)|p(?<![a-z].)(?:atient|t)|..."), so the
    compiled pattern starts with a set of literals and the engine skips every
    position whose character cannot start a word.
    """
    groups: dict[str, list[str]] = {}
    for w in sorted(set(words), key=lambda w: (-len(w), w)):
        groups.setdefault(w[0], []).append(w[1:])
    alts = []
    for ch, rests in groups.items():
        rest = "|".join(re.escape(r) for r in rests if r)
        if "" in rests:
            rest = f"(?:{rest})?" if rest else ""
        else:
            rest = f"(?:{rest})"
        alts.append(f"{re.escape(ch)}(?<![a-z].){rest}")
    return re.compile("|".join(alts))


_NAME_CUE_START_RE = _word_start_re(_NAME_CUE_WORDS)
# every word that can start an identifier cue (see ID_CUES), longest first
_CUE_START_WORDS = sorted(
    set(
        """mrn mr med patient pt record chart unit pid accession acc accn ssn social phone tel fax cell mobile pager pgr beeper contact
        hospital clinic facility study exam order visit encounter case specimen requisition member insurance policy account
        acct license licence device serial health beneficiary subscriber employee badge passport vehicle id zip postal task trip job
        provider prescriber registration gmc nmc shield batch
        post key lot claim conf confirmation auth authorization authorisation incident ticket tracking ref reference bleep
        ohip hcn hicn nhi trauma lic hosp medicare medicaid mbi last last4 run sn s/n icn edipi clia access door gate keysafe lockbox collar urn ur
        group grp subj subject rx docket booking bkg inmate cause interp interpreter c-file""".split()
    ),
    key=lambda w: (-len(w), w),
)
_CUE_START_RE = _word_start_re(_CUE_START_WORDS)
# where a date can start: a month word, or a digit run that a separator, an ordinal suffix or
# eight digits in all follow (every DATE_RE form), not after [\w/.-] (DATE_RE's look-behind).
# The pattern starts with one character set (a digit or a month's first letter) and looks
# behind after it, so the engine skips every other position; a hit never swallows another
# start (it ends on a letter, a digit or a separator a date cannot follow)
_MONTH_FIRSTS = "".join(dict.fromkeys(m[0] for m in _MONTH_STEMS))
_DATE_START_RE = re.compile(
    rf"[0-9{_MONTH_FIRSTS}](?<![\w/.-].)(?:(?<=[0-9])(?:\d{{0,3}}[-/.\s]|\d?(?:st|nd|rd|th)|\d{{7}})|"
    + "|".join(f"(?<={c})(?:{'|'.join(m[1:] for m in _MONTH_STEMS if m[0] == c)})" for c in _MONTH_FIRSTS)
    + ")"
)
_AGE_RUN_RE = re.compile(r"9\d|1[01]\d")
#: "any(m in low for m in _MONTH_STEMS)" as one scan (a set of first letters the engine skips on)
_MONTH_STEM_RE = re.compile("|".join(_MONTH_STEMS))


def _plan(text: str, low: str, exotic: bool) -> tuple[list[int], bool]:
    """Indices into :data:`_COMPILED` of the patterns that can match ``text``, and "run the ID cues"."""
    runs = _DIGIT_RUN_RE.findall(text)
    on: set[str] = set()
    add = on.add
    if runs:
        lens = [len(r) for r in runs]
        nd = sum(lens)
        maxlen = max(lens)
        hyphen = "-" in text
        slash = "/" in text
        # ssn: exactly 3-2-4 digit runs joined by "-"
        if hyphen and 3 in lens and 2 in lens and 4 in lens:
            add("ssn")
        # phone: two runs of exactly 3 digits and one of exactly 4 (10 digits at least)
        if nd >= 10 and lens.count(3) >= 2 and 4 in lens:
            add("phone")
        # dates: a month word, two runs joined by a separator, or a compact yyyymmdd[hhmm[ss]]
        if (
            len(runs) >= 2
            or exotic
            or (maxlen >= 8 and any(len(r) in (8, 12, 14) and r[:2] in ("19", "20") for r in runs))
            or _MONTH_STEM_RE.search(low) is not None
        ):
            add("date")
        if slash and _MD_GATE_RE.search(text):
            add("date_md_cue")
        # ages over 89: a run of exactly 9x, 10x or 11x
        if any(r[0] in "19" and 2 <= len(r) <= 3 and _AGE_RUN_RE.fullmatch(r) for r in runs):
            add("age_over_89")
            if exotic or "age" in low:
                add("age_cue")
        if 5 in lens:
            add("zip_state")
            if hyphen and 4 in lens:
                add("zip4")
        # street: a short number, then a blank and a street word before a word boundary
        if min(lens) <= 6 and _STREET_GATE_RE.search(text) is not None:
            add("street")
        if maxlen >= 5:
            if maxlen <= 12 or any(5 <= n <= 12 for n in lens):
                add("id_prefixed")
            if maxlen >= 6:
                add("id_digits")
        if nd >= 4 and (hyphen or slash) and maxlen >= 2:
            add("id_prefixed_parts")
        if hyphen and nd >= 6:
            add("id_hyphenated")
        if hyphen and nd >= 5:
            add("id_mixed_groups")
    if "@" in text:
        add("email")
    if "://" in text or "www." in low:
        add("url")
    if "." in text and _TLD_RE.search(text) is not None:
        add("domain")
    if _TITLE_GATE_RE.search(text) is not None:
        add("name_title")
    if "^" in text:
        add("name_dicom")
    if "," in text and _NAME_COMMA_GATE_RE.search(text) is not None:
        add("name_comma")
    if "'" in text or "’" in text:
        add("name_possessive")
        add("name_possessive_caps")
    # name_cue: always planned; its literal start scan (see _starts_matches) is the gate
    add("name_cue")
    if _HOSP_GATE_RE.search(text) is not None:
        add("hospital")
        add("hospital_of")
    # records that bring their own gate (or none: always run)
    if exotic:
        on.update(_EXTRA)
    else:
        on.update(_EXTRA_UNGATED)
        for name, gate in _EXTRA_GATED:
            if gate(text, low):
                add(name)
    return sorted([_INDEX[n] for n in on]), bool(runs)


_NAMES = [n for n, _, _, _ in _COMPILED]
_SOURCE = {n: f"rule:{n}" for n in _NAMES}
_INDEX = {n: i for i, n in enumerate(_NAMES)}
_HAS_V = [("v" in rx.groupindex) for _, rx, _, _ in _COMPILED]
_NAME_CUE_IDX = _NAMES.index("name_cue")
_DATE_IDX = _NAMES.index("date")
_MD_CUE_IDX = _NAMES.index("date_md_cue")
_PARTS_IDX = _NAMES.index("id_prefixed_parts")
_PREFIXED_IDX = _NAMES.index("id_prefixed")
_VALIDATED = _BASE_VALIDATED | frozenset(n for n, r in _EXTRA.items() if r.validator is not None or r.needs_context)
#: index into _COMPILED -> the record's start scan (see Recognizer.starts)
_STARTS: dict[int, re.Pattern] = {_INDEX[n]: r.compiled_starts for n, r in _EXTRA.items() if r.compiled_starts is not None}


def _starts_matches(text: str, low: str, rx: re.Pattern, starts: re.Pattern, exotic: bool) -> list[re.Match]:
    """``list(rx.finditer(text))`` for a cue pattern, tried only where a cue word starts.

    ``rx`` can only match where one of its case-insensitive cue words (or, for
    dates, a digit or month word) begins at a word start; ``starts`` finds
    those places in the lower-cased text with a cheap scan, and the matches
    kept (leftmost, non-overlapping) are exactly finditer's. Inner positions of
    a found word are never word starts, so the scan skipping them loses nothing.
    """
    if exotic:
        return list(rx.finditer(text))
    out = []
    last = 0
    for m in starts.finditer(low):
        p = m.start()
        if p < last:
            continue
        hit = rx.match(text, p)
        if hit is not None:
            out.append(hit)
            last = hit.end() if hit.end() > p else p + 1
    return out


def _anchored_matches(
    text: str, rx: re.Pattern, anchors: re.Pattern, reach: int, firsts: frozenset, not_after: frozenset = frozenset()
) -> list[re.Match]:
    """``list(rx.finditer(text))`` for a pattern every match of which holds an *anchor* near its start.

    Each match of ``rx`` contains a match of ``anchors`` at most ``reach``
    characters after its own start, starts on a character of ``firsts``, and
    holds no other anchor before that one; the anchor pattern's hits never
    overlap. So a match can only start in the ``reach`` characters before an
    anchor: those few positions are tried with ``rx.match`` instead of
    running the pattern over the whole text (for the month/day after a date
    cue, whose case-insensitive word alternation has no literal prefix the
    engine could skip to). ``not_after``: characters that cannot stand right before a match
    (``rx`` looks behind for none of them), so a position after one is not tried. The property
    tests check the equality.
    """
    out = []
    last = 0
    for a in anchors.finditer(text):
        p = a.start()
        if p < last:
            continue
        for q in range(max(last, p - reach), p):
            if text[q] in firsts and (q == 0 or text[q - 1] not in not_after):
                hit = rx.match(text, q)
                if hit is not None:
                    out.append(hit)
                    last = hit.end()
                    break
    return out


# month/day after a cue: the value starts after a blank (the cue's "\s{1,3}") at most 16 characters
# (longest cue "examinations", a colon, three blanks) after the match start; cues start on these letters
# (written to start on a digit, the look-behind after it: the engine then skips every other
# position; the same matches as r"(?<=\s)(?:1[0-2]|0?[1-9])/(?:3[01]|[12]\d|0?[1-9])(?![\w/]|\.\d)")
_MD_CUE_ANCHOR_RE = re.compile(r"[0-9](?<=\s[0-9])(?:(?<=1)[0-2]|(?<=0)[1-9]|(?<=[1-9]))/(?:3[01]|[12]\d|0?[1-9])(?![\w/]|\.\d)")
_MD_CUE_FIRSTS = frozenset("odhfsrecmxiap" + "odhfsrecmxiap".upper())
# letter-prefixed identifiers and parts ("AB12-345", "ACC2020134801", "PSP-SAK-0041188"): the first digit follows a
# letter, "-" or "#", at most 6 characters in for parts (1 letter, up to 4 more, an optional "-" or "#") and 18 for a
# prefixed identifier (up to two more letter groups after a hyphen each)
_PARTS_ANCHOR_RE = re.compile(r"\d(?<=[A-Za-z#-]\d)")  # r"(?<=[A-Za-z#-])\d", digit first
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
#: index into _COMPILED -> the arguments of :func:`_anchored_matches` after the pattern (anchors,
#: reach, first characters, characters no match starts after); the property tests run this table.
#: The identifiers open on "[A-Za-z](?<![\w-].)": a letter right after a letter starts none.
_ANCHORED: dict[int, tuple] = {
    _MD_CUE_IDX: (_MD_CUE_ANCHOR_RE, 16, _MD_CUE_FIRSTS, frozenset()),
    _PARTS_IDX: (_PARTS_ANCHOR_RE, 6, _ASCII_LETTERS, _ASCII_LETTERS),
    _PREFIXED_IDX: (_PARTS_ANCHOR_RE, 18, _ASCII_LETTERS, _ASCII_LETTERS),  # (three letter groups: 5 + 6 + 6, and "-" or "#")
}


# a name token may carry a possessive ("VAUGHAN's"); otherwise it must end at a non-word
_NAME_TOKEN_RE_PLAIN = re.compile(rf"(?<![\w'’-])(?:{NT}|{NT_UP})(?:(?![\w'’-])|(?=['’][sS]?(?!\w)))")
# The same pattern with the first capital factored out and the look-behind after
# it, so the compiled pattern starts with a character set and the engine skips
# every position that is not a capital. The four branches are NT with and
# without its O'- prefix, then NT_UP with and without, in the original order.
_L20 = rf"[{_LO}]{{1,20}}"
_NAME_TOKEN_RE = re.compile(
    rf"[{_UP}](?<![\w'’-].)(?:"
    rf"['’][{_UP}]{_L20}(?:[{_UP}]{_L20})?(?:-[{_UP}]{_L20})?"
    rf"|{_L20}(?:[{_UP}]{_L20})?(?:-[{_UP}]{_L20})?"
    rf"|['’][{_UP}]{{2,20}}(?:-[{_UP}]{{2,20}})?"
    rf"|[{_UP}]{{1,19}}(?:-[{_UP}]{{2,20}})?"
    rf")(?:(?![\w'’-])|(?=['’][sS]?(?!\w)))"
)
_WS_ONLY_RE = re.compile(r"[ \t]{1,3}")
# the word after a name token, past a possessive ("Smith's fracture" -> "fracture")
_NEXT_WORD_RE = re.compile(r"(?:['’]s?)?\s{0,3}([A-Za-z]{1,30})")
_TOKEN_SPLIT_RE = re.compile(r"[\s,]+")
_SENTENCE_START_CHARS = frozenset(".?!:;\n\"'([{")
_HOSPITAL_WORD_SET = frozenset("hospital hospitals clinic infirmary institute sanatorium hospice healthcare center centre".split())
_HEAD_WORDS = _HOSPITAL_WORD_SET | frozenset("medical health cancer imaging nursing".split())


def _is_non_name(word: str) -> bool:
    w = word.lower().rstrip(".")
    if w in NON_NAMES or w in _HOSPITAL_WORD_SET:
        return True
    # everyday and clinical words are no names in any letter case ("PT PLACED SUPINE", "PNEUMONIA, RLL")
    return classify(fold(w), word) in ("W", "C")


def _trim_name(text: str, start: int, end: int, strict: bool = True) -> tuple[int, int] | None:
    """Drop leading/trailing tokens that are function or clinical words; None if nothing is left.

    ``strict=False`` (after a title: "Mrs. Ward") drops only words that start
    sentences ("Dr. Is ..."), since whatever follows a title is a surname.
    """
    span = text[start:end]
    bad = _is_non_name if strict else (lambda w: w.lower() in START_WORDS)
    toks = [(m.start(), m.end()) for m in _HOSP_TOKEN_RE.finditer(span)]  # r"\S{1,60}", compiled once
    while toks and bad(span[toks[0][0] : toks[0][1]].strip(",'’")):
        toks.pop(0)
    if strict:
        # a function word inside ends the name ("WIFE ROSALIND TO MEET PT": the name is one word);
        # name particles ("van", "de la") are no function words of a sentence
        for k in range(1, len(toks)):
            raw = span[toks[k][0] : toks[k][1]].strip(",'’")
            w = raw.lower()
            # ... and so does a verb of saying in a one-case line ("WIFE KATHY STATES PT WAS CONFUSED")
            if w in FUNCTION_WORDS and w not in _PARTICLES or report_verb_word(raw):
                del toks[k:]
                break
    while toks and bad(span[toks[-1][0] : toks[-1][1]].strip(",'’")):
        toks.pop()
    if not toks:
        return None
    return start + toks[0][0], start + toks[-1][1]


_HOSP_TOKEN_RE = re.compile(r"\S{1,60}")
_AFTER_HEAD_RE = re.compile(r"['’]?s?[ \t]{1,2}([A-Za-z][A-Za-z/-]*)")
_HOSP_KEEP = frozenset("st mt ft st. mt. ft. general memorial community medical health".split())


_OF_AFTER_HEAD_RE = re.compile(r"(?i)\s(?:of|for|at)\s")


def _trim_hospital(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The institution's name inside a hospital match: the words before the head word that belong to it.

    Walking back from the head word, stop at a line break, a sentence or clause
    end, a clinical word, a service ("PULM CLINIC", "Cardiology clinic") or a
    function word; a head with no name word before it is no institution.
    """
    toks = [(m.start(), m.end()) for m in _HOSP_TOKEN_RE.finditer(text, start, end)]
    heads = [k for k, (a, b) in enumerate(toks) if text[a:b].lower().strip(".,'’s") in _HEAD_WORDS]
    if not heads:
        return start, end
    h = heads[0]
    nxt = _AFTER_HEAD_RE.match(text, toks[h][1])
    if nxt is not None and nxt.group(1).lower() in HEAD_AS_ADJECTIVE:
        return None  # "Brief Hospital Course", "Clinic Visit": the head word describes the next noun
    k = h
    while k > 0:
        a, b = toks[k - 1]
        w = text[a:b]
        gap = text[b : toks[k][0]]
        low = w.lower()
        if "\n" in gap or (w[-1] in ".,;:" and low not in _HOSP_KEEP):
            break
        core = fold(low.strip(".,'’"))
        if len(core) == 1 and not w.endswith("."):
            break  # "94 YO M NURSING HOME": a sex or a side, no initial
        if core in START_WORDS and core not in ("of", "the", "and") or core in SERVICES:
            break
        if classify(core, w) == "C" and core not in _HOSP_KEEP and core not in _HEAD_WORDS:
            break
        k -= 1
    while k < h and text[toks[k][0] : toks[k][1]].lower() in ("of", "the", "and", "&"):
        k += 1
    if k == h or names_no_institution([text[a:b].lower() for a, b in toks[k:h]]) and not _OF_AFTER_HEAD_RE.search(text, toks[h][1], end):
        return None  # ("COMMUNITY HOSPITAL", "OUTSIDE CLINIC": a kind of institution, no name)
    return toks[k][0], end


def _sentence_initial(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i] in " \t":
        i -= 1
    return i < 0 or text[i] in _SENTENCE_START_CHARS or PLACEHOLDER_RE.match(text, max(0, i - 10), i + 1) is not None


_TEMP_BEFORE_RE = re.compile(r"(?i)\b(?:t|temp|temps|temperature|tmax|t-?max|tm|tc|febrile|fever|fevers|spiked?|spiking|max|afebrile)\b[^\n\w]{0,3}(?:\w+[^\n\w]{1,3}){0,2}$")
_WEAK_CUE_RE = re.compile(r"(?i)(?:pt|patient)\b(?!\s{0,3}[:=#])")


#: A month's name or abbreviation as one hyphen-separated group of an identifier-shaped token ("12-Jan-2024": a date).
_MONTH_GROUP_RE = re.compile(r"(?i)" + MONTH_ANY)


def _validate(name: str, m: re.Match, text: str) -> tuple[int, int] | None:
    """Post-checks that a regex cannot express cheaply; returns the span to mask or None."""
    rec = _EXTRA.get(name)
    if rec is not None:
        return rec.check(m, text)
    start, end = m.span("v") if "v" in m.re.groupindex else m.span()
    if name == "date_md_cue":
        return None if score_change(text, start, end) else (start, end)  # "pain 3/10 from 7/10"
    if name == "id_mixed_groups":
        value = text[start:end]
        if sum(c.isdigit() for c in value) < 5 or not any(c.isalpha() for c in value):
            return None
        if any(_MONTH_GROUP_RE.fullmatch(g) for g in value.split("-")):
            return None  # "12-Jan-2024": a date
        return start, end
    if name == "age_over_89":
        # "Tmax 101F", "febrile to 102F", "T 99 F": a temperature in Fahrenheit, not "92F admitted from NH"
        unit = text[end : end + 3].lstrip(" \t-")[:1]
        if unit in "Ff" and _TEMP_BEFORE_RE.search(text, max(0, start - 30), start) is not None:
            return None
        if unit in "mf" and text[end : end + 1] in " \t":
            # a lower-case sex letter after a blank: a distance after a verb of walking is no age ("ambulated 100 m")
            pw = _prev_word(text, start)
            prev = text[pw[0] : pw[1]].lower() if pw else ""
            if prev and (prev.endswith(("ed", "ing", "s")) or prev in ("x", "for", "about", "approx", "walk", "ambulate")):
                return None
        return start, end
    if name in ("name_cue", "name_title", "name_comma", "name_possessive"):
        if name == "name_possessive":
            trimmed = _trim_name(text, start, end)
            if trimmed is None:
                return None
            start, end = trimmed
            tokens = text[start:end].split()
            # "Crohn's disease", "Smith's fracture": a lone eponym possessive is a diagnosis
            nxt = _NEXT_WORD_RE.match(text, m.end())
            if len(tokens) == 1 and (tokens[0].lower() in EPONYMS or (nxt and nxt.group(1).lower() in EPONYM_HEADS)):
                return None
            return start, end
        if name == "name_comma":
            a, b = (t.strip() for t in text[start:end].split(",", 1))
            b = b.split()[0]
            rfirst, rlast = raw_gazetteer()
            # "Peters, April", "Ward, Cory": a known surname + a known given name is a person
            pair = a.lower() in rlast and b.lower() in rfirst
            a_bad = _is_non_name(a) and not pair
            b_bad = _is_non_name(b) and not pair
            if a_bad or b_bad:
                return None
            if not (a.lower() in rlast or a.lower() in rfirst or b.lower() in rfirst or b.lower() in rlast) \
                    and _MEDICATION_LIST_RE.search(text, _paragraph_start(text, start), start):
                return None  # "MEDICATIONS:  Zestril, Zocor, ...": two brand names no lexicon knows, in a list of drugs
            return start, end
        trimmed = _trim_name(text, start, end, strict=name != "name_title")
        if trimmed is None:
            return None
        start, end = trimmed
        if name == "name_cue":
            # after a cue, at least one token must be a name and nothing else, or a word no lexicon knows
            # ("Patient John Smith", "PT: OKAFOR"), not only ambiguous words ("pt Will")
            classes = [classify(fold(t.strip(".,'’")), t) for t in text[start:end].split()]
            if not any(c in ("N", "U") for c in classes):
                return None
            # after a bare "pt"/"patient" (no colon) an unknown word is more often clinical
            # ("PT PLACED SUPINE") than a name: ask for a name the lexicons know
            if _WEAK_CUE_RE.match(m.group()) and "N" not in classes:
                return None
        return start, end
    if name in ("hospital",):
        return _trim_hospital(text, start, end)
    if name.startswith("cue_"):
        value = text[start:end]
        if not any(ch.isdigit() for ch in value):
            return None  # "ID: pending" or "fax machine" — an identifier value carries digits
        if CLINICAL_CODE_RE.fullmatch(value):
            return None
        return start, end
    if name in ("id_prefixed", "id_hyphenated", "id_digits"):
        if CLINICAL_CODE_RE.fullmatch(text[start:end]):
            return None
        if name == "id_hyphenated" and _is_range(text[start:end]):
            return None
        return start, end
    return start, end


#: A cue's value that ends on a short digit group ("604", "C-28"), which more groups may follow.
#: The short prefix in capitals a cue's value may open with ("mrn HC 229 4810"), and the words it may not be: a
#: function word, the field's own label or a month ("MEDICAID ID 1002...", "claim NO 5512").
_VALUE_PREFIX_RE = re.compile(r"([A-Z]{1,3})[ \t](?=\d)")
_NOT_VALUE_PREFIXES = FUNCTION_WORDS | frozenset(
    "id no num nr ref dob mrn acc ph tel fax pg cel jan feb mar apr may jun jul aug sep oct nov dec".split())
_LAST_GROUP_RE = re.compile(r"(?<!\d)\d{2,4}$")
#: Further digit groups after such a value, one blank apart, not an age, a dose or a measure ("MRN 4455123 72 yo").
_DIGIT_GROUPS_AFTER_RE = re.compile(
    r"(?:[ \t]\d{2,4}){1,3}(?![\w/.:-]|,\d|[ \t]{0,2}(?i:y|yo|y/o|yr|yrs|years?|yom|yof|mo|mos|wk|wks|days?|m|f|mg|kg|lbs?|cm|mm|%)\b)"
)


def _is_range(value: str) -> bool:
    """``0700-1900``, ``80-100``, ``96-98``: a shift or a rising range of rates or readings, no identifier.

    A local phone number (``555-0199``: three digits then four) and a falling pair stay identifiers.
    """
    parts = value.split("-")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 4 for p in parts):
        return False
    a, b = parts
    if len(a) == 3 and len(b) == 4:
        return False
    if all(CLOCK_RE.fullmatch(p) for p in parts):
        return True  # a shift: "0700-1900", "1900-0700"
    return int(b) > int(a)


def _name_runs(text: str) -> list[Candidate]:
    """Runs of Title-case or CAPS tokens that look like person names.

    A run (tokens separated by 1–3 spaces, same case style) is split at
    function/clinical words; each piece is then judged:

    * Title-case, 2+ tokens: a name when a token is in the gazetteer, or when
      it stands mid-sentence (only proper nouns are capitalised there);
    * Title-case, 1 token: a name when in the gazetteer and mid-sentence;
    * CAPS, 2+ tokens: a name only with a gazetteer hit (headers are in caps);
    * never a lone eponym or a token before an eponym head noun ("Baker cyst").
    """
    first, last = name_gazetteer()
    rfirst, rlast = raw_gazetteer()
    out: list[Candidate] = []

    def judge(piece: list[tuple[int, int, str]], caps: bool) -> None:
        if not piece:
            return
        lows = [w.lower() for _, _, w in piece]
        gaz = sum(1 for w in lows if w in first or w in last or w.split("-")[0] in last)
        s0, e0 = piece[0][0], piece[-1][1]
        nxt = _NEXT_WORD_RE.match(text, e0)
        if nxt and nxt.group(1).lower() in EPONYM_HEADS and (len(piece) == 1 or lows[-1] in EPONYMS):
            return
        if len(piece) == 1 and lows[0] in EPONYMS:
            return
        if caps:
            if len(piece) >= 2 and gaz:
                out.append(Candidate(s0, e0, "NAME", "rule:name_caps", 0.86))
            return
        initial = _sentence_initial(text, s0)
        if len(piece) >= 2 and (gaz or not initial):
            out.append(Candidate(s0, e0, "NAME", "rule:name_run", 0.88))
        elif len(piece) == 1 and gaz and not initial:
            out.append(Candidate(s0, e0, "NAME", "rule:name_gazetteer", 0.85))

    def flush(run: list[tuple[int, int, str]], caps: bool) -> None:
        if len(run) == 1:
            # fast path, same outcome: a lone token is a name only when Title-case
            # and in the gazetteer (judge() needs two tokens for CAPS)
            if caps:
                return
            low = run[0][2].lower()
            if not (low in first or low in last or low.split("-")[0] in last):
                return
        piece: list[tuple[int, int, str]] = []
        for k, tok in enumerate(run):
            low = tok[2].lower()
            # "April Jones", "Ray Small": a given name that is also an ordinary
            # word, directly followed by a known surname, is a given name
            if low in rfirst and _is_non_name(tok[2]) and k + 1 < len(run) and run[k + 1][2].lower() in rlast:
                piece.append(tok)
                continue
            # a clinical word right after a known first name is a surname ("Joshua Stone", "Lee Ward")
            surname = bool(piece) and piece[-1][2].lower() in rfirst and tok[2].lower() not in START_WORDS
            if _is_non_name(tok[2]) and not surname:
                judge(piece, caps)
                piece = []
            else:
                piece.append(tok)
        judge(piece, caps)

    run: list[tuple[int, int, str]] = []
    run_caps = False
    prev_end = -10
    for m in _NAME_TOKEN_RE.finditer(text):
        s, e = m.span()
        w = m.group()
        caps = w.isupper()
        if run and caps == run_caps and s - prev_end <= 3 and _WS_ONLY_RE.fullmatch(text, prev_end, s):
            run.append((s, e, w))
        else:
            flush(run, run_caps)
            run, run_caps = [(s, e, w)], caps
        prev_end = e
    flush(run, run_caps)
    return out


_MONTH_NAMES = frozenset("april may june august".split())
_PARTICLES = frozenset("van von der den de da di del della dos das du la le ten ter bin ibn al el mac st".split())
_PREV_WORD_RE = re.compile(r"([^\W\d_][\w'’-]{0,30})[ \t]{1,3}$")


def _prev_word(text: str, start: int) -> tuple[int, int] | None:
    """Span of the word before ``start`` across 1–3 blanks; ``_PREV_WORD_RE.search(text, max(0, start - 40), start)``.

    The same answer as that search (group 1's span), found by stepping back
    from ``start`` instead of trying every position of the 40-character window.
    """
    lo = start - 40 if start > 40 else 0
    q = start
    while q > lo and text[q - 1] in " \t":
        q -= 1
    if not 1 <= start - q <= 3 or q <= lo:
        return None
    r = q
    while r > lo:
        ch = text[r - 1]
        if ch.isalnum() or ch in "_'’-":
            r -= 1
        else:
            break
    # the word is at most 31 characters and starts on a letter ([^\W\d_]): the leftmost such start wins
    for p in range(max(r, q - 31), q):
        ch = text[p]
        if ch.isalnum() and not ch.isdecimal() and ch != "_":
            return p, q
    return None


_ROLES_AFTER_SLASH = CREDENTIALS | ROLES | ROLE_SHORTHANDS
#: A dictating clinician's code after the name on its line: the name's initials and digits ("FILBERT BRIGHT, M.D.    FB59").
_SIGNER_CODE_RE = re.compile(r"[^\n]{0,40}?(?<![\w/])([A-Z]{2,3})(\d{1,4})(?![\w/])")


def signer_codes(text: str, cands: list[Candidate]) -> list[Candidate]:
    """NAME candidates for the codes of the people ``cands`` names, where a code spelled by their initials and digits
    follows on the same line (dictation systems sign with them); the letters must be the name's initials."""
    out = []
    for c in cands:
        if c.category != "NAME":
            continue
        m = _SIGNER_CODE_RE.match(text, c.end)
        if m is None:
            continue
        # the name's words and those after it up to the code ("FILBERT [BRIGHT], M.D.": a surname another pass found)
        words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text[c.start : m.start(1)])
        k = len(m.group(1))
        if len(words) >= k and m.group(1) == "".join(w[0] for w in words[:k]) \
                and not any(w.lower() in FUNCTION_WORDS for w in words[:k]):  # ("Mary to get MT1 scan")
            out.append(Candidate(m.start(1), m.end(2), "NAME", "rule:signer_code", 0.9))
    return out


#: Initials right before the parenthesis that spells their name out ("-jk (Jasper Kim MD surg res)", "-bm (bernadette
#: mwangi ibclc)"), and those in parentheses right after it ("Jasper Kim (JK)").
_INITIALS_BEFORE_NAME_RE = re.compile(r"(?:^|(?<=[\s/\-–—]))([A-Za-z]{2,3})[ \t]?\($", re.MULTILINE)
_INITIALS_AFTER_NAME_RE = re.compile(r"[ \t]?\(([A-Za-z]{2,3})\)")


def initials_beside_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The initials a writer signs with, next to the name they stand for: before the parenthesis that spells it out
    ("-jk (Jasper Kim MD surg res)") or in parentheses after it ("Jasper Kim (JK)"), as NAME candidates, when their
    letters are the name's initials (all its words', or its first's and last's)."""
    out = []
    for c in cands:
        if c.category != "NAME":
            continue
        words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text[c.start : c.end])
        if len(words) < 2:
            continue
        spelled = {"".join(w[0] for w in words).lower(), (words[0][0] + words[-1][0]).lower()}
        m = _INITIALS_BEFORE_NAME_RE.search(text, max(0, c.start - 8), c.start)
        if m is not None and m.group(1).lower() in spelled:
            out.append(Candidate(m.start(1), m.end(1), "NAME", "rule:initials_beside_name", 0.85))
        m = _INITIALS_AFTER_NAME_RE.match(text, c.end)
        if m is not None and m.group(1).lower() in spelled:
            out.append(Candidate(m.start(1), m.end(1), "NAME", "rule:initials_beside_name", 0.85))
    return out


#: An extension after a telephone number ("555-0178 ext 31", "[ID] x 14", "[PHONE], ext. 2231").
#: A bare "x" takes three digits or more: "x3", "x 10" after a number are how many times ("paged 4-4410 x3").
_EXTENSION_AFTER_RE = re.compile(
    r"(?i)[ \t]{0,2},?[ \t]{0,2}((?:ext\.?|extension)[ \t]{0,2}#?[ \t]{0,2}\d{1,6}|x[ \t]?\d{3,6})(?![\w/]|[.,]\d)"
)
_NUMBER_PLACEHOLDER_RE = re.compile(r"\[(?:PHONE|ID)\]")


def phone_extensions(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The extension after a telephone number that ``cands`` (or an earlier level's placeholder) removed ("nurse line
    [ID] ext 31"): the phone pattern takes an extension after a full number, not after a local one another rule found."""
    if "x" not in text and "X" not in text:
        return []
    ends = [c.end for c in cands if c.category in ("PHONE", "ID")]
    if "[" in text:
        ends += [m.end() for m in _NUMBER_PLACEHOLDER_RE.finditer(text)]
    out = []
    for e in set(ends):
        m = _EXTENSION_AFTER_RE.match(text, e)
        if m is not None:
            out.append(Candidate(m.start(1), m.end(1), "PHONE", "rule:phone_extension", 0.9))
    return out


#: An ID's label, then a short letter code, right before a removed number: the code is the number's prefix ("MRN BMC
#: [ID]", "fl lic me [ID]", "medicaid nhp [ID]", "ID MA [ID]"): an issuer's letters that the number recogniser left.
_ID_PREFIX_BEFORE_RE = re.compile(
    r"(?i)(?<![\w-])(?:mrn|id|lic|license|licence|medicaid|medicare|member[ \t]id|policy)[ \t]{0,2}[:#]?[ \t]{0,2}"
    r"(?!(?:is|no|nr|num|of|the|was|for|and|per|pt|on|id|mrn|lic|ins|mbi)[ \t])([A-Za-z]{2,4})[ \t]{1,2}$"
)
_ID_PLACEHOLDER_RE = re.compile(r"\[(?:ID|MRN)\]")


def id_prefixes(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The letter code between an ID's label and the number ``cands`` (or an earlier level's placeholder) removed
    ("MRN BMC [ID]", "lic me [ID]"): part of the identifier as the issuer writes it ("mrn is [MRN]" keeps its verb)."""
    starts = [c.start for c in cands if c.category in ("ID", "MRN")]
    if "[" in text:
        starts += [m.start() for m in _ID_PLACEHOLDER_RE.finditer(text)]
    out = []
    for s in set(starts):
        m = _ID_PREFIX_BEFORE_RE.search(text, max(0, s - 40), s)
        if m is not None and (len(m.group(1)) < 3 or m.group(1).lower() not in ordinary_words()):  # ("MRN here [ID]")
            out.append(Candidate(m.start(1), m.end(1), "ID", "rule:id_prefix", 0.85))
    return out


#: Credentials that follow a name after a blank alone ("hollis ng dds", "NG DO,"), lower case or capitals.
#: ("do" only closing its field: "claudette may do the shopping" keeps its modal)
_BLANK_CREDENTIAL = r"(?:(?:md|MD|dds|DDS|dmd|DMD|np|NP|pa-c|PA-C|rn|RN|dpm|DPM|od|OD)(?![\w-])|(?:do|DO)(?=[ \t]*(?:[,/\n]|$)))"
_BLANK_CREDENTIAL_AFTER_RE = re.compile(r"[ \t]+" + _BLANK_CREDENTIAL)
#: A word after a found name, then what closes a field or a clause: a line's or the text's end, a slash, a comma, a
#: parenthesis, a sentence's stop, a phone number or a blank credential ("dr amy ng / resident", "niece claudette may
#: 603-555-0164").
_SURNAME_CLOSING_RE = re.compile(
    r"[ \t]([A-Za-z]{2,12})(?=[ \t]*(?:$|\n|[ \t]/|[,;)(]|\.(?:[ \t]*$|\s)|\(?\d{3}\)?[-. ]\d{3}[-. ]\d{4}|\d{3}[-. ]\d{4}\b)"
    # a doctor's, dentist's or nurse's credential after a blank closes the name as a comma does ("dr. hollis ng dds")
    r"|[ \t]+" + _BLANK_CREDENTIAL + r")"
)
#: The same word before the person's age ("gustavo hill 67m"), a preposition no modal verb takes ("DR TEMITOPE MAY VIA
#: TELEHEALTH") or a verb's past form ("MOTHER LATOYA MAY NOTIFIED"; "claudette may call" keeps its verb).
_SURNAME_BEFORE_AGE_OR_VERB_RE = re.compile(
    r"[ \t]([A-Za-z]{2,12})(?=[ \t]+(?:\d{1,3}[ \t]?(?i:y/?o|yrs?|[mf])\b|(?i:via|from|at|re|with|w/)[ \t]|[A-Za-z]{3,}(?i:ed)\b))"
)
#: Pronouns before such a verb are its subject, no surname ("PER JULIAN SHE TRIPPED"); a word ending in "s" is a verb of
#: its own ("WIFE DOROTHY STATES WITNESSED") and is left too.
_NOT_SURNAME_BEFORE_VERB = frozenset("she he they we it you i who".split())


#: Words that end a clause after a name and are surnames too ("called wife joan back.", "son tom too,").
_CLAUSE_ENDS = frozenset(
    "back home too then soon ok okay more first last call down again well today alone later also "
    # the phone's kind before its number ("girlfriend kim cell 508 555 2261", "daughter kia cb 651-555-0145")
    "cell cb ph tel mobile mob pgr pager fax hm wk".split()
)
#: Modal verbs that are surnames ("Keisha Will", "Claudette May"): a function word, yet a surname where a field closes.
_MODAL_SURNAMES = frozenset(("may", "will"))


#: A doctor's title right before a name ("dr hollis", "Dr. Hollis").
_DOCTOR_BEFORE_RE = re.compile(r"(?i)\b(?:dr|doctor)\.?[ \t]{1,2}$")


#: The credential after a name and its comma ("Hollis Ng, MD").
_CREDENTIAL_AFTER_RE = re.compile(r",[ \t]{0,2}([A-Za-z][A-Za-z.]{0,7})\b")


def _credential_after(text: str, pos: int) -> bool:
    m = _CREDENTIAL_AFTER_RE.match(text, pos)
    return m is not None and m.group(1).lower().rstrip(".") in CREDENTIALS


def surnames_closing_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The surname that is also a word or an abbreviation ("ng", "may", "will", "le") right after a NAME candidate
    ending in a given name, written in the same case, when it closes the field or the clause ("dr [amy] ng /
    resident", "DR. [AMY] NG" at a line's end, "niece [claudette] may 603-555-0164", "GIRLFRIEND [KEISHA] WILL."):
    there the given name has its surname, not the sentence's next word ("[claudette] may call" keeps its verb). A
    given name no lexicon lists leaves the word unless a doctor's title stands before it alone ("dr [hollis] ng") or
    a credential after it ("[Hollis] Ng, MD")."""
    given, surnames = first_names(), last_names()
    out = []
    for c in cands:
        if c.category != "NAME":
            continue
        m = _SURNAME_CLOSING_RE.match(text, c.end)
        if m is None:
            m = _SURNAME_BEFORE_AGE_OR_VERB_RE.match(text, c.end)
            if m is None or m.group(1).lower() in _NOT_SURNAME_BEFORE_VERB or m.group(1).lower().endswith("s"):
                continue
        w, low = m.group(1), m.group(1).lower()
        head = text[c.start : c.end].split()
        prev = head[-1] if head else ""
        if low not in surnames or low in ROLES or low in CREDENTIALS or low in TITLES or low in _CLAUSE_ENDS \
                or low in _NEVER or low in US_STATES or low in FUNCTION_WORDS and low not in _MODAL_SURNAMES:
            continue  # (nor a state's code: "plant in [noel] mo (evisceration line)")
        titled_one = len(head) == 1 and (_DOCTOR_BEFORE_RE.search(text, max(0, c.start - 8), c.start) is not None
                                         or _credential_after(text, m.end())
                                         or _BLANK_CREDENTIAL_AFTER_RE.match(text, m.end()) is not None)
        if not (len(prev) > 2 and prev.isalpha() and (prev.lower() in given or titled_one)):
            # (a surname before it leaves the word the sentence's: "[CATALDO] ALS.", "[K. PHAM] EN"; after a doctor's
            # title one word is a given name whatever the lexicons know: "dr [hollis] ng / resident")
            continue
        if not (prev.islower() and w.islower() or prev.isupper() and w.isupper() or prev.istitle() and w.istitle()):
            continue  # (in a mixed-case line both are capitalised: "Operator: [Hollis] Ng, MD"; "[Amy] NG tube" is no name)
        out.append(Candidate(m.start(1), m.end(1), "NAME", "rule:surname_closing_name", 0.85))
    return out


#: A typist's initials after a slash closing the line ("TRANSCRIBED: [JM]/AF", "-- dr. n. osei / ts").
_TYPIST_AFTER_RE = re.compile(r"[ \t]?/[ \t]?([A-Za-z]{2,3})[ \t]*(?=\n|$)")


def typists_after_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The typist's or the co-signer's initials after a slash closing the line of a NAME candidate or a ``[NAME]``
    placeholder ("[JM]/AF", "-- dr. [osei] / ts", "- dr [menon-whitley] / ps"): the dictating and the typing person's.
    Not a credential or a role ("kd/rn": the signer's credential stays) or a clinical word of three letters."""
    if "/" not in text:
        return []
    ends = {c.end for c in cands if c.category == "NAME"}
    if "[" in text:
        ends.update(m.end() for m in NAME_PLACEHOLDER_RE.finditer(text))
    out = []
    for e in ends:
        m = _TYPIST_AFTER_RE.match(text, e)
        if m is None:
            continue
        low = m.group(1).lower()
        if low in _ROLES_AFTER_SLASH or low in FUNCTION_WORDS or len(low) == 3 and is_clinical_term(low):
            continue
        out.append(Candidate(m.start(1), m.end(1), "NAME", "rule:typist_after_name", 0.85))
    return out


#: A capital's initial right before a name: with its dot, or without one when it is no pronoun, article or sex
#: ("T. Oyelowo", "K HOLLOWAY", "T.Q. Nguyen"; not "I Smith", "A Smith", "45 F Jones"), after a blank, a line's start
#: or "(" or a dash ("—S. Oduya, PharmD": a signature's em dash; not a hyphen after a letter, the tail of "EMT-P").
#: Lower-case initials only two or three with their dots, before a lower-case name ("-k.l. yoon rn"; not "a.m.", "p.o.").
_INITIAL_BEFORE_RE = re.compile(r"(?:^|(?<=[ \t\n(—–])|(?<=(?<!\w)-))(?<!\d[ \t])((?:[A-Z]\.){1,3}|[B-EG-HJ-LN-Z]|(?:[a-z]\.){2,3})[ \t]{1,2}$")


def _initial_before(text: str, start: int) -> re.Match | None:
    """The initials right before the name that starts at ``start`` (lower-case ones only before a lower-case name, and
    only where the letters are no dotted abbreviation)."""
    m = _INITIAL_BEFORE_RE.search(text, max(0, start - 10), start)
    if m is None or m.group(1)[0].isupper():
        return m
    return m if text[start : start + 1].islower() and dotted_letters_may_be_initials(m.group(1).replace(".", "")) else None


def initials_before_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The initial right before a NAME candidate or a ``[NAME]`` placeholder ("—S. [Oduya], PharmD"), as a NAME
    candidate: L1's names take theirs in :func:`_extend_name_left`; this gives the model's names (and the names an
    earlier level removed) theirs, since "S. [NAME]" leaves a letter of the name."""
    starts = {c.start for c in cands if c.category == "NAME"}
    if "[" in text:
        starts.update(m.start() for m in NAME_PLACEHOLDER_RE.finditer(text))
    out = []
    for s in sorted(starts):
        if s == 0 or text[s - 1] not in " \t":
            continue
        m = _initial_before(text, s)
        if m is not None:
            out.append(Candidate(m.start(1), m.end(1), "NAME", "rule:initial_before_name", 0.85))
    return out


#: Words after which an everyday-word given name is the verb it also is ("will page [Dr. Osei]", "to bill [Medicaid]").
_VERB_LEADS = frozenset("will to please pls can could should must may might would did shall 'll".split())
_NAME_TITLE_START_RE = re.compile(r"(?i)(?:dr|drs|doctor|mr|mrs|ms|miss|mx|prof|rev|fr|sr|sgt|officer)\b")


#: The patient's label opening a line, right before a word ("pt: ", "PT ", "Patient: ", "RESIDENT: ").
_PATIENT_LABEL_BEFORE_RE = re.compile(r"(?im)^[ \t]*(?:pt|patient|name|resident|client)[ \t]*[:#-]?[ \t]*$")


#: After a name, "&", "and" or "+", then one given name closing a list of people: a parenthesis, a comma, a stop, a
#: line's end, or what two people together are or do ("(Gilles & Rose)", "Sons [Marcus] & Will present").
_PARTNER_AFTER_NAME_RE = re.compile(
    r"[ \t]{1,2}(?:&|and|\+)[ \t]{1,2}([A-Za-z]{3,12})(?=[ \t]*(?:$|\n|[,;)]|\.(?:[ \t]*$|\s)|[ \t]+(?i:at|present|"
    r"visited|visiting|here|both|are|were|updated|aware)\b))"
)


def partners_after_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The given name that is an everyday word too ("rose", "will", "hope", "joy") after a NAME candidate or a ``[NAME]``
    placeholder and "&", "and" or "+", closing a list of people ("PARENTS ([GILLES] & ROSE) FROM ...", "Sons [Marcus] &
    Will present", "[gilles] and rose at bedside"): two people named together. Not before a verb or an object ("[NAME]
    and will call", "[NAME] and hope to ..."), and in a mixed-case line only when capitalised."""
    ends = {c.end for c in cands if c.category == "NAME"}
    if "[" in text:
        ends.update(m.end() for m in NAME_PLACEHOLDER_RE.finditer(text))
    given, ambiguous = first_names(), AMBIGUOUS_NAMES
    out = []
    for e in ends:
        m = _PARTNER_AFTER_NAME_RE.match(text, e)
        if m is None:
            continue
        w = m.group(1)
        low = w.lower()
        if low not in given or low in ROLES or low in TITLES or low in CREDENTIALS or low in _NEVER:
            continue
        if not w[0].isupper() and mixed_case_line(text, m.start(1)):
            continue  # (a mixed-case line's lower-case word is the word: "[Rosa] and will")
        if low in FUNCTION_WORDS and low not in ambiguous:
            continue
        out.append(Candidate(m.start(1), m.end(1), "NAME", "rule:partner_after_name", 0.85))
    return out


def given_names_before_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The given name that is an everyday word too ("will", "page", "rose", "grace") or a Hmong given name's first
    syllable that is an abbreviation too ("pa", "ka", "nou") right before a NAME candidate or
    a ``[NAME]`` placeholder, as a NAME candidate ("house mgr will [tsosie]", "CHARGE RN WILL [ODUM]", "CHR Will
    [Tohee]"): a word the rules leave alone by itself is, before a found surname, the person's given name, and "will"
    left keeps the name from being removed.

    Not after a word that makes it a verb ("will page [Dr. Osei]", "to bill [NAME]"), not before a title ("page
    Dr. [NAME]"), and in a mixed-case line only when capitalised ("Pt will [Rosa]..." is no sentence; "Will [Obuya]").
    """
    starts = {c.start: c for c in cands if c.category == "NAME"}
    if "[" in text:
        starts.update((m.start(), None) for m in NAME_PLACEHOLDER_RE.finditer(text) if m.start() not in starts)
    ambiguous, given = AMBIGUOUS_NAMES, first_names()
    out = []
    for s, c in sorted(starts.items()):
        if s < 2 or text[s - 1] not in " \t" or text[s - 2] in " \t":
            continue  # one blank between the two names
        span = _prev_word(text, s)
        if span is None or span[0] > 0 and text[span[0] - 1] not in " \t\n(":
            continue  # (a word of its own: not the end of "[NAME]-LAW", "SISTER-IN-LAW")
        w = text[span[0] : span[1]]
        low = w.lower()
        hmong = low in _HMONG_FIRST and c is not None and text[s : c.end].split()[0].lower().strip(",") in _HMONG_NAME_PARTS
        # ("pt: ama [owusu-ansah]", "PT AMA [SERWAA BOATENG]"): after the patient's label opening the line, any listed
        # given name, an abbreviation's letters too
        labelled = low in given and low not in TITLES and low not in CREDENTIALS \
            and _PATIENT_LABEL_BEFORE_RE.search(text, max(0, span[0] - 16), span[0]) is not None
        if not (low in ambiguous and low in given or hmong or labelled) or not (w.islower() or w.isupper() or w.istitle()):
            continue  # (a Hmong given name's first syllable before a clan or a given name's second syllable: "pa [vang]",
            # "DAUGHTER-IN-LAW PA [KOU]"; not "seen by PA [John Smith]", a physician assistant)
        if c is not None and _NAME_TITLE_START_RE.match(text, s):
            continue
        lead = _prev_word(text, span[0])
        if lead is not None and text[lead[0] : lead[1]].lower() in _VERB_LEADS:
            continue
        if not w[0].isupper() and mixed_case_line(text, s):
            continue  # (a mixed-case line's lower-case word is the word)
        out.append(Candidate(span[0], span[1], "NAME", "rule:given_name_before_name", 0.85))
    return out


def _extend_name_left(text: str, c: Candidate) -> Candidate:
    """Take in name particles and one given name before a surname span ("Nadia van der [Heijden]")."""
    start = c.start
    if start == 0 or text[start - 1] not in " \t":
        return c  # no word before it across blanks: nothing to take in
    m = _initial_before(text, start)
    if m is not None:
        return Candidate(m.start(1), c.end, c.category, c.source, c.score)  # "seen by T. [Oyelowo]": the initial too
    first, _ = name_gazetteer()
    caps = text[c.start : c.end].isupper()  # ("DR. DOS SANTOS", "ANA DE LA CRUZ": a capitals line's particles)
    for _ in range(4):
        span = _prev_word(text, start)
        if span is None:
            break
        w = text[span[0] : span[1]]
        if w.lower() in _PARTICLES and (not w[0].isupper() or caps and w.isupper() and w.lower() not in ("mac", "st")) \
                or w in ("Van", "Von", "De", "Da", "Di", "Del", "La", "Le", "Du"):
            start = span[0]
            continue
        if start < c.start and (w[0].isupper() and not _is_non_name(w) or w.lower() in first):
            start = span[0]  # the given name before the particles
        break
    if start == c.start and (span := _prev_word(text, start)) is not None and text[span[0] : span[1]].lower() in _HMONG_FIRST \
            and text[c.start : c.end].split()[-1].lower() in _HMONG_CLANS and len(text[c.start : c.end].split()) >= 2:
        start = span[0]  # "interpreter Pa [Houa Xiong]": a Hmong given name's first syllable, though "PA" is a credential too
    if start == c.start and (span := _prev_word(text, start)) is not None and text[span[0] : span[1]].lower() in first_names() \
            and text[span[0] : span[1]].lower() not in TITLES and text[span[1] : start] in (" ", "\t") and (role := _prev_word(text, span[0])) is not None \
            and text[role[0] : role[1]].lower() in _ROLES_BEFORE_GIVEN and text[role[1] : span[0]] in (" ", "\t"):
        start = span[0]  # "SW PEG [DOYLE]", "house mgr will [tsosie]": between a role and a surname, a given name that is a word too
    return c if start == c.start else Candidate(start, c.end, c.category, c.source, c.score)


#: A middle initial closing a name in a header ("PT: OKONJO, FAITH A.   MRN"): one capital and a full stop before two
#: blanks, a line's end or a mark; with the name written surname first, the given name may have been read as something
#: else ("MCALLISTER, JUNE B.": "[NAME], [DATE] B.").
_MIDDLE_INITIAL_AFTER_RE = re.compile(r"[ \t](?:([A-Z]\.)(?=[ \t]{2,}|[ \t]*(?:$|\n|[,;)]))|([A-Z])\.?(?=" + HEADER_FIELD_AFTER + "))")
_SURNAME_FIRST_PLACEHOLDERS_RE = re.compile(r"\[NAME\],[ \t]\[[A-Z]+\]")


def middle_initials_after_names(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The middle initial after a NAME candidate, a ``[NAME]`` placeholder or a surname-first pair of placeholders
    ("PT: [OKONJO, FAITH] A.   MRN"), as a NAME candidate: "A." left keeps the name from being removed."""
    ends = {c.end for c in cands if c.category == "NAME"}
    if "[" in text:
        ends.update(m.end() for m in NAME_PLACEHOLDER_RE.finditer(text))
        ends.update(m.end() for m in _SURNAME_FIRST_PLACEHOLDERS_RE.finditer(text))
    out = []
    for e in sorted(ends):
        m = _MIDDLE_INITIAL_AFTER_RE.match(text, e)
        if m is not None:
            g = 1 if m.group(1) else 2  # (a dotted initial, or one before the header's next field)
            out.append(Candidate(m.start(g), m.end(g), "NAME", "rule:middle_initial_after_name", 0.85))
    return out


#: A given name after a header's surname and its comma, filling the field (a middle initial may follow it): before two
#: blanks, the line's end or the header's next field ("PATIENT: BROWN, WILL   MRN", "PATIENT: KING, ODESSA M  DOB").
_GIVEN_FILLING_FIELD_RE = re.compile(
    r",[ \t]?([^\W\d_][\w'’-]{1,20})(?=(?:[ \t][A-Z]\.?)?(?:[ \t]{2,}|[ \t]*(?:$|\n)|" + HEADER_FIELD_AFTER + "))"
)


def given_names_after_header_surnames(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The given name after a NAME candidate or a ``[NAME]`` placeholder that follows the patient's label and a comma,
    filling the field ("PATIENT: [BROWN], WILL   MRN", "RESIDENT: [DELACROIX], MAE   DOB"), as a NAME candidate,
    though it is a word, a modal or a clinical abbreviation too: the header's field holds a name and nothing else."""
    names = {(c.start, c.end) for c in cands if c.category == "NAME"}
    if "[" in text:
        names.update(m.span() for m in NAME_PLACEHOLDER_RE.finditer(text))
    out = []
    for s, e in sorted(names):
        m = _GIVEN_FILLING_FIELD_RE.match(text, e)
        if m is not None and m.group(1).lower().rstrip(".") not in CREDENTIALS \
                and _PATIENT_LABEL_BEFORE_RE.search(text, max(0, s - 16), s) is not None:  # ("RESIDENT: [NAME], MD")
            out.append(Candidate(m.start(1), m.end(1), "NAME", "rule:given_name_after_header_surname", 0.85))
    return out


#: Roles and relatives before whose given name and surname the given name is taken though it is a word or an
#: abbreviation too ("SW PEG [DOYLE]", "house mgr will [tsosie]", "HUSBAND WILL [ORTIZ]").
_ROLES_BEFORE_GIVEN = frozenset("""sw rn lpn cna np pa md cm mgr manager worker aide hha chaplain interpreter sponsor doula advocate
    counselor therapist case husband wife son daughter mother father brother sister friend neighbor neighbour partner
    intern resident fellow attending caseworker caregiver coordinator navigator scribe pharmacist midwife""".split())
# (not a title between them: "FELLOW RESIDENT MR [PRICE]")
#: The eighteen Hmong clans' surnames, and first syllables of Hmong given names that are clinical abbreviations or
#: credentials elsewhere ("Pa Nhia Vang", "Ka Zoua Yang"): before a given name and a clan surname they are the name's.
_HMONG_CLANS = frozenset("chang cha chue fang hang her heu khang kong kue lee ly lor lo moua pha phang thao vang vue xiong yang".split())
_HMONG_FIRST = frozenset("pa ka yer nou xee kia".split())
#: The clans and the second syllables of Hmong given names a first syllable stands before ("Pa Nhia", "Ka Zoua", "Pa Kou").
_HMONG_NAME_PARTS = _HMONG_CLANS | frozenset("nhia kou houa zoua yia mai chia xia youa ying lia nou see yer".split())


# (the particles of _PARTICLES that stand between a given name and a surname: not "mac", "st", which begin one)
_PARTICLE_SURNAME_RE = re.compile(
    r"(?:[ \t](?:" + "|".join(sorted(_PARTICLES - {"mac", "st"})) + r")){1,3}[ \t]([A-Z][\w'’-]{1,30})"
)


_PARTICLE_SURNAME_CAPS_RE = re.compile(
    r"(?:[ \t](?:" + "|".join(sorted(p.upper() for p in _PARTICLES - {"mac", "st"})) + r")){1,3}[ \t]([A-Z][A-Z'’-]{1,30})\b"
)


#: A surname's initial after a given name ("kayla b. 16f", "hannah v. ms ccc-slp"): one letter and a full stop, then
#: a blank, a digit or punctuation, never another letter (an abbreviation: "b.i.d.").
_SURNAME_INITIAL_RE = re.compile(r"[ \t]([A-Za-z])\.(?=[ \t,;:)\n]|$)")


def _extend_name_right(text: str, c: Candidate) -> Candidate:
    """Take in a surname behind name particles after a given name ("[Maria] van der Berg", "[Ali] bin Said",
    "[ANA] DE LA CRUZ"), or a surname's initial after a given name alone ("[kayla] b.")."""
    initial = _SURNAME_INITIAL_RE.match(text, c.end)
    if initial is not None and " " not in text[c.start : c.end].strip() and text[c.start : c.end].lower() in first_names():
        return Candidate(c.start, initial.end(), c.category, c.source, c.score)
    m = _PARTICLE_SURNAME_RE.match(text, c.end)
    if m is None and text[c.start : c.end].isupper():
        m = _PARTICLE_SURNAME_CAPS_RE.match(text, c.end)
    if m is None or _is_non_name(m.group(1)):
        return c
    return Candidate(c.start, m.end(), c.category, c.source, c.score)


@dataclass
class RuleRecognizer:
    """Find L1 identifier spans in a text; stateless and thread-safe after construction.

    ``enabled`` restricts the recognisers by name (see :data:`RECOGNIZERS`; cue
    recognisers are ``cue_<category>``; ``name_runs`` is the lexicon/context
    pass of :mod:`clinx.text.evidence`); ``None`` enables all.

    ``years``: ``remove`` (default) masks years that are part of a date and
    bare years in clinical text (``S/P MI 1992``, ``'92``); ``keep`` (HIPAA
    Safe Harbor keeps years) leaves every year in place, masking only the
    month and day of a date.
    """

    enabled: frozenset[str] | None = None
    years: str = "remove"

    def __post_init__(self):
        if self.years not in ("remove", "keep"):
            raise ValueError(f"years must be 'remove' or 'keep', got {self.years!r}")

    def _on(self, name: str) -> bool:
        return self.enabled is None or name in self.enabled

    def _lexicon_plan(self) -> tuple[tuple, dict | None]:
        """The lexicon records this configuration runs and their word index, kept per (enabled, years)."""
        key = (self.enabled, self.years)
        hit = self.__dict__.get("_lex_plan")
        if hit is None or hit[0] != key:
            enabled, keep_years = self.enabled, self.years == "keep"
            lex = tuple(r for r in _LEXICON_RECS if (enabled is None or r.name in enabled) and not (keep_years and r.name in YEAR_NAMES))
            hit = (key, lex, _lexicon_index(lex) if lex else None)
            self.__dict__["_lex_plan"] = hit
        return hit[1], hit[2]

    def find(self, text: str) -> list[Candidate]:
        """All candidate spans in ``text`` (overlaps not yet resolved)."""
        check_text(text)
        cands: list[Candidate] = []
        if not text:
            return cands
        low = text.lower()
        # lower() maps a few code points oddly for case-insensitive patterns ("İ" grows,
        # "ſ" and "ı" match s/i under IGNORECASE): then the literal pre-scans are not
        # trusted and every gated pattern runs on the text as is
        exotic = len(low) != len(text) or "ſ" in text or "ı" in text
        plan, digits = _plan(text, low, exotic)
        if digits and self._on("cue_id"):
            for m in _starts_matches(text, low, _CUE_RE, _CUE_START_RE, exotic):
                name = m.lastgroup if m.lastgroup in _CUE_CATEGORY else next((g for g in _CUE_CATEGORY if m.start(g) != -1), "cue_id")
                s, e = m.span("v")
                pre = _VALUE_PREFIX_RE.match(text, s)
                if pre is not None and name == "cue_phone":
                    continue  # ("BY PHONE AT 0410": a phone's number has no such prefix; other rules read what follows)
                if pre is not None and pre.group(1).lower() in _NOT_VALUE_PREFIXES:
                    s = pre.end()  # ("Medicaid ID 1002...", "acct NO 5512": a word before the value)
                if e - s <= 2 and text[s:e].isdigit() and name != "cue_phone":
                    g = _DIGIT_GROUPS_AFTER_RE.match(text, e)
                    if g is not None and g.group().count(" ") + g.group().count("\t") >= 2:
                        e = g.end()  # ("CLAIM # 31 092 558", "c-file 27 448 901": a number in groups opening with two digits)
                if CLINICAL_CODE_RE.fullmatch(text, s, e) or e - s <= 2 and text[s:e].isdigit():
                    continue  # ("VISIT #6", "dose #2": a count, no identifier)
                if name == "cue_phone" and e - s == 4 and CLOCK_RE.fullmatch(text, s, e) \
                        and PHONE_AS_MEANS_RE.search(text, max(0, s - 24), s) is not None:
                    continue  # ("updated by phone 0410": the phone is how, the four digits the hour of the call)
                if name == "cue_phone" and SLASHED_DATE_RE.fullmatch(text, s, e):
                    continue  # ("BY PHONE 10/24 1015": no phone number is written with slashes; the date is the call's)
                if name != "cue_phone" and _LAST_GROUP_RE.search(text, s, e):
                    g = _DIGIT_GROUPS_AFTER_RE.match(text, e)
                    if g is not None:
                        e = g.end()  # "mrn 604 118 37", "SSN 123 45 6789", "va claim C-28 771 904": a value in groups
                cands.append(Candidate(s, e, _CUE_CATEGORY.get(name, "ID"), f"rule:{name}", 0.99))
        enabled = self.enabled
        keep_years = self.years == "keep"
        for i in plan:
            name, rx, cat, score = _COMPILED[i]
            if enabled is not None and name not in enabled:
                continue
            if keep_years and name in YEAR_NAMES:
                continue
            if i == _NAME_CUE_IDX:
                matches = _starts_matches(text, low, rx, _NAME_CUE_START_RE, exotic)
            elif i == _DATE_IDX:
                matches = _starts_matches(text, low, rx, _DATE_START_RE, exotic)
            elif i in _ANCHORED and not exotic:
                matches = _anchored_matches(text, rx, *_ANCHORED[i])
            elif i in _STARTS:
                matches = _starts_matches(text, low, rx, _STARTS[i], exotic)
            else:
                matches = rx.finditer(text)
            validated = name in _VALIDATED
            has_v = _HAS_V[i]
            for m in matches:
                if validated:
                    span = _validate(name, m, text)
                    if span is None:
                        continue
                    s, e = span
                else:
                    s, e = m.span("v") if has_v else m.span()
                if name in ("url", "domain"):
                    # sentence punctuation after a URL is not part of it
                    while e > s and text[e - 1] in ".,;:!?":
                        e -= 1
                cands.append(Candidate(s, e, cat, _SOURCE[name], score))
        lex, index = self._lexicon_plan()
        if self._on("name_runs") or lex:
            cands.extend(find_evidence(text, lex, names=self._on("name_runs"), index=index))
        cands = [_extend_name_right(text, _extend_name_left(text, c)) if c.category == "NAME" else c for c in cands]
        cands = [_drop_credential(text, c) if c.category == "NAME" else c for c in cands]
        cands.extend(signer_codes(text, cands))
        cands.extend(typists_after_names(text, cands))
        cands.extend(given_names_before_names(text, cands))
        cands.extend(partners_after_names(text, cands))
        cands.extend(surnames_closing_names(text, cands))
        cands.extend(initials_beside_names(text, cands))
        cands.extend(phone_extensions(text, cands))
        cands.extend(id_prefixes(text, cands))
        cands.extend(find_counties(text))
        cands.extend(find_place_fields(text))
        cands.extend(find_nicknames(text))
        cands.extend(find_listed_children(text))
        cands.extend(find_listed_patients(text))
        cands.extend(find_shift_names(text))
        cands.extend(find_team_names(text, cands))
        cands.extend(find_initials_after_credentials(text))
        cands.extend(find_address_fields(text))
        cands.extend(find_word_towns(text))
        cands.extend(find_landmarks(text))
        cands.extend(find_quarters(text))
        cands.extend(find_branch_towns(text))
        cands.extend(find_bare_institutions(text))
        cands.extend(find_institution_fields(text))
        cands.extend(find_header_institutions(text))
        cands.extend(find_parenthesised_institutions(text))
        cands.extend(find_described_businesses(text))
        cands.extend(find_employers(text))
        cands.extend(find_businesses_on_bare_streets(text))
        cands.extend(find_institutions_before_units(text))
        cands.extend(find_hospital_acronyms(text))
        cands.extend(find_affiliations(text))
        cands.extend(find_kinds_of_places(text))
        cands.extend(find_capitalised_institutions(text))
        cands.extend(find_placement_replies(text))
        cands.extend(find_patterned_institutions(text))
        cands.extend(find_acronym_pairs(text))
        cands.extend(find_acronym_hospitals(text))
        cands.extend(find_system_short_forms(text))
        cands.extend(find_unknown_referral_names(text))
        cands.extend(complete_institutions(text, cands))
        cands.extend(repeated_institution_words(text, cands))
        cands.extend(join_institution_parts(text, cands))
        cands.extend(complete_institution_lists(text, cands))
        # "Polish [American Medical Group]", "la [clinica]", "CA [Rural Legal Assistance]": the name's first word
        cands.extend(openers_of_institutions(text, cands))
        if any(c.category == "HOSPITAL" for c in cands):
            # (after the institutions are complete: "queens medical center imaging, honolulu")
            cands.extend(towns_after_institutions(text, cands))
        cands = drop_state_and_country_parts(text, cands)
        cands.extend(date_modifiers(text, cands))  # "late [Sept]": the word that narrows a date goes with it
        cands.extend(date_range_ends(text, cands))  # "[Oct 2]-6": and the last day of its range
        if keep_years:
            cands = _without_years(text, cands)
        # placeholders from an earlier pass are not identifiers
        if "[" in text:
            cands = drop_inside(cands, [m.span() for m in PLACEHOLDER_RE.finditer(text)])
        return cands


_TOWN_AFTER_RE = re.compile(
    # after a comma, a dash or a blank ("Geisinger Medical Center Danville", "ST. LUKE'S FAMILY MEDICINE - BOISE"), or in
    # parentheses ("st. luke's (bethlehem) prior to transfer")
    r"(?:['’]s)?(?:,|[ \t]-|[ \t]–)?(?:[ \t]{1,2}|[ \t]?\()((?:[A-Z][a-z]{2,20}|[A-Z]{3,21}|[a-z]{3,21})(?:[ \t](?:[A-Z][a-z]{2,20}|[A-Z]{3,21}|[a-z]{3,21}))?)(?![\w'’-])"
)


def _town_alone_after(text: str, words: str, pos: int) -> bool:
    """May ``words`` right after an institution with only a blank between ("Geisinger Medical Center Danville") be its
    town: capitalised in a mixed-case line, or in a one-case line a word the everyday lexicons do not list ("TTE AT
    ANNA JAQUES NORMAL EF" is no town)?"""
    from clinx.text.evidence import N, U, W, _line_case, classify, zipf

    first = re.split(r"[ \t]", words)[0]
    ls = text.rfind("\n", 0, pos) + 1
    le = text.find("\n", pos)
    if _line_case(text, ls, le if le >= 0 else len(text)) == "mixed":
        return first[:1].isupper() and not first.isupper()
    cls = classify(first.lower())
    return cls in (N, U) or cls == W and zipf(first.lower()) < 3.8  # ("lahey neurology burlington"; not "NORMAL")


def towns_after_institutions(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The town after an institution ("Lahey Hospital & Medical Center, Burlington"), even one that is an everyday word,
    or after a street ("(brownsboro rd, louisville)"); L1 reads its own candidates, L2 its own and L1's placeholders.

    A name from the places lexicon, capitalised or in a one-case line, right after the comma, the dash or the opening
    parenthesis that follows the institution ("LAHEY HOSPITAL & MEDICAL CENTER, BURLINGTON", "st. luke's
    (bethlehem)"); a town named by a word ("RAIGMORE HOSPITAL, INVERNESS", "[HOSPITAL], BETHEL   TO:") only in
    capitals or capitalised, closing its clause.
    """
    from clinx.text.evidence import STATE_NAMES, STREET_SUFFIXES, US_STATES, _lex, line_case_at

    place_set = _lex()[4]
    out = []
    for c in cands:
        if c.category == "LOCATION":
            last = text[c.start : c.end].lower().rstrip(".").rsplit(None, 1)[-1:]
            if not last or last[0] not in STREET_SUFFIXES:
                continue  # (a street's span closes on its street word, long or short: "brownsboro rd")
        elif c.category != "HOSPITAL":
            continue
        m = _TOWN_AFTER_RE.match(text, c.end)
        if m is None:
            continue
        words = m.group(1)
        gap = text[c.end : m.start(1)].strip(" \t'’s")
        joined = not gap
        if joined and not _town_alone_after(text, words, m.start(1)):
            continue  # (no comma or dash between them: only a capitalised town, or in one case a word that is no word)
        if words.lower() in place_set:
            out.append(Candidate(m.start(1), m.end(1), "LOCATION", "rule:town_after_institution", 0.85))
        elif gap in (",", "(") and " ".join(words.lower().split()) in word_places() and words.lower() not in STATE_NAMES \
                and (words.isupper() or words.istitle() and line_case_at(text, m.start(1)) == "mixed") \
                and _TOWN_CLAUSE_END_RE.match(text, m.end(1)):
            # ("RAIGMORE HOSPITAL, INVERNESS", "Harney District Hospital, Burns."; not "at MGH, normal exam")
            out.append(Candidate(m.start(1), m.end(1), "LOCATION", "rule:town_after_institution", 0.85))
        elif " " in words or "\t" in words:
            first, second = re.split(r"[ \t]", words)[:2]
            # (a town that is an everyday word only before its state: "union NJ", not "union rep")
            if first.lower() in place_set and (joined or first.lower() not in ordinary_words() or second.lower() in US_STATES
                                               or second.lower() in STATE_NAMES):
                out.append(Candidate(m.start(1), m.start(1) + len(first), "LOCATION", "rule:town_after_institution", 0.85))
    return out


#: A clause's end after a town: punctuation, two blanks (a header's next field), a line's end, or a word of moving on.
_TOWN_CLAUSE_END_RE = re.compile(r"[ \t]*(?:$|\n|[).;,]|[ \t]{2}|[ \t]+(?i:to|prior|via|for|on|at)\b)")


_CREDENTIAL_TAIL_RE = re.compile(r",?\s{1,2}(?:MD|M\.D\.?|PhD|DO|RN|NP|PA-C|md|rn|np)\.?$")
#: Last characters of the credentials above (MD, M.D., PhD, DO, RN, NP, PA-C, md, rn, np, and a final ".").
_CREDENTIAL_LAST = frozenset("DONPCdnp.")


def _drop_credential(text: str, c: Candidate) -> Candidate:
    """A credential after a name ("Jane Roe, MD") is not part of the identifier: keep it in the text."""
    if text[c.end - 1 : c.end] not in _CREDENTIAL_LAST:
        return c  # every credential ends on one of these characters: no search needed
    m = _CREDENTIAL_TAIL_RE.search(text, c.start, c.end)
    if m is None or m.end() != c.end or m.start() <= c.start:
        return c
    return Candidate(c.start, m.start(), c.category, c.source, c.score)


def _without_years(text: str, cands: list[Candidate]) -> list[Candidate]:
    out = []
    for c in cands:
        if c.category == "DATE":
            span = strip_year(text, c.start, c.end)
            if span is None:
                continue
            c = Candidate(span[0], span[1], c.category, c.source, c.score)
        out.append(c)
    return out


def manifest_candidates(text: str, manifest: Manifest | None, *, fuzzy: bool = True) -> list[Candidate]:
    """Spans of ``text`` that match a manifest value (exact, normalised, token or fuzzy)."""
    if not manifest:
        return []
    from clinx.text.manifest_scan import scan_manifest

    return [Candidate(h.start, h.end, h.category, f"manifest:{h.kind}", 1.0) for h in scan_manifest(text, manifest, fuzzy=fuzzy)]


class RuleLevel:
    """L1 as a :class:`~clinx.text.base.TextLevel`: rules (+ manifest values) -> typed placeholders."""

    name = "L1"

    def __init__(
        self,
        *,
        use_manifest: bool = True,
        fuzzy: bool = True,
        enabled: Iterable[str] | None = None,
        years: str = "remove",
        states: str = "with_place",
        salt: bytes | str | None = None,
        keep_values: bool = False,
        site_terms: str | None = None,
    ):
        from clinx.text.site_terms import load_site_terms

        self.states = check_states(states)
        self.use_manifest = use_manifest
        self.fuzzy = fuzzy
        self.recognizer = RuleRecognizer(frozenset(enabled) if enabled is not None else None, years=years)
        self.salt = salt
        self.keep_values = keep_values
        # a custodian's terms (text.l1.site_terms): listed names removed anywhere, ward names and the like kept
        self.site = load_site_terms(site_terms)

    def find(self, text: str, manifest: Manifest | None = None) -> list[Candidate]:
        cands = self.recognizer.find(text)
        if self.site is not None:
            cands = self.site.apply(text, cands)
        if self.use_manifest and manifest:  # (after the terms to keep: a row's own identifiers always go)
            cands.extend(manifest_candidates(text, manifest, fuzzy=self.fuzzy))
        cands.extend(towns_after_places(text, cands))  # "[7 lantern way], mystic, ct": the address goes on to its town
        cands.extend(streets_meeting_places(text, cands))  # "AT [HALSTED] AND TAYLOR": the other street of a crossing
        cands.extend(streets_after_places(text, cands))  # "[cvs] on broadway", "apt on kedzie": the street after a place
        if self.states == "with_place":  # "Columbus, OH": the state closing a removed town goes with it
            cands.extend(regions_after_places(text, cands))
        cands.extend(compass_letters_of_places(text, cands))
        cands.extend(units_before_streets(text, cands))
        return cands

    def apply(self, text: str, manifest: Manifest | None = None) -> TextResult:
        check_text(text)
        return apply_candidates(text, self.find(text, manifest), self.name, salt=self.salt, keep_values=self.keep_values)


#: Callable form used by the registry and by ``rescan``.
make_l1: Callable[..., RuleLevel] = RuleLevel
