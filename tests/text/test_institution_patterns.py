"""Institutions named by a fixed pattern (:mod:`clinx.text.institution_patterns`): "Our Lady of ...", numbered posts
and union locals, schools named by their level after a school cue; and the words those patterns must leave alone.
Values are invented; test ids name the form, never a value.
"""

import re

import pytest

from clinx.text.base import Candidate
from clinx.text.institution_patterns import (
    find_acronym_hospitals,
    find_acronym_pairs,
    find_patterned_institutions,
    find_system_short_forms,
    find_unknown_referral_names,
)
from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


@pytest.mark.parametrize(
    "text,name",
    [
        ("Member of Our Lady of Peace since childhood.", "Our Lady of Peace"),
        ("PT GOES TO OUR LADY OF THE LAKE FOR DIALYSIS", "OUR LADY OF THE LAKE"),
        ("works as electrician for ibew local 7, on leave", "ibew local 7"),
        ("Member of VFW Post 8914, goes Fridays.", "VFW Post 8914"),
        ("pt is a sophomore at Brookfield High, plays football.", "Brookfield High"),
        ("son attends westfield middle and has an IEP", "westfield middle"),
    ],
    ids=["our_lady_mixed", "our_lady_of_the_caps", "union_local_lower", "veterans_post", "school_high_after_cue",
         "school_middle_lower"],
)
def test_patterned_institutions_are_found(text, name):
    assert [text[c.start:c.end] for c in find_patterned_institutions(text)] == [name]
    for variant in (text, text.upper(), text.lower()):
        assert name.lower() not in _l2(variant).lower(), variant


@pytest.mark.parametrize(
    "text",
    [
        "sugars at times high, bp at goal",
        "attends public high school",
        "she attends the high school dances",
        "post op day 2, post 3 days",
        "son in troop of the scouts",
    ],
    ids=["high_without_school_cue", "kind_of_school", "determiner_before_level", "post_op", "troop_without_number"],
)
def test_words_like_the_patterns_are_kept(text):
    assert find_patterned_institutions(text) == []


def test_an_acronym_and_its_name_go_together_with_its_other_mentions():
    text = "Meals through ECOA (Eastfield Council on Aging) - daughter will call ECOA."
    got = sorted(text[c.start:c.end] for c in find_acronym_pairs(text))
    assert got == ["ECOA", "ECOA", "ECOA", "Eastfield Council on Aging"]
    text = "called new england center and home for veterans (nechv), nechv has 1 bed"
    got = {text[c.start:c.end] for c in find_acronym_pairs(text)}
    assert got == {"new england center and home for veterans", "nechv"}


@pytest.mark.parametrize(
    "text",
    [
        "hx CHF (congestive heart failure) and COPD (chronic obstructive pulmonary disease)",
        "started on TPN (total parenteral nutrition) via PICC",
        "DESC (Downtown Emergency Care) called",  # the initials must spell the acronym
        "DIRECTLY OBSERVED THERAPY (DOT) NOTE",  # a kind of care closed by a head word
    ],
    ids=["clinical_expansions", "clinical_expansion_lower", "initials_do_not_spell", "kind_of_care_with_head"],
)
def test_clinical_expansions_are_no_institution(text):
    assert find_acronym_pairs(text) == []


@pytest.mark.parametrize(
    "text,name",
    [
        ("wife works nights at mercy as cna, 2 kids", "mercy"),
        ("was seen at kaiser in fresno, told gallbladder", "kaiser"),
        ("SVD AT REGIONS) PRESENTING WITH FEVER", "REGIONS"),
        ("PT AND WIFE AGREEABLE TO ENCOMPASS. PT IS EMPLOYED", "ENCOMPASS"),
        ("referred from mercy after admit for cellulitis LLE", "mercy"),
    ],
    ids=["venue_then_function_word", "venue_then_town", "venue_then_parenthesis", "transfer_then_sentence_end",
         "lower_note_with_abbreviations"],
)
def test_system_short_forms_after_a_cue(text, name):
    assert [text[c.start:c.end] for c in find_system_short_forms(text)] == [name]


@pytest.mark.parametrize(
    "text",
    [
        "she was at the mercy of her husband",
        "we will continue to advocate for her",
        "hypodense regions of the liver",
        "Seen by Dr. Lee at mercy of God, per Pastor.",
        "at mercy rule territory",
    ],
    ids=["determiner", "verb_after_to", "no_cue", "lower_in_capitalising_sentence", "noun_after"],
)
def test_short_form_words_are_kept(text):
    assert find_system_short_forms(text) == []


def test_transfer_form_facilities_are_fields():
    out = _l2("SENDING FACILITY: PINE RIDGE NURSING & REHABILITATION CENTER  PHONE 417-555-0100\n"
              "Receiving facility: skilled nursing facility")
    assert "PINE RIDGE" not in out and "skilled nursing facility" in out


@pytest.mark.parametrize(
    "text,name",
    [
        ("referral faxed to steppingstone for outpt substance use f/u", "steppingstone"),
        ("maintained on buprenorphine through dccca in lawrence", "dccca"),
        ("ATTENDS KINDERCARE ON MAIN ST, SEVERAL KIDS OUT SICK", "KINDERCARE"),
        ("pharmacy fruth on 5th ave", "fruth"),
        ("hospice brelvane to admit tomorrow", "brelvane"),
    ],
    ids=["referral_lower", "through_acronym_lower", "attends_caps", "kind_of_place_before_name", "hospice_before_name"],
)
def test_unknown_names_after_referral_cues(text, name):
    assert [text[c.start:c.end] for c in find_unknown_referral_names(text)] == [name]


@pytest.mark.parametrize(
    "text",
    [
        "referred to pulmonolgy for pfts",  # built like a clinical word
        "Referral faxed to Steppingstone for f/u",  # mixed case: the capitalisation rules decide
        "INR DRAWN TODAY VIA FINGERSTICK 2.6",  # not a cue here
        "referred to steppingstone program",  # a noun follows
        "pharmacy reccomends dose change",  # a misspelt verb: a noun follows
    ],
    ids=["clinical_ending", "mixed_case_line", "via_is_no_cue", "noun_after", "misspelling_before_noun"],
)
def test_unknown_words_that_name_no_referral_place(text):
    assert find_unknown_referral_names(text) == []


@pytest.mark.parametrize(
    "text,found",
    [
        ("seen at MDI Hospital and transferred here", ["MDI Hospital"]),
        ("SEEN AT MDI HOSPITAL AND TRANSFERRED HERE", ["MDI HOSPITAL"]),
        ("TRANSFER TO ICU HOSPITAL BED", []),
        ("PT HAS HOSPITAL BED, MDI HOSPITAL SUPPLY", []),  # in capitals only after a venue cue
    ],
    ids=["mixed_case", "caps_after_cue", "unit_letters", "caps_without_cue"],
)
def test_an_acronym_before_a_hospitals_head(text, found):
    assert [text[c.start:c.end] for c in find_acronym_hospitals(text)] == found


def test_a_company_after_a_cue_is_an_employer():
    assert "PAPER COMPANY" not in _l2("LAID OFF FROM BERKSHIRE PAPER COMPANY IN 2019")
    assert "trucking company" in _l2("works for a trucking company")


@pytest.mark.parametrize(
    "text,gone,kept",
    [
        ("Referrals sent to: Maple Rehab, Cedar Mountain, Lutheran Home", ["Cedar Mountain", "Lutheran Home"], "Referrals"),
        ("discussed options: adcare, the meadows, spectrum. pt went", ["meadows"], "the "),
        ("transferred to mgh, discharged home later", [], "discharged home"),
        ("seen at bmc, daughter at bedside", [], "daughter at bedside"),
        ("htn at mgh, cont", [], "cont"),
        ("Family moved from Topeka, KS to town", [], "to town"),  # (the state goes with its town: text.l1.states)
    ],
    ids=["mixed_case_list", "one_case_list_with_article", "verb_after_comma", "relation_after_comma", "common_word",
         "state_code"],
)
def test_other_items_of_a_list_of_institutions(text, gone, kept):
    out = _l2(text)
    assert all(g not in out for g in gone) and kept in out, out


@pytest.mark.parametrize(
    "text,left",
    [("PT WORKS NIGHTS AT KESSLER'S (WAREHOUSE), WAS WORKING OUT", "'S"), ("fall @ Rosie's (diner), 88 Canal St", "'s"),
     ("has coffee at abu sami's w/ his friends", "'s")],
    ids=["kind_in_parentheses", "at_sign", "word_after"],
)
def test_a_business_named_by_its_owners_possessive_goes_with_the_possessive(text, left):
    from clinx.text.pipeline import deidentify

    assert left not in deidentify(text, "L2").text


def test_the_possessive_before_a_noun_it_owns_is_no_business():
    from clinx.text.institutions import possessive_businesses

    text = "slept at [NAME]'s house; works at [NAME]'s (bakery)"
    cands = [Candidate(m.start(), m.end(), "NAME", "placeholder", 1.0) for m in re.finditer(r"\[NAME\]", text)]
    assert [text[c.start : c.end] for c in possessive_businesses(text, cands)] == ["[NAME]'s"]
    assert possessive_businesses(text, cands)[0].start == text.index("[NAME]'s (")
