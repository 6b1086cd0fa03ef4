"""Forms of the tune notes written on 2026-12-07 for the thirty-sixth session (Canadian and small-town care, the very
old): a province's code after a town though a word follows it, and an age over 89 still to come or said in a clause
about a person named before. Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


@pytest.mark.parametrize(
    "text,code",
    [
        ("Lives in Brampton, ON w/ husband", "ON"),
        ("lives in halifax, ns with son", "ns"),
        ("LIVES IN HALIFAX, NS WITH SON", "NS"),
    ],
    ids=["capitals_ontario_in_a_mixed_line", "lower_case_province", "capitals_province_in_a_capitals_line"],
)
def test_a_provinces_code_after_a_town_goes_though_a_word_follows(text, code):
    out = _l2(text)
    assert code not in out.split() and "[LOCATION]" in out, out


def test_on_after_a_town_in_small_letters_stays_the_word():
    assert "on arrival" in _l2("seen in Toronto, on arrival he was confused")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("RESIDENT WILL BE 102 ON APRIL 19 AND SON WANTS A PARTY", "RESIDENT WILL BE [AGE] ON [DATE] AND SON WANTS A PARTY"),
        ("husband at bedside, who is 97, hard of hearing", "husband at bedside, who is [AGE], hard of hearing"),
        ("birthday next week (would be 104)", "birthday next week (would be [AGE])"),
        ("Patient notes he will be 103 in March", "Patient notes he will be [AGE] in [DATE]"),
        ("lives w/ wife who is 91 and also unwell", "lives w/ wife who is [AGE] and also unwell"),
    ],
    ids=["resident_will_be", "who_is_after_a_person", "would_be_in_parentheses", "he_will_be", "wife_who_is"],
)
def test_an_age_over_89_to_come_or_said_of_a_person_goes(text, expected):
    assert _l2(text) == expected


@pytest.mark.parametrize(
    "text",
    ["goal would be 100 by discharge", "pt who is 95% on RA", "she will be 90 days postpartum", "she will be 92 kg at goal",
     "he will be 100 percent weight bearing"],
    ids=["goal_value", "saturation", "days_postpartum", "weight", "percent"],
)
def test_a_value_to_come_stays(text):
    assert "[AGE]" not in _l2(text)
