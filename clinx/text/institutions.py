"""Completing an institution's name around a part already found.

A recogniser often finds the *distinctive* word of an organisation's name, a
town or a surname, and leaves the words that say what kind of place it is:
``Lincoln Elementary`` becomes ``[NAME] Elementary``, ``Bexley Superior Court``
``[LOCATION] Superior Court``, ``Islamic Center of Marlow`` ``Islamic Center of
[LOCATION]``. Those words are part of the identifier (a school in a named town
is one school), and a span counts as removed only when all of it is. This pass
takes them in:

* **right**: after a found name, place or institution (and an optional
  possessive, ``Tony's Pizza``), a run of *kind* words joined by blanks, ``&``
  or hyphens that ends in a *head* (``Elementary``, ``Court``, ``Diner``,
  ``Day Center``, ``Behavioral Health``, ``County Jail``) becomes part of it,
  as an institution; a county after a place (``Bexley County``) stays a place;
* **left**: ``<kind words ending in a head> of [the|greater] <found place>``
  (``Guardian Services of New England``, ``Temple of Greater Hollis``,
  ``our lady of Fatima``) takes in the words before ``of``.

Nothing is found here from nothing: a span is only ever *extended* from one a
recogniser already removed, so the pass cannot add a false positive in a line
where nothing was found. Kind words are organisation vocabulary only (no
clinical finding or drug); specialties (``oncology``, ``ortho``, ``dental``)
and office words are not taken after a clinician's name (``Dr. Lee
oncology``), since there they name a service, not a place.
"""

from __future__ import annotations

import re
from typing import Iterable

from clinx.text.base import PLACEHOLDER_RE, Candidate

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
clinic clinics hospital infirmary associates partners group practice rehab
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
kidney pain women men veterans' health human social legal aid well-being wellbeing rescue life
""".split()
)
#: Heads that, after a clinician's name, name a service or a room, not a place ("Dr. Lee oncology", "Dr Ruiz office").
SERVICE_HEADS = frozenset(
    """
oncology ortho orthopedics orthopaedics dental imaging mri radiology therapy pediatrics medicine office group practice
associates partners clinic clinics health healthcare services service program plan home house care
""".split()
)
#: Heads that name a kind of service, which notes write after an institution's or a town's name as a description
#: ("MGH ortho clinic", "Medford EMS", "Haven House shelter"): taken in only after a name no head follows yet.
DESCRIPTIVE_HEADS = frozenset("clinic clinics ems ambulance dental ortho oncology radiology therapy pantry shelter office program programs".split())
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
_NEXT_WORD = re.compile(r"([ \t]{1,2}|[ \t]?&[ \t]?|[ \t]?-[ \t]?)([^\W\d_][^\W\d_'’]*(?:['’][sS])?)")
_POSSESSIVE = re.compile(r"['’][sS](?![^\W\d_])")
_OF_BEFORE = re.compile(r"[ \t]+of[ \t]+(?:the[ \t]+)?(?:greater[ \t]+)?$", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_][^\W\d_'’]*(?:['’][sS])?")
_BARE_POSSESSIVE_END = re.compile(r"[ \t]*(?:[).,;:!?+/]|$|\n|[ \t](?:and|&|\+|or)[ \t])", re.IGNORECASE)
_OF_NEXT = re.compile(r"[ \t]+of\b", re.IGNORECASE)
#: Verbs and words of going that put a person, not a name, between a found name and a head ("Mary attends church").
_NOT_FREE = frozenset(
    "attends attend goes go works work visits visit lives live stays stay volunteers volunteer sees returns needs wants "
    "uses use likes loves left from with his her their our your its".split()
)
_LAST_WORD = re.compile(r"[^\W\d_]+$")
_JOIN = re.compile(r"[ \t]{1,2}|[ \t]?&[ \t]?")
#: Words that open an institution's name before its kind words ("Our Lady of", "St. Vincent", "Visiting Nurse").
_LEFT_EXTRA = frozenset("our st saint visiting".split())
_OF_AFTER = re.compile(r"[ \t]+of[ \t]+(?:the[ \t]+)?(?:greater[ \t]+)?", re.IGNORECASE)
#: Words that a line may give between "of" and the region an agency serves ("Hospice of the Valley").
_REGION_WORDS = frozenset(
    "valley cape bay shore north south east west central new england america county region area hills lakes coast".split()
)


def _anchors(text: str, cands: Iterable[Candidate], placeholders: bool) -> list[tuple[int, int, str, bool]]:
    """(start, end, category, is a placeholder) of every span a kind word may follow."""
    spans = [(c.start, c.end, c.category, False) for c in cands if c.category in ANCHOR_CATEGORIES]
    if placeholders and "[" in text:
        for m in PLACEHOLDER_RE.finditer(text):
            cat = m.group()[1:-1]
            # (an earlier level's institution was completed there: its words are gone, and whether it ended in a head with them)
            if cat in ANCHOR_CATEGORIES and cat != "HOSPITAL":
                spans.append((m.start(), m.end(), cat, True))
    return spans


def _right(text: str, s: int, e: int, cat: str) -> Candidate | None:
    """The anchor ``[s, e)`` taken on over the kind words after it, or None."""
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
    if m:
        pos = m.end()
        if _BARE_POSSESSIVE_END.match(text, pos):
            end = end or pos  # "works at McDonald's.", "(LOWE'S)": a possessive with nothing owned is a shop's name
    new_cat = "HOSPITAL"
    free = None  # one word of the name itself between the anchor and the kind words ("Golden Years Day Center")
    n = 0
    while n < 5:
        m = _NEXT_WORD.match(text, pos)
        if m is None:
            break
        w = m.group(2).lower().replace("’", "'")
        after_head = end is not None
        if n == 0 and cat == "LOCATION" and w in PLACE_TAILS and not m.group(1).strip():
            end, new_cat = m.end(), "LOCATION"
        elif w in HEADS and not (clinician and w in SERVICE_HEADS) \
                and not ((cat != "NAME" or after_head or free) and w in DESCRIPTIVE_HEADS) \
                and not ((after_head or free) and w in ("home", "homes", "house")) and not (w == "state" and _OF_NEXT.match(text, m.end())):
            # (after a head, a description: "Cole Center office", "Briarwood Manor nursing home"; "state of mind")
            end, new_cat = m.end(), "HOSPITAL"
        elif w in MODIFIERS:
            pass
        elif n == 0 and not clinician and end is None and _free_word(w):
            free = w
        else:
            break
        pos = m.end()
        n += 1
    if end is None or end == e:
        return None
    return Candidate(s, end, new_cat, "rule:institution_completion", 0.9)


def _free_word(w: str) -> bool:
    """May ``w`` be a word of a name between a found part and its kind words: no verb, clinical or function word."""
    from clinx.text.evidence import C, REPORT_VERBS, _FINITE_VERBS, classify

    return (
        len(w) > 2 and w.isalpha() and not w.endswith(("ed", "ing")) and w not in REPORT_VERBS and w not in _FINITE_VERBS
        and w not in _NOT_FREE and classify(w) != C
    )


def _left(text: str, s: int, e: int) -> Candidate | None:
    """``<kind words> of [the|greater] <anchor>`` taken in before the anchor, or None."""
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
        if i == 0 and word not in OF_HEADS:
            return None
        if i and word not in MODIFIERS and word not in HEADS and word not in _LEFT_EXTRA:
            break
        start = pos = w.start()
    return Candidate(start, e, "HOSPITAL", "rule:institution_completion", 0.9) if start is not None else None


def _of_region(text: str, s: int, e: int) -> Candidate | None:
    """``<institution ending in a head> of [the] <region words>``: "Hospice of the Valley", "VNA of Cape Cod"."""
    m = _OF_AFTER.match(text, e)
    if m is None:
        return None
    last = re.search(r"([^\W\d_]+)$", text[s:e])
    if last is None or last.group(1).lower() not in OF_HEADS:
        return None
    pos, end = m.end(), None
    for _ in range(3):
        w = re.match(r"([^\W\d_]+)", text[pos:])
        if w is None or w.group(1).lower() not in _REGION_WORDS:
            break
        end = pos + w.end()
        nxt = re.match(r"[ \t]{1,2}", text[end:])
        if nxt is None:
            break
        pos = end + nxt.end()
    return Candidate(s, end, "HOSPITAL", "rule:institution_completion", 0.9) if end is not None else None


def complete_institutions(text: str, cands: list[Candidate], *, placeholders: bool = False) -> list[Candidate]:
    """Candidates that extend the found names, places and institutions of ``cands`` over the rest of an institution's name.

    ``placeholders``: also extend the placeholders an earlier level left in
    ``text`` (L2 runs on L1's output). Returns only the new candidates; they
    overlap their anchors, and :func:`clinx.text.base.resolve_overlaps` unions them.
    """
    out: list[Candidate] = []
    for s, e, cat, ph in _anchors(text, cands, placeholders):
        found = [_right(text, s, e, cat)]
        found.append(_left(text, s, found[0].end if found[0] is not None else e))
        if cat == "HOSPITAL":
            found.append(_of_region(text, s, e))
        for c in found:
            if c is None:
                continue
            if ph:
                # an earlier level's placeholder stays as it is: only the words around it are new
                if c.start < s:
                    out.append(Candidate(c.start, s, c.category, c.source, c.score))
                if c.end > e:
                    out.append(Candidate(e, c.end, c.category, c.source, c.score))
            else:
                out.append(c)
    return out


__all__ = ["complete_institutions", "HEADS", "MODIFIERS", "OF_HEADS"]
