"""Institutions whose names follow a fixed pattern, in any letter case, with no lexicon entry and no head the other
finders know: a church "Our Lady of <words>", a veterans' post, lodge or union local with its number ("VFW Post 8914",
"IBEW Local 7"), a school named "<words> High" or "<words> Middle" after a cue of going to school ("junior at central
high", "kids at Lincoln Elementary & Central Middle"), and a capitalised centre, institute or society "for"/"of" what it
is for after a cue ("at Center for Haitian Studies").
"""

from __future__ import annotations

import re

from clinx.text import evidence as _E
from clinx.text import institutions as _I
from clinx.text.base import Candidate
from clinx.text.lexicons import is_clinical_term, places, word_places

#: "Our Lady of Peace", "our lady of the lake", "OUR LADY OF PERPETUAL HELP": a parish, a school or a hospital.
_OUR_LADY_RE = re.compile(r"(?i)\bour[ \t]+lady[ \t]+of[ \t]+(?:the[ \t]+)?")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’]*")
_BLANK_RE = re.compile(r"[ \t]")
_GAP_RE = re.compile(r"[ \t]{1,2}")
#: Veterans', fraternal and trade-union bodies numbered by post, lodge or local ("VFW Post 8914", "UAW Local 600",
#: "American Legion Post 12", "Elks Lodge #1049", "Troop 45"; any trade's union: "boilermakers local 29",
#: "CARPENTERS' UNION LOCAL 27"): the number names one hall.
_NUMBERED_BODY_RE = re.compile(
    r"(?i)\b(?:(?:vfw|american[ \t]+legion|amvets|dav|elks|moose|eagles|knights[ \t]+of[ \t]+columbus|teamsters|ibew|uaw|"
    r"seiu|afscme|ufcw|usw|cwa|iatse|ila|ilwu|liuna|(?P<trade>[a-z]{3,}ers)['’]?|"
    r"boy[ \t]+scouts?|girl[ \t]+scouts?|cub[ \t]+scouts?)[ \t]+(?:union[ \t]+|lodge[ \t]+|hall[ \t]+)?"
    r"(?:post|local|lodge|chapter|council|troop|pack|aerie|hall)[ \t]*(?:no\.?[ \t]*|#[ \t]*)?\d{1,5}"
    # the local's number first, then its trade: "local 25 sheet metal workers union", "LOCAL 103 IBEW"
    r"|local[ \t]+#?[ \t]?\d{1,5}[ \t]+(?:[a-z]+[ \t]+){0,3}(?:union|brotherhood|ibew|seiu|uaw|teamsters))\b"
)
#: Words ending like a trade's members that name none ("others", "numbers", "orders").
_NOT_TRADES = frozenset("others numbers orders answers papers layers matters members users customers results".split())
#: A cue of going to school before a school's name ("attends", "junior at", "kids at", "teacher at").
_SCHOOL_CUE_RE = re.compile(
    r"(?i)\b(?:attends|attend|attended|attending|(?:student|junior|senior|sophomore|freshman|grader|teacher|coach|"
    r"principal|nurse|kids?|son|daughter|children|grade|enrolled|plays[ \t]+\w+)[ \t]+at|goes[ \t]+to)[ \t]+"
)
#: A school's name closed by its level, and what may follow it: punctuation, "&"/"and" another school, a line's end, a
#: word that opens a new clause; not a noun the level qualifies ("central high school" has its head already).
_SCHOOL_NAME_RE = re.compile(r"(?i)((?:[A-Za-z][A-Za-z'’.-]*[ \t]){1,3})(high|middle|elementary|jr[ \t]high|junior[ \t]high)\b")
_SCHOOL_END_RE = re.compile(r"(?i)[ \t]*(?:$|[\n.,;:)(!?/-]|&|(?:and|plays|where|in|for|since|until|x|\d)\b)")


#: Words every match of a pattern holds: the body's kind of hall, and the school's level.
_HALL_WORDS = ("post", "local", "lodge", "chapter", "council", "troop", "pack", "aerie", "hall")
_SCHOOL_LEVELS = ("high", "middle", "elementary")
_PATTERN_GATE_RE = re.compile("|".join(("lady", *_HALL_WORDS, *_SCHOOL_LEVELS)))


def find_patterned_institutions(text: str) -> list[Candidate]:
    """Churches "Our Lady of ...", numbered posts and locals, schools named by their level after a school cue, centres
    "for" what they are for, and British general practices named "<words> Surgery"."""
    low = text.lower()
    out: list[Candidate] = _centres_for(text) if " for " in text or " of " in text else []
    if "surgery" in low:
        out.extend(_gp_surgeries(text))
    if _PATTERN_GATE_RE.search(low) is None:
        return out  # (every pattern holds one of these words)
    if "lady" in low:
        for m in _OUR_LADY_RE.finditer(text):
            end = _dedication_end(text, m.end())
            if end is not None:
                out.append(Candidate(m.start(), end, "HOSPITAL", "rule:patterned_institution", 0.9))
    if any(k in low for k in _HALL_WORDS):
        for m in _NUMBERED_BODY_RE.finditer(text):
            trade = m.group("trade")
            if trade and (trade.lower() in _NOT_TRADES or is_clinical_term(trade) or is_clinical_term(trade[:-1])):
                continue  # "fingers local 2", "others local": a body part or a word, no trade's union
            out.append(Candidate(m.start(), m.end(), "HOSPITAL", "rule:patterned_institution", 0.9))
    if any(k in low for k in _SCHOOL_LEVELS):
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


#: "Center for Haitian Studies", "the Institute for Family Health", "Office of Vital Records": a capitalised head of an
#: organisation's name, then "for"/"of" and the capitalised words of what it is for.
_CENTRE_FOR_RE = re.compile(
    r"(?<![\w-])(?P<head>Center|Centre|Institute|Society|Foundation|Office|Council|Coalition|Alliance|Association|Network)"
    r"[ \t]+(?:for|of)[ \t]+(?:the[ \t]+)?(?P<words>[A-Z][A-Za-z'’-]+(?:[ \t]+(?:&|and|of|the|[A-Z][A-Za-z'’-]+)){0,4})"
)
#: The words of such a name and the links between them.
_NAME_PART_RE = re.compile(r"&|[A-Za-z][A-Za-z'’-]*")
_LINK_WORDS = frozenset(("&", "and", "of", "the"))
#: Words right before such a head that say it names an organisation here ("saw therapist at Center for ...").
_CENTRE_CUE_RE = re.compile(r"(?i)(?:\b(?:at|to|from|with|via|by|the|per|and)|[:(,\n-]|^)[ \t]*$")


def _centres_for(text: str) -> list[Candidate]:
    """See :data:`_CENTRE_FOR_RE`: after a cue of where or whose, unless the words after "for"/"of" are all kinds
    of care or clinical words ("Center for Sleep Medicine", "Division of Cardiology" name a service). The name
    ends at its last word, before a closing "and"/"of"/"the" ("Society for the Blind and ...")."""
    out = []
    for m in _CENTRE_FOR_RE.finditer(text):
        if not _CENTRE_CUE_RE.search(text, max(0, m.start() - 12), m.start()):
            continue
        words = list(_NAME_PART_RE.finditer(text, m.start("words"), m.end("words")))
        cut = next((i for i in range(len(words) - 1) if words[i].group().lower() in ("and", "&")
                    and words[i + 1].group().lower() == "the"), len(words))
        words = words[:cut]  # ("... for the Blind and the VNA": "and the" opens another name)
        while words and words[-1].group().lower() in _LINK_WORDS:
            words.pop()
        lows = [w.group().lower() for w in words if w.group().lower() not in _LINK_WORDS]
        if not lows or all(w in _E.SERVICES or w in _E.CARE_WORDS or _E.classify(w) == _E.C or w in _E.FUNCTION_WORDS
                           or w in _E.GENERIC_BEFORE_HEAD for w in lows):
            continue
        out.append(Candidate(m.start(), words[-1].end(), "HOSPITAL", "rule:patterned_institution", 0.85))
    return out


#: One to three words before "Surgery", the name of a British general practice ("Brookside Surgery", "THE LIMES
#: SURGERY", "Elm Tree Surgery").
_SURGERY_RE = re.compile(r"(?i)(?<![\w-])(?:(?P<the>the)[ \t]+)?(?P<words>(?:[A-Za-z][A-Za-z'’-]+[ \t]+){1,3})surgery\b")
#: Words before "surgery" that say what kind of operation or service it is, not which practice.
_SURGERY_KINDS = frozenset(
    """plastic plastics general minor major robotic weight loss same day emergency acute care elective bariatric cosmetic
    reconstructive ambulatory outpatient inpatient day-case oral dental eye foot ankle hand knee hip spine back heart
    cardiac brain laser keyhole open mohs upper lower extremity previous prior recent past future planned urgent""".split()
)
#: Marks of a British or Commonwealth note, where "X Surgery" names a general practice.
_GP_MARK_RE = re.compile(r"(?i)\b(?:gp|nhs|surgery[ \t]+(?:tel|phone|fax)|practice[ \t]+manager)\b")


def _gp_surgeries(text: str) -> list[Candidate]:
    """A general practice named "<words> Surgery" in a note that names a GP or the NHS: the words are no kind of
    operation, service or clinical word ("Brookside Surgery", "The Limes Surgery"; never "Plastic Surgery",
    "General Surgery", "Mohs Surgery"), each capitalised in a mixed-case line. Words before the last such word are
    the sentence's ("referred to Brookside Surgery")."""
    if _GP_MARK_RE.search(text) is None:
        return []
    out = []
    for m in _SURGERY_RE.finditer(text):
        words = list(_WORD_RE.finditer(text, m.start("words"), m.end("words")))
        lows = [w.group().lower() for w in words]
        no_name = [w in _SURGERY_KINDS or w in _E.FUNCTION_WORDS or w in _E.SERVICES or w in _E.GENERIC_BEFORE_HEAD
                   or w in _E.EPONYMS or _E.classify(w) == _E.C for w in lows]
        k = max((i for i, bad in enumerate(no_name) if bad), default=-1) + 1
        if k >= len(words) or k and lows[k - 1] in _SURGERY_KINDS:
            continue  # "Plastic Surgery", "had Weight Loss Surgery": a kind of operation
        words = words[k:]
        if _E.line_case_at(text, words[0].start()) == "mixed" and not all(w.group()[:1].isupper() for w in words):
            continue
        the = k == 0 and m.group("the") is not None
        out.append(Candidate(m.start() if the else words[0].start(), m.end(), "HOSPITAL", "rule:patterned_institution", 0.85))
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


#: An acronym and its expansion in parentheses, either way round ("DESC (Downtown Emergency Service Center)",
#: "new england center and home for veterans (nechv)").
_ACRONYM_FIRST_RE = re.compile(r"(?<![\w&/-])([A-Za-z]{3,7})[ \t]?\(([A-Za-z][A-Za-z&'’ \t.-]{6,80})\)")
_ACRONYM_AFTER_RE = re.compile(r"[ \t]?\(([A-Za-z]{3,7})\)")
_EXPANSION_RE = re.compile(r"[A-Za-z][A-Za-z'’.-]*|&")
#: Words an acronym may skip or keep the first letter of ("Council on Aging" -> COA or CA).
_SMALL_WORDS = frozenset("of on and for the & at in to".split())


def _initials_match(acronym: str, words: list[str]) -> bool:
    """Do the first letters of ``words`` spell ``acronym`` (small words optional), every other word giving one?"""
    acr = acronym.lower()
    ws = [w.lower() for w in words]

    def go(i: int, j: int) -> bool:
        if j == len(ws):
            return i == len(acr)
        w = ws[j]
        if w in _SMALL_WORDS and go(i, j + 1):
            return True
        return i < len(acr) and w[0] == acr[i] and go(i + 1, j + 1)

    return len(ws) <= 10 and go(0, 0)


def find_acronym_pairs(text: str) -> list[Candidate]:
    """An institution's name and its acronym written together, either order, and the acronym's other mentions.

    The initials must spell the acronym and the name must close in a head of an institution ("Center", "Program",
    "Veterans") or a word no lexicon knows: then "DESC (Downtown Emergency Service Center)", "ECOA (Eastfield Council on
    Aging)", "... home for veterans (nechv)" name one institution twice. A clinical abbreviation and its expansion
    ("CHF (congestive heart failure)") has clinical words and no head.
    """
    if "(" not in text:
        return []
    out: list[Candidate] = []
    acronyms: set[str] = set()
    for m in _ACRONYM_FIRST_RE.finditer(text):
        words = list(_EXPANSION_RE.finditer(m.group(2)))
        if _is_institution_expansion(m.group(1), [w.group() for w in words]):
            base = m.start(2)
            out.append(Candidate(m.start(1), m.end(1), "HOSPITAL", "rule:acronym_pair", 0.88))
            out.append(Candidate(base + words[0].start(), base + words[-1].end(), "HOSPITAL", "rule:acronym_pair", 0.88))
            acronyms.add(m.group(1))
    for m in _ACRONYM_AFTER_RE.finditer(text):
        acr = m.group(1)
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = list(_EXPANSION_RE.finditer(text, max(line_start, m.start() - 90), m.start()))
        for n in range(min(10, len(before)), 1, -1):
            words = before[-n:]
            if words[0].group().lower() in _SMALL_WORDS:
                continue
            if _is_institution_expansion(acr, [w.group() for w in words]):
                out.append(Candidate(words[0].start(), words[-1].end(), "HOSPITAL", "rule:acronym_pair", 0.88))
                out.append(Candidate(m.start(1), m.end(1), "HOSPITAL", "rule:acronym_pair", 0.88))
                acronyms.add(acr)
                break
    mixed_note = bool(acronyms) and _E._line_case(text, 0, len(text)) == "mixed"
    for acr in acronyms:
        # (in a mixed-case note a capitals acronym repeats as written; in one case, in any case)
        for m in re.finditer(r"(?<![\w&/-])" + re.escape(acr) + r"(?![\w&/-])", text, 0 if acr.isupper() and mixed_note else re.IGNORECASE):
            out.append(Candidate(m.start(), m.end(), "HOSPITAL", "rule:acronym_pair", 0.85))
    return out


def _is_institution_expansion(acronym: str, words: list[str]) -> bool:
    if len(words) < 2 or not _initials_match(acronym, words):
        return False
    lows = [w.lower() for w in words]
    last = lows[-1]
    if last in _SMALL_WORDS:
        return False
    if any(_E.classify(w) == _E.C and w not in _I.HEADS and w not in _I.MODIFIERS and w not in _SMALL_WORDS for w in lows[:-1]):
        return False  # ("CHF (congestive heart failure)", "PNA (pneumonia ...)": clinical words)
    if last in _ACTIVITY_HEADS:
        return False  # ("DOT (directly observed therapy)", "EMS (emergency medical services)", "SNAP (... program)")
    return last in _I.HEADS or last in _I.OF_HEADS or last in _EXPANSION_TAILS or _E.classify(last) in (_E.N, _E.U)


#: Heads that close the expansion of a kind of care, service or public programme as readily as an agency's name.
_ACTIVITY_HEADS = _I.SPECIALTY_HEADS | frozenset(
    "therapy medicine imaging radiology oncology ortho orthopedics dental mri treatment rehab rehabilitation intervention"
    " pediatrics care health healthcare plan program programme programs service services supports".split()
)
#: Last words of agencies' names that are no head elsewhere ("Council on Aging", "Home for Veterans", "Project Worcester").
_EXPANSION_TAILS = frozenset("aging veterans elderly youth families children women seniors recovery network coalition"
                             " collaborative partnership initiative project".split())


#: One-word names by which notes call health systems, hospital chains, labs and care agencies, which are everyday
#: words or surnames too ("seen at kaiser", "SVD AT REGIONS", "referred from mercy", "agreeable to encompass"), and the
#: children's hospital by its possessive ("TRANSFERRED TO CHILDREN'S FOR PEDS GI"; not "switched to children's motrin"):
#: the lexicons list them only inside longer names.
SYSTEM_SHORT_FORMS = frozenset(
    """
mercy kaiser regions encompass quest baptist methodist presbyterian ascension adventist sentara atrium novant beaumont
sutter dignity trinity banner intermountain geisinger ochsner allina essentia sanford avera christus covenant steward
lahey spaulding kindred vibra healthsouth davita fresenius labcorp kindercare vitas amedisys bayada gentiva
children's children’s childrens rush
""".split()
)
#: The cue before one: a venue ("at", "from", "via", "@") or a transfer ("to"), and what may follow: punctuation, a
#: line's end, a number, a function word, a time word, a unit ("mercy ED") or a town ("kaiser antioch").
_SHORT_FORM_RE = re.compile(
    # (matched on the lower-cased text: faster than a case-insensitive scan)
    r"(?<![\w'’-])(at|from|via|to|@|\(|(?:referred|sent|transferred|followed|managed)[ \t]+by)[ \t]*("
    + "|".join(sorted(SYSTEM_SHORT_FORMS)) + r")(?![\w'’&-])"
)
_SHORT_FORM_ANY_CASE_RE = re.compile(_SHORT_FORM_RE.pattern, re.IGNORECASE)
_SHORT_FORM_NEXT_RE = re.compile(r"[ \t]*(?:$|[\n.,;:()!?/\d\-]|([A-Za-z]+))")
_SHORT_FORM_FOLLOWERS = frozenset("today yesterday tomorrow last this next er ed icu ccu micu l&d lab labs er. x pending".split())
#: Words that are verbs after "to" ("to advocate", "to steward"): only after a venue cue.
_VERB_AFTER_TO = frozenset("advocate steward quest covenant rush".split())


#: A specimen or its sending right before the cue ("labs to", "LABS (", "sent out to"), which makes "quest" the laboratory.
_SPECIMEN_BEFORE_RE = re.compile(r"(?i)\b(?:labs?|specimens?|samples?|bloodwork|sent(?: out)?|drawn)[ \t]*$")
_TITLE_WORD_RE = re.compile(r"(?<![\w'’-])[A-Z][a-z]{2,}")
#: A short form before one of its departments, with no cue ("Kaiser GYN", "MERCY ED", "Quest mobile lab").
_SHORT_FORM_DEPT_RE = re.compile(
    r"(?<![\w'’-])(" + "|".join(sorted(w for w in SYSTEM_SHORT_FORMS if w.isalpha())) + r")[ \t]+"
    r"(ed|er|icu|gyn|ob|obgyn|ob/gyn|peds|l&d|cardiology|oncology|urgent[ \t]care|mobile[ \t]lab|psc)(?![\w'’&/-])"
)
_SHORT_FORM_DEPT_ANY_CASE_RE = re.compile(_SHORT_FORM_DEPT_RE.pattern, re.IGNORECASE)
_TWO_WORDS_RE = re.compile(r"([A-Za-z]+)[ \t]([A-Za-z]+)")


def _two_word_place(text: str, pos: int) -> bool:
    m = _TWO_WORDS_RE.match(text, pos)
    return m is not None and f"{m.group(1).lower()} {m.group(2).lower()}" in places()


def find_system_short_forms(text: str) -> list[Candidate]:
    """A health system's one-word short form after a venue or transfer cue (:data:`SYSTEM_SHORT_FORMS`), written
    capitalised in a mixed-case line, and followed by no noun it would qualify ("at mercy as cna", "kaiser in Fresno",
    "mercy springfield"; not "mercy rule", "regions of the lung")."""
    out: list[Candidate] = []
    lowered = text.lower()
    matches = _SHORT_FORM_RE.finditer(lowered) if len(lowered) == len(text) else _SHORT_FORM_ANY_CASE_RE.finditer(text)
    for m in matches:
        cue, word = m.group(1).lower(), text[m.start(2) : m.end(2)]
        if cue != "(" and m.end(1) == m.start(2):
            continue  # ("atmercy": the cue is a word of its own)
        # a specimen sent to a laboratory names it, though "quest" is a verb after "to" ("labs to Quest",
        # "LABS (QUEST 3/2)"); in parentheses elsewhere the name must fill them or their first field ("(Kaiser)",
        # "(Quest, 3/2)"; not "(regions of ...)")
        sent = _SPECIMEN_BEFORE_RE.search(text, max(0, m.start() - 14), m.start()) is not None
        if cue == "to" and word.lower() in _VERB_AFTER_TO and not sent:
            continue
        if cue == "(" and not sent and not text.startswith((")", ", "), m.end()):
            continue
        nxt = _SHORT_FORM_NEXT_RE.match(text, m.end())
        after = nxt.group(1).lower() if nxt is not None and nxt.group(1) else None
        if after is not None and not (after in _E.FUNCTION_WORDS or after in _SHORT_FORM_FOLLOWERS or after in _I.HEADS
                                      or after in _I.MODIFIERS or after in places() or _two_word_place(text, nxt.start(1))):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        if word[:1].islower() and _TITLE_WORD_RE.search(text, m.start(), len(text) if line_end < 0 else line_end) \
                or word[:1].islower() and _TITLE_WORD_RE.search(text, line_start + 1, m.start()):
            continue  # (a lower-case word in a sentence that capitalises names: "at mercy of")
        out.append(Candidate(m.start(2), m.end(2), "HOSPITAL", "rule:system_short_form", 0.85))
    # "addressed by Kaiser GYN", "5 WEST MERCY ED", "BMP BY QUEST MOBILE LAB": before one of its departments a short form
    # needs no cue, written capitalised or in a capitals line ("mercy ed" in a mixed-case line is no one's)
    # (as above: the lower-cased text only where lowering keeps every offset)
    depts = _SHORT_FORM_DEPT_RE.finditer(lowered) if len(lowered) == len(text) else _SHORT_FORM_DEPT_ANY_CASE_RE.finditer(text)
    for m in depts:
        word = text[m.start(1) : m.end(1)]
        if word[:1].isupper() and (word.isupper() == text[m.start(2) : m.end(2)].isupper() or word.istitle()):
            out.append(Candidate(m.start(1), m.end(1), "HOSPITAL", "rule:system_short_form", 0.85))
    return out


#: Cues after which a word no lexicon knows names the place a patient is sent to or served by, in a one-case line
#: ("referral faxed to steppingstone", "maintained on buprenorphine through dccca", "ATTENDS KINDERCARE", "pharmacy
#: fruth on ...").
_REFERRAL_CUE_RE = re.compile(
    # (matched on the lower-cased text: two and a half times faster than a case-insensitive scan)
    r"(?<![\w'’-])(?:(?:referral|referred|faxed|sent|goes|going|transferred|admitted|discharged|enrolled)[ \t]+(?:to|in|with)"
    r"|attends|attending|through|thru|(?:followed|seen|served)[ \t]+by"
    # a kind of place written before its name ("pharmacy fruth on 5th ave", "hospice vitas to admit")
    r"|pharmacy|hospice|daycare|agency|shelter|employer|insurer|dme|hha|vna|snf|alf)[ \t]+([a-z]{4,16})(?![\w'’&/-])"
)
_REFERRAL_CUE_ANY_CASE_RE = re.compile(_REFERRAL_CUE_RE.pattern, re.IGNORECASE)
#: What may follow the name: punctuation, a line's end, a digit, a function word or a word of time.
_AFTER_REFERRAL_NAME_RE = re.compile(r"(?i)[ \t]*(?:$|[\n.,;:()!?/\d-]|(?:for|in|on|at|to|x|and|w|with|since|until|daily|weekly|today|tomorrow)\b)")
#: Endings of the unknown words that are clinical or misspelt clinical ones ("pulmonolgy", "cardiolgy", "thoracotomy").
_CLINICAL_ENDINGS = ("ology", "olgy", "logy", "itis", "osis", "emia", "otomy", "ectomy", "scopy", "plasty", "ing", "ed",
                     "ist", "ists", "ics", "ive", "al", "ous", "ary")


def find_unknown_referral_names(text: str) -> list[Candidate]:
    """A word no lexicon knows after a cue of referral, attendance or service, in a one-case line, before no noun it
    would qualify ("referral faxed to steppingstone for ...", "through dccca in ...", "ATTENDS KINDERCARE ON ..."):
    an agency's, a school's or a company's name. Words built like clinical ones stay ("referred to pulmonolgy")."""
    out: list[Candidate] = []
    lowered = text.lower()
    # (where lower() moved the offsets, "İ", the case-insensitive scan of the text itself)
    matches = _REFERRAL_CUE_RE.finditer(lowered) if len(lowered) == len(text) else _REFERRAL_CUE_ANY_CASE_RE.finditer(text)
    for m in matches:
        w = text[m.start(1) : m.end(1)]
        low = w.lower()
        if not (w.islower() or w.isupper()) or _E.classify(low) != _E.U or low.endswith(_CLINICAL_ENDINGS) or not _AFTER_REFERRAL_NAME_RE.match(text, m.end()):
            continue
        if _E.line_case_at(text, m.start()) == "mixed":
            continue  # (in a mixed-case line the capitalisation rules decide)
        out.append(Candidate(m.start(1), m.end(1), "HOSPITAL", "rule:unknown_referral_name", 0.8))
    return out


#: An acronym right before a hospital's head ("seen at MDI Hospital", "SEEN AT MDI HOSPITAL"): the acronym names the
#: hospital even when it spells a clinical abbreviation too (MDI, an inhaler); a unit's or a service's letters do not.
_ACRONYM_HOSPITAL_RE = re.compile(r"(?<![\w&/-])([A-Z]{2,5})[ \t]+(Hospital|HOSPITAL|Hosp|HOSP|Medical Center|MEDICAL CENTER)(?![\w-])")
_NOT_HOSPITAL_ACRONYM = frozenset("ICU ED ER OR OSH PT VA THE AND AT TO IN OF FROM ON BY FOR ANY SAME PICU NICU MICU SICU CCU".split())
_VENUE_BEFORE_RE = re.compile(r"(?i)(?:\b(?:at|from|to|in|via)|@)[ \t]+$")


def find_acronym_hospitals(text: str) -> list[Candidate]:
    """An acronym and a hospital's head written after it; in a line of capitals only after a venue cue ("AT")."""
    out: list[Candidate] = []
    if "osp" not in text and "OSP" not in text and "enter" not in text and "ENTER" not in text:
        return out  # (every match holds "Hosp" or "Center" in one of two cases)
    for m in _ACRONYM_HOSPITAL_RE.finditer(text):
        if m.group(1) in _NOT_HOSPITAL_ACRONYM:
            continue
        if m.group(2).isupper() and not _VENUE_BEFORE_RE.search(text, max(0, m.start() - 8), m.start()):
            continue
        out.append(Candidate(m.start(1), m.end(2), "HOSPITAL", "rule:acronym_hospital", 0.88))
    return out


#: What separates the items of a list ("A, B and C", "A or B").
_LIST_SEPARATOR_RE = re.compile(r"(?:,[ \t]{1,2}(?:(?:and|or)[ \t]{1,2})?|[ \t]{1,2}(?:and|or|&)[ \t]{1,2}|[ \t]?/[ \t]?)", re.IGNORECASE)
#: What may close a list's item: another separator, a clause's end or a line's.
_ITEM_END_RE = re.compile(r"(?i)(?:,|[ \t]+(?:and|or|&)[ \t]|[ \t]*(?:[.;:)(]|[ \t]-[ \t]|$|\n))")
_ITEM_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’.]*")
_THE_RE = re.compile(r"(?i)the[ \t]+(?=[A-Za-z])")
#: Small words an item's name may hold ("Sisters of Mercy", "Centro de la Familia").
_ITEM_JOINERS = frozenset("of the de la".split())


def complete_institution_lists(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The other items of a list one found institution stands in ("Referrals sent to: [Maple Rehab], Cedar Mountain,
    Lutheran Home"): after the institution, a comma, "and", "or" or a slash, one to four words up to the next separator
    or the clause's end, none clinical, a function word, a title, a relation, a verb form or a month. In a mixed-case
    line every word is capitalised; in a one-case line, and for a one-word item, one of them must be distinctive (a name,
    an unknown word, a place or a landscape word): "to [MGH], discharged home", "at [BMC], daughter at bedside", "htn at
    [MGH], cont", "[Bethany House for Women] and Children" name none.
    """
    found = sorted((c for c in cands if c.category == "HOSPITAL"), key=lambda c: c.start)
    if not found:
        return []
    out: list[Candidate] = []
    for c in found:
        pos = c.end
        for _ in range(5):
            sep = _LIST_SEPARATOR_RE.match(text, pos)
            if sep is None:
                break
            start = sep.end()
            the = _THE_RE.match(text, start)
            if the is not None:
                start = the.end()  # ("the meadows": the name, not its article)
            item = _list_item(text, start)
            if item is None:
                break
            key = " ".join(text[start:item].lower().split())
            cat = "LOCATION" if key in places() or key in word_places() else "HOSPITAL"  # ("[MGH], Horseshoe Bend")
            out.append(Candidate(start, item, cat, "rule:institution_list", 0.8))
            pos = item
    return out


def _list_item(text: str, pos: int) -> int | None:
    words: list[re.Match] = []
    p = pos
    while len(words) < 4:
        m = _ITEM_WORD_RE.match(text, p)
        if m is None:
            break
        words.append(m)
        if _ITEM_END_RE.match(text, m.end()):
            break
        g = _GAP_RE.match(text, m.end())
        if g is None:
            return None
        p = g.end()
    if not words or not _ITEM_END_RE.match(text, words[-1].end()):
        return None
    lows = [w.group().lower().rstrip(".") for w in words]
    if lows[0] in _ITEM_JOINERS or lows[-1] in _ITEM_JOINERS:
        return None
    for w in lows:
        if w in _ITEM_JOINERS:
            continue
        if w in _E.FUNCTION_WORDS or _E.classify(w) == _E.C and w not in _I.HEADS and w not in _I.MODIFIERS \
                and w not in _I._TOPONYM_WORDS or w in _E.TITLES or w in _E.RELATIONS or w in _E.CARE_WORDS and w not in _I.HEADS \
                or w.endswith(("ing", "ed")) or w in _I.DATE_WORDS or w in _E.STATE_NAMES or w in _E.US_STATES or len(w) < 2:
            return None
    mixed = _E.line_case_at(text, pos) == "mixed"
    if mixed and not all(w.group()[:1].isupper() or w.group().lower() in _ITEM_JOINERS for w in words):
        return None
    if (not mixed or len(lows) == 1) and not any(_E.classify(w) in (_E.N, _E.U) or w in places() or w in _I._TOPONYM_WORDS for w in lows if w not in _ITEM_JOINERS):
        return None
    if len(lows) == 1 and (lows[0] in _I.HEADS or lows[0] in _I.MODIFIERS):
        return None  # ("[MGH] and Rehab": a kind of place alone)
    return words[-1].end() - (1 if words[-1].group().endswith(".") else 0)


#: Words that say which kind of school, not which one ("attends public high", "a local middle").
_NOT_SCHOOL_NAME = frozenset("public private local regular special alternative new old same nearby area charter magnet".split())

__all__ = ["SYSTEM_SHORT_FORMS", "complete_institution_lists", "find_acronym_hospitals", "find_acronym_pairs", "find_patterned_institutions", "find_system_short_forms", "find_unknown_referral_names"]
