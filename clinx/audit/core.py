"""The audit itself: features once, then hundreds of simulated attacks on resampled partitions.

:func:`audit_features` takes, for every real record of the population, its
feature values (see :mod:`clinx.audit.features`) and its membership, and for
each resample

1. draws the adversarial dataset and the evaluation set with the configured
   member prevalence (:func:`clinx.audit.partition.draw_labelled_sets`),
2. calibrates the threshold attacker on the adversarial dataset
   (:func:`clinx.audit.metrics.calibrate_threshold`),
3. applies it unchanged to the evaluation set and scores it
   (precision, recall, F1, Fmax, M).

Results are the mean and percentile interval of each score over resamples,
per feature. :func:`decide` turns them into the release decision.

The whole audit sees texts only through embeddings; it needs no prompt,
gradient or model weight of the generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from clinx.audit.features import FEATURE_NAMES, compute_features
from clinx.audit.metrics import calibrate_threshold, scores, summarize
from clinx.audit.partition import draw_labelled_sets

__all__ = ["AttackSettings", "audit_features", "audit_embeddings", "decide", "SCORE_NAMES"]

SCORE_NAMES = ("precision", "recall", "f1", "fmax", "m")


@dataclass(frozen=True)
class AttackSettings:
    """How the attack is simulated (``configs/audit.yaml: attack``)."""

    prior: float = 0.1
    adversary_fraction: float = 0.5
    resamples: int = 500
    ci: float = 0.95
    seed: int = 0
    features: tuple[str, ...] = FEATURE_NAMES

    @classmethod
    def from_config(cls, cfg: Mapping) -> "AttackSettings":
        """From the ``attack`` mapping of the config (unknown keys are an error)."""
        d = dict(cfg)
        unknown = set(d) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown attack setting(s): {', '.join(sorted(unknown))}")
        if "features" in d:
            d["features"] = tuple(d["features"])
        return cls(**d)


def audit_features(features: Mapping[str, np.ndarray], member: np.ndarray, population: np.ndarray,
                   settings: AttackSettings) -> dict:
    """Simulated attacks on ``population`` (indices) whose truth is ``member`` (bool over all records).

    Returns ``{"features": {name: {score: summary}}, "n_members", "n_nonmembers", ...}``
    where each summary is :func:`clinx.audit.metrics.summarize` over resamples.
    """
    member = np.asarray(member, dtype=bool)
    population = np.asarray(population)
    mem = population[member[population]]
    non = population[~member[population]]
    out: dict = {"n_population": int(population.size), "n_members": int(mem.size), "n_nonmembers": int(non.size),
                 "prior": settings.prior, "resamples": settings.resamples, "features": {}}
    per: dict[str, dict[str, list[float]]] = {f: {s: [] for s in (*SCORE_NAMES, "threshold")} for f in settings.features}
    sizes = {"adv": [], "eval": [], "eval_members": []}
    for b in range(int(settings.resamples)):
        rng = np.random.default_rng([int(settings.seed), b])
        try:
            sets = draw_labelled_sets(mem, non, settings.prior, rng, settings.adversary_fraction)
        except ValueError as e:
            # Too few members or non-members: the corpus cannot be audited at this prior. Every score stays
            # undefined (nan), so the release rule says no — an audit that could not run never passes.
            out["problem"] = str(e)
            break
        sizes["adv"].append(sets.adv.size)
        sizes["eval"].append(sets.eval.size)
        sizes["eval_members"].append(int(sets.eval_member.sum()))
        for name in settings.features:
            f = features[name]
            t = calibrate_threshold(f[sets.adv], sets.adv_member)
            s = scores(f[sets.eval] >= t, sets.eval_member)
            for key in SCORE_NAMES:
                per[name][key].append(getattr(s, key))
            per[name]["threshold"].append(t)
    for name in settings.features:
        out["features"][name] = {key: summarize(vals, settings.ci) for key, vals in per[name].items()}
        # how far apart the two groups sit, before any threshold: the first thing to read when M is near 0
        f = np.asarray(features[name], dtype=float)
        out["features"][name]["median_member"] = float(np.median(f[mem])) if mem.size else float("nan")
        out["features"][name]["median_nonmember"] = float(np.median(f[non])) if non.size else float("nan")
    out["adversarial_size"] = float(np.mean(sizes["adv"])) if sizes["adv"] else 0.0
    out["eval_size"] = float(np.mean(sizes["eval"])) if sizes["eval"] else 0.0
    out["eval_members"] = float(np.mean(sizes["eval_members"])) if sizes["eval_members"] else 0.0
    return out


def audit_embeddings(real: np.ndarray, synthetic: np.ndarray, member: np.ndarray, population: np.ndarray,
                     settings: AttackSettings) -> dict:
    """:func:`audit_features` on the features of ``real`` embeddings against ``synthetic`` ones."""
    feats = compute_features(real, synthetic, settings.features)
    res = audit_features(feats, member, population, settings)
    res["n_synthetic"] = int(synthetic.shape[0])
    return res


def decide(results: Mapping[str, Mapping], *, max_m: float, statistic: str = "ci_high",
           features: Sequence[str] | None = None) -> dict:
    """Release only if M's ``statistic`` (``mean`` or ``ci_high``) is at most ``max_m`` for every feature.

    ``ci_high`` (the default) fails closed: an audit too small to bound the
    risk says "do not release" rather than passing on a lucky mean. The
    worst feature decides and is named in the answer.
    """
    if statistic not in ("mean", "ci_high"):
        raise ValueError("decision statistic must be 'mean' or 'ci_high'")
    feats = list(features or results["features"].keys())
    worst, worst_v = None, -np.inf
    for name in feats:
        v = results["features"][name]["m"][statistic]
        v = np.inf if v is None or np.isnan(v) else float(v)  # an undefined M never passes
        if v > worst_v:
            worst, worst_v = name, v
    release = bool(worst_v <= float(max_m))
    return {"release": release, "statistic": statistic, "max_m": float(max_m), "worst_feature": worst,
            "worst_value": float(worst_v) if np.isfinite(worst_v) else None}
