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
