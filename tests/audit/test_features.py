"""Max, Top-3 and Mean against hand-computed cosines."""

import numpy as np
import pytest

from clinx.audit.features import FEATURES, compute_features, cosine_matrix, feature_max, feature_mean, feature_topk

REAL = np.array([[1.0, 0.0], [0.0, 2.0]])  # the second is not unit length: features must not care
SYNTH = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])


def test_cosine_matrix():
    np.testing.assert_allclose(cosine_matrix(REAL, SYNTH), [[1.0, 0.6, 0.0], [0.0, 0.8, 1.0]])


def test_max_top3_mean_by_hand():
    np.testing.assert_allclose(feature_max(REAL, SYNTH), [1.0, 1.0])
    np.testing.assert_allclose(FEATURES.get("top3")(REAL, SYNTH), [1.6 / 3, 1.8 / 3])
    c = np.array([1.6 / 3, 1.8 / 3])
    c = c / np.linalg.norm(c)
    np.testing.assert_allclose(feature_mean(REAL, SYNTH), [c[0], c[1]])


def test_top3_takes_the_three_largest():
    synth = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.0], [0.8, 0.6], [0.6, 0.8]])  # cosines 0, 1, -1, .8, .6
    np.testing.assert_allclose(feature_topk(REAL[:1], synth, 3), [(1.0 + 0.8 + 0.6) / 3])
    np.testing.assert_allclose(feature_topk(REAL[:1], synth[:2], 3), [(0.0 + 1.0) / 2])  # fewer than three texts


def test_compute_features_names_and_empty_corpus():
    f = compute_features(REAL, SYNTH)
    assert set(f) == {"max", "top3", "mean"} and all(v.shape == (2,) for v in f.values())
    with pytest.raises(ValueError):
        feature_max(REAL, np.zeros((0, 2)))
