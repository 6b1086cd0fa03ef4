"""Utility metrics against hand-computed cases, including the normalisation corner cases."""

import math

import pytest

from clinx.metrics.utility import (aggregate, exact_match, is_yes_no_question, mean_pct, normalize_answer,
                                   paired_difference, score_answer, token_f1, yes_no_em)


@pytest.mark.parametrize(
    "raw, norm",
    [
        ("Yes.", "yes"),
        ("  YES!! ", "yes"),
        ("two", "2"),
        ("Two lesions", "2 lesions"),
        ("the left lung", "left lung"),
        ("An MRI", "mri"),
        ("T2-weighted", "t2 weighted"),
        ("0.5 cm", "0.5 cm"),
        ("patient's", "patients"),
        ("none", "0"),
        ("", ""),
        (None, ""),
        ("x_ray", "x ray"),
    ],
)
def test_normalize_answer(raw, norm):
    assert normalize_answer(raw) == norm


def test_exact_match_is_true_equality_after_normalisation():
    assert exact_match("Yes.", "yes") == 1.0
    assert exact_match("two", "2") == 1.0
    assert exact_match("the left lung", "left lung") == 1.0
    # Word overlap is not a match: "left lung" contains "lung" but is not equal to it.
    assert exact_match("left lung", "lung") == 0.0
    assert exact_match("lung", "left lung") == 0.0
    assert exact_match("", "yes") == 0.0
    assert exact_match("", "") == 1.0


def test_token_f1_hand_computed():
    # pred {right, lung}, ref {left, lung}: overlap 1, P = R = 1/2 -> F1 = 1/2
    assert token_f1("right lung", "left lung") == pytest.approx(0.5)
    # pred {left, upper, lobe}, ref {left, lobe}: overlap 2, P = 2/3, R = 1 -> F1 = 0.8
    assert token_f1("the left upper lobe", "left lobe") == pytest.approx(0.8)
    # multiset overlap: pred {no, no}, ref {no}: overlap 1, P = 1/2, R = 1 -> 2/3
    assert token_f1("no no", "no") == pytest.approx(2 / 3)
    assert token_f1("", "yes") == 0.0
    assert token_f1("yes", "") == 0.0
    assert token_f1("", "") == 1.0
    assert token_f1("Two.", "2") == 1.0


def test_yes_no_em():
    assert yes_no_em("Yes.", "yes") == 1.0
    assert yes_no_em("yes, there is a lesion", "yes") == 1.0
    assert yes_no_em("no", "yes") == 0.0  # a wrong yes/no is wrong
    assert yes_no_em("maybe", "yes") == 0.0  # a non-yes/no prediction counts wrong
    assert yes_no_em("", "no") == 0.0
    assert yes_no_em("left lung", "no") == 0.0
    # Not a yes/no item: open question, or closed with a non-yes/no reference.
    assert yes_no_em("yes", "yes", "open") is None
    assert yes_no_em("left", "left", "closed") is None
    assert is_yes_no_question("No.", "closed")


def test_score_answer_bundle():
    s = score_answer("Yes.", "yes", "closed")
    assert s == {"em": 1.0, "f1": 1.0, "yn_em": 1.0}
    s = score_answer("left lung", "lung", "open")
    assert s["em"] == 0.0 and s["f1"] == pytest.approx(2 / 3) and s["yn_em"] is None


def test_mean_pct_and_aggregate():
    m = mean_pct([1, 0, 1, None, 1])
    assert m.n == 4 and m.value == pytest.approx(75.0)
    # sample std of (1,0,1,1) = 0.5 -> se = 0.5 / 2 = 0.25 -> 25 %
    assert m.se == pytest.approx(25.0)
    assert math.isnan(mean_pct([None]).value) and mean_pct([]).n == 0
    rows = [
        {"c": "raw", "em": 1.0, "f1": 1.0, "yn_em": None},
        {"c": "raw", "em": 0.0, "f1": 0.5, "yn_em": 0.0},
        {"c": "ocr", "em": 0.0, "f1": 0.0, "yn_em": 1.0},
    ]
    agg = aggregate(rows, by=["c"])
    assert list(agg) == [("raw",), ("ocr",)]
    assert agg[("raw",)]["em"].value == pytest.approx(50.0)
    assert agg[("raw",)]["f1"].value == pytest.approx(75.0)
    assert agg[("raw",)]["yn_em"].n == 1 and agg[("raw",)]["yn_em"].value == 0.0


def test_paired_difference():
    d = paired_difference([1, 1, 0, 1], [1, 0, 0, 0])
    assert d.value == pytest.approx(50.0) and d.n == 4
    with pytest.raises(ValueError):
        paired_difference([1], [1, 0])
