"""Scores of a membership attack: precision, recall, F1, Fmax and the adjusted M.

``Fmax`` is the F1 of the naive attacker that calls every record a member:
its precision is the member prevalence ``p`` and its recall is 1, so
``Fmax = 2p / (1 + p)``. ``M = (F1 - Fmax) / (1 - Fmax)`` rescales an
attacker's F1 so that 0 means "no better than calling everyone a member"
(negative: worse) and 1 means a perfect attack — at any prevalence, which
plain F1 is not (at p = 0.5 the naive attacker already has F1 = 0.67).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Scores", "scores", "fmax", "m_score", "calibrate_threshold", "summarize"]


def fmax(prevalence: float) -> float:
    """F1 of calling every record a member when a share ``prevalence`` are members: ``2p / (1 + p)``."""
    p = float(prevalence)
    if not 0.0 < p <= 1.0:
        raise ValueError(f"member prevalence must be in (0, 1], got {p}")
    return 2.0 * p / (1.0 + p)


def m_score(f1: float, prevalence: float) -> float:
    """``M = (F1 - Fmax) / (1 - Fmax)``; undefined (``nan``) when every record is a member (Fmax = 1)."""
    fm = fmax(prevalence)
    if fm >= 1.0:
        return float("nan")
    return (float(f1) - fm) / (1.0 - fm)


@dataclass(frozen=True)
class Scores:
    """One attack on one labelled set."""

    precision: float
    recall: float
    f1: float
    fmax: float
    m: float
    prevalence: float
    n: int

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def scores(predicted, truth) -> Scores:
    """Scores of boolean ``predicted`` membership against boolean ``truth`` (same length, at least one member).

    Precision is 0 when nothing is predicted a member (the attacker found no one).
    """
    pred = np.asarray(predicted, dtype=bool)
    true = np.asarray(truth, dtype=bool)
    if pred.shape != true.shape or pred.ndim != 1:
        raise ValueError("predicted and truth must be 1-d arrays of the same length")
    if not true.any():
        raise ValueError("the labelled set holds no member: prevalence 0, M is undefined")
    tp = int(np.sum(pred & true))
    npred = int(pred.sum())
    precision = tp / npred if npred else 0.0
    recall = tp / int(true.sum())
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    prev = float(true.mean())
    return Scores(precision, recall, f1, fmax(prev), m_score(f1, prev), prev, int(true.size))


def calibrate_threshold(feature, truth) -> float:
    """The threshold ``t`` (predict member when ``feature >= t``) with the best F1 on a labelled set.

    Candidates are the set's own feature values (every distinct decision the
    rule can make there); ties in F1 go to the highest one. The threshold
    returned is the midpoint between that value and the next lower value of
    the set (the same decisions on the set, and a margin on both sides for
    records it has not seen: the lowest known member is rarely the lowest
    member). This is the attacker's calibration on its limited adversarial
    dataset; it is then applied unchanged to other records.
    """
    f = np.asarray(feature, dtype=float)
    y = np.asarray(truth, dtype=bool)
    if f.shape != y.shape or f.ndim != 1 or f.size == 0:
        raise ValueError("feature and truth must be non-empty 1-d arrays of the same length")
    if not y.any():
        raise ValueError("the adversarial set holds no member: nothing to calibrate on")
    order = np.argsort(-f, kind="stable")
    fs, ys = f[order], y[order]
    tp = np.cumsum(ys)
    npred = np.arange(1, f.size + 1)
    # Only the last index of each run of equal values is a threshold the rule ">= t" can realise.
    last = np.r_[fs[1:] != fs[:-1], True]
    prec = tp / npred
    rec = tp / y.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(prec + rec > 0, 2 * prec * rec / (prec + rec), 0.0)
    f1 = np.where(last, f1, -1.0)
    best = int(np.argmax(f1))  # first maximum = highest threshold among ties
    if best + 1 < fs.size:
        return float((fs[best] + fs[best + 1]) / 2.0)
    return float(fs[best])


def summarize(values, level: float = 0.95) -> dict:
    """Mean, standard deviation and the central ``level`` percentile interval of resampled values (nan ignored)."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    if v.size == 0:
        return {"mean": float("nan"), "sd": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"), "n": 0}
    a = (1.0 - level) / 2.0
    lo, hi = np.quantile(v, [a, 1.0 - a])
    return {"mean": float(v.mean()), "sd": float(v.std(ddof=1)) if v.size > 1 else 0.0,
            "ci_low": float(lo), "ci_high": float(hi), "n": int(v.size)}
