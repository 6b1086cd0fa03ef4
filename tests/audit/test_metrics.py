"""Fmax, M, scores and the attacker's calibration against hand-computed cases."""

import math

import numpy as np
import pytest

from clinx.audit.core import AttackSettings, audit_features, decide
from clinx.audit.metrics import calibrate_threshold, fmax, m_score, scores, summarize


def test_fmax_is_the_f1_of_calling_everyone_a_member():
    assert fmax(0.1) == pytest.approx(0.2 / 1.1)
    assert fmax(0.5) == pytest.approx(2 / 3)
    assert fmax(1.0) == 1.0
    # the same number, computed the long way: precision p, recall 1
    truth = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], bool)
    s = scores(np.ones(10, bool), truth)
    assert s.precision == pytest.approx(0.1) and s.recall == 1.0
    assert s.f1 == pytest.approx(fmax(0.1)) and s.m == pytest.approx(0.0)
    with pytest.raises(ValueError):
        fmax(0.0)


def test_m_sign_and_scale():
    p = 0.2
    assert m_score(fmax(p), p) == pytest.approx(0.0)  # naive attacker: 0
    assert m_score(1.0, p) == pytest.approx(1.0)  # perfect attacker: 1
    assert m_score(0.0, 0.5) == pytest.approx(-2.0)  # -Fmax / (1 - Fmax) at p = 0.5
    assert m_score(0.5, p) == pytest.approx((0.5 - 1 / 3) / (2 / 3))
    assert math.isnan(m_score(1.0, 1.0))


def test_scores_hand_case():
    truth = np.array([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], bool)  # p = 0.2
    pred = np.array([1, 0, 1, 0, 0, 0, 0, 0, 0, 0], bool)  # tp 1, fp 1, fn 1
    s = scores(pred, truth)
    assert (s.precision, s.recall, s.f1) == pytest.approx((0.5, 0.5, 0.5))
    assert s.fmax == pytest.approx(1 / 3) and s.m == pytest.approx(0.25) and s.prevalence == pytest.approx(0.2)
    none = scores(np.zeros(10, bool), truth)
    assert none.precision == 0.0 and none.f1 == 0.0 and none.m == pytest.approx(-0.5)
    with pytest.raises(ValueError):
        scores(pred, np.zeros(10, bool))


def test_calibration_picks_the_best_f1_threshold():
    # F1 = 1 at ">= 0.8"; the threshold sits midway to the next lower value
    assert calibrate_threshold([0.9, 0.8, 0.7, 0.1], [1, 1, 0, 0]) == pytest.approx(0.75)
    assert calibrate_threshold([0.1, 0.7, 0.9, 0.8], [0, 0, 1, 1]) == pytest.approx(0.75)  # order does not matter
    # ">= 0.2" gives F1 0.8, better than ">= 0.9" (2/3)
    assert calibrate_threshold([0.9, 0.5, 0.2, 0.1], [1, 0, 1, 0]) == pytest.approx(0.15)
    # ties in F1 go to the higher threshold: ">= 0.9" and ">= 0.6" both give F1 2/3 here
    assert calibrate_threshold([0.9, 0.8, 0.7, 0.6], [1, 0, 0, 1]) == pytest.approx(0.85)


def test_calibration_only_uses_thresholds_the_rule_can_realise():
    # ">= 0.9" predicts both 0.9 records (F1 0.5), not only the member listed first (F1 1.0);
    # the best realisable threshold is 0.5 (F1 0.8).
    assert calibrate_threshold([0.9, 0.9, 0.5], [1, 0, 1]) == pytest.approx(0.5)
    assert calibrate_threshold([0.9, 0.9, 0.5], [0, 1, 1]) == pytest.approx(0.5)
    assert calibrate_threshold([0.9, 0.9, 0.5], [1, 0, 0]) == pytest.approx(0.7)


def test_summarize_interval():
    s = summarize(np.arange(101, dtype=float), 0.9)
    assert s["mean"] == pytest.approx(50.0) and s["ci_low"] == pytest.approx(5.0) and s["ci_high"] == pytest.approx(95.0)
    assert summarize([float("nan")])["n"] == 0


def test_audit_separates_a_perfect_feature_from_noise(rng):
    n = 400
    member = np.zeros(n, bool)
    member[:40] = True
    perfect = member.astype(float) + rng.normal(0, 0.01, n)
    noise = rng.normal(0, 1, n)
    res = audit_features({"max": perfect, "mean": noise}, member, np.arange(n),
                         AttackSettings(prior=0.1, resamples=100, features=("max", "mean")))
    assert res["features"]["max"]["m"]["mean"] == pytest.approx(1.0)
    assert abs(res["features"]["mean"]["m"]["mean"]) < 0.15
    assert res["features"]["max"]["fmax"]["mean"] == pytest.approx(fmax(0.1))
    d = decide(res, max_m=0.1)
    assert d["release"] is False and d["worst_feature"] == "max"
    d2 = decide(res, max_m=0.1, statistic="mean", features=["mean"])
    assert d2["release"] is True


def test_a_corpus_too_small_to_audit_is_never_released():
    member = np.zeros(50, bool)
    member[0] = True  # one member: nothing to calibrate on and evaluate with
    res = audit_features({"max": np.arange(50.0)}, member, np.arange(50), AttackSettings(resamples=10, features=("max",)))
    assert "members" in res["problem"] and math.isnan(res["features"]["max"]["m"]["mean"])
    assert decide(res, max_m=0.5, statistic="mean")["release"] is False
