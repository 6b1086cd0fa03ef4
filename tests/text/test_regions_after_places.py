"""A state or a country that closes a removed place's name goes with it (text.l1.states=with_place)."""

import pytest

from clinx.text.base import Candidate
from clinx.text.evidence import check_states, region_after, regions_after_places
from clinx.text.pipeline import deidentify


def _after(text: str, place: str) -> str | None:
    end = text.index(place) + len(place)
    r = region_after(text, end)
    return None if r is None else text[r[0] : r[1]]


@pytest.mark.parametrize(
    "text, place, region",
    [
        ("lives at 12 Elm St, Columbus, OH 43201.", "Columbus", "OH"),
        ("ED Triage - Hondo TX | 2214", "Hondo", "TX"),
        ("son lives in silver spring, md, calls daily", "silver spring", "md"),
        ("rt 3 box 114, hazard ky 41701. trailer", "hazard", "ky"),
        ("returned from Accra, Ghana (June)", "Accra", "Ghana"),
        ("moved from Concord, New Hampshire last year", "Concord", "New Hampshire"),
        ("daughter in Seattle, Washington.", "Seattle", "Washington"),
    ],
    ids=["code-comma-zip", "caps-code-line-end", "lower-code-comma", "lower-code-zip", "country", "two-word-state", "city-named-state"],
)
def test_a_region_closing_a_place_is_found(text, place, region):
    assert _after(text, place) == region


@pytest.mark.parametrize(
    "text, place",
    [
        ("lives in boston, in a shelter", "boston"),  # "in" is Indiana's code, not here
        ("LIVES IN BOSTON OR NEARBY", "BOSTON"),  # a code before a word: a conjunction
        ("lives in boston me and my wife", "boston"),  # lower case, no comma, no ZIP code
        ("returned from Accra Ghana", "Accra"),  # a country's name needs the comma
        ("Springfield, ILEUS noted", "Springfield"),  # a longer word, no code
    ],
    ids=["lower-in-then-word", "caps-or-then-word", "lower-no-comma", "country-no-comma", "longer-word"],
)
def test_no_region_without_its_form(text, place):
    assert _after(text, place) is None


def test_regions_follow_place_candidates_placeholders_and_zip_codes_only():
    text = "Dr Lee, MD saw pt from Salem, OR. [LOCATION], NH. wife at 4 main st, dover nh 03820"
    cands = [
        Candidate(3, 6, "NAME", "t", 0.9),  # "Lee, MD": a credential after a name stays
        Candidate(text.index("Salem"), text.index("Salem") + 5, "LOCATION", "t", 0.9),
        Candidate(text.index("03820"), text.index("03820") + 5, "ZIP", "t", 0.9),
    ]
    got = sorted(text[c.start : c.end] for c in regions_after_places(text, cands))
    assert got == ["NH", "OR", "nh"]
    assert all(c.category == "LOCATION" for c in regions_after_places(text, cands))


def test_states_keep_leaves_every_state_and_bad_settings_fail():
    line = "PT FROM HONDO, TX 78861 VIA EMS"
    assert "TX" not in deidentify(line, "L1").text
    assert "TX" in deidentify(line, "L1", l1={"states": "keep"}).text
    assert "TX" in deidentify(line, "L2", l1={"states": "keep"}).text
    assert check_states("keep") == "keep"
    with pytest.raises(ValueError, match="states must be one of"):
        check_states("drop")


def test_a_state_alone_still_stays():
    assert deidentify("moved here from tennessee in the spring", "L2").text.startswith("moved here from tennessee")
    assert "Ohio" in deidentify("Lives in Ohio with her son.", "L2").text


def test_a_code_no_word_shares_goes_after_a_comma_whatever_follows():
    assert _after("SON CALLED FROM TUCSON, AZ AT 0130", "TUCSON") == "AZ"
    assert _after("adm from the home in plymouth, wi w/ uti", "plymouth") == "wi"
    assert _after("FLYING BACK TO PORTLAND, OR TOMORROW", "PORTLAND") is None  # "or" is a word too
    assert _after("fell at home in salem, nc 2l", "salem") is None  # and "nc" a nasal cannula


def test_states_keep_cuts_the_state_out_of_a_span_that_runs_over_it():
    # the statistical layer may tag a town, its state and its ZIP code as one place: with keep the state stays
    text = "lives at 12 Elm St, Columbus, OH 43201."
    assert deidentify(text, "L2", l1={"states": "keep"}).text == "lives at [LOCATION], OH [ZIP]."
    out = deidentify(text, "L2").text  # (the address as one place or as street, town and ZIP code: both go whole)
    assert out in ("lives at [LOCATION].", "lives at [LOCATION], [LOCATION] [ZIP].")


def _after_town(text: str, place: str) -> str | None:
    end = text.index(place) + len(place)
    r = region_after(text, end, town=True)
    return None if r is None else text[r[0] : r[1]]


@pytest.mark.parametrize(
    "text, place, region",
    [
        ("DAUGHTER CALLED FROM SCRANTON, PA ASKING ABOUT LASIX", "SCRANTON", "PA"),
        ("sister in portland, me 207-555-0139", "portland", "me"),
        ("SON IN GARDEN GROVE, CA UPDATED BY PHONE", "GARDEN GROVE", "CA"),
        ("DISPATCHED TO HOUMA, LA FOR MALE DOWN", "HOUMA", "LA"),
    ],
    ids=["caps-pa-then-word", "lower-me-then-phone", "caps-ca-then-word", "caps-la-then-word"],
)
def test_after_a_town_a_code_a_word_shares_goes_though_a_word_follows(text, place, region):
    assert _after_town(text, place) == region
    assert _after(text, place) is None  # (after an institution, or a name, the word-sharing code still needs its end)


@pytest.mark.parametrize(
    "text, place",
    [
        ("fell at home in salem, nc 2l", "salem"),  # a nasal cannula before its flow
        ("FLYING BACK TO PORTLAND, OR TOMORROW", "PORTLAND"),  # "or" goes on a sentence
        ("lives in boston, in a shelter", "boston"),
        ("moved to Jackson, Ms Reyes to follow", "Jackson"),  # a title in title case
    ],
    ids=["nasal-cannula", "or-word", "in-word", "title-case-title"],
)
def test_after_a_town_the_words_of_a_sentence_stay(text, place):
    assert _after_town(text, place) is None


def test_a_town_that_is_also_a_name_keeps_the_degree_after_it():
    text = "seen by Austin, MD today; family from Scranton, PA asking"
    a, s = text.index("Austin"), text.index("Scranton")
    cands = [Candidate(a, a + 6, "NAME", "t", 0.9), Candidate(a, a + 6, "LOCATION", "t", 0.9),
             Candidate(s, s + 8, "LOCATION", "t", 0.9)]
    assert [text[c.start : c.end] for c in regions_after_places(text, cands)] == ["PA"]
    assert deidentify("DAUGHTER CALLED FROM SCRANTON, PA ASKING ABOUT LASIX", "L2").text == \
        "DAUGHTER CALLED FROM [LOCATION], [LOCATION] ASKING ABOUT LASIX"


# ---------------------------------------------------------------- the street after a business and "on"


@pytest.mark.parametrize(
    "text, street",
    [
        ("to pick up at [HOSPITAL] on broadway today.", "broadway"),
        ("CALLED [HOSPITAL] ON GRAND, REFILLS READY", "GRAND"),
        ("eviction from apt on kedzie. has been staying", "kedzie"),
        ("[HOSPITAL] on memorial dr notified of new rx", "memorial dr"),
        ("the [HOSPITAL] on e 9 mile rd in hazel park", "e 9 mile rd"),
        ("works at [HOSPITAL] on Grand and is a student", "Grand"),
    ],
    ids=["lower-common-street", "caps-common-street", "home-word-unknown-street", "street-word-after-clinical-word",
         "compass-number-street", "mixed-capitalised"],
)
def test_the_street_after_a_business_and_on_is_found(text, street):
    from clinx.text.evidence import streets_after_places

    assert [text[c.start : c.end] for c in streets_after_places(text, [])] == [street]


@pytest.mark.parametrize(
    "text",
    ["called [HOSPITAL] on hold for 20 min", "[HOSPITAL] on call today", "sent to [HOSPITAL] on file.", "[HOSPITAL] on monday",
     "lives on oxygen.", "lives on disability.", "Pt at [HOSPITAL] on arrival.", "[HOSPITAL] on lasix.",
     "lives on the street.", "Pt at [HOSPITAL] on broadway."],
    ids=["hold", "call", "file", "weekday", "clinical-after-home", "everyday-after-home", "arrival", "drug", "article",
         "lower-word-in-mixed-line"],
)
def test_what_follows_on_that_is_no_street_stays(text):
    from clinx.text.evidence import streets_after_places

    assert streets_after_places(text, []) == []


@pytest.mark.parametrize(
    "text, street",
    [("lives broadmoor, off napoleon. married", "napoleon"), ("HOME IS KILLEEN, OFF TRIMMIER. 3 KIDS", "TRIMMIER"),
     ("retired from nabisco on kedzie after 28 yrs", "kedzie"), ("1-story bungalow on archer in brighton park", "archer")],
    ids=["off-after-a-place", "off-after-a-town-in-capitals", "on-before-after", "dwelling-word"],
)
def test_the_street_off_a_place_or_on_a_dwelling_goes_at_l2(text, street):
    assert street not in deidentify(text, "L2").text


@pytest.mark.parametrize("text", ["lives in boston, off meds since may", "second trailer on left. new address"],
                         ids=["off-a-drug", "on-a-side"])
def test_off_a_drug_or_on_a_side_is_no_street(text):
    from clinx.text.evidence import streets_after_places

    assert streets_after_places(text, []) == []


def test_a_pharmacy_and_its_street_go_at_l2():
    out = deidentify("joaquin to pick up at fry's pharmacy on broadway today.", "L2").text
    assert "broadway" not in out and "today" in out


@pytest.mark.parametrize(
    "text, place, region",
    [("Medical Center, Portland, OR Accession: SP-23-0144", "Portland", "OR"), ("Rehab, Durham, NC Pt: M. Hill", "Durham", "NC"),
     ("Health Centre, Toronto ON Date: 2023-09-14", "Toronto", "ON"), ("center, Fontana, CA Date of injury: May 28th", "Fontana", "CA")],
    ids=["word-code-before-field", "code-before-short-field", "province-before-field", "code-before-three-word-field"],
)
def test_a_code_before_a_headers_next_field_on_a_flattened_line_closes_the_place(text, place, region):
    assert _after(text, place) == region


@pytest.mark.parametrize(
    "text, place",
    [("went to boston, in a shelter now", "boston"), ("seen in salem, or at the clinic: ok", "salem"), ("Portland OR 3:00", "Portland")],
    ids=["word-then-words", "word-then-words-before-colon", "word-then-time"],
)
def test_a_word_code_that_a_sentence_goes_on_from_stays(text, place):
    assert _after(text, place) is None


@pytest.mark.parametrize(
    "text",
    ["LOCATION: 4410 COUNTY RD 12, ALBERT LEA, MN", "ROLLOVER ON COUNTY RD 9 APPROX 0.5 MI N", "in barn at 2270 Township Rd 118, Killbuck"],
    ids=["caps-after-house-number", "caps-before-distance", "township-road"],
)
def test_the_number_of_a_county_or_township_road_goes_with_it(text):
    out = deidentify(text, "L2").text
    assert not any(n in out for n in (" 12", " 9 ", " 118")), out


def test_a_dose_or_a_distance_after_a_road_stays():
    assert "5 mi" in deidentify("lives off County Rd 5 mi from town", "L2").text
