"""Forms that earlier sessions noticed and left alone, and forms read on the tune notes of 2026-12-06. Each test
pins one general rule and a sentence the rule must leave alone. Values are invented; test ids name the form,
never a value.
"""

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
