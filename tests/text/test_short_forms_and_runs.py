"""Forms the tune notes zb-zd (specialty services, names of many origins, rarer clinics) exposed: a listed
organisation named by its first word after a venue word, a name whose digits the tokens split off, the surname
after a quoted nickname in mixed case, and identifiers after a clinic's number or a laboratory's "accn". Each test
pins one rule and a sentence it must leave alone. Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.base import Candidate, whole_runs
from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


# ---------------------------------------------------------------- organisations named by their first word


@pytest.mark.parametrize(
    "text,value",
    [("LSO brace via Hanger. off work", "Hanger"), ("TX REFERRAL PENDING AT NORTHWESTERN - EVAL 3/12", "NORTHWESTERN")],
    ids=["via_mixed", "at_caps"],
)
def test_a_listed_names_rare_first_word_after_a_venue_word_is_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["pt at dialysis today", "seen at baseline", "pt at rest", "fed via gtube", "no change from leukemia protocol"],
    ids=["care_word", "time_word", "everyday_word", "route", "field_noun"],
)
def test_a_word_after_a_venue_word_that_names_no_organisation_is_kept(text):
    assert _l2(text) == text


# ---------------------------------------------------------------- letters and digits of one name


def test_a_name_candidate_is_widened_over_the_digits_joined_to_it():
    text = "rx via Onco360 now"
    (c,) = whole_runs(text, [Candidate(7, 11, "HOSPITAL", "t")])
    assert text[c.start : c.end] == "Onco360"


def test_an_identifier_or_a_date_candidate_is_not_widened():
    text = "MRN12345 on 3/12x"
    cands = [Candidate(3, 8, "ID", "t"), Candidate(12, 16, "DATE", "t")]
    assert [(c.start, c.end) for c in whole_runs(text, cands)] == [(3, 8), (12, 16)]


def test_an_organisation_with_digits_in_its_name_leaves_none_of_them():
    assert "360" not in _l2("rx sent via Onco360 yesterday")


# ---------------------------------------------------------------- the surname after a quoted nickname


def test_a_capitalised_word_after_a_quoted_nickname_is_the_surname():
    out = _l2('pt Rosalind "Roz" Peabody, 91F')
    assert "Peabody" not in out and "Roz" not in out


def test_a_function_word_after_a_quoted_nickname_is_kept():
    assert "Then said" in _l2('Robert "Bo" Then said')


# ---------------------------------------------------------------- identifiers after a clinic's number and "accn"


@pytest.mark.parametrize(
    "text,value",
    [("PATIENT: ERIK SANDVOLD   CLINIC #: 8-441-092   DOB 05/27/1966", "441"),
     ("- DNA methylation sent, accn 25-MTH-00412", "00412")],
    ids=["clinic_number", "accn"],
)
def test_a_number_after_a_clinic_number_or_accn_cue_is_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize("text", ["f/u in clinic 2 wks", "accn pending"], ids=["clinic_interval", "accn_without_number"])
def test_a_clinic_or_accn_cue_without_a_number_keeps_its_line(text):
    assert _l2(text) == text


def test_the_letters_of_a_mixed_identifier_are_not_widened_over_it():
    text = "SN RLA118764G"
    (c,) = whole_runs(text, [Candidate(3, 6, "NAME", "t")])
    assert (c.start, c.end) == (3, 6)


def test_a_state_code_without_a_comma_before_a_year_is_the_word():
    out = _l2("BUPRENORPHINE VIA BRIGHTVIEW IN 2019, STOPPED")
    assert " IN [DATE]" in out and "BRIGHTVIEW" not in out
