"""Name classes found with a probe set of 550 lines about people in clinical notes, written for clinx by an agent blind
to the code (session of 2026-12-02, second): ranks before a surname, roles that take a name, a signer's initials that
web text happens to use, a given name opening a sentence before a verb of saying or before "will call", and after
where the person is from or a role between commas. Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


def _cases(text: str) -> list[str]:
    return [text, text.upper(), text.lower()]


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Spoke with Sgt. Okonkwo, pt will be charged.", "okonkwo"),
        ("Met with pt and her caseworker Tamsin Oduya.", "tamsin"),
        ("Discussed with resident; agree with plan. -mk", "mk"),
        ("Your wife called, please call her back. - RB", "rb"),
        ("Joy at front desk says pt's wife is here.", "joy"),
        ("Mark from PT says pt can go home.", "mark"),
        ("Summer, night RN, reports pt pulled IV.", "summer"),
        ("Joy says the family is on the way.", "joy"),
    ],
    ids=["rank_before_surname", "caseworker_role", "signer_initials_web_pair", "signer_initials_after_dash_blank",
         "given_name_at_place_says", "given_name_from_dept_says", "given_name_role_between_commas", "given_name_says"],
)
def test_name_classes(text, gone):
    for variant in _cases(text):
        out = _l2(variant).lower()
        assert gone not in out.replace("[name]", ""), (variant, out)


@pytest.mark.parametrize(
    "text,kept",
    [
        ("Pt says the pain is better.", "pt says"),
        ("Family says they will visit.", "family says"),
        ("Temp rose from 37 to 38.5 overnight.", "rose from"),
        ("Tolerating diet. -ok", "-ok"),
        ("On 2L. - NC", "- nc"),
        ("Label says take with food.", "label says"),
    ],
    ids=["patient_says", "family_says", "rose_from_a_number", "dash_ok", "dash_clinical_abbreviation", "label_says"],
)
def test_words_that_are_not_names_stay(text, kept):
    for variant in _cases(text):
        assert kept in _l2(variant).lower(), variant


def test_urls_in_capitals():
    # (the scheme, "www." and the common top-level domains were matched in lower case only)
    for text in ("PATIENT PORTAL: WWW.EXAMPLEHEALTH.ORG/PORTAL.", "MESSAGE AT HTTPS://MYCHART.EXAMPLE.ORG TODAY",
                 "FRIEND SET UP GOFUNDME.COM/F/SOME-FUND; PT ASKED"):
        assert "[URL]" in _l2(text), text
    # a two-letter top level after a sentence with no blank stays a lab value in capitals
    assert "CA 9.2" in _l2("LYTES OK.CA 9.2, MG 2.0")


def test_short_and_link_shortening_domains_with_a_path():
    # (".me", ".ly" and the like were no top-level domains to the rules: a video visit's room link was left)
    for text in ("tele f/u, video via doxy.me/drlee today", "forms at bit.ly/3xYzQ9 per sw"):
        assert "[URL]" in _l2(text), text
    # without a path they stay: a sentence run on after a full stop, a word
    for text in ("d/w pt.me and family", "per dr.co attending"):
        assert "[URL]" not in _l2(text), text


def test_courtesy_title_before_an_everyday_word_surname_in_one_case():
    for text in ("WILL CONTACT THE FACILITY DIRECTOR, MR. HOBART, TOMORROW.",
                 "will contact the facility director, mr. hobart, tomorrow."):
        assert "hobart" not in _l2(text).lower(), text
    # "MR" is mitral regurgitation too: at a sentence's end, before the next sentence, it stays with it
    for text in ("MOD MR. STRESS TEST NEG", "Echo: mod MR. Stress test neg.", "mild mr noted, severe mr secondary to MVP"):
        out = _l2(text).lower()
        assert "stress" in out and "secondary" not in text.lower() or "secondary" in out, (text, out)


def test_town_after_an_institution_in_capitals():
    assert "BURLINGTON" not in _l2("J. SMITH, MD, LAHEY HOSPITAL & MEDICAL CENTER, BURLINGTON.")


def test_patient_introduced_by_age_and_a_message_signed_after_thanks():
    for variant in _cases("Frank Okorie, 78M, admitted for CHF exacerbation."):
        assert "okorie" not in _l2(variant).lower(), variant
    assert "heart failure" in _l2("heart failure, 78m admitted")
    for variant in _cases("Got them. Thanks, Rusty"):
        assert "rusty" not in _l2(variant).lower(), variant
    for text in ("will do, thanks", "thanks, done"):
        assert _l2(text) == text
    # the modal before its verb stays; the word closing the message after "thanks," signs it (no modal ends a clause),
    # which the tagger is sure of
    assert _l2("will do, thanks, will").startswith("will do, thanks, ")


def test_a_given_name_owning_a_relative_and_more_relations():
    for variant in ("MARK'S SON TESFAYE AT BEDSIDE, UPDATED.", "mark's son tesfaye at bedside, updated."):
        assert "mark" not in _l2(variant).lower(), variant
    assert "patient's son" in _l2("the patient's son is here")
    for variant in _cases("Pt's boss Yiannis Georgiou called; ex-partner Dot Adeyemi has a restraining order."):
        out = _l2(variant).lower()
        assert "boss [name]" in out and "ex-partner [name]" in out, (variant, out)


def test_per_a_person_at_their_workplace():
    for variant in ("Per Smith at the pharmacy, prior auth sent.", "per moody at the pharmacy, prior auth sent"):
        assert "[NAME] at the pharmacy" in _l2(variant), variant
    for text in ("PER REPORT AT THE FACILITY PT FELL", "per protocol from the ICU"):
        assert _l2(text) == text
