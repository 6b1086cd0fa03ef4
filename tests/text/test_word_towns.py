"""Towns whose names are words (``word_places.txt``): removed where a cue makes them places, kept as words elsewhere.

Values are invented sentences around real US town names; test ids name the form, never a value.
"""

import pytest

from clinx.text.lexicons import places, word_places
from clinx.text.pipeline import deidentify
from clinx.text.word_towns import find_branch_towns, find_quarters, find_word_towns


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


def test_word_towns_are_words_left_out_of_places_with_their_states():
    towns = word_places()
    assert "plain city" in towns and towns["plain city"] >= {"OH"}
    assert "friendship" in towns
    assert not set(towns) & places()  # (the two lists never hold a name twice)


@pytest.mark.parametrize(
    "text,town",
    [
        ("LIVES WITH HUSBAND IN SPLIT-LEVEL HOME IN FRIENDSHIP, 6 STEPS TO ENTER", "FRIENDSHIP"),
        ("BIBA FROM HOME IN PLAIN CITY W/ 3 DAYS OF DOE", "PLAIN CITY"),
        ("418 W. CHERRY ST APT 2B, PLAIN CITY, OH 43064", "PLAIN CITY"),
        ("found by trooper near mammoth spring, 25 miles off route", "mammoth spring"),
        ("Retired, worked at the taconite plant in Silver Bay. Wife at bedside.", "Silver Bay"),
        ("Truck driver, works out of Gainesville.", "Gainesville"),
        ("home: rural property outside seneca, ~2 acres", "seneca"),
        ("pt lives in mobile, midtown area", "mobile"),
    ],
    ids=["one_word_after_home_in", "two_words_after_home_in", "before_state_code", "rare_word_after_near",
         "capitalised_after_in_mixed_case", "out_of", "outside", "frequent_word_town_after_lives_in"],
)
def test_word_towns_after_a_cue_are_removed(text, town):
    assert town not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("She lives in fear of her husband.", "fear"),
        ("pt lives in public housing with her kids.", "public housing"),
        ("Moved from Mexico in her 20s.", "Mexico"),
        ("moved to comfort care this am", "comfort care"),
        ("Lives in deep water territory", "deep water"),
        ("knows she lives in hope that things improve", "hope that"),
        ("Pt lives in hope, per daughter.", "hope"),  # a mixed-case line writes a town capitalised
    ],
    ids=["idiom", "word_before_noun", "country", "word_not_listed_after_cue", "common_words_in_caps_need_cue",
         "clause_after_word", "lower_word_in_mixed_line"],
)
def test_words_that_name_towns_stay_as_words(text, kept):
    assert kept in _l2(text)


def test_state_code_must_be_the_towns():
    # Plain City lies in Ohio and Utah; before another state's code it is no town of the list
    text = "ADDRESS: 12 MAIN ST, PLAIN CITY, OH"
    assert [text[c.start:c.end] for c in find_word_towns(text)] == ["PLAIN CITY"]
    assert find_word_towns("plain city, NM") == []


@pytest.mark.parametrize(
    "text,quarter",
    [
        ("lives in east oakland w/ aunt", "east oakland"),
        ("pt from north minneapolis, here w/ sister", "north minneapolis"),
        ("HPI: LIVES W/ GIRLFRIEND IN SOUTH BOSTON.", "SOUTH BOSTON"),
    ],
    ids=["lower_after_cue", "lower_before_comma", "caps_before_full_stop"],
)
def test_a_quarter_of_a_listed_town_is_one_place(text, quarter):
    assert [text[c.start:c.end] for c in find_quarters(text)] == [quarter]


@pytest.mark.parametrize(
    "text",
    ["moved from North Carolina in 2010", "pain in the lower back and east wing", "lives on the south side, near the el",
     "seen in lower boston clinic"],
    ids=["state", "everyday_words", "everyday_quarter", "lower_words_in_mixed_line"],
)
def test_direction_words_before_no_listed_town_are_kept(text):
    assert find_quarters(text) == []


@pytest.mark.parametrize(
    "text,town",
    [("pt is student at delaware tech dover campus (nursing)", "dover"),
     ("drove down to our draper location, ~25 min.", "draper"),
     ("- Outpatient speech 1x/wk (here, Peabody site)", "Peabody")],
    ids=["campus_lower", "location_lower", "site_mixed"],
)
def test_a_town_before_a_branch_word(text, town):
    assert [text[c.start:c.end] for c in find_branch_towns(text)] == [town]


@pytest.mark.parametrize(
    "text",
    ["called main office for records", "works from home office", "called dr lindqvist office re wt gain"],
    ids=["everyday_word", "home", "clinicians_office"],
)
def test_everyday_words_and_clinicians_before_an_office_stay(text):
    assert find_branch_towns(text) == []
