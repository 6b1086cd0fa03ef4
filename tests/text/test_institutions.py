"""Institution completion (:mod:`clinx.text.institutions`): an organisation's kind words are taken in around the part a
recogniser found ("[NAME] Elementary" -> one institution), and left alone where they describe a whole name, follow a
clinician, or belong to a sentence. Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.base import Candidate
from clinx.text.institutions import complete_institutions, find_bare_institutions, find_parenthesised_institutions
from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


def _cases(text: str) -> list[str]:
    return [text, text.upper(), text.lower()]


def _assert_gone_in_every_case(text: str, gone: list[str]) -> None:
    for variant in _cases(text):
        out = _l2(variant).lower()
        for word in gone:
            assert word not in out, (variant, out)


def _assert_kept_in_every_case(text: str, kept: str) -> None:
    for variant in _cases(text):
        out = _l2(variant).lower()
        assert kept in out, (variant, out)


# Every word of the institution must go: a school, court or shop in a named town is one place.
@pytest.mark.parametrize(
    "text,gone",
    [
        ("Pt teaches 2nd grade at Quimby Elementary.", ["quimby", "elementary"]),
        ("Son was suspended from Dunmore Middle last week.", ["dunmore", "middle"]),
        ("Hearing at Bexley Superior Court on the docket.", ["bexley", "superior", "court"]),
        ("Incarcerated at Bexley County Jail until spring.", ["bexley", "county", "jail"]),
        ("Referred to Carverton Diabetes Center for teaching.", ["carverton", "diabetes", "center"]),
        ("Psychiatrist at Riverbend Behavioral Health, weekly.", ["riverbend", "behavioral", "health"]),
        ("Letter for the Greenfield Housing Authority re: accommodation.", ["greenfield", "housing", "authority"]),
        ("Bartender at Murphy's Pub, works nights.", ["murphy", "pub"]),
        ("Prior admission at Hollis Regional for DKA.", ["hollis", "regional"]),
        ("Works for Marlow County Sheriff's Office as a deputy.", ["marlow", "county", "office"]),
    ],
    ids=["elementary", "middle_school", "superior_court", "county_jail", "diabetes_center", "behavioral_health",
         "housing_authority", "possessive_pub", "regional", "sheriffs_office"],
)
def test_kind_words_after_a_found_part_go_with_it(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Family members of the Islamic Center of Marlow visited.", ["islamic", "center", "marlow"]),
        ("Services through Guardian Services of Bexley.", ["guardian services", "bexley"]),
    ],
    ids=["center_of_town", "services_of_town"],
)
def test_kind_words_before_of_a_found_place_go_with_it(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        # a clinician's name before a specialty or an office: a service, no place
        ("F/u with Dr. Okafor oncology next week.", "oncology"),
        ("Called Dr Lindqvist office to confirm.", "office"),
        # a possessive that owns something is a person's
        ("Pt's daughter Ana's husband is at bedside.", "'s husband"),
    ],
    ids=["clinician_specialty", "clinician_office", "possessive_of_person"],
)
def test_descriptions_and_sentences_are_kept(text, kept):
    _assert_kept_in_every_case(text, kept)


# The kind of place written right after an institution's or a town's name is part of the name as annotators count it
# (every writer of the blind notes put "Haven House shelter", "Medford EMS", "Briarwood Manor nursing home" whole in
# one span, and a span counts as caught only when all of it goes); a unit inside a hospital is not ("Holy Name ED").
@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("Sleeps at Haven House shelter most nights.", "shelter", "most nights"),
        ("Shocked x3 by Medford EMS en route.", "ems", "en route"),
        ("Came from Briarwood Manor nursing home in Shrewsbury.", "nursing home", "came from"),
        ("Transferred from Holy Name Hospital ED w/ GI bleed.", "holy name", " ed w/ gi bleed"),
    ],
    ids=["shelter_after_name", "ems_after_town", "nursing_home_after_name", "unit_after_hospital_stays"],
)
def test_the_kind_of_place_after_a_name_goes_with_it(text, gone, kept):
    for variant in _cases(text):
        out = _l2(variant).lower()
        assert gone not in out and kept in out, (variant, out)


# In capitals these lines lose the words for a reason older than this pass (a run of capitalised words is read as
# one name: "BRIARWOOD MANOR NURSING HOME", "KATHY ATTENDS CHURCH"); what this pass must not do is take them in any case.
@pytest.mark.parametrize(
    "text,kept",
    [
        ("Wife Kathy attends church on Sundays.", "attends church"),
    ],
    ids=["person_verb_church"],
)
def test_descriptions_kept_in_mixed_and_lower_case(text, kept):
    for variant in (text, text.lower()):
        out = _l2(variant).lower()
        assert kept in out, (variant, out)


def test_only_extends_found_spans():
    text = "Pt attends Elementary school and a Day Center."
    assert complete_institutions(text, []) == []
    # a found town takes in the county after it, and stays a place
    text = "Lives in Bexley County with wife."
    s = text.index("Bexley")
    out = complete_institutions(text, [Candidate(s, s + 6, "LOCATION", "test")])
    assert [(text[c.start:c.end], c.category) for c in out] == [("Bexley County", "LOCATION")]


# ---------------------------------------------------------------- names of everyday words after a cue, ending in a head


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Son goes to Tiny Acorns Daycare M-F.", ["acorns", "daycare"]),
        ("Has a bed at Birch Hollow Inn through end of month.", ["birch", "hollow", "inn"]),
        ("Eats lunch at Open Gate Mission most days.", ["open gate", "mission"]),
        ("Was at Silver Moon Casino for 3 days prior.", ["silver moon", "casino"]),
    ],
    ids=["daycare", "inn", "mission", "casino"],
)
def test_bare_everyday_name_before_a_head_after_a_cue(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Son goes to the daycare down the street.", "daycare"),
        ("Attends public school, 4th grade.", "public school"),
        ("Seen at cancer center last week.", "cancer center"),
        ("Referral sent to Gavin Foundation and Hope House.", " and "),
    ],
    ids=["determiner", "qualifier_school", "service_center", "two_names_joined_by_and"],
)
def test_bare_rule_leaves_kinds_of_place(text, kept):
    _assert_kept_in_every_case(text, kept)


def test_bare_rule_leaves_a_qualified_kind_of_place():
    # (an older placement rule reads one-case "to residential hospice" as a place; this rule must not add to it)
    for variant in _cases("Discharged to residential hospice today, attends public school."):
        assert find_bare_institutions(variant) == []
    assert "residential hospice" in _l2("Discharged to residential hospice today.")


# ---------------------------------------------------------------- fields whose value is an organisation


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Employer: Dunmore Freight  Confirmed with family.", ["dunmore freight"]),
        ("hospice: caremoor  verified at registration", ["caremoor"]),
        ("Pharmacies on file: Kwikmed, Apothecary Row and Pillbox Plus mail order.", ["kwikmed", "apothecary", "pillbox"]),
        ("School: Quimby Elementary  Grade: 4", ["quimby", "elementary"]),
        # (whom the home serves is part of its name, as the tune writers mark it: "Mercy Hospital for Women", "new england
        # center and home for veterans"; the lower-case model takes it since the twenty-seventh session's retrain)
        ("Shelter: Bethany House for Women and Children.", ["bethany house"]),
    ],
    ids=["employer", "hospice", "pharmacy_list", "school", "one_organisation_not_a_list"],
)
def test_field_values_that_name_an_organisation(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Employer: none", "none"),
        ("PLAN: NEURO CHECKS Q1H", "neuro checks"),
        ("Insurance: Medicare A/B, no secondary.", "medicare a/b"),
        ("Pharmacy: pt unsure of name, uses mail order.", "uses mail order"),
    ],
    ids=["no_value", "plan_is_not_a_field_here", "public_programme", "description"],
)
def test_field_values_that_name_none(text, kept):
    _assert_kept_in_every_case(text, kept)


# ---------------------------------------------------------------- chains and insurers named on their own


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Mom works 2 jobs, Walmart + Costco.", ["walmart", "costco"]),
        ("Humana denied SNF level of care.", ["humana"]),
        ("Pt drives for DoorDash, no PCP.", ["doordash"]),
    ],
    ids=["two_chains_no_cue", "insurer_opens_sentence", "delivery_platform"],
)
def test_brand_names_that_are_no_english_word_need_no_cue(text, gone):
    _assert_gone_in_every_case(text, gone)


def test_abbreviations_and_words_among_the_chains_still_need_a_cue():
    for variant in _cases("CVS: RRR, no murmurs. Mood has ups and downs."):
        out = _l2(variant).lower()
        assert "cvs" in out and "ups" in out, (variant, out)


# ---------------------------------------------------------------- practices named for a town and a specialty


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Transfusion at Infusion Center of Framingham weekly.", ["infusion", "center", "framingham"]),
        ("Imaging at Radiology Associates of Brockton 10/19.", ["radiology associates", "brockton"]),
        ("Podiatry: Foot & Ankle Center of Brockton.", ["foot", "ankle", "center", "brockton"]),
        ("Followed by Brockton Renal, MWF 2nd shift.", ["brockton", "renal"]),
    ],
    ids=["kind_before_center_of_town", "associates_of_town", "body_parts_before_center", "town_then_specialty"],
)
def test_practices_named_for_a_town(text, gone):
    _assert_gone_in_every_case(text, gone)


def test_and_after_a_head_joins_only_words_of_the_same_case():
    # "Health and Counseling Services" is one name; "Food Bank and church pantry" are a name and a description
    text = "F/u w/ Quimby Health and Counseling Services. Food from Quimby Food Bank and church pantry."
    out = _l2(text)
    assert "Counseling" not in out and "church pantry" in out, out


def test_landscape_words_name_places_though_the_vocabulary_lists_them():
    # "view" and "hill" are in the clinical vocabulary (a radiograph's view, Hill-Sachs); after a cue, before a head, a name
    for variant in _cases("Records requested from Quarry View Medical Center, fax sent."):
        out = _l2(variant).lower()
        assert "quarry" not in out and "view" not in out, (variant, out)
    for variant in _cases("Follow up at resident clinic and at cardiac rehab."):
        assert find_bare_institutions(variant) == [], variant
    # (in capitals an older rule reads "RESIDENT CLINIC" as a name)
    for variant in ("Follow up at resident clinic and at cardiac rehab.", "follow up at resident clinic and at cardiac rehab."):
        out = _l2(variant).lower()
        assert "resident clinic" in out and "cardiac rehab" in out, (variant, out)


def test_a_possessive_names_a_charity():
    for variant in _cases("Eats lunch at Martha's Table most days."):
        assert "table" not in _l2(variant).lower(), variant


def test_capitalised_clinical_words_continue_a_name_they_do_not_open():
    out = _l2("Suboxone from Dr. Petrakis at Bright Heart Health weekly.")
    assert "Bright" not in out and "Heart Health" not in out, out
    out = _l2("Seen at Cardiology Clinic last week.")
    assert "Cardiology Clinic" in out, out
    # a capitalised name, then the kind of place in lower case: one name
    out = _l2("Husband, 72, at Sacred Heart nursing home since May.")
    assert "Sacred" not in out and "nursing home" not in out and "since" in out, out


def test_letterheads_and_signature_fields():
    for variant in _cases("Cape Ann Pediatrics   Well Child Visit"):
        assert "cape ann" not in _l2(variant).lower(), variant
    out = _l2("T. Nguyen, NP | Harbor Family Practice | 617-555-0131")
    assert "Harbor" not in out and "Family Practice" not in out, out
    # department and section headers name no institution; a line opening with a verb is a sentence
    for header in ("Family Medicine", "Sleep Medicine", "General Surgery Clinic", "Hospital Medicine - Progress Note",
                   "Attends Adult Day Health, family works days.", "Works construction, self-employed."):
        for variant in _cases(header):
            assert find_bare_institutions(variant) == [], variant


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Works out at Planet Fitness most days.", "planet"),
        ("Silver Sneakers at Gold's Gym weekly.", "gold"),
        ("Sees chiropractor at Align Chiropractic.", "align"),
        ("AA meetings at Hope Lutheran on Tuesdays.", "hope lutheran"),
    ],
    ids=["fitness", "possessive_gym", "chiropractic", "denomination"],
)
def test_more_heads_of_bare_names_in_one_case(text, gone):
    for variant in _cases(text):
        assert gone not in _l2(variant).lower(), variant


def test_relations_possessive_is_no_name():
    for variant in _cases("Staying at mom's house tonight, then at sister's house."):
        assert find_bare_institutions(variant) == [], variant


def test_institution_in_parentheses_after_a_study_or_service_word():
    for variant in _cases("Outside echo (Emberly, 1/2025): EF 45%. Per OSH (Nashwood Valley) records, CT neg."):
        out = _l2(variant).lower()
        assert "emberly" not in out and "nashwood" not in out, (variant, out)
    for variant in _cases("Echo (limited) today; CT (head) neg; labs (CBC, BMP) pending; CT (wo contrast) neg."):
        assert find_parenthesised_institutions(variant) == [], variant


# A practice's specialty words stand between its distinctive part and its own head ("Hartford GI Group"), and a second
# specialty after "&" closes it ("... Pulmonary & Sleep"); a clause after a practice's name stays.
@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("Referred to Hartford GI Group for EGD.", "gi group", "for egd"),
        ("Seen by Brockton Heart & Vascular Associates in 2019.", "vascular associates", "seen by"),
        ("Referring: Jane Doe MD, Grand Junction Pulmonary & Sleep", "sleep", "referring"),
        ("Seen by Springfield Cardiology and GI today.", "springfield", "and gi today"),
    ],
    ids=["gi_group_after_town", "two_specialties_associates", "second_specialty_closes", "second_word_then_clause"],
)
def test_practice_specialty_words_go_with_the_name(text, gone, kept):
    for variant in _cases(text):
        out = _l2(variant).lower()
        assert gone not in out and kept in out, (variant, out)


# A state or a region of one after an institution's "of" closes its name ("BCBS of Tennessee"); a state alone stays.
@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("pt is medicare + bcbs of tennessee supplement.", "tennessee", "supplement"),
        ("Easterseals of Massachusetts called back.", "massachusetts", "called back"),
        ("Moved from Tennessee last year.", None, "moved from tennessee"),
    ],
    ids=["insurer_of_state", "agency_of_state", "state_alone_stays"],
)
def test_state_after_an_institutions_of_goes_with_it(text, gone, kept):
    out = _l2(text).lower()
    assert (gone is None or gone not in out) and kept in out, out


def test_an_everyday_word_after_an_institutions_comma_is_no_town():
    out = _l2("member of ibew local 377, union rep called.")
    assert "union rep called" in out and "377" not in out


# Kind words that close a name only after a found town or institution ("[Creech] Drug" after a venue cue too), and a
# named centre after specialty words ("[hopkins] wound center"); after a person's name with no cue they stay.
@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("pt followed at hopkins wound center but missed appts", "wound center", "but missed"),
        ("GETS MEDS FILLED AT CREECH DRUG IN TOWN.", "DRUG", "GETS MEDS"),
        ("called arbour hospital and southcoast behavioral, waiting", "behavioral", "waiting"),
        ("PCP DR. MCALLISTER AT LANSDOWNE FAMILY MED IN 1 WK.", "FAMILY MED", "IN 1 WK"),
        ("Pt's employer Hillcrest Credit Union needs FMLA form", "Credit Union", "needs FMLA"),
        ("son John drug use reported", None, "drug use"),
    ],
    ids=["named_centre", "drug_after_cue", "behavioral_after_place", "family_med", "credit_union", "person_then_word"],
)
def test_tail_heads_after_found_parts(text, gone, kept):
    out = _l2(text)
    assert (gone is None or gone not in out) and kept in out, out


# A business named by everyday words, where the note says in a parenthesis what kind of place it is.
@pytest.mark.parametrize(
    "text,gone",
    [
        ("FOOSH @ Bounce (trampoline park, Kapolei) ~1640", ["bounce"]),
        ("on scene 2219 @ Rooster's (bar), corner of the lot", ["rooster"]),
        ("weekends at scoops (ice cream place on the river road)", ["scoops"]),
        ("pt ran a florist (petals, on the green) for 40 yrs", ["petals"]),
        ("works at a bar (Flipside) nights", ["flipside"]),
    ],
    ids=["name_then_kind_after_at_sign", "possessive_name_then_kind", "lower_name_then_kind", "kind_then_name_then_where",
         "kind_then_name_alone"],
)
def test_a_business_described_in_a_parenthesis_goes(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("goes to church (a big church on the hill) weekly", "goes to church"),
        ("at work (warehouse job) since may", "at work (warehouse job)"),
        ("lives with son (store manager)", "lives with son (store manager)"),
        ("pain at rest (no place to sit)", "pain at rest (no place to sit)"),
        ("drinks at Stubby's (bar) fridays", "(bar)"),
    ],
    ids=["kind_before_its_description", "kind_at_work", "relative_with_role", "clinical_before_place_word",
         "kind_word_after_removed_name"],
)
def test_a_kind_a_relative_or_a_clinical_word_before_a_parenthesis_is_kept(text, kept):
    _assert_kept_in_every_case(text, kept)


# A business named by everyday words after a venue word, the street it stands on saying it is a place.
@pytest.mark.parametrize(
    "text,gone",
    [
        ("WAS A REGULAR AT GOLD'S ON DORCHESTER AVE. PARISHIONER", ["gold"]),
        ("rx sent to the pill box on front st - pharmacist aware", ["pill box"]),
        ("Works part time at Piccadilly cafeteria on Veterans Blvd, worried", ["piccadilly"]),
    ],
    ids=["possessive_name_then_street", "article_name_then_street", "name_then_kind_then_street"],
)
def test_a_business_before_its_street_goes(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("found down at the bus stop on elm ave by ems", "at the bus stop on"),
        ("fell at home on oak st, no loc", "at home on"),
        ("waiting at the corner on main st when struck", "at the corner on"),
    ],
    ids=["spot_on_a_street", "home_on_a_street", "corner_on_a_street"],
)
def test_a_spot_before_a_street_is_kept(text, kept):
    _assert_kept_in_every_case(text, kept)


# A business of everyday or unknown words after a venue word, and the street with no street's word it stands on.
@pytest.mark.parametrize(
    "text,gone",
    [
        ("lifts at crunch on foothill. no guns in home", ["crunch", "foothill"]),
        ("climbs at gravity on tchoupitoulas 2x/wk.", ["gravity", "tchoupitoulas"]),
        ("hapkido at jung's on western 2x/wk, 2-3 beers", ["jung", "western"]),
    ],
    ids=["everyday_word_business_and_street", "street_before_a_frequency", "possessive_business"],
)
def test_a_business_on_a_bare_street_goes(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("at home on weekends.", "at home on weekends"),
        ("pt at bedside on 2l.", "at bedside on 2l"),
        ("stays at the arbors on hold.", "on hold"),
        ("bib police after yelling at pedestrians on halsted.", "yelling at pedestrians"),
        ("at goal on lisinopril 10 daily", "at goal on lisinopril"),
        ("BP AT TARGET ON CURRENT REGIMEN", "at target on current regimen"),
    ],
    ids=["home_on_days", "spot_on_oxygen", "on_hold", "aimed_at_people", "clinical_goal_on_a_drug", "target_on_a_regimen"],
)
def test_what_is_no_business_before_on_is_kept(text, kept):
    _assert_kept_in_every_case(text, kept)


def test_the_kind_after_a_business_before_its_street_is_left_out_of_the_name():
    from clinx.text.institutions import find_described_businesses

    text = "works at Piccadilly cafeteria on Veterans Blvd"
    assert [text[c.start : c.end] for c in find_described_businesses(text)] == ["Piccadilly"]


# A programme, a house or a school named by everyday words, the parenthesis saying what kind of service it is.
@pytest.mark.parametrize(
    "text,gone",
    [
        ("BIB EMS FROM THE HAVEN (SHELTER ON CANAL ST) AFTER FOUND DOWN", ["the haven"]),
        ("goes to bridges (adult day program) tues/thurs", ["bridges"]),
        ("attends sunrise (pre-k) on ridge st", ["sunrise"]),
        ("teaches science at crossroads (alt middle school) downtown", ["crossroads"]),
    ],
    ids=["article_name_then_shelter", "name_then_day_program", "attends_name_then_pre_k", "name_then_school"],
)
def test_a_service_described_in_a_parenthesis_goes(text, gone):
    _assert_gone_in_every_case(text, gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("pt lives at home (group home) with staff", "at home (group home)"),
        ("back at school (middle school) now", "at school (middle school)"),
        ("bed available at medical respite (a respite house) today", "medical respite"),
    ],
    ids=["home_before_its_kind", "school_before_its_kind", "kind_of_care_before_its_house"],
)
def test_a_kind_of_place_before_a_service_parenthesis_is_kept(text, kept):
    _assert_kept_in_every_case(text, kept)
