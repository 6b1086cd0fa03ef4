"""Identifiers after their cue written in digit groups ("mrn 604 118 37"), and the ages and counts beside an
identifier that are not part of it. Test ids name the form, never a value."""

import pytest

from clinx.text.pipeline import TextPipeline

L2 = TextPipeline("L2")


@pytest.mark.parametrize(
    "text,groups",
    [
        ("precious ndlovu, 29f, mrn 604 118 37, rm 7-14", ("604", "118", "37")),
        ("SSN 123 45 6789 on file", ("123", "45", "6789")),
        ("va claim C-28 771 904 filed", ("C-28", "771", "904")),
    ],
    ids=["record_number", "social_security_number", "claim_with_a_prefix"],
)
def test_every_group_of_an_identifier_goes(text, groups):
    out = L2.run(text).text
    assert not any(g in out for g in groups), out


@pytest.mark.parametrize(
    "text,kept",
    [("MRN 4455123 72 yo M", "72 yo"), ("MRN 4455 72 yo M", "72 yo"), ("MRN 445 12 F", "12 F")],
    ids=["age_after_a_long_number", "age_after_a_short_number", "age_and_sex"],
)
def test_an_age_after_the_identifier_stays(text, kept):
    assert kept in L2.run(text).text


def test_an_insurance_group_number_goes():
    out = L2.run("MEMBER ID W2290417763  GROUP 0884120-10-004").text
    assert "0884120" not in out and "W2290417763" not in out, out


@pytest.mark.parametrize(
    "text", ["group 2 of 3 done", "group b strep neg", "group therapy 1300-1400", "GROUP 1: 3 PTS"],
    ids=["count", "organism", "session_hours", "numbered_group"],
)
def test_groups_that_are_no_plan_stay(text):
    assert L2.run(text).text == text
