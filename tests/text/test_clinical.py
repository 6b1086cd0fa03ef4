"""Clinical content checks used by the L3 validator and the retention metric."""

import pytest

from clinx.text.clinical import check_clinical, clinical_terms, question_form, term_retention


@pytest.mark.parametrize(
    "text,form",
    [
        ("Is the left lung clear?", "yesno"),
        ("Are there nodules?", "yesno"),
        ("Does [NAME]'s CT show a mass?", "yesno"),
        ("Is this a CT or an MRI?", "choice"),
        ("What organ is shown?", "wh"),
        ("In this image, where is the lesion?", "wh"),
        ("Patient [NAME] (MRN [MRN]): is the heart enlarged?", "yesno"),
        ("Name the imaging plane.", "imperative"),
        ("The lungs are clear.", "statement"),
        ("", "statement"),
    ],
    ids=["yesno_is", "yesno_are", "yesno_does", "choice", "wh", "wh_after_frame", "yesno_after_header", "imperative", "statement", "empty"],
)
def test_question_form(text, form):
    assert question_form(text) == form


def test_terms_and_retention():
    t = clinical_terms("Is there a pleural effusion in the left lung on the chest x-ray? Two nodules.")
    assert {"pleural effusion", "left lung", "lung", "effusion", "nodule", "chest x-ray"} <= t
    assert term_retention("Is the left lung clear?", "Is [NAME]'s left lung clear?") == 1.0
    assert term_retention("Is the left lung clear?", "Is it clear?") < 1.0
    assert term_retention("Hello there", "anything") == 1.0


def test_check_clinical():
    ok = check_clinical("Is the left lung clear?", "Is the left lung clear in this patient?")
    assert ok.ok and ok.missing == ()
    lost = check_clinical("Is the left lung clear?", "What is shown?")
    assert not lost.ok and "left lung" in lost.missing and lost.form_after == "wh"
    added = check_clinical("Is the left lung clear?", "Is the left lung clear on this CT?")
    assert added.ok and added.added == ("ct",)
    assert not check_clinical("Is the left lung clear?", "Is the left lung clear on this CT?", allow_added=False).ok
    with pytest.raises(TypeError):
        question_form(None)


@pytest.mark.parametrize(
    "text,form",
    [
        ("What imaging modality was used for Dr. [NAME]'s patient?", "wh"),
        ("What imaging modality was used for [NAME]'s patient?", "wh"),
        ("Was Mr. [NAME] imaged with CT?", "yesno"),
        ("Does Mrs. [NAME]'s x-ray show a fracture?", "yesno"),
        ("Is Ms. [NAME]'s left lung clear?", "yesno"),
        ("Was the scan done at St. [HOSPITAL] or at home?", "choice"),
        ("Which organ, e.g. liver or spleen, is enlarged?", "wh"),
        ("Is there a mass, i.e. a lesion over 3 cm?", "yesno"),
        ("Which is shown here, CT vs. MRI?", "wh"),
        ("Report No. 5: is the heart enlarged?", "yesno"),
        ("Is the 2.5 cm nodule calcified?", "yesno"),
        ("Where is the lesion seen by J. [NAME]?", "wh"),
        ("The lungs are clear. Is there an effusion?", "yesno"),
        ("Name the organ. What is abnormal?", "wh"),
        ("No. Is the heart enlarged?", "yesno"),
    ],
    ids=[
        "dr", "dr_dropped", "mr", "mrs", "ms", "st", "eg", "ie", "vs", "no_number", "decimal", "initial",
        "sentence_then_question", "imperative_then_wh", "no_answer",
    ],
)
def test_question_form_abbreviations(text, form):
    assert question_form(text) == form


def test_rewrite_dropping_title_keeps_question_form():
    # the L3 validator must not reject a rewrite that only drops "Dr." before a placeholder
    before = "What imaging modality was used for Dr. [NAME]'s patient?"
    after = "What imaging modality was used for [NAME]'s patient?"
    res = check_clinical(before, after)
    assert res.form_before == res.form_after == "wh"
    assert res.ok
