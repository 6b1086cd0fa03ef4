"""Recall on ward-note forms: institutions in any case, towns, extensions, dates; and what must stay.

Each case is one tiny input for one form (test ids name the form, never a
value). The "kept" cases are the clinical text and numbers those forms sit
beside in nursing notes — shift hours, ranges, decimals, vent settings,
murmur grades — so a recogniser that widens recall at their cost fails here.
"""

import pytest

from clinx.text.lexicons import hospital_names, hospitals
from clinx.text.notes_eval import load_i2b2_xml, philter_notes
from clinx.text.pipeline import TextPipeline

L2 = TextPipeline("L2")


def _out(text: str) -> str:
    return L2.run(text).text


# ----------------------------------------------------------------------------- institutions, any case


@pytest.mark.parametrize(
    "text,gone",
    [
        ("pcp is dr x at harvard vanguard.", ["harvard", "vanguard"]),
        ("FAMILY PREFERS HOLY FAMILY IN METHUEN.", ["HOLY FAMILY"]),
        ("family prefers st marys for rehab", ["marys"]),
        ("ADMITTED TO ST. JOSEPH'S FOR PNA", ["JOSEPH"]),
        ("f/u w/ pcp at bmc re: home o2", ["bmc"]),
        ("transferred from MGH for cath", ["MGH"]),
        ("eye exam at Mass Eye & Ear. RTC 3 months.", ["Mass", "Ear"]),
        ("Dr. Chu at Acton Medical Associates in 2 weeks.", ["Acton", "Associates"]),
        ("CC: HARBOR MEDICAL ASSOCIATES, FAX", ["HARBOR", "ASSOCIATES"]),
        ("cleared by PCP (Wellesley Internal Medicine).", ["Wellesley", "Internal"]),
        ("pcp is at south shore medical.\nplan: oob", ["south shore medical"]),
        ("91M transferred from Holy Name ED w/ GI bleed", ["Holy Name"]),
        ("She works as a cashier at Stop & Shop.", ["Stop & Shop"]),
    ],
    ids=[
        "lexicon_lower", "lexicon_caps", "saint_lower_no_dot", "saint_caps_possessive", "abbrev_lower_after_at",
        "abbrev_caps", "ampersand_name", "medical_associates", "caps_medical_associates", "internal_medicine",
        "trailing_medical", "capitalised_words_after_transferred_from", "capitalised_words_after_at",
    ],
)
def test_institutions_in_any_case(text, gone):
    out = _out(text)
    for g in gone:
        assert g not in out


@pytest.mark.parametrize(
    "text,kept",
    [
        ("RECOMMEND REHAB AT HOME WITH VNA", "RECOMMEND REHAB"),
        ("pt prefers short term rehab near home", "short term rehab"),
        ("94 YO M NURSING HOME RESIDENT", "M NURSING HOME"),
        # the CRF layer (text.l2.ner=crf, the default) reads this lower-case line as an institution ("Tufts") with
        # marginal > 0.9: a measured precision cost of the layer, kept visible here rather than hidden
        pytest.param("tufts of hair at the vertex", "tufts", marks=pytest.mark.xfail(strict=True, reason="CRF layer tags 'tufts of hair' as HOSPITAL")),
        ("discharged to home with vna", "home"),
        ("transferred to Floor in stable condition", "Floor"),
        ("stable from a medical standpoint", "medical"),
    ],
    ids=["verb_before_rehab", "kind_of_rehab", "sex_before_nursing_home", "lexicon_word_in_lower_case",
         "home_after_to", "generic_venue_capitalised", "medical_adjective"],
)
def test_generic_care_words_are_kept(text, kept):
    assert kept in _out(text)


def test_hospital_lexicon_is_indexed_by_first_word():
    names = hospital_names()
    assert "harvard vanguard" in names and "mgh" in names
    # "St. Elizabeth's" loses its possessive in the tokens: both forms are listed
    assert "st elizabeths" in names and "st elizabeth" in names
    assert hospitals()["harvard"] >= 2
    assert all(n == n.lower() and "  " not in n for n in names)


# ----------------------------------------------------------------------------- towns


@pytest.mark.parametrize(
    "text,gone",
    [("pt's brother ted from worcester expected tmrw", "worcester"), ("wants to go home to arlington by friday", "arlington")],
    ids=["lower_town_after_from", "lower_town_after_to"],
)
def test_lower_case_towns_after_place_cues(text, gone):
    assert gone not in _out(text)


# ----------------------------------------------------------------------------- numbers that are no identifiers


@pytest.mark.parametrize(
    "text",
    [
        "nursing progress note 0700-1900",
        "micu npn 1900-0700",
        "CV: AFIB 80-100'S, BP 100-120/50'S. INR 3.4, COUMADIN HELD",
        "ID: TMAX 38.6. CEFTRIAXONE.",
        "resp: on bipap 12/5 overnight, then psv 10/5",
        "EXAM: JVP 12 CM, BIBASILAR CRACKLES, 3/6 SEM RUSB, 2+ PITTING EDEMA",
        "NS x1000 mL, ambulated x2, IS x10/hr",
        "sats 96-98% on 2l nc, uo 20-30/hr",
    ],
    ids=["day_shift", "night_shift", "rate_and_bp_ranges_and_decimal", "decimal_after_id_header", "vent_settings",
         "murmur_grade", "counts_after_x", "percent_and_rate_ranges"],
)
def test_ward_numbers_survive(text):
    assert _out(text) == text


def test_clock_times_near_a_name_cue_survive_and_the_name_goes():
    out = _out("wife marion called at 2200 and 0500, updated.")
    assert "2200" in out and "0500" in out and "marion" not in out


@pytest.mark.parametrize(
    "text,gone",
    [("call 555-0199 with results", "555-0199"), ("MRN 4471 on the label", "4471"), ("rn bev tomlinson x4471.", "4471"),
     ("coordinator aware (ext. 4-3321)", "4-3321")],
    ids=["local_phone", "short_mrn", "extension_x", "extension_ext"],
)
def test_identifier_numbers_still_go(text, gone):
    assert gone not in _out(text)


# ----------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("RTC 3 months. P. Galloway, MD", ["P.", "Galloway"], []),
        ("the rabbi (Rabbi Feingold) visited", ["Feingold"], ["Rabbi"]),
        ("family (dtr pam + son-in-law rick) aware", ["pam", "rick"], ["son-in-law"]),
        ("Daughter will contact the facility director", [], ["will contact"]),
        ("DAUGHTER WILL CONTACT FACILITY", [], ["WILL CONTACT"]),
        ("pcp dr ellen fairbanks faxed.", ["ellen", "fairbanks"], ["faxed"]),
    ],
    ids=["initial_ambiguous_surname_credential_at_end", "religious_title", "in_law_relation", "modal_after_relation",
         "caps_modal_after_relation", "inflected_word_after_name"],
)
def test_names_and_their_neighbours(text, gone, kept):
    out = _out(text)
    for g in gone:
        assert g not in out
    for k in kept:
        assert k in out


@pytest.mark.parametrize(
    "text",
    [
        "neuro: a&ox3, mae, perrl. c/o ha this am",
        "SX FOR MOD AMT TAN SECRETIONS. BS COARSE BILAT.",
        "chest tubes per plan, OOB, aggressive pulm toilet",
        "Clinic note - Rheumatology",
    ],
    ids=["nursing_neuro_line", "caps_secretions", "oob", "specialty_after_clinic"],
)
def test_ward_shorthand_survives(text):
    assert _out(text) == text


# ----------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    "text,gone",
    [("ADMITTED TO NORWOOD HOSPITAL JAN OF THIS YEAR", "JAN"), ("71F for L TKA 5/4 w/ Dr Fontaine", "5/4")],
    ids=["caps_month_of_this_year", "month_day_before_with"],
)
def test_more_clinician_dates(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize(
    "text,year,rest",
    [
        ("s/p CABG 7/22/05", "05", "7/22"),
        ("seen Jan 3rd 2019", "2019", "Jan 3rd"),
        ("EGD on 3rd of June 2022", "2022", "June"),
        ("hospitalized in March 2018", "2018", "March"),
        ("DOB 03/14/1961", "1961", "03/14"),
        ("S/P MI '92", "'92", None),
    ],
    ids=["short_date", "month_ordinal_year", "ordinal_of_month_year", "month_year", "slash_date", "apostrophe_year"],
)
def test_years_keep_holds_through_l2(text, year, rest):
    # L2 used to take the year L1 had kept for a number next to a [DATE] placeholder
    keep = TextPipeline("L2", l1={"years": "keep"})
    out = keep.run(text).text
    assert year in out
    if rest is not None:
        assert rest not in out
    assert year not in TextPipeline("L2").run(text).text


@pytest.mark.parametrize("text", ["seen 14:30, d/c 1600", "oxycodone x3 days, repeat in 2 weeks"], ids=["clock", "durations"])
def test_times_and_durations_are_kept(text):
    assert _out(text) == text


# ----------------------------------------------------------------------------- i2b2 gold as Safe Harbor counts it


def test_i2b2_states_and_countries_are_not_gold(tmp_path):
    text = "Moved from Ohio to Peru, lives in Salem"
    p = tmp_path / "n.xml"
    p.write_text(
        f"<?xml version='1.0' encoding='utf8'?>\n<deIdi2b2><TEXT><![CDATA[{text}]]></TEXT><TAGS>"
        '<LOCATION TYPE="STATE" start="11" end="15" text="Ohio" />'
        '<LOCATION TYPE="COUNTRY" start="19" end="23" text="Peru" />'
        '<LOCATION TYPE="CITY" start="34" end="39" text="Salem" />'
        "</TAGS></deIdi2b2>",
        encoding="utf-8",
    )
    assert load_i2b2_xml(p).spans == ((34, 39, "LOCATION"),)


def test_philter_notes_load_without_importing_the_package(tmp_path, monkeypatch):
    pkg = tmp_path / "philter_ucsf"
    (pkg / "data" / "i2b2_xml").mkdir(parents=True)
    # the real package imports NLTK on import; a --no-deps install has none
    (pkg / "__init__.py").write_text("raise ImportError('must not be imported')\n", encoding="utf-8")
    (pkg / "data" / "i2b2_xml" / "a.xml").write_text(
        "<?xml version='1.0' encoding='utf8'?>\n<deIdi2b2><TEXT><![CDATA[Seen by Tavares]]></TEXT><TAGS>"
        '<NAME TYPE="DOCTOR" start="8" end="15" text="Tavares" /></TAGS></deIdi2b2>',
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "philter_ucsf", raising=False)
    notes = philter_notes()
    assert [n.spans for n in notes] == [((8, 15, "NAME"),)]


# ----------------------------------------------------------------------------- hyphen dates, pagers, unknown towns


@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("extubated on 10-12, doing well", ["10-12"], []),
        ("hr 10-12 on the monitor", [], ["10-12"]),
        ("page cards fellow, pgr 4471", ["4471"], []),
        ("PT FROM MATTAPAN, TO GO TO DIALYSIS", ["MATTAPAN"], ["GO"]),
        ("pt came in diuresing, lives in roxbury", ["roxbury"], ["diuresing"]),
    ],
    ids=["hyphen_month_day_after_date_word", "hyphen_range_without_date_word", "pager", "caps_unknown_town_after_from",
         "lower_unknown_town_after_lives_in"],
)
def test_hyphen_dates_pagers_and_unknown_towns(text, gone, kept):
    out = _out(text)
    for g in gone:
        assert g not in out
    for k in kept:
        assert k in out


@pytest.mark.parametrize(
    "text",
    ["pt remains on cmv 550x12/+5/40%. abg 7.41/38/102", "33 2/7 wk GA, BW 1890 g.", "plan to wean to psv in am",
     "SHOCKED X3 BY EMS, PRIOR SA"],
    ids=["vent_volume_by_rate_and_peep_fio2", "gestational_weeks_fraction", "verb_after_to", "ems_and_sa"],
)
def test_more_ward_shorthand_survives(text):
    assert _out(text) == text


def test_practice_name_with_specialty_and_place():
    out = _out("Pediatrician: Dr. Gabriel Ostrander, Pediatric Associates of Brockton.")
    assert "Associates" not in out and "Brockton" not in out and out.startswith("Pediatrician:")


@pytest.mark.parametrize(
    "text,gone",
    [("last seen jan '19 in clinic", "jan"), ("home over Thanksgiving, back xmas eve", "Thanksgiving"),
     ("labs 7-Apr and 22-SEPT", "Apr")],
    ids=["month_abbrev_before_year", "holiday", "day_month_abbrev"],
)
def test_month_and_holiday_forms(text, gone):
    assert gone not in _out(text)


def test_field_value_stops_at_the_next_label():
    out = _out("Patient: Fidel Yeager MRN: 1234567")
    assert "MRN" in out and "Yeager" not in out and "1234567" not in out


@pytest.mark.parametrize(
    "text",
    ["Pt came from Nursing Home, seen at Urgent Care.", "Transferred from Medical ICU to Step Down Unit.",
     "Pt from Assisted Living Facility.", "Admitted to Cardiac Surgery Service", "seen at Same Day Surgery",
     "transferred from Emergency Department", "admitted to Internal Medicine"],
    ids=["urgent_care", "step_down_unit", "assisted_living", "surgery_service", "same_day_surgery", "emergency_department",
         "internal_medicine_service"],
)
def test_title_case_units_and_services_are_no_institutions(text):
    assert _out(text) == text


@pytest.mark.parametrize(
    "text,initials",
    [
        ("plan: cont ciwa.\njn rn, hch outreach", "jn"),
        ("will monitor q2h.\ndq rrt  pager 1234", "dq"),
        ("pt resting.\n-sc rn", "sc"),
        ("rtc 6 wks.\n-c.r. md", "c.r."),
        ("Ref to Healthy Start - mom declined.\nC.M. RD LD", "C.M."),
    ],
    ids=["credential_then_comma_tail", "credential_then_blanks_tail", "dash_two_letters_clinical", "dotted_clinical_letters",
         "two_credentials"],
)
def test_signature_initials_before_a_credential_with_a_tail(text, initials):
    from clinx.text.pipeline import deidentify

    out = deidentify(text, "L2").text
    assert initials not in out.split("\n")[-1], out


def test_an_age_over_89_before_a_full_stop_goes():
    from clinx.text.pipeline import deidentify

    assert "93" not in deidentify("Seen w/ daughter (POA). Age: 93. MRN 1234567", "L2").text
    assert "93.5" in deidentify("weight at age 93.5 kg", "L2").text  # (a decimal is no age)


@pytest.mark.parametrize(
    "text,street",
    [
        ("Lived alone in a walk-up apartment on Fleet Street in the city.", "Fleet Street"),
        ("WENT TO URGENT CARE ON BALTIMORE PIKE YESTERDAY", "BALTIMORE PIKE"),
        ("refill sent to cvs on hempstead tpke, routed to dr", "hempstead tpke"),
        ("brought in from day shelter on canal st) after staff called", "canal st"),
        ("Referred to PT on College Way, may repeat", "College Way"),
    ],
    ids=["street_written_out_mixed", "pike_caps", "turnpike_abbreviation", "clinical_word_street_before_parenthesis",
         "way_capitalised"],
)
def test_streets_after_on_without_a_house_number(text, street):
    from clinx.text.pipeline import deidentify

    assert street not in deidentify(text, "L2").text


@pytest.mark.parametrize(
    "text,kept",
    [("on tele with ST depression in V4", "ST depression"), ("he is on his way home", "his way"),
     ],
    ids=["st_segment", "function_word_way"],
)
def test_street_words_that_name_no_street_stay(text, kept):
    from clinx.text.pipeline import deidentify

    assert kept in deidentify(text, "L2").text


@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("ADDRESS: 27150 SCHOOLCRAFT, APT 212, DETROIT MI", "SCHOOLCRAFT, APT 212, DETROIT", "ADDRESS: [LOCATION]"),
        ("Address: 4 Oak St, Racine WI 53403 (rental, built 1952). Landlord aware.", "Racine", "(rental"),
        ("Address: on file", None, "on file"),
    ],
    ids=["caps_to_state", "stops_at_zip", "no_address_value"],
)
def test_an_address_fields_value_is_one_place(text, gone, kept):
    from clinx.text.pipeline import deidentify

    out = deidentify(text, "L2").text
    assert (gone is None or gone not in out) and kept in out, out


@pytest.mark.parametrize(
    "text,name",
    [
        ("CLIENT: TREMAINE FOSTER   AGE 19   DOB 1/2/2005", "TREMAINE"),
        ("desires pregnancy. fob dequan involved, also 19", "dequan"),
        ("Four kids, youngest Nyakim 2 yo seen in peds here.", "Nyakim"),
    ],
    ids=["client_field", "father_of_baby", "youngest_child"],
)
def test_names_after_client_fields_and_family_words(text, name):
    from clinx.text.pipeline import deidentify

    assert name not in deidentify(text, "L2").text


def test_client_and_oldest_before_no_name_stay():
    from clinx.text.pipeline import deidentify

    for text in ("client reports good sleep", "oldest kid attends school", "the participant was tired"):
        assert deidentify(text, "L2").text == text


@pytest.mark.parametrize(
    "text,initial",
    [("kayla b. 16f, lives w mom", " b."), ("hannah v. ms ccc-slp", " v."), ("spoke with Mary S. about plan", " S.")],
    ids=["lower_before_age", "lower_before_credential", "mixed_mid_sentence"],
)
def test_a_surnames_initial_after_a_given_name_goes_with_it(text, initial):
    from clinx.text.pipeline import deidentify

    assert initial not in deidentify(text, "L2").text


def test_dotted_abbreviations_after_a_name_stay():
    from clinx.text.pipeline import deidentify

    assert "b.i.d." in deidentify("dtr ann at bedside. given b.i.d. dosing", "L2").text


@pytest.mark.parametrize(
    "text,gone",
    [
        ("lives at home 3310 mount vernon rd se, cedar rapids w wife", ["3310", " rd"]),
        ("pt lives in town, midtown area, 1607 st stephens rd. no car", ["1607", " rd"]),
        ("given address of cabin for ems: 41 los ojos rd, el prado.", ["41 ", " rd"]),
    ],
    ids=["place_named_street", "saint_named_street", "spanish_named_street"],
)
def test_a_house_number_vouches_for_a_street_named_by_found_words(text, gone):
    from clinx.text.pipeline import deidentify

    out = deidentify(text, "L2").text
    assert all(g not in out for g in gone), out


@pytest.mark.parametrize("text,kept", [("able to chop vegetables with set-up", "chop vegetables"),
                                        ("wants to walk dog daily", "walk dog")], ids=["able_to", "wants_to"])
def test_a_verb_after_to_is_no_destination_for_the_tagger(text, kept):
    assert kept in TextPipeline("L2").run(text).text


# ----------------------------------------------------------------------------- forms of the tune notes yg-yi


@pytest.mark.parametrize(
    "text,gone",
    [
        ("depakote 1000 mg qhs, tac level 6/1 was 9.8", ["6/1"]),
        ("LITHIUM 600 BID.\nLEVEL 8/21 06:10 (12H POST DOSE): 1.4", ["8/21"]),
        ("adjuvant chemo at the cancer center jan-apr 2024, onc dr adeyemi.", ["jan", "apr", "2024"]),
    ],
    ids=["day_after_a_drug_level", "day_after_a_level_in_capitals", "range_of_months"],
)
def test_dates_after_a_level_and_ranges_of_months(text, gone):
    out = _out(text)
    assert all(g not in out for g in gone), out


@pytest.mark.parametrize(
    "text,kept",
    [("pain level 4/10 after dose", "4/10"), ("LEVEL 8/21 06:10 (12H POST DOSE): 1.4", "12H")],
    ids=["pain_score_after_level", "hours_after_dose_in_capitals"],
)
def test_scores_and_hours_near_a_level_stay(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("PATIENT: ROSE KING  DOB 1/5/1996  MRN BMC 5538192", ["BMC", "5538192"]),
        ("m. ostrowski, md  fl lic me 118842  tel 941-555-0186", ["lic me", "118842"]),
        ("insurance: tufts health plan id thp 889 204 661, auth obtained", ["thp", "889", "661"]),
        ("ins: medicaid nhp 300184562, active.", ["nhp", "300184562"]),
        ("SEAMUS O'DRISCOLL, 81M, MCP 204 881 337 015, FROM HOME", ["204", "015"]),
        ("Name: Marc Tremblay   RAMQ: TREM 4805 1219   Date: 2023-08-22", ["TREM", "4805", "1219"]),
        ("need Medicaid ID 0051 8847 221 verified.", ["0051", "221"]),
    ],
    ids=["issuer_letters_after_mrn", "state_letters_after_licence", "grouped_digits_after_plan_id",
         "issuer_letters_after_payer", "newfoundland_card", "quebec_card", "grouped_digits_after_id"],
)
def test_identifiers_with_their_issuer_letters_and_groups(text, gone):
    out = _out(text)
    assert all(g not in out for g in gone), out


@pytest.mark.parametrize(
    "text,kept",
    [("mrn is 5538192 per chart", "mrn is"), ("Ins: Medicare MBI 1EG4-TE5-MK72, secondary", "MBI"),
     ("Patient label (MRN here U004418260).", "here")],
    ids=["verb_after_mrn", "kind_of_medicare_number", "word_after_mrn"],
)
def test_words_between_an_id_label_and_its_number_stay(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("contact: niece claudette may 603-555-0164 (hcp)", ["claudette", "may"]),
        ("BROUGHT BY POLICE AFTER 911 CALL FROM GIRLFRIEND KEISHA WILL.\nHPI: 25 YO M", ["KEISHA", "WILL"]),
        ("attending: dr amy ng / resident dr k. adeyemi", ["amy", " ng "]),
    ],
    ids=["modal_surname_before_a_phone", "modal_surname_closing_a_sentence_in_capitals", "abbreviation_surname_before_a_slash"],
)
def test_a_surname_that_is_a_word_closing_the_field_after_a_given_name(text, gone):
    out = _out(text)
    assert all(g not in out for g in gone), out


@pytest.mark.parametrize(
    "text,kept",
    [
        ("niece claudette may call back tonight", "may call"),
        ("girlfriend kim cell 508 555 2261.", "cell"),
        ("worked at a poultry plant in noel mo (evisceration line)", "mo ("),
    ],
    ids=["modal_verb_after_a_given_name", "kind_of_phone_after_a_given_name", "state_code_after_a_town"],
)
def test_words_after_a_given_name_that_are_no_surname_stay(text, kept):
    assert kept in _out(text)



@pytest.mark.parametrize(
    "text",
    ["girlfriend page supportive. sponsor weekly", "pt lives w/ wife page in a split-level", "supervisor page says light duty avail."],
    ids=["after_a_partner", "after_a_spouse", "after_a_supervisor"],
)
def test_page_after_a_relation_or_a_role_is_a_given_name(text):
    assert "page" not in _out(text)


@pytest.mark.parametrize(
    "text,kept",
    [("rn to page md with results", "page md"), ("RN PAGE MD IF HR>120", "PAGE MD"), ("will page dr lee if sbp < 90", "will page")],
    ids=["to_page_a_credential", "page_a_credential_in_capitals", "modal_before_page"],
)
def test_page_the_verb_stays(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("EMS PCR  UNIT M14  NAVAJO NATION EMS  INCIDENT # 24-008813", "NAVAJO"),
        ("referred to hmong american partnership for transportation support", "hmong"),
        ("pcp: dr marek (polish american medical group, chicopee, ma)", "polish"),
    ],
    ids=["nation_in_capitals", "people_in_lower_case", "language_before_a_medical_group"],
)
def test_a_peoples_word_that_begins_an_institutions_name_goes_with_it(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize("text,kept", [("requested spanish interpreter services", "spanish interpreter"),
                                        ("korean speaking, daughter interprets", "korean")],
                         ids=["language_before_a_kind_of_service", "language_alone"])
def test_a_language_before_a_kind_of_service_stays(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("daughter works at la rabida hospital, number on file", "la "),
        ("pcp: five rivers health centers, dr ogunleye.", "five"),
        ("adm from our lady's manor nursing home, dalkey.", "our"),
        ("Legal referral: CA Rural Legal Assistance, ph 760-398-0000", "CA"),
        ("TRANSFER TO MARQUETTE VIA SA MEDCOM 0241", "SA"),
    ],
    ids=["spanish_article", "number_before_a_plural", "our_before_lady", "state_code_in_mixed_case", "region_code_in_capitals"],
)
def test_the_word_that_begins_an_institutions_name_goes_with_it(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize(
    "text,kept",
    [("two clinics nearby, pt prefers the closer", "two clinics"), ("four vna visits approved", "four"),
     ("appt at our westside pediatrics office.", "our")],
    ids=["count_of_a_kind_of_place", "count_before_an_agency", "our_before_the_writers_own_practice"],
)
def test_a_count_or_a_pronoun_before_an_institution_stays(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize("text", ["WILL FOLLOW UP BOSTON MEDICAL CENTER CARDIOLOGY", "PICKED UP CVS PHARMACY RX"],
                         ids=["follow_up", "picked_up"])
def test_a_verbs_particle_before_an_institution_stays(text):
    assert " UP " in _out(text)


@pytest.mark.parametrize("text", ["quit her job at trader joe's in august.", "groceries from trader joe's, lives alone"],
                         ids=["before_a_preposition", "before_a_comma"])
def test_the_possessive_of_an_institutions_name_goes_with_it(text):
    assert "'s" not in _out(text).lower()


def test_a_blood_units_donation_number_is_an_id():
    out = _out("Units W0421 24 771902 and W042124771918 verified at bedside")
    assert "771902" not in out and "771918" not in out


@pytest.mark.parametrize("text,gone", [("dcyf hotline called 13:20", "dcyf"), ("OSHA NOTIFIED BY EMPLOYER.", "OSHA")],
                         ids=["child_protection_agency", "workplace_safety_agency"])
def test_agencies_named_by_their_letters_go(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [("work note given\n-jk (Jasper Kim MD surg res) p 5521", "jk"), ("-bm (bernadette mwangi ibclc)", "bm"),
     ("seen by Jasper Kim (JK) today", "JK")],
    ids=["signature_before_the_name_spelled_out", "signature_in_lower_case", "initials_after_the_name"],
)
def test_initials_beside_the_name_they_spell_go(text, gone):
    import re

    assert re.search(rf"\b{gone}\b", _out(text)) is None


def test_initials_that_are_not_the_names_stay():
    assert "(CT)" in _out("seen by Jasper Kim (CT) today")


@pytest.mark.parametrize("text", ["dtr (hcp) in nashua nh 978-555-0128 - aware", "lives in nashua nh with son"],
                         ids=["before_a_phone", "before_a_word"])
def test_a_lower_case_state_code_after_a_town_without_a_comma_goes_with_it(text):
    assert " nh " not in _out(text)


def test_a_lower_case_treatment_abbreviation_after_a_town_stays():
    assert "tx" in _out("transferred from worcester tx with abx")


@pytest.mark.parametrize("text", ["Mother: alive at 93, healthy", "father a&w at 91, htn", "FATHER ALIVE AND WELL AT 94"],
                         ids=["alive_at", "a_and_w_at", "alive_and_well_in_capitals"])
def test_a_living_relatives_age_over_89_goes(text):
    assert not any(a in _out(text) for a in ("93", "91", "94"))


@pytest.mark.parametrize("text,gone", [("HPI: 23 YOM, GRAD STUDENT AT NORTHEASTERN, BIB POLICE", "NORTHEASTERN"),
                                       ("pt is a student at ucla, lives in dorm", "ucla")],
                         ids=["school_in_capitals", "school_in_lower_case"])
def test_a_students_school_goes(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize("text,kept", [("student at risk for falls", "at risk"), ("student at times absent", "at times"),
                                       ("nursing student at bedside", "at bedside")],
                         ids=["at_risk", "at_times", "at_bedside"])
def test_how_or_where_a_student_is_stays(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize("text,gone", [("lives w/ mom and stepdad will in worcester", "will"), ("STEPMOM ROSE AT BEDSIDE", "ROSE")],
                         ids=["stepdad_will", "stepmom_rose"])
def test_a_step_parents_given_name_that_is_a_word_goes(text, gone):
    assert gone not in _out(text)


def test_a_step_parents_modal_stays():
    assert "will call" in _out("stepdad will call back")


@pytest.mark.parametrize(
    "text,gone",
    [("half-sister joy (22) adhd", "joy"), ("step-son hunter is at bedside", "hunter"), ("grand-daughter faith visits daily", "faith"),
     ("godmother summer is hcp", "summer"), ("her great-niece faith and her caregiver", "faith"), ("teammate dj dx hsv 1/6", "dj"), ("babysitter joy (16) picks him up", "joy")],
    ids=["half_sibling", "hyphenated_step_child", "hyphenated_grandchild", "godparent", "great_niece", "teammate", "babysitter"],
)
def test_a_hyphenated_relatives_or_a_helpers_given_name_that_is_a_word_goes(text, gone):
    # the prefixes of kinship ("half-", "step-", "grand-", "god-", "foster-") hyphenated, and people around a child
    assert f" {gone} " not in f" {_out(text)} "


def test_a_half_siblings_modal_stays():
    assert "will call" in _out("half-brother will call back")


@pytest.mark.parametrize(
    "text,gone",
    [("TRANSPORT: MISSION AIR, REPORT GIVEN TO FLIGHT RN", "MISSION"), ("TRANSPORT: AIR LINK FIXED WING, ETA 1 HR", "LINK"),
     ("ADM 8/4 FROM EL PASO VIA AIR CARE 1 AFTER OSH", "CARE 1")],
    ids=["name_before_air", "name_after_air_before_aircraft", "name_and_number_after_a_cue"],
)
def test_an_air_ambulance_service_goes(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize(
    "text,kept",
    [("ON ROOM AIR, SATS 94%", "ROOM AIR"), ("transported by air ambulance", "air ambulance"),
     ("decreased air entry by auscultation", "air entry by auscultation"), ("via air mattress", "air mattress")],
    ids=["room_air", "kind_of_transport", "finding", "equipment"],
)
def test_air_that_names_no_service_stays(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [('pt: harold "hal" whitcombe, 93, 1147 county rd 9, hondo, tx', "93"), ('pt: herbert aagaard ("herb"), 97, hospice dx', "97"),
     ("pt mrs doreen pike, 93 (dob 02/05/1930), lives alone", "93"), ("RM 112 PEARL ABERNATHY (97) - SLEPT WELL", "97"),
     ("RES IS 96, ON ELIQUIS", "96"), ("great-grandfather lived to 97.", "97")],
    ids=["before_an_address", "after_a_quoted_nickname", "before_a_birth_date", "in_parentheses_after_a_name", "resident_is",
         "lived_to"],
)
def test_more_ages_over_89_go(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize("text", ["SATS (92) ON RA", "sat, 92, 94 on ra", "lived to 95% of goal"],
                         ids=["saturation_in_parentheses", "readings_after_a_comma", "a_percentage"])
def test_readings_near_age_forms_stay(text):
    assert "9" in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [("COMPLETED BY L. BEGAY, EMT-P, LIC NM-P-20931", "20931"), ("pt: tamati herewini, nhi zkh4712", "4712"),
     ("HCN 4532-281-906-KT", "4532"), ("Hosp No. RX1-448812, seen", "448812"), ("CREW: R. BEGAY EMT-P #P4471, S. LUJAN", "P4471"),
     ("CRN 204 381 977K - JOBSEEKER PAYMENT", "977K")],
    ids=["licence_short_form", "new_zealand_nhi", "ontario_health_card_with_hyphens", "hosp_no", "crew_certificate_after_a_number_sign",
         "centrelink_reference"],
)
def test_more_identifiers_go(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize("text,kept", [("hosp course: 3 days", "3 days"), ("lic 2 units", "2 units")],
                         ids=["hosp_course", "lic_before_a_dose"])
def test_identifier_cue_look_alikes_stay(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize("text", ["accepting dr hollis ng", "attending: dr hollis ng / resident dr k. adeyemi"],
                         ids=["at_a_lines_end", "before_a_slash"])
def test_a_word_surname_after_a_doctors_unlisted_given_name_goes(text):
    assert " ng" not in _out(text)


def test_a_clinical_word_after_a_doctors_surname_in_a_sentence_stays():
    assert "ng tube" in _out("seen by dr smith ng tube placed")

