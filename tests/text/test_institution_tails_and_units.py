"""Forms read on the probe sets and the tune notes of 2026-12-04 (second session): the rest of an institution's
name after its distinctive words (a legal form, whom it serves, a dotted abbreviation), military units by their
number, an age set off by commas after a relative's name, and a state's code that is the first half of a hyphenated
word. Each test pins one general rule and a sentence the rule must leave alone. Values are invented; test ids name
the form, never a value.
"""

import pytest

from clinx.text.evidence import region_after
from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


# ---------------------------------------------------------------- the rest of an institution's name


@pytest.mark.parametrize(
    "text,left",
    [
        ("Pt is a patient of Greater Marlow Health Center, Inc. for years", "Inc"),
        ("HOME CARE: CARING HANDS HOME CARE SERVICES, LLC.", "LLC"),
        ("PCP: Westmoreland Primary Care, P.C., Dr. Okafor", "P.C"),
        ("pt transferred to tilden floating hospital for children for picu bed.", "children"),
        ("FATHER AT ST. JOSEPH HOME FOR THE AGED, LTC", "AGED"),
        ("seen in ed at holy cross hosp. & med. ctr. 2 days ago", "ctr"),
    ],
    ids=["inc_after_center", "llc_after_services", "pc_after_practice", "hospital_for_children", "home_for_the_aged",
         "dotted_abbreviations"],
)
def test_the_rest_of_an_institutions_name_goes_with_it(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("went to Mercy Hospital for rehab", "for rehab"),
        ("pcp at Mercy Clinic, co-pay 20", "co-pay 20"),
        ("Dr. Okafor, PA to see pt", "PA to see"),
        ("seen at Mercy Hosp. Pt stable.", "Pt stable"),
    ],
    ids=["purpose_after_hospital", "copay_after_clinic", "physician_assistant", "sentence_after_dotted_head"],
)
def test_words_after_an_institution_that_are_not_its_name_stay(text, kept):
    assert kept in _l2(text)


def test_a_state_code_that_starts_a_hyphenated_word_is_no_state():
    text = "pcp at Mercy Clinic, co-pay 20"
    assert region_after(text, text.index(",")) is None
    assert region_after("lives in Denver, CO - moved", len("lives in Denver")) is not None


# ---------------------------------------------------------------- military units


@pytest.mark.parametrize(
    "text,left",
    [
        ("veteran, served with 3rd battalion, 7th marines, receives care at VA", "marines"),
        ("SERVED IN VIETNAM, 1ST CAVALRY DIVISION, AGENT ORANGE EXPOSURE", "DIVISION"),
        ("pt is in the army reserve, 362nd engineer company", "362"),
        ("NAT'L GUARD, 182ND INFANTRY, DRILL THIS WEEKEND", "182"),
    ],
    ids=["battalion_and_regiment", "caps_division", "engineer_company", "caps_infantry"],
)
def test_a_military_unit_named_by_its_number_is_removed(text, left):
    assert left not in _l2(text)


@pytest.mark.parametrize(
    "text", ["moved to 2nd floor, 4th division of ward", "2nd company of nurses arrived", "3rd wing closed"],
    ids=["bare_division", "bare_company", "bare_wing"],
)
def test_an_ordinal_before_a_word_that_is_no_unit_stays(text):
    assert _l2(text) == text


# ---------------------------------------------------------------- ages


@pytest.mark.parametrize(
    "text", ["husband Joe, 92, at home with pt", "MOTHER ROSA DIAZ, 101, LIVES ALONE"], ids=["given_name", "caps_full_name"]
)
def test_an_age_over_89_after_a_relatives_name_is_removed(text):
    out = _l2(text)
    assert "[AGE]" in out and "92" not in out and "101" not in out


@pytest.mark.parametrize(
    "text", ["wife checked glucose, 95.", "husband at bedside, 98.6 temp", "mother has BP, 92/60"],
    ids=["reading_after_verb", "decimal", "blood_pressure"],
)
def test_a_number_after_a_relative_and_everyday_words_stays(text):
    assert "[AGE]" not in _l2(text)
