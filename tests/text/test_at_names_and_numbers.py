"""Forms the tune notes zl-zn (vascular and wound care, transplant and genetics, pharmacy and billing) exposed: the
rest of an institution's "X at Y" name, a patients' organisation named by its disease, a hospital's in-house number
standing alone or after "x ", a prescription's number, an identifier with a short prefix in capitals, and the
credentials of pharmacists, podiatrists, hyperbaric and records staff after a signer's name. Each test pins one rule
and a sentence it must leave alone. Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


# ---------------------------------------------------------------- "X at Y" names


@pytest.mark.parametrize(
    "text,values",
    [
        ("To: B. Oduya, DON, The Willows at Bayshore   Fax 904-555-0196", ["Willows", "Bayshore"]),
        ("Ordering provider: N. Hill, NP, Wound Care Center at Providence Park, NPI 1588392044", ["Wound Care", "Providence"]),
        ("- pt lives Menlo Park, prior d/c home w/ Sutter Care at Home", ["Sutter", "at Home"]),
        ("pt ok w/ short stay at the admiral at the lake if covered", ["the admiral", "lake"]),
    ],
    ids=["the_word_at_place", "centre_at_place", "care_at_home", "lower_case_article"],
)
def test_the_whole_of_an_at_name_is_removed(text, values):
    out = _l2(text)
    assert not [v for v in values if v in out]


@pytest.mark.parametrize(
    "text,kept",
    [
        ("The patient at MGH was seen by cardiology.", "The patient at"),
        ("THE NURSE AT BAYSTATE CALLED BACK.", "THE NURSE AT"),
        ("pt wants to recover at home w/ vna.", "recover at home"),
    ],
    ids=["person_at_hospital", "role_at_hospital_caps", "recovery_at_home"],
)
def test_words_before_at_that_name_no_institution_are_kept(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- patients' organisations


@pytest.mark.parametrize(
    "text,value",
    [
        ("Research: Undiagnosed Diseases Network application submitted 1/30.", "Undiagnosed"),
        ("PT ALSO APPLYING TO OXALOSIS & HYPEROXALURIA FOUNDATION FOR TRAVEL GRANT.", "HYPEROXALURIA"),
    ],
    ids=["mixed_network", "caps_foundation"],
)
def test_a_patients_organisation_named_by_its_disease_is_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text",
    ["Per Endocrine Society guidelines, start levothyroxine.", "fever in association with rash."],
    ids=["society_guidelines", "lower_case_association"],
)
def test_a_societys_grading_or_a_phrase_is_kept(text):
    assert _l2(text) == text


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "text,value",
    [
        ("b. kato lcsw, x 4-8812", "4-8812"),
        ("CONTINGENCY: IF MAP<60 CALL FELLOW GRACE AT 4-2290.", "4-2290"),
        ("Rx: lisinopril 20 mg, #90, Rx 4471120-05, last filled 04/20", "4471120"),
        ("pt: W. Chou 61F, mrn HC 229 4810, oncology", "229"),
    ],
    ids=["extension_after_x_and_blank", "bare_in_house_number", "prescription_number", "prefixed_mrn"],
)
def test_numbers_in_their_own_forms_are_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("repeat x 2-3 days, then x 4 days", "x 2-3 days, then x 4 days"),
        ("heparin 1-1000 units per protocol", "1-1000 units"),
        ("rx 2 wks of amoxicillin", "rx 2 wks"),
        ("MEDICAID ID 100293847561 verified", "MEDICAID ID"),
    ],
    ids=["counts_after_x", "range_of_units", "rx_duration", "label_before_value"],
)
def test_counts_ranges_and_labels_are_kept(text, kept):
    assert kept in _l2(text)


# ---------------------------------------------------------------- credentials


@pytest.mark.parametrize(
    "text,credential",
    [
        ("tech: K. Young, CHT   phys: D. Abramowitz MD", "CHT"),
        ("RTC 1 WK FOR CAST CHANGE.\nA. RAMIREZ, DPM", "DPM"),
        ("Pharmacist: Kevin Duong, RPh", "RPh"),
        ("PROCESSED BY SHAUNA MCALLISTER, RHIT", "RHIT"),
    ],
    ids=["hyperbaric_technologist", "podiatrist_caps", "pharmacist", "records_technician"],
)
def test_a_credential_after_a_name_is_kept_and_the_name_removed(text, credential):
    out = _l2(text)
    assert credential in out and "[NAME]" in out


# ---------------------------------------------------------------- towns after institutions


@pytest.mark.parametrize(
    "text,value",
    [
        ("LIAISON PSYCHIATRY REVIEW - RAIGMORE HOSPITAL, INVERNESS\nPATIENT: C. MACLEOD", "INVERNESS"),
        ("tpa given at st. luke's (bethlehem) prior to transfer", "bethlehem"),
        ("father dominic (st. olaf lutheran, duluth). staff: dr mwangi", "duluth"),
    ],
    ids=["word_town_caps_after_hospital", "town_in_parentheses", "town_after_church_and_comma"],
)
def test_the_town_after_an_institution_is_removed(text, value):
    assert value not in _l2(text)


@pytest.mark.parametrize(
    "text,kept",
    [("seen at MGH, normal exam.", "normal exam"), ("d/c from baystate, home w/ vna.", "home w/ vna")],
    ids=["word_town_as_word", "care_word_after_hospital"],
)
def test_words_after_an_institution_that_are_no_town_are_kept(text, kept):
    assert kept in _l2(text)
