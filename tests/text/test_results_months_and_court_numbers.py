"""Forms the tune notes zo-zt (allergy, rehabilitation, correctional health, school health, refugee clinics, street
medicine) and the misses read again in zl-zn exposed: a month dating a result in parentheses, a court's, a jail's and
an interpreter's numbers, an age over 89 right after a relative's word, a greeting typed in small letters, the name a
person goes by, a town that is a clinical word after a cue of living, the "the" of a place named by a plural of
landscape, and the word after a closed parenthesis. Each test pins one rule and a sentence it must leave alone.
Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


@pytest.mark.parametrize(
    "text,value",
    [
        ("h/o DM2 (A1c 9.1 Jan), HTN. meds metformin", "Jan"),
        ("HX: DM2 (A1C 7.4, OCT), HTN, HYPOTHYROID.", "OCT"),
        ("fev1 42% (baseline 55% jan). sputum mucoid", "jan"),
        ("due: mammo Dec, DM eye exam, colonoscopy", "Dec"),
    ],
    ids=["month_after_value_in_parens", "month_after_comma_caps", "month_after_percent", "screening_due"],
)
def test_a_month_that_dates_a_result_is_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["strength (R 4/5 dec) and (sensation dec) on the left.", "takes 2 (1 in am, 1 at night)."],
    ids=["decreased_after_a_grade", "no_month"],
)
def test_a_word_after_a_grade_is_kept(text):
    assert _l2(text) == text


@pytest.mark.parametrize(
    "text,value",
    [
        ("compliance w/ moud per docket 1977cr004412.", "1977cr004412"),
        ("pt: E. Volkova 46F, bkg 2024-8831, competency eval", "2024-8831"),
        ("cause # 24-1-00912-32, restoration order signed", "00912"),
        ("Vietnamese by phone (LanguageLine interp 48213)", "48213"),
    ],
    ids=["docket", "booking", "cause_number", "interpreter_number"],
)
def test_court_jail_and_interpreter_numbers_are_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["because # of falls, pt uses walker.", "inmate count 3. booking photo taken.", "Spanish interp by phone for consent."],
    ids=["because", "words_without_numbers", "interpreter_without_number"],
)
def test_the_cue_words_without_their_numbers_are_kept(text):
    assert _l2(text) == text


@pytest.mark.parametrize(
    "text,value",
    [
        ("FAMILY: FATHER DECEASED; MOTHER, 91, RESIDES AT HOME.", "91"),
        ("paternal gm nora alive, 91, never diagnosed", "91"),
    ],
    ids=["relative_word_then_age", "pedigree_short_form"],
)
def test_an_age_over_89_after_a_relative_is_removed(text, value):
    assert value not in _l2(text)


def test_a_reading_after_a_relatives_verb_is_kept():
    assert "95" in _l2("wife checked glucose, 95. no symptoms.")


@pytest.mark.parametrize(
    "text,value",
    [("dear ms hill,\nthank you for the referral", "hill"), ("hi grace, pt asking about refills", "grace")],
    ids=["title_and_everyday_surname", "given_name"],
)
def test_a_greeting_in_small_letters_loses_the_name(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["hi there, just checking on the refill.", "dear doctor,\nthank you.", "hi team: census is 14."],
    ids=["there", "doctor", "team"],
)
def test_a_greeting_of_no_one_is_kept(text):
    assert _l2(text) == text


def test_the_name_a_person_goes_by_is_removed_even_when_it_spells_a_drug_class():
    assert "ace" not in _l2("pt anselm kowalczyk (goes by ace), 27m, severe tbi")


def test_words_after_goes_by_that_name_no_one_are_kept():
    assert "his middle name" in _l2("Mr. Smith (goes by his middle name) is here.")


def test_a_town_that_is_a_clinical_word_after_a_cue_of_living_is_removed():
    assert "apex" not in _l2("works at the public library, lives in apex. mom visiting.")


def test_the_same_word_as_a_finding_is_kept():
    assert _l2("thrombus in apex. no wall motion abnormality.") == "thrombus in apex. no wall motion abnormality."


def test_the_article_of_a_place_named_by_a_plural_of_landscape_is_removed():
    assert "the oaks" not in _l2("applied for respite bed at the oaks recuperative care.")


def test_the_article_before_an_acronym_is_kept():
    assert "at the " in _l2("seen at the mgh today for f/u")


def test_the_words_after_a_closed_parenthesis_are_kept():
    assert "prior to transfer" in _l2("tpa given at st. luke's (bethlehem) prior to transfer.")


@pytest.mark.parametrize(
    "text,value",
    [
        ("clearance before the Oct 12th match @ Stockton U. updated the trainer", "Stockton"),
        ("19 yo F sophomore at U of M (Ann Arbor), home for break", "U of M"),
    ],
    ids=["town_and_u", "u_of_letter"],
)
def test_a_university_by_its_short_form_is_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["insulin 10 U sc, Lantus U-100 pen.", "Glargine U qhs. Give Regular U per scale."],
    ids=["units_after_a_number", "units_after_a_drug_or_an_everyday_word"],
)
def test_units_written_u_are_kept(text):
    assert _l2(text) == text


@pytest.mark.parametrize(
    "text,value",
    [
        ("pt seen and examined.\n-- T. ABERNATHY, MD / LN, LISW", "LN"),
        ("flu #2 in 4 wks.\nDr. Halvorsen / KB MA", "KB"),
        ("rtc 3 mo w/ labs.\n-- dr e. rosenblum / ap", "ap"),
        ("family notified.\n-- kh/palliative np", "kh"),
        ("labs ordered.\nNV / Ravi Sundaram, MD", "NV"),
    ],
    ids=["after_credential_before_credential", "after_doctor_before_role", "after_lower_doctor", "before_role",
         "before_signer_and_credential"],
)
def test_a_second_signers_initials_beside_a_slash_are_removed(text, value):
    assert value not in _l2(text).split("\n")[-1]


@pytest.mark.parametrize(
    "text,kept",
    [("UR / CM NOTE 01/11\nPT stable.", "UR / CM NOTE"), ("plan: PT/OT eval, IV/PO abx.", "PT/OT"), ("RN/MD aware of BP.", "RN/MD")],
    ids=["department_header", "disciplines_and_routes", "roles"],
)
def test_letters_beside_a_slash_that_sign_nothing_are_kept(text, kept):
    assert kept in _l2(text)


def test_a_given_names_own_short_form_in_parentheses_is_removed_even_when_it_spells_a_procedure():
    assert "PEG" not in _l2("PT: O'BRIEN, MARGARET (PEG)  RM 2W-18\nDX: L MCA CVA")


def test_a_procedure_in_parentheses_after_another_word_is_kept():
    assert "(PEG)" in _l2("Nutrition: tube feeds via gastrostomy (PEG) at 50 mL/h.")


def test_the_nickname_table_pairs_given_names_with_their_short_forms():
    from clinx.text.lexicons import nicknames

    table = nicknames()
    assert "peg" in table["margaret"] and "will" in table["william"] and "peg" not in table.get("john", ())


@pytest.mark.parametrize(
    "text,value",
    [
        ("sponsor: ssg j. song, 3rd bct, 101st airborne", "3rd bct"),
        ("USMC 2006-2014, 2ND BN 8TH MARINES, then reserve", "2ND BN"),
        ("ARMY 13B 2003-2011, 2-17 FIELD ARTILLERY, noise exposure", "2-17 FIELD ARTILLERY"),
    ],
    ids=["brigade_combat_team", "battalion_and_regiment", "hyphenated_battalion"],
)
def test_a_military_unit_by_its_short_form_is_removed(text, value):
    assert value not in _l2(text)


def test_a_dose_range_before_in_is_kept():
    assert "take 1-2 in am" in _l2("take 1-2 in am as needed for pain.")


@pytest.mark.parametrize(
    "text,value",
    [("VETERAN: T. HALE   CLAIM # 31 092 558", "092"), ("veteran: m. bell   c-file 27 448 901", "448")],
    ids=["claim_in_groups", "claim_file"],
)
def test_a_number_in_groups_after_its_cue_is_removed(text, value):
    assert value not in _l2(text)


def test_a_count_after_a_cue_is_kept():
    assert "VISIT #6" in _l2("VISIT #6 today, dose #2 given.")
