"""Names on evidence that generalises: relation cues, signature blocks, name forms, and what must stay.

Each case is one tiny input for one form (test ids name the form, never a value).
"""

import pytest

from clinx.text.pipeline import TextPipeline

L2 = TextPipeline("L2")
L2_KEEP_YEARS = TextPipeline("L2", l1={"years": "keep"})


def _out(text: str, pipe=L2) -> str:
    return pipe.run(text).text


# ----------------------------------------------------------------------------- relation cues


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Mother born 1961, lives in Ohio.", "born"),
        ("FAMILY HX: MOTHER BORN IN ITALY", "BORN"),
        ("husband states pt slept well", "states"),
    ],
    ids=["born_mixed", "born_caps", "states_lower"],
)
def test_everyday_word_after_a_relation_is_no_name(text, kept):
    assert kept in _out(text)


def test_relation_then_born_keeps_the_year_under_years_keep():
    assert _out("Mother born 1961.", L2_KEEP_YEARS) == "Mother born 1961."


@pytest.mark.parametrize(
    "text,gone",
    [("wife Hope at bedside", "Hope"), ("son bill will call", "bill"), ("HUSBAND WILL BRENNAN CALLED", "BRENNAN")],
    ids=["given_name_word_mixed", "given_name_lower", "caps_pair"],
)
def test_names_after_a_relation_still_go(text, gone):
    assert gone not in _out(text)
