"""Landmarks by their head word (clinx.text.landmarks): a motel, park, station or bridge named before it is a place;
the kind of landmark alone ("bus station", "NURSES STATION") names none. Values are invented; test ids name the
form, never a value."""

import pytest

from clinx.text.landmarks import find_landmarks
from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


@pytest.mark.parametrize(
    "text,name",
    [
        ("DISPATCH 0640 FOR FALL AT HILL COUNTRY MOTEL, UNIT 9", "HILL COUNTRY MOTEL"),
        ("ASKED TO LEAVE THE DELUXE MOTEL ON FRIDAY", "DELUXE MOTEL"),
        ("LOCATION: CIVIC CENTER PARK NEAR THE LIBRARY", "CIVIC CENTER PARK"),
        ("collapsed on the platform at Whitechapel Station.", "Whitechapel Station"),
        ("used box breathing during attack at south station.", "south station"),
    ],
    ids=["caps_after_at", "caps_after_the", "caps_after_a_field_label", "mixed_capitalised", "lower_after_at"],
)
def test_a_landmarks_name_and_head_are_found(text, name):
    found = [text[c.start : c.end] for c in find_landmarks(text)]
    assert found == [name]
    assert name not in _l2(text)


@pytest.mark.parametrize(
    "text",
    [
        "PT AT NURSES STATION, CALM",
        "pt found at the bus station",
        "lives in a trailer park with son",
        "HR 80 AT REST STATION",
        "walked to the park and back",
        "pt says hill station was fun",
        "Pt was seen at the gas station",
    ],
    ids=["nurses_station", "bus_station", "trailer_park", "clinical_word_before", "head_alone", "lower_no_cue",
         "mixed_lower_kind_word"],
)
def test_kinds_of_landmarks_are_no_names(text):
    assert find_landmarks(text) == []


@pytest.mark.parametrize(
    "text",
    ["Referring: Jin-Ho Park, MD, Valley Health", "seen by Grace Park today", "M. DELACROIX, CRNA / FITZGERALD MD"],
    ids=["hyphenated_given_name_and_credential", "given_name_then_surname_park", "no_head"],
)
def test_people_whose_surname_is_a_head_are_no_landmarks(text):
    assert find_landmarks(text) == []
    assert "MD" in _l2(text) or "today" in _l2(text)
