"""Names, institutions and places decided on evidence, in any letter case.

Capitalisation says little in clinical notes: whole notes are in capitals
(``PMH: CAD, S/P MI``), whole notes in lower case (``dr hunter aware``), and
headers shout (``MENTAL STATUS CHANGES``). So this pass decides from
lexicons and context, and uses letter case only as weak extra evidence in
mixed-case lines.

Every word token gets a class from :mod:`clinx.text.lexicons`:

* ``C`` clinical (abbreviation, drug, anatomy, finding) or a function word — never PHI;
* ``N`` a name and nothing else (in the first/last name lists, not an everyday word: "okafor", "angela");
* ``A`` ambiguous: a name that is also an everyday word ("hope", "will", "grace", "hunter");
* ``U`` unknown: in no lexicon, not everyday English ("wojciechowska", "baystate");
* ``W`` an everyday word that is no name.

Then, on evidence:

* after a title (``dr``, ``mrs``) or a relation (``wife``, ``son``, ``dtr``): the next
  N/A/U tokens are a name (``wife Hope``, ``dr hunter``);
* after a role (``rn``, ``pcp``, ``attending``) or a label (``name:``, ``pt``,
  ``d/w``, ``called``): the next N/U tokens (not A: ``pt will``);
* before a credential (``, MD``, ``RN``, ``PA-C``): the N/A/U tokens before it;
* no cue: a run of N/A/U tokens holding an N is a name when it has two tokens or
  the N is long enough to be no abbreviation ("RODRIGUEZ, CARMEN", "sato");
* institutions: tokens before a head word (``hospital``, ``medical center``,
  ``clinic``, ``rehab``, ``medical associates``…), names from the hospital list
  (``harvard vanguard``, ``MGH``), ``st marys``, N/U/acronym tokens after ``seen at``,
  ``transferred from``, ``at``, ``to``, or two capitalised words there in mixed case;
* places: the places lexicon (not everyday words), tokens after ``lives in``,
  ``from``, and ``Town, MA``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple

from clinx.text.base import NAME_PLACEHOLDER_RE, PLACEHOLDER_RE, Candidate
from clinx.text.recognizers import HOUSE_NUMBER_BEFORE_RE, TokenMatch
from clinx.text.clinical import EPONYM_HEADS, EPONYMS, PAIRED_SIGNS, SPECIES
from clinx.text.institutions import _LAST_WORD, _TOPONYM_WORDS, DATE_WORDS, NAME_ABBREVIATIONS, UNIT_AFTER, names_no_institution
from clinx.text.lexicons import (
    AMBIGUOUS_NAMES,
    FUNCTION_WORDS,
    GIVEN_NAMES_FIRST,
    clinical_vocab,
    everyday_names,
    first_names,
    fold,
    hospital_names,
    hospitals,
    is_clinical_term,
    last_names,
    nicknames,
    ordinary_words,
    organisation_names,
    places,
    short_forms,
    zipf,
)

TITLES = frozenset(
    "dr drs doctor mr mrs ms miss mx prof professor rabbi rev reverend pastor imam fr "
    # police and military ranks before a surname ("spoke with Sgt. Young", "OFFICER RAMOS", "det. reilly")
    "sgt sergeant ofc officer det detective lt lieutenant capt cpt trooper deputy cpl "
    # a lawyer ("public defender atty greenbaum"; "attorney" is a word of its own: "attorney general")
    "atty "
    # clergy ("Deacon Mills visited"; not "bishop", a surname as often: "niece/hcp ann bishop"); a judge ("HON. PATRICIA SZYMANSKI")
    "deacon hon".split()
)
RELATIONS = frozenset(
    """
wife husband husb hubby sibling siblings son sons daughter daughters dtr dau sister sisters brother brothers bro sis mother mom mum father dad
son-in-law daughter-in-law dtr-in-law dau-in-law mother-in-law father-in-law brother-in-law sister-in-law sil dil stepsister stepbrother
grandchild grandniece grandnephew godson goddaughter caregiver
niece nephew grandson granddaughter grandmother grandfather grandma grandpa granddtr partner boyfriend girlfriend bf gf
fiance fiancee spouse friend neighbor neighbour roommate aunt uncle cousin guardian stepson stepdaughter
stepmother stepfather stepmom stepdad step-mom step-dad hcp poa proxy escort ex-partner ex-wife ex-husband ex-boyfriend ex-girlfriend boss coworker co-worker
fob foc youngest oldest eldest parents grandparents
great-grandson great-granddaughter great-grandchild great-grandmother great-grandfather great-aunt great-uncle great-niece great-nephew
half-sister half-brother half-sib step-son step-daughter step-sister step-brother step-mother step-father stepmum step-mum
grand-daughter grand-son grand-niece grand-nephew godmother godfather god-mother god-father foster-mom foster-mother foster-dad foster-father foster-parent
""".split()
)
ROLES = frozenset(
    """
rn np pa pcp chr attending fellow resident intern surgeon cardiologist oncologist nephrologist neurologist endoscopist
anesthesiologist radiologist pathologist consultant tech technician midwife coach mgr manager nurse physician
therapist operator provider hospitalist intensivist dentist pharmacist crna surgeon: chaplain interpreter ot pt/ot slp
rt rrt sw cna pct staff aide pca sitter secretary receptionist coordinator director supervisor liaison educator counselor
dietitian nutritionist rd caseworker advocate sponsor landlord mentor tutor doula foreman physio
paramedic sonographer technologist scribe medic dispatcher attg worker volunteer phlebotomist student spta pta nightfloat trainer
rns lpns cnas nps
hha rep member
cnm lpn lvn aprn fnp dnp nnp cnp pnp whnp pmhnp lcsw cde cdces
babysitter nanny housekeeper teammate classmate
emt emt-p emt-b emt-i aemt
""".split()
)
LABELS = frozenset(
    """
name patient pt re ref attn signed dictated transcribed typed read seen discussed spoke called paged notified per by
referred referring ordering accepting contact dw d/w call caller nok kin crew
""".split()
)
#: Words that give a name outright ("a woman named Hope", "goes by Bud, aka Walter"): even an everyday word after one.
_NAMING_WORDS = frozenset("named nicknamed aka nickname".split())
#: Nouns after which "is" gives a person's name ("her name is Dawn").
_NAME_NOUNS = frozenset("name nickname".split())
#: Where "see" points ("Typed: see below", "Signed: see above"): a field filled elsewhere, no surname See.
_SEE_WHERE_RE = re.compile(r"[ \t]+(?:below|above|attached|scanned|media|chart|note|h&p|addendum)\b", re.I)
#: The end of a clause after a name: punctuation, a line end or the text's end.
_CLAUSE_END_RE = re.compile(r"[ \t]*(?:[,.;:)!?]|\n|$)")
# labels after which an ambiguous word is still not a name ("pt will", "called back")
_WEAK_LABELS = frozenset("patient pt by per called seen read contact call".split())
#: Verbs of care before "by": the surname after them may be an everyday word too ("seen by smith", "EVALUATED BY HILL").
_BY_VERBS = frozenset(
    "seen evaluated examined assessed followed managed reviewed cosigned co-signed consulted called paged visited "
    "dictated transcribed signed authored documented".split()
)
CREDENTIALS = frozenset(
    """
md m.d do d.o rn np pa pa-c phd dpt licsw lcsw otr otr/l crna rvt facc facs cnm lpn lvn mph msw pharmd dds dmd
ccc-slp cde aprn fnp anp dnp bsn rd ldn rrt ccrn cnp pnp pnp-bc fnp-bc anp-bc cwocn cwon wocn cwcn cns acnp msn ccm lmhc lpc lmft lcsw-r psyd
pgy emt emt-a emt-b emt-i emt-p nremt aemt acp ccp
rdcs rdms rcs rvs rcis chpn chp cen cnor ocn cpn cnrn cpht ibclc cdces atc fnp-c agacnp agacnp-bc pmhnp whnp cpnp rnc
cna ascp bcps bcop nnp ccds
chw cadc ladc lcpc lpcc cpss bcba rbt lcdc lmsw lsw mft lmt ld phn
lisw cota cacp
dpm rph cht fuhm cws cwcs rhit rhia chaa rdn rpsgt faan faap faafp facep facog fasn
mbbs mbchb frcp frcpc frcs frcsc mrcp mrcgp ccfp ccfp-em fracgp fracp fanzca rpn rgn rmn
""".split()
)
HOSPITAL_HEADS = frozenset(
    """
hospital hospitals clinic clinics infirmary rehab rehabilitation healthcare hospice institute sanatorium memorial vanguard
associates hosp ambulance pharmacy medflight association vna manor church temple synagogue mosque parish house village
airport shelter charities society foundation mission commission authority ministries coalition inn health
inc llc llp ltd corp opco chapel clubhouse club
mortuary crematory transit paratransit staffing pub tavern fitness gym mutual dme
school university college academy daycare preschool childcare montessori
""".split()
)
# two-word heads ("medical center", "health center", "home health", "skilled nursing", "eye and ear")
HOSPITAL_HEAD_PAIRS = frozenset(
    {
        ("medical", "center"), ("medical", "centre"), ("health", "center"), ("health", "centre"), ("med", "ctr"),
        ("home", "health"), ("skilled", "nursing"), ("nursing", "home"), ("community", "care"), ("health", "alliance"),
        ("health", "system"), ("cancer", "center"), ("cancer", "institute"), ("medical", "group"), ("surgical", "clinic"),
        ("nursing", "facility"), ("care", "center"), ("rehab", "center"), ("eye", "ear"), ("general", "hospital"),
        ("medical", "associates"), ("internal", "medicine"), ("family", "medicine"), ("family", "practice"),
        ("senior", "life"), ("senior", "living"), ("primary", "care"), ("urgent", "care"), ("health", "care"),
        ("medical", "practice"), ("physician", "group"), ("physicians", "group"), ("assisted", "living"),
        ("nursing", "center"), ("nursing", "centre"), ("rehabilitation", "center"), ("health", "services"),
        ("food", "bank"), ("food", "pantry"), ("elder", "services"), ("senior", "services"), ("visiting", "nurse"),
        ("trauma", "center"), ("counseling", "center"), ("wellness", "center"), ("recovery", "center"),
        ("treatment", "center"), ("home", "care"),
        # schools: the kind of school is part of the head ("Libertyville High School", "Arlington Elementary School")
        ("high", "school"), ("elementary", "school"), ("middle", "school"), ("grammar", "school"), ("charter", "school"),
        ("community", "college"),
        # services and centres named for a place or a person ("Bay State Community Services", "Capital District
        # Spine Center"); alone ("referred to community services") they name no one
        ("community", "services"), ("family", "services"), ("human", "services"), ("counseling", "services"),
        ("spine", "center"), ("heart", "center"), ("eye", "center"), ("surgery", "center"), ("surgical", "center"),
        ("imaging", "center"), ("dialysis", "center"), ("kidney", "center"), ("sleep", "center"), ("pain", "center"),
        ("birth", "center"), ("vein", "center"), ("orthopedic", "center"), ("diagnostic", "imaging"),
        # the rest of a community's institutions: funeral homes, day care, transport companies
        ("funeral", "home"), ("funeral", "homes"), ("funeral", "chapel"), ("funeral", "service"), ("day", "care"),
        ("child", "care"), ("learning", "center"), ("nursery", "school"), ("bus", "lines"), ("bus", "line"),
        ("bus", "company"), ("cab", "company"), ("taxi", "company"), ("air", "medical"), ("air", "ambulance"),
        # suppliers of durable medical equipment ("TIER MEDICAL EQUIPMENT", "Keystone Medical Supply")
        ("medical", "equipment"), ("medical", "supply"), ("medical", "supplies"),
    }
)
#: Services and departments: "PULM CLINIC", "anticoag clinic", "Cardiology clinic" are no institutions' names.
SERVICES = frozenset(
    """
cardiology cards pulm pulmonary pulmonology anticoag anticoagulation fracture surgical surgery breast bridge ortho orthopedic
orthopaedic urgent dermatology derm oncology onc neurology neuro nephrology renal gi memory sleep pain wound infusion dialysis
transplant primary care walk-in eye ent urology uro endocrine endocrinology rheumatology rheum allergy vascular spine hand
sports travel fertility prenatal ob gyn obstetric pediatric peds geriatric geriatrics psychiatry psych behavioral methadone
smoking cessation lipid diabetes heart lung liver kidney cancer stroke trauma rehab clinic clinics outpatient inpatient
failure headache seizure epilepsy movement asthma osteoporosis vein thyroid fibrosis continence bone hiv hepatology coumadin
inr warfarin dental dentistry
same follow-up follow up the this that our your their his her a an in at to from with
""".split()
)
#: Words before a head that say what kind of care, not whose: "RECOMMEND REHAB", "short term rehab", "outside hospital".
GENERIC_BEFORE_HEAD = frozenset(
    """
recommend recommended recommends recommending rec recs need needs needed require requires required requiring short long term acute
declined declines decline refused refuses refuse accepted accepts requested requests
subacute inpatient outpatient local outside nearby area nearest another other any same day rehab nursing skilled resident
adult
residents discharge discharged dc d/c home private further continued continue ongoing possible potential prior previous
likely unlikely probably probable possibly maybe perhaps eventual eventually ultimately anticipate anticipated expect
expected consider considering either vs versus then
""".split()
)
#: Nouns after which a hospital head word is an adjective ("Brief Hospital Course", "hospital stay", "Clinic
#: Visit", "Nursing Home Placement"): no institution is named.
HEAD_AS_ADJECTIVE = frozenset(
    """
course stay stays day days admission admissions readmission discharge acquired policy policies staff bed beds visit
visits follow-up followup f/u setting settings record records placement level admit note notes appointment appt
student students education educated degree graduate grad nurse nurses age aged teacher teachers counselor bus year years
van vans shuttle
""".split()
)
#: Units of time, which Title-Case text capitalises ("Return to Clinic in Three Months"): never a place.
TIME_WORDS = frozenset("second seconds minute minutes hour hours day days week weeks month months year years".split())
#: Occupations, which social histories capitalise ("retired Teacher", "works as Electrician"): never a place or a name.
OCCUPATIONS = frozenset(
    """
teacher nurse engineer lawyer attorney carpenter plumber electrician mechanic driver cashier waitress waiter cook chef
janitor custodian farmer fisherman firefighter officer soldier veteran accountant pharmacist dentist secretary clerk
student homemaker housewife contractor painter roofer mason welder machinist salesman saleswoman manager supervisor
laborer landscaper trucker bartender barber hairdresser nanny babysitter caregiver aide librarian professor banker
""".split()
)
#: Capitalised words that follow a venue cue without naming a venue ("seen at Home", "transferred to Floor").
_GENERIC_VENUES = frozenset("home floor rest bedside baseline night work school church this that".split())
#: Words of units, departments and kinds of care, which title-case notes capitalise ("transferred from
#: Emergency Department", "seen at Urgent Care", "Step Down Unit"): never an institution's own name.
CARE_WORDS = SERVICES | _GENERIC_VENUES | frozenset(
    """
emergency department dept assisted living internal medicine surgery surgical service services unit units step down day
facility facilities agency outside medical intensive care acute ward icu hospital hospitals center centre program
""".split()
)
VENUE_CUES = frozenset("at from to in".split())
VENUE_PAIRS = frozenset(
    {("seen", "at"), ("transferred", "from"), ("transferred", "to"), ("admitted", "to"), ("treated", "at"), ("works", "at"),
     ("rehab", "at"), ("done", "at"), ("performed", "at"), ("referred", "to"), ("sent", "from"), ("care", "at"),
     ("followed", "at"), ("hospitalized", "at"), ("bx", "at"), ("dx", "at"), ("cath", "at"), ("ed", "at"),
     ("transfer", "to"), ("transfer", "from"), ("tx", "to"), ("sent", "to"),
     # transfer written short ("tx'd to srh", "xfer from pvmc")
     ("tx'd", "to"), ("txd", "to"), ("tx'd", "from"), ("xfer", "to"), ("xfer", "from"), ("xferred", "to"), ("xferred", "from"),
     ("xfered", "to"), ("transfered", "to"), ("transfered", "from")}
)
#: "d/c to", "d/c'd to", "dc'd to": discharge written short ("d/c" is the tokens "d" and "c").
_DISCHARGED_TO = frozenset({("c", "to"), ("c'd", "to"), ("dc'd", "to"), ("dcd", "to"), ("dced", "to")})
#: Cues that place a patient in an institution ("return to the willows", "transferred to broadway", "resident of
#: the pines"): after one, an everyday word (or "the" and everyday words) up to a clause's end names the place.
PLACEMENT_PAIRS = frozenset(
    {("return", "to"), ("returns", "to"), ("returned", "to"), ("returning", "to"), ("back", "to"), ("discharged", "to"),
     ("discharge", "to"), ("dc", "to"), ("sent", "to"), ("transport", "via"), ("transported", "via"), ("transportation", "via"), ("sent", "from"), ("transferred", "to"), ("transferred", "from"),
     ("transfer", "to"), ("transfer", "from"), ("tx", "to"), ("admitted", "to"), ("admitted", "from"), ("resident", "of"),
     ("lives", "at"), ("living", "at"), ("stays", "at"), ("stayed", "at"), ("staying", "at"), ("previously", "at"),
     ("referred", "to"), ("placement", "at"), ("bed", "at"), ("accepted", "at"), ("accepted", "to"), ("program", "at"),
     ("programme", "at")}
) | _DISCHARGED_TO
#: ... of which these may put a lone everyday word there without "the" ("transferred to broadway"; not "back to sleep").
_LONE_PLACEMENT = frozenset(
    {("sent", "to"), ("transferred", "to"), ("transferred", "from"), ("transfer", "to"), ("tx", "to"), ("admitted", "from"),
     ("discharged", "to"), ("dc", "to"), ("accepted", "at"), ("accepted", "to"), ("bed", "at"), ("transport", "via"),
     ("transported", "via"), ("transportation", "via")}
) | _DISCHARGED_TO
#: Everyday words after a placement cue that name no institution: rooms, furniture, states of care, the world at large.
_NOT_A_VENUE = frozenset(
    """
floor chair bed beds stretcher wheelchair recliner commode toilet bathroom bathrooms shower hall hallway lobby room rooms
unit units ward wards area areas bedside baseline normal sleep work school home house family care custody police jail prison
court security morgue street streets shelter shelters community communities car cars office offices clinic clinics lab labs
states state city country countryside island islands mainland north south east west woods beach same next nearest closest
local usual regular previous prior new old other others own services service team teams doctor doctors nurse nurses
parents children kids friends relatives family's observation holding waiting stairs outside inside side left right top
bottom front back end point level site touch time times moment ground table desk window door sink
""".split()
)
#: Heads that name an organisation only after a name or a word no lexicon knows ("Cole Center", "Eliot Community";
#: not "trauma center", "the community") or, for "sons", after a found name and "&" ("Kfoury & Sons").
_SOFT_HEADS = frozenset("center centre community sons".split())
#: Words for the patient before "from the ..." ("93 yo f from the oaks", "pt from the pines"): where the patient lives.
_PATIENT_WORDS = frozenset("pt patient yo y/o yof yom f m man woman male female resident".split())
#: A choice between institutions ("FAMILY PREFER FAIRLAWN", "pt prefers emerson"): a venue cue of its own.
_PREFER = frozenset("prefer prefers preferred preference".split())
#: Words after a placement run that close it as an institution's name ("the willows nursing home", "the bridge
#: outpatient program", "quirk admissions"), and clause words that end it.
_PLACEMENT_TAIL = frozenset(
    "nursing assisted rehab admissions outpatient program programs adult day facility residence senior housing apartments "
    "retirement".split()
)
_PLACEMENT_STOP = frozenset(
    "on for in at with via and or when until after before yesterday today tonight tomorrow this last next since per by w "
    # (the state of a placement: "respite bed at the meadows pending", "rosewood accepted")
    "pending accepted approved declined confirmed avail available".split()
)
#: Work and transport cues: what follows names an employer or a service ("works for Raytheon", "employed
#: by Fidelity", "intubated by Boston MedFlight"), even a capitalised everyday word in mixed case.
EMPLOYER_PAIRS = frozenset(
    {("works", "for"), ("worked", "for"), ("working", "for"), ("works", "at"), ("worked", "at"), ("working", "at"),
     ("employed", "by"), ("employed", "at"), ("retired", "from"), ("volunteers", "at"), ("intubated", "by"),
     ("transported", "by"), ("brought", "by"), ("transferred", "by"), ("run", "by"), ("operated", "by"), ("managed", "by")}
)
#: Jobs whose "for"/"at" names the employer ("driver for UPS", "CASHIER AT MARKET BASKET", "grad student at
#: northeastern": a student's school); not the care team's own roles ("nurse at bedside", "aide for pt").
_JOB_NOUNS = frozenset(
    """
driver cashier mechanic clerk teacher engineer accountant custodian janitor contractor electrician plumber carpenter
landscaper cook chef server waiter waitress bartender nanny machinist welder laborer foreman salesman saleswoman
bookkeeper receptionist guard firefighter officer librarian pharmacist programmer analyst banker teller
student freshman sophomore undergrad professor
""".split()
)
#: Workers an agency sends, whose "from" names the agency ("DV ADVOCATE FROM HAVEN", "sitter from Accurate").
_AGENCY_WORKERS = frozenset("advocate sitter aide caseworker rep representative counselor interpreter chw".split())
EMPLOYER_PAIRS = EMPLOYER_PAIRS | frozenset((job, prep) for job in _JOB_NOUNS for prep in ("for", "at")) \
    | frozenset((worker, "from") for worker in _AGENCY_WORKERS)
VENUE_PAIRS = VENUE_PAIRS | EMPLOYER_PAIRS
_WORK_VERBS = frozenset("works worked working employed retired volunteers".split())
#: Words after a work cue that say how long or how, not for whom ("works for years", "retired from teaching").
_NOT_EMPLOYER_WORD = frozenset(
    "years yrs months hours hrs days weeks decades now today living money cash free pay wages minimum long awhile "
    # (where an agency's worker comes from that is no agency: "advocate from court", "sitter from float pool")
    "court courts float pool insurance office da "
    # (how a student is, not where: "student at risk for falls", "student at times absent")
    "risk times least most first present baseline".split()
)
#: Capitalised words after a work cue that name no employer ("works for Family", "retired from Teaching").
# ("retired from the post office": the postal service)
_NO_EMPLOYER = frozenset("family friends police state city town county government himself herself myself self teaching post".split())
#: Kinds of workplace, which name no employer on their own ("works at the plant", "retired from the railroad",
#: "GO TO WORK AT THE MILL"; the blind writers and i2b2 leave them): an employer's name is "Tyson plant", "Wamsutta Mills".
WORKPLACE_KINDS = frozenset(
    """
plant plants factory factories mill mills warehouse warehouses farm farms ranch dairy orchard vineyard restaurant
restaurants diner cafe cafeteria bakery kitchen bar pub store stores shop shops mall outlet supermarket grocery market
garage dealership salon laundry laundromat hotel motel casino bank office offices site jobsite construction docks dock
port shipyard yard depot railroad railway refinery quarry mine mines plantation sawmill cannery foundry hospital school
daycare church airport airbase base fire station
""".split()
)
PLACE_CUES = frozenset({("lives", "in"), ("lives", "at"), ("living", "in"), ("resides", "in"), ("resident", "of"), ("home", "in"),
                        ("moved", "to"), ("moved", "from"), ("visiting", "family"), ("family", "in"), ("police", "in"), ("from", "in"),
                        # where someone lives or grew up, and where a relative lives ("son in dover")
                        ("lived", "in"), ("live", "in"), ("resided", "in"), ("residing", "in"), ("alone", "in"), ("up", "in"),
                        ("born", "in"), ("raised", "in"), ("originally", "from"), ("relocated", "to"), ("moving", "to"),
                        ("house", "in"), ("apartment", "in"), ("apt", "in"), ("condo", "in"),
                        ("son", "in"), ("daughter", "in"), ("sister", "in"), ("brother", "in"), ("mother", "in"), ("father", "in"),
                        ("parents", "in"), ("children", "in"), ("kids", "in"), ("family", "from")})
US_STATES = frozenset(
    "al ak az ar ca co ct de fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa ri sc "
    "sd tn tx ut vt va wa wv wi wy dc pr".split()
)
#: One-word heads of agencies named for the region they serve ("VNA of Cape Cod", "Association of Greater Attleboro").
_AGENCY_HEADS = frozenset("vna association agency".split())
_COMPASS_WORDS = frozenset("north south east west northeast northwest southeast southwest central".split())
#: Whose relation a parenthesis names after a name: "rose (pt's wife)", "Ana (his daughter)".
_WHOSE = frozenset("pt patient his her their".split())
_WHOSE_POSSESSIVE = frozenset("pt's patient's pt’s patient’s".split())  # (one token: "PT'S WIFE")
#: US state names (Safe Harbor keeps a state): on its own, after "lives in" or as a name run, no identifier.
#: ("new york" and "washington" are left out: a city's name too.)
STATE_NAMES = frozenset(
    """alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois
indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana
nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia wisconsin wyoming""".split()
) | frozenset({"new hampshire", "new jersey", "new mexico", "north carolina", "north dakota", "south carolina", "south dakota",
               "rhode island", "west virginia", "puerto rico"})
#: Countries (Safe Harbor keeps a country as it keeps a state): "born in Haiti", "family from puerto rico" name no one.
#: (Countries that are also given names, "India", "Jordan", "Chad", "Israel", are left to the name rules.)
COUNTRY_NAMES = frozenset(
    """haiti ireland mexico china vietnam brazil portugal guatemala honduras jamaica cuba colombia peru ecuador nigeria
ghana kenya ethiopia somalia sudan eritrea uganda congo cameroon liberia senegal morocco egypt lebanon syria iraq iran
afghanistan pakistan bangladesh nepal philippines korea japan cambodia laos thailand burma myanmar indonesia russia
ukraine poland greece italy germany france spain england scotland wales canada albania bosnia armenia venezuela chile
argentina bolivia trinidad barbados bahamas nicaragua panama guyana tanzania rwanda burundi zimbabwe algeria tunisia
yemen jamaica croatia serbia romania moldova lithuania latvia estonia belarus uzbekistan""".split()
) | frozenset({"cape verde", "dominican republic", "el salvador", "sierra leone", "sri lanka", "south korea", "north korea",
               "costa rica", "south africa", "saudi arabia", "united kingdom", "ivory coast", "south sudan"})
STATE_NAMES = STATE_NAMES | COUNTRY_NAMES
_MULTIWORD_STATES_ALTS = "|".join(sorted((re.escape(n).replace(r"\ ", r"[ \t]+") for n in STATE_NAMES if " " in n), key=len, reverse=True))
_MULTIWORD_STATES_RE = re.compile(r"(?i)(?<![\w-])(?:" + _MULTIWORD_STATES_ALTS + r")(?![\w-])")
# the same names, matched on the lower-cased text: three times faster than the case-insensitive scan (no
# lookbehind before an alternation, which keeps the engine from skipping to a possible first letter)
_MULTIWORD_STATES_LOW_RE = re.compile(r"(?:" + _MULTIWORD_STATES_ALTS + r")(?![\w-])")


_COUNTY_RE = re.compile(r"(?i)\b([a-z][a-z'’.-]{2,20})(?:[ \t]+([a-z][a-z'’.-]{2,20}))?[ \t]+county\b")
#: Words before "county" that name none ("the county", "a county worker", "Orange County" is one).
_NOT_COUNTY_NAME = frozenset("the a an this that our your his her their its same local another other every each which".split())


def find_counties(text: str) -> list[Candidate]:
    """A county by its name, in any case ("BERKSHIRE COUNTY OFFICE", "biddeford, essex county"): one or two words
    before "county" that are no function, clinical or relation word. A county is a subdivision smaller than a
    state, which Safe Harbor removes."""
    if "ounty" not in text and "OUNTY" not in text:
        return []
    out = []
    for m in _COUNTY_RE.finditer(text):
        words = [(m.start(g), m.end(g)) for g in (1, 2) if m.group(g)]
        while words and (text[words[0][0] : words[0][1]].lower() in _NOT_COUNTY_NAME or classify(text[words[0][0] : words[0][1]].lower()) == C):
            words.pop(0)
        if not words or any(classify(text[a:b].lower()) == C for a, b in words):
            continue
        out.append(Candidate(words[0][0], m.end(), "LOCATION", "evidence:county", 0.88))
    return out


_PLACE_FIELD_RE = re.compile(r"(?im)(?:^|(?<=  )|(?<=; ))[ \t]*(?:city|town|residence|hometown|home town)[ \t]*:[ \t]*")
_PLACE_FIELD_VALUE_RE = re.compile(r"[A-Za-z][A-Za-z'’.-]*(?:[ \t][A-Za-z][A-Za-z'’.-]*){0,2}")


#: An address field: its label, then the value to the line's end, two blanks, a bar, a parenthesis or a sentence's
#: end; it stops at its state and ZIP code ("ADDRESS: 27150 SCHOOLCRAFT, APT 212, DETROIT MI", "Home address: 14 Elm Ct, Quincy").
_ADDRESS_FIELD_RE = re.compile(
    r"(?im)(?:^|(?<=  )|(?<=; )|(?<=\| ))[ \t]*(?:home[ \t]+|street[ \t]+|mailing[ \t]+|pt[ \t]+|patient[ \t]+|current[ \t]+)?"
    r"(?:address|addr)\.?[ \t]*:[ \t]*([^\n|(;]*?)(?=[ \t]*(?:$|\n|  |\||\(|;|\.[ \t]))"
)
_ADDRESS_STATE_ZIP_RE = re.compile(r",?[ \t]+([A-Za-z]{2})\.?,?[ \t]+\d{5}(?:-\d{4})?(?!\d)")
#: A state's code or name at an address's end, which Safe Harbor keeps ("..., DETROIT MI", "..., Quincy, MA 02169").
_ADDRESS_STATE_TAIL_RE = re.compile(r"(?:,?[ \t]+([A-Za-z]{2})\.?)(?:,?[ \t]+\d{5}(?:-\d{4})?)?[ \t]*$")


def find_address_fields(text: str) -> list[Candidate]:
    """The value of an address field, a house and street, a unit, a town, up to the state it ends with; the ZIP code
    after the state is the ZIP rule's. A value without a digit or a place must still hold two words ("Address: on
    file", "address: see chart" name none)."""
    if "ddr" not in text and "DDR" not in text:
        return []
    out = []
    for m in _ADDRESS_FIELD_RE.finditer(text):
        value_start, end = m.start(1), m.end(1)
        value = m.group(1)
        state_zip = _ADDRESS_STATE_ZIP_RE.search(value)
        tail = _ADDRESS_STATE_TAIL_RE.search(value)
        if state_zip is not None and state_zip.group(1).lower() in US_STATES:
            end = value_start + state_zip.start()  # ("..., Racine WI 53403 (rental ...)": the address ends at its ZIP)
        elif tail is not None and tail.group(1).lower() in US_STATES:
            end = value_start + tail.start()
        words = value[: end - value_start].lower().split()
        if not words or words[0] in _NO_ADDRESS_VALUE or " ".join(words[:2]) in _NO_ADDRESS_VALUE:
            continue
        if not any(ch.isdigit() for ch in value) and len(words) < 2:
            continue
        out.append(Candidate(value_start, end, "LOCATION", "evidence:address_field", 0.88))
    return out


#: Values of an address field that give no address.
_NO_ADDRESS_VALUE = frozenset({"on", "see", "none", "n/a", "na", "unknown", "unk", "homeless", "undomiciled", "same", "verified",
                               "confirmed", "updated", "on file", "in chart", "see chart", "not given", "declined"})


def find_place_fields(text: str) -> list[Candidate]:
    """The town a field gives ("city: concord", "RESIDENCE: YAKIMA"): up to three words, none a clinical or function
    word, up to the field's end, in any case (a town named by an everyday word too)."""
    if ":" not in text:
        return []
    out = []
    for f in _PLACE_FIELD_RE.finditer(text):
        m = _PLACE_FIELD_VALUE_RE.match(text, f.end())
        if m is None or not _CLAUSE_END_RE.match(text, m.end()):
            continue
        words = m.group().lower().split()
        if any(w in FUNCTION_WORDS or classify(w) == C or w in STATE_NAMES for w in words) or " ".join(words) in STATE_NAMES:
            continue
        out.append(Candidate(m.start(), m.end(), "LOCATION", "evidence:place_field", 0.88))
    return out


#: Words that give the name a person goes by ("goes by 'T-Bone'", "aka Smokey", "known as Big Mike", "known to team
#: as 'big will'").
#: Companions and workers whose quoted word after them is the name they go by ("foreman \"big mike\"", "house mgr
#: \"Sully\""); not the patient, whose quotes hold speech ("pt \"fine\"").
_QUOTED_NAME_ROLES = frozenset("foreman buddy mgr manager sponsor roommate neighbor neighbour landlord coach mentor".split())
_NICKNAME_CUES = (r"goes[ \t]by|go[ \t]by|aka|a\.k\.a\.?|nicknamed?|known[ \t](?:to[ \t](?:[a-z]+[ \t]){1,2})?as"
                  r"|prefers[ \t]to[ \t]be[ \t]called|(?<=\()prefers|calls[ \t](?:him|her|them)self")
#: A nickname in quotes after such a word, or after a relative or a companion ("friend 'smokey' visits",
#: "foreman \"big mike\""): one or two words of letters, no longer than a name.
_NICKNAME_RE = re.compile(
    r"(?i)(?<![\w-])(?:(?P<cue>" + _NICKNAME_CUES + ")|" + "|".join(sorted((re.escape(w) for w in RELATIONS | _QUOTED_NAME_ROLES), key=len, reverse=True))
    + r")[ \t:]{1,3}[\"“'‘](?P<v>[a-z][a-z'’-]{0,14}(?:[ \t][a-z][a-z'’-]{0,14})?)[\"”'’](?![a-z])"
)
_NICKNAME_GATE_RE = re.compile(r"[\"“'‘]")
#: A nickname alone in quotes and parentheses right after a name ("Margaret Doyle ('peg')", "Walter Ruiz (\"Bud\")").
_NICKNAME_AFTER_NAME_RE = re.compile(
    r"(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t]\([ \t]?[\"“'‘](?P<v>[A-Za-z][A-Za-z'’-]{1,14}(?:[ \t][A-Za-z][A-Za-z'’-]{1,14})?)[\"”'’][ \t]?\)"
)

#: A nickname in parentheses alone or in quotes alone between a given name and a surname ("dolores (lola)
#: ferreira-mendes", "joyce \"joy\" hamid-baxter", "Nguyen Van Tho (Tho)"), and the surname after it.
_NICKNAME_BETWEEN_RE = re.compile(
    r"(?P<name>[A-Za-z][A-Za-z'’-]+)[ \t](?:\((?P<p>[A-Z][a-z'’-]{1,14}|[a-z][a-z'’-]{1,14}|[A-Z][A-Z'’-]{1,14})\)"
    r"|[\"“](?P<q>[A-Za-z][A-Za-z'’-]{1,14}|[A-Za-z]\.(?:[A-Za-z]\.){1,2})[\"”])(?:[ \t](?P<after>[A-Za-z][A-Za-z'’-]+))?"
)
#: What closes a header's field after a surname: two blanks or more, or the line's end ("ROBERT \"BOBBY\" MAY   DOB").
_FIELD_CLOSES_RE = re.compile(r"[ \t]{2,}|[ \t]*(?:\n|$)")


def find_nicknames(text: str) -> list[Candidate]:
    """The names people go by, in quotes after a word that gives one or after a relative ("goes by 'T-Bone'",
    "partner \"shorty\"", "FRIEND \"SMOKEY\" VISITS"), or in quotes and parentheses right after a name the lexicons
    list ("Margaret Doyle ('peg')"): NAME, whatever the words are (a nickname is most often one).

    A quoted value of function words after a relative ("wife 'is worried'") is speech, not a name.
    """
    first, last = _lex()[:2]
    out = _nicknames_between(text, first, last) if "(" in text or '"' in text or "“" in text else []
    if _NICKNAME_GATE_RE.search(text) is None:
        return out
    for m in _NICKNAME_RE.finditer(text):
        words = m.group("v").lower().split()
        if m.group("cue") is None and any(w in FUNCTION_WORDS or w in _NEVER for w in words):
            continue  # (after a naming cue the quotes hold the name whatever its words: "known as 'big will'")
        out.append(Candidate(m.start("v"), m.end("v"), "NAME", "evidence:nickname", 0.9))
    if "(" in text:
        short_forms = nicknames()
        for m in _SHORT_FORM_AFTER_GIVEN_RE.finditer(text):
            if m.group("v").lower() in short_forms.get(fold(m.group("given")), ()):
                out.append(Candidate(m.start("v"), m.end("v"), "NAME", "evidence:nickname", 0.9))
                # ("MARGARET (PEG)", "william (will)": the given name's own short form, whatever else it spells)
    for m in _NICKNAME_AFTER_NAME_RE.finditer(text):
        before, words = m.group("name").lower(), m.group("v").lower().split()
        if (before in first or before in last) and classify(before) in (N, A) \
                and not any(w in FUNCTION_WORDS or w in _NEVER for w in words):
            out.append(Candidate(m.start("v"), m.end("v"), "NAME", "evidence:nickname", 0.9))
    return out


#: A word in parentheses right after a given name ("MARGARET (PEG)"): its short form when the nickname table says so.
_SHORT_FORM_AFTER_GIVEN_RE = re.compile(r"(?<![\w'’-])(?P<given>[A-Za-z]{3,12})[ \t]\((?P<v>[A-Za-z]{2,8})\)")
#: A name in parentheses right after a found name, alone or after "goes by" ("[william] (will) [bui]", "(goes by bill)").
_PAREN_NICKNAME_AFTER_RE = re.compile(r"[ \t]\((?:(?P<cue>(?i:goes[ \t]by|aka|a\.k\.a\.|called|prefers))[ \t])?(?P<v>[A-Za-z][a-z'’-]{1,14}|[A-Z]{2,15})\)")
#: A nickname in quotes right after a found name, in parentheses or not ("[NAME] (\"Ben\")"), or right before one
#: ("pt: \"dutch\" [NAME]"), or before the legal name it stands for ("\"tiny\" (legal name [NAME])").
_QUOTED_AFTER_RE = re.compile(r"[ \t]\(?[ \t]?[\"“'‘](?P<v>[A-Za-z][A-Za-z'’-]{0,14}(?:[ \t][A-Za-z][A-Za-z'’-]{1,14})?)[\"”'’]")
_QUOTED_BEFORE_RE = re.compile(
    r"[\"“'‘](?P<v>[A-Za-z][A-Za-z'’-]{0,14}(?:[ \t][A-Za-z][A-Za-z'’-]{1,14})?)[\"”'’][ \t]{1,2}(?:\((?:legal|real|full)(?:[ \t]name)?:?[ \t]{1,2})?$",
    re.IGNORECASE,
)
#: A header's field or a line's start before a nickname written ahead of the name ("pt: \"dutch\" [NAME]").
_FIELD_START_BEFORE_RE = re.compile(r"(?:^|\n|:)[ \t]*$")


def nicknames_of_found_names(text: str, cands: list) -> list[Candidate]:
    """The quoted nickname beside a NAME candidate or a ``[NAME]`` placeholder (see :data:`_QUOTED_AFTER_RE`), as a
    NAME candidate: a later level's names, the model's, get the nickname L1 gives its own (:func:`find_nicknames`).
    Not a quotation of function words or note vocabulary ("[NAME] 'is worried'")."""
    spans = {(c.start, c.end) for c in cands if c.category == "NAME"}
    if "[" in text:
        spans.update(m.span() for m in NAME_PLACEHOLDER_RE.finditer(text))
    out = []
    first = _lex()[0]
    for s, e in sorted(spans):
        m = _PAREN_NICKNAME_AFTER_RE.match(text, e)
        v = m.group("v").lower() if m is not None else ""
        # (two letters: the name's own short form, written as a name or after "goes by": "Eduardo (Ed)", "[NAME]
        # (Mo)", "HADDAD (GOES BY MO)"; not "Smith (NP)", "(ED)", "(Jr)")
        no_title = v not in CREDENTIALS and v not in ROLES and v not in TITLES
        short = len(v) == 2 and no_title and v not in ("jr", "sr") \
            and (m.group("v")[0].isupper() and m.group("v")[1].islower() or m.start("v") > m.start() + 2) \
            and (text[s] == "[" or v[0] == text[s].lower())
        # ("(goes by ace)", "(aka tank)": after a word that gives the name any word but a function word is it)
        cue = (m.group("cue") or "").lower().replace("\t", " ") if m is not None else ""
        given = cue in ("goes by", "aka", "a.k.a.") and v not in FUNCTION_WORDS and v not in _NEVER and len(v) >= 3 \
            and (classify(v) != C or cue == "goes by")  # ("goes by ace": a person goes by a name, whatever else it spells)
        if short or given and no_title or v in first and len(v) >= 3 and classify(v) != C and no_title:
            # "son [william] (will) [bui]", "[william strand] (goes by bill)": a given name in parentheses after the name
            out.append(Candidate(m.start("v"), m.end("v"), "NAME", "evidence:nickname", 0.9))
        for m in (_QUOTED_AFTER_RE.match(text, e), _QUOTED_BEFORE_RE.search(text, max(0, s - 48), s)):
            if m is None:
                continue
            if m.start() < s and "(" not in text[m.end("v") : s] and not _FIELD_START_BEFORE_RE.search(text, max(0, m.start() - 16), m.start()):
                continue  # (before a name, only a header's nickname: "pt: \"dutch\" [NAME]"; not "said \"thanks\" [NAME]")
            words = m.group("v").lower().split()
            if any(w in FUNCTION_WORDS or w in _NEVER or classify(w) == C for w in words):
                continue
            out.append(Candidate(m.start("v"), m.end("v"), "NAME", "evidence:nickname", 0.9))
    return out


def _nicknames_between(text: str, first: frozenset, last: frozenset) -> list[Candidate]:
    """See :data:`_NICKNAME_BETWEEN_RE`: after a listed name, a nickname that is a given name (or the name's own word
    again) in parentheses, or any word but a function word in quotes; then a surname that is no everyday or
    clinical word ("(lola) ferreira-mendes"; not "(lola) says")."""
    out = []
    for m in _NICKNAME_BETWEEN_RE.finditer(text):
        before = m.group("name").lower()
        cls = classify(before)
        if before not in first and before not in last or not (cls == N or cls == A and m.group("name")[:1].isupper()):
            continue  # ("pt states \"fine\"": a verb that is a surname too, then speech)
        g = "p" if m.group("p") is not None else "q"
        nick = m.group(g).lower()
        if nick in FUNCTION_WORDS or nick in _NEVER or g == "p" and not (nick == before or nick in first and classify(nick) in (N, A)):
            continue  # ("Smith (HCP)", "Ana (son)": a role or a relation in parentheses, no nickname)
        out.append(Candidate(m.start(g), m.end(g), "NAME", "evidence:nickname", 0.9))
        after = m.group("after")
        closes_field = after is not None and _FIELD_CLOSES_RE.match(text, m.end("after")) is not None
        # (a surname that is a word too closes the header's field: "ROBERT \"BOBBY\" MAY   DOB"; not "\"Bo\" may come";
        # in mixed case a capitalised word that is no clinical or function word is the surname: "Rosalind \"Roz\" Peabody")
        titled = after is not None and after[:1].isupper() and after[1:].islower() and m.group("name")[1:].islower()
        if after is not None and all(classify(part) in (N, U) or part in last and (part not in FUNCTION_WORDS or closes_field)
                                     or titled and classify(part) in (W, A) and part not in FUNCTION_WORDS and part not in _NEVER
                                     for part in after.lower().split("-") if part):
            out.append(Candidate(m.start("after"), m.end("after"), "NAME", "evidence:nickname", 0.9))
    return out


#: Children listed with their ages in parentheses ("2 children (Kofi 12, Ama 9)", "KIDS (JAYDEN 7, MIA 4)").
_CHILDREN_LIST_RE = re.compile(
    r"(?i)\b(?:children|kids|grandchildren|grandkids|sons|daughters|siblings|sibs)\b[^()\n]{0,20}\((?P<list>[^()\n]{3,120})\)"
)
_CHILD_WITH_AGE_RE = re.compile(r"(?<![\w'’-])([A-Za-z][A-Za-z'’-]+)(?:,|[ \t]{1,2})[ \t]?(?:age[ \t])?\d{1,2}(?![\d/.:])")
#: Children each followed by an age in parentheses ("children lily (6) and marcus (3)", "KIDS: JAYDEN (7), MIA (4)").
_CHILDREN_AGES_RE = re.compile(
    r"(?i)\b(?:children|kids|grandchildren|grandkids|sons|daughters|siblings|sibs)\b[ \t:]{1,3}"
    r"(?P<list>(?:[A-Za-z][A-Za-z'’-]+[ \t]?\(\d{1,2}\)(?:,?[ \t]+(?:and[ \t]+|&[ \t]+)?|,|$)){1,6})"
)
_CHILD_PAREN_AGE_RE = re.compile(r"([A-Za-z][A-Za-z'’-]+)[ \t]?\(\d{1,2}\)")
_NOT_A_CHILDS_NAME = frozenset("age ages aged boy boys girl girls son sons daughter daughters twins twin baby infant yo mo".split())


def find_listed_children(text: str) -> list[Candidate]:
    """The names of children listed with their ages after "children", "kids", "grandchildren": in one pair of
    parentheses ("has 2 children (Kofi 12, Ama 9)") or each name with its own ("children lily (6) and marcus (3)");
    each word before an age, unless it says who the child is ("boy 12", "ages 3, 5")."""
    if "(" not in text:
        return []
    low = text.lower()
    if "child" not in low and "kid" not in low and "sons" not in low and "daughters" not in low and "sib" not in low:
        return []  # (every list opens with one of these words: no case-blind scan of the note without one)
    out = []
    for list_re, name_re in ((_CHILDREN_LIST_RE, _CHILD_WITH_AGE_RE), (_CHILDREN_AGES_RE, _CHILD_PAREN_AGE_RE)):
        for m in list_re.finditer(text):
            for c in name_re.finditer(text, m.start("list"), m.end("list")):
                raw, w = c.group(1), c.group(1).lower()
                if w in FUNCTION_WORDS or w in _NOT_A_CHILDS_NAME or classify(w) == C and not (raw[0].isupper() and not raw.isupper()):
                    continue  # (a clinical word only capitalised in mixed case: "Ama 9" is a girl, "ama" against advice)
                out.append(Candidate(c.start(1), c.end(1), "NAME", "evidence:listed_child", 0.85))
    return out


def multiword_state_spans(text: str) -> list[tuple[int, int]]:
    """``[m.span() for m in _MULTIWORD_STATES_RE.finditer(text)]``, scanned on the lower-cased text (the property
    tests check the equality)."""
    low = text.lower()
    if len(low) != len(text):  # (lower() moved the offsets: "İ")
        return [m.span() for m in _MULTIWORD_STATES_RE.finditer(text)]
    return [m.span() for m in _MULTIWORD_STATES_LOW_RE.finditer(low) if m.start() == 0 or not (low[m.start() - 1].isalnum() or low[m.start() - 1] in "_-")]


def drop_state_and_country_parts(text: str, cands: list) -> list:
    """``cands`` without those inside a state's or a country's name of two words ("puerto rico", "cape verde",
    "el salvador"): parts of it are names and places in the lexicons, the whole is no identifier (Safe Harbor)."""
    if " " not in text:
        return cands
    spans = multiword_state_spans(text)
    if not spans:
        return cands
    return [c for c in cands if not any(s <= c.start and c.end <= e for s, e in spans) and not only_states(text[c.start : c.end])]


#: A region closing a place's name: after a comma or blanks, one or two words (a state's code or name, a country).
_REGION_AFTER_RE = re.compile(r"(,[ \t]{0,2}|[ \t]{1,2})([A-Za-z]+)(?:[ \t]+([A-Za-z]+))?")
#: What may follow a state's code that closes a place: a ZIP code, punctuation, a line's or the text's end
#: ("Columbus, OH 43201", "Hondo TX | ...", "silver spring, md, calls"); never a word ("boston, in a shelter"), nor a
#: hyphen joining a word ("Mercy Clinic, co-pay 20").
#: Or a header's next field, capitalised, after the code where an export flattened the lines ("Portland, OR Accession:
#: SP-23-...", "Durham, NC Pt: ...", "Fontana, CA Date of injury: ..."; not "salem, or at the clinic: ...").
_CODE_END_RE = re.compile(
    r"[ \t]*(?:\d{4,5}(?:-\d{4})?(?![\w-])|\[ZIP\]|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d\b|[.,;:|)(\]\r\n/]|-(?![^\W\d_])|$)|[ \t]{2,}"
    r"|[ \t][A-Z][A-Za-z]*(?:[ \t][A-Za-z#]+){0,2}:(?![\d/])"
)
_ZIP_NEXT_RE = re.compile(r"[ \t]{1,2}(?:\d{5}(?:-\d{4})?(?![\w-])|\[ZIP\])")
#: US states' codes that no English word or clinical abbreviation shares: after a town's comma, whatever follows.
# (and codes whose clinical readings never follow a town and its comma: "DECATUR, GA SINCE 2019"; not "nc", a nasal
# cannula, "mo", months)
_CODES_NO_WORD = frozenset("az nm wi tx fl ny nj tn ky ks ia nv wv wy vt nh ak mn il ri ut ga sd nd ne mt va wa al ar".split())
#: US states' codes that no word or abbreviation shares in lower case either: after a removed town and one blank, as
#: typed fast without the comma ("in nashua nh 978-...", "from keene nh"); not "tx" (treatment), "fl" (fluid), "va", "al".
_LOWER_CODES_AFTER_TOWN = _CODES_NO_WORD - frozenset("tx fl tn vt il ga sd nd ne mt va wa al ar".split())
#: A word that no clinical vocabulary holds, or a phone number: what follows a town's state ("[SCRANTON], PA ASKING",
#: "[portland], me 207-555-0139"), not what follows a finding's abbreviation ("CA GLUC", "LA 4.3", "nc 2l").
_WORD_OR_PHONE_NEXT_RE = re.compile(r"[ \t]+(?:([A-Za-z][A-Za-z'’-]*)|\(?\d{3}\)?[ .-]?\d{3}-\d{4}\b)")


def _words_go_on(text: str, end: int) -> bool:
    m = _WORD_OR_PHONE_NEXT_RE.match(text, end)
    return m is not None and (m.group(1) is None or not is_clinical_term(m.group(1).lower()))


#: US states' codes that are also a word or an abbreviation, none of which a town and its comma lead into ("[TUPELO], MS
#: FOR FALL": no multiple sclerosis; "[GARDEN GROVE], CA UPDATED": no cancer; "[takoma park], md" as written). Not
#: "in", "or", "oh", "ok", "hi" (words that go on a sentence: "boston, or salem"), nor "id" (an identifier's label).
_CODES_AFTER_TOWN = frozenset("ca pa me md la mi ms co ct de ma sc mo nc".split())
#: Canadian provinces' and Australian states' codes: after a town, as a US state's code is ("Nepean, ON", "ORANGE NSW 2800").
_OTHER_REGION_CODES = frozenset("on bc ab qc mb sk ns nb nl pe yt nt nu nsw vic qld tas act sa".split())
#: Western Australia's code is Washington's too: before four digits it is Australia's ("Perth WA 6018").
_AU_POSTCODE_RE = re.compile(r"[ \t]{1,2}\d{4}(?![\w-])")
#: Australia's states' codes, and a town in capitals or capitalised before one and a postcode (an address line).
_AU_STATE_CODES = ("NSW", "VIC", "QLD", "WA", "SA", "TAS", "ACT", "NT")
_AU_STATE_CODES_SPACED = tuple(f" {code} " for code in _AU_STATE_CODES)  # (the gate's literals, built once)
_AU_ADDRESS_RE = re.compile(
    r"(?<![\w-])([A-Z][A-Za-z'-]+(?:[ \t][A-Z][A-Za-z'-]+)?)[ \t]{1,2}(?:" + "|".join(_AU_STATE_CODES) + r")[ \t]{1,2}\d{4}(?![\w-])"
)
#: The postcode after a Canadian or an Australian region's code goes with it ("ON M6R 3B2", "NSW 2800").
_POSTCODE_AFTER_RE = re.compile(r"[ \t]{1,2}(?:[A-Z]\d[A-Z][ \t]?\d[A-Z]\d|\d{4})(?![\w-])")
#: States named as cities too, left out of STATE_NAMES, are states after a town's comma ("Seattle, Washington").
_STATES_AFTER_COMMA = frozenset({"washington", "new york"})
#: Whose end a region may close: a town or an address, a place of care, and the placeholders they leave.
_PLACE_CATEGORIES = ("LOCATION", "HOSPITAL")
_PLACE_PLACEHOLDER_RE = re.compile(r"\[(?:LOCATION|HOSPITAL)\]")
_LOCATION_PLACEHOLDER_RE = re.compile(r"\[LOCATION\]")
#: Two letters, not after a letter or a digit, and one or two blanks right before a ZIP code ("hazard ky 41701").
_CODE_BEFORE_ZIP_RE = re.compile(r"(?<![^\W_])([A-Za-z]{2})[ \t]{1,2}$")


STATES_SETTINGS = ("with_place", "keep")


def check_states(states: str) -> str:
    """``states`` if it is a known ``text.l1.states`` setting: ``with_place`` (a state or a country closing a removed
    place's name goes with it) or ``keep`` (every state and country stays, as Safe Harbor allows)."""
    if states not in STATES_SETTINGS:
        raise ValueError(f"states must be one of {STATES_SETTINGS}, got {states!r}")
    return states


#: A year of four digits after a state's code with no comma before it: the code is the word ("IN 2019").
_YEAR_NEXT_RE = re.compile(r"[ \t]+(?:19|20)\d\d(?![\w-])")


def region_after(text: str, end: int, town: bool = False) -> tuple[int, int] | None:
    """The span of a state or a country that closes the place ending at ``end`` (", OH", " TX 77074", ", Ghana"),
    or None.

    A two-letter code needs a comma before it or a ZIP code after it when it is in lower case, and punctuation, a
    ZIP code or a line's end after it ("boston, in a shelter" is no Indiana); a state's or a country's name needs
    the comma or the ZIP code. After a ``town`` (a removed LOCATION, not an institution) and its comma, a code in
    one letter case that a word shares but no reading of which follows a town goes on though a word follows it
    ("FROM [SCRANTON], PA ASKING", "[portland], me 207-..."; not "[Mercy], OR at 1400", "[salem], nc 2l").
    """
    m = _REGION_AFTER_RE.match(text, end)
    if m is None:
        return None
    comma = "," in m.group(1)
    w1, w2 = m.group(2), m.group(3)
    if w2 is not None:  # "new hampshire", "el salvador", "new york"
        two = f"{w1} {w2}".lower()
        if two in STATE_NAMES or two in _STATES_AFTER_COMMA:
            if comma or _ZIP_NEXT_RE.match(text, m.end(3)):
                return m.start(2), m.end(3)
    s, e = m.span(2)
    low = w1.lower()
    if low == "wa" and (comma or w1.isupper()) and (p := _AU_POSTCODE_RE.match(text, e)) is not None:
        return s, p.end()
    if len(w1) == 2 and low in US_STATES:
        zip_next = _ZIP_NEXT_RE.match(text, e) is not None
        if zip_next and _not_idaho(w1, _ZIP_NEXT_RE.match(text, e).group()):
            return None  # "interpreter Duc (ID 44107)": an interpreter's number
        if not comma and _YEAR_NEXT_RE.match(text, e):
            return None  # ("VIA [BRIGHTVIEW] IN 2019": a year, not a ZIP code, after the word)
        if not (comma or w1.isupper() or zip_next):
            if not (town and w1.islower() and low in _LOWER_CODES_AFTER_TOWN and m.group(1) == " "):
                return None
            return s, e  # ("in [nashua] nh 978-555-0128", "lives in [keene] nh with son": typed without the comma)
        if not _CODE_END_RE.match(text, e) and not (comma and low in _CODES_NO_WORD) and not (
                comma and town and low in _CODES_AFTER_TOWN and (w1.isupper() or w1.islower()) and _words_go_on(text, e)):
            return None  # ("boston, in a shelter"; "TUCSON, AZ AT 0130": a code no word or abbreviation shares goes on)
        return s, e
    if low in _OTHER_REGION_CODES and (comma or w1.isupper()) and (_CODE_END_RE.match(text, e) or comma and town and _province_goes_on(text, w1, s, e)):
        p = _POSTCODE_AFTER_RE.match(text, e)
        return s, (p.end() if p else e)
    if (low in STATE_NAMES or low in _STATES_AFTER_COMMA) and (comma or _ZIP_NEXT_RE.match(text, e)):
        return s, e
    return None


def _province_goes_on(text: str, code: str, s: int, e: int) -> bool:
    """Is the region ``code`` after a town and its comma a province's though a word follows it ("Lives in [Brampton], ON
    w/ husband", "[halifax], ns with son")? "on" is also the word: only in capitals in a line with small letters
    ("[Toronto], on arrival" and a capitals note's "[BOSTON], ON ARRIVAL" go on as words)."""
    if not _words_go_on(text, e):
        return False
    if code.lower() != "on":
        return code.isupper() or code.islower()
    return code.isupper() and line_case_at(text, s) != "caps"


#: State codes that are also a person's degree or credential after a comma ("Dr. Jackson, MS", "Jane Austin, PA").
_CODES_AS_CREDENTIALS_RE = re.compile(r",?[ \t]*(?:ma|pa|md|ms|de)\b", re.I)


def _town_read_as_name(text: str, c) -> bool:
    """Is the NAME candidate ``c`` a listed town that a state's code closes ("IN [MODESTO], CA")? Not when the code
    is also a credential or a degree ("Dr. Jackson, MS"): a town read as a person keeps those."""
    return text[c.start : c.end].lower() in _lex()[4] and _CODES_AS_CREDENTIALS_RE.match(text, c.end) is None


#: A word that puts what follows in a place ("moved up from [GARY], IN", "assisted living in [Cheshire], CT").
_PLACE_CUE_BEFORE_RE = re.compile(r"(?i)\b(?:from|in|near|visiting|outside)[ \t]{1,2}$")
#: A state's code after a comma, in capitals or in a lower-case line's lower case ("[CARSON], CA X 3 WKS", "caguas, pr").
_CODE_AFTER_CUED_NAME_RE = re.compile(r",[ \t]([A-Z]{2}|[a-z]{2})\b(?![\w'’-])")
_NUMBER_NEXT_RE = re.compile(r"[ \t]*\d+(?:\.\d+)?[a-zA-Z%/]")  # (a dose or a flow: "2l", "4lpm"; not "2 yrs")


def _name_after_place_cue(text: str, start: int, end: int) -> bool:
    """Is the name at ``start:end`` a town read as a person's name: right after a place's cue word, and before a
    state's code that is no credential or degree ("FROM [GARY], IN IN 2021"; not "seen by [Dr. Jackson], MS")?"""
    return _PLACE_CUE_BEFORE_RE.search(text, max(0, start - 12), start) is not None \
        and _CODES_AS_CREDENTIALS_RE.match(text, end) is None


def regions_after_places(text: str, cands: list) -> list[Candidate]:
    """The states and countries that close a removed place's name, as LOCATION candidates: after a LOCATION or a
    HOSPITAL candidate or placeholder ("[LOCATION], OH [ZIP]"), and a state's code just before a ZIP code.

    Part of that place's identifier ("Hondo TX" is one town), they go with it (``text.l1.states=with_place``, the
    default); a state or a country on its own still stays (Safe Harbor keeps states; ``drop_state_and_country_parts``).
    """
    ends = {c.end for c in cands if c.category in _PLACE_CATEGORIES or c.category == "NAME" and _town_read_as_name(text, c)}
    # towns (a LOCATION no person's name ends with too: "Dr. [Austin], MD" keeps its degree)
    towns = {c.end for c in cands if c.category == "LOCATION"} - {c.end for c in cands if c.category == "NAME"}
    # a town read as a person's name after a place's cue: its state's code goes with it though a word follows the code
    cued = {c.end for c in cands if c.category == "NAME" and _name_after_place_cue(text, c.start, c.end)}
    if "[" in text:
        ends.update(m.end() for m in _PLACE_PLACEHOLDER_RE.finditer(text))
        towns.update(m.end() for m in _LOCATION_PLACEHOLDER_RE.finditer(text))
        cued.update(m.end() for m in NAME_PLACEHOLDER_RE.finditer(text) if _name_after_place_cue(text, m.start(), m.end()))
    out = []
    for end in sorted(ends | cued):
        r = region_after(text, end, town=end in towns)
        if r is None and end in cued and (m := _CODE_AFTER_CUED_NAME_RE.match(text, end)) is not None \
                and m.group(1).lower() in US_STATES and not (
                    classify(m.group(1).lower()) == C and _NUMBER_NEXT_RE.match(text, m.end())):
            r = m.span(1)  # (not a clinical code before a dose: "in salem, nc 2l" is on a nasal cannula)
        if r is not None:
            out.append(Candidate(r[0], r[1], "LOCATION", "evidence:region_after_place", 0.9))
    for c in cands:  # "hazard ky 41701": a state's code before a removed ZIP code is part of the address
        m = _CODE_BEFORE_ZIP_RE.search(text, max(0, c.start - 5), c.start) if c.category == "ZIP" else None
        if m is not None and m.group(1).lower() in US_STATES and not _not_idaho(m.group(1), text[c.start : c.end]):
            out.append(Candidate(m.start(1), m.end(1), "LOCATION", "evidence:region_after_place", 0.9))
        if c.category == "LOCATION" and _ROAD_WORD_END_RE.search(text, c.start, c.end) and (m := _ROAD_NUMBER_RE.match(text, c.end)):
            out.append(Candidate(m.start(1), m.end(1), "LOCATION", "evidence:road_number", 0.9))
    return out


#: A road named by its number after a county's, a township's or a state's road word ("COUNTY RD 12", "Township Rd
#: 118", "State Hwy 45"): the number is the road's name.
_ROAD_WORD_END_RE = re.compile(r"(?i)\b(?:county|township|twp|state|us|farm|ranch|forest|service)[ \t]+(?:rd|road|hwy|highway|route|rte)\.?$")
_ROAD_NUMBER_RE = re.compile(r"[ \t]{1,2}(\d{1,4}[A-Za-z]?)(?![\w.-]|[ \t]?(?:mg|mi|km|min|hrs?|yrs?|mph)\b)")


def _not_idaho(code: str, zip_code: str) -> bool:
    """Is ``code`` "ID" before a number that is no Idaho ZIP code (832..838)? Then it labels an identifier
    ("interpreter Duc (ID 44107)", "CyraCom ID 60219"), no state."""
    return code.lower() == "id" and not zip_code.strip().startswith("83")


#: One or two words after a comma ("[12 Elm St], Frog Hollow", "[cedar-riverside], minneapolis"), past the street's
#: quarter and the flat's number that may stand between ("[1740 cedar ave] s, minneapolis", "[1840 cedar ave s], apt 3,
#: minneapolis": the compass letter is taken after this pass, the unit is no town).
_WORDS_AFTER_COMMA_RE = re.compile(
    r"(?:[ \t](?i:n|s|e|w|ne|nw|se|sw)\.?(?=,))?(?:,[ \t]{1,2}(?i:apt|unit|ste|suite|flat|#)\.?[ \t]?#?[0-9][0-9A-Za-z-]{0,4}(?=,))?"
    r",[ \t]{1,2}([A-Za-z][A-Za-z'’-]+)(?:[ \t]([A-Za-z][A-Za-z'’-]+))?"
)


def towns_after_places(text: str, cands: list) -> list[Candidate]:
    """The town or neighbourhood after a removed street or place and a comma, as LOCATION candidates: a listed place
    in any case ("at 7 lantern way, mystic, ct", "in cedar-riverside, minneapolis"), or in a mixed-case line a
    capitalised name closed by a landscape word ("at 400 Park St, Frog Hollow"). An address goes on from street
    to town; a state alone is left to :func:`regions_after_places`."""
    place_set = _lex()[4]
    out = []
    for c in cands:
        if c.category != "LOCATION":
            continue
        m = _WORDS_AFTER_COMMA_RE.match(text, c.end)
        if m is None:
            continue
        w1, w2 = m.group(1), m.group(2)
        two = f"{w1} {w2}".lower() if w2 else None
        if two is not None and two in place_set and two not in STATE_NAMES:
            out.append(Candidate(m.start(1), m.end(2), "LOCATION", "evidence:town_after_place", 0.85))
            continue
        low = w1.lower()
        if low in place_set and low not in STATE_NAMES and low not in US_STATES and len(low) >= 4 and classify(low) != C \
                and (classify(low) not in (W, A) or w1[:1].isupper() or line_case_at(text, m.start(1)) != "mixed"):
            out.append(Candidate(m.start(1), m.end(1), "LOCATION", "evidence:town_after_place", 0.85))
        elif (w2 is None or not text[m.end(1) : m.end(1) + 1].isspace()) and region_after(text, m.end(1)) is not None \
                and classify(low) != C and low not in FUNCTION_WORDS and len(low) >= 3:
            out.append(Candidate(m.start(1), m.end(1), "LOCATION", "evidence:town_after_place", 0.85))  # ", mystic, ct"
        elif w2 is not None and w2.lower() in _TOPONYM_GENERICS and w1[:1].isupper() and w2[:1].isupper() \
                and not w1.isupper() and classify(low) != C and low not in FUNCTION_WORDS:
            out.append(Candidate(m.start(1), m.end(2), "LOCATION", "evidence:town_after_place", 0.85))
    return out


#: Where two streets meet around a found one ("MVC at [Halsted] and Taylor,", "at Mass Ave and [Beacon St]"): the cue
#: before the crossing, the other street's one or two words, closing the clause after it or standing before "and".
_CROSSING_CUE_RE = re.compile(r"(?i)(?:\bat|\bcorner[ \t]+of|\bintersection[ \t]+of|\bcorner)[ \t]+$")
_STREET_AFTER_AND_RE = re.compile(
    r"[ \t]+(?:and|AND|&|/)[ \t]+((?:\d{1,3}(?:st|nd|rd|th)|[A-Za-z][A-Za-z'-]+)(?:[ \t][A-Za-z][A-Za-z'-]+)?)(?=[ \t]*(?:[,.;)]|$|\n))"
)
_STREET_BEFORE_AND_RE = re.compile(
    r"(?i:\bat|\bcorner[ \t]+of|\bintersection[ \t]+of)[ \t]+((?:\d{1,3}(?:st|nd|rd|th)|[A-Za-z][A-Za-z'-]+)(?:[ \t][A-Za-z][A-Za-z'-]+)?)[ \t]+(?:and|AND|&|/)[ \t]+$"
)


def streets_meeting_places(text: str, cands: list) -> list[Candidate]:
    """The other street where a found street or place meets one after a crossing's cue, as LOCATION candidates ("MVC AT
    [HALSTED] AND TAYLOR,", "yelling in traffic at 5th and [broadway]"): one or two words no lexicon reads as
    clinical, function or time words, capitalised in a mixed-case line."""
    out = []
    for c in cands:
        if c.category != "LOCATION":
            continue
        m = _STREET_AFTER_AND_RE.match(text, c.end)
        if m is not None and _CROSSING_CUE_RE.search(text, max(0, c.start - 24), c.start) is not None \
                and _crossing_words_ok(text, m.group(1), m.start(1)):
            out.append(Candidate(c.start, m.end(1), "LOCATION", "evidence:crossing", 0.85))
        b = _STREET_BEFORE_AND_RE.search(text, max(0, c.start - 48), c.start)
        if b is not None and _crossing_words_ok(text, b.group(1), b.start(1)):
            out.append(Candidate(b.start(1), c.end, "LOCATION", "evidence:crossing", 0.85))
    return out


def _crossing_words_ok(text: str, words: str, start: int) -> bool:
    """May ``words`` (at ``start``) name the other street of a crossing: no function, clinical or time word, and each
    capitalised or a number where the line is in mixed case?"""
    mixed = line_case_at(text, start) == "mixed"
    for w in words.split():
        low = w.lower()
        if low in FUNCTION_WORDS or classify(low) == C and low not in STREET_SUFFIXES or low in TIME_WORDS \
                or mixed and not (w[:1].isupper() or w[:1].isdigit()):
            return False
    return True


#: "on" and the street after a business, a home or a meeting place: a compass letter, an ordinal, one word and a
#: street's word ("[CVS] on broadway", "apt on kedzie", "[KROGER] ON E 9 MILE RD"), closing a clause.
_STREET_NAME_PART = r"(?:\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH)|[A-Za-z][A-Za-z'-]+)"
_STREET_AFTER_ON_RE = re.compile(
    r"[ \t]+(?P<prep>on|ON|On|off|OFF|Off)[ \t]+(?:"
    # with a street's word, whatever follows ("on memorial dr notified", "ON E 9 MILE RD")
    r"(?P<suffixed>(?:(?i:[nsew])\.?[ \t])?(?:\d{1,3}[ \t])?" + _STREET_NAME_PART + r"(?:[ \t]" + _STREET_NAME_PART + r")?"
    r"[ \t](?i:st|ave|av|rd|dr|blvd|ln|way|pkwy|hwy|road|street|avenue|drive|lane|boulevard)\b)"
    # one word closing a clause ("on broadway today", "ON GRAND,", "apt on kedzie.")
    r"|(?P<bare>(?:(?i:[nsew])\.?[ \t])?[A-Za-z][A-Za-z'-]+)"
    r"(?=[ \t]*(?:[,.;:)]|$|\n)|[ \t]+(?:(?i:in|today|tonight|tomorrow|and|near|by|for|after|since|until|til|with|most|every)\b"
    r"|(?i:w/)|\d{1,2}x\b)))"
)
#: Words after "apt", "lives" and the like that put a home on a street ("eviction from apt on kedzie").
_HOME_BEFORE_ON_RE = re.compile(r"(?i)\b(?:apt|apartment|house|place|lives|living|stays|staying|shelter|motel|bungalow|duplex|condo|"
                                r"townhouse|rowhouse|trailer|cottage|farmhouse)$")
#: Street names that are everyday words ("on broadway", "ON GRAND", "on oak"): a word in no name lexicon needs one of
#: these, or a capital in a mixed-case line, to be a street after "on" ("[CVS] on hold", "on file", "on call").
COMMON_STREET_NAMES = frozenset(
    """broadway grand main oak elm maple pine cedar walnut chestnut spruce birch ash willow market church high park lake
    hill center centre central union water mill bridge river spring front state washington lincoln madison jefferson
    franklin jackson adams monroe harrison cleveland wilson lafayette commercial prospect pleasant summer winter
    academy college school sunset highland highlands ridge valley forest meadow orchard cherry peach poplar hickory
    magnolia dogwood sycamore locust beech holly laurel linden mulberry""".split()
)

_HOSPITAL_PLACEHOLDER_RE = re.compile(r"\[HOSPITAL\]")
_ON_AFTER_HOME_RE = re.compile(r"(?<=[A-Za-z])[ \t]+(?=(?:on|ON|On)[ \t])")
#: Words after "on" that say how or when, never where.
_NOT_STREETS = frozenset("hold call file site time board duty record track vacation leave foot line staff order schedule "
                         "delivery backorder it them us me him her standby notice phone speaker video fire probation "
                         "parole disability welfare break lunch shift nights days weekends weekend top display left right".split())


def streets_after_places(text: str, cands: list) -> list[Candidate]:
    """The street after a removed business or institution and "on", after a home's word and "on", or after a found
    place, a comma and "off", as LOCATION candidates ("at [fry's pharmacy] on broadway today", "[DISCOUNT DRUG MART] ON
    GRAND,", "apt on kedzie.", "lives [broadmoor], off napoleon"). The
    street's word may be missing; its name is a name or unknown word, a common street name, or capitalised in a
    mixed-case line, and never a function, clinical or time word ("[CVS] on hold", "on file", "on monday")."""
    ends = {c.end for c in cands if c.category == "HOSPITAL"}
    # "lives broadmoor, off napoleon", "KILLEEN, OFF TRIMMIER": a comma and "off" after a found place or town
    offs = {c.end + 1 for c in cands if c.category in ("LOCATION", "NAME") and text[c.end : c.end + 6].lower() == ", off "}
    ends |= offs
    if "[" in text:
        ends.update(m.end() for m in _HOSPITAL_PLACEHOLDER_RE.finditer(text))
    for m in _ON_AFTER_HOME_RE.finditer(text):
        if _HOME_BEFORE_ON_RE.search(text, max(0, m.start() - 12), m.start()):
            ends.add(m.start())
    out = []
    for e in sorted(ends):
        m = _STREET_AFTER_ON_RE.match(text, e)
        if m is None or m.group("prep").lower() == "off" and e not in offs:
            continue
        span = m.span("suffixed") if m.group("suffixed") else m.span("bare")
        words = text[span[0] : span[1]].split()
        lows = [w.lower() for w in words]
        if any(w in FUNCTION_WORDS or w in TIME_WORDS or w in _NOT_STREETS or w in DATE_WORDS for w in lows):
            continue
        if not (len(words) > 1 and lows[-1] in STREET_SUFFIXES):  # (a street's word says it is one: "on memorial dr")
            name, low = words[-1], lows[-1]
            mixed = mixed_case_line(text, span[0])
            c = classify(low)
            if c == C or mixed and not name[0].isupper() \
                    or c == W and low not in COMMON_STREET_NAMES and not (mixed and name[0].isupper()):
                continue
        out.append(Candidate(span[0], span[1], "LOCATION", "evidence:street_after_place", 0.85))
    return out


def mixed_case_line(text: str, pos: int) -> bool:
    """Is the line of ``text`` holding ``pos`` written in mixed case, an earlier level's placeholders aside ("to pick up at
    [HOSPITAL] on broadway" is a lower-case line)? There a capital is evidence; in a line of one case it is none. The
    tokens' measure (:func:`_line_case`): one capital among fifty lower-case letters leaves a line lower case
    ("Home/social: 1-story bungalow on archer ...")."""
    ls = text.rfind("\n", 0, pos) + 1
    le = text.find("\n", pos)
    line = text[ls : len(text) if le < 0 else le]
    if "[" in line:
        line = PLACEHOLDER_RE.sub(" ", line)
    return _line_case(line, 0, len(line)) == "mixed"


_ONLY_PLACEHOLDERS_RE = re.compile(r"\[[A-Z]+\](?:[ \t,]+\[[A-Z]+\])*")
_WORD_END_RE = re.compile(r"[^\W_](?![^\W_])|\]")


def cut_regions_out(text: str, cands: list) -> list:
    """``cands`` with the states and countries that close a place inside them cut out (``text.l1.states=keep``: the
    tagger's "[HONDO, TX 78861]" leaves "TX"); the pieces left, with letters or digits, stay candidates."""
    out = []
    for c in cands:
        if c.category not in _PLACE_CATEGORIES or c.end - c.start < 4:
            out.append(c)
            continue
        cuts = []
        for m in _WORD_END_RE.finditer(text, c.start, c.end):
            r = region_after(text, m.end())
            if r is not None and r[1] <= c.end:
                cuts.append(r)
        if not cuts:
            out.append(c)
            continue
        pos = c.start
        for a, b in cuts + [(c.end, c.end)]:
            piece = text[pos:a].strip(" \t,")
            if any(ch.isalnum() for ch in piece) and not _ONLY_PLACEHOLDERS_RE.fullmatch(piece):
                s0 = pos + text[pos:a].index(piece)
                out.append(Candidate(s0, s0 + len(piece), c.category, c.source, c.score))
            pos = b
    return out


#: (with the house number before it: "611 NE [82ND ST]")
_COMPASS_BEFORE_RE = re.compile(r"(?:^|(?<=[\s,(]))(?:\d{1,6}[ \t]{1,2})?(?:[NSEW]|NE|NW|SE|SW)\.?[ \t]$")


def compass_letters_of_places(text: str, cands: list) -> list[Candidate]:
    """A compass letter before a removed street or town ("S [OREGON ST]", "W. [Cherry St]") or after a street's word
    ("[418 3rd Ave] NW"), as a LOCATION candidate: part of the street's name, and "S [LOCATION]" would leave it."""
    starts = {c.start for c in cands if c.category == "LOCATION"}
    if "[" in text:
        starts.update(m.start() for m in _LOCATION_PLACEHOLDER_RE.finditer(text))
    out = []
    for s in sorted(starts):
        m = _COMPASS_BEFORE_RE.search(text, max(0, s - 12), s)
        if m is not None:
            out.append(Candidate(m.start(), m.end() - 1, "LOCATION", "evidence:compass_of_place", 0.9))
    # and the quarter after a street's word ("[418 3rd Ave] NW"): part of its name too
    for c in cands:
        if c.category == "LOCATION" and (w := _LAST_WORD.search(text, c.start, c.end)) is not None \
                and w.group().lower() in STREET_SUFFIXES and ((m := _COMPASS_AFTER_STREET_RE.match(text, c.end)) is not None
                                                             or w.group().islower() and (m := _COMPASS_LOWER_RE.match(text, c.end)) is not None):
            out.append(Candidate(c.start, m.end(), "LOCATION", "evidence:compass_of_place", 0.9))
    return out


#: A street's word right after a removed name ("[Colesville] Rd", "[INDIAN SCHOOL] RD plant"): an abbreviation in any
#: case, a full word capitalised; "Dr" and "St" only before a mark, a line's end or a number (and "St" before a word in
#: lower case too), since before a word either may be a title: "Jones Dr. Smith", "St. Mary's", "called jones dr about".
_STREET_WORD_AFTER_RE = re.compile(
    r"[ \t](?:(?i:rd|ave?|blvd|ln|hwy|pkwy|tpke)\b\.?"
    r"|(?:Road|Street|Avenue|Boulevard|Lane|Drive|Highway|Parkway|Turnpike|ROAD|STREET|AVENUE|BOULEVARD|LANE|DRIVE|HIGHWAY"
    r"|PARKWAY|TURNPIKE)\b"
    r"|(?i:dr|st)\b\.?(?=[ \t]*(?:[,;:)\n]|$)|[ \t]+\d)|(?i:st)\b\.?(?=[ \t]+[a-z]))"
)
_NAMED_PLACEHOLDER_RE = re.compile(r"\[(?:NAME|LOCATION|HOSPITAL)\]")


def street_words_after_places(text: str, cands: list) -> list[Candidate]:
    """The street's word after a removed place, institution or name ("(Giant Pharmacy, [Colesville] Rd)", "ON [INDIAN
    SCHOOL] RD"), as a LOCATION candidate: a tagger or a rule that found the street's name without its word leaves the
    word, and "[NAME] Rd" still says where. After candidates and placeholders of those three categories."""
    ends = {c.end: c.category == "NAME" for c in cands if c.category in _PLACE_CATEGORIES or c.category == "NAME"}
    if "[" in text:
        ends.update((m.end(), m.group() == "[NAME]") for m in _NAMED_PLACEHOLDER_RE.finditer(text))
    out = []
    for e, after_name in sorted(ends.items()):
        m = _STREET_WORD_AFTER_RE.match(text, e)
        if m is None or after_name and not (text[m.start() + 1].isupper() and text[m.start() + 2].islower()):
            continue  # (after a person's name only a capitalised word in a mixed-case line: "tess rd", "ANA RUIZ RD" sign
            # as a dietitian, "Dr" as a doctor)
        word_end = m.end() - (1 if text[m.end() - 1] == "." else 0)
        out.append(Candidate(m.start() + 1, word_end, "LOCATION", "evidence:street_word_after_place", 0.85))
    return out


#: A flat's or a unit's number written before its street ("Flat 3, 8 Pittencrieff St", "Apt 4B, 12 Elm St", "Unit 5/22").
_UNIT_BEFORE_RE = re.compile(r"(?i)(?<![\w-])(?:apt|apartment|unit|flat|suite|ste)\.?[ \t]?#?[ \t]?\d{1,5}[a-z]?(?:,[ \t]{1,2}|[ \t]{1,2}|/)$")


def units_before_streets(text: str, cands: list) -> list[Candidate]:
    """A flat's or a unit's number before a removed street address ("Flat 3, [8 Pittencrieff St]"), as a LOCATION
    candidate: part of the address, which "[LOCATION]" alone would leave."""
    out = []
    for c in cands:
        if c.category != "LOCATION" or not text[c.start : c.start + 1].isdigit():
            continue  # (only before a house number: "Unit 5, [Dorchester]" is no address)
        m = _UNIT_BEFORE_RE.search(text, max(0, c.start - 20), c.start)
        if m is not None:
            out.append(Candidate(m.start(), c.end, "LOCATION", "evidence:unit_before_street", 0.9))
    return out


_STATES_LIST_REST_RE = re.compile(r"(?i)[\s,&/]+|\b(?:and|or)\b")


def only_states(value: str) -> bool:
    """Is ``value`` nothing but states and countries joined by "and", "or" or commas ("Puerto Rico and El Salvador")?"""
    rest = _STATES_LIST_REST_RE.sub(" ", _MULTIWORD_STATES_RE.sub(" ", value)).split()
    return all(w.lower() in STATE_NAMES for w in rest)
# words that are never part of a name even when a lexicon lists them (note vocabulary)
_NEVER = frozenset(
    """
dear sincerely regards
aware updated notified present bedside available agrees agreed called informed consented today tomorrow yesterday
here there home work phone cell at with and or in on by re hcp poa note notes md rn np xxxx none
age aged deceased payee self given prior
""".split()
)

#: A word: letters, inner apostrophes or hyphens each followed by a letter, and one trailing dot.
#: Written as runs of letters (not one alternation per character, three times slower); the
#: same matches as :data:`_TOKEN_RE_PLAIN`, checked by a property test. The repetitions are
#: possessive (no backtracking state kept: a third faster on non-ASCII text): nothing after a
#: run of letters or a joined part can fail, so the greedy first path is always the match.
_TOKEN_RE = re.compile(r"[^\W\d_]++(?:['’-][^\W\d_]++)*+\.?")
_TOKEN_RE_PLAIN = re.compile(r"[^\W\d_](?:[^\W\d_]|['’](?=[^\W\d_])|-(?=[^\W\d_]))*\.?")
#: :data:`_TOKEN_RE` for ASCII text, where a letter is A-Z or a-z and "’" cannot occur: the same
#: matches (a property test checks), a third faster (plain ranges, not Unicode categories).
_TOKEN_RE_ASCII = re.compile(r"[A-Za-z]++(?:['-][A-Za-z]++)*+\.?")
_LINE_RE = re.compile(r"[^\n]+")
_INITIAL_RE = re.compile(r"[A-Za-z]\.?")

N, A, U, W, C = "N", "A", "U", "W", "C"


@lru_cache(maxsize=1)
def _lex():
    return first_names(), last_names(), ordinary_words(), clinical_vocab(), places(), everyday_names()


_CLASS_CACHE: dict[str, str] = {}


def classify(low: str, raw: str = "") -> str:
    """Token class (see the module docstring) of a folded word ``low`` (``raw``: as written, unused today).

    Memoised per word: a class depends on the lexicons only, and notes repeat their words.
    """
    c = _CLASS_CACHE.get(low)
    if c is None:
        c = _classify(low)
        if len(_CLASS_CACHE) < 200_000:
            _CLASS_CACHE[low] = c
    return c


def _classify(low: str) -> str:
    first, last, ordinary, clinical, place_set, _ = _lex()
    if low in clinical or low in _NEVER or low in RELATIONS or low in TITLES or low in CREDENTIALS:
        return C  # (relations, titles, credentials are cues for a name, never part of one: "pt's friend Ramon")
    if low in FUNCTION_WORDS:
        return A if low in AMBIGUOUS_NAMES else C  # "may", "will": names only with evidence
    named = low in first or low in last
    if low in GIVEN_NAMES_FIRST:
        return N  # "mary", "peter": frequent words because people are called so
    if not named and "-" in low and _hyphenated_words(low):
        return W
    if not named and ("'" in low or "’" in low):
        # "o'neil", "d'angelo": the name lists hold some of these written without the apostrophe
        bare = low.replace("'", "").replace("’", "")
        if len(bare) >= 4 and (bare in last or bare in first) and bare not in ordinary:
            return N
    if low in ordinary:
        if not named and low not in AMBIGUOUS_NAMES:
            return W
        # an everyday word that is also a name: a person only with evidence, unless it is a
        # given name first ("laura", "steven" are Webster entries too) and not a curated everyday one
        if low in _lex()[5] or _inflected(low, ordinary) or low not in first:
            return A
        return N
    if named:
        # inflected everyday words that are also surnames ("weeks", "falls", "held")
        z = zipf(low)
        if z >= 4.8 and low not in first or _inflected(low, ordinary):
            return A
        return N
    if zipf(low) > 0.0:
        # an everyday word (an inflected form: "lives", "returns", "weeks") or a short form ("cpi"); a frequent word no
        # dictionary lists and no inflection of one is a proper noun the name lists lack ("hemsworth", "thurston")
        # (a listed place, a state or a country stays a place's word, as before: "Portland protocol", "from Mexico")
        if len(low) <= 3 or not low.isalpha() or low.endswith(_WORD_SUFFIXES) or low in place_set or low in STATE_NAMES \
                or _inflected(low, ordinary) or _inflected(low, clinical) or _derived(low, ordinary):
            return W
        return U
    if len(low) < 3 or not low.isalpha() and not ("-" in low or "'" in low or "’" in low):
        return W
    if _inflected(low, ordinary) or _inflected(low, clinical) or _inflected(low, _common_zipf()) or _derived(low, ordinary):
        return W  # "faxed", "secretions", "tearful", "reachable": an everyday or clinical word no lexicon lists as such
    if len(low) >= 7 and low.endswith(_VERB_ENDINGS):
        return W  # "verbalized", "mobilizing", "stabilised": a verb made with -ize, no name ends so
    if _medical_shape(low, ordinary, clinical):
        return C  # "pancytopenia", "tachycardic", "nontender": built like a medical word, not like a name
    return U


def _hyphenated_words(low: str) -> bool:
    """Is the hyphenated ``low`` made of everyday or clinical words ("hand-off", "re-paged", "Somali-speaking",
    "self-neglect", "off-duty")? No part of three letters or more may be a name or unknown ("nakamura-reid",
    "brooks-hamilton") or a place ("Cedar-Riverside", "Miami-Dade"), and one of four letters or more must be an everyday
    or clinical word: shorter parts are prefixes or syllables ("re-", "t-", "Sun-hee", "Eun-ji")."""
    place_set = _lex()[4]
    if low in place_set:
        return False
    parts = [p for p in low.split("-") if len(p) > 2]
    classes = [classify(p) for p in parts]
    if not parts or N in classes or U in classes or any(p in place_set for p in parts):
        return False
    return any(c in (W, C) for p, c in zip(parts, classes) if len(p) > 3)


#: Endings of English words that names hardly have ("submitting", "referred", "coordinator", "paperwork"... not -er,
#: -or, -s: Walker, Taylor, Jones): a frequent word no dictionary lists that ends so is a word, not a proper noun.
_WORD_SUFFIXES = ("ing", "ed", "tion", "tions", "sion", "ment", "ments", "ness", "ity", "ities", "ive", "ives", "able", "ible",
                  "ous", "ally", "ator", "ators", "ists", "ism", "ence", "ance", "ies", "work", "ware", "ship")
#: Endings of verbs made with -ize/-ise ("wife verbalized understanding": no name after the relation).
_VERB_ENDINGS = ("ized", "izes", "izing", "ised", "ising")
#: Endings of medical words (a name no lexicon lists hardly ends so): "-emia", "-itis", "-ectomy", "-cardic".
_MED_SUFFIXES = (
    "emia", "emias", "itis", "osis", "oses", "ectomy", "otomy", "ostomy", "plasty", "scopy", "scopic", "graphy", "gram",
    "pathy", "algia", "uria", "penia", "cytosis", "tensive", "cardic", "cardia", "pnea", "pneic", "volemic", "plegia",
    "paresis", "iasis", "ectasis", "rrhea", "rrhage", "megaly", "trophy", "ectomies", "ostomies", "lysis", "tomy",
)
#: Beginnings of medical words: "hypokalemic", "tachypneic", "dysarthria", "intraop".
_MED_PREFIXES = ("hypo", "hyper", "tachy", "brady", "dys", "peri", "intra", "hemo", "haemo", "neuro", "cardio", "gastro", "multi")
#: Negating and repeating prefixes before an everyday or clinical word: "unlabored", "nontender", "reintubated".
_WORD_PREFIXES = ("un", "non", "dis", "re", "mis", "pre", "post")  # not "de", "under": DeYoung, Underwood


#: Endings of anatomical, Latin and drug words ("umbilicus", "carina", "sternum", "clavicle", "heparin").
_LATINATE_ENDINGS = ("us", "um", "is", "ae", "ia", "al", "ic", "ous", "ary", "ine", "ate", "ide", "ole", "one", "ase", "ina",
                     "cle", "in", "ex", "ax", "ix")


def _medical_shape(low: str, ordinary: frozenset, clinical: frozenset) -> bool:
    """Is the unknown word ``low`` built like a medical word (see the tuples above)? Seven letters or more."""
    if len(low) < 7 or not low.isalpha():
        return False
    if low.endswith(_MED_SUFFIXES) and not low.endswith("aitis") or low.startswith(_MED_PREFIXES):
        return True  # (Lithuanian surnames end in "-aitis": Petraitis)
    for pre in _WORD_PREFIXES:
        if low.startswith(pre):
            rest = low[len(pre) :]
            if len(rest) >= 4 and (rest in ordinary or rest in clinical or _inflected(rest, ordinary) or _inflected(rest, clinical)):
                return True
    return False


def _common_zipf() -> dict:
    from clinx.text.lexicons import _common

    return _common()[0]


def _inflected(low: str, ordinary: frozenset) -> bool:
    """``low`` is an inflection of an everyday word ("weeks" -> "week", "falls" -> "fall", "placed" -> "place")."""
    for suf, rep in (("s", ""), ("es", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"), ("ly", ""), ("er", ""), ("ers", "")):
        if low.endswith(suf) and len(low) - len(suf) >= 3 and low[: len(low) - len(suf)] + rep in ordinary:
            if suf == "ed" and not rep and low[-3] == "e":
                continue  # "naveed", "fareed" are names: a word in -e takes only "d" ("nave" -> "naved")
            return True
    return False


#: Endings that make an everyday word another ("tearful", "reachable", "restless", "tiredness"); and the stem's
#: spelling change before them ("reliable" from "rely", "confusable" from "confuse").
_DERIVATIONS = ("ful", "fully", "able", "ably", "ible", "less", "lessly", "ness", "ment", "ments", "ive", "ous", "ity")


def _derived(low: str, ordinary: frozenset) -> bool:
    """``low`` is an everyday word plus a derivational ending ("tearful" -> "tear", "reachable" -> "reach")."""
    for suf in _DERIVATIONS:
        if low.endswith(suf) and len(low) - len(suf) >= 3:
            stem = low[: len(low) - len(suf)]
            if stem in ordinary or stem + "e" in ordinary or stem.endswith("i") and stem[:-1] + "y" in ordinary:
                return True
    return False


_UPPER_RE = re.compile(r"[A-ZÀ-ÖØ-Þ]")
_LOWER_RE = re.compile(r"[a-zß-öø-ÿ]")
_NOT_UPPER_BYTES = bytes(b for b in range(256) if not 65 <= b <= 90)
_NOT_LOWER_BYTES = bytes(b for b in range(256) if not 97 <= b <= 122)


def line_case_at(text: str, pos: int) -> str:
    """``caps``, ``lower`` or ``mixed`` for the line of ``text`` that holds ``pos`` (:func:`_line_case`)."""
    e = text.find("\n", pos)
    return _line_case(text, text.rfind("\n", 0, pos) + 1, len(text) if e < 0 else e)


def _line_case(text: str, s: int, e: int) -> str:
    """``caps``, ``lower`` or ``mixed`` for the line text[s:e]."""
    seg = text[s:e]
    if seg.isascii():
        # the same counts with two C-level byte deletions (the classes are A-Z and a-z on ASCII)
        b = seg.encode("ascii")
        up = len(b.translate(None, _NOT_UPPER_BYTES))
        lo = len(b.translate(None, _NOT_LOWER_BYTES))
    else:
        up = len(_UPPER_RE.findall(seg))
        lo = len(_LOWER_RE.findall(seg))
    if lo == 0 or up > 3 * lo:
        return "caps"
    if up * 50 < lo:
        return "lower"
    return "mixed"


class _Tok(NamedTuple):
    """A word token: a named tuple (built with one C call, no Python ``__init__``: notes have hundreds)."""

    s: int
    e: int
    raw: str
    low: str
    cls: str
    case: str
    dot: bool


_new_tok = tuple.__new__
# matched text -> (characters cut off the end, raw, low, cls, dot): everything about a token but
# its offsets and line case depends on its text alone, and notes repeat their words
_TOK_INFO: dict[str, tuple] = {}


def _tok_info(g: str) -> tuple:
    raw = g
    dot = raw[-1] == "."
    if dot:
        raw = raw[:-1]
    if len(raw) > 2 and raw[-1] in "sS" and raw[-2] in "'’":
        raw = raw[:-2]
    low = raw.lower() if raw.isascii() else fold(raw)
    info = (len(g) - len(raw), raw, low, classify(low), dot)
    if len(_TOK_INFO) > 100_000:
        _TOK_INFO.clear()
    _TOK_INFO[g] = info
    return info


def tokens(text: str) -> list[_Tok]:
    """Word tokens with their class and line case."""
    out: list[_Tok] = []
    append = out.append
    info_of = _TOK_INFO.get
    # one scan of the whole text (a token never holds a line break); the case of a token's line
    # is computed when the first token of that line is met
    le = -1
    case = "mixed"
    for m in (_TOKEN_RE_ASCII if text.isascii() else _TOKEN_RE).finditer(text):
        g = m.group()
        info = info_of(g)
        if info is None:
            info = _tok_info(g)
        s = m.start()
        if s > le:
            ls = text.rfind("\n", 0, s) + 1
            le = text.find("\n", s)
            if le < 0:
                le = len(text)
            case = _line_case(text, ls, le)
        append(_new_tok(_Tok, (s, s + len(g) - info[0], info[1], info[2], info[3], case, info[4])))
    return out


#: Academic degrees a clinician writes between the name and the licence ("jordan mcbride-tso, ma, ccc-slp").
_DEGREES = frozenset("ma ms ba bs msc bsc med mba mfa".split())
#: A therapist's discipline written before the credential ("PT, DPT", "OT, OTR/L", "SLP, CCC-SLP").
_THERAPIST_LETTERS = frozenset("pt ot slp".split())
#: Units of distance after a number, which opens no street's name ("~40 mi dirt road", "150 ft hall way").
_DISTANCE_UNITS = frozenset("mi mile miles km kms ft feet foot yd yds yards m meters metres blocks min mins minutes hr hrs".split())
#: Units of doses and sizes, after which a street word is a route or an ECG segment ("40 mg SQ", "2 mm ST").
_DOSE_UNITS = frozenset("mm cm mg mcg ml cc kg g gm units unit u meq mmol mmhg".split())
_SEP_NAME_RE = re.compile(r"[ \t]{1,3}|[ \t]?,[ \t]{0,2}|\.[ \t]{0,2}|[ \t]?&[ \t]?")


def _gap(text: str, a: _Tok, b: _Tok) -> str:
    return text[a.e + (1 if a.dot else 0) : b.s]


def _joined(text: str, a: _Tok, b: _Tok, comma: bool = True) -> bool:
    """Tokens a, b are adjacent within a name (spaces, an initial's dot, or one comma)."""
    g = _gap(text, a, b)
    if g == "":
        return a.dot
    if a.dot and not (len(a.raw) == 1 or a.low in TITLES or a.low in ("st", "mt", "ft")):
        return False  # "wife Dolores. Pt ...": a sentence ended
    if "\n" in g or len(g) > 4:
        return False
    if "," in g and not comma:
        return False
    # every character a blank, comma or dot (nothing left once they are stripped), at most one comma
    return not g.strip(" \t,.") and g.count(",") <= 1


#: Words after which a capitalised word that is also a name is a person ("spoke to Grace", "called Joy").
_PERSON_BEFORE = frozenset(
    "to for by per and called told asked paged notified updated informed contacted visited met thanked phoned texted "
    # a plan's imperative, whose object is the person ("update Rose after re-eval", "call Joy w/ results")
    "update call page notify inform ask tell remind thank contact text email".split()
)
#: Given names that are also month or weekday names: a date's, which the date recognisers decide.
CALENDAR_GIVEN_NAMES = frozenset("april may june july august sat sun mon tue wed thu fri".split())


#: Verbs a person does that a word opening a sentence does not ("Grace called", "Rose visited", "hope asks about
#: hospice", "bill lives in Dayton"; not "Mark noted"). No past tense a thing takes too ("Bill denied", "claim declined").
_SPEAKING_VERBS = frozenset(
    "called calls phoned visited visiting came stated states reports reported asked requested brought says said asks "
    "agrees agreed prefers preferred lives wants wanted declines understands verbalizes verbalized expresses expressed "
    "voices voiced handed feels updated notified informed shared tearful".split()
)


def _word_given_name(t: _Tok) -> bool:
    """Is ``t`` a given name that is also an everyday word ("Grace", "SANDY", "rose"), written capitalised in a
    mixed-case line? Never a function word ("will") or a month or weekday name ("May", "Sat")."""
    return t.cls == A and t.low in _lex()[0] and t.low not in FUNCTION_WORDS and t.low not in CALENDAR_GIVEN_NAMES \
        and (t.case != "mixed" or t.raw[:1].isupper())


def _given_then_speaking(text: str, toks: list, i: int) -> bool:
    """Is ``toks[i]`` a given name opening its sentence before a verb of calling, visiting or saying ("Grace called",
    "Joy says", "WEI WILL CALL"), perhaps after where the person is from or a role between commas ("Mark from PT
    says", "Joy at front desk says", "Summer, night RN, reports")? A given name that is also a word, or a short one."""
    t = toks[i]
    # "Will to check in daily": the modal never takes "to", so "will" before "to" and a person's verb is the name
    will_to = t.low == "will" and i + 1 < len(toks) and toks[i + 1].low == "to"
    if not (_word_given_name(t) or t.cls == N and t.low in _lex()[0] or will_to) or t.low in _NEVER:
        return False
    j = _after_apposition(text, toks, i)
    n = len(toks)
    if j >= n:
        return False
    v = toks[j].low
    if not (v in _SPEAKING_VERBS or v in ("will", "to") and j + 1 < n and toks[j + 1].low in _WILL_VERBS
            and _gap(text, toks[j], toks[j + 1]) == " "):
        return False
    return _sentence_start(text, t.s) or _BULLET_BEFORE_RE.search(text, max(0, t.s - 6), t.s) is not None


#: A list's bullet opening the line before a word ("- Joy asked re: driving", "* ROSE VISITED").
_BULLET_BEFORE_RE = re.compile(r"(?:^|\n)[ \t]*[-*•][ \t]+$")
#: "at the pharmacy", "from the VNA", "at Walgreens": where a person named after "per" works.
_AT_PLACE_AFTER_RE = re.compile(r"(?i)[ \t]+(?:at|from)[ \t]+(?:the[ \t]+)?[a-z]")
_POSSESSIVE_GAP_RE = re.compile(r"['’][sS][ \t]{1,2}$")


def _given_before_relation(text: str, toks: list, i: int) -> bool:
    """Is ``toks[i]`` a given name in the possessive before a relation ("MARK'S SON", "rose's daughter")?"""
    t = toks[i]
    if i + 1 >= len(toks) or toks[i + 1].low not in RELATIONS or t.low in FUNCTION_WORDS or t.low in _NEVER:
        return False
    if not (t.cls in (A, N) and t.low in _lex()[0]) or t.case == "mixed" and not t.raw[:1].isupper():
        return False
    return _POSSESSIVE_GAP_RE.fullmatch(text, t.e, toks[i + 1].s) is not None


#: A contact's telephone right after a given name: "Faith (337) 555-0190", "joy's cell [PHONE]", "CALLED HOPE AT
#: [PHONE]", "SKY TO BE CALLED AT [PHONE]"; the number as L1 left it (a placeholder) or as written.
_PHONE_AFTER_NAME_RE = re.compile(
    r"(?i)(?:['’]s[ \t]+(?:cell|mobile|phone|home|work|number|no\.?|#)[ \t]*[:#]?|[ \t]*[:@-]?"
    r"(?:[ \t]+(?:to[ \t]+be[ \t]+called|can[ \t]+be[ \t]+reached|is[ \t]+reachable|reachable))?(?:[ \t]+at)?)[ \t]*"
    r"(?:\[PHONE\]|\(?\d{3}\)?[ .-]?\d{3}[ .-]\d{4}\b)"
)


def _given_before_phone(text: str, toks: list, i: int) -> bool:
    """Is ``toks[i]`` a given name that is also a word, right before a telephone number that is the person's
    ("Contacts: Faith (337) 555-0190", "ray's cell [PHONE]", "SW CALLED HOPE AT [PHONE]")? A number says whom to
    call; a word that says which line it is ("home", "cell", "main") is no given name in the lexicon."""
    t = toks[i]
    if not _word_given_name(t) or t.low in _NEVER:
        return False
    if i + 1 < len(toks) and toks[i + 1].s - t.e <= 1 and toks[i + 1].raw[:1].isupper() and t.raw[:1].isupper() \
            and not t.raw.isupper():
        return False  # "Hope Lodge (555) ...": a capitalised phrase names a place
    return _PHONE_AFTER_NAME_RE.match(text, t.e) is not None


#: A role or a credential, one word, in parentheses right after a word: "page (rn)", "bree (rmo)" (not "pain (ortho pa)").
_ROLE_IN_PAREN_AFTER_RE = re.compile(r"[ \t]?\(([A-Za-z-]{2,8})\)")


def _given_before_role(text: str, toks: list, i: int) -> bool:
    """Is ``toks[i]`` a given name (or a word no lexicon knows) right before the person's role or credential in
    parentheses ("spoke w/ page (rn)", "bree (rmo) for dr x")? Never a clinical or function word ("lasix (iv)")."""
    t = toks[i]
    if t.low in FUNCTION_WORDS or t.low in _NEVER or t.low in ROLES or t.low in CREDENTIALS or t.low in RELATIONS:
        return False
    if not (t.cls == A or t.cls == N and t.low in _lex()[0] or t.cls == U and len(t.low) >= 3) or is_clinical_term(t.low):
        return False
    if t.case == "mixed" and not t.raw[:1].isupper() and t.cls != U:
        return False
    m = _ROLE_IN_PAREN_AFTER_RE.match(text, t.e)
    if m is None:
        return False
    role = m.group(1).lower()
    return role in CREDENTIALS or role in ROLES or role in _SECOND_ROLES or role in _ROLES_IN_PAREN_ONLY


#: Staff abbreviations that name a role only in parentheses after a person ("bree (rmo)": a resident medical officer;
#: a senior house officer, a certified medical assistant). ("ma" is left out: alone it is a mother or a state.)
_ROLES_IN_PAREN_ONLY = frozenset("cma rmo sho".split())


#: Verbs after "will" that a person does ("WEI WILL CALL THE PHARMACY", "Rose will bring clothes").
_WILL_VERBS = frozenset("call visit come bring update phone text pick stay drive send fax sign arrange meet check".split())
#: Where a person is from or what they do, between a name and its verb ("Mark from PT says", "Joy at front desk says").
_WHERE_FROM = frozenset("from at".split())


def _after_apposition(text: str, toks: list, i: int) -> int:
    """Index of the verb after name ``toks[i]``: the next token, or the one after "from/at" and up to three words, or
    after a role between commas ("Summer, night RN, reports") or in parentheses ("rich (alternate hcp) agrees"); a
    blank joins each."""
    n = len(toks)
    j = i + 1
    if j >= n:
        return j
    gap = _gap(text, toks[i], toks[j])
    if gap == " " and toks[j].low in _WHERE_FROM:
        for k in range(j + 1, min(n, j + 5)):
            if _gap(text, toks[k - 1], toks[k]) != " ":
                break
            if toks[k].low in _SPEAKING_VERBS or toks[k].low == "will":
                return k if k > j + 1 else i + 1
        return i + 1
    if gap == " (":
        close = text.find(")", toks[j].s, toks[j].s + 40)
        if close > 0 and "\n" not in text[toks[j].s : close]:
            k = j
            while k < n and toks[k].s < close:
                k += 1  # "rich (alternate hcp) agrees w/ plan": a role in parentheses between the name and its verb
            if any(x.low in ROLES or x.low in RELATIONS for x in toks[j:k]):
                return k if k < n and text[close + 1 : toks[k].s] == " " else n
        return n
    if gap == ", ":
        for k in range(j, min(n, j + 4)):
            if toks[k].low in ROLES or toks[k].low in CREDENTIALS:
                if k + 1 < n and _gap(text, toks[k], toks[k + 1]) == ", ":
                    return k + 1
                break
            if k > j and _gap(text, toks[k - 1], toks[k]) != " ":
                break
        return i + 1
    return j if gap == " " else n


def _capitalised_given_mid_sentence(text: str, toks: list, i: int) -> bool:
    """Is ``toks[i]`` a given name that is also a word, written capitalised inside a mixed-case sentence, after a
    lower-case word and not before another capitalised word ("Spoke to Grace on phone"; not "Grace Chapel",
    "Plan: Hope Lodge", a sentence's first word, or a Title Case header)?"""
    t = toks[i]
    if t.case != "mixed" or i == 0 or not (t.raw[:1].isupper() and t.raw[1:].islower()) or not _word_given_name(t) or t.low in _NEVER:
        return False
    p = toks[i - 1]
    if not p.raw.islower() or p.dot or _gap(text, p, t) not in (" ", " (", "  "):
        return False
    # a word that takes a person before it ("spoke to Grace", "message for Joy"; not "hx of Major depression",
    # "stool with Frank blood", "has Rich social network")
    if p.low not in _PERSON_BEFORE and not (p.low == "with" and i > 1 and (toks[i - 2].low in _WITH_VERBS or toks[i - 2].low in _COMM_VERBS)):
        return False
    if i + 1 < len(toks):
        nx = toks[i + 1]
        if _gap(text, t, nx) == " " and (nx.raw[:1].isupper() or nx.cls in (W, C) and nx.low not in FUNCTION_WORDS and nx.low not in _NEVER
                                        and not _finite_verb(nx)):
            return False  # "Grace Chapel", "King size bed": a capitalised phrase, or a noun the word describes
    return True


#: The forms in which one word that may be a name is a person (each a predicate on ``(text, toks, i)``):
#: "MARK'S SON TESFAYE" (owning a relative), "Contacts: Faith (337) 555-0190" (owning a telephone), "spoke w/ page (rn)"
#: (before a role in parentheses), "Grace called for update." (opening a sentence before a verb of calling or
#: visiting), "Spoke to Grace on phone" (capitalised after a lower-case word in a mixed-case sentence).
_ONE_WORD_PERSON_FORMS = (_given_before_relation, _given_before_phone, _given_before_role, _given_then_speaking,
                          _capitalised_given_mid_sentence)


_DASH_BEFORE_RE = re.compile(r"(?:^|\n)[ \t]*(?:-{1,3}|—|–|~)[ \t]*$")
_LINE_END_RE = re.compile(r"[ \t.]*(?:\n|$)")


def _dash_signature(text: str, t: _Tok) -> bool:
    """Is ``t`` alone on its line after a signature's dash ("-- Grace", "—Rose"), or closing its line after a
    message's thanks ("got them. thanks, rose", "Thank you,\nGrace")?"""
    if _LINE_END_RE.match(text, t.e) is None:
        return False
    return _DASH_BEFORE_RE.search(text, max(0, t.s - 8), t.s) is not None \
        or _THANKS_BEFORE_RE.search(text, max(0, t.s - 24), t.s) is not None


_THANKS_BEFORE_RE = re.compile(r"(?i)\b(?:thanks|thank[ \t]you|thx|ty|regards|sincerely|cheers)[,!.]?[ \t]*(?:\n[ \t]*)?$")


#: Prepositions before a person handed to, seen by or spoken with ("report given to Stone, RN").
_HANDOVER_PREPS = frozenset("to by with from".split())


#: Officers of the police and the courts, whose initial and surname a note gives ("PD OFFICER R. HILL").
_OFFICERS = frozenset("officer ofc deputy trooper detective".split())


def _word_surname(t: _Tok) -> bool:
    """Is ``t`` a surname of three letters or more that is also an everyday or clinical word ("Baker", "STONE"), and no
    function word, cue word, role, credential or title? The helpers below say where such a word is a person."""
    return t.cls in (A, C) and len(t.low) >= 3 and t.low in _lex()[1] and t.low not in FUNCTION_WORDS and t.low not in _NEVER \
        and t.low not in ROLES and t.low not in CREDENTIALS and t.low not in TITLES


def _word_surname_after_preposition(text: str, toks: list, k: int) -> bool:
    """Is token ``k``, a surname that is also a word, written capitalised right after "to", "by", "with" or "from" and
    before a comma (its credential follows it: the caller checks)? ("per Long RN" is the long-term care nurse)"""
    t = toks[k]
    if k == 0 or not t.raw[:1].isupper() or not _word_surname(t):
        return False
    p = toks[k - 1]
    return p.low in _HANDOVER_PREPS and _gap(text, p, t) == " " and text.startswith(",", t.e)


def _word_surname_after_initial(text: str, toks: list, k: int) -> bool:
    """Is token ``k`` a capitalised everyday word right after a capital's initial ("K. BLACKWATER", "K. Blackwater"), or
    a surname the clinical vocabulary claims ("B. STONE, AEMT": the caller has the credential after it), or in lower
    case a listed surname after a lower-case initial ("j. hill md")?"""
    t = toks[k]
    if not (t.cls == W or t.cls == C and t.low in _lex()[1] and len(t.low) >= 4) or k == 0:
        return False
    p = toks[k - 1]
    if t.raw[:1].isupper():
        cased = p.raw[:1].isupper()
    else:  # "-- j. hill md", "d. small, np", "o. banjo md": in a lower-case line, an everyday word or a surname the name
        # lexicon lists after a lower initial
        cased = t.case == "lower" and p.raw.islower() and (t.cls == W and len(t.low) >= 3 or t.low in _lex()[1])
    return cased and _is_initial(p, text) and p.dot and _joined(text, p, t, comma=False)


def _is_initial(t: _Tok, text: str) -> bool:
    # "F/U", "S/P", "I&O" hold single letters too: an initial stands after a blank, a line start or a
    # signature's dash ("--W. Ferreira RN")
    # (a hyphen after a letter joins a word's tail: the P of "EMT-P" is no initial)
    return len(t.raw) == 1 and t.raw.isalpha() and (t.dot or t.raw.isupper()) and (
        t.s == 0 or text[t.s - 1] in " \t\n(" or text[t.s - 1] == "-" and (t.s == 1 or not text[t.s - 2].isalnum()))


def _name_ok(t: _Tok, allow_ambiguous: bool) -> bool:
    if t.cls in (N, U):
        return True
    return allow_ambiguous and t.cls == A


def _given_then_surname(text: str, toks: list[_Tok], j: int) -> bool:
    """toks[j] is a given name and toks[j+1] a surname ("May Smith", "Grace Hill"): a person, ambiguous words or not."""
    first, last = _lex()[0], _lex()[1]
    if j + 1 >= len(toks) or toks[j].cls not in (N, A) or toks[j + 1].cls not in (N, A):
        return False
    return toks[j].low in first and toks[j + 1].low in last and _joined(text, toks[j], toks[j + 1], comma=False)


#: What may open a signer's line before their name: blanks and a dash.
_SIGNER_LINE_OPENING_RE = re.compile(r"(?:^|\n)[ \t]*[-—–]{0,2}[ \t]*$")


def _signs_line(text: str, given: _Tok, surname: _Tok, credential: _Tok) -> bool:
    """A given name opening its line, its surname and a comma before the credential ("will brown, rn cm"): a signer,
    though the given name is a function word too ("pt will brown, rn aware" is no one); the surname a name first
    ("will call, rn": a verb the surnames list too)."""
    return _SIGNER_LINE_OPENING_RE.search(text, max(0, given.s - 8), given.s) is not None \
        and text[surname.e : credential.s].strip(" \t") == "," and (surname.cls == N or surname.low in AMBIGUOUS_NAMES) \
        and not (given.low in FUNCTION_WORDS and surname.low in _CALLING_VERBS)  # ("will page, rn")


def _clinical_surname(text: str, prev: _Tok, t: _Tok) -> bool:
    """``t`` is a clinical word used as a surname after a given name: "Cheryl Walker", "TONY SMALL"."""
    first, last = _lex()[0], _lex()[1]
    # (three letters at least: a two-letter clinical word after a name is an abbreviation, "CONNIE PT LIVES")
    return (
        len(t.low) > 2 and t.low in last and t.low not in FUNCTION_WORDS and t.raw[:1].isupper() and prev.low in first
        and len(prev.low) > 2  # ("GO HOME": a two-letter given name before a clinical word is a word)
        and prev.raw[:1].isupper() and prev.raw.isupper() == t.raw.isupper() and _joined(text, prev, t, comma=False)
    )


#: Two-letter surnames that are also clinical abbreviations ("ng": nasogastric; not "ho", history of: "SMITH HO CAD").
_SHORT_CLINICAL_SURNAMES = frozenset({"ng"})
#: Words that may follow such a surname: where the person works, the next person, or what the person knows or did
#: ("DR HOLLIS NG AWARE", "dr hollis ng paged"; "NG TO LIWS", "NG WILL BE PLACED" are the tube's).
_AFTER_SHORT_SURNAME = frozenset("at from of and who aware notified agrees agreed paged called updated says states recommends recs reports informed".split())


def _short_clinical_surname(text: str, toks: list, j: int) -> bool:
    """``toks[j]`` is a two-letter surname of :data:`_SHORT_CLINICAL_SURNAMES` after a given name in a one-case line
    ("DR HOLLIS NG AT", "dr hollis ng."; a name or a word no lexicon knows before it), the name's end: no clinical
    word follows it ("CONNIE NG TUBE")."""
    prev, t = toks[j - 1], toks[j]
    if t.low not in _SHORT_CLINICAL_SURNAMES or t.case == "mixed" or prev.case != t.case or len(prev.low) < 3 \
            or prev.cls not in (N, U) or not _joined(text, prev, t, comma=False):
        return False
    nxt = toks[j + 1] if j + 1 < len(toks) else None
    return nxt is None or not _joined(text, t, nxt, comma=False) or nxt.low in _AFTER_SHORT_SURNAME


def _lower_clinical_surname(text: str, prev: _Tok, t: _Tok) -> bool:
    """After a cue in an all-lower-case line, a clinical word of four letters or more that is a surname, after a
    given name: "dr mark hill", "wife joy walker" (capitals, the evidence of :func:`_clinical_surname`, are absent)."""
    first, last = _lex()[0], _lex()[1]
    return (
        t.case == "lower" and prev.case == "lower" and len(t.low) > 3 and t.low in last and t.low not in FUNCTION_WORDS
        and t.low not in _NEVER and prev.low in first and _joined(text, prev, t, comma=False)
    )


def _cue_gap(text: str, cue: _Tok, nxt: _Tok) -> str | None:
    """The characters between a cue and the word after it, or None when they do not join them.

    Spaces, a colon, a comma, an opening parenthesis or a hyphen join; a line
    break or a sentence end ("consent w/ pt. anesthesiologist") does not.
    """
    g = text[cue.e : nxt.s]
    if cue.dot:
        if cue.low not in TITLES and cue.low not in _ABBREV_CUES:
            return None
        g = g[1:]
    if len(g) > 4 or "\n" in g or not g and not cue.dot:
        return None
    if all(ch in " \t:,(-=#" for ch in g):
        return g
    return None


#: A follow-up right before "w/" ("f/u w/ tricounty", "FOLLOW UP W/ OKAFOR").
_FOLLOW_UP_BEFORE_RE = re.compile(r"(?i)(?<![\w/])(?:f/?u|follow[ -]?up)[ \t]$")
#: Verbs after which "with" introduces a person ("met with", "teaching with", "d/w").
_WITH_VERBS = frozenset("discussed seen spoke d/w w met talked teaching reviewed consulted visited meeting conference".split())
#: Verbs of speaking, leaving word and handing over, and the prepositions after which they name the person spoken to.
_COMM_VERBS = frozenset(
    "spoke speak speaking talked talk report reported message msg left lm vm voicemail asking asked handoff "
    # ("critical result called to K. Nez", "report given to Ines", "handed over to Bev")
    "called given handed over".split()
)
_COMM_PREPS = frozenset("to for with".split())
_ABBREV_CUES = frozenset("pt dtr dau sis bro mgr attn re".split())


_FIELD_LABELS = frozenset("name patient pt re ref attn client participant veteran soldier member resident proband".split())
#: Field labels whose value may be a topic as well as a person ("RE: DISCHARGE PLANNING", "Re: Pavla Novak"): a
#: clinical word or a lone everyday word after them opens no name.
_TOPIC_LABELS = frozenset("re ref".split())
# the next field's label ends a value taken after "Patient:" ("Patient: Fidel Yeager MRN: ...")
_FIELD_STOP = frozenset("mrn dob ssn id acct acc age sex room unit date dos adm admit md".split())


def _take_name(text: str, toks: list[_Tok], i: int, allow_ambiguous: bool, limit: int = 3, pure_only: bool = False, any_word: bool = False) -> int:
    """Index one past the name starting at ``i`` (initials allowed), or ``i`` when none starts there."""
    j = i
    n = 0
    while j < len(toks) and n < limit:
        t = toks[j]
        if j > i and not _joined(text, toks[j - 1], t, comma=False):
            break
        if n > 0 and text.startswith("  ", toks[j - 1].e):
            break  # "RT D. MORROW  CALL REF #": two blanks end a header's field
        if t.low in TITLES:
            break  # "the rabbi (Rabbi Feingold)": the next title starts its own name
        if _is_initial(t, text) and j + 1 < len(toks) and _joined(text, t, toks[j + 1], comma=False):
            j += 1
            continue
        if n == 0 and j > i and t.cls == A and toks[j - 1].dot and (t.raw[:1].isupper() \
                and (t.raw[1:].islower() or t.case == "caps" and toks[j - 1].raw.isupper())
                or t.case == "lower" and toks[j - 1].raw.islower() and t.low in _lex()[1]) \
                and t.low not in FUNCTION_WORDS and t.low not in _NEVER:
            j += 1  # "seen by J. Brown", "RT D. MORROW", "seen by r. king": a surname that is also a word, vouched for by
            # the initial before it (in a lower-case line, one the name lexicon lists)
            n += 1
            continue
        # after the first token, an ambiguous word continues a name only before another name token
        # or when it is itself a surname following a given name ("Mark Tobin", "Joy Lee")
        if pure_only and n == 0 and t.cls != N and not _given_then_surname(text, toks, j):
            break
        if n == 0 and t.cls == A and t.low in FUNCTION_WORDS and _verb_follows(text, toks, j):
            break  # "Daughter will contact", "son may visit": the modal verb, not a name
        if n == 0 and j + 1 < len(toks) and _calling_verb_before_person(text, t, toks[j + 1]):
            break  # "RN PAGE MD IF HR>120": the verb and whom to page
        if n > 0 and t.cls == C and _clinical_surname(text, toks[j - 1], t):
            j += 1
            n += 1
            continue
        if n > 0 and t.cls == C and _short_clinical_surname(text, toks, j):
            j += 1
            n += 1
            break  # "PCP DR HOLLIS NG AT FALMOUTH": a two-letter surname ends the name
        if n > 0 and t.cls == C and _lower_clinical_surname(text, toks[j - 1], t):
            j += 1
            n += 1
            break  # given name and surname: the next lower-case word is the sentence's ("dr mark hill saw pt")
        if n > 0 and t.cls == A and _report_verb(t):
            break  # "WIFE KATHY STATES PT WAS CONFUSED": the sentence's verb, though "States" is a surname too
        # a surname that is also a word continues a name: "Michele May", "SON BILL WARD" ("son bill will" does not)
        if n > 0 and t.case == "mixed" and t.cls == A and not t.raw[:1].isupper() and toks[j - 1].raw[:1].isupper():
            break  # "Dr. Church saw pt": a name written capitalised goes on capitalised ("patient john smith" is all lower)
        cont = n > 0 and t.cls == A and t.low in _lex()[1] and (t.low not in FUNCTION_WORDS or t.case == "mixed" and t.raw[:1].isupper())
        if any_word and t.cls in (W, C) and t.raw[:1].isupper() and t.low not in FUNCTION_WORDS and t.low not in _NEVER \
                and t.low not in _FIELD_STOP:
            pass  # "Name: DOE": after a field label every capitalised word is the value
        elif not _name_ok(t, allow_ambiguous and (n == 0 or cont or t.low not in FUNCTION_WORDS) or cont):
            break
        j += 1
        n += 1
    # drop trailing initials that did not lead to a name
    while j > i and _is_initial(toks[j - 1], text) and not _name_ok(toks[j - 1], True):
        j -= 1
    return j if n else i


#: Verbs of saying, feeling and needing that are also surnames ("States", "Notes", "Needs"): after a given name in a one-case
#: line they are the sentence's verb ("WIFE KATHY STATES PT WAS CONFUSED"), not the rest of the name.
REPORT_VERBS = frozenset(
    """
states stated reports reported says said notes noted feels felt wants wanted agrees agreed denies denied asks asked
requests requested expresses expressed verbalizes verbalized understands understood believes believed thinks thought
knows knew hopes hoped worries worried prefers preferred declines declined refuses refused needs needed saw heard held
""".split()
)


def _report_verb(t: _Tok) -> bool:
    """Is the token ``t`` one of :data:`REPORT_VERBS` not written capitalised in a mixed-case line ("Kathy States")?"""
    return t.low in REPORT_VERBS and not (t.case == "mixed" and t.raw[:1].isupper())


def report_verb_word(word: str) -> bool:
    """Is ``word`` one of :data:`REPORT_VERBS` written in one case ("STATES", "states"; not "States")? For passes that
    see a word without its line."""
    return word.lower() in REPORT_VERBS and (word.isupper() or word.islower())
#: A header's next field after a name on one line ("PT: OKONKWO, CHIDI A MRN 448...", "FEENEY, BRIGID M -- DOB"): what a
#: line's end or two blanks say in a note whose export flattened its lines.
HEADER_FIELD_AFTER = r"[ \t](?:MRN|DOB|AGE|SEX|ACCT|CSN|FIN|DOS|SSN|--|\|)(?![\w-])"
_AFTER_INITIAL_RE = re.compile(r"\.?(?:$|[ \t]*\n|[ \t]{2,}|,[ \t]|[ \t]*\)|" + HEADER_FIELD_AFTER + ")")


def _trailing_initial(text: str, last: _Tok, t: _Tok) -> bool:
    """``t`` is a middle initial written after a name ("DOROTHY M", "Mary J.") that ends a line, a field or a clause."""
    return (
        len(t.raw) == 1 and (t.raw.isupper() or t.case == "lower" and t.raw.isalpha()) and text[last.e : t.s] == " " and not last.dot
        and _AFTER_INITIAL_RE.match(text, t.e) is not None
    )


def _paren_name_ok(t: _Tok) -> bool:
    """May ``t`` be part of a name written before a role in parentheses? Names, unknown words, and
    ambiguous ones capitalised in mixed case ("Hope (SW)"; not "pt will (PT)")."""
    if t.cls in (N, U):
        return True
    return t.cls == A and t.low not in FUNCTION_WORDS and (t.case != "mixed" or t.raw[:1].isupper())


#: Words that stand before a credential to say which nurse or doctor, not who ("charge RN", "DAY RN", "Pain MD").
_ROLE_MODIFIERS = frozenset(
    """
day night evening eve charge primary float floor staff senior junior head lead ward unit covering bedside triage resource
travel agency school clinic hospice team home visiting private duty case admitting discharging on-call oncall
pain sleep family transplant trauma stroke heart lung kidney liver bone breast eye hand foot spine vein
long short ostomy burn pool study research comfort nurse care peds
ortho cards neuro gi renal pulm onc psych surg surgery gen vascular wound palliative icu micu sicu ed er or ob gyn uro ent
""".split()
)
#: Credentials a person's given name or surname alone may stand before ("Grace RN", "Miller MD"); not "DO", "PA" or
#: "RD", which are also a verb, a state and a road ("Rose Rd").
_PERSON_CREDENTIALS = CREDENTIALS - {"do", "d.o", "pa", "rd"}


#: Given names that are the verb of reaching someone ("page"): before a credential, a role or a title with no comma
#: between, the verb and whom to reach ("rn to page md", "RN PAGE MD IF HR>120"; "Page, RN" and, capitalised in mixed
#: case, "per Page RN" name her).
_CALLING_VERBS = frozenset(("page",))


def _calling_verb_before_person(text: str, t: _Tok, nxt: _Tok) -> bool:
    """Is ``t`` a calling verb (:data:`_CALLING_VERBS`) right before ``nxt``, a credential, a role or a title, with only
    blanks between them?"""
    return t.low in _CALLING_VERBS and (nxt.low in CREDENTIALS or nxt.low in ROLES or nxt.low in TITLES) \
        and not text[t.e : nxt.s].strip() and not (t.case == "mixed" and t.raw[:1].isupper())  # ("per Page RN")


def _word_name_before_credential(text: str, t: _Tok, cred: _Tok) -> bool:
    """Is ``t``, a name that is also an everyday word, alone before the credential ``cred`` a person ("Per Sandy RN",
    "PER ROSE RN", "Miller MD" closing a line)? Written capitalised in mixed case, in any case in a capitals or
    lower-case line; never a word that says which nurse ("charge RN") or a function word ("will RN"). A surname that
    is no given name ("Miller", but also "Long", "Care", "Burn") only where a signature stands: the credential ends
    its line ("Per Long RN, pt stable" names no one)."""
    if cred.low not in _PERSON_CREDENTIALS or t.low in FUNCTION_WORDS or t.low in _ROLE_MODIFIERS or t.low in _NEVER:
        return False
    if _calling_verb_before_person(text, t, cred):
        return False
    if t.cls != A or t.case == "mixed" and not t.raw[:1].isupper():
        return False
    if t.low in _lex()[0]:
        return True
    return t.low in _lex()[1] and _LINE_END_RE.match(text, cred.e) is not None


def _compound_before(text: str, toks: list, j: int) -> bool:
    """Does an everyday or clinical word stand right before ``toks[j]`` as the first part of a compound noun
    ("WOUND CARE RN", "Primary Care MD"), not a function word or a verb of report ("per Sandy RN", "notified Rose RN")?"""
    if j == 0:
        return False
    p = toks[j - 1]
    return _gap(text, p, toks[j]) == " " and p.cls in (W, C) and p.low not in FUNCTION_WORDS and p.low not in _NEVER \
        and p.low not in _WITH_VERBS and p.low not in _WEAK_LABELS and not _finite_verb(p)


#: Roles of a physician or practitioner, after which a surname that is also a word is the person's ("Resident Young
#: aware", "NP Price saw pt", "covering MD Brown"), as after a title.
_CLINICIAN_ROLES = frozenset(
    """
attending fellow resident intern surgeon cardiologist oncologist nephrologist neurologist endoscopist anesthesiologist
radiologist pathologist hospitalist intensivist np pa pcp md
""".split()
)
#: A number right after a word: "Day 2", "May 5" are a count or a date, not a surname.
_NUMBER_AFTER_RE = re.compile(r"[ \t]{0,2}\d")
#: Words for a part of a hospital that notes give by its number ("Ward 22", "Bay 4", "BED 3"): before one they are
#: no person and no town.
UNIT_NUMBER_WORDS = frozenset("ward bay bed room rm pod unit level floor wing tower station cubicle suite".split())


def unit_before_number(text: str, low: str, end: int) -> bool:
    """Is the word ``low``, ending at ``end``, a part of a hospital given by the number after it ("Ward 22", "Bay 4")?"""
    return low in UNIT_NUMBER_WORDS and _NUMBER_AFTER_RE.match(text, end) is not None

#: Titles that only ever stand before a person ("MR" is also mitral regurgitation, "ms" multiple sclerosis).
_DOCTOR_TITLES = frozenset("dr drs doctor prof professor rabbi rev reverend pastor imam".split())


#: Units and teams a nurse works on, written before the credential as a role ("IV RN", "ED RN", "OR RN"), no initials.
_NURSE_POSTS = frozenset("iv ed er or icu ccu ob pacu nicu picu micu sicu hh ltc snf".split())


def _initials_before(text: str, toks: list, i: int) -> bool:
    """Is ``toks[i-1]`` a signer's initials right before the credential ``toks[i]`` ("JS, RN", "KMB RN")?

    Two or three capitals, no clinical or role word, at the start of a line or after a dash
    or slash (where a signature stands), joined to the credential; in a capitals line only
    on a short signature line of its own. On a line that holds nothing else, any two or three
    letters in any case.
    """
    p = toks[i - 1]
    if not 2 <= len(p.raw) <= 3 or p.low in ROLES or p.low in LABELS or p.low in FUNCTION_WORDS or p.low in _NURSE_POSTS \
            or not _joined(text, p, toks[i]):
        return False
    ls, le = text.rfind("\n", 0, p.s) + 1, text.find("\n", p.s)
    rest = text[toks[i].e : le if le >= 0 else len(text)]
    more = rest.replace(",", " ").replace("/", " ").lower().split()
    if text[ls : p.s].strip(" \t-") == "" and (_SIGNATURE_REST_RE.match(rest) or rest.strip(" \t.").lower() in _SECOND_ROLES
                                               or more and all(w in CREDENTIALS for w in more)):
        # a line that opens with the initials and the credential ("ck, rn", "lp rn"), then nothing, a time, a
        # second role after a slash or more credentials ("tm rn 2230", "HB RN / CHARGE ...", "jt, pharmd, cacp"): a
        # signature in any case, even when the letters spell a clinical abbreviation (CK, LP)
        return p.raw.isalpha()
    if p.raw.isupper() and p.raw.isalpha() and not rest.strip(" \t.") and text[ls : p.s].rstrip(" \t").endswith("."):
        return True  # "NEXT VISIT 3/4. MF, RN": after the line's last sentence, initials and a credential closing it
    if not p.raw.isupper() or p.cls == C:
        return False
    if p.case != "mixed":
        # in a capitals line only a signature line of its own ("JS, RN")
        ls, le = text.rfind("\n", 0, p.s) + 1, text.find("\n", p.s)
        if len(text[ls : le if le >= 0 else len(text)].strip()) > 12:
            return False
    k = p.s - 1
    while k >= 0 and text[k] in " \t":
        k -= 1
    return k < 0 or text[k] in "\n-/"


#: A second role after a signer's credential, closing the line ("JT, RN CM": the nurse case manager).
_SECOND_ROLES = frozenset("cm ccm charge cn np sw bsn ocn cen ccrn".split())
#: What may follow a signer's initials and credential on their line: nothing, a clock time, a slash and another role.
_SIGNATURE_REST_RE = re.compile(r"[ \t.]*(?:$|/|(?:[01]\d|2[0-3])[0-5]\d[ \t]*$)")

#: A credential, then two or three letters that close the line or stand before a slash: the signer's initials
#: ("TRIAGE RN DL", "rn cb / pct ...").
_INITIALS_AFTER_CREDENTIAL_RE = re.compile(
    r"(?i)(?<![\w/])(?:rn|lpn|lvn|cna|pct|rrt|np|pa-c)[ \t:,]{1,3}([a-z]{2,3})(?=[ \t]*(?:$|\n|/|\|))", re.M
)
#: Role shorthands no role list holds: a case manager, a student nurse, a charge nurse ("-- dm, rn cm", "rn / cv sn").
ROLE_SHORTHANDS = frozenset({"cm", "sn", "cn"})
_NOT_INITIALS = frozenset("ok pt pts am pm ed er icu or iv po bp hr rn md np sw ot pa aware".split()) | ROLE_SHORTHANDS


def find_initials_after_credentials(text: str) -> list[Candidate]:
    """A signer's initials written after the credential at the end of a line or before a slash ("TRIAGE RN DL")."""
    out = []
    for m in _INITIALS_AFTER_CREDENTIAL_RE.finditer(text):
        w = m.group(1).lower()
        if w in _NOT_INITIALS or w in FUNCTION_WORDS or w in ROLES or w in CREDENTIALS or w in LABELS or w in RELATIONS:
            continue
        out.append(Candidate(m.start(1), m.end(1), "NAME", "evidence:credential", 0.85))
    return out


_AGE_TAIL_WORDS = frozenset("yo o old yr yrs yom yof y.o".split())
_DIGIT_BEFORE_RE = re.compile(r"\d[ \t]{0,2}$")


def _sex_letter(text: str, toks: list, k: int) -> bool:
    """Is the single letter ``toks[k]`` a sex after an age ("93 YO F", "67 y/o M", "45 F"), no initial?"""
    t = toks[k]
    if t.raw not in ("M", "F", "m", "f"):
        return False
    if k > 0 and toks[k - 1].low in _AGE_TAIL_WORDS and t.s - toks[k - 1].e <= 3:
        return True
    return _DIGIT_BEFORE_RE.search(text, max(0, t.s - 4), t.s) is not None


def _listed_surname(t: _Tok) -> bool:
    """Is ``t`` a surname the name lexicon lists that is no function word, cue word, credential or title?"""
    return t.low in _lex()[1] and t.low not in FUNCTION_WORDS and t.low not in _NEVER and t.low not in CREDENTIALS \
        and t.low not in TITLES


def _short_surname(t: _Tok) -> bool:
    """A surname of two or three letters right after a title ("dr ng", "Dr. Le"), which may also be a clinical abbreviation."""
    return 2 <= len(t.low) <= 3 and _listed_surname(t) and not t.dot


def _relation_name_ok(text: str, toks: list, k: int) -> bool:
    """May ``toks[k]``, right after a relation word, start a name?

    A relation is weaker evidence than a title: "Mother born 1961", "husband states",
    "wife left" put an everyday word there. An ambiguous word ("born", "states", "hope")
    starts a name only with evidence of its own: it is a given name ("wife Hope",
    "son bill"), it is capitalised in a mixed-case line, or a name follows it.
    """
    t = toks[k]
    if t.cls != A:
        return True
    if k + 1 < len(toks) and toks[k + 1].low in _VERB_PARTICLES and _gap(text, t, toks[k + 1]) == " " \
            and not (t.case == "mixed" and t.raw[:1].isupper()):
        return False  # "mom drew up the insulin", "wife will back out": a verb and its particle
    if t.low in _lex()[0] or t.case == "mixed" and t.raw[:1].isupper():
        return True
    return k + 1 < len(toks) and toks[k + 1].cls == N and _joined(text, t, toks[k + 1], comma=False)


#: A number, a size or a range before a unit ("2.8 X 2.1 CM", "6X14 CM", "1.5 cm", "2-3 cm"): "cm" there is no case manager.
_NUMBER_BEFORE_RE = re.compile(r"\d[ \t]?(?:x[ \t]?)?$", re.IGNORECASE)
#: Particles after a verb ("drew up", "will back out"): a given name that is also a verb is the verb before one.
_VERB_PARTICLES = frozenset("up down out off back over".split())
#: Finite verbs no modal takes ("SON WILL CALLED", "nurse Grace gave report"): the word before them is their subject.
_FINITE_VERBS = frozenset(
    """is was has had came went gave said says brought took left told saw got felt thought stated states reports
    reported called calls visited visits arrived arrives lets gets goes keeps makes wants knows texts cooks cleans
    drives drove sits sat stays stayed lives helps helped works worked comes does brings takes picks checks manages
    died passed found heard kept knew made met sent spoke wrote covers pays approves requires accepts denies
    gives sees administers draws sets assists bathes feeds dresses""".split()
)
#: Base forms that end like a past tense ("will need", "may proceed"): a modal may take them.
_ED_BASE = frozenset("need feed bleed breed speed proceed succeed exceed heed seed shed shred embed wed".split())


def _finite_verb(nx: _Tok) -> bool:
    """Is ``nx`` a finite verb, so that the word before it is its subject, no modal ("WILL CALLED", "GRACE GAVE")?"""
    low = nx.low
    return low in _FINITE_VERBS or len(low) >= 5 and low.endswith("ed") and low not in _ED_BASE and nx.cls in (W, A) \
        or low.endswith(("'d", "’d")) and len(low) >= 4  # "ok'd", "d/c'd": shorthand past tenses


#: Roles of the bedside team, whose surname often is an everyday word ("RT BAKER GAVE DUONEB", "rn cook.").
_BEDSIDE_ROLES = frozenset(
    "rn rrt rt ot slp rd tech technician cna pct sw chaplain interpreter pharmacist therapist nurse dietitian aide sitter "
    "physio paramedic medic np cm".split()
)
#: Words after which the bedside role's word is its person, the subject or the one told ("RN BAKER AWARE"), or who
#: acted on another's word ("given by rn chase per dr ...").
_AFTER_SURNAME = frozenset("aware notified updated eval re per".split())
#: Everyday words in the surname lexicon that follow a role as its object or kind ("RN STAFF", "RT CALL").
_ROLE_OBJECTS = frozenset("staff call report order orders shift student float pool station desk side hand back foot".split())


def _word_surname_after_role(text: str, toks: list, i: int, k: int) -> bool:
    """Is ``toks[k]``, a surname that is also a word, the person of the bedside role ``toks[i]`` before it?

    Only where what follows leaves no other reading: a finite verb, a modal or a predicate ("RT BAKER GAVE", "RD Fox
    following", "SLP Wren eval", "CM PAGE AWARE"), another person joined by "and", "&" or "+" ("RN Sparrow + Mendes",
    "ot lark and slp ..."), a date after "on" ("np bishop on 3/2") or, for a word the clinical vocabulary does not
    claim, the clause's end ("d/w rn cook.", "BY TECH ROOK."). "RT" is also "right": after it only a verb, a modal
    or a predicate will do ("RT HAND." is the right hand).
    """
    t, nk = toks[i], toks[k]
    if t.low == "cm" and _NUMBER_BEFORE_RE.search(text, max(0, t.s - 12), t.s):
        return False  # "3 cm": a unit, no case manager
    if t.low not in _BEDSIDE_ROLES or not _word_surname(nk):
        return False
    if nk.low in _ROLE_OBJECTS or nk.low in RELATIONS or nk.low in CALENDAR_GIVEN_NAMES:
        return False
    if nk.case == "mixed" and not nk.raw[:1].isupper() or _gap(text, t, nk) != " ":
        return False
    nx = toks[k + 1] if k + 1 < len(toks) else None
    g = _gap(text, nk, nx) if nx is not None and not nk.dot else ""
    if g == " ":
        if _finite_verb(nx) or nx.low in _PREDICATE_AFTER_NAME or nx.low in _AFTER_SURNAME or nx.low in _SUBJECT_MODALS:
            return True
        if nx.low == "and" and k + 2 < len(toks):
            return _person_word(toks[k + 2])
        if nx.low == "on" and t.low != "rt" and _NUMBER_AFTER_RE.match(text, nx.e):
            return True  # "last seen by np bishop on 3/2"
    if g in (" + ", " & ", "+", "&"):
        return _person_word(nx)
    return t.low != "rt" and nk.cls == A and (nk.dot or _CLAUSE_END_RE.match(text, nk.e) is not None)


def _person_word(t: _Tok) -> bool:
    """Is ``t`` a role or a word only a name can be ("slp", "Mendes"), as the second of two joined people?"""
    return t.low in ROLES or t.low in TITLES or t.cls in (N, U) or t.cls == A and t.raw[:1].isupper() and t.low in _lex()[1]


#: Words that follow a verb as its object or complement ("rn mark the site", "d/w hope to").
_OBJECT_WORDS = frozenset("the a an to it him her them this that pt patient his their my our".split())


def _object_follows(text: str, toks: list, j: int) -> bool:
    """Does an object follow ``toks[j]`` as one follows a verb (an everyday word, "the", "to"), across one blank?"""
    if j + 1 >= len(toks):
        return False
    nx = toks[j + 1]
    if _gap(text, toks[j], nx) != " ":
        return False
    if _patient_opens_clause(toks, j + 1):
        return False  # "PER RN GRACE PT PULLED AT FOLEY": no object
    return nx.cls == W and nx.low not in FUNCTION_WORDS or nx.low in _OBJECT_WORDS


def _patient_opens_clause(toks: list, j: int) -> bool:
    """Do "pt"/"patient" at ``toks[j]`` and a finite verb after it open a clause ("PER RN GRACE PT PULLED AT FOLEY"),
    so that the word before them is no verb taking the patient as its object?"""
    return toks[j].low in ("pt", "patient") and j + 1 < len(toks) and _finite_verb(toks[j + 1])


#: Days of a visiting schedule ("M/W/F", "mon-fri", "tues/thurs") after a carer's name.
_SCHEDULE_RE = re.compile(
    r"(?i)(?:[mtwrfsu]|mon|tues?|wed|thu|thurs?|fri|sat|sun)(?:[/-](?:[mtwrfsu]|mon|tues?|wed|thu|thurs?|fri|sat|sun)){1,6}(?![\w/-])"
)


def _verb_follows(text: str, toks: list, j: int) -> bool:
    """Is the function word ``toks[j]`` ("will", "may") used as one: lower case in mixed text, or an everyday word after it?"""
    t = toks[j]
    if t.case == "mixed" and not t.raw[:1].isupper():
        return True
    if j + 1 < len(toks):
        nx = toks[j + 1]
        if nx.low in _NAME_THEN_PREP:
            return False  # "case manager ray from the cole center": where the person works, no verb's object
        if nx.low in _WITH_OR_FOR and t.low not in _VERBS_TAKING_FOR and _gap(text, t, nx) == " ":
            return False  # "called by rn amber for desat", "RN Rose w/ heads-up": what the person came for or brought
        if nx.dot and _is_initial(nx, text) and _gap(text, t, nx) == " ":
            return False  # "RN Grace K. at bedside": the initial of a surname, no verb's object ("K" is potassium too)
        if _finite_verb(nx):
            return False  # "SON WILL CALLED FROM ALBANY", "NURSE GRACE GAVE REPORT": the name is the subject
        if _SCHEDULE_RE.match(text, nx.s):
            return False  # "HHA Joy M/W/F", "aide rose mon-fri": the days the person comes, no verb's object
        if nx.low in _SUBJECT_MODALS and nx.low != t.low and j + 2 < len(toks) and toks[j + 2].cls in (W, C, A):
            return False  # "facility nurse crystal can do neuro checks": a modal and its verb after the subject
        if nx.low in _NEVER or nx.low in _PREDICATE_AFTER_NAME:
            return False  # "SW Sandy following", "case manager Grace aware", "SW Rose to see pt": a predicate, no object
        if _patient_opens_clause(toks, j + 1):
            return False  # "PER RN GRACE PT PULLED AT FOLEY": the patient opens the next clause
        if t.low in _MODALS and _gap(text, t, nx) == " " and (nx.low in _PREDICATE_ADJECTIVES or _progressive(nx.low)):
            return False  # "brother will supportive", "grandson will flying in": no modal takes an adjective or an "-ing" form
        if t.low in _MODALS and nx.low in _BASE_VERBS and not (nx.case == "mixed" and nx.raw[:1].isupper()):
            return True  # "son will call tomorrow": a verb that is a surname too ("Will Call" is no one here)
        if t.case == "mixed" and t.raw[:1].isupper() and nx.low.endswith(_ADJECTIVE_ENDINGS) and _gap(text, t, nx) == " ":
            return False  # "Partner Will supportive": written capitalised mid-sentence before an adjective, no modal
        return _joined(text, t, nx, comma=False) and _gap(text, t, nx) != "" and nx.cls in (W, C) and "," not in _gap(text, t, nx)
    return False


#: Latin endings of a species' name after its genus initial ("B. cereus", "S. marcescens"), never taken for a surname.
_SPECIES_ENDINGS = ("us", "ii", "ae", "um", "is", "ens", "es")
#: Words after a relative's given name ("WIFE IDA AT BEDSIDE", "grandma mae does pickup"): where or what the person is.
_AFTER_RELATIVE = frozenset("at from here present does is was has will who visiting visited in and also".split())
#: Endings of adjectives, which no modal takes ("Partner Will supportive", "Will involved" is a verb's: "-ed" is none).
_ADJECTIVE_ENDINGS = ("ive", "ful", "ous", "able", "ible", "ant", "ent")
#: Adjectives said of a person named just before ("brother will supportive", "wife joy tearful"), which no modal takes.
_PREDICATE_ADJECTIVES = frozenset("supportive tearful agreeable anxious concerned helpful available hopeful aware involved frustrated angry".split())
#: Base verbs that end like a progressive form ("will bring", "may sing").
_ING_BASE = frozenset("bring spring string swing cling fling sling sting wring".split())


def _progressive(low: str) -> bool:
    """Is ``low`` an "-ing" form ("flying", "visiting"), which no modal takes, not a base verb ending so ("bring")?"""
    return len(low) >= 6 and low.endswith("ing") and low not in _ING_BASE


#: Modal verbs that are given names too, and verbs after them that are surnames too ("son will call", "may stay").
_MODALS = frozenset("will may can".split())
#: Modal verbs that follow the subject they take ("nurse crystal can do", "aide joy will return").
_SUBJECT_MODALS = frozenset("will can may should would could must".split())
_BASE_VERBS = frozenset("call stay visit bring pick drive walk watch care check meet help sign bell rush".split())
#: Words that open the predicate of a person named just before ("SW Sandy following", "SW Rose to see pt").
# ("doula hope en route", "np rose who agrees", "outreach worker sunny coming tmrw")
_PREDICATE_AFTER_NAME = frozenset("to following involved en who coming arriving".split())
#: Prepositions that follow a person's name ("ray from pharmacy", "mark at the desk"), not a verb.
_NAME_THEN_PREP = frozenset("from at of via".split())
#: Prepositions after a person that no given name's verb takes ("rn amber for desat", "RN Rose w/ heads-up").
_WITH_OR_FOR = frozenset("for with w re".split())
#: Given names that are verbs taking those ("sw hope for placement", "rn will call re", "rn mark with pen").
_VERBS_TAKING_FOR = frozenset("hope wish pray care ask look wait call page mark bill sue pat press chase carry".split())


def find_evidence(text: str, lexicon_recognizers: tuple = (), *, names: bool = True, index: dict | None = None) -> list[Candidate]:
    """NAME, HOSPITAL and LOCATION candidates decided on lexicon and context evidence.

    ``lexicon_recognizers`` (:class:`~clinx.text.recognizers.Recognizer` records with a
    ``lexicon``) are looked up on the same word tokens; ``names=False`` runs only those.
    ``index``: their word index (:func:`_lexicon_index`) when the caller keeps it, which
    saves hashing the records on every call.
    """
    toks = tokens(text)
    n = len(toks)
    if not n:
        return []
    found: list[Candidate] = []
    if lexicon_recognizers:
        if index is None:
            index = _lexicon_index(lexicon_recognizers)
        for t in [t for t in toks if t.low in index]:
            for rec in index[t.low]:
                span = rec.check(TokenMatch(text, t.s, t.e), text)
                if span is not None:
                    found.append(Candidate(span[0], span[1], rec.category, f"rule:{rec.name}", rec.score))
    if not names:
        return found
    return found + _find_names(text, toks)


@lru_cache(maxsize=16)
def _lexicon_index(recs: tuple) -> dict[str, tuple]:
    """word -> the lexicon recognisers listing it (one dict lookup per token instead of one per record)."""
    index: dict[str, list] = {}
    for rec in recs:
        for w in rec.lexicon:
            index.setdefault(w, []).append(rec)
    return {w: tuple(v) for w, v in index.items()}


def _find_names(text: str, toks: list) -> list[Candidate]:
    n = len(toks)
    first, last, _, _, place_set, _ = _lex()
    out: list[Candidate] = []
    named = [False] * n
    inst = [False] * n  # tokens already inside an institution's name

    def add(i: int, j: int, cat: str, source: str, score: float) -> None:
        while cat == "NAME" and j - i > 1 and unit_before_number(text, toks[j - 1].low, toks[j - 1].e):
            j -= 1  # "RESIDENT: EVELYN MARSH  RM 214B": the room after a name is the room's
        if j <= i:
            return
        # take in initials right before ("J. Kowalczyk", "K HOLLOWAY")
        while i > 0 and _is_initial(toks[i - 1], text) and _joined(text, toks[i - 1], toks[i], comma=False) and cat == "NAME" \
                and not _sex_letter(text, toks, i - 1):
            i -= 1
            # "Xzavier Q. Gill": a given name no lexicon knows stands before the middle initial
            p = toks[i - 1] if i > 0 else None
            if p is not None and not named[i - 1] and p.cls in (N, U) and p.raw[:1].isupper() and len(p.raw) >= 3 \
                    and _joined(text, p, toks[i], comma=False):
                i -= 1
                break
        end = toks[j - 1].e
        if cat == "NAME" and j < n and _trailing_initial(text, toks[j - 1], toks[j]):
            end = toks[j].e  # "KOWALSKI, DOROTHY M   MRN": a middle initial closes the name
            j += 1
        if cat == "HOSPITAL":
            # an institution's possessive is part of its name ("St. Elizabeth's", "Children's")
            if text[end : end + 2].lower() in ("'s", "’s") and (end + 2 == len(text) or not text[end + 2].isalnum()):
                end += 2
        out.append(Candidate(toks[i].s, end, cat, source, score))
        for k in range(i, j):
            named[k] = True
            if cat == "HOSPITAL":
                inst[k] = True

    lows = [t.low for t in toks]
    # each pass visits only the tokens that can start its pattern: one lookup per token in a
    # table of every pass's trigger words (:func:`_trigger_lists`) instead of one scan per pass
    cue_idx, saint_idx, hosp_idx, extra, town_idx, head_idx, venue_idx, run_idx, place_idx, city_idx = _trigger_lists(toks, lows)
    for i in cue_idx:
        t = toks[i]
        if t.s and text[t.s - 1].isdigit():
            continue  # "3rd floor": an ordinal's ending, not the dietitian's "rd"
        if t.low == "fr" and (text[: t.s].rstrip()[-1:].isdigit() or not t.raw[:1].isupper() or t.raw.isupper() and t.case != "caps"):
            continue  # "14 Fr foley", "16 fr": a catheter's French gauge; "Fr. Milos" the priest
        low = t.low
        k = i + 1
        last_tok = k >= n  # a credential may end the note ("P. Galloway, MD"): only the look-back applies
        nk = toks[k] if not last_tok else t
        # ---- a role in parentheses after a name: "Hope (SW)", "Ingrid Solheim (HCP)", "Tamika (RN)"
        # ("rose (pt's wife)", "Ana (his daughter)": the relation may be said of the patient)
        o = i - 1 if i > 1 and low in RELATIONS and (lows[i - 1] in _WHOSE and text[toks[i - 1].e : t.s].lower() in (" ", "'s ", "’s ")
                                                     or lows[i - 1] in _WHOSE_POSSESSIVE and text[toks[i - 1].e : t.s] == " ") else i
        if o == i and i > 1 and lows[i - 1] in _ROLE_MODIFIERS and (low in ROLES or low in CREDENTIALS) and _gap(text, toks[i - 1], t) == " ":
            o = i - 1  # "Sandy (charge RN)", "Rose (case manager)": the role says which nurse
        if o > 0 and not named[o - 1] and text[toks[o].s - 2 : toks[o].s] == " (" and text[t.e : t.e + 1] == ")" \
                and (low in CREDENTIALS or low in ROLES or low in RELATIONS):
            k0 = o - 1
            while k0 > 0 and o - k0 < 3 and _joined(text, toks[k0 - 1], toks[k0], comma=False) and toks[k0 - 1].cls in (N, U, A) \
                    and toks[k0 - 1].low not in TITLES:
                k0 -= 1
            run = [toks[m] for m in range(k0, o)]
            # ("rose (daughter)" in lower case: a given name before a relation in parentheses)
            if run and all(_paren_name_ok(r) for r in run) and any(r.cls in (N, U) or r.raw[:1].isupper() or r.low in first for r in run):
                add(k0, o, "NAME", "evidence:role", 0.9)
        # ---- a name, then a comma and a relation: "Family (Grace, daughter)", "rose, wife", "Dawn, pt's partner, visited",
        # "CHASE KING, HER FIANCE", "Mark Brown, wife"
        if low in RELATIONS and o > 0 and not named[o - 1] and text[toks[o - 1].e : toks[o].s] == ", ":
            k0 = o
            while k0 > 0 and o - k0 < 3 and not named[k0 - 1] and (k0 == o or _joined(text, toks[k0 - 1], toks[k0], comma=False)):
                r = toks[k0 - 1]
                if r.cls not in (N, U, A) or r.low in FUNCTION_WORDS or r.low in TITLES or r.case == "mixed" and not r.raw[:1].isupper():
                    break
                k0 -= 1
            run = toks[k0:o]
            if run and any(r.cls in (N, U) or _word_given_name(r) for r in run):
                add(k0, o, "NAME", "evidence:cue", 0.9)
        # ---- cue before: a title or a relation vouches even for ambiguous words ("wife Hope", "dr hunter")
        g = None if last_tok else _cue_gap(text, t, nk)
        # "her name is Dawn", "HCP is Grace, her sister": "is" after a naming noun or a relation word is that cue's
        said = low == "is" and i > 0 and _gap(text, toks[i - 1], t) == " "
        naming = low in _NAMING_WORDS or said and lows[i - 1] in _NAME_NOUNS
        relation = low in RELATIONS or said and lows[i - 1] in RELATIONS or low in _PEOPLE_LABELS and g is not None and ":" in g
        # "Baby Girl Reyes", "BABY BOY HOPE": a newborn's label before the family name, as a title is
        titled = low in TITLES or low in _NEWBORN and i > 0 and (lows[i - 1] == "baby" and _gap(text, toks[i - 1], t) == " "
                                                                 or lows[i - 1] == "infant" and _gap(text, toks[i - 1], t) == ": ")
        if titled and low in _DEGREES and i > 0 and named[i - 1] and _gap(text, toks[i - 1], t) == ", ":
            titled = False  # "Dr. Jackson, MS Date: ...": a degree after a name and its comma, not the title "Ms"
        # a title is never followed by a comma ("MONITOR MS, FALL PRECAUTIONS": Mississippi or multiple sclerosis)
        if g is not None and (titled and "," not in g or relation and _relation_name_ok(text, toks, k)
                              or naming and nk.cls != C):
            j = _take_name(text, toks, k, allow_ambiguous=True)
            # ("teacher ms hill says": in lower case a reporting verb after the word makes it the subject, a surname)
            subject_after = t.case == "lower" and k + 1 < len(toks) and toks[k + 1].low in _SPEAKING_VERBS \
                and _gap(text, nk, toks[k + 1]) == " "
            courtesy = low == "mrs" or low in ("mr", "ms") and (t.dot or subject_after)
            if j == k and low in TITLES and _short_surname(nk):
                j = k + 1  # "dr ng", "Dr. Wu": a two- or three-letter surname the word classes call no name
            elif j == k and low in _DOCTOR_TITLES and nk.dot and _is_initial(nk, text) and k + 1 < len(toks) \
                    and _gap(text, nk, toks[k + 1]) == " " and len(toks[k + 1].low) >= 3 and _listed_surname(toks[k + 1]):
                j = k + 2  # "pcp dr t. hill", "DR R. SMALL": an initial and a surname that is also a clinical word
            elif j == k and (low in _DOCTOR_TITLES or courtesy) and nk.cls == C and len(nk.low) >= 4 and _listed_surname(nk):
                j = k + 1  # "dr. hill", "DR SMALL", "MRS. WALKER": a surname that is also a clinical word, after a title
            elif j == k and courtesy and nk.cls in (W, A) \
                    and len(nk.low) >= 4 and nk.low not in FUNCTION_WORDS and nk.low not in _NEVER and not nk.low.endswith(("ed", "ing")) \
                    and (t.raw[1:2].islower() and nk.raw[:1].isupper() if t.case == "mixed" else _CLAUSE_END_RE.match(text, nk.e) or subject_after):
                # "MR. HOBART,", "mrs. bishop.": after a courtesy title a word closing its clause is a surname; "mr" needs
                # its dot, and in capitals a clause's end ("MOD MR. STRESS TEST": mitral regurgitation, a sentence's end);
                # or a finite verb after the word, whose subject it is ("teacher ms hill says")
                j = k + 1
            elif j == k and low in RELATIONS and nk.cls == C and (len(nk.low) >= 3 or _titled_pair(nk)) and nk.low in _lex()[0] \
                    and nk.low not in FUNCTION_WORDS and nk.low not in _NEVER and nk.low not in CREDENTIALS and nk.low not in ROLES \
                    and (_CLAUSE_END_RE.match(text, nk.e) or k + 1 < len(toks) and (_finite_verb(toks[k + 1]) or toks[k + 1].low in _AFTER_RELATIVE)
                         or _PHONE_AFTER_NAME_RE.match(text, nk.e) is not None):
                # "wife ida, she is primary cg", "grandma mae does pickup", "dtr Ama 617-555-0124": a given name that is
                # also a clinical abbreviation (IDA, MAE, AMA), right after a relative's word and closing its clause, before
                # a verb or before the relative's number
                j = k + 1
            elif j == k and low in RELATIONS and nk.cls == C and nk.low in _lex()[0] and len(nk.low) >= 3 and k + 1 < len(toks) \
                    and toks[k + 1].cls in (N, U) and _joined(text, nk, toks[k + 1], comma=False) and nk.low not in FUNCTION_WORDS \
                    and (nk.case != "mixed" or nk.raw[:1].isupper()):
                j = _take_name(text, toks, k + 1, allow_ambiguous=False)  # "NEPHEW ARNOLD GOLDFARB", "dad Hemi Tuhiwai": a
                # given name the clinical vocabulary also lists (Arnold's nerve, hemi-), before a surname only a name can be
            elif j == k and low in RELATIONS and nk.cls == W and nk.case == "mixed" and nk.raw[:1].isupper() and nk.raw[1:].islower() \
                    and nk.low not in _NEVER and (
                        # "Daughter Temperance (508-555-0161)": before the relative's number
                        len(nk.low) >= 4 and _PHONE_AFTER_NAME_RE.match(text, nk.e) is not None
                        # "Wife Ora noted red streaks", "Grandson Colt works at ...": before a verb in small letters, its subject
                        or len(nk.low) >= 3 and nk.low not in FUNCTION_WORDS and not nk.low.endswith(("ed", "ing")) and not _finite_verb(nk)
                        and k + 1 < len(toks) and _gap(text, nk, toks[k + 1]) == " " and _finite_verb(toks[k + 1])
                        and toks[k + 1].case == "mixed" and toks[k + 1].raw.islower()):
                j = k + 1  # a capitalised everyday word right after a relative's word is the relative's name
            if j > k and said and (not _CLAUSE_END_RE.match(text, toks[j - 1].e) or nk.cls == U and not nk.raw[:1].isupper()):
                j = k  # "X is <name>" ends its clause there ("HCP is Grace, her sister"; not "wife is pretty upset")
            if j > k and not (low in RELATIONS and is_eponym(text, toks[k:j])):  # ("Sister Mary Joseph nodule")
                add(k, j, "NAME", "evidence:cue", 0.95)
                continue
        if low == "w":
            # "spoke w/ mike", "d/w grace from pharmacy": the shorthand of "with" after a verb of meeting, and of
            # "discussed with"; a given name that is also a word counts unless an object follows it ("d/w hope to")
            slash = text[t.e : t.e + 1] == "/"
            # ("f/u w/ tricounty", "f/u w/ okafor": whom or where the follow-up is with; a name, or a word no lexicon
            # knows of five letters or more: "f/u w/ auth", "f/u w/ otp" are processes and programmes)
            follow_up = slash and not last_tok and _FOLLOW_UP_BEFORE_RE.search(text, max(0, t.s - 12), t.s) is not None \
                and (toks[i + 1].cls == N or toks[i + 1].cls == U and len(toks[i + 1].low) >= 5)
            if last_tok or not (slash and i > 0 and lows[i - 1] in _WITH_VERBS or text[t.s - 2 : t.s] == "d/" or follow_up):
                continue
            g = text[t.e + slash : nk.s]
            if not 1 <= len(g) <= 2 or g.strip(" \t") or nk.low in TITLES or nk.low in RELATIONS:
                continue
            given = nk.cls == A and nk.low in first and nk.low not in FUNCTION_WORDS and (nk.case != "mixed" or nk.raw[:1].isupper()) \
                and not _object_follows(text, toks, k)
            j = _take_name(text, toks, k, allow_ambiguous=given)
            if j > k:
                add(k, j, "NAME", "evidence:role", 0.9)
            continue
        # ---- a role or a label: pure names and unknown words ("RN Tamika", "Name: Okafor"), ambiguous
        # words only after "Label:" ("ATTENDING: WILL BRENNAN")
        # "SPOKE TO GRACE ON PHONE", "message left for joy": a person after a verb of speaking and its preposition
        comm = low in _COMM_PREPS and i > 0 and lows[i - 1] in _COMM_VERBS \
            and not (nk.case == "mixed" and not nk.raw[:1].isupper())  # ("left message with callback number")
        # ("referral from cm joy.": a case manager's shorthand, not the unit after a number, "3 cm")
        case_manager = low == "cm" and not _NUMBER_BEFORE_RE.search(text, max(0, t.s - 12), t.s)
        cue = low in ROLES or low in LABELS or low in _CLINICIAN_ROLES or comm or (low == "with" and i > 0 and lows[i - 1] in _WITH_VERBS) \
            or case_manager or low in _OFFICERS
        if cue and not last_tok and nk.low not in TITLES and nk.low not in RELATIONS:
            g = _cue_gap(text, t, nk)
            if g is not None and low == "md" and g.strip(" \t") and not (":" in g and i > 0 and lows[i - 1] in _MD_FIELD_WORDS):
                # "MD, EHMS", "MD: ..." : after the credential a comma gives an affiliation; only "MD Brown" names,
                # and a field of the clinician's part ("ADMITTING MD: S. GREENBLATT", "Referring MD: ...")
                g = None
            if g is not None:
                colon = ":" in g
                weak = low in _WEAK_LABELS and not colon
                # "seen by smith": after a verb of care and "by", a surname that is also a word
                by_surname = low == "by" and i > 0 and lows[i - 1] in _BY_VERBS and nk.cls == A and nk.low in last \
                    and nk.low not in FUNCTION_WORDS and (nk.case != "mixed" or nk.raw[:1].isupper()) and not _object_follows(text, toks, k)
                weak = weak and not by_surname
                # "met with Heather": after a verb of meeting, a capitalised given name that is also a word
                given = low == "with" and nk.cls == A and nk.case == "mixed" and nk.raw[:1].isupper() and nk.low in first \
                    and nk.low not in FUNCTION_WORDS
                # "Per Grace, pt lives alone": after "per", a given name that closes its clause; "per moody at the
                # pharmacy": a given name or surname, then where the person works
                given = given or low == "per" and _word_given_name(nk) and _CLAUSE_END_RE.match(text, nk.e) is not None
                given = given or low == "per" and nk.cls == A and (nk.low in first or nk.low in last) and nk.low not in FUNCTION_WORDS \
                    and (nk.case != "mixed" or nk.raw[:1].isupper()) and _AT_PLACE_AFTER_RE.match(text, nk.e) is not None
                given = given or comm and _word_given_name(nk) and not _object_follows(text, toks, k)
                # "rn case mgr ruby will visit", "SW GRACE": after a role, a given name that is also a word, unless
                # a word follows it as an object follows a verb ("rn mark site") or it is lower case in mixed text
                # ("foreman will is aware": a modal before a finite verb is a name, the verb's subject; so before "who" or
                # where the person works: "house manager Will who states", "home aide will from visiting angels")
                # ("sponsor will.", "rn mark\n", "MD Smith, RN will."): a lower-case given name closing its clause
                closing = not nk.raw[:1].isupper() and _CLAUSE_END_RE.match(text, nk.e) is not None
                role_given = (low in ROLES or low in _CLINICIAN_ROLES or case_manager) and low not in _WEAK_LABELS and nk.cls == A \
                    and (nk.low in first or low in _CLINICIAN_ROLES and nk.low in last and not _NUMBER_AFTER_RE.match(text, nk.e)) \
                    and (nk.low not in FUNCTION_WORDS or closing and nk.low == "will" or nk.low in _MODALS and k + 1 < len(toks) and (
                        _finite_verb(toks[k + 1]) or toks[k + 1].low in _PREDICATE_AFTER_NAME or toks[k + 1].low in _NAME_THEN_PREP
                        # ("charge rn will aware of cr": no modal takes an adjective)
                        or toks[k + 1].low in _PREDICATE_ADJECTIVES and _gap(text, nk, toks[k + 1]) == " ")
                        # "former sponsor Will. Girlfriend ...": capitalised in a mixed-case line, closing its sentence
                        # (or in a line of capitals: "SPLINT APPLIED BY TECH WILL.")
                        or nk.low in _MODALS and (nk.case == "mixed" and nk.raw[:1].isupper() or nk.case == "caps") and nk.dot) \
                    and (closing or (nk.case != "mixed" or nk.raw[:1].isupper()) and not _verb_follows(text, toks, k))
                given = given or role_given
                role_surname = _word_surname_after_role(text, toks, i, k)
                given = given or role_surname
                weak = weak and not given
                # ("Re:" heads a letter's subject line; mid-line it means "about": "D/W DR. HUNTER RE: CPM"; a clinical
                # word after it is a topic, "RE: DISCHARGE PLANNING")
                field = low in _FIELD_LABELS and (low not in _TOPIC_LABELS or not text[text.rfind("\n", 0, t.s) + 1 : t.s].strip())
                topic = low in _TOPIC_LABELS and not _given_then_surname(text, toks, k)  # "re: new LBBB", "RE: GRACE HILL"
                j = _take_name(text, toks, k, allow_ambiguous=colon and not topic or given or by_surname, pure_only=weak,
                               any_word=colon and field and not (low in _TOPIC_LABELS and nk.cls == C))
                if j == k and (role_surname or role_given and closing):
                    j = k + 1  # "RT BAKER GAVE", "rn bell re:": a surname the clinical vocabulary also claims
                elif j == k and (low in ROLES or low in _OFFICERS or low == "by" and i > 0 and lows[i - 1] in _BY_VERBS) \
                        and nk.dot and nk.raw.isupper() and _is_initial(nk, text) and k + 1 < len(toks) \
                        and _word_surname(toks[k + 1]) and _gap(text, nk, toks[k + 1]) == " " \
                        and (toks[k + 1].case != "mixed" or toks[k + 1].raw[:1].isupper()):
                    j = k + 2  # "PD OFFICER R. HILL (#4471)", "Dictated by R. Hill": a role, an officer or a verb of
                    # writing or care and "by", an initial and its dot, a surname that is a word
                if j == k and low == "by" and nk.cls == U and 2 <= len(nk.raw) <= 3 and nk.raw.isalpha() \
                        and not text[nk.e : text.find("\n", nk.e) if "\n" in text[nk.e :] else len(text)].strip(" \t.;"):
                    j = k + 1  # "logged by ktw" closing its line: the writer's initials
                if j == k + 1 and nk.low == "see" and _SEE_WHERE_RE.match(text, nk.e):
                    j = k  # "Typed: see below": a pointer to another part of the note, not Mr See
                if j > k and _report_verb(nk) and k + 1 < len(toks) and toks[k + 1].cls in (W, C, A) \
                        and _gap(text, nk, toks[k + 1]) == " ":
                    j = k  # "PT: needs walker, recs rehab": physical therapy's finding, the verb and its object
                if j > k:
                    add(k, j, "NAME", "evidence:role", 0.9)
                    continue
        # "DICTATED BY: X", "seen with Dr", "d/w": label with colon gap
        if low in CREDENTIALS and i > 0 and not named[i - 1]:
            # walk back over the name before the credential ("Thomas Whitfield, MD")
            j = i
            while j > 1 and (toks[j - 1].low in _DEGREES or toks[j - 1].low in _THERAPIST_LETTERS and j == i) \
                    and _joined(text, toks[j - 1], toks[j]):
                j -= 1  # "l. ferreira-santos, ma ccc-slp": a degree before the credential is part of it; so is a
                # therapist's discipline ("B. ASHWORTH, PT, DPT", "OT, OTR/L")
            k = j - 1
            cnt = 0
            while k >= 0 and cnt < 3 and _joined(text, toks[k], toks[k + 1]) and (
                    toks[k].cls in (N, U, A) or _is_initial(toks[k], text)
                    # "lakeisha p rn": a lower-case initial between a given name and the credential
                    or cnt == 0 and len(toks[k].raw) == 1 and toks[k].raw.isalpha() and k > 0
                    and (toks[k - 1].cls in (N, U) or toks[k - 1].low in first and toks[k - 1].cls == A)
                    and _gap(text, toks[k], t) in (" ", ", ") and _gap(text, toks[k - 1], toks[k]) == " "
                    # "Walter Ng, MD": a short surname the clinical vocabulary also lists, after a given name
                    or cnt == 0 and _short_surname(toks[k]) and k > 0 and toks[k - 1].low in first and toks[k - 1].cls in (N, A)
                    and _joined(text, toks[k - 1], toks[k], comma=False) and (toks[k].case != "mixed" or toks[k].raw[:1].isupper())
                    # "K. BLACKWATER EMT-B", "seen by K. Blackwater, RN": a surname that is an everyday word, after an initial
                    or cnt == 0 and _word_surname_after_initial(text, toks, k)
                    # "REPORT GIVEN TO STONE, RN": a surname that is a word, between a preposition of handing over and the credential
                    or cnt == 0 and _word_surname_after_preposition(text, toks, k)):
                if toks[k].low in CREDENTIALS or toks[k].low in TITLES:
                    break
                k -= 1
                cnt += 1
            span = range(k + 1, j)
            if cnt and low in STREET_SUFFIXES and HOUSE_NUMBER_BEFORE_RE.search(text, max(0, toks[k + 1].s - 9), toks[k + 1].s):
                continue  # "2218 W Cermak Rd": a road after its house number, no dietitian (the street pass takes it)
            # "Thomas Whitfield, MD"; "P. Galloway, MD": an initial vouches for an ambiguous surname
            if cnt and (any(toks[m].cls in (N, U) for m in span) or any(_is_initial(toks[m], text) for m in span) and any(toks[m].cls == A for m in span)
                        or cnt == 2 and _word_surname_after_initial(text, toks, j - 1)
                        or cnt == 1 and _word_surname_after_preposition(text, toks, i - 1)
                        or cnt == 1 and _word_name_before_credential(text, toks[i - 1], t) and not _compound_before(text, toks, i - 1)
                        or cnt >= 2 and low in _PERSON_CREDENTIALS and _given_then_surname(text, toks, i - 2)
                        and (toks[i - 2].low not in FUNCTION_WORDS or _signs_line(text, toks[i - 2], toks[i - 1], t))):
                add(k + 1, j, "NAME", "evidence:credential", 0.9)
            elif not cnt and _initials_before(text, toks, i):
                add(i - 1, i, "NAME", "evidence:credential", 0.85)  # "JS, RN", "KMB RN": a signer's initials
    # ---- "St. Elizabeth's", "ST. MARY": a saint's name is an institution's
    # (before the lexicon runs, which would take "St. Elizabeth" for a person and leave its "'s")
    for i in saint_idx:
        t = toks[i]
        if t.s and text[t.s - 1].isdigit():
            continue  # "1ST FLOOR": an ordinal's ending, no saint
        if i + 1 >= n or named[i + 1] or toks[i + 1].cls == C or not _joined(text, t, toks[i + 1], comma=False):
            continue
        nx = toks[i + 1]
        # "st marys", "ST JOSEPHS": a saint's given name, in any case, with or without the dot
        saint = nx.low in first or nx.low.endswith("s") and nx.low[:-1] in first
        # "st. e's", "ST. V'S": a saint's initial and a possessive, the ward's short name for the hospital
        letter = len(nx.raw) == 1 and nx.raw.isalpha() and text[nx.e : nx.e + 2].lower() in ("'s", "’s")
        # (in a capitals line a capital says nothing: "ST. ELEVATION" is the ECG's ST segment)
        capital = nx.raw[:1].isupper() and not (nx.raw.isupper() and nx.cls == W)
        if (t.dot or t.low == "saint") and capital or saint or letter:
            if not (i > 0 and toks[i - 1].raw[:1].isdigit()):
                add(i, i + 2, "HOSPITAL", "evidence:saint", 0.9)
    # ---- well-known hospitals and health systems by name, in any case ("harvard vanguard", "MGH", "St. Mary's")
    _known_hospitals(text, toks, lows, named, add, hosp_idx)
    # ---- two-word places before the name runs, which would take "jamaica" of "jamaica plain" for a person
    # and leave "plain" ("new hampshire", "fall river"); not in mixed case unless both words are capitalised
    place_first = _place_first()
    # the passes below start only at their trigger words: one scan finds them all (most notes have none)
    for i in [i for i in extra if lows[i] in place_first]:
        if i + 1 >= n or named[i] or named[i + 1] or toks[i].cls == C or toks[i + 1].cls == C:
            continue
        t, nx = toks[i], toks[i + 1]
        if t.cls not in (N, U) and nx.cls not in (N, U):
            continue  # no name run would start there ("South Shore Mental Health" is left to the venue rules)
        if f"{t.low} {nx.low}" in place_set and _joined(text, t, nx, comma=False) \
                and (t.case != "mixed" or t.raw[:1].isupper() and nx.raw[:1].isupper()):
            if f"{t.low} {nx.low}" in STATE_NAMES:
                named[i] = named[i + 1] = True  # "lives in new hampshire": a state, kept (and no name run's)
                continue
            add(i, i + 2, "LOCATION", "evidence:place", 0.85)
    # ---- "lives with son's family in Fields Corner": a neighbourhood of everyday words after "lives ... in"
    # (before the name runs, which would take "savin" of "savin hill" for a person and leave "hill")
    for i in venue_idx:
        if lows[i] == "in" and i + 2 < n and not named[i + 1]:
            j = _home_area_run(text, toks, lows, i, named)
            if j > i + 1:
                add(i + 1, j, "LOCATION", "evidence:place", 0.85)
    # ---- "HIS EMPLOYER (UPS)", "employer: Staples": an employer's name, even an everyday word, up to the field's end
    for i in [i for i in extra if lows[i] == "employer"]:
        t = toks[i]
        opener = text[t.e : t.e + 2]
        if i + 1 >= n or named[i + 1] or not (opener.startswith(":") or opener == " (") or lows[i + 1].split("-")[0] in _NO_EMPLOYER_VALUE:
            continue
        closer = ")" if opener == " (" else None
        j = i + 1
        while j < n and j - i <= 4 and not named[j] and (j == i + 1 or _joined(text, toks[j - 1], toks[j], comma=False)):
            if (lows[j] in _VALUE_STOP or lows[j] in FUNCTION_WORDS) and not (lows[j] == "and" and j > i + 1):
                break  # ("Employer: Smith and Sons" goes on over its "and")
            j += 1
        while j > i + 1 and lows[j - 1] == "and":
            j -= 1
        if j == i + 1:
            continue
        rest = text[toks[j - 1].e : toks[j - 1].e + 3].lstrip(" .")
        if closer and not rest.startswith((")", "-", ",")) or not closer and not (rest[:1] in ("", "\n", ",", ";", ".") or j == n):
            continue  # the value must fill the parenthesis or the field
        add(i + 1, j, "HOSPITAL", "evidence:field", 0.88)
    # ---- "NURSING HOME: SEVEN HILLS", "pharmacy: walgreens": the value of a field that names an institution
    for i in [i for i in extra if lows[i] in _INSTITUTION_FIELDS]:
        t = toks[i]
        if i >= 1 and (lows[i - 1], t.low) in _INSTITUTION_FIELD_PAIRS:
            pass
        elif t.low not in _INSTITUTION_FIELDS_ALONE:
            continue
        if i + 1 >= n or text[t.e : t.e + 1] != ":" or "\n" in text[t.e : toks[i + 1].s]:
            continue
        k = j = i + 1
        while j < n and j - k < 5 and not named[j] and (j == k or _joined(text, toks[j - 1], toks[j], comma=False)) \
                and lows[j] not in _FIELD_STOP and lows[j] not in _VALUE_STOP:
            j += 1
        run = toks[k:j]
        # everyday words too when a name or an unknown word stands among them ("FACILITY: BAYVIEW TERRACE"), or when
        # the value ends in an institution's head ("HOSPICE: CARE ALLIANCE HOSPICE")
        # ("OSH: Dorchester", "OSH: Lakeside General": a town names the institution that stands in it)
        placed = any(r.low in place_set and r.cls != C for r in run)
        named_run = any(r.cls in (N, U) for r in run) or run and run[-1].low in HOSPITAL_HEADS and len(run) > 1 or placed
        if run and (placed or any(r.cls in (N, U, A) for r in run)) and not any(
            r.cls == W and not named_run or r.cls == C and r.low not in FUNCTION_WORDS and r.low not in HOSPITAL_HEADS for r in run
        ):
            add(k, j, "HOSPITAL", "evidence:field", 0.88)
    # ---- streets in any case: "45 harvard st, dorchester", "lives on elm st", "LIVES ON MAPLE AVE, EVERETT"
    for i in [i for i in extra if lows[i] in STREET_SUFFIXES]:
        if i == 0 or named[i]:
            continue
        if lows[i] == "dr" and i + 1 < n and _joined(text, toks[i], toks[i + 1], comma=False) and lows[i + 1] not in FUNCTION_WORDS \
                and _UNIT_RE.match(text, toks[i].e) is None:
            continue  # "2 residents dr smith": a doctor's title; "60 forest hills dr with daughter", "9711 OAK DR STE 200"
            # (a suite's number after it) are streets
        # (a street's name may be a street word itself, "580 COURT STREET", "12 park ave": then a house number vouches;
        # with a house number before them, names found already may be the street's: "3310 [mount vernon] rd")
        k = _street_name_start(text, toks, i, named, over_found=False)
        k_found = _street_name_start(text, toks, i, named, over_found=True)
        if k_found < k and (_HOUSE_NUMBER_END_RE.search(text[max(0, toks[k_found].s - 9) : toks[k_found].s])
                            # ("AT RT 9 AND MAPLE RD": where two roads meet, a found name may be the second's)
                            or _after_a_street(text, toks, k_found, named)):
            k = k_found
        if k == i:
            continue
        number = _HOUSE_NUMBER_END_RE.search(text[max(0, toks[k].s - 9) : toks[k].s])
        if toks[i - 1].low in STREET_SUFFIXES and k == i - 1 and not number:
            continue
        if all(lows[m] in _DOSE_UNITS for m in range(k, i)):
            continue  # "enoxaparin 40 mg SQ", "1.5 mm ST depression": a dose or a size, then a route or a segment
        if number and lows[k] in _DISTANCE_UNITS:
            continue  # "lives ~40 mi dirt road from town", "walked 300 ft hallway": a distance, no house number
        before = lows[k - 1] if k > 0 else ""
        if number:
            start_at = toks[k].s - len(number.group())
        elif before in _SQUARE_CUES and toks[i].low in ("square", "sq") and all(toks[m].cls in (N, U) or lows[m] in place_set for m in range(k, i)):
            start_at = toks[k].s  # "at kenmore square", "near Davis Sq": a square is named after a place or a person
        elif (before in _STREET_CUES and toks[i].low in _STREET_ABBREVS or before == "at" and toks[i].low in ("street", "avenue", "road")
              # "corner of Elm St", "intersection of route 9 and Elm St": where two streets meet, each is one
              or (before == "of" and k >= 2 and lows[k - 2] in _CROSSING_WORDS or _after_a_street(text, toks, k, named))
              and (toks[i].low in _STREET_ABBREVS or toks[i].low in _STREET_WORDS_WRITTEN)
              # "Walgreens #4471, Dorchester Ave", "BINGHAM APOTHECARY, PLEASANT ST": a street as a field of an address
              or toks[i].low in _STREET_ABBREVS and k > 0 and text[toks[k - 1].e : toks[k].s] in (", ", ",")
              and all(toks[m].cls != C and toks[m].low not in FUNCTION_WORDS for m in range(k, i))
              # "lives on elm street": after a verb of living, the street word written out too
              or before in ("on", "off") and k >= 2 and lows[k - 2] in _LIVING_VERBS and toks[i].low not in ("court", "place", "square", "circle")
              # "on Fleet Street", "ON BALTIMORE PIKE", "on College Way": a street word written out after "on"/"off"/
              # "near", after words of a name (capitalised, in a mixed-case line; "way", "lane", "drive" only there)
              or before in ("on", "off", "near") and (toks[i].low in _STREET_WORDS_WRITTEN or toks[i].low in _STREET_WORDS_CAPITALISED and toks[i].case == "mixed")
              and all(toks[m].cls != C and toks[m].low not in FUNCTION_WORDS and (toks[m].case != "mixed" or toks[m].raw[:1].isupper()) for m in range(k, i + 1))) and (
            toks[i].low != "st" or all(toks[m].cls != C for m in range(k, i))  # ("on ... ST" may be an ST segment)
            or text[toks[i].e : toks[i].e + 1] == "."  # ("ON CANAL ST.": an ST segment has no dot)
            or not _ST_SEGMENT_AFTER_RE.match(text, toks[i].e)  # ("day shelter on canal st)": no ECG word after it)
        ):
            start_at = toks[k].s
        else:
            continue
        j = i + 1
        end_at = toks[i].e
        # " NW": a quarter after the street's word ("418 3rd Ave NW")
        compass = _COMPASS_AFTER_STREET_RE.match(text, toks[i].e)
        if compass is not None:
            end_at = compass.end()
            while j < n and toks[j].s < end_at:
                j += 1
        # ", apt 4", " unit 2B", " #3": the unit after the street
        unit = _UNIT_RE.match(text, end_at)
        if unit is not None:
            end_at = unit.end()
            while j < n and toks[j].s < end_at:
                j += 1
        # ", dorchester": the town after the street; ", Hull." one the lexicon lacks, capitalised and closing the address
        if j < n and text[max(end_at, toks[j - 1].e + (1 if toks[j - 1].dot else 0)) : toks[j].s] in (", ", ",") and toks[j].cls != C \
                and (lows[j] in place_set or toks[j].raw[:1].isupper() and lows[j] not in FUNCTION_WORDS and _TOWN_CLOSES_RE.match(text, toks[j].e)):
            j += 1
            end_at = toks[j - 1].e
            # "Dorchester 02125": the ZIP code right after the town
            z = _ZIP_AFTER_RE.match(text, end_at)
            if z is not None:
                out.append(Candidate(z.start(1), z.end(1), "ZIP", "evidence:street", 0.88))
        out.append(Candidate(start_at, end_at, "LOCATION", "evidence:street", 0.88))
        for m in range(k, j):
            named[m] = True
    # ---- "SAUGUS FIRE", "Quincy Fire Dept", "lynn police": a town's public service is an organisation
    # (the town may already be taken as a place or a name: the spans are merged)
    for i in town_idx:
        if i == 0 or named[i] or not _joined(text, toks[i - 1], toks[i], comma=False):
            continue
        if lows[i] in _DEPT_TAILS:
            _emergency_department(text, toks, lows, i, named, add)
            continue
        p = toks[i - 1]
        if p.cls == C or p.case == "mixed" and not p.raw[:1].isupper():
            continue
        k = i - 1
        if k > 0 and f"{toks[k - 1].low} {p.low}" in place_set and _joined(text, toks[k - 1], p, comma=False):
            k -= 1  # "east boston fire", "Fall River Police"
        elif lows[i] in _TOWN_OF:
            if p.low not in place_set:
                continue
        elif not (p.low in place_set or p.cls in (N, U) and len(p.low) >= 4):
            continue
        if lows[i] in _TOWN_OF:
            out.append(Candidate(toks[k].s, p.e, "LOCATION", "evidence:town_of", 0.88))
            for m in range(k, i):
                named[m] = True
            continue
        j = i + 1
        while j < n and j - i < 3 and lows[j] in _TOWN_SERVICE_TAIL | {"and", "&"} and _inst_joined(text, toks[j - 1], toks[j]):
            j += 1
        while lows[j - 1] in ("and", "&"):
            j -= 1
        out.append(Candidate(toks[k].s, toks[j - 1].e, "HOSPITAL", "evidence:town_service", 0.9))
        for m in range(k, j):
            named[m] = True
    # ---- runs with no cue: names from the lexicons
    # (a run starts only on a token no lexicon calls clinical or everyday: the others are passed over at C speed)
    i = 0
    for i0 in run_idx:
        if i0 < i:
            continue  # inside the run judged last
        i = i0
        t = toks[i]
        if named[i] or not _run_ok(t) or t.s and text[t.s - 1].isdigit():
            continue  # ("5TH MC", "9TH GR": an ordinal's letters, glued to its digits, open no name)
        j = i + 1
        while j < n and j - i < 4 and not named[j] and _run_ok(toks[j]) and _joined(text, toks[j - 1], toks[j]) \
                and not _report_verb(toks[j]) \
                and not (toks[j - 1].low in place_set and _state_after(text, toks[j - 1])):
            j += 1  # ("WEYMOUTH, MA": a town and its state, not a surname and a given name)
        # a surname that is also a clinical word, right after a given name: "Cheryl Walker", "TONY SMALL"
        surname_ext = False
        if j < n and not named[j] and toks[j].low in last and toks[j].cls == C and toks[j].low not in FUNCTION_WORDS:
            tj, tp = toks[j], toks[j - 1]
            if _clinical_surname(text, tp, tj):
                j += 1
                surname_ext = True
        run = toks[i:j]
        has_n = [r for r in run if r.cls == N]
        decided = False
        if surname_ext:
            decided = True
        elif has_n:
            if len(run) >= 2:
                # two or more name-ish tokens with a pure name among them
                strong = sum(1 for r in run if r.cls in (N, U))
                decided = len(run) == 2 or strong >= 2
            else:
                r = run[0]
                # a lone pure name: long enough not to be an abbreviation, and not a CAPS acronym in running text
                decided = len(r.low) >= 4 and not (r.case != "caps" and r.raw.isupper())
        elif len(run) >= 2 and _given_then_surname(text, toks, i) and _introduces_patient(text, run[:2]):
            # "frank reddy, 78m, admitted for chf": a given name and a surname opening the line before an age, any case
            decided = True
            j = i + 2
            run = toks[i:j]
        elif len(run) >= 2 and _given_then_surname(text, toks, i) and all(r.raw[:1].isupper() for r in run[:2]) \
                and not (run[0].low in _MODALS and run[1].low in _BASE_VERBS and run[0].raw.isupper()):
            # "Grace Hill", "MARK BIRD": a given name then a surname, both capitalised ("SON WILL CALL" is a modal's verb)
            decided = True
            j = i + 2
            run = toks[i:j]
        elif any(says_person(text, toks, i) for says_person in _ONE_WORD_PERSON_FORMS):
            # a given name that is also a word, where the sentence says a person (see _ONE_WORD_PERSON_FORMS)
            decided = True
            j = i + 1
            run = toks[i:j]
        elif run[0].cls == A and run[0].low in first and run[0].low not in FUNCTION_WORDS and _dash_signature(text, run[0]):
            # "-- Grace" on a line of its own: a signature, the writer's given name
            decided = True
            j = i + 1
            run = toks[i:j]
        elif len(run) == 1 and run[0].cls == U and len(run[0].low) >= 4 and i > 0 and toks[i - 1].dot and _is_initial(toks[i - 1], text) \
                and _joined(text, toks[i - 1], run[0], comma=False) and not run[0].low.endswith(_SPECIES_ENDINGS):
            # "T. OYELOWO FY2", "per J. Adeyemi": an initial with its dot before a word no lexicon knows is a person
            # ("B. cereus": a species' Latin ending)
            decided = True
            i -= 1
            run = toks[i:j]
        elif 2 <= len(run) <= 3 and all(r.cls == U and len(r.low) >= 4 for r in run) and (_alone_on_line(text, run) or _introduces_patient(text, run)):
            # "ZORBLAT QUIXTERBY" on a header line of its own: two or three words no lexicon knows, nothing else
            decided = True
        if decided and is_eponym(text, run):
            decided = False
        if decided and len(run) == 1 and unit_before_number(text, run[0].low, run[0].e):
            decided = False  # "admitted to Ward 22": a ward, a bay or a bed by its number, no Mr Ward
        if decided and " ".join(r.low for r in run) in STATE_NAMES:
            decided = False  # "son lives in florida": a state is no identifier
        if decided:
            # a place that is also a surname in a place slot stays a place (handled below)
            add(i, j, "NAME", "evidence:lexicon", 0.86)
        i = j
    # ---- institutions: words before a head
    for i in head_idx:
        t = toks[i]
        head_end = None
        # (a two-word head first: "Health Alliance", "health center" are one head, not "health" and a word)
        if i + 1 < n and (t.low, toks[i + 1].low) in HOSPITAL_HEAD_PAIRS and _joined(text, t, toks[i + 1], comma=False):
            head_end = i + 2
            first_head = i
        elif t.low in HOSPITAL_HEADS:
            head_end = i + 1
            first_head = i
            if t.low == "health" and i + 1 < n and lows[i + 1] in HOSPITAL_HEADS and _joined(text, t, toks[i + 1], comma=False):
                head_end = i + 2  # "Women's Health Associates": the practice's head follows
        elif i + 2 < n and t.low == "eye" and toks[i + 1].low == "and" and toks[i + 2].low == "ear":
            head_end = i + 3
            first_head = i
        elif t.low == "medical" and (i + 1 == n or not _joined(text, t, toks[i + 1], comma=False)):
            # "at south shore medical.": the adjective ends a phrase only as an institution's name
            head_end = i + 1
            first_head = i
        if head_end is None or inst[first_head]:
            continue
        # "the plaza rehab & nursing", "Seacoast Nursing and Rehabilitation Center": a second care head joined by "&"/"and"
        if head_end < n and lows[head_end - 1] in _PAIRED_CARE_HEADS:
            if lows[head_end] in _PAIRED_CARE_HEADS and _gap(text, toks[head_end - 1], toks[head_end]) in (" & ", "&", " &amp; "):
                head_end += 1
            elif head_end + 1 < n and lows[head_end] == "and" and lows[head_end + 1] in _PAIRED_CARE_HEADS \
                    and _gap(text, toks[head_end - 1], toks[head_end]) == " " and _gap(text, toks[head_end], toks[head_end + 1]) == " ":
                head_end += 2
        # "Healthcare Center", "Medical Center Hospital": take in the rest of the head
        while head_end < n and toks[head_end].low in _HEAD_TAIL and _joined(text, toks[head_end - 1], toks[head_end], comma=False):
            head_end += 1
        # (one blank: "VNA   VISIT #6" are two fields of a header line, no noun phrase)
        if head_end < n and lows[head_end] in HEAD_AS_ADJECTIVE and _gap(text, toks[head_end - 1], toks[head_end]) == " " \
                and _everyday_line_start(text, toks, first_head):
            continue  # "Brief Hospital Course:", "nursing home placement": a head describing a noun after everyday words
        k = first_head
        cnt = 0
        while k - 1 >= 0 and cnt < 4 and _inst_joined(text, toks[k - 1], toks[k]):
            p = toks[k - 1]
            if cnt == 0 and (p.low, t.low) in HOSPITAL_HEAD_PAIRS:
                break  # "goes to high school": the first word of a two-word head, judged with it (its own pass)
            if inst[k - 1] and cnt == 0 and lows[k - 1] not in ("of", "the", "and") and not (k >= 2 and inst[k - 2]):
                # "Caritas Home Care": a system's one-word name before a head is the service's first word
                # (a longer known name is complete: "Newton Wellesley surgical clinic" is its department)
                k -= 1
                cnt += 1
                break
            if inst[k - 1] or p.low in FUNCTION_WORDS and p.low not in ("of", "the", "and") and not (cnt and _name_number(p)) or p.low in VENUE_CUES:
                break
            if p.cls == C and p.low not in HOSPITAL_HEADS and p.low not in ("general", "memorial", "community", "medical", "health", "nursing",
                                                                          "of", "the", "and") \
                    and not (p.low in _TOPONYM_GENERICS and p.case == "mixed" and p.raw[:1].isupper()) \
                    and not (p.low in EPONYMS and (_named_after_people(lows, first_head, head_end) or cnt and toks[k].cls != C)
                             and (p.case != "mixed" or p.raw[:1].isupper())) \
                    and not (p.low in SERVICES and t.low in _PRACTICE_HEADS) and not (cnt and _name_number(p)):
                # (an eponym before another word of the name opens it: "HILL COUNTRY FAMILY PRACTICE", "Bell Street
                # Medical Centre"; right before the head it is the disease a clinic treats: "Parkinson Clinic")
                break  # ("Attleboro Pulmonary Associates": a specialty names a practice)
            if p.low in SERVICES and t.low not in _PRACTICE_HEADS and cnt == 0 and (q := _place_before_services(text, toks, lows, k, place_set)) < k:
                cnt += k - q  # "FAIRFAX BEHAVIORAL HEALTH", "Lowell Pediatric Dental Center": a town's services name an institution
                k = q
                break
            if t.low in _WEAK_HEADS and head_end == first_head + 1 and p.cls in (W, A) and cnt == 0 \
                    and (r := _region_before(toks, lows, k, place_set)) < k:
                cnt += k - r  # "CAPE COD VNA", "MERRIMACK VALLEY VNA": a region names the agency, in any case
                k = r
                break
            if t.low in _WEAK_HEADS and head_end == first_head + 1 and p.cls in (W, A) and not (p.case == "mixed" and p.raw[:1].isupper()):
                # "TRANSPORTED BY PATRIOT AMBULANCE", "cnm at harbor health": right after a cue, a rarer everyday word
                # before the head names the service in any case ("notify pharmacy", "by private ambulance" do not)
                if k - 2 >= 0 and lows[k - 2] in _ORG_CUES and cnt == 0 and zipf(p.low) < 4.3 and p.low not in _NOT_A_VENUE \
                        and p.low not in GENERIC_BEFORE_HEAD and p.low not in SERVICES and p.low not in _NOT_SERVICE_NAME:
                    k -= 1
                    cnt += 1
                break  # "notify pharmacy", "private ambulance": an everyday word names no service
            # ("Seacoast Nursing and Rehab": a generic word joined to the head by "and" is a second head)
            if p.low in SERVICES and t.low not in _PRACTICE_HEADS or p.low in GENERIC_BEFORE_HEAD and lows[k] != "and" \
                    or len(p.raw) == 1 and not p.dot:
                break  # ("Pediatric Associates", "Cardiology Associates" name practices)
            if p.low in TITLES or p.low in RELATIONS:
                break
            if p.case == "mixed" and p.cls in (W, A) and not p.raw[:1].isupper() and p.low not in ("of", "the", "and"):
                break  # "PT eval today, likely rehab": in a mixed-case line an institution's words are capitalised
            k -= 1
            cnt += 1
        while k < first_head and toks[k].low in ("of", "the", "and"):
            k += 1
        if k > 0 and k < first_head and lows[k - 1] == "the" and toks[k].cls in (W, A) and toks[k].case != "mixed":
            k -= 1  # "from the oaks nursing home": everyday words are a name only with their "the"
        # "... Associates of Brockton", "Hospital of Central Maine": the place after "of" is part of the name
        before_of = head_end
        if head_end + 1 < n and toks[head_end].low == "of":
            if head_end + 2 < n and (toks[head_end + 1].low in _REGION_WORDS or toks[head_end + 1].low == "the") and (
                toks[head_end + 2].low in place_set or toks[head_end + 2].low in _place_first()
            ):
                # "Association of Greater Attleboro", "Life Care Center of the North Shore": the word joins the place
                head_end += 1
            tp = toks[head_end + 1]
            # (after an agency's head any word is the region it serves: "vna of middlesex east", "VNA of Cape Cod")
            agency = lows[first_head] == "vna" and tp.cls in (W, A) and tp.low not in FUNCTION_WORDS and not named[head_end + 1]
            if (tp.cls in (N, U) or tp.cls in (W, A) and tp.low in place_set or agency) and _joined(text, toks[head_end - 1], toks[head_end], comma=False) \
                    and _joined(text, toks[head_end], tp, comma=False):
                head_end += 2
                if agency and head_end < n and toks[head_end].cls in (N, U, W, A) and lows[head_end] not in FUNCTION_WORDS \
                        and lows[head_end] not in _COMPASS_WORDS and not named[head_end] and _joined(text, tp, toks[head_end], comma=False):
                    head_end += 1  # "vna of cape cod"
            elif head_end + 2 < n and f"{tp.low} {toks[head_end + 2].low}" in place_set and _joined(text, tp, toks[head_end + 2], comma=False):
                head_end += 3  # "... of the North Shore", "... of Fall River"
            if head_end > before_of + 1 and head_end < n and lows[head_end] in _COMPASS_WORDS \
                    and _joined(text, toks[head_end - 1], toks[head_end], comma=False):
                head_end += 1  # "VNA of Middlesex East": a region's quarter
        if cnt and all(lows[m] in ("nursing", "and", "of", "the") for m in range(k, first_head)):
            k = first_head  # "discussed with nursing and rehab": two services, no name before them
        if cnt and k < first_head and toks[first_head].case != "mixed":
            k = _one_case_head_start(text, toks, lows, k, first_head, head_end, place_set, named)
        if cnt and k + 1 < first_head and _sentence_start(text, toks[k].s) and toks[k].cls == W and _inflected(lows[k], _lex()[2]):
            k += 1  # "Attends Little Stars Daycare": the sentence's verb, then the name
            cnt -= 1
        if cnt and k < first_head and lows[head_end - 1] in _SCHOOL_HEADS and _sentence_start(text, toks[k].s) \
                and all(toks[m].cls in (W, A) and lows[m] not in place_set for m in range(k, first_head)):
            k = first_head  # "Attends school in Quincy.", "Finished College in 1990": a sentence's verb, no school's name
        if cnt and k < first_head and head_end == before_of and names_no_institution(lows[k:first_head]) \
                and not (_named_after_people(lows, first_head, head_end) and any(lows[m] in EPONYMS for m in range(k, first_head))):
            pass  # "county clinic", "Mail-order pharmacy", "referring hospital": a kind of institution, no name
        elif cnt and k < first_head:
            # "St. Elizabeth's" / "Sturdy Memorial": the words before the head plus the head
            add(k, head_end, "HOSPITAL", "evidence:hospital", 0.93)
        elif head_end > before_of and (first_head + 1 < before_of or lows[first_head] in _AGENCY_HEADS):
            if first_head >= 2 and (lows[first_head - 2], lows[first_head - 1]) in HOSPITAL_HEAD_PAIRS \
                    and _joined(text, toks[first_head - 2], toks[first_head - 1], comma=False) and _joined(text, toks[first_head - 1], toks[first_head], comma=False):
                first_head -= 2  # "VISITING NURSE ASSOCIATION OF ...": the two-word head before the agency's
            # "Elder Services of the Merrimack Valley": a two-word head and the place after "of" name an agency
            # (a cue may have taken its first word for a name already: the spans are merged)
            out.append(Candidate(toks[first_head].s, toks[head_end - 1].e, "HOSPITAL", "evidence:hospital", 0.9))
            for m in range(first_head, head_end):
                named[m] = inst[m] = True
    # ---- "Parkside Cardiology", "Lakeside Oncology": a name, a place or an unknown word then a specialty, both
    # capitalised in a mixed-case line, name a practice ("Boston Cardiology"; not "Pediatric Cardiology")
    for i in [i for i in extra if lows[i] in _SPECIALTY_HEADS]:
        t = toks[i]
        if i == 0 or named[i] or named[i - 1] or t.case == "mixed" and not t.raw[:1].isupper():
            continue
        p = toks[i - 1]
        if not ((p.cls in (N, U) or p.low in place_set and p.cls != C) and _joined(text, p, t, comma=False) and p.low not in TITLES):
            continue
        # in a one-case line ("RIVERBEND DIALYSIS", "braintree surgical") capitals say nothing: a place or a word
        # no lexicon knows (long enough to be no abbreviation) before the specialty is the evidence
        if t.case == "mixed" and p.raw[:1].isupper() and not p.raw.isupper() or t.case != "mixed" and len(p.low) >= 5 \
                and (p.cls == U or p.low in place_set):
            add(i - 1, i + 1, "HOSPITAL", "evidence:practice", 0.88)
    # ---- a compass abbreviation before a town ("n. andover", "E. Boston", "So. Weymouth")
    for i in [i for i in extra if lows[i] in _COMPASS]:
        t = toks[i]
        if i + 1 >= n or named[i] or named[i + 1] or not _joined(text, t, toks[i + 1], comma=False):
            continue
        if t.low in ("no", "so") and not t.dot:
            continue  # "no boston" reads as a word
        nx = toks[i + 1]
        if f"{_COMPASS[t.low]} {nx.low}" in place_set or nx.low in place_set and nx.cls in (N, U) and len(nx.low) >= 4:
            add(i, i + 2, "LOCATION", "evidence:place", 0.85)
    # ---- venues and places after cues
    for i in venue_idx:
        t = toks[i]
        low = t.low
        pair = (lows[i - 1], low) if i > 0 else None
        # ("PT/OT at home via Bayada": a service comes via an agency; only a name or a capitalised unknown word there)
        venue = pair in VENUE_PAIRS or low in ("at", "via") or (low in ("from", "to") and i > 0) or low in _PREFER
        # a found person "in" a place is a place cue as "lives in" is ("son marcus in detroit")
        person_in = low == "in" and i > 0 and named[i - 1]
        place_cue = pair in PLACE_CUES or person_in or low in ("in", "from", "to", "near")
        k = i + 1
        if k >= n or named[k] or not _joined(text, t, toks[k], comma=False):
            continue
        the = toks[k].low == "the" and k + 1 < n and not named[k + 1]
        # "return to the willows", "transferred to broadway", "works as a mechanic at quirk", "about the meadows in
        # tewksbury": everyday words where a placement cue puts an institution (any letter case)
        placement = pair in PLACEMENT_PAIRS or low == "at" and not _WORK_VERBS.isdisjoint(lows[max(0, i - 5) : i]) \
            or low == "from" and the and not _PATIENT_WORDS.isdisjoint(lows[max(0, i - 3) : i]) \
            or pair in VENUE_PAIRS and not the and k + 1 < n and toks[k + 1].low in _TOPONYM_WORDS  # "seen at stepping stones"
        if placement or the and low in ("at", "to", "from", "about"):
            j = _placement_run(text, toks, k + the, the, named, place_first, strong=placement,
                               lone=pair in _LONE_PLACEMENT or low == "at" and placement)
            if j > k + the and not names_no_institution(lows[k + the : j]):
                add(k, j, "HOSPITAL", "evidence:placement", 0.88)
                continue
        if not (venue or place_cue):
            continue
        if the:
            k += 1
        if t.case == "mixed" and (pair in VENUE_PAIRS or pair in PLACEMENT_PAIRS or low in ("at", "from")):
            # "transferred from Holy Name ED", "works at Stop & Shop": two or more capitalised words
            # after a venue cue in mixed-case text name a place, whatever the lexicons say of each
            # ("at The Willows": a capitalised "The" inside a sentence opens a name, one capitalised word is enough)
            cap_the = the and toks[k - 1].raw == "The"
            j = _capitalised_run(text, toks, k, named, min_caps=1 if cap_the else 2)
            if j > k:
                add(k - cap_the, j, "HOSPITAL", "evidence:venue", 0.88)
                continue
        j = k
        while j < n and j - k < 3:
            if j > k and (named[j] or not _joined(text, toks[j - 1], toks[j], comma=False)):
                break
            tj = toks[j]
            # an acronym in running text ("at BMC", "from MWMC"); in capitals only a short unknown one
            acronym = tj.raw.isupper() and 2 <= len(tj.raw) <= 6 and tj.cls != C and (tj.case == "mixed" or tj.cls not in (W, A) and len(tj.raw) <= 5) \
                and low != "via"
            # a known place after "in"/"from"/"to", even one that is also a word, when capitalised ("in Worcester")
            # (in lower-case text, a place that is also a rare word: "from worcester", "to arlington")
            inplace = tj.low in place_set and tj.cls != C and tj.low not in _BODY_AND_CARE_TOWNS and (
                tj.cls not in (W, A) or tj.raw[:1].isupper() or tj.cls == W and zipf(tj.low) < (4.8 if pair in PLACE_CUES or person_in else 4.2)
                # a name that is also a word only after a cue of living there ("lives in canton", "moved to dover";
                # not "pain in temple", "assist to bath")
                or tj.cls == A and (pair in PLACE_CUES or person_in) and zipf(tj.low) < 4.8
            ) or (
                # a town that is a clinical word too, right after a cue of living and closing the clause ("lives in
                # apex.", "moved from mobile, al"): no finding lives there
                tj.low in place_set and tj.cls == C and pair in PLACE_CUES and j == k and tj.low not in _BODY_AND_CARE_TOWNS
                and tj.low not in _CLINICAL_NOT_TOWNS and _CLAUSE_END_AFTER_RE.match(text, tj.e) is not None
            )
            strong_venue = pair in VENUE_PAIRS or pair in PLACE_CUES or low in _PREFER
            title_u = tj.cls == U and tj.case == "mixed" and tj.raw[:1].isupper() and not tj.raw.isupper()
            # one capitalised everyday word right after a small "at"/"from" in a mixed-case line ("derm at Evergreen for
            # psoriasis", "ortho saw pt at Barrow 4/3"); a heading capitalises its cue too ("Pain At Rest")
            cap_venue = j == k and not title_u and tj.case == "mixed" and tj.cls in (W, A) and tj.raw[:1].isupper() \
                and tj.raw[1:].islower() and t.raw in ("at", "from") and _capital_venue_word(tj.low)
            # a word no lexicon knows, long enough to be no abbreviation, after "from"/"in"/"near" in a
            # one-case line: a place or an institution ("from roxbury", "IN MATTAPAN")
            unknown_place = (
                # ("LIVED W/ SISTER [NAME] IN WADEYE": a found person "in" a place)
                tj.cls == U and (low in ("from", "near", "at") or pair in PLACE_CUES or person_in) and tj.case != "mixed" and len(tj.low) >= 5
                and j == k and not tj.low.endswith(("ing", "ed"))
                # after "at" also anatomy and drugs ("AT UMBILICUS", "at carina"): not a word built like one
                and not (low == "at" and tj.low.endswith(_LATINATE_ENDINGS))
            )
            # after a work cue, a capitalised word in mixed case; in a one-case line an everyday word that says no
            # time, no activity ("WORKS FOR STAPLES"; not "works for years", "retired from teaching")
            employer = (
                pair in EMPLOYER_PAIRS and (pair[0] in _WORK_VERBS or pair[0] in _JOB_NOUNS or pair[0] in _AGENCY_WORKERS) and j == k and tj.cls != C and tj.low not in CARE_WORDS and tj.low not in FUNCTION_WORDS
                and tj.low not in _NO_EMPLOYER and tj.low not in WORKPLACE_KINDS and (
                    tj.case == "mixed" and tj.raw[:1].isupper()
                    or tj.case != "mixed" and tj.low not in _NOT_EMPLOYER_WORD and not tj.low.endswith(("ing", "ed")) and tj.low not in place_set
                )
            )
            # the rare first word of a listed organisation's longer name, alone after a venue word ("via Hanger",
            # "PENDING AT NORTHWESTERN"); not a clinical word, a state, or a word built like an adjective or a verb
            short = j == k and (low in ("at", "via", "from") or pair in VENUE_PAIRS) and tj.cls in (W, U, N) \
                and tj.low in short_forms() and tj.low not in STATE_NAMES and _capital_venue_word(tj.low) \
                and not tj.low.endswith(_BUILT_WORD_ENDINGS)
            if tj.cls == N or inplace or acronym or title_u or (tj.cls == U and strong_venue) or unknown_place or employer or cap_venue or short:
                j += 1
                continue
            # multi-word place names ("fall river", "new bedford")
            if j + 1 < n and f"{tj.low} {toks[j + 1].low}" in place_set:
                j += 2
                continue
            # lower-case acronyms of institutions after a venue cue ("at mgh", "to bmc")
            # (not after a bare "to": "plan to wean", "to void" are verbs)
            if venue and (low not in ("to", "via") or pair in VENUE_PAIRS) and tj.case == "lower" and 3 <= len(tj.low) <= 5 and tj.cls == U:
                j += 1
                continue
            break
        if j > k and " ".join(lows[k:j]) in STATE_NAMES and not _state_after(text, toks[j - 1]):
            continue  # "parents in connecticut", "moved from Florida": a state is no identifier
        if j > k:
            is_place = any(toks[m].low in place_set for m in range(k, j)) or (
                j < n and j + 1 <= n and _state_after(text, toks[j - 1])
            )
            cat = "LOCATION" if (is_place or place_cue and not venue) else "HOSPITAL"
            if the and "the " + " ".join(lows[k:j]) in place_set:
                k -= 1  # "in the bronx", "near the woodlands": the article is the place's own name
            add(k, j, cat, "evidence:venue", 0.9)
    # ---- "f/u @ SRH", "seen @ pvmc": an institution's acronym after an at-sign (a clock time after one is digits)
    for i in run_idx:
        t = toks[i]
        if named[i] or t.cls != U or not 2 <= len(t.raw) <= 14 or not _AT_SIGN_BEFORE_RE.search(text, max(0, t.s - 4), t.s):
            continue
        if len(t.raw) > 5 and t.low.endswith(_LATINATE_ENDINGS):
            continue  # (a longer word no lexicon knows, "@ drayer", "@ Codman", is a name; not one built like a drug's)
        if (t.raw.isupper() or len(t.raw) > 5 if t.case == "mixed" else len(t.raw) >= 3) and t.raw.isalpha():
            add(i, i + 1, "HOSPITAL", "evidence:venue", 0.86)
    # ---- places on their own (not everyday words) and "Town, MA"
    for i in place_idx:
        if named[i]:
            continue
        t = toks[i]
        # (a census given name is a person first: "Mary" alone is no town, and "SISTER MARY JOSEPH NODULE" an eponym)
        if t.cls in (N, U) and len(t.low) >= 4 and t.low in place_set and t.low not in GIVEN_NAMES_FIRST and not (t.raw.isupper() and t.case != "caps"):
            # "Murphy's sign", "AUSTIN FLINT MURMUR": a town's name in an eponym (one or two names before its head) is the sign's
            eponym = is_eponym(text, [t]) or i + 1 < n and is_eponym(text, toks[i : i + 2]) or i > 0 and is_eponym(text, toks[i - 1 : i + 1])
            if not eponym and t.low not in STATE_NAMES:
                add(i, i + 1, "LOCATION", "evidence:place", 0.85)
        elif i + 1 < n and t.low in place_first and f"{t.low} {toks[i + 1].low}" in place_set and t.cls != C and toks[i + 1].cls != C and _joined(text, t, toks[i + 1], comma=False):
            if f"{t.low} {toks[i + 1].low}" not in STATE_NAMES:
                add(i, i + 2, "LOCATION", "evidence:place", 0.85)
        elif t.cls in (N, U, A) and _state_after(text, t) and t.cls != C and not (t.cls == A and _clinical_code_after(text, t)):
            add(i, i + 1, "LOCATION", "evidence:place", 0.85)
    # ---- "from seattle last year", "son in chicago": a listed town that no dictionary lists, frequent only as a name
    # (the word classes call it everyday for its frequency), after a preposition of place, in a one-case line or
    # capitalised
    for i in city_idx:
        t = toks[i]
        if named[i] or t.case == "mixed" and not t.raw[:1].isupper() \
                or not _PLACE_PREPOSITION_BEFORE_RE.search(text, max(0, t.s - 12), t.s):
            continue
        if is_eponym(text, [t]) or i + 1 < n and is_eponym(text, toks[i : i + 2]) or _THING_AFTER_PLACE_RE.match(text, t.e):
            continue  # ("Chicago classification", "Portland protocol", "Seattle Heart Failure Model")
        add(i, i + 1, "LOCATION", "evidence:place", 0.85)
    # ---- a town that is an everyday word before its state: "LEBANON, NH" (a listed place), "Albany, NY 12208"
    # (any capitalised word before a state and a ZIP code: an address line)
    tok_ends = None
    for m in _STATE_AFTER_RE.finditer(text):
        if tok_ends is None:
            tok_ends = [t.e for t in toks]
        i = bisect_right(tok_ends, m.start()) - 1
        if i < 0 or toks[i].e != m.start() or named[i]:
            continue
        t = toks[i]
        if t.cls != W or t.low in FUNCTION_WORDS or (m.group(1) or m.group(2) or m.group(3)).lower() not in US_STATES:
            continue
        zip_after = m.group(2) is not None or _ZIP_AFTER_RE.match(text, m.end()) is not None
        if (t.low in place_set or zip_after) and (t.raw[:1].isupper() or t.case != "mixed"):
            add(i, i + 1, "LOCATION", "evidence:place", 0.85)
    # ---- "Perth WA 6018", "PORT MACQUARIE NSW 2444": an Australian address line, the town before a state's code
    # and a postcode (a US state's code and ZIP code are read above)
    if any(code in text for code in _AU_STATE_CODES_SPACED):
        for m in _AU_ADDRESS_RE.finditer(text):
            out.append(Candidate(m.start(1), m.end(), "LOCATION", "evidence:place", 0.85))
    # ---- "the cole center", "at eliot community", "Kfoury & Sons": a name or an unknown word before "center"
    # (or "community" right after a venue cue), or a found name before "& Sons", names an organisation
    for i in [i for i in extra if lows[i] in _SOFT_HEADS]:
        if i == 0 or inst[i] or not _inst_joined(text, toks[i - 1], toks[i]):
            continue
        p = toks[i - 1]
        if lows[i] == "sons":
            # ("wife Mary & sons at bedside": a relative's given name and her sons are family, no firm)
            family = i > 1 and lows[i - 2] in RELATIONS or p.low in GIVEN_NAMES_FIRST
            if named[i - 1] and text[p.e : toks[i].s].strip() in ("&", "and") and p.raw[:1].isupper() and not family:
                out.append(Candidate(p.s, toks[i].e, "HOSPITAL", "evidence:company", 0.88))
            continue
        if inst[i - 1] or p.cls not in (N, U) or len(p.low) < 4 or p.case == "mixed" and not p.raw[:1].isupper():
            continue
        if lows[i] == "community" and not (i > 1 and lows[i - 2] in _ORG_CUES):
            continue
        out.append(Candidate(p.s, toks[i].e, "HOSPITAL", "evidence:hospital", 0.88))
        named[i - 1] = named[i] = inst[i - 1] = inst[i] = True
    out.extend(_capitalised_word_names(text, toks, named))
    if out:
        out.extend(_listed_after(text, toks, out, named))
        out.extend(_repeated(text, toks, out, named))
    return out


#: What ends a sentence or a field between two words: a word after it may be capitalised for that alone.
_SENTENCE_BREAK_RE = re.compile(r"[.!?:;\n|•*#>(\[\"“]|--|[-–—][ \t]")


def _capitalised_word_names(text: str, toks: list, named: list) -> list[Candidate]:
    """Given names that are everyday words, capitalised inside a sentence of a mixed-case line and closing a clause,
    before a finite verb or a possessive ("reviewed w/ pt and Will;", "her great-niece Faith.", "Rose's list").

    A capital there says a name: "Will" is no modal inside a sentence. Not after a capitalised word, a determiner or a
    verb of saying ("Last Will", "no Hope for", "reports Joy in"), nor before any other word ("Hope Street", "Art
    line", "Young adult services"); places, units before their number and months stay.
    """
    first, place_set = _lex()[0], _lex()[4]
    out = []
    for k in range(1, len(toks)):
        t = toks[k]
        if named[k] or t.cls != A or t.case != "mixed" or not t.raw[:1].isupper() or not t.raw[1:].islower() or len(t.raw) < 3:
            continue
        if t.low not in first or t.low in CALENDAR_GIVEN_NAMES or t.low in FUNCTION_WORDS and t.low != "will" \
                or t.low in place_set or t.low in COUNTRY_NAMES or t.low in STATE_NAMES or _NUMBER_AFTER_RE.match(text, t.e):
            continue  # (a place's name, "in Canada"; a unit before its number, "Ward 84")
        p = toks[k - 1]
        if _SENTENCE_BREAK_RE.search(text, p.e, t.s) or not p.raw[:1].islower() \
                or p.low in TITLES or p.low in RELATIONS:
            continue  # (a sentence's first word; a name's second word or a cue's, which other passes read)
        if p.low in _DETERMINERS or p.low in REPORT_VERBS or p.low in ("of", "with", "for", "using", "has", "have"):
            continue  # ("no Hope for recovery", "reports Joy in visits", "full of Hope": the word, capitalised at will)
        nx = toks[k + 1] if k + 1 < len(toks) else None
        possessive = text[t.e : t.e + 2].lower() in ("'s", "’s")
        verb = nx is not None and text[t.e : nx.s] == " " and (_finite_verb(nx) or nx.low in REPORT_VERBS)
        if not (possessive or verb or _CLAUSE_END_RE.match(text, t.e)):
            continue  # ("Hope Street", "Grace Baptist Church", "Art line", "Young adult services": a name's or a word's)
        named[k] = True
        out.append(Candidate(t.s, t.e, "NAME", "evidence:capitalised_word_name", 0.85))
    return out


#: Rating scales named like hospitals, and the words that make them the scale ("Vanderbilt forms: inattentive 7/9").
_SCALES_NAMED_LIKE_HOSPITALS = frozenset({"vanderbilt"})
_SCALE_CONTEXT = frozenset("form forms teacher teachers parent parents scale scales rating ratings adhd inattentive hyperactive questionnaire score scores".split())


#: Capitalised words after "at"/"from" that name no institution: times, meals, seasons and holidays' neighbours.
_NOT_CAPITAL_VENUE = frozenset(
    """
goal rest times time lunch dinner breakfast supper night noon midnight dawn dusk first last least most best worst
end start onset admission discharge presentation triage intake arrival least all once large risk
""".split()
)


#: Endings of adjectives, nouns of a field and verbs: a listed name's first word built so is no name alone
#: ("Behavioral Health", "Leukemia & Lymphoma Society", "Stepping Stones").
_BUILT_WORD_ENDINGS = ("al", "ic", "ia", "ion", "ions", "ics", "ing", "ed", "ly", "ive", "ous", "ary")


def _titled_pair(t: _Tok) -> bool:
    """Is ``t`` two letters written as a name in mixed case ("nephew Mo", "brother Ed"; not "ED", "mo")?"""
    return len(t.raw) == 2 and t.case == "mixed" and t.raw[0].isupper() and t.raw[1].islower() and t.low not in TITLES \
        and t.low not in CREDENTIALS and t.low not in ROLES


def _capital_venue_word(low: str) -> bool:
    """May a capitalised everyday word after "at"/"from" be an institution's name ("Evergreen", "Sentinel")?"""
    return not (low in CARE_WORDS or low in _NOT_A_VENUE or low in FUNCTION_WORDS or low in RELATIONS or low in TITLES
                or low in ROLES or low in GENERIC_BEFORE_HEAD or low in _NOT_CAPITAL_VENUE or low in DATE_WORDS
                or low.endswith(("ing", "ed", "ly")))


def _everyday_line_start(text: str, toks: list, i: int) -> bool:
    """At most two everyday or clinical words stand between the line's start and token ``i`` ("Brief Hospital")."""
    ls = text.rfind("\n", 0, toks[i].s) + 1
    k = i
    while k > 0 and toks[k - 1].s >= ls:
        k -= 1
        if i - k > 2 or toks[k].cls not in (W, A, C):
            return False
    return True


#: After a name that opens its line: the patient's introduction ("ONYANGO CHUKI IS A 67 YO MAN") or a header's
#: next field ("KIPSANG, ANONI  MRN 1234567").
_INTRODUCED_RE = re.compile(
    r"(?i)[ \t]*(?:(?:is|was)[ \t]+an?[ \t]+\d{1,3}[ \t-]?(?:y|yo|y/o|yr|year)|,?[ \t]+(?:mrn|dob|acct|med[ \t]?rec)\b"
    # "aiyana whitehorse 7yo f": an age written with its unit right after the name
    r"|[ \t]+\d{1,3}[ \t]?(?:yo|y/o|yof|yom|y\.o\.)(?![\w/])"
    # "frank reddy, 78m, admitted": an age and sex after a comma
    r"|,[ \t]*\d{1,3}[ \t]?(?:yo|y/o|yof|yom|m|f|yr)\b)"
)


def _introduces_patient(text: str, run: list) -> bool:
    """Do the tokens ``run`` open their line as the patient's name, before "is a 67 yo" or an MRN/DOB field?"""
    ls = text.rfind("\n", 0, run[0].s) + 1
    return not text[ls : run[0].s].strip() and _INTRODUCED_RE.match(text, run[-1].e) is not None


def _alone_on_line(text: str, run: list) -> bool:
    """Do the tokens ``run`` fill their line, but for blanks (a header's name line)?"""
    ls = text.rfind("\n", 0, run[0].s) + 1
    le = text.find("\n", run[-1].e)
    return not text[ls : run[0].s].strip() and not text[run[-1].e : le if le >= 0 else len(text)].strip()


def _listed_after(text: str, toks: list, found: list[Candidate], named: list) -> list[Candidate]:
    """The next institution of a list ("TRANSFER TO ADCARE OR SPECTRUM AFTER ABX", "prefer fairlawn or whittier"):
    after an institution's name, "or", "and" or a comma, then a name or an unknown word, or one rarer everyday
    word that ends the clause (not a care word: "to rehab or home")."""
    n = len(toks)
    out = []
    starts = None
    for c in found:
        # (a literal test at the span's end first: most institutions stand in no list)
        if c.category != "HOSPITAL":
            continue
        m = _LIST_AFTER_RE.match(text, c.end)
        if m is None:
            continue
        if starts is None:
            starts = [t.s for t in toks]
        k = bisect_right(starts, m.end() - 1)  # the token after "or"/"and"
        if k >= n or starts[k] != m.end() or named[k]:
            continue
        j = k
        while j < n and j - k < 2 and not named[j] and (j == k or _joined(text, toks[j - 1], toks[j], comma=False)) \
                and toks[j].cls in (N, U) and len(toks[j].low) >= 4:
            j += 1
        if j == k:
            nx = toks[k]
            after = toks[k + 1] if k + 1 < n else None
            clause_end = after is None or any(ch in ".,;:()\n" for ch in text[nx.e : after.s]) or after.low in _PLACEMENT_STOP
            if nx.cls in (W, A) and clause_end and zipf(nx.low) < 4.5 and len(nx.low) >= 4 and nx.low not in _NOT_A_VENUE \
                    and nx.low not in CARE_WORDS and nx.low not in GENERIC_BEFORE_HEAD and nx.low not in FUNCTION_WORDS:
                j = k + 1
        if j > k:
            out.append(Candidate(toks[k].s, toks[j - 1].e, "HOSPITAL", "evidence:list", 0.85))
            for m2 in range(k, j):
                named[m2] = True
    return out


_LIST_AFTER_RE = re.compile(r"(?:['’][sS])?,?[ \t](?:or|and|OR|AND|Or|And)[ \t]")


def _repeated(text: str, toks: list, found: list[Candidate], named: list) -> list[Candidate]:
    """Other mentions of a word the cues found ("Lives with wife Oduya ... Oduya called"; "return to the willows ...
    faxed to willows admissions"): the same word elsewhere in the note, in any case, is the same identifier.

    Only distinctive words repeat so: a name or a word no lexicon knows (four letters or more), or the one rare
    everyday word of an institution's name found after a placement cue; never an ambiguous name ("hope", "will").
    """
    low_text = text.lower()
    words: dict[str, str] = {}
    counts: dict[str, int] = {}

    def count(w: str) -> int:
        # (one count per distinct word: a long note may repeat a found word thousands of times)
        n = counts.get(w)
        if n is None:
            n = counts[w] = low_text.count(w)
        return n

    for c in found:
        span_words = _TOKEN_RE_ASCII.findall(low_text, c.start, c.end)
        # (a count on the lower-cased text first: most found words occur once, and then nothing else is asked)
        again = [w.rstrip(".") for w in span_words if len(w) >= 4 and count(w.rstrip(".")) > 1]
        if not again:
            continue
        content = [w for w in (x.rstrip(".") for x in span_words)
                   if classify(w) != C and w not in FUNCTION_WORDS and w not in HOSPITAL_HEADS]
        for w in again:
            if w not in words and w in content and (
                classify(w) in (N, U) or c.source == "evidence:placement" and len(content) == 1 and zipf(w) < 3.5
            ):
                words[w] = c.category
    given = _given_words_found(toks, found)
    if not words and not given:
        return []
    n = len(toks)
    # (not where a clinical word follows an institution's word: "sentinel lymph node" is the clinical term)
    return [Candidate(t.s, t.e, words[t.low], "evidence:repeated", 0.85)
            for k, t in enumerate(toks) if not named[k] and t.low in words
            and not (words[t.low] == "HOSPITAL" and k + 1 < n and toks[k + 1].cls == C and toks[k + 1].low not in UNIT_AFTER)] \
        + [Candidate(t.s, t.e, "NAME", "evidence:repeated", 0.85)
           for k, t in enumerate(toks) if not named[k] and t.low in given and _used_as_person(text, toks, k)]


def _given_words_found(toks: list, found: list[Candidate]) -> frozenset:
    """Given names that are also everyday words ("will", "page", "grace") which a cue found as a name in this note."""
    first = _lex()[0]
    out = set()
    starts = [t.s for t in toks]
    for c in found:
        if c.category != "NAME" or c.source == "evidence:repeated":
            continue
        k = bisect_right(starts, c.start - 1)
        while k < len(toks) and toks[k].s < c.end:
            t = toks[k]
            if t.cls == A and t.low in first and t.low not in CALENDAR_GIVEN_NAMES:
                out.add(t.low)
            k += 1
    return frozenset(out)


#: Words before a person's name that call, ask or tell them ("call grace 555-...", "asked Rose to", "w/ will (pt ...").
_TELL_BEFORE = frozenset("call called calling asked ask told tell notified notify updated update w".split())
#: Words before an everyday word that make it the word, not a person ("the hope is", "her faith", "this summer").
_DETERMINERS = frozenset("the a an this that our her his my their your its no any some every last next".split())


def _used_as_person(text: str, toks: list, k: int) -> bool:
    """Is ``toks[k]``, a given name that is also a word and that a cue found as a name elsewhere in the note, used as
    a person here: before a finite verb ("mercy answered", "will is poa", "page has pt's phone"), a possessive
    ("will's #"), after a word that calls or tells someone ("call grace 555-...", "asked Rose to"), or capitalised
    inside a sentence of a mixed-case line ("advised Grace see")? "will" stays the modal before a base verb."""
    t = toks[k]
    prev = toks[k - 1] if k > 0 else None
    if prev is not None and prev.low in _DETERMINERS and text[prev.e : t.s] == " ":
        return False
    if text[t.e : t.e + 2].lower() in ("'s", "’s"):
        return True
    nx = toks[k + 1] if k + 1 < len(toks) else None
    same_clause = nx is not None and text[t.e : nx.s] == " "
    if same_clause and (_finite_verb(nx) or nx.low in REPORT_VERBS or t.low != "will" and nx.low in _SUBJECT_MODALS):
        return True
    if prev is not None and prev.low in _TELL_BEFORE and text[prev.e : t.s].strip(" /") == "":
        return True
    return t.case == "mixed" and t.raw[:1].isupper() and prev is not None and not t.raw.isupper() \
        and not _SENTENCE_GAP_RE.fullmatch(text, prev.e, t.s) and t.low != "will"


#: The gap between two words that holds a sentence's or a field's end and nothing but marks (". ", ":\n").
_SENTENCE_GAP_RE = re.compile(r"[^\w]*[.!?:;\n][^\w]*")


#: Heads of a school's name ("Arlington Elementary School", "Tufts University"), which sentences also begin with a verb.
_SCHOOL_HEADS = frozenset("school university college academy daycare preschool childcare montessori".split())
#: Heads of a hospital's own name ("Nottingham City Hospital", "Simpson Memorial Hospital", "Clark Medical Center").
_HOSPITAL_OWN_HEADS = frozenset("hospital hospitals infirmary memorial".split())


def _named_after_people(lows: list, first_head: int, head_end: int) -> bool:
    """Is the head one that places and people name (a school, a hospital), so that an eponym before it is its
    name ("Jefferson Middle School", "Nottingham City Hospital")? A clinic or a centre is as often named after
    the disease it treats ("Parkinson Clinic", "Alzheimer Center"), which stays a kind of care."""
    last = lows[head_end - 1]
    return last in _SCHOOL_HEADS or last in _HOSPITAL_OWN_HEADS or lows[first_head] in _HOSPITAL_OWN_HEADS \
        or last in ("center", "centre") and lows[first_head] == "medical"
#: Regions below a state that name agencies and practices ("Cape Cod VNA", "Merrimack Valley Hospice").
_REGIONS = frozenset(
    {"cape cod", "cape ann", "merrimack valley", "pioneer valley", "blackstone valley", "nashoba valley", "metro west",
     "north shore", "south shore", "north country", "upper valley", "marthas vineyard", "hudson valley", "lehigh valley"}
)


def _region_before(toks: list, lows: list, k: int, place_set: frozenset) -> int:
    """Start of a region or town ending right before ``toks[k]`` ("cape cod", "merrimack valley", "quincy"), or ``k``."""
    if k >= 2 and toks[k - 2].cls != C and (f"{lows[k - 2]} {lows[k - 1]}" in place_set or f"{lows[k - 2]} {lows[k - 1]}" in _REGIONS):
        return k - 2
    if k >= 2 and lows[k - 1] in _TOPONYM_GENERICS and (toks[k - 2].cls in (N, U) or lows[k - 2] in place_set and toks[k - 2].cls != C):
        return k - 2  # "Merrimack Valley", "Blue Hills": a place's generic word after its name
    if k >= 1 and lows[k - 1] in place_set and toks[k - 1].cls not in (C, W) and len(lows[k - 1]) >= 4:
        return k - 1
    return k


def _place_before_services(text: str, toks: list, lows: list, k: int, place_set: frozenset) -> int:
    """Where a listed town before the services before a head (``toks[k]``) starts, or ``k`` when there is none:
    "[Fairfax] Behavioral Health", "[Lowell] Pediatric Dental Center" (services joined by "&" or "and" too)."""
    q = k - 1
    while q >= 0 and (lows[q] in SERVICES or lows[q] in ("&", "and") and q < k - 1) and _joined(text, toks[q], toks[q + 1], comma=False):
        q -= 1
    if q < 0 or lows[q] not in place_set or lows[q] in STATE_NAMES or not _joined(text, toks[q], toks[q + 1], comma=False) \
            or toks[q].case == "mixed" and not toks[q].raw[:1].isupper():
        return k
    return q


def _one_case_head_start(text: str, toks: list, lows: list, k: int, first_head: int, head_end: int, place_set: frozenset,
                         named: list) -> int:
    """Where an institution's name before the head ``toks[first_head]`` starts in a one-case line (``first_head``: none).

    Capitals say nothing there, so the walk back took every everyday word: a verb before the name is no part
    of it ("wife prefers new england rehab"), and words that are all everyday ones name an institution only
    after a cue ("from the oaks nursing home", "D/C TO: ...") — else they say what kind of care it is
    ("GOOD REHAB POTENTIAL", "will need inpt rehab"). A name's affiliation is a cue too: after a found
    name and a comma, or before ", Town" ("DR. X, HARBOR MEDICAL ASSOCIATES, WEYMOUTH").
    """
    ordinary = _lex()[2]
    k0 = k
    while k < first_head and toks[k].cls == W and lows[k] not in ("the", "of", "and") and _inflected(lows[k], ordinary) \
            and lows[k].endswith(("s", "ed")):
        k += 1
    words = [toks[m] for m in range(k, first_head) if lows[m] not in ("the", "of", "and")]
    school = _named_after_people(lows, first_head, head_end)
    # (schools and hospitals are named after people whose names are eponyms too: "JEFFERSON MIDDLE SCHOOL")
    if words and all(w.cls in (W, A, C) and w.low not in place_set and not (school and w.low in EPONYMS) for w in words):
        before = lows[k - 1] if k > 0 else ""
        gap = text[toks[k - 1].e : toks[k].s].strip() if k > 0 else ""
        colon = gap == ":" or gap == "," and named[k - 1] or head_end < len(toks) and lows[head_end] in place_set \
            and text[toks[head_end - 1].e : toks[head_end].s].strip() == ","
        # (a verb before two or more words takes them as its object's name: "prefers new england rehab")
        if not (before in _ORG_CUES or before == "the" or colon or lows[k] == "the" or k > k0 and len(words) >= 2):
            return first_head
    return k


#: Words that say a patient lives somewhere; "in" after one (same clause) names the place.
_LIVES_WORDS = frozenset("lives living lived resides residing reside".split())
#: Words after "lives ... in" that say what kind of home it is, not where ("in ranch home", "in public housing").
_DWELLING_WORDS = frozenset(
    """home house apt apartment apartments condo building floor unit complex ranch trailer shelter housing group
    senior elderly subsidized public section family single story stories level levels split room rooms basement
    fear poverty pain isolation""".split()
)
#: Generic words that end a neighbourhood's or a village's name ("Fields Corner", "Savin Hill", "Back Bay").
_TOPONYM_GENERICS = frozenset(
    """hill hills corner corners square park end bay point plain plains village heights falls grove hall harbor harbour
    beach field fields wood woods crossing junction landing ridge valley highlands port mills mill brook river lake
    island farms gardens estates hollow green common commons center centre side""".split()
)


def _home_area_run(text: str, toks: list, lows: list, i: int, named: list) -> int:
    """End of a neighbourhood's name of everyday words after "in" (``toks[i]``) when "lives" leads the clause, or ``i + 1``.

    "Lives with son's family in Fields Corner.", "lives alone in 2nd floor apt in savin hill, 14 stairs": two or
    three words, none a function word or a kind of dwelling, the first not clinical, the last a generic word of
    place names ("hill", "corner", "square"), ending the clause. (One unknown word or a listed place after "in"
    is the venue rules' already.)
    """
    k = i + 1
    n = len(toks)
    m = i - 1
    while m >= 0 and i - m <= 8 and lows[m] not in _LIVES_WORDS:
        m -= 1
    if m < 0 or i - m > 8 or any(ch in ".;:\n" for ch in text[toks[m].e : toks[i].s]):
        return k
    j = k
    while j < n and j - k < 3 and not named[j] and (j == k or _joined(text, toks[j - 1], toks[j], comma=False)):
        tj = toks[j]
        if tj.cls == C and (j == k or tj.low not in _TOPONYM_GENERICS) or tj.low in FUNCTION_WORDS or tj.low in _DWELLING_WORDS \
                or tj.low in CARE_WORDS or len(tj.low) < 3:
            return k
        j += 1
    if j - k < 2 or lows[j - 1] not in _TOPONYM_GENERICS:
        return k
    end = toks[j - 1].e
    after = text[end : end + 2]
    if j < n and not (after[:1] in (",", ".", ";", ")") or toks[j - 1].dot or "\n" in text[end : toks[j].s]):
        return k
    return j


def _placement_run(text: str, toks: list, k: int, the: bool, named: list, place_first, *, strong: bool, lone: bool) -> int:
    """End of an institution's name of everyday words at ``k`` after a placement cue (see :data:`PLACEMENT_PAIRS`), or ``k``.

    The words (at most three after "the", one without) are no clinical, function or care words and end the clause,
    or an institution's tail, or "in" and a known place follow them. After "the" a strong cue needs the last word
    plural ("the willows") or capitalised in mixed case, or such a tail; a weak one ("at the", "about the") the tail.
    Without "the" only a lone cue ("transferred to broadway") and an everyday word of modest frequency.
    """
    n = len(toks)
    j = k
    # (after a strong cue, two words when the second is a landscape word: "RETURN TO CEDAR RIDGE,")
    most = 3 if the else 2 if lone or strong and k + 1 < n and toks[k + 1].low in _TOPONYM_WORDS else 1
    while j < n and j - k < most:
        tj = toks[j]
        if named[j] or j > k and not _joined(text, toks[j - 1], tj, comma=False):
            break
        if j > k and tj.low in ("community", "house"):
            pass  # "the wellness community": a kind of place closing a name
        elif tj.cls == C and not (tj.low in _TOPONYM_WORDS and j - k < 2 and not the) or tj.low in FUNCTION_WORDS \
                or tj.low in _NOT_A_VENUE or tj.low in CARE_WORDS \
                or tj.low in GENERIC_BEFORE_HEAD or tj.low in _PLACEMENT_TAIL or len(tj.low) < 3 or tj.low in HOSPITAL_HEADS \
                or j > k and tj.low in _PLACEMENT_STOP:
            break  # (a landscape word the clinical vocabulary lists may name the place: "RETURN TO CEDAR RIDGE,")
        j += 1
    if j == k or toks[k].low in WORKPLACE_KINDS:
        return k  # ("works at the warehouse nights", "at the outlet mall": a kind of workplace, no name)
    last = toks[j - 1]
    nxt = toks[j] if j < n else None
    gap = text[last.e : nxt.s] if nxt is not None else ""
    tail = nxt is not None and nxt.low in _PLACEMENT_TAIL and not any(ch in ".;:\n" for ch in gap)
    in_place = nxt is not None and nxt.low == "in" and j + 1 < n and (toks[j + 1].low in _lex()[4] or toks[j + 1].low in place_first)
    ends = nxt is None or any(ch in ".,;:()!?\n" for ch in gap) or nxt.low in _PLACEMENT_STOP
    if not (ends or tail):
        return k
    if the:
        plural = last.low.endswith("s") and not last.low.endswith(("ss", "us", "is")) and len(last.low) >= 4
        capital = last.case == "mixed" and all(toks[m].raw[:1].isupper() for m in range(k, j))
        ok = tail or in_place or strong and (plural or capital)
    elif j == k + 1:
        ok = lone and last.cls in (W, A, U) and zipf(last.low) < 4.5 and (last.case != "mixed" or last.raw[:1].isupper())
    else:
        # two everyday words after a lone cue: "d/c to sunny acres", "transferred to bear mountain"; after another
        # placement cue two rarer ones ("go back to harbor light,"; not "back to daily activities")
        ok = (lone or strong) and all(
            (toks[m].cls in (W, A, U) or toks[m].low in _TOPONYM_WORDS) and zipf(toks[m].low) < (5.0 if lone else 4.3)
            and (toks[m].case != "mixed" or toks[m].raw[:1].isupper())
            for m in range(k, j))
    return j if ok else k


#: What a number word counts rather than names: "Two Weeks", "Three Times".
_COUNTED_NOUNS = frozenset("weeks days months years hours minutes times units doses tabs pills floors beds steps".split())
#: Number words that open an institution's name ("Seven Hills", "Twin Oaks", "Three Rivers").
_NAME_NUMBERS = frozenset("one two three four five six seven eight nine ten eleven twelve twin".split())


def _name_number(t: _Tok) -> bool:
    """A number word written capitalised in mixed case, as it opens an institution's name ("Three Rivers Hospital")."""
    return t.low in _NAME_NUMBERS and t.case == "mixed" and t.raw[:1].isupper() and not t.raw.isupper()


def _capitalised_run(text: str, toks: list, k: int, named: list, min_caps: int = 2) -> int:
    """End of a run of ``min_caps`` or more capitalised words from ``k`` ("Holy Name", "Stop & Shop", "Seven Hills"),
    or ``k``."""
    n = len(toks)
    m = k
    caps = 0
    while m < n and m - k < 5:
        tm = toks[m]
        if m > k and (named[m] or not _inst_joined(text, toks[m - 1], tm)):
            break
        if m > k and tm.low in ("of", "the", "and"):
            m += 1
            continue
        # ("Seven Hills", "Twin Oaks"; not a ward, "Two South", or a count, "Two Weeks")
        number = m == k and tm.low in _NAME_NUMBERS and m + 1 < n and toks[m + 1].low not in _COMPASS_WORDS \
            and toks[m + 1].low not in _COUNTED_NOUNS
        if tm.raw[:1].isupper() and not tm.raw.isupper() and (tm.cls != C and tm.low not in FUNCTION_WORDS or number) \
                and tm.low not in CARE_WORDS and tm.low not in TITLES:
            caps += 1
            m += 1
            continue
        if caps and tm.raw[:1].isupper() and not tm.raw.isupper() and tm.low not in FUNCTION_WORDS and tm.low not in TITLES:
            # after a word of the name, a capitalised clinical or care word goes on with it ("Bright Heart Health",
            # "Aspen Dental"); a run must still open with a word that is neither
            caps += 1
            m += 1
            continue
        break
    while m > k and toks[m - 1].low in ("of", "the", "and"):
        m -= 1
    return m if caps >= min_caps else k


def _inst_joined(text: str, a: _Tok, b: _Tok) -> bool:
    """Tokens a, b are adjacent within an institution's name: a name's joins, an ampersand ("Eye & Ear")
    or a possessive ("Women's Health", "Dunkin' Donuts")."""
    if _joined(text, a, b, comma=False):
        return True
    g = _gap(text, a, b)
    if a.dot:
        # "Comm. Health Ctr.", "Reg. Hosp.", "Hosp. & Med. Ctr.": an abbreviation of a name's word before another;
        # else a sentence ended ("no bolus. Pharmacy")
        return a.low in NAME_ABBREVIATIONS and (g in (" ", "  ") or g.strip() == "&") and (
            b.low in NAME_ABBREVIATIONS or b.low in HOSPITAL_HEADS or b.low in _SOFT_HEADS or b.low in ("health", "medical"))
    if g[:2] in ("'s", "’s"):
        g = g[2:]
    elif g[:1] in ("'", "’"):
        g = g[1:]
    else:
        return g.strip() == "&"
    return g == " "


#: Words after "on" that say when or how, not which branch ("CVS on file", "Walgreens on hold").
_NOT_A_BRANCH = frozenset("file hold record call duty site time order delivery auto autofill refill board track foot schedule way".split())


def _branch_street(text: str, toks: list, lows: list, j: int, named: list, add) -> None:
    """The street of a chain's branch after its name ("walgreens on broadway", "CVS on Centre St").

    One word after "on" that is a name, an unknown word, a listed place, a capitalised word in mixed case or a
    rarer everyday word, and the street suffix after it if any.
    """
    n = len(toks)
    if j + 1 >= n or lows[j] != "on" or named[j + 1] or not _joined(text, toks[j - 1], toks[j], comma=False) \
            or not _joined(text, toks[j], toks[j + 1], comma=False):
        return
    tk = toks[j + 1]
    if tk.cls == C or tk.low in FUNCTION_WORDS or tk.low in _NOT_A_BRANCH or tk.low in CARE_WORDS:
        return
    if not (tk.cls in (N, U) or tk.low in _lex()[4] or tk.case == "mixed" and tk.raw[:1].isupper() or zipf(tk.low) < 4.5):
        return
    e = j + 2
    if e < n and lows[e] in STREET_SUFFIXES and _joined(text, tk, toks[e], comma=False):
        e += 1
    add(j + 1, e, "LOCATION", "evidence:street", 0.85)


def _known_hospitals(text: str, toks: list, lows: list, named: list, add, starts: list | None = None) -> None:
    """Mark the names of :func:`clinx.text.lexicons.hospital_names` (longest first) as HOSPITAL.

    A one-word name that is also an everyday word ("tufts", "bmc" in lower case)
    needs a venue word before it ("at bmc") or a capital in mixed-case text.
    """
    index = hospitals()
    names = hospital_names()
    orgs = organisation_names()
    n = len(toks)
    # only tokens that can start a name (one set test each): most notes have none
    if starts is None:
        starts = _hospital_starts(lows, index)
    for i in starts:
        low = lows[i]
        if named[i]:
            continue
        longest = index[low.split("-", 1)[0]]
        words = low.replace("-", " ").split(" ")
        ends = [(i + 1, " ".join(words))]
        j = i + 1
        while j < n and len(words) < longest and not named[j] and _inst_joined(text, toks[j - 1], toks[j]):
            words = words + lows[j].replace("-", " ").split(" ")
            j += 1
            ends.append((j, " ".join(words)))
        for j, key in reversed(ends):
            org = key in orgs and key not in names
            if key not in names and not org:
                continue
            t = toks[i]
            cued = i > 0 and lows[i - 1] in _ORG_CUES or i > 1 and (lows[i - 2], lows[i - 1]) in EMPLOYER_PAIRS
            if org:
                # a chain store ("from walgreens", "works at Stop & Shop"): a venue word first, or a listed name of
                # two words or more in any case ("FALL AT WORK (HOME DEPOT, MERIDEN)", "behind circle k": no phrase
                # of everyday words is listed that notes write as a phrase, but for the few of _PHRASE_LIKE_ORGS,
                # which need a venue word, a capital in mixed case or an ampersand), or one word that is no English
                # word ("Walmart + McDonald's", "COSTCO", "cigna denied"); never a word or abbreviation on its own
                # ("CVS: RRR")
                if key in _EVERYDAY_BRANDS and not _everyday_brand_here(lows, i):
                    break
                brand = j == i + 1 and (_brand_word(key, t) or key in _EVERYDAY_BRANDS)
                # (words a listed name joins with an ampersand, in any case: "stop & shop", "barnes & noble"; prose
                # writes "and")
                phrase = key in _PHRASE_LIKE_ORGS and not (t.case == "mixed" and t.raw[:1].isupper()
                                                           or any("&" in _gap(text, toks[m - 1], toks[m]) for m in range(i + 1, j)))
                if cued or brand or j > i + 1 and not phrase:
                    add(i, j, "HOSPITAL", "evidence:organisation", 0.9)
                    _branch_street(text, toks, lows, j, named, add)
                break
            if j == i + 1 and " " not in key:
                if t.cls == C:
                    break
                if t.cls in (A, W) and not (cued or t.case == "mixed" and t.raw[:1].isupper()):
                    break
            if key in _SCALES_NAMED_LIKE_HOSPITALS and not _SCALE_CONTEXT.isdisjoint(lows[max(0, i - 2) : j + 2]):
                break  # "parent Vanderbilt", "Vanderbilt teacher forms": the ADHD rating scale, no hospital
            while j < n and not named[j] and lows[j] in _INST_TAIL and _joined(text, toks[j - 1], toks[j], comma=False):
                j += 1  # "Hallmark Health VNA", "Brigham dermpath": the unit's word is part of the name
            add(i, j, "HOSPITAL", "evidence:hospital_name", 0.93)
            break


#: Listed names of two everyday words that notes also write as a phrase ("eat whole foods", "direct relief of pain", "not
#: labor ready"): a venue word, a capital in mixed case or an ampersand makes them the company.
_PHRASE_LIKE_ORGS = frozenset({
    "whole foods", "whole food", "change healthcare", "direct relief", "labor ready", "option care", "community serving",
    "employer holding", "employers holdings", "color health", "bright health", "exact science", "exact sciences",
    "healthy blue", "network blue", "smart recovery", "celebrate recovery", "life storage", "public storage",
})
#: One-word organisation names that are abbreviations of something else too: a venue word must come first.
_CUED_ONLY_ORGS = frozenset("cvs bjs ups".split())
#: Everyday words that notes write alone for the health company ("quest 12/18", "kaiser covers home draws"): listed in
#: organisations.txt, a name wherever they stand unless an article or an owner comes first ("on a quest").
_EVERYDAY_BRANDS = frozenset("quest kaiser".split())
_WANTING = frozenset("want wants wanted like likes need needs try tries trying going".split())


def _everyday_brand_here(lows: list, i: int) -> bool:
    """Is the word of :data:`_EVERYDAY_BRANDS` at ``i`` the company: not after an article, an owner or "in", not before
    "of" or "for" ("in quest of answers", "on a quest for"), not a verb after "wants to" ("wants to quest")?"""
    prev = lows[i - 1] if i > 0 else ""
    if prev in _DETERMINERS or prev == "in" or i + 1 < len(lows) and lows[i + 1] in ("of", "for"):
        return False
    return not (prev == "to" and i > 1 and lows[i - 2] in _WANTING)


def _brand_word(key: str, t: _Tok) -> bool:
    """A one-word organisation name that is no English dictionary word and no clinical term ("walgreens", "cigna")."""
    from clinx.text.lexicons import _common

    return key not in _CUED_ONLY_ORGS and key not in _common()[1] and t.cls != C and len(key) >= 4


#: Nouns after an eponym beyond clinx.text.clinical.EPONYM_HEADS ("Hasson technique", "Foley catheter").
_EPONYM_HEADS_MORE = frozenset(
    "technique maneuver manoeuvre procedure approach catheter tube sign test score criteria classification scale "
    "incision retractor forceps clamp stitch suture repair method position view operation rule index "
    "fundoplication anastomosis shunt filter splint murmur murmurs spots spot respirations respiration dressing "
    "nodes needle trocar cannula".split()
)


#: Heads that are also everyday service words ("notify pharmacy", "private ambulance"): the words
#: before them name one only when they are names, unknown words or capitalised in mixed case.
_WEAK_HEADS = frozenset(
    "hosp ambulance pharmacy medflight association vna manor church temple synagogue mosque parish house village airport "
    "shelter charities society foundation mission commission authority ministries coalition inn health inc llc llp ltd corp "
    "opco chapel daycare preschool childcare montessori".split()
)
#: Everyday words before a weak head that say what kind of service, not whose ("behavioral health", "als ambulance").
_NOT_SERVICE_NAME = frozenset(
    """
mental behavioral behavioural public oral bone skin overall good poor general occupational student employee sexual
reproductive primary population global child adolescent pediatric basic als bls van ride retail mail specialty
compounding hospital chain
""".split()
)
#: Specialties that end a practice's name after its own name in mixed case ("Parkside Cardiology").
_SPECIALTY_HEADS = frozenset(
    """
cardiology oncology hematology dermatology neurology urology gastroenterology pulmonology nephrology orthopedics
orthopaedics pediatrics radiology rheumatology endocrinology psychiatry podiatry ophthalmology gynecology obstetrics
dialysis surgical orthopedic pulmonary vascular
""".split()
)
#: Field labels whose value names an institution ("NURSING HOME: SEVEN HILLS", "Pharmacy: Brooks"); two-word
#: ones by their pair. "hospital" and "clinic" are left out: "Hospital course:" heads a section.
_INSTITUTION_FIELDS_ALONE = frozenset("pharmacy snf ltac ltach vna agency facility employer shelter rehab hospice osh nh ltc alf ecf".split())
_INSTITUTION_FIELD_PAIRS = frozenset({("nursing", "home"), ("assisted", "living"), ("group", "home"), ("referring", "hospital"),
                                      ("outside", "hospital"), ("home", "care"), ("home", "services"), ("prior", "admits"),
                                      ("prior", "admissions"), ("previous", "admits"), ("funeral", "home")})
_INSTITUTION_FIELDS = _INSTITUTION_FIELDS_ALONE | frozenset(b for _, b in _INSTITUTION_FIELD_PAIRS)
#: Values of an employer field that name none ("Employer: none", "employer (self)", "EMPLOYER: RETIRED").
_NO_EMPLOYER_VALUE = frozenset("none n/a na self unemployed retired disabled unknown same his her their pt patient".split())
#: Words that end a field's value: prepositions before a place, and the values that name none ("REHAB: NONE").
_VALUE_STOP = frozenset("in at on for with to from none unknown pending tbd yes no na n/a home".split())
#: Street words, written out or abbreviated; after one to three words and a house number they close an address.
STREET_SUFFIXES = frozenset(
    "street st avenue ave av road rd boulevard blvd terrace ter lane ln drive dr court ct place pl square sq parkway pkwy "
    "circle cir highway hwy way concourse pike turnpike tpke plaza crescent loop trail trl cove".split()
)
#: Abbreviated street words, which close a street's name without a house number after "lives on", "on", "off".
_STREET_ABBREVS = frozenset("st ave av rd blvd ter ln pkwy cir hwy tpke".split())
_STREET_CUES = frozenset("on off near corner crossing at".split())
#: (a compass letter may stand between the number and the street's name: "3318 S HALSTED ST", "611 ne 82nd st")
_HOUSE_NUMBER_END_RE = re.compile(r"\d[\dA-Za-z-]{0,5}[ \t]{1,2}(?:(?i:[nsew]|ne|nw|se|sw)\.?[ \t]{1,2})?$")


def _street_name_start(text: str, toks: list, i: int, named: list, over_found: bool) -> int:
    """The first of up to three tokens before the street word ``toks[i]`` that name the street; ``over_found``: found
    names and places, and a found name's "st." or compass letter, count too ("1607 [st stephens] rd")."""
    k = i
    while k > 0 and i - k < 3 and _joined(text, toks[k - 1], toks[k], comma=False):
        p = toks[k - 1]
        found = over_found and named[k - 1]
        if named[k - 1] and not over_found or p.low in FUNCTION_WORDS and not found \
                or p.low in STREET_SUFFIXES and k != i and not found or p.dot and not found:
            break
        k -= 1
    return k


#: Street words written out that close a street's name after "on" with no house number ("on Fleet Street", "ON
#: BALTIMORE PIKE"); "way", "lane", "drive" only capitalised in a mixed-case line ("on College Way"; "on his way").
_STREET_WORDS_WRITTEN = frozenset("street avenue road boulevard pike turnpike tpke highway parkway".split())
_STREET_WORDS_CAPITALISED = frozenset("way lane drive".split())
#: Words after "ST" that make it an ECG's segment ("on tele ST elevation"), not a street.
#: (a preposition or a conjunction after it leaves a street: "CROSSING MILL ST AT OAK RIDGE DR")
_ST_SEGMENT_AFTER_RE = re.compile(r"(?i)[ \t]*(?:(?!(?:at|and|in|near|by|to|from|between)\b)[a-z]|-|/|\d)")
#: Words that put two streets together ("corner of Elm St and Grove Ave").
_CROSSING_WORDS = frozenset("corner intersection junction crossing".split())


#: Words of a numbered road and its number ("RT 9", "route 2", "HWY 101"), which meet a street at a crossing.
_ROUTE_WORDS = frozenset("rt route rte hwy highway interstate sr us".split())
_ROUTE_NUMBER_RE = re.compile(r"[ \t-]{1,2}\d{1,4}[A-Za-z]?[ \t]{1,2}")


def _after_a_street(text: str, toks: list, k: int, named: list) -> bool:
    """Does a found street's word, then "and", "&" or "/", stand before ``toks[k]`` ("MAIN ST / HARVARD AVE")?"""
    if k >= 2 and toks[k - 1].low == "and":
        p = toks[k - 2]
        if p.low in _ROUTE_WORDS and _ROUTE_NUMBER_RE.fullmatch(text, p.e, toks[k - 1].s):
            return True  # "MVC AT RT 9 AND HOLLIS RD": a numbered route meets the street
        return named[k - 2] and p.low in STREET_SUFFIXES and _joined(text, p, toks[k - 1], comma=False)
    p = toks[k - 1] if k >= 1 else None
    return p is not None and named[k - 1] and p.low in STREET_SUFFIXES and text[p.e : toks[k].s].strip(" \t.") in ("&", "/")


_LIVING_VERBS = frozenset("lives live living lived resides reside residing resided located moved".split())
_SQUARE_CUES = _STREET_CUES | frozenset({"at", "in", "to", "from"})
_ZIP_AFTER_RE = re.compile(r",?[ \t]{1,2}(\d{5}(?:-\d{4})?)(?![\w-])")
#: What closes a town after a street: punctuation, a line's end, a state's code or a ZIP code (", Hull MA 02045").
_TOWN_CLOSES_RE = re.compile(r"[ \t]*(?:[,.;)]|\n|$|[A-Z]{2}\b|\d{5}\b)")
_COMPASS_AFTER_STREET_RE = re.compile(r"\.?[ \t]{1,2}(?:NE|NW|SE|SW|N|S|E|W|ne|nw|se|sw)\.?(?![^\W_])")
#: A lower-case street's quarter in one letter ("queen st e"): only after a street written in lower case.
_COMPASS_LOWER_RE = re.compile(r"\.?[ \t](?:n|s|e|w)\.?(?![^\W_])")
_UNIT_RE = re.compile(r"\.?,?[ \t]{1,2}(?:(?:apt|apartment|unit|suite|ste)\.?[ \t]{0,2}#?|#[ \t]?)\d{1,5}[a-z]?\b", re.I)
#: Compass abbreviations in town names, and the word each stands for.
_COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west", "no": "north", "so": "south"}
#: Words that open a region's name after "of" ("Associates of Greater Lowell").
_REGION_WORDS = frozenset("greater north south east west central metro metrowest".split())
#: Heads of a practice's name, which a specialty may begin ("Pediatric Associates").
_PRACTICE_HEADS = frozenset("associates partners group physicians".split())
_HEAD_TAIL = frozenset("center centre ctr hospital clinic system institute".split())
#: Heads of care that pair up in a home's name ("Rehab & Nursing", "Nursing and Rehabilitation Center").
_PAIRED_CARE_HEADS = frozenset("rehab rehabilitation nursing healthcare".split())
#: Words before an institution's or a store's name that make a one-word name one ("at bmc", "by medflight").
_ORG_CUES = VENUE_CUES | frozenset({"by", "via", "with", "pharmacy", "through", "thru", "for", "employer", "ins", "insurance", "insurer"})
#: Public services a town's name makes an organisation ("SAUGUS FIRE", "Quincy Fire Dept", "lynn police"); "EMS" is
#: left to the clinical vocabulary ("MEDFORD EMS": the town goes, the service's abbreviation stays).
_TOWN_SERVICES = frozenset("fire police rescue pd fd".split())  # ("lowell pd": the police department)
_AT_SIGN_BEFORE_RE = re.compile(r"(?:^|[\s(])@[ \t]{0,2}$")
#: Towns named by a body site or a care activity: after "in"/"to" in a note they are those ("PAIN IN TEMPLE", "assist to bath").
_BODY_AND_CARE_TOWNS = frozenset("temple temples bath".split())
#: Listed towns whose names are clinical words or abbreviations a cue of living may still precede ("lives in [a]
#: male [body]", "son in ica"): never read as the town.
_CLINICAL_NOT_TOWNS = frozenset("male man oral osh poa ica fbg central".split())
#: A clause's end right after a word: punctuation, a line's end.
_CLAUSE_END_AFTER_RE = re.compile(r"[ \t]*(?:[.,;:)]|$|\n)")
#: Words after a town's known name that say it is one and leave themselves in the text: "a Worcester resident",
#: "per Canton EMS", "Dorchester native" (only a name the place list knows: "nursing home resident" stays).
_TOWN_OF = frozenset("resident residents native natives ems ambulance".split())
#: An emergency department after a hospital's name ("seen in Pine Valley ED", "SILVER RIDGE EMERGENCY DEPT VISIT"):
#: the words before it name the hospital when a place cue or the line's start leads them.
_DEPT_TAILS = frozenset("ed er emergency".split())
#: Words after a name that the town pass reads (a town's service, "resident", an emergency department).
_TOWN_TRIGGERS = _TOWN_SERVICES | _TOWN_OF | _DEPT_TAILS
_EMERGENCY_NEXT = frozenset("dept dept. department room rm".split())
#: Words before "ED" that say which emergency department without naming it ("outside ED", "peds ED").
_DEPT_NOT = frozenset(
    """outside local nearest closest nearby another other same different main peds pediatric paediatric adult satellite
community osh home psych psychiatric ob our their his her my new old prior previous initial urgent walk-in walk""".split()
)
#: Topics before "ed" that make it education, not an emergency department ("diabetes ed", "phys ed", "driver's ed").
_EDUCATION_TOPICS = frozenset("diabetes diabetic asthma nutrition health sex special phys driver's drivers driver’s patient pt family "
                              "cardiac pulmonary childbirth lactation prenatal".split())
_TOWN_SERVICE_TAIL = frozenset("dept department rescue district".split())
#: Words after a hospital's known name that are part of the named unit ("Hallmark Health VNA", "Brigham dermpath").
_INST_TAIL = HOSPITAL_HEADS | frozenset("center centre ctr hospital clinic system institute vna dermpath".split())
_NEWBORN = frozenset({"girl", "boy"})
#: Field labels whose value lists people ("Visitors: Grace and son", "Contacts: Rose Mbeki"): read as a relation is.
_PEOPLE_LABELS = frozenset("visitors visitor contacts supports vet veteran ee employee claimant insured".split())
#: Words before "MD:" that make it a field naming a clinician ("ADMITTING MD: S. GREENBLATT").
_MD_FIELD_WORDS = frozenset(
    "admitting attending referring ordering covering discharging consulting primary treating responsible signing dictating "
    "accepting sending receiving rounding".split()
)
_CUE_WORDS = TITLES | RELATIONS | ROLES | LABELS | CREDENTIALS | _NAMING_WORDS | _COMM_PREPS | _NEWBORN | _PEOPLE_LABELS | frozenset({"w", "is", "cm"})
_HEAD_START = HOSPITAL_HEADS | frozenset(a for a, _ in HOSPITAL_HEAD_PAIRS) | frozenset({"eye", "medical"})
_VENUE_WORDS = VENUE_CUES | frozenset(b for _, b in VENUE_PAIRS) | frozenset(b for _, b in PLACE_CUES) | frozenset({"near", "via"}) \
    | frozenset(b for _, b in PLACEMENT_PAIRS) | frozenset({"about"}) | _PREFER



def _emergency_department(text: str, toks: list, lows: list, i: int, named: list, add) -> None:
    """The hospital named before an emergency department at token ``i`` ("in Pine Valley ED", "from silver ridge er",
    "SILVER RIDGE EMERGENCY DEPT"): one to three words, none clinical, a function word or one that only says which
    department ("outside ED"), capitalised in mixed case, after "in"/"at"/"from"/"to"/"via" or opening the line."""
    if lows[i] == "emergency" and (i + 1 >= len(toks) or lows[i + 1] not in _EMERGENCY_NEXT):
        return
    if lows[i] != "emergency" and toks[i].raw[:1].islower() and toks[i].case == "mixed":
        return  # "ed" in a mixed-case line is a name ("son Ed") or a word, not the department
    if lows[i] == "ed" and i > 0 and lows[i - 1] in _EDUCATION_TOPICS:
        return  # "bill from diabetes ed will call": the diabetes educator's service, not an emergency department
    k = i
    while k > 0 and i - k < 3:
        t = toks[k - 1]
        if named[k - 1] or t.cls == C or t.low in FUNCTION_WORDS or t.low in _DEPT_NOT or t.low in _DEPT_TAILS \
                or (t.case == "mixed" and not t.raw[:1].isupper()) or not _joined(text, t, toks[k], comma=False) \
                or t.cls == W and t.low.endswith("ed"):
            break  # (nor a verb in the past: "advised ED eval today", "recommended ER")
        k -= 1
    if k == i:
        return
    led = k > 0 and lows[k - 1] in ("in", "at", "from", "to", "via") and _joined(text, toks[k - 1], toks[k], comma=False)
    if not led and text[text.rfind("\n", 0, toks[k].s) + 1 : toks[k].s].strip(" \t-*•:"):
        return
    add(k, i, "HOSPITAL", "evidence:emergency_department", 0.86)


def _hospital_starts(lows: list, index) -> list[int]:
    """Indices of the tokens that can start a known hospital's name (the plain form of the ``hosp`` list)."""
    return [i for i, w in enumerate(lows) if w in index or "-" in w and w.split("-", 1)[0] in index]


# bits of :func:`_trigger_table`: which pass of _find_names a word can start
_T_CUE, _T_SAINT, _T_HOSP, _T_EXTRA, _T_TOWN, _T_HEAD, _T_VENUE, _T_PLACE1, _T_CITY = (1 << k for k in range(9))


@lru_cache(maxsize=1)
def _trigger_table() -> dict[str, int]:
    """word -> the bits of the _find_names passes it can start (built once from the static word sets)."""
    table: dict[str, int] = {}
    for bit, words in (
        (_T_CUE, _CUE_WORDS), (_T_SAINT, ("st", "saint")), (_T_HOSP, hospitals()), (_T_EXTRA, _extra_triggers()),
        (_T_TOWN, _TOWN_TRIGGERS), (_T_HEAD, _HEAD_START), (_T_VENUE, _VENUE_WORDS), (_T_PLACE1, _place_first()),
        (_T_CITY, _frequent_places()),
    ):
        for w in words:
            table[w] = table.get(w, 0) | bit
    return table


def _trigger_lists(toks: list, lows: list) -> tuple[list[int], ...]:
    """Token indices each pass of :func:`_find_names` visits, found with one table lookup per token.

    Returns (cue, saint, known hospital, extra, town service, institution head, venue, name run,
    place, frequent city) index lists, each equal to its plain form, one scan per pass (the property tests in
    tests/text/test_speed_paths.py check): the word sets are fixed, so one pass over the tokens serves every later pass.
    """
    get = _trigger_table().get
    index = hospitals()
    hits = [(i, b) for i, w in enumerate(lows)
            if (b := get(w, 0) | (_T_HOSP if "-" in w and w.split("-", 1)[0] in index else 0))]
    run_idx = [k for k, t in enumerate(toks) if t.cls is not C and t.cls is not W]
    # the place pass visits the name-run tokens and the everyday words that start a place's name
    # (neither clinical: those are the tokens not (W and not a place's first word, or C))
    w_first = [i for i, b in hits if b & _T_PLACE1 and toks[i].cls == W]
    place_idx = sorted(run_idx + w_first) if w_first else run_idx
    return (
        [i for i, b in hits if b & _T_CUE], [i for i, b in hits if b & _T_SAINT], [i for i, b in hits if b & _T_HOSP],
        [i for i, b in hits if b & _T_EXTRA], [i for i, b in hits if b & _T_TOWN], [i for i, b in hits if b & _T_HEAD],
        [i for i, b in hits if b & _T_VENUE], run_idx, place_idx, [i for i, b in hits if b & _T_CITY and toks[i].cls == W],
    )


@lru_cache(maxsize=1)
def _extra_triggers() -> frozenset[str]:
    return _place_first() | _INSTITUTION_FIELDS | STREET_SUFFIXES | _SPECIALTY_HEADS | frozenset(_COMPASS) | _SOFT_HEADS


#: A preposition of place right before a word ("from seattle", "in chicago", "area of columbus").
_PLACE_PREPOSITION_BEFORE_RE = re.compile(r"(?i)\b(?:in|from|to|near|outside|of|at|around|visiting|toward|towards)[ \t]$")
#: What a place names when a thing follows it: a protocol, a score or a model ("Chicago classification", "Seattle
#: heart failure model", "Portland protocol").
_THING_AFTER_PLACE_RE = re.compile(
    r"(?i)[ \t]+(?:protocols?|regimens?|criteria|scores?|scales?|classification|rules?|models?|definition|consensus|"
    r"heart|stool|triage|system|trial|study|method|procedure)\b"
)


@lru_cache(maxsize=1)
def _frequent_places() -> frozenset[str]:
    """Listed towns of one word that no dictionary lists but whose frequency makes the word classes call them
    everyday words ("seattle", "chicago", "minneapolis"): names of places only. Not states, countries or clinical words."""
    first, last, ordinary, clinical, place_set, _ = _lex()
    return frozenset(
        p for p in place_set
        if " " not in p and len(p) >= 4 and p.isalpha() and p not in ordinary and p not in clinical and p not in STATE_NAMES
        and p not in COUNTRY_NAMES and p not in first and p not in last and classify(p) == W and not p.endswith(_WORD_SUFFIXES)
        and not _inflected(p, ordinary) and p not in _REGIONS_NOT_TOWNS
    )


#: Provinces, territories and countries the lists hold as towns too, and words that name a kind of area ("in metro").
_REGIONS_NOT_TOWNS = frozenset("ontario quebec yukon palestine metro".split())


@lru_cache(maxsize=1)
def _place_first() -> frozenset[str]:
    """First words of multi-word place names ("fall" of "fall river")."""
    return frozenset(p.split(" ", 1)[0] for p in _lex()[4] if " " in p)


#: The word after a name run, past a possessive: the head noun of an eponym ("Baker's cyst").
_NEXT_HEAD_RE = re.compile(r"(?:['’][sS]?)?\s{0,3}([A-Za-z]{1,30})")
#: A sign's result right before it ("neg Murphy", "+ Murphy's", "POSITIVE SPURLING").
_RESULT_BEFORE_RE = re.compile(r"(?i)(?:\b(?:neg|negative|pos|positive)|\+)[ \t]{0,2}$")
#: Results an exam sign's possessive takes ("MURPHY'S NEG", "Allen's normal").
_SIGN_RESULTS = frozenset("neg negative pos positive normal nl intact absent present equivocal".split())


#: Bedside scores named after people, which notes give with their value and no head word ("Braden 14",
#: "Ballard 38 weeks", "Morse 45", "Child-Pugh B"): a person's name only without a score after it.
SCORE_EPONYMS = frozenset("ballard braden morse norton waterlow ranson pugh rankin caprini centor wells apache glasgow alvarado "
                          "wagner".split())
#: Rules and rating forms named after a town or a university, by the words that follow them: the Ottawa rules by the
#: part they clear or their result ("Ottawa ankle rules +", "ottawa neg"), the Vanderbilt ADHD forms ("sent Vanderbilt
#: forms", "Vanderbilt scales returned"); the town or the hospital only elsewhere ("lives in Ottawa", "Vanderbilt
#: University Medical Center").
_NAMED_INSTRUMENTS = {
    "ottawa": re.compile(r"(?i)[ \t]{1,3}(?:ankle|knee|foot|sah|subarachnoid|c-spine|rules?|criteria|neg|negative|pos|positive|\+|-[ \t]|\(-\)|\(\+\))"),
    "vanderbilt": re.compile(r"(?i)[ \t]{1,3}(?:forms?|scales?|questionnaires?|rating|ratings|assessments?|teacher|parent|adhd)\b"),
}
_SCORE_AFTER_RE = re.compile(r"[ \t:=]{1,3}(?:score[ \t:=]{1,3})?(?:\d|[ABC]\b)")


_ALL_EPONYM_HEADS = EPONYM_HEADS | _EPONYM_HEADS_MORE
#: One, two or three more capitalised names (an "and" between them) and the word after them, tried in that order.
def _eponym_tails(s: str, joiner: str, name: str, head: str) -> tuple[re.Pattern, ...]:
    return tuple(
        re.compile(r"(?:['’]%s?)?(?:[ \t]{1,3}(?:%s)?[ \t]{0,3}%s){%d}[ \t]{1,3}(%s{1,30})" % (s, joiner, name, k, head))
        for k in (1, 2, 3)
    )


_EPONYM_TAIL_RES = _eponym_tails("[sS]", "and|AND|&", r"[A-Z][A-Za-z'’-]*", "[A-Za-z]")
#: The same tails in a lower-case line ("cullen and grey turner signs"), where no capital marks the names between.
_EPONYM_TAIL_LOWER_RES = _eponym_tails("s", "and|&", r"[a-z][a-z'’-]*", "[a-z]")
#: Eponym heads that are verbs too: in a lower-case line "maria and jose sign consent" names two people.
_VERB_HEADS = frozenset("sign test tests".split())


#: Syndromes and signs named by two people that notes write without their head word ("not Ramsay Hunt", "Stevens
#: Johnson", "?Mallory Weiss tear" has its head).
_TWO_NAME_EPONYMS = frozenset({
    ("ramsay", "hunt"), ("guillain", "barre"), ("guillain", "barré"), ("stevens", "johnson"), ("mallory", "weiss"),
    ("brown", "sequard"), ("budd", "chiari"), ("creutzfeldt", "jakob"), ("zollinger", "ellison"), ("lambert", "eaton"),
    ("osler", "weber"), ("peutz", "jeghers"), ("legg", "calve"), ("wolff", "parkinson"), ("dubin", "johnson"),
})


def scored_eponym(text: str, low: str, end: int) -> bool:
    """Is the word ``low`` ending at ``end`` a bedside score, rule or form named after a person or a place, with its value,
    result or kind after it ("Braden 14", "ALVARADO 8", "Wagner 2", "Ottawa ankle rules +", "Vanderbilt forms")?"""
    return low in SCORE_EPONYMS and _SCORE_AFTER_RE.match(text, end) is not None \
        or low in _NAMED_INSTRUMENTS and _NAMED_INSTRUMENTS[low].match(text, end) is not None


def is_eponym(text: str, run: list) -> bool:
    """Are the tokens ``run`` an eponym ("Hasson technique", "Foley", "Graves' disease", "Braden 14"), not a person?"""
    nx = _NEXT_HEAD_RE.match(text, run[-1].e)  # (at the offset: no copy of the rest of the text)
    head = nx.group(1).lower() if nx else ""
    if len(run) == 1 and scored_eponym(text, run[0].low, run[0].e):
        return True
    if len(run) == 2 and (run[0].low, run[1].low) in _TWO_NAME_EPONYMS:
        return True  # "no features of Ramsay Hunt": a syndrome named by two people, written without its head
    if head in _ALL_EPONYM_HEADS or (len(run) == 1 and run[0].low in EPONYMS):
        return True
    if head in _SIGN_RESULTS and nx.group(0)[:1] in "'’":
        return True  # "MURPHY'S NEG", "Patrick's negative", "ALLEN'S NORMAL": an exam sign and its result
    if len(run) == 1 and run[0].low in PAIRED_SIGNS and _RESULT_BEFORE_RE.search(text, max(0, run[0].s - 10), run[0].s):
        return True  # "neg Murphy today", "+ Murphy's sign": the result before the sign
    if head in SPECIES and nx.group(0)[:1] in " \t" and not nx.group(1).istitle():
        return True  # "Candida glabrata", "CANDIDA ALBICANS": a genus before its species (never title case)
    # "Austin Flint murmur", "Cullen and Grey Turner signs": the head after one or two more capitalised names
    lower = run[0].case == "lower"
    for tail in _EPONYM_TAIL_LOWER_RES if lower else _EPONYM_TAIL_RES:
        more = tail.match(text, run[-1].e)
        if more is None:
            break
        if more.group(1).lower() in _ALL_EPONYM_HEADS and not (lower and more.group(1) in _VERB_HEADS):
            # (the names between are people's in an eponym, not a relative or a title: "Kathy and Son Sign ...";
            # in lower case no capital marks them, and a function word is none: "wife grace on line")
            between = text[run[-1].e : more.start(1)].lower().replace("'s", " ").replace("’s", " ").split()
            if lower and any(w in FUNCTION_WORDS and w not in ("and", "&") for w in between):
                return False
            return not any(w in RELATIONS or w in TITLES for w in between)
    # "neg Ortolani/Barlow", "GREY TURNER/CULLEN NEG": paired with an eponym across a slash, an exam sign too
    if text.startswith("/", run[-1].e):
        after = _NEXT_HEAD_RE.match(text, run[-1].e + 1)
        if after is not None and after.group(1).lower() in PAIRED_SIGNS:
            return True
    if run[0].s and text[run[0].s - 1] == "/":
        before = _SLASH_BEFORE_RE.search(text, max(0, run[0].s - 31), run[0].s)
        if before is not None and before.group(1).lower() in PAIRED_SIGNS:
            return True
    return False


_SLASH_BEFORE_RE = re.compile(r"([A-Za-z]{1,30})/$")


def _run_ok(t: _Tok) -> bool:
    """May ``t`` be part of a name found without a cue? In mixed-case lines names are capitalised."""
    if t.cls not in (N, A, U):
        return False
    # (a name and nothing else is one even typed in lower case, "then okonkwo saw him", when long enough to be
    # neither an abbreviation nor a short word of another language: "el pulmón claro")
    return t.case != "mixed" or t.raw[:1].isupper() or t.cls == N and len(t.low) >= 6


def _sentence_start(text: str, s: int) -> bool:
    k = s - 1
    while k >= 0 and text[k] in " \t":
        k -= 1
    return k < 0 or text[k] in ".!?\n:;"


# ", MA" after a town; without the comma only before a ZIP code ("HULL MA 02045": an address line)
# (a state's code in lower case only before a ZIP code: "ware, ma 02021"; "ma" alone is a mother)
_STATE_AFTER_RE = re.compile(r",\s{0,2}([A-Z]{2})\b|[ \t]([A-Z]{2})[ \t]{1,2}\d{5}(?![\w-])|,\s{0,2}([a-z]{2})(?=[ \t]{1,2}\d{5}(?![\w-]))")


def _clinical_code_after(text: str, t: _Tok) -> bool:
    """Is the state's code after ``t`` one a clinical line writes too, with no ZIP code after it ("abd pain, CT c/w
    appendicitis", "fatigue, MS flare")? After an everyday word that is also a name, it names no town."""
    m = _STATE_AFTER_RE.match(text, t.e)
    return m is not None and m.group(1) is not None and m.group(1).lower() not in _CODES_NO_WORD \
        and _ZIP_AFTER_RE.match(text, m.end()) is None


def _state_after(text: str, t: _Tok) -> bool:
    """Does ", XX" (a US state's code), or " XX 02045" (one before a ZIP code), follow the token ``t``?"""
    if not text.startswith((",", " ", "\t"), t.e):
        return False  # the pattern opens with a comma or a blank: no regex call for the tokens without one
    m = _STATE_AFTER_RE.match(text, t.e)
    return bool(m) and (m.group(1) or m.group(2) or m.group(3)).lower() in US_STATES


__all__ = ["classify", "find_evidence", "find_listed_children", "is_eponym", "streets_meeting_places", "tokens"]
