"""Institutions named by kind words: completed around a part already found, or read from their kind words.

A recogniser often finds the *distinctive* word of an organisation's name, a
town or a surname, and leaves the words that say what kind of place it is:
``Lincoln Elementary`` becomes ``[NAME] Elementary``, ``Bexley Superior Court``
``[LOCATION] Superior Court``, ``Islamic Center of Marlow`` ``Islamic Center of
[LOCATION]``. Those words are part of the identifier (a school in a named town
is one school), and a span counts as removed only when all of it is.
:func:`complete_institutions` takes them in, only ever *extending* a span a
recogniser already removed:

* **right**: after a found name, place or institution (and an optional
  possessive, ``Tony's Pizza``), a run of *kind* words joined by blanks, ``&``
  or hyphens that ends in a *head* (``Elementary``, ``Court``, ``Diner``,
  ``Day Center``, ``Behavioral Health``, ``County Jail``) becomes part of it,
  as an institution; a county after a place (``Bexley County``) stays a place;
* **left**: ``<kind words ending in a head> of [the|greater] <found place>``
  (``Guardian Services of New England``, ``Temple of Greater Hollis``,
  ``our lady of Fatima``) takes in the words before ``of``, and kind words
  before a name found from its head on (``Infusion [Center of Framingham]``);
* **capitalised run**: in a mixed-case line, the capitalised words a found part
  stands in (``Kidney Care Partners of [Westbury]``, ``[MultiCare] Rockwood Clinic``).

The kind of place right after an institution's or a town's name goes with it
(``Haven House shelter``, ``Medford EMS``, ``sentinel ortho``), as annotators
count the name; a unit inside a hospital (``Holy Name ED``) and a specialty after
a full hospital name stay.

Kind words are organisation vocabulary only (no clinical finding or drug);
specialties (``oncology``, ``ortho``, ``dental``) and office words are not taken
after a clinician's name (``Dr. Lee oncology``), since there they name a
service, not a place.

Finders read an institution with no part found, each from a form that
names one: a bare phrase of everyday words after a cue, ending in a head
(:func:`find_bare_institutions`, also as a letterhead or a signature's field),
an organisation field (:func:`find_institution_fields`), an institution in
parentheses after a study or service word (:func:`find_parenthesised_institutions`),
the distinctive words before a unit, service or staff word
(:func:`find_institutions_before_units`: ``sentinel ortho``, ``Mercy pharmacist``),
a hospital-shaped acronym where the line puts an institution
(:func:`find_hospital_acronyms`: ``admitted SVH x2``) and a clinician's affiliation
after the credential or a doctor's name and a comma (:func:`find_affiliations`: ``MD - PASADENA HEART &
VASCULAR``, ``DR. HUDGENS, KOSCIUSKO PEDIATRIC CLINIC``), kinds and places (:func:`find_kinds_of_places`:
``womens health assoc of worcester``), capitalised words closed by a head in mixed case
(:func:`find_capitalised_institutions`: ``Cedar Mountain Commons``), a facility's answer to a placement
referral (:func:`find_placement_replies`: ``woodbriar accepted pending auth``) and the employer a verb of working
names (:func:`find_employers`: ``works nights at 3m``, ``drives for Jefferson Lines``).
Two passes work on what was found: :func:`repeated_institution_words` (the same
distinctive word elsewhere in the note) and :func:`join_institution_parts` (two
parts of one name and the small word between them). :func:`names_no_institution`
says when words before a head only give a kind of institution (``community
hospital``, ``county clinic``), which every finder of names before heads asks.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right

from clinx.text.base import Candidate
from clinx.text.dates import _prev_word
from clinx.text.lexicons import PUBLIC_PROGRAMMES, STATE_PROGRAMMES

#: Categories of a found span that a kind word can follow.
ANCHOR_CATEGORIES = frozenset({"NAME", "LOCATION", "HOSPITAL"})

#: Words that end an organisation's name: what kind of place it is.
HEADS = frozenset(
    """
elementary middle high school schools academy regional state treatment college university tech institute prep seminary district
court courthouse jail prison penitentiary pd police office da probation authority commission council coa
library afb base battalion division regiment airborne marines
center centre centers ctr services service supports health healthcare plan program programme programs hospice
pharmacy oncology ortho orthopedics orthopaedics dental imaging mri radiology therapy pediatrics medicine
home homes residence house hall manor village gardens commons estates towers apartments lodge shelter mission
pantry kitchen pub diner pizza pizzeria restaurant cafe café bakery bar grill tavern deli market supermarket store
shop motors garage lube salon ink studio gym fitness lanes farm farms inc llc co company corp corporation industries
logistics trucking transport transportation transit taxi cab ems ambulance hotel inn motel mall depot foods dairy
bank insurance realty construction fabrication manufacturing plumbing electric landscaping roofing cleaning body
church temple mosque parish ministries chapel synagogue cathedral
clinic clinics cboc hospital infirmary associates partners group practice rehab rehabilitation intervention
castings foundry
heights metro alliance ame aps cps dss
""".split()
)
#: Heads of two words, whose second word alone names no kind of place ("Elmwood Group Home", "Oak Hill Assisted Living").
TWO_WORD_HEADS = frozenset(
    {("group", "home"), ("nursing", "home"), ("funeral", "home"), ("foster", "home"), ("rest", "home"),
     ("boarding", "home"), ("assisted", "living"), ("independent", "living"), ("senior", "living"),
     # a town's or a county's department ("PIMA COUNTY HEALTH DEPT"); not a hospital's ("... CENTER DEPARTMENT OF PATHOLOGY")
     ("health", "dept"), ("health", "department"), ("police", "dept"), ("police", "department"), ("fire", "dept"),
     ("fire", "department"), ("sheriff's", "dept"), ("sheriff's", "department"), ("sheriffs", "department"),
     # a practice's or a bank's kind ("Lansdowne Family Med", "Hillcrest Credit Union", "Maplewood Med Grp")
     ("family", "med"), ("internal", "med"), ("credit", "union"), ("med", "grp"), ("med", "group")}
)
#: Specialties and kinds of care that close a practice's or a unit's name after a found part ("Oakview Neurosurgery",
#: "Brookline Renal", "Chestnut Hill Dialysis", "Brightwater SNF"); after a clinician's name they name a service.
SPECIALTY_HEADS = frozenset(
    """
neurosurgery mammography renal dialysis lab labs laboratory laboratories peds pediatrics cardiology urology dermatology
gastroenterology pulmonary pulmonology nephrology neurology rheumatology endocrinology hematology oncology
hematology-oncology orthopedics podiatry audiology obgyn ob/gyn snf ltach detox surgery neurosciences cardiovascular
tcu alf irf
""".split()
)
#: Words that may stand between the found part and the head ("Diabetes Center", "Superior Court").
MODIFIERS = frozenset(
    """
diabetes vet veterans day treatment behavioral behavioural adult learning housing public superior juvenile probate
family families and women's womens children's childrens child senior seniors recovery emergency protective elder elders
county area auto regional state city town partial outpatient counseling counselling youth boys girls club christian
baptist catholic methodist lutheran episcopal presbyterian pentecostal islamic hindu jewish first united memorial
general cancer heart eye spine sleep surgery surgical urgent walk-in orthopedic pediatric vision hearing speech
nursing assisted living skilled care primary community mental medical physical soup food sober group tool die
precision fire police dept department school middle high elementary district sheriff's sports wellness dialysis
kidney pain women men veterans' health human social legal aid well-being wellbeing rescue life brothers sons
ambulatory early complex volunteer
""".split()
)
#: Abbreviations staff write inside institutions' names ("Fenwick Comm. Health Ctr.", "Mt. Ashby Reg. Hosp.", "Holy Cross
#: Hosp. & Med. Ctr."): a dot after one joins the name's next word, as a blank does.
NAME_ABBREVIATIONS = frozenset("comm med reg gen mem univ natl hosp ctr cntr ctrs assoc assn inst svcs svc hlth dept div intl".split())
HEADS = HEADS | SPECIALTY_HEADS | frozenset("hosp ctr cntr ctrs assoc assn inst svcs svc".split())
MODIFIERS = MODIFIERS | frozenset("comm med reg gen mem univ natl hlth dept div intl".split())
#: Heads that, after a clinician's name, name a service or a room, not a place ("Dr. Lee oncology", "Dr Ruiz office").
SERVICE_HEADS = frozenset(
    """
oncology ortho orthopedics orthopaedics dental imaging mri radiology therapy pediatrics medicine office group practice
associates partners clinic clinics health healthcare services service program plan home house care
""".split()
) | SPECIALTY_HEADS
#: Heads that name a kind of service ("MGH ortho clinic", "Medford EMS", "Haven House shelter"): after an institution
#: or a town they go with its name; after a person's name only where no head came yet.
DESCRIPTIVE_HEADS = frozenset("clinic clinics ems ambulance dental ortho oncology radiology therapy pantry shelter office program programs".split())
#: Nouns that, after a found name's possessive, name a charity or a shop ("Rosie's Place", "Martha's Table").
_POSSESSIVE_HEADS = frozenset("place table door closet cupboard corner".split())
#: Street words that make a found name a street's ("SHIRLEY AVE"); not "dr" (a title), "rd" (a dietitian), "st" (a
#: saint: "Mary St. John"), "way", "place" or "court".
_STREET_WORDS_AFTER_NAME = frozenset("street avenue ave av road boulevard blvd terrace lane ln parkway pkwy circle cir highway hwy".split())
#: Words after a place that make it a county, which is still a place ("Bexley County").
PLACE_TAILS = frozenset("county".split())
#: Heads before "of <place>": "Islamic Center of Marlow", "Arc of Bexley County", "Hospice of the Valley".
OF_HEADS = frozenset(
    """
center centre centers services service association temple church arc lady hospice society alliance council
authority department dept friends sisters brothers congregation parish diocese ministries mission house home
hospital hospitals clinic vna agency academy school college university institute
""".split()
)
#: Titles and credentials that make a found name a clinician's.
_CLINICIAN_BEFORE = re.compile(r"(?:\b(?:dr|doctor|drs|prof|np|pa|rn|md|provider|attending|pcp)\.?[ \t]+)$", re.IGNORECASE)
_NEXT_WORD = re.compile(r"(\.?[ \t]{1,2}|\.?[ \t]?&[ \t]?|[ \t]?-[ \t]?)([^\W\d_][^\W\d_'’]*(?:['’][sS])?)")
_AFTER_ANCHOR = frozenset(" \t&-'’")
_POSSESSIVE = re.compile(r"['’][sS](?![^\W\d_])")
_OF_BEFORE = re.compile(r"[ \t]+of[ \t]+(?:the[ \t]+)?(?:greater[ \t]+)?$", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][^\W\d_'’]*(?:['’][sS])?")
_BARE_POSSESSIVE_END = re.compile(r"[ \t]*(?:[).,;:!?+/]|$|\n|[ \t](?:and|&|\+|or)[ \t])", re.IGNORECASE)
_OF_NEXT = re.compile(r"[ \t]+of\b", re.IGNORECASE)
#: Verbs and words of going that put a person, not a name, between a found name and a head ("Mary attends church").
_NOT_FREE = frozenset(
    "attends attend goes go works work visits visit lives live stays stay volunteers volunteer sees returns needs wants "
    "plays play drives drive teaches teach studies study "
    "uses use likes loves left from with his her their our your its".split()
)
_LAST_WORD = re.compile(r"[^\W\d_]+$")
_LETTERS = re.compile(r"[^\W\d_]+")
_ONE_OR_TWO_BLANKS = re.compile(r"[ \t]{1,2}")
_JOIN = re.compile(r"[ \t]{1,2}|[ \t]?&[ \t]?")
#: Words before "of <town>" that make a practice's name ("Radiology Associates of Nashua", "Immediate Care of Ashby").
_OF_KINDS_AFTER_PLACE = frozenset("care associates specialists partners pain rehab imaging wheels group physicians surgeons".split())
#: Body parts and kinds of care that name practices and the lexicons call everyday words ("Foot & Ankle", "Arthritis Care").
_BODY_KINDS = frozenset("ankle arthritis endocrine interventional hand upper extremity joint skin vein voice hearing digestive sleep allergy asthma".split())
#: Compass and region words that open an institution's name before a found place name ("Central Valley Memorial").
_REGION_BEFORE = frozenset("central westside eastside northside southside greater metro upper lower".split())
#: Words before a found head that are the sentence's, not the name's ("seen in clinic Center of ...").
_NOT_KIND_BEFORE = frozenset("clinic pt patient seen f/u fu follow followed appt".split())
#: Words that open an institution's name before its kind words ("Our Lady of", "St. Vincent", "Visiting Nurse").
_LEFT_EXTRA = frozenset("our st saint visiting".split())
_OF_AFTER = re.compile(r"[ \t]+of[ \t]+(?:the[ \t]+)?(?:greater[ \t]+)?", re.IGNORECASE)
#: Words that a line may give between "of" and the region an agency serves ("Hospice of the Valley").
_REGION_WORDS = frozenset(
    "valley cape bay shore north south east west central new england america county region area hills lakes coast".split()
)


def _last_abbreviation(text: str, s: int, e: int) -> bool:
    """Does ``[s, e)`` end in an abbreviation of an institution's name ("hosp", "med", "ctr")?"""
    last = _LAST_WORD.search(text, s, e)
    return last is not None and last.group().lower() in NAME_ABBREVIATIONS


def _right(text: str, s: int, e: int, cat: str) -> Candidate | None:
    """The anchor ``[s, e)`` taken on over the kind words after it, or None."""
    if e >= len(text) or text[e] not in _AFTER_ANCHOR and not (text[e] == "." and _last_abbreviation(text, s, e)):
        return None  # (most anchors: punctuation or a line's end after them; "holy cross hosp. & med. ctr." goes on)
    if cat == "LOCATION":
        last = _LAST_WORD.search(text, s, e)
        nxt = _NEXT_WORD.match(text, e)
        if last is not None and last.group().lower() in _E.STREET_SUFFIXES and nxt is not None and nxt.group(2).lower() in ("and", "&"):
            return None  # a corner of two streets ("E 14th St and Seminary Ave"); "Alden Street Residence" goes on
    clinician = cat == "NAME" and _CLINICIAN_BEFORE.search(text, max(0, s - 12), s) is not None
    end = None
    if cat == "HOSPITAL":
        last = _LAST_WORD.search(text, s, e)
        if last is not None and last.group().lower() in HEADS:
            # the name is whole: only a second head may follow ("Tri-County Health Plan"), no description
            # ("Briarwood Manor nursing home", "Haven House shelter")
            end = e
    pos = e
    m = _POSSESSIVE.match(text, pos)
    possessive = m is not None
    if m:
        pos = m.end()
        if _BARE_POSSESSIVE_END.match(text, pos):
            end = end or pos  # "works at McDonald's.", "(LOWE'S)": a possessive with nothing owned is a shop's name
    new_cat = "HOSPITAL"
    prev = text[s:e]
    anchor_capital = prev[:1].isupper()

    def lower_after_capital(word: str) -> bool:
        # "Sacred Heart nursing home", "MGH ortho clinic" in a mixed-case line: a capitalised name, then a description
        return anchor_capital and word.islower()

    free = None  # one word of the name itself between the anchor and the kind words ("Golden Years Day Center")
    n = 0
    while n < 5:
        m = _NEXT_WORD.match(text, pos)
        if m is None:
            break
        w = m.group(2).lower().replace("’", "'")
        if m.group(1)[:1] == "." and prev.split()[-1].lower() not in NAME_ABBREVIATIONS:
            break  # a sentence ended ("Hollis. Health ...")
        if cat == "NAME" and len(m.group(1).strip(".")) == 2 and not m.group(1).strip(" \t."):
            break  # two blanks after a person's name close a form's field ("rph: j. oyelowo  tech: dq")
        after_head = end is not None
        if n == 0 and cat == "LOCATION" and w in PLACE_TAILS and not m.group(1).strip():
            end, new_cat = m.end(), "LOCATION"
        elif n == 0 and cat == "NAME" and not clinician and m.group(1) == " " and (
                w in _STREET_WORDS_AFTER_NAME or w in ("rd", "dr", "st") and _street_cue_before(text, s)):
            # a street named for a person ("CVS SHIRLEY AVE", "Harrison Ave"): the name and the street word are a place
            # ("ON OAKWOOD RD": after "on" also rd/dr/st; "tess rd" is a dietitian)
            end, new_cat = m.end(), "LOCATION"
            break
        elif (prev.lower().replace("’", "'"), w) in TWO_WORD_HEADS and not clinician and m.group(1) == " " \
                and (cat != "NAME" or n == 0 or m.group(2)[:1].isupper() and not m.group(2).isupper()):
            # "[Elmwood Group] home" (the anchor ends in the head's first word), "[Oak Hill] Assisted Living",
            # "[Briarwood Manor] nursing home" (after an institution or a place: the kind of place goes with its name);
            # after a person's name only capitalised in mixed case
            end, new_cat = m.end(), "HOSPITAL"
        elif possessive and n == 0 and w in _POSSESSIVE_HEADS and not clinician:
            end, new_cat = m.end(), "HOSPITAL"
        elif w in HEADS and not (clinician and w in SERVICE_HEADS) \
                and not (cat == "NAME" and (after_head or free) and w in DESCRIPTIVE_HEADS) \
                and not (cat == "NAME" and (after_head or free) and w in ("home", "homes", "house")) \
                and not ((after_head or free and cat == "NAME") and w in SPECIALTY_HEADS) \
                and not (cat == "NAME" and lower_after_capital(m.group(2)) and (w in DESCRIPTIVE_HEADS or w in SPECIALTY_HEADS or w in ("home", "homes"))) \
                and not (w == "state" and _OF_NEXT.match(text, m.end())):
            # (after an institution or a place the kind of place goes with the name, "Haven House shelter", "Medford
            # EMS", but no specialty after a head: "kaiser foundation hospital cardiology"; after a person's name a
            # service stays, "Dr Lee office"; "state of mind")
            end, new_cat = m.end(), "HOSPITAL"
        elif not clinician and prev.split()[-1].lower() in _SECOND_SPECIALTY_AFTER and (m.group(1).strip() == "&" or w == "and"):
            # "[Grand Junction] Pulmonary & Sleep", "[Westside] Hematology and Oncology": a second specialty closes it
            second = m if w != "and" else _NEXT_WORD.match(text, m.end())
            if second is None or second.group(1) not in (" ", " & ", "&") or not _kind_word(second.group(2).lower()) \
                    or _shape(second.group(2)) != _shape(prev.split()[-1]) or _WORD_AFTER.match(text, second.end()):
                break
            end, new_cat = second.end(), "HOSPITAL"
            break
        elif n == 0 and w in _FAMILY_FIRM and "&" in m.group(1) and not clinician \
                and (cat != "NAME" or _VENUE_CUE_BEFORE.search(text, max(0, s - 12), s)):
            # "roofer for [O'Dwyer] & sons": a family firm's name ("wife Mary and sons" are her sons)
            end, new_cat = m.end(), "HOSPITAL"
            break
        elif w in ("and", "&") and after_head and not _same_case_next(text, m.end(), prev):
            break  # "Food Bank and church pantry": a second place, or none ("Health and Counseling Services" goes on)
        elif w in _TAIL_HEADS and not after_head and (cat != "NAME" or _VENUE_CUE_BEFORE.search(text, max(0, s - 12), s)):
            # "[Creech] Drug", "[southcoast] behavioral", "[Neuqua Valley] hs", "[Williams] Companies"
            end, new_cat = m.end(), "HOSPITAL"
        elif w in MODIFIERS:
            pass
        elif not clinician and end is None and _kind_word(w) and _practice_head_ahead(text, m.end()):
            pass  # "[Hartford] gi group", "[Queens] Chest Associates": the specialty words of a practice's name
        elif n == 0 and not clinician and end is None and _free_word(w):
            free = w
        else:
            break
        pos = m.end()
        prev = m.group(2)
        n += 1
    if end is None or end == e:
        return None
    return Candidate(s, end, new_cat, "rule:institution_completion", 0.9)


#: A company's legal form after its name ("Greater Marlow Health Center, Inc.", "Caring Hands Home Care, LLC",
#: "Westmoreland Primary Care, P.C."): part of the name. Not "PA" (a physician assistant after a name), not "co-pay".
_LEGAL_FORM = re.compile(r",?[ \t]{1,2}(?:inc|llc|l\.l\.c|p\.c|pc|pllc|corp|co|ltd|llp)\b\.?(?![\w-])", re.IGNORECASE)


#: Whom a hospital or a home serves, closing its name after its head ("Floating Hospital for Children", "Home for
#: the Aged", "Hospital for Special Surgery"); not a purpose ("[Mercy] for rehab").
_FOR_WHOM = re.compile(
    r"[ \t]{1,2}for[ \t]{1,2}(?:the[ \t]{1,2})?(?:sick[ \t]children|special[ \t]surgery|women[ \t]and[ \t]infants|children|kids|women"
    r"|aged|elderly|blind|deaf|veterans|seniors|youth)\b", re.IGNORECASE)


def _legal_form(text: str, s: int, e: int) -> Candidate | None:
    """The institution ``[s, e)`` taken on over the legal form after it, or over whom it serves, or None."""
    m = _LEGAL_FORM.match(text, e)
    if m is None:
        last = _LAST_WORD.search(text, s, e)
        if last is None or last.group().lower() not in HEADS:
            return None
        m = _FOR_WHOM.match(text, e)
        if m is None:
            return None
    return Candidate(s, m.end(), "HOSPITAL", "rule:institution_completion", 0.9)


#: Heads that close a practice's or a centre's name after its specialty words ("Hartford GI Group", "Queens Chest
#: Associates", "Emory Headache Center").
_PRACTICE_HEADS = frozenset("associates assoc physicians specialists group partners consultants pc pllc center centre institute".split())
#: Words that close an institution's name after a found town or institution, and after a person's name only right
#: after a venue cue ("FILLED AT [Creech] DRUG", "RETIRED FROM [Williams] COMPANIES"; not "son [John] drug use"):
#: kinds of shop, trade and practice ("[Dockside] lumber", "[Nickel City] physiotherapy", "[Kings Harbor] multicare").
_TAIL_HEADS = frozenset(
    """
drug drugs behavioral behavioural hs grp companies fulfillment
lumber florist florists electrical electric plumbing roofing construction landscaping bakery auto automotive motors
trucking logistics dairy foods deli diner cafe pub tavern salon barbershop cleaners movers towing
physiotherapy chiropractic optometry eye multicare ministries fellowship manufacturing industries mills hardware
housing homecare taverna campus
""".split()
)
#: The family after "&" that closes a firm's name ("O'Dwyer & Sons").
_FAMILY_FIRM = frozenset("sons son daughters daughter brothers bros".split())
#: A venue cue right before a person's name, after which such a word makes the name a shop's ("FILLED AT CREECH DRUG").
_VENUE_CUE_BEFORE = re.compile(r"(?i)\b(?:at|from|for)[ \t]+$")
#: Specialties after which "& <specialty>" is the practice's second one ("Pulmonary & Sleep", "Hematology & Oncology").
_SECOND_SPECIALTY_AFTER = SPECIALTY_HEADS | frozenset("pulmonary allergy heart ear foot".split())
#: A word right after a second specialty: then it was a clause ("Cardiology and pulm following"), not a name's end.
_WORD_AFTER = re.compile(r"[ \t]{1,2}[^\W\d_]")


def _practice_head_ahead(text: str, pos: int) -> bool:
    """Do up to two more specialty words after ``pos`` lead to a practice's head ("gi group", "Chest Associates")?

    Only a practice's own heads and a named centre's close it ("hopkins wound center", "emory headache center"):
    "clinic" or "service" after specialty words is a hospital's unit ("... Black Lung Clinic", "... Hospitalist
    service"), which stays.
    """
    for _ in range(3):
        m = _NEXT_WORD.match(text, pos)
        if m is None or m.group(1).strip(" \t") not in ("", "&"):
            return False
        w = m.group(2).lower()
        if w in _PRACTICE_HEADS:
            return True
        if not _kind_word(w):
            return False
        pos = m.end()
    return False


def _street_cue_before(text: str, s: int) -> bool:
    """Is the word before ``s`` a street cue (``on``, ``off``, ``near``, ``at``: :data:`evidence._STREET_CUES`)?"""
    m = _PREV_TOKEN.search(text, max(0, s - 12), s)
    return m is not None and m.group(1).lower() in _E._STREET_CUES


def _shape(word: str) -> str:
    return "upper" if word.isupper() else "lower" if word.islower() else "title" if word[:1].isupper() else "other"


def _same_case_next(text: str, pos: int, prev: str) -> bool:
    """Is the word after ``pos`` written in the letter case of ``prev`` ("Health and Counseling", not "Bank and church")?"""
    m = _NEXT_WORD.match(text, pos)
    return m is not None and _shape(m.group(2)) == _shape(prev)


def _free_word(w: str) -> bool:
    """May ``w`` be a word of a name between a found part and its kind words: no verb, clinical or function word."""
    C, REPORT_VERBS, _FINITE_VERBS, classify = _E.C, _E.REPORT_VERBS, _E._FINITE_VERBS, _E.classify

    return (
        len(w) > 2 and w.isalpha() and not w.endswith(("ed", "ing")) and w not in REPORT_VERBS and w not in _FINITE_VERBS
        and w not in _NOT_FREE and classify(w) != C
    )


def _left(text: str, s: int, e: int, place: bool = False) -> Candidate | None:
    """``<kind words> of [the|greater] <anchor>`` taken in before the anchor, or None."""
    if "of" not in text[max(0, s - 24) : s].lower():
        return None  # (most anchors: no "of" before them)
    lo = max(0, s - 80, text.rfind("\n", 0, s) + 1)
    m = _OF_BEFORE.search(text, lo, s)
    if m is None:
        return None
    words = list(_WORD.finditer(text, lo, m.start()))
    start = None
    pos = m.start()
    for i, w in enumerate(reversed(words)):
        # only words joined by blanks or "&" to the next one, the last of them right before "of"
        if w.end() != pos and not _JOIN.fullmatch(text, w.end(), pos):
            break
        word = w.group().lower().replace("’", "'")
        if i == 0 and word not in OF_HEADS and not (place and (word in HEADS or word in _OF_KINDS_AFTER_PLACE)):
            return None
        if i and word not in MODIFIERS and word not in HEADS and word not in _LEFT_EXTRA and not (place and _kind_word(word)):
            break
        start = pos = w.start()
    return Candidate(start, e, "HOSPITAL", "rule:institution_completion", 0.9) if start is not None else None


def _kind_word(w: str) -> bool:
    """A word that may open a practice's name before "... of <town>": clinical or a kind of care ("Foot & Ankle")."""
    SERVICES, C, classify = _E.SERVICES, _E.C, _E.classify
    FUNCTION_WORDS = _L.FUNCTION_WORDS

    return w not in FUNCTION_WORDS and w not in _NOT_FREE and not w.endswith(("ed", "ing")) and (
        classify(w) == C or w in MODIFIERS or w in HEADS or w in SERVICES or w in _BODY_KINDS)


def _left_of_head(text: str, s: int, e: int) -> Candidate | None:
    """Kind words before an institution found from its head on ("Infusion [Center of Framingham]", "Foot & Ankle
    [Center of Beverly]", "Central [Valley Memorial]"), or None."""
    HOSPITAL_HEADS = _E.HOSPITAL_HEADS

    first = _WORD.match(text, s)
    if first is None:
        return None
    w0 = first.group().lower()
    region = w0 not in HEADS and w0 not in HOSPITAL_HEADS
    lo = max(0, s - 60, text.rfind("\n", 0, s) + 1)
    words = list(_WORD.finditer(text, lo, s))
    start, pos = None, s
    for i, w in enumerate(reversed(words)):
        if not _JOIN.fullmatch(text, w.end(), pos) and not (w.end() < pos and text[w.end():pos] in ("-", " - ")) \
                or len(w.group()) < 2 or text[w.start() - 1 : w.start()] == "/":
            break  # (nor a letter of an abbreviation: "f/u cardiology ...")
        word = w.group().lower().replace("’", "'")
        if word in ("and", "&") and start is not None:
            pos = w.start()
            continue
        ok = word in _REGION_BEFORE if region else (_kind_word(word) and word not in _NOT_KIND_BEFORE)
        if not ok or i >= 4:
            break
        start = pos = w.start()
        if region:
            break  # one region word: "Central", "Westside"
    if start is None or not _same_shape(text[start:s].split()[0], first.group()):
        return None
    return Candidate(start, e, "HOSPITAL", "rule:institution_completion", 0.9)


def _same_shape(a: str, b: str) -> bool:
    return _shape(a) == _shape(b) or _shape(a) == "title" and _shape(b) == "upper" and len(b) <= 4


#: A state after an institution's "of", in any case, or its code in capitals, with a region word before it ("of
#: Tennessee", "OF NORTHERN CA", "of western mass"); the full stop of a code stays out. Not the codes that are words in
#: capitals ("OF ME", "OF IN").
_CODES_THAT_ARE_WORDS = frozenset("in me or ok hi oh de id".split())


@functools.cache
def _of_state_re() -> re.Pattern:
    codes = "|".join(sorted(c.upper() for c in _E.US_STATES - _CODES_THAT_ARE_WORDS))
    return re.compile(
        r"(?:(?i:northern|southern|eastern|western|central|north|south|east|west|greater)[ \t])?"
        r"(?:(" + codes + r")(?![\w-])|((?i:[a-z]+(?:[ \t][a-z]+)?))(?![\w-]))"
    )


def _of_region(text: str, s: int, e: int) -> Candidate | None:
    """``<institution ending in a head> of [the] <region words>``: "Hospice of the Valley", "VNA of Cape Cod"."""
    m = _OF_AFTER.match(text, e)
    if m is None:
        return None
    state = _of_state_re().match(text, m.end())
    if state is not None:
        # "[BCBS] of Tennessee", "[Mental Health America] of Northern CA": a state or a region of one closes the name
        if state.group(2) is None:
            return Candidate(s, state.end(), "HOSPITAL", "rule:institution_completion", 0.9)
        words = state.group(2).split()
        for n in range(len(words), 0, -1):
            if " ".join(words[:n]).lower() in _E.STATE_NAMES:
                end = state.start(2) + len(" ".join(words[:n])) if n == 1 else state.end()
                return Candidate(s, end, "HOSPITAL", "rule:institution_completion", 0.9)
    last = _LAST_WORD.search(text, s, e)
    if last is None or last.group().lower() not in OF_HEADS:
        return None
    pos, end = m.end(), None
    for _ in range(3):
        w = _LETTERS.match(text, pos)
        if w is None or w.group().lower() not in _REGION_WORDS:
            break
        end = w.end()
        nxt = _ONE_OR_TWO_BLANKS.match(text, end)
        if nxt is None:
            break
        pos = nxt.end()
    return Candidate(s, end, "HOSPITAL", "rule:institution_completion", 0.9) if end is not None else None


#: Lower-case words that may join two capitalised words of one name in a mixed-case line ("Center for Independent
#: Living", "Hospice of the Valley"); not "in", "on", "at", "and", which join a name to its town, street, person
#: or another place ("Market Basket in Lawrence", "Walgreens on Washington St", "Dr. Chu at Acton Medical",
#: "Gavin Foundation and Hope House").
_RUN_JOINERS = frozenset("of for the de del la".split())
#: Capitalised words that open a sentence or a field and are no part of a name after them.
_RUN_STOP = frozenset(
    """
i pt pts patient patients seen transferred referred admitted discharged follow follow-up f/u fu sent called spoke
went goes lives works worked attends attended he she they we his her their our my your this that these those
a an the to from with at by per via in on of for and or but no not s/p h/o c/o hx dx
""".split()
)
_RUN_WORD = re.compile(r"[A-Z][A-Za-z'’.-]*[A-Za-z'’]|[A-Z]|[a-z]+")
_RUN_GAP = re.compile(r"[ \t]{1,2}(?:&[ \t]{1,2})?|-|[ \t]?&[ \t]?")


def _run_word_ok(word: str) -> bool:
    """May a capitalised ``word`` be part of an institution's name in a mixed-case line?"""
    w = word.lower().replace("’", "'").rstrip(".")
    if not word[:1].isupper() or w in _RUN_STOP or w in _E.TITLES or w in _E.ROLES or w in _E.CREDENTIALS:
        return False
    if w in _CALENDAR_WORDS:
        return False
    if word.isupper() and len(word) > 1:
        # an acronym: only one that says what kind of place ("Bellevue OB", "Mercy ED"); "CTA", "MRN" are no names
        return w in HEADS or w in MODIFIERS or w in _E.HOSPITAL_HEADS
    return True


_RUN_NEXT_CAPITAL = re.compile(r"(?:[ \t]{1,2}(?:&[ \t]{1,2})?|-|[ \t]?&[ \t]?)(?:[A-Z]|(?:of|for|the|de|del|la)[ \t]+[A-Z])")


def _capital_beside(text: str, s: int, e: int) -> bool:
    """Is a capitalised word (or a joiner) right before ``s`` or a capitalised word right after ``e``? (A cheap test
    before :func:`_capital_run` reads the line.)"""
    if _RUN_NEXT_CAPITAL.match(text, e):
        return True
    p = s
    while p > 0 and text[p - 1] in " \t&-":
        p -= 1
    if p == s:
        return False
    q = p
    while q > 0 and (text[q - 1].isalpha() or text[q - 1] in "'’."):
        q -= 1
    return q < p and (text[q].isupper() or text[q:p] in _RUN_JOINERS)


def _capital_run(text: str, s: int, e: int, place: bool, line_cases: dict[int, str] | None = None) -> Candidate | None:
    """In a mixed-case line, the run of capitalised words an institution's found part stands in ("Immediate Care of
    [Ashby]", "[Harmon] Heart", "[MultiCare] Rockwood Clinic", "Kidney Care Partners of [Westbury]"), or None.

    Words join over blanks, ``&`` and hyphens, and over ``of``/``for``/``the`` (:data:`_RUN_JOINERS`) between two
    capitalised words; titles, roles, credentials, months, weekdays, acronyms of no kind of place and the words that open a
    clause ("Pt", "Seen", "Referred") end the run. The run of a place or a person (``place``) must hold a kind of
    place ("Kidney Care Partners of Westbury"), else it is a place or a name ("Main Street", "Mary Lou").
    ``line_cases`` caches each line's letter case by the line's start.
    """
    if not _capital_beside(text, s, e):
        return None  # (most anchors: no capitalised word beside them)
    ls = text.rfind("\n", 0, s) + 1
    case = line_cases.get(ls) if line_cases is not None else None
    if case is None:
        le = text.find("\n", e)
        case = _E._line_case(text, ls, len(text) if le < 0 else le)
        if line_cases is not None:
            line_cases[ls] = case  # (read once per line: a long line holds many anchors)
    if case != "mixed":
        return None
    # right of the anchor
    end, pos, pending = e, e, False
    for _ in range(8):
        g = _RUN_GAP.match(text, pos)
        if g is None:
            break
        m = _RUN_WORD.match(text, g.end())
        if m is None:
            break
        word = m.group()
        if word.islower():
            if word not in _RUN_JOINERS or pending:
                break
            pending = True
        elif _run_word_ok(word) and not (pending and word.isupper()):
            end, pending = m.end(), False  # (after "of"/"for" a word of the name, no acronym: "Kindred for LTACH")
        else:
            break
        pos = m.end()
    # left of the anchor
    start, pos, pending = s, s, False
    words = list(_RUN_WORD.finditer(text, max(ls, s - 120), s))
    for w in reversed(words):
        gap = text[w.end():pos]
        if not _RUN_GAP.fullmatch(gap):
            break
        word = w.group()
        if word.islower():
            if word not in _RUN_JOINERS or pending:
                break
            pending = True
        elif _run_word_ok(word):
            start, pending = w.start(), False
        else:
            break
        pos = w.start()
    if start == s and end == e:
        return None
    if place:
        kinds = [x.group().lower().replace("’", "'") for x in _LETTERS.finditer(text, start, end)]
        if not any(k in HEADS or k in _E.HOSPITAL_HEADS for k in kinds):
            return None
    return Candidate(start, end, "HOSPITAL", "rule:institution_completion", 0.9)


_CAPITAL_WORD = re.compile(r"[A-Z][a-z]+(?:['’][a-z]+)*(?:-[A-Z][a-z]+)?")
#: Heads that close a capitalised name with no cue ("Cedar Mountain Commons", "Bright Beginnings Academy").
_CAPITAL_HEADS = frozenset("pavilion commons".split())


def find_capitalised_institutions(text: str) -> list[Candidate]:
    """In mixed-case lines, two to six capitalised words closed by a head, one of them distinctive ("2) Cedar Mountain
    Commons", "Bed search: Northland Pavilion"), with no cue and no found part.

    Distinctive: a name, an unknown word, a landscape word, a listed place or a rare everyday word; none of the words
    may be clinical (but heads and kind words), a title, a role, a month or a clause opener ("Physical Therapy Clinic",
    "Discharge Planning Services", "Pt Family Meeting" name none).
    """
    heads = _capital_heads()
    starts = {}
    for m in _CAPITAL_WORD.finditer(text):
        if m.group().lower() in heads:
            starts[text.rfind("\n", 0, m.start()) + 1] = None  # (only the lines a capitalised head stands in)
    if not starts:
        return []
    out: list[Candidate] = []
    for base in starts:
        le = text.find("\n", base)
        line = text[base : len(text) if le < 0 else le]
        if len(line) < 8 or _E._line_case(line, 0, len(line)) != "mixed":
            continue
        run: list[re.Match] = []
        for m in [*_CAPITAL_WORD.finditer(line), None]:
            if m is not None and run and _ONE_OR_TWO_BLANKS.fullmatch(line, run[-1].end(), m.start()) is None \
                    and line[run[-1].end() : m.start()] not in (" & ", "-"):
                _close_capital_run(line, base, run, out)
                run = []
            if m is None:
                _close_capital_run(line, base, run, out)
            else:
                run.append(m)
    return out


@functools.cache
def _capital_heads() -> frozenset:
    return HEADS | _E.HOSPITAL_HEADS | _CAPITAL_HEADS


def _close_capital_run(line: str, base: int, run: list[re.Match], out: list[Candidate]) -> None:
    """Add the longest head-closed tail of ``run`` to ``out`` (see :func:`find_capitalised_institutions`)."""
    C, N, U, classify, zipf = _E.C, _E.N, _E.U, _E.classify, _E.zipf
    place_set = _E._lex()[4]
    while len(run) >= 2:
        last = run[-1].group().lower().replace("’", "'")
        if last in _capital_heads():
            break
        run = run[:-1]
    if len(run) < 2 or len(run) > 6 or _CLINICIAN_BEFORE.search(line, max(0, run[0].start() - 12), run[0].start()):
        return  # (a clinician's name and service: "Dr. Avery Clinic hours")
    distinctive = False
    for m in run[:-1]:
        w = m.group().lower().replace("’", "'")
        if not _run_word_ok(m.group()) or w in _RUN_STOP:
            return
        # (a service is a kind word too, never distinctive: "Endocrine Clinic", "Asthma Action Plan")
        kind = w in HEADS or w in MODIFIERS or w in _E.HOSPITAL_HEADS or w in GENERIC_QUALIFIERS or w in _E.SERVICES
        if classify(w) == C and not kind and w not in _TOPONYM_WORDS:
            return
        if not kind and (classify(w) in (N, U) or w in _TOPONYM_WORDS or w in place_set or zipf(w) < 3.8):
            distinctive = True
    if distinctive:
        out.append(Candidate(base + run[0].start(), base + run[-1].end(), "HOSPITAL", "rule:capitalised_institution", 0.85))


#: A facility's answer to a referral, after its name ("woodbriar accepted pending auth", "Cedar Mountain: accepted",
#: "bear mtn declined (no female bed)", "hebrew had no bed").
_PLACEMENT_REPLY_RE = re.compile(
    r"(?im)(?:^|(?<=[.;,(])|(?<=[.;,(][ \t])|(?<=[ \t]-[ \t])|(?<=\band[ \t])|(?<=\bbut[ \t]))[ \t]*"
    r"(?P<v>[a-z][\w'’&.-]*(?:[ \t]+[a-z][\w'’&.-]*){0,2})[ \t]*:?[ \t]+"
    r"(?:accepted|declined|denied|(?:has|had)[ \t]+(?:a[ \t]+|no[ \t]+)?beds?|can(?:not|'t|[ \t]+not)?[ \t]+take|will[ \t]+accept|"
    r"offered[ \t]+(?:a[ \t]+)?bed)\b"
)
_PLACEMENT_WORDS_RE = re.compile(r"(?i)\b(?:snf|rehab|ltach|ltc|placement|referrals?|bed search|facility|facilities|sar|alf)\b")
#: Words before "accepted"/"declined" that are people or the care team, never a facility.
_NOT_A_FACILITY = frozenset(
    "pt patient patients family team insurance insurer plan auth authorization md pcp pt/ot ot case cm sw dtr son wife "
    "husband daughter mother father mom dad he she they who which bed beds offer referral referrals it all both none".split()
)


def find_placement_replies(text: str) -> list[Candidate]:
    """Facilities named by their answer to a placement referral, in a note that talks of placement: one to three
    words opening a clause before "accepted", "declined", "has no bed" ("woodbriar accepted pending auth"). One of
    the words must be distinctive (a name, an unknown word, a landscape word, a rare everyday word); people, the
    care team and clinical words never are ("pt declined", "family accepted", "PT/OT declined")."""
    low = text.lower()
    if not ("accept" in low or "declin" in low or "denied" in low or " bed" in low or " take" in low) \
            or _PLACEMENT_WORDS_RE.search(text) is None:
        return []  # (substring tests first: most texts hold no answer to a referral)
    C, N, U, classify, zipf = _E.C, _E.N, _E.U, _E.classify, _E.zipf
    RELATIONS, ROLES, TITLES = _E.RELATIONS, _E.ROLES, _E.TITLES
    FUNCTION_WORDS = _L.FUNCTION_WORDS
    out = []
    for m in _PLACEMENT_REPLY_RE.finditer(text):
        words = [w.lower().strip(".:") for w in m.group("v").split()]
        if any(w in _NOT_A_FACILITY or w in FUNCTION_WORDS or w in RELATIONS or w in ROLES or w in TITLES
               or classify(w) == C and w not in _TOPONYM_WORDS for w in words):
            continue
        if any(classify(w) in (N, U) or w in _TOPONYM_WORDS or zipf(w) < 3.5 for w in words):
            out.append(Candidate(m.start("v"), m.end("v"), "HOSPITAL", "rule:placement_reply", 0.85))
    return out


#: Kinds of organisation a practice or an agency is named as "<kinds> <this> of <place>" ("Womens Health Assoc of
#: Worcester", "Cardiovascular Assoc of the Berkshires", "Digestive Health Specialists of the Southeast").
_KIND_OF_HEADS = frozenset(
    "assoc associates specialists partners physicians surgeons center centre services association society hospice vna "
    "agency institute alliance council care health healthcare".split()
)
_KIND_OF_RE = re.compile(
    r"(?i)(?=[aspcvhi])\b(" + "|".join(sorted(_KIND_OF_HEADS, key=len, reverse=True)) + r")\.?[ \t]+of[ \t]+(the[ \t]+)?(?:greater[ \t]+)?"
)
#: Heads that name an organisation with no kind word before them ("Hospice of the Foothills", "VNA of Cape Cod").
_KIND_OF_ALONE = frozenset("hospice vna society association alliance council agency".split())


def find_kinds_of_places(text: str) -> list[Candidate]:
    """Practices and agencies named by what they do and where ("womens health assoc of worcester", "CARDIOVASCULAR
    ASSOC OF THE BERKSHIRES", "hospice of the foothills"), in any letter case and with no found part.

    After ``of`` a known place, or one or two names or unknown words; after ``of the`` any one to three words that are
    no clinical or function words (a region: "of the Southeast"). Before the head one to four kind words (clinical,
    care and kind words: "Digestive Health"), except for heads that name an organisation alone ("hospice", "VNA").
    """
    if " of " not in text and " OF " not in text and " Of " not in text:
        return []
    C, N, U, classify = _E.C, _E.N, _E.U, _E.classify
    FUNCTION_WORDS = _L.FUNCTION_WORDS
    place_set = _E._lex()[4]
    out = []
    for m in _KIND_OF_RE.finditer(text):
        # the place
        words = []
        pos = m.end()
        for _ in range(3):
            w = _LETTERS.match(text, pos)
            if w is None:
                break
            words.append(w)
            nxt = _ONE_OR_TWO_BLANKS.match(text, w.end())
            if nxt is None or not text[nxt.end() : nxt.end() + 1].isalpha():
                break
            pos = nxt.end()
        end = None
        for k in range(len(words), 0, -1):
            lows = [w.group().lower() for w in words[:k]]
            phrase = " ".join(lows)
            if any(x in FUNCTION_WORDS or classify(x) == C for x in lows):
                continue
            if phrase in place_set or m.group(2) or k <= 2 and all(classify(x) in (N, U) for x in lows):
                end = words[k - 1].end()
                break
        if end is None:
            continue
        # the kind words before the head
        start = m.start(1)
        lo = max(0, start - 60, text.rfind("\n", 0, start) + 1)
        before = list(_WORD.finditer(text, lo, start))
        pos = start
        kinds = 0
        for w in reversed(before):
            if kinds >= 4 or not _JOIN.fullmatch(text, w.end(), pos) or len(w.group()) < 2 or text[w.start() - 1 : w.start()] == "/":
                break  # ("f/u cardiology assoc of ...": no part of an abbreviation)
            word = w.group().lower().replace("’", "'")
            if word == "and" and start < m.start(1):
                pos = w.start()  # ("Heart and Vascular Institute of Ohio": two kinds joined; the span opens on a kind)
                continue
            if not (_kind_word(word) or word in GENERIC_QUALIFIERS and word not in FUNCTION_WORDS) or word in _NOT_KIND_BEFORE:
                break
            start = pos = w.start()
            kinds += 1
        if start == m.start(1) and m.group(1).lower() not in _KIND_OF_ALONE:
            continue  # ("center of Boston", "care of Dr. Lee": a kind and a place, no name)
        out.append(Candidate(start, end, "HOSPITAL", "rule:kind_of_place", 0.85))
    return out


def complete_institutions(text: str, cands: list[Candidate]) -> list[Candidate]:
    """Candidates that extend the found names, places and institutions of ``cands`` over the rest of an institution's name.

    Returns only the new candidates; they overlap their anchors, and
    :func:`clinx.text.base.resolve_overlaps` unions them. (L2 calls it on its own
    candidates only: L1 already completed the spans its placeholders stand for.)
    """
    out: list[Candidate] = []
    line_cases: dict[int, str] = {}
    for c in cands:
        s, e, cat = c.start, c.end, c.category
        if cat not in ANCHOR_CATEGORIES:
            continue
        found = [_right(text, s, e, cat)]
        found.append(_left(text, s, found[0].end if found[0] is not None else e, place=cat == "LOCATION"))
        if cat == "HOSPITAL":
            found.append(_of_region(text, s, e))
        if cat != "NAME" or "," not in text[s:e] and _CLINICIAN_BEFORE.search(text, max(0, s - 12), s) is None:
            # (not "Care, Beth" of "Palliative Care, Beth Israel", a surname-comma-given reading)
            found.append(_capital_run(text, s, e, place=cat != "HOSPITAL", line_cases=line_cases))
        # kind words before a name found from its head on: the anchor's, or one this pass completed
        heads = [f for f in found if f is not None and f.category == "HOSPITAL"] + ([c] if cat == "HOSPITAL" else [])
        found.extend(_left_of_head(text, f.start, f.end) for f in heads)
        found.extend(_legal_form(text, f.start, f.end) for f in heads)
        out.extend(f for f in found if f is not None)
    return out


#: Heads that, after a cue and a word of a name with no determiner, close an institution's name in any letter case
#: ("goes to little sprouts daycare", "BED AT PINE HOLLOW INN"); not "to a daycare", "at the inn".
STRONG_HEADS = frozenset(
    """
daycare preschool academy elementary school college university inn manor mission casino mill hospice church chapel
temple mosque synagogue hall lodge center centre counseling counselling transport ministries pantry kitchen diner pub
restaurant bakery market motors roofing landscaping construction plumbing fabrication salon gym lanes farm farms
inc llc house regional memorial associates practice clinic rehab imaging lab neurology orthopedics orthopaedics pathology
dental chiropractic fitness administration recovery general methodist lutheran baptist episcopal presbyterian
congregational pentecostal
oncology cardiology urology dermatology gastroenterology pulmonology nephrology rheumatology endocrinology hematology
podiatry audiology pediatrics ophthalmology optometry health towers apartments commons estates gardens residences
ambulance services specialists assoc foundation society detox program helpline taxi supply
company corporation corp industries parish tabernacle cathedral interpreting builders
assembly interpreters lumber freight
""".split()
)
#: Words that say what kind of place, not which: a bare "to <these> <head>" names no institution
#: ("to residential hospice", "attends public school", "works at call center", "staying at sober house").
GENERIC_QUALIFIERS = frozenset(
    """
public private regular special alternative residential tertiary quaternary academic affiliated inpatient outpatient local outside comfort boarding summer
night weekend day adult senior high middle elementary grammar nursery graduate medical nursing law business beauty
cosmetology trade vocational technical community junior state call distribution fulfillment shopping data service
customer garden recycling conference visitor student job career sober halfway group safe half way full part time
free home rest nursing skilled assisted independent memory hospice detox rehab treatment cancer trauma transplant
birth wound infusion dialysis youth senior day care health new old big small main same other another next nearest
closest usual prior previous former current different faith bible sunday catholic christian baptist methodist
dance art music driving flight cooking culinary massage barber police fire fishing prep charter magnet online
resident residents housestaff fellows teaching support outside employee employees staff bedside
homeless overflow dv domestic animal warming cooling teen men's women's mens womens family emergency interventional
radiation surgical medical pediatric adult geriatric occupational oral good poor better excellent fair mental public
young older
""".split()
)
#: Heads that close a letterhead: institutions and practices, not activities a line may open with ("Sun exposure
#: counseling", "Diet teaching", "Wound imaging").
_LETTERHEAD_HEADS = (STRONG_HEADS | SPECIALTY_HEADS | frozenset("medicine health associates practice partners physicians".split())) \
    - frozenset("counseling counselling transport rehab imaging lab labs surgery detox dialysis snf kitchen market house".split())
_BARE_CUE = re.compile(
    # (a look-ahead on the cues' first letters first: the engine skips the other positions fast)
    r"(?=[atfuvwpmrcg@])(?:\b(?:at|to|from|attends|attended|attending|uses|using|via|through|thru|per|with|w/|after"
    # "member of grace fellowship church", "resident of whispering pines assisted living"
    r"|(?:member|members|resident|parishioner|client|graduate)[ \t]+of)|@)[ \t]+",
    re.IGNORECASE,
)
#: Words of landscape that name places and institutions though the clinical vocabulary lists them ("Valley View",
#: "Breaker Hill", "Sacred Heart", "Stepping Stones"): in a name after a cue they are no clinical term.
_TOPONYM_WORDS = frozenset(
    """
hill hills view heart stone stones rock rocks ridge park point grove brook spring springs lake river bay harbor harbour
haven crest field fields wood woods meadow meadows pine pines oak oaks elm maple cedar birch willow willows sun sunrise
sunset star light gate bridge crossing creek falls shore cove island mount mountain glen dale vale summit pinnacle
""".split()
)


def find_bare_institutions(text: str) -> list[Candidate]:
    """Institutions named by everyday words after a cue, with no determiner, ending in a strong head, in any case.

    "son goes to little sprouts daycare", "PT HAS A BED AT PINE HOLLOW INN", "placed to compassionate care hospice":
    after ``at``/``to``/``from``/``attends`` and the like, English puts a determiner before a common noun phrase
    ("to a daycare", "at the inn"); a bare phrase of a word that is no qualifier ("residential", "public",
    "call") and a head is a name. The first word must be an everyday word, a name or unknown, never clinical,
    a function word, a relation or a possessive.

    The same phrase opening a line and closing it, or a field of it, is a letterhead or a signature's practice
    ("CAPE ANN PEDIATRICS   WELL CHILD VISIT", "J. Robles, MD | Westside Hematology-Oncology"): there a
    specialty or "Medicine"/"Associates" closes it too.
    """
    out: list[Candidate] = []
    for cue in _BARE_CUE.finditer(text):
        end = _bare_run(text, cue.end(), STRONG_HEADS)
        if end is not None:
            out.append(Candidate(cue.end(), end, "HOSPITAL", "rule:bare_institution", 0.85))
    for line in _LINE_FIELD_START.finditer(text):
        pos = line.end()
        end = _bare_run(text, pos, _LETTERHEAD_HEADS, line=True)
        if end is not None and _FIELD_CLOSE.match(text, end):
            out.append(Candidate(pos, end, "HOSPITAL", "rule:letterhead_institution", 0.85))
    return out


#: Where a letterhead or a signature's field may open: a line's start, or after " | " or a credential's comma.
_LINE_FIELD_START = re.compile(r"(?m)^[ \t]*|[ \t]\|[ \t]*")
#: What may close it: a line's end, two blanks, " - ", " | ", a comma or a colon.
_FIELD_CLOSE = re.compile(r"[ \t]*(?:$|\n)|  |[ \t]+[-|–][ \t]|,|:")


#: Peoples and their languages ("Korean", "Hmong", "Somali"), which open many community institutions' names ("Korean
#: Community Services", "Hmong American Alliance Church") though the clinical vocabulary lists them as interpreters'
#: languages.
PEOPLES_WORDS = frozenset(
    """
spanish portuguese russian haitian creole kreyol vietnamese cantonese mandarin chinese arabic somali amharic tigrinya
swahili hmong khmer laotian farsi dari pashto turkish albanian armenian ukrainian romanian yiddish korean japanese
hindi bengali urdu punjabi gujarati tagalog nepali italian greek polish ethiopian eritrean cambodian filipino
""".split()
)
#: Heads that close a bare name only after two words of it ("mystic valley elder services"; not "to resume services").
_HEADS_AFTER_TWO = frozenset("services program supply foundation society".split())


def _bare_run(text: str, pos: int, strong: frozenset, line: bool = False) -> int | None:
    """End of a bare institution's name at ``pos`` (words of a name, kind words, a ``strong`` head last), or None."""
    (CARE_WORDS, GENERIC_BEFORE_HEAD, HOSPITAL_HEADS, SERVICES, C, N, classify) = (
        _E.CARE_WORDS, _E.GENERIC_BEFORE_HEAD, _E.HOSPITAL_HEADS, _E.SERVICES, _E.C, _E.N, _E.classify
    )
    FUNCTION_WORDS = _L.FUNCTION_WORDS

    start = pos
    end = None
    named = headed = False
    peoples = False
    prev = ""
    n = 0
    while n < 5:
        m = _WORD.match(text, pos) if n == 0 else _NEXT_WORD.match(text, pos)
        if m is None:
            break
        w = (m.group() if n == 0 else m.group(2)).lower().replace("’", "'")
        if n and m.group(1)[:1] == "." and prev not in NAME_ABBREVIATIONS:
            break  # a sentence ended
        if n == 0 and w in PEOPLES_WORDS:
            # "korean central presbyterian church", "POLISH SLAVIC CENTER": a people's name opens an institution's
            # (the clinical vocabulary lists it as an interpreter's language); two more words at least
            pos, prev, n, named, peoples = m.end(), w, 1, True, True
            continue
        if peoples and w in ("speaking", "speakers", "language", "languages", "interpreter", "interpreters", "interpreting"):
            break  # "spanish speaking clinic": a service in a language, no name
        if n == 0 and w in _REGION_BEFORE:
            # "records from central valley memorial": a region word opens the name
            pos, prev, n = m.end(), w, 1
            continue
        if n == 0 and (w in FUNCTION_WORDS or w in GENERIC_QUALIFIERS or w.endswith("'s") and classify(w[:-2]) == C or w in strong
                       or w in _NOT_FREE or line and w.endswith(("ed", "ing")) and classify(w) != N  # a verb: "Attends ..."
                       or w in MODIFIERS or w in SERVICES or w in GENERIC_BEFORE_HEAD or w in CARE_WORDS
                       or classify(w) == C and w not in _TOPONYM_WORDS):
            break
        if w in strong and named and not (headed and w in DESCRIPTIVE_HEADS) and not (w in _HEADS_AFTER_TWO and n < 2) \
                or n and named and (prev, w) in TWO_WORD_HEADS and m.group(2)[:1].isupper() and not m.group(2).isupper():
            end = m.end()
            headed = True
        elif headed and w in ("and", "&"):
            break  # "Gavin Foundation and Hope House", "Roosevelt Middle and Jefferson Elementary": two names
        elif w in FUNCTION_WORDS and w not in ("and", "&"):
            break
        elif w in MODIFIERS or w in HEADS or w in HOSPITAL_HEADS:
            headed = headed or w in HEADS or w in HOSPITAL_HEADS
        elif named and w in _REGION_BEFORE:
            pass  # "korean central presbyterian church": a region word inside a name
        elif w in GENERIC_QUALIFIERS and named and classify(w) != C:
            pass  # "kreyol family health", "golden years adult day program": a kind word inside a name after its own words
        elif w in GENERIC_QUALIFIERS or classify(w) == C and w not in _TOPONYM_WORDS:
            break  # "Baystate breast center": a clinical word says which service, not whose
        else:
            named = True
        pos = m.end()
        prev = w
        n += 1
    if peoples and end is not None and len(text[start:end].split()) < 3:
        return None  # ("attends korean church": a kind of congregation)
    return end


#: Field labels whose value names an organisation ("Employer: Costco", "hospice: vitas", "Insurance: Cigna PPO").
#: ("Plan:" is a note's plan, "Program:" and "Facility:" often a description: not here.)
_FIELD_LABEL_RE = re.compile(
    r"(?:employer|insurance|insurer|coverage|payer|payor|pharmacy|pharmacies(?: on file)?|hospice|home care|vna|"
    r"day ?care|school|church|snf|ltc|alf|sober house|halfway house|group home|day program|shelter|dentist|outpt unit|dialysis unit|"
    # a header's institution ("Hospital: Brightwater General", "Practice: ...", "Company: ...")
    r"hospital|clinic|practice|medical group|institution|organi[sz]ation|company|hha|ambulance|agency|home health agency|carrier|insurance carrier|"
    # a transfer form's facilities ("SENDING FACILITY: ...", "Receiving facility: ..."; a bare "Facility:" may describe)
    r"(?:sending|receiving|transferring|referring|accepting|discharging|admitting|originating)[ \t]+facility)"
    r"(?:[ \t]*\((?:primary|secondary)\))?[ \t]*$"
)
_BLANKS = re.compile(r"[ \t]*")


def _fields(text: str):
    """(label start, value start) of each organisation field: a label ending at a colon (read back from each colon)."""
    c = text.find(":")
    while c != -1:
        lo = max(0, c - 40)
        m = _FIELD_LABEL_RE.search(text[lo:c].lower())
        if m is not None:
            yield lo + m.start(), _BLANKS.match(text, c + 1).end()
        c = text.find(":", c + 1)


def _field_opens(text: str, q: int) -> bool:
    """Does a field label at ``q`` open a field: at a line's start, or after two blanks, ". " or "; " (and blanks)?"""
    r = q
    while r > 0 and text[r - 1] in " \t":
        r -= 1
    if r == 0 or text[r - 1] == "\n":
        return True
    run = text[r:q]
    return "  " in run or run[:1] == " " and text[r - 1] in ".;"


#: Where a field's value ends: two blanks, a line end, a clause's punctuation or a parenthesis.
_FIELD_END = re.compile(r"  |\n|[;(]|\.(?:\s|$)|$")
#: Field values and words in them that name no organisation, and plan kinds after an insurer's name.
_NO_ORG_VALUE = frozenset(
    """
none n/a na self unknown pending declined retired unemployed disabled same home
private public yes no not tbd tba see per self-employed homeschooled homeschool dual eligible
""".split()
) | PUBLIC_PROGRAMMES
#: A preposition after a field's organisation, before where it is ("Shoppers on Queen St E", "CVS in Braintree").
_WHERE_AFTER_VALUE_RE = re.compile(r"(?i)[ \t]+(?:on|in|at|off|near)[ \t]+(?=\S)")
_PAYER_FIELDS = ("insurance", "insurer", "coverage", "payer", "payor")
_LIST_FIELDS = ("pharmacies",) + _PAYER_FIELDS
#: A state's programme opening an insurance field ("Ins: MassHealth ID 100384927516", "insurance: medi-cal pending").
_STATE_PROGRAMME_FIELD_RE = re.compile(
    r"(?i)(?<![\w/])(?:ins|" + "|".join(_PAYER_FIELDS) + r")[ \t]*:[ \t]*(?P<v>"
    + "|".join(re.escape(p).replace("\\ ", " ").replace(" ", r"[ \t]+") for p in sorted(STATE_PROGRAMMES, key=len, reverse=True))
    + r")(?![\w-])"
)
_PLAN_KINDS = frozenset("ppo hmo pos epo advantage supplement medigap mail order plan primary secondary".split())


def find_institution_fields(text: str) -> list[Candidate]:
    """The organisations a field names: "Employer: Costco", "hospice: vitas", "Pharmacies on file: CVS, Walgreens".

    The value runs to two blanks, a line's end, ``;``, ``(`` or a sentence's end, and is split at commas,
    ``and`` and ``/``. Each item of at most four words is an organisation unless it is a value that names
    none ("none", "self", "Medicare") or holds a clinical or function word; a plan's kind after an insurer
    ("PPO", "mail order") is left.
    """
    A, C, W, classify = _E.A, _E.C, _E.W, _E.classify
    FUNCTION_WORDS = _L.FUNCTION_WORDS

    out: list[Candidate] = []
    for q, vs in _fields(text):
        if not _field_opens(text, q):
            continue
        ve = _FIELD_END.search(text, vs).start()
        label = text[q:vs].lower()
        if any(k in label for k in _LIST_FIELDS):
            # a list: "CVS, Walgreens and Costco", "Medicare A/B, secondary AARP"
            parts = [(m.start(), p) for m in re.finditer(r"[^,/]+", text[vs:ve])
                     for p in re.split(r"(?i)\s+(?:and|or)\s+", m.group())]
            parts = [(st + text[vs + st:ve].index(p), p) for st, p in parts]
        else:
            # one organisation: the value up to its first comma ("Second Chance, Dorchester Ave")
            first = re.match(r"[^,]*", text[vs:ve]).group()
            parts = [(0, first)]
        for st, part in parts:
            part = _WHERE_AFTER_VALUE_RE.split(part, 1)[0]  # "Pharmacy: Shoppers on Queen St E": where it is, apart
            words = list(_WORD.finditer(part))
            while words and words[-1].group().lower() in _PLAN_KINDS:
                words.pop()
            while words and words[0].group().lower() in _PLAN_KINDS:
                words.pop(0)
            if not words or len(words) > 6 or max(len(w.group()) for w in words) < 3 or any(ch.isdigit() for ch in part):
                continue  # ("Medicare A/B": a part, no name; "School: 4th grade": a grade)
            lows = [w.group().lower().replace("’", "'") for w in words]
            # (a value naming none is one word or opens the value: "home", "none", "retired"; "... home health" is a name's)
            if lows[0] in _NO_ORG_VALUE or len(lows) > 1 and names_no_institution(lows) or any(w in _NO_ORG_VALUE and len(lows) == 1 or w in _NOT_FREE
                                               or w.endswith(("ed", "ing")) and classify(w) in (W, A) for w in lows) or any(
                (w in FUNCTION_WORDS and w not in ("of", "the")) or (classify(w) == C and w not in MODIFIERS and w not in HEADS)
                for w in lows
            ):
                continue
            off = vs + st
            out.append(Candidate(off + words[0].start(), off + words[-1].end(), "HOSPITAL", "rule:institution_field", 0.9))
    # the plan that pays, where it is a state's (a national programme names no one's plan: "Ins: Medicare A/B")
    out += [Candidate(m.start("v"), m.end("v"), "HOSPITAL", "rule:institution_field", 0.9) for m in _STATE_PROGRAMME_FIELD_RE.finditer(text)]
    return out

#: A note's title line, then a dash or a colon and the facility it was written at ("nursing note - harbor house ltc,
#: unit b", "HOSPICE RN VISIT - SEASONS OF HOPE HOSPICE", "home visit note - cornerstone visiting nurses   [DATE]").
_HEADER_RE = re.compile(
    r"(?im)^[ \t]*(?:[a-z/&]+[ \t]{1,2}){0,4}(?:note|notes|visit|report|assessment|summary|encounter|eval|evaluation|consult)"
    r"[ \t]+[-\u2013\u2014:][ \t]+(?P<v>[a-z][a-z'\u2019&. ]{2,60}?)[ \t]*(?=,|\(|[ \t]{2}|\.?[ \t]*$)"
)
#: Words a title's value holds that say what the note is about, not where it was written ("- family meeting").
_HEADER_TOPICS = frozenset(
    """
shift day night evening morning meeting entry late addendum update follow initial admission discharge transfer
planning phone telephone call family fall incident pain review annual weekly monthly quarterly readmission
""".split()
)
_NURSE_HEADS = frozenset("nurses nursing ltc residential aged".split())


def find_header_institutions(text: str) -> list[Candidate]:
    """The facility a note's title line names after a dash ("nursing note - harbor house ltc, unit b").

    The value runs to a comma, a parenthesis, two blanks or the line's end, holds no number, clinical word, title
    or relation, and names a place: a head word ("house", "hospice", "visiting nurses") or "the" first ("THE WILLOWS
    AT BAY RIDGE"). A kind of care alone ("- group home"), and topics ("- family meeting", "- late entry"), name none;
    nor do words without a head ("- prior auth", "- postpartum"), which are most often the note's topic.
    """
    if " note" not in text.lower() and "visit" not in text.lower() and "-" not in text:
        return []
    C, classify, TITLES, RELATIONS = _E.C, _E.classify, _E.TITLES, _E.RELATIONS
    out: list[Candidate] = []
    for m in _HEADER_RE.finditer(text):
        words = list(_WORD.finditer(m.group("v")))
        lows = [w.group().lower().replace("\u2019", "'") for w in words]
        if not lows or len(lows) > 7 or any(w in _HEADER_TOPICS or w in TITLES or w in RELATIONS for w in lows):
            continue
        clinical = [w for w in lows if classify(w) == C and w not in HEADS and w not in _NURSE_HEADS and w not in MODIFIERS
                    and w not in ("of", "the", "and", "at")]
        if clinical or names_no_institution(lows):
            continue
        if not (lows[0] == "the" and len(lows) > 1 or any(w in HEADS or w in _NURSE_HEADS for w in lows)):
            continue
        vs = m.start("v")
        out.append(Candidate(vs + words[0].start(), vs + words[-1].end(), "HOSPITAL", "rule:header_institution", 0.9))
    return out


#: Words after which a parenthesis names where it was done or who did it ("outside echo (emberly, 1/2025)",
#: "OSH (NASHWOOD VALLEY)", "ems (lifeline ambulance)", "employer (Kessler Roofing)").
_WHERE_BEFORE_PAREN = frozenset(
    """
osh ems transport ambulance employer work program labs lab echo tte tee ct cta mri mra cxr xr ultrasound us cath eeg emg pft
pfts records consult pharmacy insurance insurer school daycare shelter agency vna hospice snf rehab facility dialysis
""".split()
)
_PAREN_RE = re.compile(r"([A-Za-z/]+)[ \t]?\(([^()\n]{2,60})\)")
_PAREN_DATE_TAIL_RE = re.compile(r",[ \t]*[\d/.-]{3,10}$")
#: Where the institution in a parenthesis is ("DAYCARE (LITTLE LAMBS LEARNING CENTER IN KOSCIUSKO)"): its town follows.
_PAREN_PLACE_TAIL_RE = re.compile(r"(?i)[ \t]+(?:in|at)[ \t]+[A-Za-z][A-Za-z .'-]*$")


def find_parenthesised_institutions(text: str) -> list[Candidate]:
    """The institution a parenthesis names after a study, a service or a workplace word ("outside echo (emberly,
    1/2025)", "OSH (NASHWOOD VALLEY)", "ems (lifeline ambulance)"): one to four words, none clinical, a function
    word or a number, with a word no lexicon calls everyday among them or a head last ("echo (limited)", "ct
    (head)", "labs (cbc, bmp)" name none)."""
    if "(" not in text:
        return []
    (CARE_WORDS, SERVICES, A, C, N, U, W, classify) = (
        _E.CARE_WORDS, _E.SERVICES, _E.A, _E.C, _E.N, _E.U, _E.W, _E.classify
    )
    FUNCTION_WORDS = _L.FUNCTION_WORDS

    out = []
    for m in _PAREN_RE.finditer(text):
        if m.group(1).lower() not in _WHERE_BEFORE_PAREN:
            continue
        inner = m.group(2)
        tail = _PAREN_DATE_TAIL_RE.search(inner) or _PAREN_PLACE_TAIL_RE.search(inner)
        name = inner[: tail.start()] if tail else inner
        words = list(_WORD.finditer(name))
        if not words or len(words) > 4 or name.strip(" \t&'’-") != name.strip() or any(ch.isdigit() for ch in name):
            continue
        if "".join(w.group() for w in words).replace("&", "") == "" or re.search(r"[^\w \t&'’.-]", name):
            continue
        lows = [w.group().lower().replace("’", "'") for w in words]
        classes = [classify(w) for w in lows]
        last = len(lows) - 1
        if any(w in FUNCTION_WORDS and w not in ("of", "the") or (w in SERVICES or w in CARE_WORDS) and not (i == last > 0 and w in HEADS)
               or w in GENERIC_QUALIFIERS
               or c == C and w not in MODIFIERS and w not in HEADS and w not in _TOPONYM_WORDS for i, (w, c) in enumerate(zip(lows, classes))):
            continue  # (a head closing a name of several words may be a care word: "LITTLE LAMBS LEARNING CENTER")
        if not (any(c in (N, U) and len(w) >= 4 for w, c in zip(lows, classes)) or len(lows) > 1 and lows[-1] in HEADS and classes[0] in (W, A)
                and not names_no_institution(lows)):
            continue  # ("OSH (rural hospital)", "osh (critical access hospital)": a kind of hospital)
        base = m.start(2)
        out.append(Candidate(base + words[0].start(), base + words[-1].end(), "HOSPITAL", "rule:parenthesised_institution", 0.85))
    return out


#: Kinds of business, venue and congregation a note describes a place by, where its name is everyday words ("forge
#: (delmar ave)" names none of them; "Bounce (trampoline park, Kapolei)", "a florist (petals, on 3rd st)" do).
BUSINESS_KINDS = frozenset(
    """
store shop place studio park congregation church mosque temple synagogue parish gym bar pub tavern restaurant diner
cafe café coffeehouse salon barbershop mall market supermarket grocery grocer bodega bakery deli florist warehouse
factory plant mill company firm shelter motel hotel club lounge grill pizzeria taqueria laundromat garage dealership
farm ranch camp arena rink team league daycare preschool academy
""".split()
)
_BUSINESS_KIND_RE = "|".join(sorted(BUSINESS_KINDS, key=len, reverse=True))
#: Kinds of programme, housing and service a parenthesis gives after a name of everyday words ("from the haven (shelter
#: on canal st)", "at the crossing (supportive hsg)", "goes to bridges (adult day program)", "attends sunrise (pre-k)").
SERVICE_KINDS = frozenset(
    """
program programme center centre housing hsg school rescue bank pantry house hospice iop php pre-k prek nursery kitchen
ministry mission agency residence apartments
""".split()
)
_VENUE_KIND_RE = "|".join(sorted(BUSINESS_KINDS | SERVICE_KINDS, key=len, reverse=True))
#: A place word, up to three words that may be a name (after an optional "the", which is the name's), then a
#: parenthesis that says what kind of place it is ("at Saffron (Indian place on Elm)", "MEMBERS OF REDEEMED
#: (PENTECOSTAL CONGREGATION ON ...)", "AT THE ARK (ANIMAL RESCUE ON OLD MILL RD)").
_NAME_THEN_KIND_RE = re.compile(
    r"(?i)(?:\b(?:at|outside|from|to|near|behind|of|with|by|attends|attended|attending)|@)[ \t]{1,2}"
    r"(?P<name>(?:the[ \t])?[^\W\d_](?:[^\W\d_]|['’&-])*(?:[ \t][^\W\d_](?:[^\W\d_]|['’&-])*){0,2})[ \t]?\("
    r"(?:an?[ \t]+|the[ \t]+)?(?:[^\W\d_][\w-]*[ \t]+){0,2}(?:" + _VENUE_KIND_RE + r")s?(?![\w-])"
)
#: A kind of business after an article or an owner, then its name in a parenthesis ("ran a florist (petals, on 3rd
#: st)", "works at a bar (Flipside)"), the name closing it or before a comma or where it is.
_KIND_THEN_NAME_RE = re.compile(
    r"(?i)\b(?:an?|the|his|her|their|own)[ \t]+(?:[^\W\d_][\w-]*[ \t]+)?(?:" + _BUSINESS_KIND_RE + r")[ \t]?\("
    r"(?P<name>[^\W\d_](?:[^\W\d_]|['’&-])*(?:[ \t][^\W\d_](?:[^\W\d_]|['’&-])*){0,2})(?=\)|,|[ \t]+(?:on|in|at|off|near)\b)"
)

#: A business's name after a venue word and before the street it stands on ("AT GOLD'S ON DORCHESTER AVE", "at the
#: pill box on front st", "ran d'amico's on atwells ave"): the street says it is a place, as a parenthesis does.
_ON_STREET = (
    r"[ \t]+on[ \t]+(?:[nsew]\.?[ \t])?(?:\d{1,3}(?:st|nd|rd|th)?|[^\W\d_][\w'’-]*)(?:[ \t][^\W\d_][\w'’-]*)?[ \t]"
    r"(?:st|ave|av|rd|dr|blvd|ln|way|pkwy|hwy|pike|road|street|avenue|drive|lane|boulevard)\b"
)
_NAME_ON_STREET_RE = re.compile(
    r"(?i)\b(?:at|outside|from|to|near|behind|ran|runs|owns|owned)[ \t]{1,2}"
    r"(?P<name>(?:the[ \t])?[^\W\d_](?:[^\W\d_]|['’&-])*(?:[ \t][^\W\d_](?:[^\W\d_]|['’&-])*){0,2})" + _ON_STREET
)
#: Its street alone, led by a blank: a note with none is not scanned from every word for a cue in any case (most notes
#: have an "on"; one in eight a street after it).
_ON_STREET_GATE_RE = re.compile(r"(?i:" + _ON_STREET + ")")
#: Spots on a street that a note names by kind ("at the corner on main st", "at the bus stop on elm ave").
_STREET_SPOTS = frozenset(
    """
corner intersection stop station lot building apartment apt house friend friend's friends light lights stoplight
sidewalk curb alley bridge overpass underpass bench entrance parking side end top bottom front back mailbox flat flats
hall halls dorm dorms stn farmers food walk-in pantry clinic ladder roof stairs steps porch deck balcony scaffold
scaffolding fence wall tree bike bicycle scooter skateboard motorcycle car truck van bus train chair bed horse
""".split()
)


#: A venue word and a business's name of one to three words, closing the text before an "on" ("lifts at crunch", "ran
#: d'amico's"): matched backwards from each " on " of a note (most have a few; a scan from every word costs more).
_VENUE_NAME_BEFORE_ON_RE = re.compile(
    r"(?i)(?:^|(?<=[\s(]))(?:at|ran|runs|owns|owned)[ \t]{1,2}"
    r"(?P<name>[^\W\d_](?:[^\W\d_]|['’&.-])*(?:[ \t][^\W\d_](?:[^\W\d_]|['’&.-])*){0,2})$"
)
#: A street named by one or two words with no street's word, closing its clause after "on" ("on foothill. no guns", "on
#: tchoupitoulas 2x/wk", "on atwells 40 yrs", "on laurel canyon w/ compadres", "on huntsville most sundays").
_BARE_STREET_RE = re.compile(
    r"(?P<street>[^\W\d_][\w'’-]*(?:[ \t][^\W\d_][\w'’-]*)?)"
    r"(?=[ \t]*(?:[.,;:)\n]|$)|[ \t]+(?:\d|x\d|w/|(?:with|most|every|since|for|until|til|twice|once|daily|weekly|nightly)\b))"
)
_ON_RE = re.compile(r"[ \t][oO][nN][ \t]{1,2}")
#: Words after "on" that say a state, not a street, beyond those of evidence._NOT_STREETS ("henry ford on hold"): a
#: treatment's or a stay's ("at goal on current regimen", "on arrival").
_NOT_STREETS_TOO = frozenset("regimen therapy treatment diet watch alert scene arrival admission discharge".split())
#: Words after "at" that say a state, not a business ("BP AT TARGET ON CURRENT REGIMEN", "at goal on").
_NOT_BUSINESSES = frozenset("target goal risk rest work home night times least bedside baseline peace ease odds fault".split())
#: Verbs after which "at" aims at someone, not a place ("yelling at pedestrians on halsted").
_AT_SOMEONE_VERBS = frozenset(
    "yelling yelled yells shouting shouted screaming screamed staring stared looking looked pointing pointed swearing "
    "swore cursing laughing laughed throwing threw swinging swung lunging lunged spitting spat aimed aiming angry mad "
    "upset barking".split()
)


def find_businesses_on_bare_streets(text: str) -> list[Candidate]:
    """A business named by everyday or unknown words after a venue word, and the street it stands on named with no
    street's word, closing its clause ("lifts at crunch on foothill.", "climbs at gravity on tchoupitoulas 2x/wk",
    "ran d'amico's on atwells 40 yrs"): the business (HOSPITAL) and the street (LOCATION). Neither may be a clinical,
    function, date or time word, a kind of place, a spot on a street, a role or a relative ("at home on weekends", "at
    rest on tte", "at church on sunday", "at her daughter's on fullerton" keeps its daughter); in mixed case both are
    capitalised (the capitalised passes find most of those)."""
    out = []
    for on in _ON_RE.finditer(text):
        m = _VENUE_NAME_BEFORE_ON_RE.search(text, max(0, on.start() - 48), on.start())
        st = _BARE_STREET_RE.match(text, on.end()) if m is not None else None
        if st is None:
            continue
        words, streets = m.group("name").split(), st.group("street").split()
        if streets[-1].lower() in _E.STREET_SUFFIXES or any(w.lower() in _E._NOT_STREETS or w.lower() in _NOT_STREETS_TOO for w in streets) \
                or words[0].lower() in _NOT_BUSINESSES or _prev_word(text, m.start()) in _AT_SOMEONE_VERBS:
            continue  # (a street's word: find_described_businesses's; "on hold"; "at target"; "yelling at pedestrians")
        if len(streets) == 2 and _E.classify(streets[1].lower()) in (_E.W, _E.C):
            continue  # a street of two words ends in a name's or an unknown word ("laurel canyon"; not "current regimen")
        bare = [w.lower().replace("’", "'") for w in words]
        bare = [w[:-2] if w.endswith("'s") else w for w in bare]
        low_streets = [w.lower() for w in streets]
        # (the letters of the line up to "on"; evidence.mixed_case_line's measure of tokens, one capital among many
        # lower-case words counting as lower case, would take three tune spans more: a change of its own to measure)
        line = text[text.rfind("\n", 0, on.start()) + 1 : on.start()]
        if any(c.isupper() for c in line) and any(c.islower() for c in line) and not (
                words[0][:1].isupper() and streets[0][:1].isupper()):
            continue
        if any(w in _L.FUNCTION_WORDS or w in DATE_WORDS or w in BUSINESS_KINDS or w in SERVICE_KINDS or w in _STREET_SPOTS
               or w in _E.ROLES or w in _E.RELATIONS or _E.classify(w) == _E.C for w in bare + low_streets):
            continue
        if names_no_institution(bare) or bare[0] in GENERIC_QUALIFIERS:
            continue
        out.append(Candidate(m.start("name"), m.end("name"), "HOSPITAL", "rule:business_on_bare_street", 0.8))
        out.append(Candidate(st.start("street"), st.end("street"), "LOCATION", "rule:business_on_bare_street", 0.8))
    return out


#: A verb of working, how, and its preposition, before the employer it names ("works at Foot Locker", "drives for
#: Jefferson Lines", "works remote for Prudential", "WORKS NIGHTS AT LOGAN EXPRESS PARKING", "employed by Kiewit").
_EMPLOYER_CUE_RE = re.compile(
    r"(?i)\b(?:works?|worked|working|employed|drives?|drove|cleans?|cleaned)"
    r"(?:[ \t]+(?:nights|days|evenings|weekends|overnights|part[- ]time|full[- ]time|remotely|remote|seasonal|seasonally))?"
    r"[ \t]+(?:at|for|by|@)[ \t]+"
)
#: Words that end an employer's name: a preposition or a conjunction that goes on the clause ("at Target in Dedham",
#: "for Zachry on a job in Temple"), or a word of when ("at 3M nights").
_AFTER_EMPLOYER = frozenset(
    "in on at as for since until so but x with near off out from to who which where when because while doing making "
    "night nights days weekends per via and/or or pending".split()
)
#: First words of no employer beside evidence's (``_NO_EMPLOYER``, ``_NOT_EMPLOYER_WORD``): an article, an owner or a
#: pronoun ("works at his uncle's shop", "works at a restaurant", "works at it"), home or night.
_NOT_EMPLOYERS = frozenset(
    "home night nights all this that it him them themselves a an his her their my our your its one two three several "
    "various multiple local same another other".split()
)


def find_employers(text: str) -> list[Candidate]:
    """The employer a verb of working names, up to where its clause goes on ("works at [Foot Locker] in NorthPark",
    "drives for [Jefferson Lines].", "son works nights at [3m]", "works remote for [Prudential]"): one to four words,
    no function word (but "of", "and", "&" inside), date's or time's word, role or relative, not a gerund first ("works
    at improving"), not all clinical or kind words ("works for pain control", "works at a restaurant", "works at the
    hospital"), and not everyday words after "the" ("works for the city"). Evidence's venue reading takes one word after
    a work cue (``EMPLOYER_PAIRS``); this reads a name of several to where the clause goes on."""
    out = []
    for cue in _EMPLOYER_CUE_RE.finditer(text):
        pos, words = cue.end(), []
        while len(words) < 5:
            m = _EMPLOYER_WORD_RE.match(text, pos)
            if m is None:
                break
            w = m.group().lower()
            if words and (w in _AFTER_EMPLOYER and w != "and" or w == "and" and len(words) > 2 or w[:1].isdigit()):
                break  # (a count after the name: "dollar general 3 days/wk", "kodak 30 yrs")
            words.append(m)
            pos = m.end()
            if text[pos : pos + 1] not in (" ", "\t") or text[pos + 1 : pos + 2] in (" ", "\t"):
                break
            pos += 1
        if not words or len(words) > 4 or not _EMPLOYER_END_RE.match(text, words[-1].end()) and not words[-1].group()[:1].isdigit():
            continue  # (the clause goes on with more words than a name holds)
        while len(words) > 1 and (words[-1].group().lower() in _E.WORKPLACE_KINDS or words[-1].group().lower() in _EMPLOYER_SITES):
            words.pop()  # "works at [tyson] plant", "AMAZON WAREHOUSE": the site's kind stays, as the notes' writers leave it
        end = words[-1].end()
        lows = [w.group().lower().replace("’", "'").rstrip(".") for w in words]
        lows = [w[:-2] if w.endswith("'s") else w for w in lows]
        rest = lows[1:] if lows[0] == "the" else lows
        if lows[0] in _NOT_EMPLOYERS or lows[0] in _E._NO_EMPLOYER or lows[0] in _E._NOT_EMPLOYER_WORD or not rest \
                or rest[0].isdigit() or lows[-1] in ("and", "of", "&"):
            continue
        if rest[0].endswith("ing") and _E.classify(rest[0]) in (_E.W, _E.C, _E.A):
            continue  # "works at improving her gait": a gerund
        if any(w in DATE_WORDS or w in _E.RELATIONS or w in _E.TITLES or w in _E.ROLES and len(rest) == 1
               or w in _L.FUNCTION_WORDS and w not in ("of", "and", "&") for w in rest):
            continue
        # capitalised words in a line with small letters are a name whatever else they are ("Jefferson Lines")
        named = _E.line_case_at(text, cue.start()) != "caps" \
            and all(w.group()[:1].isupper() for w in words if w.group().lower() not in ("of", "and", "the"))
        inner = [w for w in rest if w not in ("of", "and", "&")]
        clinical = [_E.classify(w) == _E.C or _L.is_clinical_term(w) for w in inner]
        kinds = [w for w, c in zip(inner, clinical) if c or w in BUSINESS_KINDS or w in SERVICE_KINDS or w in HEADS]
        if len(inner) == 1 and clinical[0] or not named and (
                len(kinds) == len(inner) or clinical[0] and cue.group().lower().rstrip().endswith("for")
                or names_no_institution(rest)):
            continue  # "works for pain control", "lasix works for anxiety", "works at a restaurant", "works at the hospital"
        if (lows[0] == "the" or cue.group().lower().rstrip().endswith("for")) and not named \
                and " ".join(rest) not in _L.organisation_names() and all(_E.classify(w) in (_E.W, _E.A, _E.C) for w in inner):
            continue  # everyday words after "the" describe a place ("works for the city", "from work at the outlet mall"),
            # and after "for" say what a drug works for ("tylenol works for pain control")
        first = words[1] if lows[0] == "the" else words[0]  # ("at the Costco": the article is no part of the name)
        out.append(Candidate(first.start(), end, "HOSPITAL", "rule:employer", 0.8))
    return out


#: Kinds of site after an employer's name, no part of it, beside evidence's kinds of workplace (``WORKPLACE_KINDS``:
#: "Tyson plant", "Amazon warehouse"): "Kroger HQ", "Walmart DC", "Cub Foods distribution".
_EMPLOYER_SITES = frozenset(
    "deli dc distribution center centre ctr cargo hq headquarters downtown yards lab line assembly pharmacy facility campus hub "
    "terminal fulfillment".split()
)
#: A word of an employer's name: letters, or digits and letters ("3M", "7-Eleven").
_EMPLOYER_WORD_RE = re.compile(r"[^\W_](?:[\w&'’.-]*[^\W_])?(?:['’]s)?")
#: Where an employer's name ends: a clause's punctuation, a dash, a line's end, or a word that goes on the clause.
_EMPLOYER_END_RE = re.compile(
    r"[ \t]*(?:[,;:()\n]|\.(?:\s|$)|[ \t]--?[ \t]|$)|[ \t]+(?:" + "|".join(re.escape(w) for w in sorted(_AFTER_EMPLOYER)) + r")\b", re.I
)


def find_described_businesses(text: str) -> list[Candidate]:
    """Businesses, venues and congregations whose names are everyday words, where the note says what kind of place
    they are in a parenthesis beside the name: "FOOSH @ Bounce (trampoline park, Kapolei)", "dinner at Saffron (Indian
    place on Elm)", "ran a florist (petals, on 3rd st)"; or after a venue word and before "on" and a street with a
    street's word ("AT GOLD'S ON DORCHESTER AVE"), unless a spot or a thing on the street ("at the bus stop on elm ave"),
    a kind after the name staying out of it ("Piccadilly cafeteria"). The name is one to three words, none clinical, a
    function word, a date's word or itself a kind of place ("at church (baptist church on main)" names none)."""
    rxs = (_NAME_THEN_KIND_RE, _KIND_THEN_NAME_RE) if "(" in text else ()
    if _ON_STREET_GATE_RE.search(text) is not None:
        rxs += (_NAME_ON_STREET_RE,)
    out = []
    for rx in rxs:
        for m in rx.finditer(text):
            words = m.group("name").split()
            lows = [w.lower().replace("’", "'") for w in words]
            bare = [w[:-2] if w.endswith("'s") else w for w in lows]
            if len(bare) > 1 and bare[0] == "the":
                bare = bare[1:]  # ("the haven (shelter)": the article is the name's, its words are what is judged)
            start, end = m.span("name")
            if rx is _NAME_ON_STREET_RE:
                if any(w in _STREET_SPOTS for w in bare):
                    continue
                if len(bare) > 1 and (bare[-1] in BUSINESS_KINDS or bare[-1] in _E.WORKPLACE_KINDS):
                    # ("at Piccadilly cafeteria on Veterans Blvd", "AT SYSCO WAREHOUSE ON ..."): the kind after the name
                    bare = bare[:-1]
                    end = m.start("name") + len(m.group("name").rsplit(None, 1)[0])
            if bare[0] in GENERIC_QUALIFIERS:
                continue  # ("at medical respite (... house)": a kind of care, the parenthesis names the place)
            if any(w in _L.FUNCTION_WORDS or w in DATE_WORDS or w in BUSINESS_KINDS or _E.classify(w) == _E.C for w in bare):
                continue
            if names_no_institution(bare) or any(w in _E.ROLES or w in _E.RELATIONS for w in bare):
                continue  # ("at work (warehouse)", "with son (store manager)": a kind, a role or a relative)
            out.append(Candidate(start, end, "HOSPITAL", "rule:described_business", 0.85))
    return out


#: Units, services and staff that notes write right after an institution's distinctive word ("sentinel ortho", "Mercy
#: pharmacist", "LAKESIDE CATH LAB", "providence heme clinic", "Pioneer ED note", "BRIGHT STAR HHA"); the value is
#: the set of words one of which must follow (empty: the word alone is enough).
UNIT_AFTER: dict[str, frozenset] = {
    **dict.fromkeys(
        """
ed eds er ers icu micu sicu ccu cvicu nicu picu pacu lab labs laboratory pharmacy pharmacist pharmacists hospitalist
hospitalists ortho orthopedics cards cardiology psych psychiatry gi ent heme onc oncology hem/onc heme/onc clinic
dialysis snf ltach rehab shelter ambulance ems imaging radiology pediatrics peds fqhc otp hha vna records neurology
derm dermatology obgyn ob/gyn urology nephrology detox hospice correctional rep reps representative tcu bhu irf
pulm pulmonary pulmonology hepatology endo endocrinology rheum rheumatology gastro gastroenterology
""".split(),
        frozenset(),
    ),
    "cath": frozenset({"lab"}),
    "wound": frozenset({"care", "clinic", "center"}),
    "group": frozenset({"home"}),
    "senior": frozenset({"center"}),
    "day": frozenset({"program"}),
    "drop-in": frozenset({"center"}),
    "transfer": frozenset({"center"}),
    "urgent": frozenset({"care"}),
    "women's": frozenset({"health", "clinic", "center"}),
    "womens": frozenset({"health", "clinic", "center"}),
    "community": frozenset({"health"}),
    "family": frozenset({"medicine", "practice", "health"}),
    "primary": frozenset({"care"}),
    "home": frozenset({"care", "health"}),
    "language": frozenset({"services"}),
    "heart": frozenset({"center", "institute", "and"}),
    "cancer": frozenset({"center", "institute"}),
    "trauma": frozenset({"center"}),
}
#: Words that may stand right before the institution's word and say where or whose ("seen at", "transferred from",
#: "per", "w/", "called"); a line's or a clause's start does too.
_UNIT_CUES = frozenset("at from to per by with w via in called and or @ vs".split())
# ("interrogated by medtronic rep": a device company's representative; the company is the identifier)
_UNIT_WORD = re.compile(r"[^\W\d_][^\W\d_'’./-]*(?:['’][sS])?")
#: Where an institution's word may start with no cue: a line's start or after clause punctuation.
_UNIT_OPENERS = frozenset(".:;,(-\"\n→>")  # ("if worse → Regions ED")
#: The first word of a unit, where a word starts and ends (on the lower-cased text).
_UNIT_HIT = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(re.escape(w) for w in sorted(UNIT_AFTER, key=len, reverse=True)) + r")(?![^\W\d_'’./-])"
)


def find_institutions_before_units(text: str) -> list[Candidate]:
    """The institution whose unit, service or staff a line names: one or two distinctive words right before a unit
    word ("sentinel ortho", "Mercy pharmacist called", "LAKESIDE CATH LAB", "GOLDEN YEARS SENIOR CENTER").

    The words stand after a cue of where or whose (``at``, ``from``, ``per``, ``w/``...) or open a line or clause,
    never after a determiner or a possessive ("the main lab", "pt's ortho"). Each is a name, a word no lexicon
    knows, a landscape word, or an everyday word rarer than the vocabulary of care ("sentinel", "providence";
    not "main", "outside", "morning", "busy"), or, in mixed case, a capitalised word inside a sentence. Only the
    distinctive words are taken: the unit word is clinical content.

    Unit words are found with one scan of the lower-cased text; the words around each are read from its line
    (at most 200 characters back), which gives what reading every word of the note would (a property test holds
    it equal to that plain form).
    """
    out: list[Candidate] = []
    line_cases: dict[int, bool] = {}
    for hit in _UNIT_HIT.finditer(text.lower()):
        u = hit.start()
        ls = max(text.rfind("\n", 0, u) + 1, u - 200)
        while ls > 0 and not text[ls - 1].isspace():
            ls -= 1  # (a window opens between two words)
        le = text.find("\n", hit.end())
        words = list(_UNIT_WORD.finditer(text, ls, le if le >= 0 else len(text)))
        j = next((i for i, m in enumerate(words) if m.start() == u), None)
        if j is None or j > 0 and words[j - 1].end() == u:
            continue  # (inside a token: "x/ed", a word's tail)
        found = _before_unit(text, words, j, line_cases)
        if found is not None:
            out.append(found)
    return out


def _before_unit(text: str, words: list, j: int, line_cases: dict[int, bool]) -> Candidate | None:
    """The institution's words before the unit word ``words[j]`` (see :func:`find_institutions_before_units`), or None."""
    lows = [m.group().lower().replace("’", "'") for m in words[max(0, j - 3) : j + 2]]
    off = max(0, j - 3)

    def low(i: int) -> str:
        return lows[i - off]

    need = UNIT_AFTER.get(low(j))
    if need is None or j == 0:
        return None  # (no word before it on its line)
    if need and (j + 1 >= len(words) or low(j + 1) not in need or text[words[j].end() : words[j + 1].start()] != " "):
        return None
    last = words[j + 1] if need else words[j]
    if text[last.end() : last.end() + 1] in ("-", "/"):
        return None  # "heme-positive", "gi/gu": a compound, no unit
    # one or two distinctive words right before the unit word, joined by one blank
    # (before a representative any word no lexicon knows is the company's, built like a drug's name or short:
    # "medtronic rep", "ARTHREX REP", "kci rep"; not "sales rep", "pt rep")
    rep = low(j) in _REP_WORDS
    k = j
    while k > 0 and j - k < 2 and text[words[k - 1].end() : words[k].start()] == " " and (_distinctive_before_unit(
            text, words[k - 1], low(k - 1), line_cases) or rep and _company_word(low(k - 1))):
        k -= 1
    if k == j:
        return None
    if k > 0 and low(k - 1) in ("st", "saint") and text[words[k - 1].end() : words[k].start()] in (" ", ". "):
        k -= 1  # "ST. MARY'S WOUND CLINIC"
    gap = text[words[k - 1].end() : words[k].start()] if k > 0 else ""
    p = words[k].start()
    while p > 0 and text[p - 1] in " \t":
        p -= 1
    prev_char = text[p - 1] if p else ""
    if prev_char == "." and k > 0 and low(k - 1) in _E.TITLES:
        return None  # "Dr. Okafor oncology": the title's dot ends no sentence; a clinician and her service
    opened = not prev_char or prev_char in _UNIT_OPENERS and (prev_char != "-" or text[p - 2 : p - 1].isspace()) \
        or k > 0 and low(k - 1) in _UNIT_CUES and gap.strip(" \t") in ("", "@")
    if not opened and not (prev_char == "@" or text[max(0, p - 2) : p].lower() == "w/"):
        return None
    return Candidate(words[k].start(), words[j - 1].end(), "HOSPITAL", "rule:institution_before_unit", 0.85)


_REP_WORDS = frozenset("rep reps representative".split())
#: Kinds of company, no company's name ("pharma rep").
_COMPANY_KINDS = frozenset("pharma biotech vendor vendors dme".split())


def _company_word(w: str) -> bool:
    """Is ``w`` a word no lexicon knows, of three letters or more: a company's name before its representative?"""
    return len(w) >= 3 and w.isalpha() and w not in _L.FUNCTION_WORDS and w not in _COMPANY_KINDS and _E.classify(w) == _E.U


def _distinctive_before_unit(text: str, word: re.Match, w: str, line_cases: dict[int, bool]) -> bool:
    """May ``word`` (lower-cased ``w``) be an institution's word before a unit word (see :func:`find_institutions_before_units`)?"""
    (CARE_WORDS, GENERIC_BEFORE_HEAD, RELATIONS, SERVICES, TITLES, C, N, U, classify, zipf) = (
        _E.CARE_WORDS, _E.GENERIC_BEFORE_HEAD, _E.RELATIONS, _E.SERVICES, _E.TITLES, _E.C, _E.N, _E.U, _E.classify, _E.zipf
    )
    _LATINATE_ENDINGS, _NOT_A_VENUE, _inflected, _lex = _E._LATINATE_ENDINGS, _E._NOT_A_VENUE, _E._inflected, _E._lex
    FUNCTION_WORDS = _L.FUNCTION_WORDS

    w = w.rstrip(".")
    raw = word.group()
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) < 3 or not w.replace("-", "").isalpha() or w in UNIT_AFTER or w in FUNCTION_WORDS or w in GENERIC_QUALIFIERS \
            or w in MODIFIERS or w in SERVICES or w in CARE_WORDS or w in GENERIC_BEFORE_HEAD or w in _NOT_A_VENUE \
            or w in _NOT_FREE or w in RELATIONS or w in TITLES or w in DATE_WORDS or w in _KINDS_BEFORE_UNIT:
        return False
    cls = classify(w)
    if cls == C:
        return w in _TOPONYM_WORDS
    mixed = _mixed_line(text, word.start(), line_cases)
    if cls == N:
        return len(w) >= 4 or raw.isupper() and mixed
    if cls == U:
        # (a word no lexicon knows in a clinical line is often a clinical one: "testicular", "esoph", "superimposed";
        # "wellspring" is no verb's form)
        return (len(w) >= 4 or raw.isupper() and mixed) and not w.endswith(_LATINATE_ENDINGS + ("ar", "ed", "ly")) \
            and not (w.endswith("ing") and _inflected(w, _lex()[2]))
    if w.endswith(("ed", "ly")) or w.endswith("ing") and _inflected(w, _lex()[2]):
        return False  # (a verb's form; "sterling" is none)
    capital_inside = mixed and raw[:1].isupper() and not raw.isupper() and not _sentence_start(text, word.start())
    # (an adjective says which kind of unit: "neonatal ICU", "intermittent heme-positive")
    return capital_inside or zipf(w) < 4.3 and not w.endswith(_ADJECTIVE_ENDINGS)


#: A hospital's acronym: three to five letters in one case ending in H (hospital), MC or HC (medical or health
#: centre): "SVH", "LMH", "sjmc", "KRMC".
_HOSPITAL_ACRONYM = re.compile(r"(?<![\w/&.-])(?:[A-Z]{1,3}(?:H|MC|HC)|[a-z]{1,3}(?:h|mc|hc))(?![\w/&-]|\.\w)")
#: Words before an acronym that put an institution there ("admitted SVH x2", "in sjmc 3 wks ago", "refuses nwh").
_ACRONYM_BEFORE = frozenset(
    "from at to in per via osh admitted admit transferred transfer records refuses refused prefers prefer declines @".split()
)
#: Words after it that do ("LMH CALLED REQUESTING RECORDS", "krmc sending pt for cath").
_ACRONYM_AFTER = frozenset(
    "called calling sending sent records transfer transferred admission admit note notes report accepted accepting".split()
)
_PREV_TOKEN = re.compile(r"([^\W\d_]+|@|\()[ \t]*$")
_NEXT_TOKEN = re.compile(r"[ \t]*([^\W\d_]+)")


def find_hospital_acronyms(text: str) -> list[Candidate]:
    """A hospital's acronym where the line puts an institution: "Previously admitted SVH x2", "OSH (CMC)", "pt was in
    sjmc", "LMH CALLED REQUESTING RECORDS", "krmc sending pt".

    Three to five letters in one case, ending in H, MC or HC, that no clinical or person lexicon lists ("PPH",
    "MCHC", "ACTH" are clinical) and no everyday word is but a rare one, after a word of where or going
    (``from``, ``at``, ``in``, ``per``, ``admitted``, ``osh (``...) or before a unit, a call or records.
    """
    U, W, classify, zipf = _E.U, _E.W, _E.classify, _E.zipf

    out: list[Candidate] = []
    for m in _HOSPITAL_ACRONYM.finditer(text):
        w = m.group().lower()
        cls = classify(w)
        if not (cls == U or cls == W and zipf(w) < 3.5):
            continue
        before = _PREV_TOKEN.search(text, max(0, m.start() - 30), m.start())
        after = _NEXT_TOKEN.match(text, m.end())
        prev = before.group(1).lower() if before else ""
        nxt = after.group(1).lower() if after else ""
        if prev in _ACRONYM_BEFORE or prev == "(" or nxt in _ACRONYM_AFTER or nxt in UNIT_AFTER and not UNIT_AFTER[nxt]:
            out.append(Candidate(m.start(), m.end(), "HOSPITAL", "rule:hospital_acronym", 0.85))
    return out


#: Words that join two parts of one institution's name ("Life Care Center of [Hollis]", "[Holy Family Hospital] at
#: [Merrow Valley]", "[Tilden Floating Hospital] for [Children]"), with an optional "the"; not "in"/"on", which put an
#: institution in its town or street ("Walgreens in Braintree", "Brooks Pharmacy on Washington St": two identifiers).
_JOIN_PARTS = re.compile(r"[ \t]{1,2}(?:of|at|for|de|del|du)(?:[ \t]{1,2}the)?[ \t]{1,2}|[ \t]?&[ \t]?|[ \t]{1,2}and[ \t]{1,2}", re.IGNORECASE)


def join_institution_parts(text: str, cands: list[Candidate], *, with_and: bool = True) -> list[Candidate]:
    """One span over two found parts of an institution's name and the small word between them: "[Sacred Heart Soup
    Kitchen] of [South Marlow]", "[Veterans Home] at [Carverton]", "[Hebrew ElderLife] at [Roslyn Park]".

    The left part is an institution; the right one an institution, a place or, after "of"/"at"/"for", a name.
    ``with_and=False``: not two institutions joined by "and" or "&" (L2 joins the model's parts, which may be two
    mentions: "referral sent to [Gavin Foundation] and [Hope House]").
    Only the joining word is new: a span counts as removed when all of its letters are, and "of" left between
    two removed parts keeps the name's shape for no reader.
    """
    inst = sorted((c for c in cands if c.category in ANCHOR_CATEGORIES), key=lambda c: (c.start, -c.end))
    if len(inst) < 2:
        return []
    out = []
    starts = [c.start for c in inst]
    for c in inst:
        if c.category not in ("HOSPITAL", "LOCATION"):
            continue
        m = _JOIN_PARTS.match(text, c.end)
        if m is None:
            continue
        i = bisect_right(starts, m.end() - 1)
        if i >= len(inst) or inst[i].start != m.end():
            continue
        right = inst[i]
        word = m.group().strip(" \t").lower()
        if c.category == "LOCATION" and (word != "of" or right.category == "NAME"):
            continue  # "[Sunrise] of [Bethesda]": a place's word before "of" and a place is a branch's name; not "[Boston] at [MGH]"
        if right.category == "NAME" and not word.startswith(("of", "at", "for")):
            continue  # ("MGH and Dr. [NAME]": two mentions)
        if word in ("and", "&") and (right.category != "HOSPITAL" or not with_and):
            continue  # ("[MGH] and [Boston]")
        out.append(Candidate(c.start, right.end, "HOSPITAL", "rule:institution_joined", 0.85))
    return out


#: "The" in any letter case right before an "X at Y" name ("at the [glen at lafayette]").
_ANY_ARTICLE_BEFORE_RE = re.compile(r"(?:(?<=[ \t(,;:\-])|^)(?:the|The|THE)[ \t]$", re.MULTILINE)
#: The kinds of care an "at home" service closes ("Sutter Care at Home", "MAINEHEALTH CARE AT HOME", "ontario health at
#: home"): every tune note that writes one marks "at home" inside the name.
_AT_HOME_AFTER_RE = re.compile(r"(?<=care|Care|CARE|alth|ALTH|pice|PICE|ital|ITAL)[ \t]+(?:at|AT|At)[ \t]+(?:home|Home|HOME)\b")
#: The part of an "X at Y" name before "at" and a found institution or place ("The Willows at [Bayshore]", "THE
#: ESTATES AT [ROSEVILLE]", "Wound Care Center at [Providence Park]"): "The" and one or two capitalised words, or, in a
#: mixed-case line, capitalised words closing on an institution's head.
_AT_NAME_BEFORE_RE = re.compile(
    r"(?:(?<=[ \t(,;:\-])|^)(?:(?P<the>The|THE)[ \t]+(?P<w>(?:[A-Z][A-Za-z'’]+[ \t]+){1,2})"
    r"|(?P<run>(?:[A-Z][a-z'’]+[ \t]+|&[ \t]+){1,3}(?P<head>Center|Centre|Clinic|Institute|Program|Pavilion|Hospital))[ \t]+)"
    r"(?:at|AT)[ \t]+$",
    re.MULTILINE,
)


def at_names_of_institutions(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The rest of an institution's "X at Y" name around a found part, as HOSPITAL candidates: "at home" after a kind
    of care ("[Sutter Care] at Home"), the first part before "at" ("The Willows at [Bayshore]", "Wound Care Center at
    [Providence Park]"), and the "the" that opens such a name in any letter case ("at the [glen at lafayette]").
    Annotators count all of it in the name, and a part left keeps the name's shape for any reader."""
    from clinx.text.evidence import ROLES, TITLES
    from clinx.text.lexicons import is_clinical_term, zipf

    out = []
    for c in cands:
        if c.category not in ("HOSPITAL", "LOCATION"):
            continue
        home = _AT_HOME_AFTER_RE.match(text, c.end) if c.category == "HOSPITAL" else None
        if home is not None:
            out.append(Candidate(c.start, home.end(), "HOSPITAL", "rule:institution_at_name", 0.85))
        if c.category == "HOSPITAL" and " at " in text[c.start : c.end].lower():
            m = _ANY_ARTICLE_BEFORE_RE.search(text, max(0, c.start - 5), c.start)
            if m is not None:
                out.append(Candidate(m.start(), c.end, "HOSPITAL", "rule:institution_at_name", 0.85))
                continue
        m = _AT_NAME_BEFORE_RE.search(text, max(0, c.start - 60), c.start)
        if m is None:
            continue
        if m.group("the"):
            words = [w.lower() for w in m.group("w").split()]
            if m.group("the") == "THE" and not all(w.isupper() for w in m.group("w").split()):
                continue  # (capitals for "THE" only in a line of capitals)
            if any(w in ROLES or w in TITLES or is_clinical_term(w) or zipf(w) >= 4.2 for w in words):
                continue  # "The patient at [MGH]", "THE NURSE AT [VNA]": a person or a thing, no name's first part
        else:
            words = [w.lower() for w in m.group("run").split() if w != "&"]
            if words[0] in ROLES or words[0] in TITLES:
                continue
        out.append(Candidate(m.start(), c.end, "HOSPITAL", "rule:institution_at_name", 0.85))
    return out


#: "The" written as a name's first word right before an institution: capitalised where a sentence does not begin
#: ("Facility: The Arbors", "at The Willows"), or in a line of capitals ("THE MEADOWS AT CEDAR RIDGE").
_ARTICLE_BEFORE_RE = re.compile(r"(?:(?<=[ \t(,;:\-])|^)(?:The|THE)[ \t]$", re.MULTILINE)
_SENTENCE_END_BEFORE_RE = re.compile(r"(?:^|[.!?][ \t]{1,2})$", re.MULTILINE)
#: Plurals of landscape that name a place with a small "the" before them ("at the [oaks]", "resided at the [willows at
#: westfield]"): the tune annotators mark that "the" inside such a name more often than not.
_PLURAL_TOPONYMS = frozenset(
    "oaks willows meadows pines birches palms elms maples arbors gardens commons terraces estates woods heights glens".split())


def articles_of_institutions(text: str, cands: list[Candidate]) -> list[Candidate]:
    """An institution's span with the "The" its name begins with ("Facility: The [Arbors at Fox Chase]", "SEEN AT THE
    [MEADOWS AT CEDAR RIDGE]"), as a HOSPITAL candidate: writers and annotators count it in the name, and a "The" left
    keeps the name from being removed. Not a "The" that begins a sentence or a line, which is capitalised anyway."""
    out = []
    for c in cands:
        if c.category != "HOSPITAL":
            continue
        m = _ARTICLE_BEFORE_RE.search(text, max(0, c.start - 5), c.start)
        if m is None:
            m = _ANY_ARTICLE_BEFORE_RE.search(text, max(0, c.start - 5), c.start)  # (no capital one there: a small "the")
            first = _WORD.match(text, c.start)
            if m is None or first is None or first.group().lower() not in _PLURAL_TOPONYMS or not text[c.start : c.end].islower():
                continue  # (a small "the" only before a plural of landscape, which names the place with it, in a name
                # written in small letters: "the oaks"; "went to the Arbors" capitalises the name alone)
        if m.group().startswith("The") and _SENTENCE_END_BEFORE_RE.search(text, max(0, m.start() - 3), m.start()):
            continue
        out.append(Candidate(m.start(), c.end, "HOSPITAL", "rule:institution_article", 0.85))
    return out


#: Peoples, nations and languages that begin an organisation's name ("Navajo Nation EMS", "Hmong American Partnership",
#: "Korean Community Services of NJ", "Jewish Family Service"): the lexicons read them as an interpreter's language or
#: leave them, so the name's first word stays behind the rest.
_PEOPLES = frozenset(
    """
navajo hopi apache cherokee lakota ojibwe choctaw zuni yupik inupiat native
hmong korean polish jewish chinese vietnamese somali haitian cambodian khmer lao laotian irish italian german ukrainian
russian arab armenian greek filipino japanese indian african asian latino latina hispanic mexican cuban dominican
portuguese brazilian ethiopian eritrean nepali bhutanese karen burmese afghan iraqi syrian bosnian
""".split()
)
#: The words such a name goes on with ("[Navajo] Nation EMS", "[Hmong] American Partnership"); "spanish [interpreter
#: services]" names a kind of service, and an institution whose first word is none of these keeps the people's word out.
_AFTER_PEOPLES = frozenset(
    """
nation nations american americans community communities family families women's womens mutual cultural heritage
association center centre health services service social benevolent catholic lutheran baptist methodist presbyterian
orthodox evangelical church temple village area tech tribal transit council alliance coalition institute
""".split()
)
_WORD_BEFORE_RE = re.compile(r"([A-Za-z]+)[ \t]$")


#: Words that open an institution's name before a span the recognisers found ("la [clinica del valle]", "our [lady's
#: manor]", "five [rivers health centers]", "NC [Farmworker Health Program]"), which the lexicons read as an article, a
#: pronoun, a number or a state's code and leave, so the name's first word stays behind the rest.
_SPANISH_ARTICLES = frozenset("la el los las".split())
#: What follows "our" in a church's or a home's name (not "our [Westside Pediatrics] office": the writer's own).
_AFTER_OUR = frozenset("lady lady's ladys savior savior's saviour saviour's redeemer mother".split())
_NUMBER_WORDS = frozenset("two three four five six seven eight nine ten twelve twin".split())
#: States' and regions' codes that begin an organisation's name in capitals ("CA Rural Legal Assistance", "UP Health
#: System", "SA MedCom"); not the codes that are also words or clinical abbreviations (IN, ME, OR, MD, MS, CT, PA, ...).
_REGION_CODES = frozenset("ca nc sc ny nj nh vt ri tx az nm nv ut fl wv wi mn ia ks ky tn wa ak wy sd nd il up sa nyc jp".split())
#: The same in a lower-case line, where only codes that are no word or abbreviation stay ("jp [va]", "nc [farmworker
#: health program]"; not "sc [injection]", "tx [plan]").
_LOWER_REGION_CODES = frozenset("nc ny nj nh ri wv nyc jp".split())
#: What may stand before "UP" (the Upper Peninsula) that opens a name: a line's or a field's start, or a cue of place.
_UP_OPENS_RE = re.compile(r"(?:^|[\n,;:(/>-]|\b(?:at|to|from|via|with|w/|per|and))[ \t]*$", re.IGNORECASE)


def openers_of_institutions(text: str, cands: list[Candidate]) -> list[Candidate]:
    """The word before an institution's span that begins its name, as a HOSPITAL candidate over both: a people's, a
    nation's or a language's word before one of :data:`_AFTER_PEOPLES` in the name's case ("NAVAJO [NATION EMS]",
    "hmong [american partnership]"), a Spanish article ("la [rabida]"), "our" before a saint's or a church's word ("our
    [lady's manor]"), a number before a plural ("four [corners radiology group]") or a state's or a region's code ("CA
    [Rural Legal Assistance]", "jp [va]"). Left, it keeps the name from being removed; each is read only right before
    the span, joined by one blank."""
    out = []
    for c in cands:
        if c.category != "HOSPITAL" or c.start < 3:
            continue
        m = _WORD_BEFORE_RE.search(text, max(0, c.start - 16), c.start)
        if m is None or m.start(1) > 0 and text[m.start(1) - 1].isalnum():
            continue
        w, low = m.group(1), m.group(1).lower()
        if low in _PEOPLES:
            words = text[c.start : c.end].split(maxsplit=1)
            name = words[0]
            # (written in the name's case: "Spanish-speaking ... community health" is not one name)
            if len(words) > 1 and name.lower().rstrip(",") in _AFTER_PEOPLES and (
                    w.islower() == name.islower() and w.isupper() == name.isupper() or w.istitle() and name.istitle()):
                out.append(Candidate(m.start(1), c.end, "HOSPITAL", "rule:institution_people", 0.85))
            continue
        first = _WORD.match(text, c.start)
        if first is None:
            continue
        head = first.group().lower().replace("’", "'")
        if low in _SPANISH_ARTICLES:
            ok = True
        elif low == "our":
            ok = head in _AFTER_OUR
        elif low in _NUMBER_WORDS:
            # a name's plural ("five rivers", "FOUR CORNERS"), not a count of a kind of place ("two [clinics]")
            ok = head.endswith("s") and not head.endswith("'s") and head not in HEADS and head not in _E.HOSPITAL_HEADS
        elif text[c.start : c.end].islower():
            ok = w.islower() and low in _LOWER_REGION_CODES
        else:
            ok = w.isupper() and low in _REGION_CODES and first.group()[:1].isupper()
            if ok and low == "up":
                # ("UP Health System", "TO: UP HEALTH SYSTEM - BELL"; not a verb's particle: "FOLLOW UP [MGH]", "PICKED UP")
                ok = _UP_OPENS_RE.search(text, max(0, m.start(1) - 12), m.start(1)) is not None
        if ok:
            out.append(Candidate(m.start(1), c.end, "HOSPITAL", "rule:institution_opener", 0.85))
    return out


#: Where a business is named by its owner's possessive: after "at", "@" or "from" ("works nights at Kessler's",
#: "fall @ Rosie's (diner)").
_BUSINESS_CUE_BEFORE_RE = re.compile(r"(?i)(?:\bat|@|\bfrom)[ \t]{1,2}$")
#: What follows the possessive of a business: its kind in parentheses, a mark, the line's end, or a word that is no
#: noun the possessive could own ("at Rosie's (diner)", "at abu sami's w/ his friends"; not "at Mary's house").
_AFTER_BUSINESS_RE = re.compile(
    r"[ \t]*(?:\(|[,;.:!?\"”]|$)|[ \t]+(?:w/|(?:with|for|on|in|since|until|till|when|after|before|and|but|x\d|\d)\b)", re.IGNORECASE | re.MULTILINE
)


def possessive_businesses(text: str, cands: list[Candidate]) -> list[Candidate]:
    """A removed name and its possessive after "at", "@" or "from", when no noun follows it, as a HOSPITAL candidate:
    a shop, a diner or a workplace named for its owner ("WORKS NIGHTS AT [KESSLER]'S (WAREHOUSE)", "has coffee at
    [abu sami]'s w/ friends"); and an institution's span with the possessive that closes it, wherever it stands
    ("[trader joe]'s"). The possessive is part of the business's name; left, it keeps the name from being removed.
    Not "at [Mary]'s house" (the person's, whose house it is)."""
    out = []
    for c in cands:
        if c.category not in ("NAME", "HOSPITAL") or text[c.end : c.end + 2].lower() not in ("'s", "’s"):
            continue
        if text[c.end + 2 : c.end + 3].isalnum():
            continue
        if c.category == "HOSPITAL" and text[c.start : c.end].lower().rstrip(".") not in _E.HOSPITAL_HEADS:
            # an institution's span short of its possessive ("[trader joe]'s", "[Mama Lena]'s", "[SOUTHERN GLAZER]'S
            # WAREHOUSE"): the possessive is the name's wherever it stands
            out.append(Candidate(c.start, c.end + 2, "HOSPITAL", "rule:possessive_business", 0.85))
            continue
        if c.category != "NAME" or not _BUSINESS_CUE_BEFORE_RE.search(text, max(0, c.start - 6), c.start):
            continue
        if _AFTER_BUSINESS_RE.match(text, c.end + 2):
            out.append(Candidate(c.start, c.end + 2, "HOSPITAL", "rule:possessive_business", 0.85))
    return out


#: A clinician's affiliation after the credential: "PRIYA MENON, MD - PASADENA HEART & VASCULAR", "M. LARSEN, MD (REVERE
#: HEALTH)", "GUNNAR STRAND, MD - KOOTENAI CLINIC CARDIOLOGY".
_AFFILIATION_RE = re.compile(
    r"(?=[mdnpfa])\b(?:md|m\.d\.|do|np|pa-c|dpm|fnp|aprn)[ \t]*(?:[-–][ \t]*|\()([A-Za-z][A-Za-z&'’. -]{2,60}?)(?=[ \t]*(?:\)|\n|$|,|;|[ \t]{2}))",
    re.IGNORECASE,
)
#: The same after a comma: after the credential ("Lorne Whitfield, DO, MultiCare Rockwood Clinic") or after a doctor's
#: name of one to three words ("PCP DR. ROSALIND HUDGENS, KOSCIUSKO PEDIATRIC CLINIC", "dr feldstein, northshore gi");
#: there the last word must say what kind of place.
_COMMA_AFFILIATION_RE = re.compile(
    r"(?=[mdnpfa])(?:\b(?:md|m\.d\.|do|np|pa-c|dpm|fnp|aprn)|\b(?:dr|doctor)\.?[ \t]+(?:[A-Za-z][A-Za-z'’-]*\.?[ \t]+){0,2}[A-Za-z][A-Za-z'’-]+)"
    r",[ \t]*([A-Za-z][A-Za-z&'’. -]{2,60}?)(?=[ \t]*(?:\)|\n|$|,|;|[ \t]{2}|[ \t]-[ \t]))",
    re.IGNORECASE,
)
#: Last words that close a practice's name after a comma (beside the heads): short forms of specialties.
_COMMA_AFFILIATION_LAST = frozenset("gi ent ortho cards peds derm obgyn ob/gyn uro neuro psych pulm renal".split())


def find_affiliations(text: str) -> list[Candidate]:
    """The practice or institution a clinician signs for, after the credential and a dash or in parentheses ("PRIYA
    MENON, MD - PASADENA HEART & VASCULAR", "M. LARSEN, MD (REVERE HEALTH)") or after a comma and a kind of place
    ("DR. ROSALIND HUDGENS, KOSCIUSKO PEDIATRIC CLINIC"): one to six words, none clinical but a
    head or a specialty after the first, with a word no care vocabulary lists ("MD - Cardiology", "MD (PCP)",
    "MD - on call" name none)."""
    if "-" not in text and "(" not in text and "–" not in text and "," not in text:
        return []
    (CARE_WORDS, CREDENTIALS, ROLES, SERVICES, TITLES, C, N, U, classify) = (
        _E.CARE_WORDS, _E.CREDENTIALS, _E.ROLES, _E.SERVICES, _E.TITLES, _E.C, _E.N, _E.U, _E.classify
    )
    FUNCTION_WORDS = _L.FUNCTION_WORDS

    out = []
    comma = _COMMA_AFFILIATION_RE.finditer(text) if "," in text else ()
    for m in (*_AFFILIATION_RE.finditer(text), *comma):
        words = list(_WORD.finditer(m.group(1)))
        if not 1 <= len(words) <= 6:
            continue
        lows = [w.group().lower().replace("’", "'") for w in words]
        while len(lows) > 1 and lows[-1] in SPECIALTY_HEADS and (lows[-2] in HEADS or lows[-2] in _E.HOSPITAL_HEADS):
            del lows[-1], words[-1]  # ("Harmon Clinic cardiology": the clinic's service, as after a hospital's name)
        if m.re is _COMMA_AFFILIATION_RE and not (
                lows[-1] in HEADS or lows[-1] in _E.HOSPITAL_HEADS or lows[-1] in _COMMA_AFFILIATION_LAST):
            continue  # ("Dr Lee, on call", "Jane Roe, MD, FACC": no kind of place closes it)
        if any(w in FUNCTION_WORDS and w not in ("of", "the", "and") or w.endswith(("ing", "ed")) and classify(w) != N for w in lows) \
                or lows[0] in GENERIC_QUALIFIERS or len(lows) == 1 and classify(lows[0]) not in (N, U):
            continue  # ("NP - covering", "MD - retired": a state, no place)
        if any(w in ROLES or w in TITLES or w in CREDENTIALS for w in lows):
            continue  # ("MD (renal fellow)": the clinician's role)
        distinctive = [w for w in lows if w not in SERVICES and w not in CARE_WORDS and w not in HEADS and w not in MODIFIERS
                       and w not in SPECIALTY_HEADS and classify(w) != C and w not in ("of", "the", "and")]
        # ("DR. X, HEART & VASCULAR ASSOCIATES": services before a practice's head name a practice)
        practice = len(lows) >= 2 and lows[-1] in ("associates", "partners", "physicians", "specialists", "consultants") \
            and all(w in SERVICES or w in CARE_WORDS or w in SPECIALTY_HEADS or w in MODIFIERS or w in ("and", "&") or classify(w) == C
                    for w in lows[:-1])
        if m.re is _COMMA_AFFILIATION_RE and not any(classify(w) in (N, U) for w in distinctive) and not practice:
            continue  # ("MD, Addiction Medicine", "MD, Child Protection Program": a service, in everyday words)
        if not distinctive and not practice or any(classify(w) == C and w not in HEADS and w not in SPECIALTY_HEADS and w not in MODIFIERS
                                  and w not in SERVICES and w not in _TOPONYM_WORDS for w in lows):
            continue
        base = m.start(1)
        out.append(Candidate(base + words[0].start(), base + words[-1].end(), "HOSPITAL", "rule:affiliation", 0.85))
    return out


def repeated_institution_words(text: str, cands: list[Candidate]) -> list[Candidate]:
    """Other mentions of an institution's distinctive word ("seen in sentinel ortho clinic ... transferred from
    sentinel"): the same word elsewhere in the note, in any letter case, names the same place.

    Only a word a name lexicon lists or none knows (four letters or more), or a rare everyday word ("sentinel",
    "lakeside"), never one of kind, care or time, and not where a clinical word follows ("sentinel lymph node").
    """
    if not any(c.category == "HOSPITAL" for c in cands):
        return []
    CARE_WORDS, SERVICES, C, N, U, classify, zipf = _E.CARE_WORDS, _E.SERVICES, _E.C, _E.N, _E.U, _E.classify, _E.zipf
    FUNCTION_WORDS = _L.FUNCTION_WORDS

    low = text.lower()
    words: set[str] = set()
    seen: set[str] = set()
    for c in cands:
        if c.category != "HOSPITAL":
            continue
        for m in _LETTERS.finditer(low, c.start, c.end):
            w = m.group()
            if w in seen:
                continue
            seen.add(w)
            if len(w) < 4 or low.count(w) < 2 or w in HEADS or w in MODIFIERS or w in FUNCTION_WORDS \
                    or w in GENERIC_QUALIFIERS or w in SERVICES or w in CARE_WORDS or w in DATE_WORDS or w in UNIT_AFTER:
                continue
            cls = classify(w)
            if cls in (N, U) or cls != C and zipf(w) < 3.6:
                words.add(w)
    if not words:
        return []
    # the found spans, merged: a mention inside one is found already (one bisection per mention)
    merged: list[list[int]] = []
    for a, b in sorted((c.start, c.end) for c in cands):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    starts = [a for a, _ in merged]
    out = []
    for m in _LETTERS.finditer(low):
        w = m.group()
        if w not in words:
            continue
        i = bisect_right(starts, m.start()) - 1
        if i >= 0 and m.start() < merged[i][1]:
            continue
        nxt = _NEXT_TOKEN.match(low, m.end())
        if nxt is not None and classify(nxt.group(1)) == C and nxt.group(1) not in UNIT_AFTER:
            continue  # "sentinel lymph node", "providence of ..." stays
        out.append(Candidate(m.start(), m.end(), "HOSPITAL", "rule:institution_repeated", 0.85))
    return out


#: Months and weekdays, full and short (a capitalised one ends an institution's run: "Mercy Clinic Monday").
_CALENDAR_WORDS = frozenset(
    """
january february march april may june july august september october november december jan feb mar apr jun jul aug sep
sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
""".split()
)
DATE_WORDS = _CALENDAR_WORDS | frozenset("today tonight tomorrow yesterday weekend weekday morning evening night overnight".split())
def _mixed_line(text: str, pos: int, cache: dict[int, bool]) -> bool:
    """Is the line around ``pos`` written in mixed case, as the word classes read a line's case? (``cache``: by line start)"""
    _line_case = _E._line_case

    ls = text.rfind("\n", 0, pos) + 1
    hit = cache.get(ls)
    if hit is None:
        le = text.find("\n", pos)
        hit = cache[ls] = _line_case(text, ls, le if le >= 0 else len(text)) == "mixed"
    return hit


#: Words that say what kind of institution, not which one ("community hospital", "county clinic", "mail-order
#: pharmacy", "referring hospital", "BLS ambulance"), beside the qualifiers and services of the lexicons.
_KIND_ONLY = frozenset(
    """
community county city town state federal free device charity retail main weekend weekday referring receiving sending
accepting transferring mail order pre-op preop post-op hf nephro bls als short-term long-term campus jail
teaching affiliated partner sister surg peds rural urban critical access small large tertiary quaternary
""".split()
)


#: Faiths name charities and hospitals ("Catholic Family Services", "Baptist Hospital"), though a bare "to a catholic
#: school" names none.
_FAITHS = frozenset("catholic christian baptist methodist lutheran jewish episcopal presbyterian bible faith".split())
#: Heads that stand for one institution the note names elsewhere ("f/u w/ University Health and Counseling Services").
_SCHOOLS = frozenset("university college academy institute".split())


def names_no_institution(words: list[str]) -> bool:
    """Do ``words`` (lower case; a name's words before its head) only say what kind of institution it is ("outside",
    "community", "county jail", "mail-order")? Then the phrase names none."""
    (CARE_WORDS, GENERIC_BEFORE_HEAD, SERVICES, C, classify) = (
        _E.CARE_WORDS, _E.GENERIC_BEFORE_HEAD, _E.SERVICES, _E.C, _E.classify
    )

    parts = [p for w in words for p in re.split(r"[-/\s]+", w.strip(".,'’")) if p]
    return bool(parts) and all(
        p in _KIND_ONLY or p in GENERIC_QUALIFIERS and p not in _FAITHS or p in GENERIC_BEFORE_HEAD or p in _KINDS_BEFORE_UNIT or p in SERVICES
        or p in CARE_WORDS or p in HEADS and p not in _SCHOOLS or classify(p) == C for p in parts
    )


#: Everyday words rare enough to pass for a name that say which kind of unit ("specialty pharmacy", "satellite lab"),
#: and verbs of telling that open a line before one ("notify pharmacy", "page ortho").
_KINDS_BEFORE_UNIT = frozenset(
    """
specialty satellite freestanding continuity faculty compounding refill transitional bridge intake admitting triage
express suburban holding recovery overflow observation stat micro chem heme blood tox reference
notify inform consult alert clarify verify confirm contact page call fax email text message update ask tell refer
discuss check request send sent call called paged notified pharma sales device company insurance union vendor
pending trough peak random coag coags preop postop serial repeat surveillance screening covid
""".split()
)
_ADJECTIVE_ENDINGS = ("al", "ic", "ive", "ous", "ary", "ent", "ant", "ible", "able", "ful", "less", "ish")
_SENTENCE_END = re.compile(r"(?:[.!?:]\s+|\n\s*)$")


def _sentence_start(text: str, pos: int) -> bool:
    """Does a sentence, a field's value or a line start at ``pos``?"""
    return pos == 0 or _SENTENCE_END.search(text, max(0, pos - 8), pos) is not None


# evidence imports this module at its top: the finders read its names (and the lexicons') through the module objects at
# call time, bound once here instead of an import statement in every call (a few microseconds each)
from clinx.text import evidence as _E  # noqa: E402
from clinx.text import lexicons as _L  # noqa: E402

__all__ = ["articles_of_institutions", "at_names_of_institutions", "openers_of_institutions", "find_affiliations", "find_capitalised_institutions", "find_kinds_of_places", "find_placement_replies", "join_institution_parts", "names_no_institution", "repeated_institution_words", "find_hospital_acronyms", "find_institutions_before_units", "find_parenthesised_institutions", "find_described_businesses", "find_employers", "find_businesses_on_bare_streets", "BUSINESS_KINDS", "find_institution_fields", "find_header_institutions", "complete_institutions", "find_bare_institutions", "HEADS", "MODIFIERS", "OF_HEADS", "STRONG_HEADS"]
