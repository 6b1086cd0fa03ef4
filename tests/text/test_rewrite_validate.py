"""The L3 validator and the safe fallback (no LLM involved)."""

import pytest

from clinx.records import Manifest
from clinx.text.rewrite.validate import identifying_tokens, manifest_token_hits, safe_fallback, validate_rewrite

REF = "Is there a pneumothorax in the left lung of [NAME] on this chest x-ray?"
MAN = Manifest({"patient_name": "Zebulon Quackenbush", "mrn": "4471923", "hospital_name": "St. Mary General Hospital"})


def test_accepts_a_clean_rewrite_that_keeps_the_clinical_content():
    v = validate_rewrite("Is there a pneumothorax in the left lung on this chest x-ray?", REF, MAN)
    assert v.ok and v.reasons == () and v.retention == 1.0


@pytest.mark.parametrize(
    "cand, reason",
    [
        ("", "empty"),
        ("  ?? ", "empty"),
        ("Is there an effusion in the left lung on this chest x-ray?", "clinical_terms_missing"),
        ("Where is the pneumothorax in the left lung on this chest x-ray?", "question_form_changed"),
        ("Is there a pneumothorax in the left lung of Zebulon Quackenbush on this chest x-ray?", "rescan_hits"),
        ("Is there a pneumothorax in the left lung of zebulon on this chest x-ray?", "manifest_token"),
        ("Is there a pneumothorax in the left lung on this chest x-ray from 2019?", "new_digits"),
        ("Is there a pneumothorax in the left lung on this chest x-ray? " + "Please answer carefully. " * 20, "too_long"),
        ("Is there a pneumothorax in the left lung and liver on this chest x-ray?", "clinical_terms_added"),
    ],
)
def test_rejects_with_a_reason(cand, reason):
    v = validate_rewrite(cand, REF, MAN)
    assert not v.ok and reason in v.reasons


def test_notes_are_log_safe():
    v = validate_rewrite("Is there a pneumothorax in the left lung of Zebulon on this chest x-ray?", REF, MAN)
    assert "Zebulon" not in repr(v.to_notes()) and "4471923" not in repr(v.to_notes())


def test_identifying_tokens_skip_generic_and_short_words():
    toks = identifying_tokens(MAN)
    assert {"zebulon", "quackenbush", "4471923", "mary"} <= set(toks)
    assert not {"st", "general", "hospital"} & set(toks)
    hits = manifest_token_hits("seen by ZEBULON at 4471923", MAN)
    assert [h.category for h in hits] == ["NAME", "MRN"]


def test_fallback_is_the_l2_text_when_clean():
    res = safe_fallback(REF, MAN)
    assert res.text == REF and res.removed == [] and res.notes["fallback_masked"] == 0


def test_fallback_masks_what_l2_let_through():
    l2 = "Is there a pneumothorax in the left lung of zebulon (record 4471923)?"
    res = safe_fallback(l2, MAN)
    assert "zebulon" not in res.text.lower() and "4471923" not in res.text
    assert "pneumothorax in the left lung" in res.text and res.notes["fallback_masked"] >= 2
    for s in res.removed:  # audit offsets index the L2 text
        assert l2[s.start:s.end].lower() in {"zebulon", "4471923", "record 4471923"}


def test_added_clinical_terms_can_be_allowed_explicitly():
    cand = "Is there a pneumothorax in the left lung and liver on this chest x-ray?"
    assert validate_rewrite(cand, REF, MAN, allow_added=True).ok


def test_a_rewrite_that_invents_an_organ_is_rejected():
    v = validate_rewrite("Is there a lesion on the liver?", "Is there a lesion?", None)
    assert not v.ok and "clinical_terms_added" in v.reasons
