"""Forms of PHI (and of non-PHI) that ward notes hold: each test pins one general pattern.

Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


# ---------------------------------------------------------------- what must stay


def test_clock_time_after_a_date_is_kept():
    # the date is PHI, the clock time written after it is not
    out = _l2("D: 03/09/2011 16:12  T: 03/10/2011 09:40")
    assert "03/09/2011" not in out and "03/10/2011" not in out
    assert "16:12" in out and "09:40" in out
    assert _l2("seen March 3, 2011 at 2:15 pm") == "seen [DATE] at 2:15 pm"


def test_iso_timestamp_stays_one_date():
    assert _l2("Acquired 2023-05-02T10:30:00, is there edema?") == "Acquired [DATE], is there edema?"


@pytest.mark.parametrize("rel", ["SON-IN-LAW", "DAUGHTER-IN-LAW", "son-in-law", "Mother-in-law"])
def test_in_law_relation_word_is_kept_and_the_name_after_it_removed(rel):
    out = _l2(f"PER {rel} JOE BRESNAHAN PT LIVES ALONE")
    assert rel in out
    assert "JOE" not in out and "BRESNAHAN" not in out
    assert "PT LIVES" in out


def test_nursing_id_header_does_not_make_readings_ids():
    text = "id: tmax 101.4 @ 0200, bc x2 sent. on zosyn/vanc."
    assert _l2(text) == text
    # an ID word right before its number still is one
    assert "4471" not in _l2("ID no. 4471 today")
    assert "4471" not in _l2("MRN 4471")


def test_sex_letter_after_an_age_is_no_initial():
    out = _l2("ED NOTE: 85 YO F WOJCIECHOWSKA FROM HOME")
    assert "YO F " in out and "WOJCIECHOWSKA" not in out
    out = _l2("67 y/o M Okafor presents with cp")
    assert "y/o M " in out and "Okafor" not in out


def test_ward_abbreviations_are_not_names():
    for text in ("85 YO F BIBA FROM HOME", "lives in a ranch home, 2 STE, 1 rail", "on mero q8h, bg 140s"):
        assert _l2(text) == text


def test_lower_case_word_before_a_head_in_mixed_case_is_no_institution():
    text = "PT eval today, likely rehab. Continue lasix."
    assert _l2(text) == text
    assert "Spaulding" not in _l2("Plan: discharge to Spaulding Rehab tomorrow.")
