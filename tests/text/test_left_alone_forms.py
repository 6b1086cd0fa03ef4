"""Forms that earlier sessions noticed and left alone, and forms read on the tune notes of 2026-12-06. Each test
pins one general rule and a sentence the rule must leave alone. Values are invented; test ids name the form,
never a value.
"""

import re

import pytest

from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


# ---------------------------------------------------------------- a relative and her sons are no firm


@pytest.mark.parametrize(
    "text,kept",
    [
        ("wife Mary & sons at bedside, updated on plan.", "& sons at bedside"),
        ("WIFE MARY & SONS AT BEDSIDE", "& SONS AT BEDSIDE"),
        ("his wife, Mary & sons visited", "& sons visited"),
    ],
    ids=["mixed_case", "caps", "comma_after_relation"],
)
def test_a_relative_and_her_sons_stay_family(text, kept):
    out = _l2(text)
    assert kept in out and "Mary" not in out.replace("MARY", "Mary")


@pytest.mark.parametrize(
    "text,left",
    [("Kfoury & Sons, hauling", "Kfoury"), ("works for Johnson & Sons", "Johnson")],
    ids=["surname_firm", "firm_after_works_for"],
)
def test_a_surname_and_sons_is_still_a_firm(text, left):
    out = _l2(text)
    assert left not in out and "Sons" not in out


# ---------------------------------------------------------------- "see below" in a field


@pytest.mark.parametrize(
    "text",
    ["Typed: see below", "TYPED: SEE ABOVE", "Signed: see attached"],
    ids=["below", "caps_above", "attached"],
)
def test_see_pointing_elsewhere_is_no_surname(text):
    assert "[NAME]" not in _l2(text)


def test_see_as_a_surname_in_a_field_still_goes():
    assert "See" not in _l2("Typed: See, Marcus")


# ---------------------------------------------------------------- hospitals named after people whose names are eponyms


@pytest.mark.parametrize(
    "text,left",
    [
        ("CT coronary angiogram booked at Nottingham City Hospital.", "Nottingham"),
        ("WELLS GENERAL HOSPITAL", "WELLS"),
        ("transferred to simpson memorial hospital", "simpson"),
        ("seen at Clark Medical Center", "Clark"),
    ],
    ids=["city_hospital", "caps_general_hospital", "lower_memorial", "medical_center"],
)
def test_an_eponym_before_a_hospital_head_names_the_hospital(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("followed in Parkinson Clinic", "Parkinson Clinic"),
        ("Alzheimer Center referral", "Alzheimer Center"),
        ("BISHOP SCORE 8, TO HOSPITAL", "BISHOP SCORE"),
        ("pt has down syndrome, hospital course uneventful", "down syndrome"),
    ],
    ids=["disease_clinic", "disease_center", "score_then_hospital", "syndrome_then_hospital"],
)
def test_a_clinic_named_for_a_disease_stays(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- signers after a signature's dash


@pytest.mark.parametrize(
    "text,left",
    [
        ("NPO after midnight.\n-- afds/rk", "afds"),
        ("home visit wk 1.\n-- ET/kb", "kb"),
        ("family training done.\n-- dk/lm pta", "dk"),
        ("next visit due.\n-- GW, RN CASE MGR", "GW"),
        ("EDD set. -- CB, DISCHARGE COORDINATOR", "CB"),
        ("orders rec'd. —R. Long, RN", "Long"),
        ("no new orders.\n-- grace l, rn", "grace"),
        ("on-call line given.\n-- hope s, rn case mgr", "hope"),
    ],
    ids=["lower_pair_four_letters", "mixed_case_pair", "pair_then_assistant", "caps_initials_role",
         "initials_after_sentence", "em_dash_initial_surname", "given_name_initial", "given_word_initial_role"],
)
def test_a_signer_after_a_dash_goes(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["- PT/OT", "- and/or", "- BP, HR stable", "- Cr/BUN trend"],
    ids=["disciplines", "function_words", "vitals_list", "labs_pair"],
)
def test_bullets_after_a_dash_stay(text):
    assert "[NAME]" not in _l2(text)


def test_a_typists_initials_after_a_slash_close_the_note():
    assert "sv" not in _l2("d/c anticipated tomorrow.\n/sv")
    assert _l2("plan discussed.\n/ok") == "plan discussed.\n/ok"


# ---------------------------------------------------------------- given names after roles and relatives


@pytest.mark.parametrize(
    "text,left",
    [
        ("partner at bedside, doula hope en route.", "hope"),
        ("volunteer bill sits with him weekly.", "bill"),
        ("husband art drives her in from town", "art"),
        ("SW PEG DOYLE CONTACTED.", "PEG"),
        ("wife ann (90) present", "90"),
    ],
    ids=["doula_en_route", "volunteer_then_verb", "relative_clinical_word_then_verb", "role_given_surname", "relative_age"],
)
def test_given_names_after_roles_and_relatives_go(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("rn PEG TUBE flushed", "PEG TUBE"), ("SW WILL CALL FAMILY", "WILL CALL"), ("son will call tomorrow", "will call")],
    ids=["role_then_tube", "caps_modal", "lower_modal"],
)
def test_words_after_roles_that_are_no_names_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- nicknames between a given name and a surname


@pytest.mark.parametrize(
    "text,gone",
    [
        ("client: mrs. dolores (lola) ferreira-mendes, 88,", ["lola", "ferreira"]),
        ('pt: joyce "joy" hamid-baxter, 57f', ["joy", "hamid"]),
        ("sister Ann (Nan) visits", ["Nan"]),
    ],
    ids=["parentheses_then_hyphenated_surname", "quotes_then_hyphenated_surname", "parentheses_after_relative"],
)
def test_a_nickname_and_the_surname_after_it_go(text, gone):
    out = _l2(text)
    assert not any(g in out for g in gone)


@pytest.mark.parametrize(
    "text,kept",
    [("Maria (daughter) called", "(daughter)"), ("Dr. Lee (GI) saw pt", "(GI)"), ("Jose (Spanish) interpreter", "(Spanish)")],
    ids=["relation", "service", "language"],
)
def test_roles_and_languages_in_parentheses_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- numbers: phones, identifiers, dates


@pytest.mark.parametrize(
    "text,left",
    [
        ("GP surgery 01632 960417", "960417"),
        ("call 020 7946 0958", "7946"),
        ("niece in Galway, tel 011 353 91 555 0187", "555"),
        ("HCN 2847 553 910 KL", "910"),
        ("CLIA 05D0987654", "0987654"),
        ("home exercise program, access code k7tq2mx", "k7tq2mx"),
        ("TRANSPORT PREARRANGED, ACCT 77-1043.", "1043"),
        ("EDD 15/6.", "15/6"),
        ("psychiatry c/l consult 3/3", "3/3"),
        ("week of 9/11-9/15:", "9/15"),
    ],
    ids=["uk_landline_five_digit_code", "uk_london", "dialled_from_north_america", "ontario_health_card_groups",
         "clia_number", "access_code", "account_abbreviation", "edd_day_first", "consult_date", "week_of_range"],
)
def test_numbers_in_these_forms_go(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("into account 2 episodes", "2 episodes"), ("took 2 of 3/4-4/4 doses", "3/4-4/4"), ("code status: full code", "full code")],
    ids=["account_prose", "doses_of_range", "code_status"],
)
def test_look_alike_numbers_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- institutions by their unit, workers' agencies, heads


@pytest.mark.parametrize(
    "text,left",
    [
        ("If worse → Regions ED.", "Regions"),
        ("scr 1.3 (baseline 1.0 per quest labs)", "quest"),
        ("DV ADVOCATE FROM HAVEN MET W/ PT", "HAVEN"),
        ("Family chose Messinger Mortuary.", "Messinger"),
        ("SITTER FROM ACCURATE STAFFING ASSIGNED", "ACCURATE"),
    ],
    ids=["arrow_before_unit", "labs_after_per", "advocate_from_agency", "mortuary", "staffing_agency"],
)
def test_institutions_in_these_forms_go(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["Pending labs: none", "Trough labs at 0500", "Coag labs normal", "Covid labs", "advocate from court present",
     "SITTER FROM FLOAT POOL", "colonic transit study normal", "short staffing tonight", "body released to mortuary"],
    ids=["pending", "trough", "coag", "covid", "court", "float_pool", "gi_transit", "staffing_level", "mortuary_alone"],
)
def test_kinds_of_labs_places_and_services_stay(text):
    assert "[HOSPITAL]" not in _l2(text)


# ---------------------------------------------------------------- an address goes on to its town


@pytest.mark.parametrize(
    "text,left",
    [
        ("lives w/ wife and 4 children in cedar-riverside, minneapolis.", "minneapolis"),
        ("lives at 7 lantern way, mystic, ct; works from home", "mystic"),
        ("shot outside corner store at 400 Park St, Frog Hollow, ~2250.", "Frog"),
        ("PT LIVES IN DECATUR, GA SINCE 2019.", "GA"),
        ("ran out; pharmacy on queen st e had no refill", "st e"),
    ],
    ids=["listed_town_after_neighbourhood", "town_before_state", "neighbourhood_landscape_word", "state_code_then_word",
         "lower_case_quarter_letter"],
)
def test_the_town_after_an_address_goes(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [("SHE HAS BEEN STAYING ON 5TH AND WALNUT SINCE SEPT", "WALNUT"), ("Shot outside (corner store, Kimball & 9th) ~0200", "Kimball"),
     ("FILL HX FROM CORNER DRUG (ELM & 3RD, BAYPORT)", "ELM"), ("meet at the towers on jefferson & 9th. told pt", "jefferson")],
    ids=["ordinal_first_before_since", "ordinal_last_in_parentheses", "ordinal_last_before_the_town", "street_named_for_a_person"],
)
def test_a_numbered_street_meeting_a_named_one_goes(text, gone):
    assert gone not in _l2(text)


def test_a_crossing_goes_whole_with_the_word_joining_its_streets():
    out = _l2("JOB SITE, CORNER OF MCKINNEY AVE AND PEARL ST. NO LOC PER COWORKER")
    assert "PEARL" not in out and "AVE AND" not in out and " AND [" not in out and "] AND" not in out


@pytest.mark.parametrize("text", ["lesion at 4th and 5th toes.", "given on the 3rd and final dose.", "seen on the 5th and Friday.",
                                  "pain at cervical and 5th."],
                         ids=["two_ordinals", "ordinal_and_final", "ordinal_and_weekday", "clinical_word_no_surname"])
def test_an_ordinal_and_a_word_that_is_no_street_stay_words(text):
    out = _l2(text)
    assert "[LOCATION]" not in out


@pytest.mark.parametrize(
    "text,kept",
    [("lives at 12 Elm St, apt 4, with wife", ", with wife"), ("lives in Dover, alone", "alone"),
     ("fell at home in salem, nc 2l", "nc 2l"), ("FLYING BACK TO PORTLAND, OR TOMORROW", "OR TOMORROW")],
    ids=["unit_number", "everyday_word", "nasal_cannula", "word_code"],
)
def test_what_follows_an_address_that_is_no_town_stays(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- centres "for" what they are for; chains abroad


@pytest.mark.parametrize(
    "text,left",
    [
        ("Previously saw therapist at Center for Haitian Studies.", "Haitian"),
        ("referred to the Society for the Blind and the VNA", "Blind"),
        ("ran out as shoppers drug mart had no refill", "shoppers"),
        ("Family chose Messinger Mortuary, east side location", "Messinger"),
    ],
    ids=["center_for", "society_for_the", "canadian_pharmacy_chain", "mortuary"],
)
def test_named_organisations_go(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("seen at Center for Sleep Medicine", "Sleep Medicine"), ("the Division of Cardiology", "Division of Cardiology")],
    ids=["center_for_a_service", "division_of_a_service"],
)
def test_centres_named_for_a_kind_of_care_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- clinical content read as PHI (tune notes' false removals)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("GP: Dr A. Bhatti, Lewes Health Centre", "GP:"),
        ("NOK: daughter at bedside", "NOK:"),
        ("His wife is NOK (07700 900461).", "is NOK"),
        ("ADDERALL XR 20 MG. NKDA. IMMS UTD.", "IMMS UTD"),
        ("s/p DDD pacer for CHB, doing well", "for CHB"),
        ("EXAM: TTP 5TH MC, NO DEFORMITY", "5TH MC"),
        ("stopped at 6 min with 1.5 mm ST depression", "mm ST depression"),
        ("enoxaparin 40 mg SQ daily", "40 mg SQ daily"),
        ("ankle sprain (Ottawa rules neg, no XR)", "Ottawa rules"),
        ("ottawa ankle rules positive.", "ottawa ankle rules"),
        ("Vietnamese interpreter used (ID 44107) for teaching", "(ID "),
        ("unable to log in to MyChart; gave help desk number", "MyChart"),
        ("-- amira khoury, md (ccfp-em)", "ccfp-em"),
        ("exercise program reviewed.\nl. ferreira-santos, ma ccc-slp", "ma ccc-slp"),
        ("MEDICATIONS:  Zestril, Zocor, Norvasc", "Zestril, Zocor, Norvasc"),
        ("Name: Jane Doe\nDOA:  2/17/80", "DOA:"),
    ],
    ids=["gp_label", "nok_label", "nok_after_is", "immunisations_up_to_date", "complete_heart_block", "ordinal_letters",
         "st_depression_after_mm", "route_after_dose", "decision_rule", "decision_rule_lower", "id_label_no_idaho",
         "patient_portal", "canadian_credential", "degree_before_licence", "drug_brands", "date_of_admission_label"],
)
def test_clinical_content_that_looked_like_phi_stays(text, kept):
    assert kept in _l2(text)


def test_a_street_after_a_house_number_still_goes():
    assert "Main" not in _l2("lives at 40 Main St")


def test_idaho_before_its_own_zip_code_still_goes():
    out = _l2("lives in Boise, ID 83702")
    left = re.sub(r"\[[A-Z]+\]", "", out)  # (the town, its state and its ZIP code go, in one span or in three)
    assert out.startswith("lives in [LOCATION]") and not any(v in left for v in ("Boise", "ID", "83702"))


# ---------------------------------------------------------------- tune notes vr-vu: ages, children, nicknames, dates


@pytest.mark.parametrize(
    "text,left",
    [
        ('pt: Joan "Jo" Smith, 93, lives alone', "93"),
        ("PT DECLINES TAVR EVAL; \"I'M 96, I'VE HAD A GOOD RUN.\"", "96"),
        ("children lily (6) and marcus (3) currently w/ grandma", "lily"),
        ("CHILDREN DESTINY (6) AND MARCUS (3) W/ MOTHER", "DESTINY"),
        ('resident Mary Smith (prefers "flossie"), 88 y/o f', "flossie"),
        ('accepted for bed, house mgr "Sully" to call', "Sully"),
        ("low mood since husband alf died in spring", "alf"),
        ("mbss 4/4 w/ radiologist", "4/4"),
        ("OGD 01/10: 1.5 cm clean-based ulcer", "01/10"),
        ("next review 19/6.", "19/6"),
        ("ID fellow / attending: sl", "sl"),
        ("Jane Doe, md / scribe ls", " ls"),
    ],
    ids=["surname_word_then_age", "patients_own_words", "children_with_ages", "caps_children_with_ages", "prefers_in_parentheses",
         "manager_in_quotes", "relative_then_died", "swallow_study_date", "endoscopy_day_first", "review_day_first",
         "attending_initials", "scribe_initials"],
)
def test_these_forms_go(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("O2 Sat, 92, on RA", "92"),
        ("pt prefers \"quiet\" room", "quiet"),
        ("pt is 95 on RA", "95"),
        ("I'm 95 on RA", "95"),
        ("echo 55/60", "55/60"),
        ("attending: none", "none"),
    ],
    ids=["saturation_reading", "preference_in_quotes", "saturation_said", "saturation_first_person", "echo_pair", "no_attending"],
)
def test_these_look_alikes_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- British general practices named "X Surgery"


@pytest.mark.parametrize(
    "text,left",
    [
        ("gp: dr. jones\ndr. jones, gp, brookside surgery", "brookside"),
        ("NHS NO 123\nTHE LIMES SURGERY, HIGH ST", "LIMES"),
        ("GP letter\nreferred to Brookside Surgery today", "Brookside"),
    ],
    ids=["lower_after_gp", "caps_with_the", "after_a_verb"],
)
def test_a_general_practice_named_surgery_goes(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("GP letter\nPlastic Surgery consulted", "Plastic Surgery"),
        ("GP letter\nhad Weight Loss Surgery", "Weight Loss Surgery"),
        ("GP letter\npt had Hand Surgery", "Hand Surgery"),
        ("GP letter\nSame Day Surgery unit", "Same Day Surgery"),
    ],
    ids=["kind_of_operation", "two_word_kind", "body_part", "same_day"],
)
def test_kinds_of_surgery_stay(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,left",
    [("ASSAULT OUTSIDE THE SALTY DOG PUB ON MAIN ST", "SALTY"), ("works at Planet Fitness", "Planet")],
    ids=["pub", "gym_chain"],
)
def test_venues_named_by_their_kind_go(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize("text", ["Street Outreach team", "Mobile Outreach van", "Cardiac Fitness Program", "at the pub"],
                         ids=["street_outreach", "mobile_outreach", "cardiac_fitness", "the_pub"])
def test_kinds_of_venue_stay(text):
    assert "[HOSPITAL]" not in _l2(text)


# ---------------------------------------------------------------- tune notes vv-vy: police, crews, roles, regions


@pytest.mark.parametrize(
    "text,left",
    [
        ("ETOH AT BAR. HULL PD ON SCENE, OFC SMITH", "HULL"),
        ("31 yo m bib seattle pd, officer Jones", "seattle"),
        ("found by SFPD; Narcan 4 mg IN given", "SFPD"),
        ("cpd youth division det smith notified", "cpd"),
        ("discussed w/ np rose who agrees.", "rose"),
        ("outreach worker sunny coming tmrw.", "sunny"),
        ("labs drawn by quest phlebotomist joy 1530.", "joy"),
        ("CREW: DOMBROWSKI (P), SMITH (EMT-B)", "DOMBROWSKI"),
        ("PC travelling with pt (collar 4471HT)", "4471HT"),
        ("ARRESTED AT CIRCLE K ON 5TH ST", "CIRCLE"),
        ("To: Dr Smith, 77 The Parade, Norwood SA 5067", "5067"),
    ],
    ids=["town_pd_on_scene", "lower_town_pd_after_bib", "letters_pd_after_by", "pd_division", "role_given_who",
         "role_given_coming", "phlebotomist", "crew_label", "collar_number", "convenience_store", "south_australia_postcode"],
)
def test_these_forms_of_the_last_batches_go(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("pmh: BPD, PTSD.", "BPD"),
        ("pt with advanced PD.", "PD"),
        ("hx of PD, on sinemet", "PD"),
        ("said meals on wheels driver missed", "driver"),
        ("provided info on elder services and meals on wheels.", "meals on wheels"),
        ("rn mark dressing", "mark"),
    ],
    ids=["personality_disorder", "parkinson_disease", "parkinson_history", "worker_after_a_service", "service_kind",
         "role_then_object"],
)
def test_these_look_alikes_of_the_last_batches_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- a kind of workplace is no employer


@pytest.mark.parametrize(
    "text",
    [
        "works at the plant, 2nd shift",
        "WORKS AT THE FACTORY",
        "works at plant 3 on nights",
        "retired from the railroad",
        "works at the warehouse nights",
        "called on her way from work at the outlet mall, ok to treat",
        "PT ASKING TO GO TO WORK AT THE MILL",
    ],
    ids=["the_plant", "caps_factory", "plant_number", "railroad", "warehouse_then_time", "outlet_mall", "caps_mill"],
)
def test_a_kind_of_workplace_stays(text):
    assert "[HOSPITAL]" not in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("works at tyson plant", "tyson"),
        ("works at harbor bakery.", "harbor"),
        ("PT WORKED AT WAMSUTTA MILLS", "WAMSUTTA"),
    ],
    ids=["firm_before_plant", "everyday_word_before_bakery", "caps_firm_mills"],
)
def test_a_named_workplace_still_goes(text, gone):
    assert gone not in _l2(text)


# ---------------------------------------------------------------- where two streets meet


@pytest.mark.parametrize(
    "text,gone",
    [
        ("MVC at corner of Elm St and Grove Ave, pt restrained", ["Elm", "Grove"]),
        ("struck at MAIN ST / HARVARD AVE", ["MAIN", "HARVARD"]),
        ("ped struck at intersection of Maple Ave & Oak St.", ["Maple", "Oak"]),
    ],
    ids=["corner_of_and", "caps_slash", "intersection_ampersand"],
)
def test_both_streets_of_a_crossing_go(text, gone):
    out = _l2(text)
    assert not any(g in out for g in gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("lives on elm st and walks daily", "and walks daily"),
        ("corner of Elm St and ST elevation noted", "ST elevation"),
        ("corner of mouth and lower lip", "corner of mouth"),
    ],
    ids=["clause_after_street", "segment_after_street", "anatomy_corner"],
)
def test_what_follows_a_street_that_is_no_street_stays(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- an Australian address line


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Perth WA 6018", ["Perth", "6018"]),
        ("12 Hay St, PORT MACQUARIE NSW 2444 ph", ["PORT", "MACQUARIE", "2444"]),
        ("GP: Dr Lee, Ballarat VIC 3350.", ["Ballarat", "3350"]),
    ],
    ids=["town_code_postcode", "caps_two_word_town", "after_a_gp"],
)
def test_an_australian_town_and_postcode_go(text, gone):
    out = _l2(text)
    assert not any(g in out for g in gone)


def test_a_clotting_time_after_a_drug_stays():
    assert "ACT 180" in _l2("Heparin gtt, ACT 180 at 0600")


# ---------------------------------------------------------------- signers' initials in more places


@pytest.mark.parametrize(
    "text,gone",
    [
        ("next visit 12/3.\nkb/lt", "kb/lt"),
        ("ROUTED TO DR OKAFOR.\nKB/LMP", "KB/LMP"),
        ("Dispo: MICU.\njk/mm for Dr Okafor, attending", "jk/mm"),
        ("reply 12/4 (lt, rn): refills sent x90d.", "(lt,"),
        ("DICTATED 12/01/26/TRANSCRIBED GW JOB 44719", "GW"),
    ],
    ids=["lower_pair_one_half_clinical", "caps_pair_one_half_clinical", "pair_for_the_doctor", "initials_credential_in_paren", "transcriber_before_job"],
)
def test_signers_initials_go(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("plan as above\nbp/hr", "bp/hr"),
        ("OK\nHOB/TED", "HOB/TED"),
        ("plan:\nbp/hr for dr to review", "bp/hr"),
        ("spoke with nurse (pt, rn) re: plan", "(pt, rn)"),
        ("DICTATED 12/01/26/TRANSCRIBED GW JOB 44719", "JOB"),
    ],
    ids=["clinical_pair", "caps_clinical_pair", "clinical_pair_for_dr", "patient_in_paren", "job_word"],
)
def test_shorthand_pairs_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- a role, then "Will" as a name


@pytest.mark.parametrize(
    "text",
    ["SW spoke w/ house manager Will who states a bed may open", "home aide will from visiting angels 2x/wk"],
    ids=["before_who", "before_where_from"],
)
def test_will_after_a_role_before_who_or_from_is_a_name(text):
    assert "[NAME]" in _l2(text) and " will " not in _l2(text).replace("Will", "will")


def test_will_after_a_role_before_a_verb_stays_a_modal():
    assert "sw will follow" in _l2("sw will follow")


# ---------------------------------------------------------------- institutions of everyday words, peoples' names and kinds


@pytest.mark.parametrize(
    "text,gone",
    [
        ("F/U PCP DR OKAFOR AT KREYOL FAMILY HEALTH 12/4.", ["KREYOL", "FAMILY HEALTH"]),
        ("HOMEMAKER FROM POLISH SLAVIC CENTER 2X/WK.", ["POLISH", "SLAVIC"]),
        ("attends korean central presbyterian church", ["korean", "central"]),
        ("attends hmong american alliance church", ["hmong", "alliance"]),
        ("pt is a deacon at holy martyrs parish; chaplain", ["holy", "martyrs"]),
        ("interpreter (id 4471) from cascade interpreting. pt", ["cascade"]),
        ("interim respite bed at the meadows pending. pt", ["meadows"]),
        ("pt also asked about the knights of columbus van", ["knights", "columbus"]),
    ],
    ids=["language_then_kind_then_head", "people_then_name_then_center", "people_then_region_then_church",
         "people_then_american", "parish", "interpreting_agency", "placement_then_pending", "listed_fraternal_order"],
)
def test_these_institutions_go(text, gone):
    out = _l2(text)
    assert not any(g in out for g in gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("attends korean church weekly", "korean church"),
        ("via spanish interpreting", "spanish interpreting"),
        ("goes to adult day program", "adult day program"),
        ("back to sleep pending labs", "back to sleep"),
    ],
    ids=["people_and_head_only", "language_service", "kind_of_program", "not_a_placement"],
)
def test_kinds_of_congregations_and_services_stay(text, kept):
    assert kept in _l2(text)


def test_a_service_in_a_language_opens_no_bare_institution():
    from clinx.text.institutions import find_bare_institutions

    assert find_bare_institutions("referred to spanish speaking clinic") == []


@pytest.mark.parametrize(
    "text,gone",
    [
        ("MVC AT RT 9 AND MAPLE RD, NASHUA.", ["MAPLE", "RD", "NASHUA"]),
        ("mvc at route 2 and elm st", ["elm"]),
    ],
    ids=["caps_route_and_listed_name", "lower_route_and_street"],
)
def test_a_street_where_a_route_meets_it_goes(text, gone):
    out = _l2(text)
    assert not any(g in out for g in gone)


def test_a_place_after_a_relative_in_goes():
    assert "WADEYE" not in _l2("PREVIOUSLY LIVED W/ SISTER MARY IN WADEYE. ABORIGINAL LIAISON PRESENT")


def test_a_clinical_word_after_a_relative_in_stays():
    assert "CLINIC" in _l2("SISTER MARY IN CLINIC WITH HER")


def test_an_institutions_van_stays():
    assert "van for rides" in _l2("pt also asked about the knights of columbus van for rides.")


# ---------------------------------------------------------------- hospitals of Canada, the UK, Ireland, Australia and New Zealand


@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("38f, 8/52 postpartum (nvd at royal prince alfred 3/12), fatigue", "royal prince", "postpartum"),
        ("staple removal at credit valley fracture clinic w/ dr lee", "credit valley", "fracture clinic"),
        ("FOLLOW-UP: RESP CLINIC WONFORD IN 6 WEEKS.", "WONFORD", "RESP CLINIC"),
        ("Transfer of care: Sunnybrook trauma ICU to Toronto Rehab", "Sunnybrook", "ICU"),
    ],
    ids=["australian_teaching_hospital", "canadian_short_form", "english_nickname", "canadian_one_word"],
)
def test_hospitals_abroad_go(text, gone, kept):
    out = _l2(text)
    assert gone not in out and kept in out


@pytest.mark.parametrize(
    "text,kept",
    [("ECG: LVH, no RVH", "RVH"), ("verified by J. Doe, RPh", "RPh")],
    ids=["hypertrophy_abbreviation", "pharmacist_credential"],
)
def test_acronyms_that_are_abbreviations_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- a plan's month written short


@pytest.mark.parametrize(
    "text,gone",
    [("f/u echo Aug; RTC 4 mo", "Aug"), ("prosthesis fitting planned sept.", "sept"), ("repeat colonoscopy Dec", "Dec")],
    ids=["after_a_study", "after_planned", "after_repeat_study"],
)
def test_a_month_abbreviation_after_a_plan_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("labs dec BS noted", "dec"), ("plan dec lasix to 20", "dec lasix")],
    ids=["decreased_after_labs", "decrease_after_plan"],
)
def test_decrease_written_short_stays(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- the kind words after a found institution


@pytest.mark.parametrize(
    "text,gone",
    [
        ("referrals sent to bethesda tcu, lyngblomsten", ["bethesda tcu"]),
        ("REFERRED TO OPEN DOOR HOUSING FOR CRISIS ACCOMMODATION", ["DOOR", "HOUSING"]),
        ("colonoscopy at the ottawa hospital general campus on 3/4", ["ottawa", "campus"]),
        ("line cook at olive & fig taverna on main", ["fig", "taverna"]),
    ],
    ids=["transitional_care_unit", "housing_after_a_name", "campus_after_a_hospital", "taverna"],
)
def test_kind_words_after_a_found_institution_go_with_it(text, gone):
    out = _l2(text)
    assert not any(g in out for g in gone)


@pytest.mark.parametrize("text", ["d/c to snf", "needs transitional housing", "referred to housing"], ids=["snf", "housing_kind", "housing_alone"])
def test_kinds_of_care_alone_stay(text):
    assert "[HOSPITAL]" not in _l2(text)


# ---------------------------------------------------------------- clinical content the fresh tune notes showed removed


@pytest.mark.parametrize(
    "text,kept",
    [
        ("56M w/ RLQ pain, CT c/w appendicitis.", "pain, CT"),
        ("Asthma Action Plan reviewed w/ mother", "Asthma Action Plan"),
        ("Endocrine Clinic 12/1 at 10:20.", "Endocrine Clinic"),
        ("1.4 CM COLLECTION AT HJ ANASTOMOSIS, SMALL ABSCESS", "HJ ANASTOMOSIS"),
        ("Negative for H. pylori by IHC.", "by IHC"),
        ("Discussed RAI vs surgery; pt prefers ATD.", "prefers ATD"),
        ("BARTHEL 45. NO RASH, ISHIHARA 14/14.", "ISHIHARA"),
        ("wound review r shin (skin tear)", "r shin"),
        ("thin liquids w/ chin tuck per slp.", "chin tuck"),
        ("KEPPRA 500 BID PER NSGY.", "PER NSGY"),
        ("(IGRA POS, REFERRED LTBI CLINIC)", "LTBI CLINIC"),
    ],
    ids=["symptom_before_ct", "action_plan", "service_clinic", "anastomosis_acronym", "stain_acronym", "treatment_acronym",
         "scales", "anatomy_shin", "swallow_manoeuvre", "service_acronym", "latent_tb_clinic"],
)
def test_clinical_content_stays(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [("seen by Dr. Chin today", "Chin"), ("Amy Chin called back", "Chin"), ("Flora Martinez called back", "Flora")],
    ids=["surname_after_title", "surname_after_given", "given_name_kept_out_of_vocabulary"],
)
def test_people_named_like_these_words_still_go(text, gone):
    assert gone not in _l2(text)


def test_a_distance_opens_no_street():
    assert "40 mi dirt road" in _l2("Lives near Rock Point, ~40 mi dirt road, no running water")


# ---------------------------------------------------------------- British counts of days, months and weeks; scores


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Hx: 3/7 productive cough, fevers", "3/7"),
        ("doxycycline 100 mg BD for 5/7. Please review", "5/7"),
        ("Prednisolone 30 mg OD (5/7 course, last dose 2/6)", "5/7 course"),
        ("38f, 8/52 postpartum (nvd)", "8/52"),
        ("moca 19/30 (recall 1/5).", "1/5"),
        ("LUE 3/5, LLE 4/5, L drift", "LLE 4/5"),
    ],
    ids=["days_before_history", "days_after_for", "days_course", "weeks_postpartum", "recall_score", "limb_strength"],
)
def test_counts_and_scores_written_as_fractions_stay(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [("Prednisolone 30 mg OD (5/7 course, last dose 2/6)", "2/6"), ("seen 5/7 in clinic", "5/7"), ("f/u 6/12", "6/12")],
    ids=["date_beside_a_count", "seventh_after_a_cue", "twelfth_after_follow_up"],
)
def test_dates_shaped_like_counts_still_go(text, gone):
    assert gone not in _l2(text)


def test_dictation_initials_after_the_doctors_credential_go():
    out = _l2("Findings discussed.\nDictated by Amir Patel MD. RC/jk 12/04/2026")
    assert "RC/jk" not in out


def test_shorthand_after_the_doctors_credential_stays():
    assert "HTN/dm" in _l2("Dictated by Amir Patel MD. HTN/dm 12/04/2026")


def test_a_home_care_franchise_goes():
    assert "COMFORT" not in _l2("AIDE MARIA FROM COMFORT KEEPERS 4H/DAY.")


def test_a_signers_letters_after_a_double_dash_closing_the_note_go():
    assert "ck" not in _l2("wants update - dx on file.\n-- ck").split("\n")[-1]


def test_a_bullet_of_an_abbreviation_stays():
    assert "- NC" in _l2("plan:\n- NC")


@pytest.mark.parametrize(
    "text,gone",
    [("seen at stepping stones for weekly individual session", "stepping"), ("followed at bear mountain since 2019", "bear")],
    ids=["stones", "mountain"],
)
def test_everyday_words_closed_by_a_landscape_word_after_a_venue_cue_go(text, gone):
    assert gone not in _l2(text)


def test_a_clinical_word_before_a_landscape_word_stays():
    assert "kidney stones" in _l2("seen at kidney stones clinic")


# ---------------------------------------------------------------- more signers, ages, Irish postcodes


@pytest.mark.parametrize(
    "text,gone",
    [
        ("ROUNDED.\nRT RN / LG PCT", ["RT RN", "LG PCT"]),
        ("GROSSED BY TQ.", ["TQ"]),
        ("Critical result called to K. Nez at 23:05, read back confirmed", ["Nez"]),
        ("report given to Ines at 1900", ["Ines"]),
        ("Patient: Mrs Ada Byrne, 93 y, lives alone at home", ["93"]),
        ("client: Nora Healy (Nonie), 96, lives alone", ["96"]),
        ("client: Nora Healy, eircode t12 x4kp | date", ["x4kp"]),
        ("14 Main St, Ballincollig, Co. Cork, P31 F2X3. Ireland", ["F2X3"]),
    ],
    ids=["two_signers_with_credentials", "grossed_by", "called_to_initial_and_surname", "report_given_to",
         "age_with_years_unit", "age_after_a_nickname", "eircode_after_label", "eircode_in_address"],
)
def test_these_identifiers_go(text, gone):
    out = _l2(text)
    assert not any(g in out for g in gone)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("x\nPT RN / OT MD", "PT RN / OT MD"),
        ("called to bedside for desat", "bedside"),
        ("O2 SAT, 92, ON RA", "92"),
        ("T12 vertebral fracture, ireland", "T12"),
    ],
    ids=["disciplines_with_credentials", "called_to_a_place", "a_reading_after_a_comma", "spinal_level"],
)
def test_these_look_alikes_stay(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("SLR NEG B/L, FABER NEG, PATRICK'S NEG, DTR 2+", "PATRICK'S NEG"),
        ("L CVA TENDERNESS. MURPHY'S NEG.", "MURPHY'S NEG"),
        ("Grip (Jamar) L 62 lb", "Jamar"),
        ("modified ashworth r ue 1+.", "ashworth"),
        ("Mobilising with zimmer frame.", "zimmer frame"),
        ("school returned Vanderbilt forms: inattentive 8/9", "Vanderbilt forms"),
        ("VANDERBILT TEACHER FORM INATTENTIVE 6/9", "VANDERBILT"),
        ("increase frusemide to 40 mg mane, recheck", "mane"),
        ("amb 40 ft w/ hemi walker + r afo", "hemi walker"),
        ("C. SIGMOID POLYP", "SIGMOID"),
    ],
    ids=["sign_possessive_neg", "murphys_sign", "dynamometer", "spasticity_scale", "walking_frame", "adhd_scale",
         "adhd_scale_caps", "morning_dose", "hemi_walker", "specimen_letter_and_site"],
)
def test_signs_scales_and_devices_stay(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [("transferred to Vanderbilt for ECMO", "Vanderbilt"), ("spoke with Patrick's wife", "Patrick"),
     ("ORDERED BY HON. PATRICIA SZYMANSKI, CUYAHOGA COUNTY", "SZYMANSKI")],
    ids=["the_hospital", "a_person_possessive", "a_judge"],
)
def test_the_people_and_places_behind_these_names_still_go(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("MVC VS UTILITY POLE AT HALSTED AND 18TH ST, CHICAGO.", "HALSTED"),
        ("yelling in traffic at 5th and broadway st, reports", "5th"),
    ],
    ids=["caps_word_before_a_numbered_street", "ordinal_before_a_found_street"],
)
def test_the_other_street_of_a_crossing_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("found at home and pain free.", "home and pain free"), ("at Elm St and then went home", "then went home")],
    ids=["no_street", "clause_after_street"],
)
def test_no_crossing_no_second_street(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- a clinician after a service; a name before "pt" and a verb


@pytest.mark.parametrize(
    "text,gone",
    [
        ("REFERRAL TO GYN ONC (LAKSHMANAN) AT MEMORIAL SUGGESTED.", "LAKSHMANAN"),
        ("S: O/N MORE ALERT. PER RN GRACE PT PULLED AT FOLEY X1, REPLACED", "GRACE"),
    ],
    ids=["surname_in_parens_after_service", "given_word_name_before_pt_and_verb"],
)
def test_these_clinicians_go(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("ortho (hand) f/u", "(hand)"), ("GI (colonoscopy) tomorrow", "(colonoscopy)"), ("rn mark pt site", "mark pt site")],
    ids=["body_part_in_parens", "procedure_in_parens", "verb_before_pt_and_noun"],
)
def test_these_service_notes_stay(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [("family training w/ rose and son dan.", "rose"), ("family training with Rose and her son", "Rose")],
    ids=["lower_given_before_son", "given_before_her_son"],
)
def test_a_given_name_beside_a_relative_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("met with pt and son", "pt and son"), ("spoke with PT and daughter", "PT and daughter")],
    ids=["patient_and_son", "therapist_and_daughter"],
)
def test_the_patient_beside_a_relative_stays(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [("(declined - no bed) and Mercy TCU. Discussed with wife", "Mercy"), ("inpt psych (Mercy BHU vs Fairview)", "Mercy"),
     ("CHR ARLEN LITTLE HAWK TO DO HOME VISIT", "ARLEN")],
    ids=["hospital_before_its_transitional_unit", "hospital_before_its_behavioural_unit", "community_health_representative"],
)
def test_a_hospital_before_its_unit_and_a_chr_go(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize("text", ["d/c to TCU", "accepted to the TCU"], ids=["bare_unit", "the_unit"])
def test_a_unit_alone_stays(text):
    assert "TCU" in _l2(text)


# ---------------------------------------------------------------- the bedside team's surnames that are words, fifteenth session


@pytest.mark.parametrize(
    "text,gone",
    [
        ("RT BAKER GAVE DUONEB X1 @ 1030", "BAKER"),
        ("SLP Wren eval - no aspiration", "Wren"),
        ("RD Fox following for TF", "Fox"),
        ("prone per ARDSnet; RN Sparrow + Mendes to assist", "Sparrow"),
        ("D/W CHARGE RN WINTERS AND SUPERVISOR", "WINTERS"),
        ("d/w dr lee (hospitalist) & rn cook.", "cook"),
        ("ULNAR GUTTER SPLINT BY TECH ROOK. TDAP", "ROOK"),
        ("called by rn bell re: pt in 412", "bell"),
        ("ASKING RE D/C; CM PAGE AWARE, WILL F/U", "PAGE"),
        ("last seen by np bishop on 3/2. advised ua", "bishop"),
    ],
    ids=["rt_before_a_verb", "slp_before_eval", "rd_before_following", "rn_joined_to_another", "rn_and_a_role",
         "rn_closing_a_clause", "tech_closing_a_sentence", "rn_before_re", "cm_before_aware", "np_before_a_date"],
)
def test_a_surname_that_is_a_word_after_a_bedside_role_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("PAIN IN RT HAND.", "RT HAND"),
        ("RT HAND GAVE WAY", "RT HAND"),
        ("D/W RN STAFF.", "RN STAFF"),
        ("rn walker at bedside", "walker"),
        ("3 cm page", "cm page"),
    ],
    ids=["right_hand", "right_hand_before_a_verb", "nursing_staff", "walker_at_bedside", "a_unit_before_a_word"],
)
def test_a_side_a_body_part_or_a_staff_word_after_a_role_stays(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("fall last night; aide sunny found her on floor", "sunny"),
        ("asked if facility nurse crystal can do neuro checks", "crystal"),
        ("is an elder at church. wife grace also on line.", "grace"),
        ("her brother will can take him home", "will"),
        ("POA: NEPHEW ARNOLD GOLDFARB (555-1212), NOTIFIED", "ARNOLD"),
    ],
    ids=["given_before_an_irregular_past", "given_before_a_modal", "given_before_on_in_lower_case",
         "will_before_another_modal", "given_name_the_vocabulary_claims_before_a_surname"],
)
def test_a_given_name_that_is_a_word_before_its_verb_goes(text, gone):
    assert gone not in _l2(text)


def test_a_function_word_between_a_name_and_a_sign_breaks_the_eponym():
    """In lower case no capital marks an eponym's names: "grace on line" is no "Grace ... line" sign."""
    assert "cullen and grey turner signs" in _l2("cullen and grey turner signs neg")


@pytest.mark.parametrize(
    "text,gone",
    [
        ("LABS (QUEST 3/2): K 4.6", "QUEST"),
        ("labs to Quest today", "Quest"),
        ("boilermakers local 29 member - asbestos screening", "boilermakers"),
        ("MEMBER CARPENTERS' UNION LOCAL 27. PARTNER", "CARPENTERS"),
        ("pt belongs to local 25 sheet metal workers union; health plan", "sheet"),
        ("condo (15 mabelle ave, toronto, on m9a 4x9) w/ wife", "m9a"),
    ],
    ids=["laboratory_in_parentheses_after_labs", "specimen_sent_to_the_laboratory", "any_trades_local",
         "trades_union_local_with_apostrophe", "local_number_before_its_trade", "canadian_postal_code_in_lower_case"],
)
def test_a_laboratory_a_union_local_and_a_canadian_postal_code_go(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("in quest of answers", "quest"),
        ("wants to quest", "quest"),
        ("pT2N0M0 tumor, T2 N0 M0", "T2N0M0"),
    ],
    ids=["quest_as_a_noun", "quest_as_a_verb", "tumour_stage"],
)
def test_a_word_a_local_anaesthetic_and_a_stage_stay(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- note words read as names, signs, more forms (fifteenth session)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("rang gp surgery re tetanus status", "tetanus"),
        ("fhx: mom mdd, maternal uncle bipolar.", "mdd"),
        ("called employer re FMLA/STD paperwork", "FMLA"),
        ("+ Murphy's sign 3/30 in ED. neg Murphy today", "neg Murphy"),
        ("nodding off at traffic lights; Epworth 17.", "Epworth 17"),
        ("CAT I. TOCO Q3 MIN", "TOCO"),
    ],
    ids=["vaccine_after_re", "diagnosis_after_a_relative", "leave_form_after_re", "sign_after_its_result", "sleepiness_score",
         "tocodynamometer"],
)
def test_note_words_and_a_sign_after_its_result_stay(text, kept):
    assert kept in _l2(text)


def test_a_name_beside_a_sign_after_its_result_still_goes():
    assert "Murphy" not in _l2("daughter Ann Murphy visited")


@pytest.mark.parametrize(
    "text,gone",
    [
        ("REPORT GIVEN TO STONE, RN IN BAY 4.", "STONE"),
        ("Seen today. Ruby (7) had anaphylaxis at school", "Ruby"),
        ("INFANT: BOY NAKASHIMA-BELL  MRN 123", "NAKASHIMA"),
        ("given to dad Hemi Tuhiwai. Referral", "Hemi"),
        ("BNP 890 (Quest, 3/2).", "Quest"),
        ("referred by mercy after admit 3/2", "mercy"),
        ("PT JOHN DOE, F, 93 YOA, FOUND", "93"),
        ("s/p L hip ORIF Aug. VS: BP 104/58", "Aug"),
        ("ED  JAN 28/24 2140 |", "28/24"),
        ("LOSING JOB AT NORTH FORK LUMBER; LAST", "FORK"),
    ],
    ids=["word_surname_between_to_and_a_credential", "given_name_before_a_childs_age", "infant_label_before_boy",
         "relatives_given_name_the_vocabulary_claims_before_an_unknown_surname", "laboratory_in_its_parentheses_field",
         "short_form_after_referred_by", "age_in_years_of_age", "month_after_an_operation", "canadian_month_day_year",
         "lumber_yard"],
)
def test_these_fifteenth_session_forms_go(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("sent to ICU, RN aware", "ICU"),
        ("Grade (2) lesion.", "Grade (2)"),
        ("works at a lumber yard", "lumber yard"),
    ],
    ids=["unit_before_a_credential", "grade_before_a_number", "generic_lumber_yard"],
)
def test_these_fifteenth_session_look_alikes_stay(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("no diarrhea. fatigue 3/10. ecog 1.", "3/10"),
        ("MMT L HIP FLEX 3-/5, KNEE EXT 3/5, DF 1/5.", "KNEE EXT 3/5"),
        ("(tubules 3, nuclei 2, mitoses 1 = 6/9). DCIS", "6/9"),
        ("gp f/u 1/52, diabetes clinic 4/52.", "4/52"),
    ],
    ids=["fatigue_out_of_ten", "strength_of_an_extension", "a_spaced_sums_total", "british_weeks_after_a_review"],
)
def test_scores_and_british_weeks_are_no_dates(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize("text,gone", [("seen 3/10 for fatigue", "3/10"), ("DOB 4/52", "4/52")], ids=["seen_on", "birth_date"])
def test_a_date_beside_those_words_still_goes(text, gone):
    assert gone not in _l2(text)


def test_a_body_parts_plural_before_local_is_no_trades_union():
    """The union-local pattern reads "-ers" words as trades; "fingers local 2" is an anaesthetic's site (the rule itself:
    the taggers of L2 are measured on notes, not held to this contrived line)."""
    from clinx.text.institution_patterns import find_patterned_institutions

    assert find_patterned_institutions("lidocaine local 1% to the fingers local 2") == []
    assert find_patterned_institutions("boilermakers local 29 member") != []


@pytest.mark.parametrize(
    "text,gone",
    [("TRANSFERRED TO CHILDREN'S FOR PEDS GI EVAL.", "CHILDREN"), ("audiology referral to children's pending since 3/2", "children")],
    ids=["transferred_to_childrens", "referral_to_childrens_pending"],
)
def test_the_childrens_hospital_by_its_possessive_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize("text", ["switched to children's motrin", "gave children's tylenol"], ids=["after_to", "after_gave"])
def test_a_childrens_medicine_stays(text):
    assert "children's" in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("Mrs Hollis was admitted to Ward 22 (Care of the Elderly)", "Ward 22"), ("moved to Bay 4 overnight", "Bay 4")],
    ids=["ward_by_its_number", "bay_by_its_number"],
)
def test_a_part_of_the_hospital_by_its_number_stays(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize("text,gone", [("d/w Ward, RN", "Ward"), ("son Ward visited", "Ward")], ids=["nurse", "son"])
def test_a_person_called_ward_still_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("NEXT VISIT 3/4. MF, RN", "MF"),
        ("LOVENOX 40 MG X28D.\nJT, RN CM", "JT"),
        ("ACETAMINOPHEN 650 Q6H PRN.\nDICTATED JOHN SMITH / JK", "JK"),
        ("Plan as above.\nDictated by Amy Lee / tf", "tf"),
        ("CREW: JOE SMITH, PARAMEDIC (LIC 123); B. STONE, AEMT", "STONE"),
    ],
    ids=["initials_after_the_lines_last_sentence", "initials_before_two_roles", "typist_after_a_dictating_name",
         "typist_letters_an_abbreviation_uses", "initial_and_a_surname_the_vocabulary_claims"],
)
def test_more_signers_go(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("Dictated by Amy Lee, MD / md", "/ md"), ("WOUND CARE. ICU RN", "ICU RN"), ("S. AUREUS, MD aware", "AUREUS")],
    ids=["credential_after_the_slash", "a_unit_before_the_credential", "a_species_before_a_credential"],
)
def test_look_alikes_of_signers_stay(text, kept):
    assert kept in _l2(text)


@pytest.mark.parametrize(
    "text,gone",
    [("Menorrhagia is being addressed by Kaiser GYN. Plan", "Kaiser"), ("D/C FROM 5 WEST MERCY ED TO HOME", "MERCY"),
     ("BMP IN AM BY QUEST MOBILE LAB.", "QUEST")],
    ids=["system_before_its_service", "hospital_before_its_ed_in_capitals", "laboratory_before_its_mobile_lab"],
)
def test_a_short_form_before_its_department_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize("text", ["Mercy rule ed", "The mercy ED staff"], ids=["a_rule", "lower_case_in_a_mixed_line"])
def test_mercy_as_a_word_before_a_department_stays(text):
    assert "ercy" in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["Previously a warehouse operative at Acme until 2014. Plays darts", "previously 20 yrs at holden plant until 2017 closure"],
    ids=["former_job_without_a_verb", "years_at_a_former_workplace"],
)
def test_a_year_closing_a_former_job_goes(text):
    assert "201" not in _l2(text)


def test_a_clock_time_after_until_in_a_plan_stays():
    assert "until 2000" in _l2("hold heparin until 2000")


@pytest.mark.parametrize("text", ["F/U HAND CLINIC AT RUSH TODAY.", "labs drawn at rush"], ids=["capitals", "lower_case"])
def test_rush_after_a_venue_cue_goes(text):
    assert "rush" not in _l2(text).lower()


@pytest.mark.parametrize("text", ["no need to rush", "in a rush to leave"], ids=["verb", "noun"])
def test_rush_as_a_word_stays(text):
    assert "rush" in _l2(text)


@pytest.mark.parametrize(
    "text", ["Partner Will supportive; mother Ann", "former sponsor Will. Girlfriend Amy"],
    ids=["before_an_adjective", "closing_a_sentence_after_a_role"],
)
def test_will_capitalised_where_no_verb_follows_goes(text):
    assert "Will" not in _l2(text)


@pytest.mark.parametrize("text", ["Son Will be notified", "Wife will call."], ids=["before_be", "lower_case_modal"])
def test_will_as_a_modal_stays(text):
    assert "ill" in _l2(text)


@pytest.mark.parametrize(
    "text,gone", [("PC SMITH COLLAR NO 4471LX, CRIME REF 123", "4471LX"), ("ACCT NO 99812", "99812")],
    ids=["collar_number_in_capitals", "account_number_in_capitals"],
)
def test_an_identifier_after_its_label_and_no_in_capitals_goes(text, gone):
    assert gone not in _l2(text)


def test_a_cervical_collar_stays():
    assert _l2("collar no longer needed") == "collar no longer needed"


# ---------------------------------------------------------------- sixteenth session (2026-12-05, the fifth of the day)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("comfort-focused care.\nhope asks about hospice at home", "hope"),
        ("d/c rec SAR vs home w/ HHPT; Dawn prefers home", "Dawn"),
        ("call light in reach.\nivy handed off to night shift.", "ivy"),
        ("ROSE (DAUGHTER) STATES PT FELL AT HOME.", "ROSE"),
    ],
    ids=["asks", "prefers", "handed", "relation_in_parentheses"],
)
def test_a_given_name_opening_a_sentence_before_a_persons_verb_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Hope is to get home by Friday.", "Hope is"),
        ("Bill denied by insurance.", "Bill denied"),
        ("Mark (L arm) wanted for biopsy.", "Mark (L arm)"),
    ],
    ids=["hope_as_a_noun", "bill_as_a_noun_before_a_past_a_thing_takes", "parentheses_without_a_role"],
)
def test_an_everyday_word_opening_a_sentence_stays(text, kept):
    assert kept in _l2(text)


def test_a_relatives_given_name_the_vocabulary_claims_before_also_goes():
    assert " art " not in _l2("states his brother art also noticed word-finding difficulty")


@pytest.mark.parametrize("text", ["haldol given by rn chase per dr lee.", "ABX HUNG BY RN CHASE PER ORDER."],
                         ids=["lower_case", "capitals"])
def test_a_bedside_roles_word_surname_before_per_goes(text):
    assert "chase" not in _l2(text).lower()


@pytest.mark.parametrize("text", ["RN STAFF PER POLICY.", "RN CALL PER PROTOCOL.", "RT HAND PER PT."],
                         ids=["staff", "call", "right_hand"])
def test_a_roles_object_before_per_stays(text):
    assert _l2(text) == text


@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("HOME CARE TO REOPEN. PHARMACY: SHOPPERS ON QUEEN ST E.", "SHOPPERS", "PHARMACY:"),
        ("group home: open arms (seekonk), house mgr on site", "open arms", "group home:"),
    ],
    ids=["pharmacy_before_where_it_is", "group_home_field"],
)
def test_an_organisation_field_value_goes(text, gone, kept):
    out = _l2(text)
    assert gone not in out and kept in out


@pytest.mark.parametrize("text", ["Pharmacy: on file", "Employer: retired in 2019"], ids=["on_file", "retired"])
def test_a_field_value_naming_no_organisation_stays(text):
    assert text.split(": ")[1].split()[0] in _l2(text)


@pytest.mark.parametrize("text,gone", [("34f, urn 0098 3312, from home", "3312"), ("UR No: 445566", "445566")],
                         ids=["urn_with_a_blank", "ur_no"])
def test_an_australian_unit_record_number_goes(text, gone):
    assert gone not in _l2(text)


def test_an_urn_of_ashes_stays():
    assert "urn 2" in _l2("ashes kept in urn 2 yrs")


def test_an_ordinal_day_before_with_goes():
    assert "19th" not in _l2("informed it is on the 19th w/ dr lee")


def test_a_lower_case_initials_pair_before_the_dictation_dates_goes():
    out = _l2("questions answered.\njk/mm  D: 03/02  T: 03/03")
    assert "jk" not in out and "mm" not in out


@pytest.mark.parametrize(
    "text,gone",
    [("lives alone. brother will supportive. ciwa 8", "will"), ("son at bedside, wife will visiting? ok", "will"),
     ("SPLINT APPLIED BY TECH WILL. ORTHO F/U", "WILL")],
    ids=["before_an_adjective", "before_an_ing_form", "closing_a_sentence_in_capitals"],
)
def test_will_where_no_modal_can_stand_goes(text, gone):
    assert gone not in _l2(text)


@pytest.mark.parametrize("text", ["son will bring clothes.", "pt will continue lasix.", "this will upset him"],
                         ids=["bring", "base_verb", "upset_is_a_verb"])
def test_will_before_a_verb_stays(text):
    assert "will" in _l2(text)
