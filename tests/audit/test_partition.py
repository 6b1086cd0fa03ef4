"""Population split and resampled labelled sets keep the configured prevalence and never overlap."""

import numpy as np
import pytest

from clinx.audit.partition import draw_labelled_sets, split_population


def test_split_population_is_seeded_and_disjoint():
    a, b = split_population(100, 0.3, seed=1), split_population(100, 0.3, seed=1)
    assert a.pool.size == 30 and a.holdout.size == 70
    assert not set(a.pool) & set(a.holdout) and set(a.pool) | set(a.holdout) == set(range(100))
    np.testing.assert_array_equal(a.pool, b.pool)
    assert not np.array_equal(a.pool, split_population(100, 0.3, seed=2).pool)


@pytest.mark.parametrize("prior", [0.1, 0.25])
def test_labelled_sets_have_the_prior_and_are_disjoint(rng, prior):
    members, nonmembers = np.arange(20), np.arange(100, 600)
    s = draw_labelled_sets(members, nonmembers, prior, rng)
    assert s.adv_member.mean() == pytest.approx(prior) and s.eval_member.mean() == pytest.approx(prior)
    assert not set(s.adv) & set(s.eval)
    assert set(s.adv[s.adv_member]) <= set(members) and set(s.adv[~s.adv_member]) <= set(nonmembers)
    assert set(s.eval[s.eval_member]) <= set(members) and set(s.eval[~s.eval_member]) <= set(nonmembers)
    assert s.adv_member.sum() + s.eval_member.sum() == 20


def test_too_few_nonmembers_uses_fewer_members_never_a_higher_prevalence(rng):
    s = draw_labelled_sets(np.arange(20), np.arange(100, 190), 0.1, rng)  # 90 non-members: room for 10 members
    assert s.adv_member.sum() + s.eval_member.sum() == 10
    assert s.adv_member.mean() == pytest.approx(0.1) and s.eval_member.mean() == pytest.approx(0.1)
    with pytest.raises(ValueError):
        draw_labelled_sets(np.arange(2), np.arange(10, 15), 0.1, rng)
    with pytest.raises(ValueError):
        draw_labelled_sets(np.arange(1), np.arange(10, 100), 0.1, rng)
