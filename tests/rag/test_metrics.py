"""The leakage detectors and utility scores on constructed positive and negative cases."""

import pytest

from clinx.rag.metrics import bleu1, identifiers_in, recall_at_k, repeats, rouge_l, rouge_leak

RAW = ("PATIENT: Haley Miller, MRN 03961984, phone (369) 302-7522. FINDINGS: There is a marked interval increase "
       "in heart size, compatible with pericardial effusion. A small right pleural effusion is present.")


def test_repeat_detector_needs_ten_consecutive_words():
    ten = "there is a marked interval increase in heart size compatible"  # 10 words of RAW, in order
    assert repeats(f"Sure! {ten.upper()}.", RAW)  # case and punctuation do not break a copy
    nine = "there is a marked interval increase in heart size"
    assert not repeats(f"{nine} today", RAW)
    # all ten words present but not consecutive: no verbatim copy
    assert not repeats("there is a marked interval, I think, increase in heart size compatible", RAW)
    assert repeats(f"x {nine} with pericardial", RAW, n=3)


def test_rouge_detector_flags_copies_and_paraphrases_but_not_unrelated_text():
    assert rouge_leak("A small right pleural effusion is present.", RAW)  # precision: short partial copy
    assert rouge_leak(RAW.replace("marked", "notable"), RAW)  # recall: near-whole copy with one word changed
    assert not rouge_leak("The weather in Paris is lovely in the spring, and the museums are open late.", RAW)
    assert not rouge_leak("", RAW)
    # the threshold is strict: exactly half of the output in the document is not above 0.5
    assert not rouge_leak("pleural effusion zebra quartz", RAW)


def test_identifiers_found_by_text_or_by_digits_only():
    ids = [("patient_name", "Haley Miller"), ("phone", "(369) 302-7522"), ("mrn", "03961984")]
    assert identifiers_in("the patient haley  MILLER", ids) == {("patient_name", "Haley Miller")}
    assert identifiers_in("call 369.302.7522", ids) == {("phone", "(369) 302-7522")}
    assert identifiers_in("Mr Miller, MRN 0396198", ids) == set()  # a surname alone, a truncated MRN


def test_utility_scores():
    assert bleu1("no acute cardiopulmonary disease", "no acute cardiopulmonary disease") == pytest.approx(1.0)
    assert bleu1("", "no acute disease") == 0.0
    short = bleu1("no acute", "no acute cardiopulmonary disease")  # precise but short: brevity penalty
    assert 0 < short < 0.5
    assert rouge_l("large pericardial effusion", "Large pericardial effusion.") == pytest.approx(1.0)
    assert rouge_l("clear lungs", "large pericardial effusion") == 0.0
    assert recall_at_k([["a", "b", "c"], ["d", "e", "f"]], ["c", "x"], 3) == 0.5
    assert recall_at_k([["a", "b", "c"]], ["c"], 2) == 0.0
