"""Population-aware partitioning: who the generator may see, who it never sees, who the attacker knows.

The real corpus is the *population*. It is split once (seeded) into

* the **pool** — records the generator may draw exemplars from; those that
  actually entered a prompt are the **members** (ground truth recorded by
  :mod:`clinx.audit.generate`), the rest of the pool are non-members;
* the **holdout** — records the generator never sees (non-members).

An attack is simulated many times. Each resample draws two disjoint labelled
sets from the population, both with the member prevalence ``prior`` given in
the config — the share of members an attacker should expect among the
records it could test (a realistic prior, not the 50/50 of a toy benchmark):

* the **adversarial dataset** — the attacker's limited auxiliary knowledge
  (records whose membership it knows), on which its threshold is calibrated;
* the **evaluation set** — records the attack is scored on.

When there are too few non-members to reach ``prior`` with every member,
fewer members are used (never a higher prevalence than asked).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PopulationSplit", "split_population", "LabelledSets", "draw_labelled_sets"]


@dataclass(frozen=True)
class PopulationSplit:
    """Indices into the real corpus: ``pool`` (the generator may draw from it) and ``holdout`` (never seen)."""

    pool: np.ndarray
    holdout: np.ndarray


def split_population(n: int, pool_fraction: float, seed: int) -> PopulationSplit:
    """A seeded split of ``n`` records into pool and holdout (``pool_fraction`` of them in the pool)."""
    if n < 2:
        raise ValueError("the real corpus needs at least two records")
    if not 0.0 < pool_fraction < 1.0:
        raise ValueError(f"pool_fraction must be in (0, 1), got {pool_fraction}")
    order = np.random.default_rng([int(seed), 0x9001]).permutation(n)
    n_pool = min(n - 1, max(1, int(round(pool_fraction * n))))
    return PopulationSplit(np.sort(order[:n_pool]), np.sort(order[n_pool:]))


@dataclass(frozen=True)
class LabelledSets:
    """One resample: adversarial and evaluation record indices with their membership labels."""

    adv: np.ndarray
    adv_member: np.ndarray
    eval: np.ndarray
    eval_member: np.ndarray


def _nonmembers_for(n_members: int, prior: float) -> int:
    return int(round(n_members * (1.0 - prior) / prior))


def draw_labelled_sets(members: np.ndarray, nonmembers: np.ndarray, prior: float, rng: np.random.Generator,
                       adversary_fraction: float = 0.5) -> LabelledSets:
    """Disjoint adversarial and evaluation sets, each with member prevalence ``prior``.

    ``adversary_fraction`` of the usable members go to the adversarial set
    (at least one member in each set, so at least two members are needed).
    """
    members = np.asarray(members)
    nonmembers = np.asarray(nonmembers)
    if not 0.0 < prior < 1.0:
        raise ValueError(f"prior (member prevalence) must be in (0, 1), got {prior}")
    if members.size < 2:
        raise ValueError(f"at least two members are needed (one to calibrate, one to evaluate); got {members.size}")
    if not 0.0 < adversary_fraction < 1.0:
        raise ValueError(f"adversary_fraction must be in (0, 1), got {adversary_fraction}")
    # The most members the non-members can dilute to ``prior``; never raise the prevalence instead.
    usable = members.size
    while usable > 2 and _nonmembers_for(usable, prior) > nonmembers.size:
        usable -= 1
    if _nonmembers_for(usable, prior) > nonmembers.size or _nonmembers_for(1, prior) < 1:
        raise ValueError(f"too few non-members ({nonmembers.size}) to reach member prevalence {prior}")
    m = rng.permutation(members)[:usable]
    n_adv = min(usable - 1, max(1, int(round(adversary_fraction * usable))))
    m_adv, m_eval = m[:n_adv], m[n_adv:]
    nm = rng.permutation(nonmembers)
    k_adv, k_eval = _nonmembers_for(m_adv.size, prior), _nonmembers_for(m_eval.size, prior)
    nm_adv, nm_eval = nm[:k_adv], nm[k_adv:k_adv + k_eval]
    adv = np.concatenate([m_adv, nm_adv])
    ev = np.concatenate([m_eval, nm_eval])
    return LabelledSets(adv, np.r_[np.ones(m_adv.size, bool), np.zeros(nm_adv.size, bool)],
                        ev, np.r_[np.ones(m_eval.size, bool), np.zeros(nm_eval.size, bool)])
