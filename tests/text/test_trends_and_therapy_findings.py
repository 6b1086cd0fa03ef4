"""Numbers in a lab trend that look like years, and a therapist's findings after their discipline's label, stay;
the years and names written beside the same marks go. Test ids name the form, never a value."""

import pytest

from clinx.text.pipeline import TextPipeline

L2 = TextPipeline("L2")


@pytest.mark.parametrize(
    "text,kept",
    [
        ("CK 4200 -> 1900 -> 980 today", "1900"),
        ("BNP 1950 -> 800 after diuresis", "1950"),
        ("- PT: needs walker, recs rehab", "needs walker, recs rehab"),
        ("PT: NEEDS ASSIST X1", "NEEDS ASSIST"),
        ("PT EVAL: GAIT UNSTEADY, REC SNF.", "REC SNF"),
    ],
    ids=["value_between_arrows", "value_before_an_arrow", "therapy_finding_lower", "therapy_finding_caps",
         "therapy_recommendation"],
)
def test_clinical_values_and_findings_stay(text, kept):
    assert kept in L2.run(text).text


@pytest.mark.parametrize(
    "text,gone",
    [("A1c 7.2 in 2019 -> 6.8 now", "2019"), ("lived in ohio 1998 -> 2004", "1998")],
    ids=["year_after_in_before_an_arrow", "years_on_both_sides"],
)
def test_years_beside_an_arrow_go(text, gone):
    assert gone not in L2.run(text).text
