"""Normalisation of OCR strings and manifest values (names, IDs, dates)."""

import datetime as dt

import pytest

from clinx.localize.normalize import (
    alpha_skeleton,
    date_renderings,
    is_numeric_like,
    is_person_name_field,
    name_parts,
    name_variants,
    normalize,
    normalize_with_map,
    numeric_skeleton,
    parse_dates,
    tokens,
)


@pytest.mark.parametrize(
    "a, b",
    [
        ("DOE^JOHN", "Doe John"),
        ("Doe, John", "doe john"),
        ("ＪＯＨＮ　ＤＯＥ", "john doe"),  # full-width letters and space (NFKC)
        ("Straße", "STRASSE"),  # casefold, not lower()
        ("MRN: 004-829-13", "MRN 00482913"),
        ("03/14/1961", "03-14-1961"),
    ],
)
def test_normalize_equates_renderings(a, b):
    assert normalize(a) == normalize(b)


def test_normalize_keeps_letters_and_digits_only():
    assert normalize("  Name:  DOE^John (Jr.) ") == "namedoejohnjr"
    assert normalize("...") == ""


def test_normalize_with_map_points_back_to_source_characters():
    text = "Name: JO^HN"
    norm, idx = normalize_with_map(text)
    assert norm == "namejohn"
    assert "".join(text[i] for i in idx).casefold() == norm


def test_tokens_split_on_caret_punctuation_and_space():
    assert tokens("DOE^JOHN Q.") == ["doe", "john", "q"]
    assert tokens("St. Mary's-Hospital") == ["st", "mary", "s", "hospital"]


def test_numeric_like():
    assert is_numeric_like("00482913")
    assert is_numeric_like("A1234567")
    assert is_numeric_like("1961-03-14")
    assert not is_numeric_like("John Doe")
    assert not is_numeric_like("")


def test_numeric_skeleton_folds_letter_digit_confusions():
    assert numeric_skeleton(normalize("O0482913")) == numeric_skeleton(normalize("00482913"))
    assert numeric_skeleton("il5b") == "1158"
    assert len(numeric_skeleton("abcxyz")) == 6  # length-preserving


def test_alpha_skeleton_reads_digits_as_letters():
    assert alpha_skeleton(normalize("J0HN D0E")) == alpha_skeleton(normalize("JOHN DOE"))
    assert alpha_skeleton(normalize("W1LL1AM")) == alpha_skeleton(normalize("WILLIAM"))
    assert alpha_skeleton("john") != alpha_skeleton("jane")


@pytest.mark.parametrize(
    "text",
    ["1961-03-14", "19610314", "03/14/1961", "3/14/1961", "14-Mar-1961", "14 MAR 1961", "Mar 14, 1961",
     "March 14, 1961", "14 March 1961", "1961/03/14", "14.03.1961", "1961 Mar 14"],
)  # fmt: skip
def test_parse_dates_reads_common_renderings(text):
    assert dt.date(1961, 3, 14) in parse_dates(text)


def test_parse_dates_ambiguous_gives_both_readings_and_rejects_non_dates():
    assert set(parse_dates("03/04/1961")) == {dt.date(1961, 3, 4), dt.date(1961, 4, 3)}
    assert parse_dates("13/13/1961") == ()
    assert parse_dates("00482913") == ()  # 8 digits but no valid date
    assert parse_dates("John") == ()
    assert parse_dates("Smarch 14, 1961") == ()


def test_date_renderings_cover_the_required_forms():
    r = date_renderings("19610314")
    for form in ("1961-03-14", "03/14/1961", "14/03/1961", "14-Mar-1961", "19610314", "Mar 14, 1961"):
        assert form in r
    # and every rendering parses back to the same date
    for form in r:
        assert dt.date(1961, 3, 14) in parse_dates(form)
    assert date_renderings("not a date") == ()


def test_any_rendering_of_a_date_reaches_any_other():
    """An OCR'd date in one form matches a manifest date stored in another."""
    forms = date_renderings("1961-03-14")
    assert normalize("14-MAR-1961") in {normalize(f) for f in forms}
    assert normalize("Mar 14, 1961") in {normalize(f) for f in date_renderings("03/14/1961")}


def test_name_parts_and_variants():
    assert name_parts("DOE^JOHN^Q") == ["DOE", "JOHN", "Q"]
    assert name_parts("Doe, John") == ["Doe", "John"]
    v = name_variants("DOE^JOHN^Q")
    assert v[0] == "DOE^JOHN^Q"
    assert "JOHN Q DOE" in v and "JOHN DOE" in v and "DOE JOHN" in v
    assert "Doe John" in name_variants("John Doe")
    assert name_variants("Madonna") == ("Madonna",)


def test_person_name_fields():
    assert is_person_name_field("patient_name")
    assert is_person_name_field("physician_name")
    assert not is_person_name_field("hospital_name")
    assert not is_person_name_field("mrn")
