"""Forms of the tune notes written on 2026-12-07 for the thirty-fifth session (obstetrics, oncology, cardiology, social
work, sports medicine, street medicine, public health, recovery): a signer's letters on the note's last line, a person
called Will before "to" and a verb, laboratories' and agencies' case numbers of letter and digit groups, and the
scores and birth-plan words that are no identifier. Values are invented; test ids name the form, never a value.
"""

import pytest

from clinx.text.pipeline import deidentify


def _l2(text: str) -> str:
    return deidentify(text, "L2").text


@pytest.mark.parametrize(
    "text,expected",
    [
        ("f/u 4wk, labs 2wk.\n-ps\n", "f/u 4wk, labs 2wk.\n-[NAME]\n"),
        ("code: full (confirmed 8/2)\nMKB / pgr 4418", "code: full (confirmed [DATE])\n[NAME] / pgr [PHONE]"),
        ("f/u endo clinic 2wk\n-sk/ endo fellow", "f/u endo clinic 2wk\n-[NAME]/ endo fellow"),
        ("shelter guest # on file.\n-nb / tc", "shelter guest # on file.\n-[NAME] / [NAME]"),
    ],
    ids=["dash_alone", "letters_slash_pager", "dash_slash_role", "dash_pair"],
)
def test_letters_opening_the_last_line_sign_the_note(text, expected):
    assert _l2(text) == expected


@pytest.mark.parametrize(
    "text",
    ["Assessment\nstable.\n- OA\n- DM", "recs:\nPT/OT", "plan ok.\n-ps\nrtc 2 wk", "Resp:\n- NC",
     "home set-up:\nBR/BATH ON 1ST FLOOR"],
    ids=["last_bullet_of_a_list", "disciplines", "not_the_last_line", "clinical_abbreviation", "words_after_the_slash"],
)
def test_a_list_a_discipline_or_an_inner_line_is_no_closing_signature(text):
    out = _l2(text)
    assert "[NAME]" not in out
    if text.startswith("plan ok."):
        assert "-ps" in out  # the closing record reads only the note's last line


@pytest.mark.parametrize(
    "text,expected",
    [
        ("f/u: will to check on him at clinic.", "f/u: [NAME] to check on him at clinic."),
        ("Return next week same place; Will to check in daily.", "Return next week same place; [NAME] to check in daily."),
        ("- Will to call back re: housing", "- [NAME] to call back re: housing"),
    ],
    ids=["after_a_label", "after_a_semicolon", "after_a_bullet"],
)
def test_will_before_to_and_a_verb_is_a_person(text, expected):
    assert _l2(text) == expected


@pytest.mark.parametrize(
    "text",
    ["pt has the will to live, engaged in care", "We will check labs in am.", "pt will to call if worse"],
    ids=["the_will_to_live", "modal_before_a_verb", "not_opening_a_sentence"],
)
def test_will_as_a_noun_or_a_modal_stays(text):
    assert _l2(text) == text


@pytest.mark.parametrize(
    "text,expected",
    [
        ("cluster NPHL-21-COV-0442 (4 isolates)", "cluster [ID] (4 isolates)"),
        ("STATE LAB SPECIMEN SLD-R-24-0611 SENT.", "STATE LAB SPECIMEN [ID] SENT."),
        ("Health card 4417-228-913-KT on file", "Health card [ID] on file"),
    ],
    ids=["letters_digits_letters_digits", "letters_letter_digits", "digits_then_letters"],
)
def test_case_numbers_of_letter_and_digit_groups_are_identifiers(text, expected):
    assert _l2(text) == expected


@pytest.mark.parametrize(
    "text",
    ["SARS-CoV-2 PCR negative", "ICD-10-CM codes reviewed", "HLA-B-27 negative"],
    ids=["virus_name", "code_system", "few_digits"],
)
def test_hyphenated_terms_with_few_digits_stay(text):
    assert _l2(text) == text


@pytest.mark.parametrize(
    "text,kept",
    [
        ("no use x 2 wks, cravings 3/10. uds: bup+", "3/10"),
        ("S: MOOD 4/10. GRIEVING HER SISTER", "4/10"),
        ("NST reactive. BPP 8/8 (AFI 12.4 cm).", "8/8"),
        ("distress thermometer 7/10, referral to social work", "7/10"),
        ("Discussed TOLAC vs ERCS; patient elects VBAC.", "TOLAC"),
    ],
    ids=["cravings_score", "mood_score", "biophysical_profile", "distress_thermometer", "birth_plan_words"],
)
def test_scores_and_birth_plan_words_stay(text, kept):
    assert kept in _l2(text)


def test_a_simulation_day_keeps_its_word_and_loses_its_date():
    assert _l2("sim 9/12, start 9/22.") == "sim [DATE], start [DATE]."


@pytest.mark.parametrize(
    "text,expected",
    [
        ("dressing changes mwf by visiting nurse will santos", "dressing changes mwf by visiting nurse [NAME]"),
        ("REPORT FROM RN WILL FERNANDES AT 0700", "REPORT FROM RN [NAME] AT 0700"),
    ],
    ids=["lower_case", "capitals"],
)
def test_will_before_a_surname_is_a_given_name(text, expected):
    assert _l2(text) == expected


@pytest.mark.parametrize("text", ["pt will ambulate in hall tid", "pt will call back if worse", "family will bell"],
                         ids=["verb", "common_verb", "common_word"])
def test_will_before_a_verb_or_a_common_word_stays(text):
    assert _l2(text) == text


def test_a_surname_that_is_an_abbreviation_closes_a_name_before_a_blank_credential():
    out = _l2("dos: 3/14/24  provider: dr. hollis ng dds  asst: none")
    assert " ng " not in out and out.endswith("dds  asst: none")


@pytest.mark.parametrize(
    "text,expected",
    [
        ('pt says "I have had 95 good years."', 'pt says "I have had [AGE] good years."'),
        ("would like to make 100 in her own kitchen", "would like to make [AGE] in her own kitchen"),
        ("lives w/ grandmother rosario villalobos (93) and uncle.", "lives w/ grandmother [NAME] ([AGE]) and uncle."),
        ("MOTHER ROSA PRICE, 97, LIVES W/ SON", "MOTHER [NAME], [AGE], LIVES W/ SON"),
    ],
    ids=["years_lived", "to_make_an_age", "relative_name_then_parenthesis", "relative_full_name_with_word_surname"],
)
def test_ages_over_89_a_life_counts_or_a_relative_carries(text, expected):
    assert _l2(text) == expected


@pytest.mark.parametrize("text", ["sats reached 92 on 2L", "had 95 mg of iron", "to make 90 ml of formula"],
                         ids=["a_reading", "a_dose", "a_volume"])
def test_readings_and_amounts_are_no_ages(text):
    assert _l2(text) == text


@pytest.mark.parametrize(
    "text",
    ["Address: 14 Larch Close, Chesterfield", "LOCATION: CLIENT HOME, 302 SITTING CROW LOOP, FORT YATES",
     "12 Chapel Row, Belper", "lives at 88 elk ridge trail off the county road"],
    ids=["close_british", "loop_in_capitals", "row_british", "trail_lower_case"],
)
def test_houses_on_a_close_a_row_a_loop_or_a_trail_are_places(text):
    out = _l2(text)
    assert not any(word in out.lower() for word in ("larch", "sitting crow", "chapel", "elk ridge")), out


@pytest.mark.parametrize("text", ["#32 roots close to the canal", "3 ROW OF SUTURES PLACED", "loop 2 row 3"],
                         ids=["close_as_near", "row_of_stitches", "knitting_count"])
def test_close_row_and_loop_as_words_stay(text):
    assert _l2(text) == text
