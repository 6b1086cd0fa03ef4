"""Attack features: how close a real record sits to a synthetic corpus in embedding space.

All three take L2-normalised embeddings (``clinx.embed.SentenceEncoder``
gives them), so a dot product is a cosine similarity:

* ``max``  — nearest-neighbour cosine to any synthetic text (a copied or
  paraphrased record has one very close neighbour);
* ``top3`` — mean of the three largest cosines (a record reused in several
  outputs, as static prompts do, has several close neighbours);
* ``mean`` — cosine to the synthetic centroid (alignment with the corpus as a
  whole; it sees topic drift, rarely one record).

A feature is computed once per (real record, synthetic corpus); the
partitions of the resampling only index into it, which is what makes
hundreds of resamples cheap.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from clinx.registry import Registry

__all__ = ["FEATURES", "FEATURE_NAMES", "cosine_matrix", "feature_max", "feature_topk", "feature_mean", "compute_features"]

FEATURES: Registry[Callable[[np.ndarray, np.ndarray], np.ndarray]] = Registry("audit feature")


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    n = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.where(n > 0, n, 1.0)


def cosine_matrix(real: np.ndarray, synthetic: np.ndarray) -> np.ndarray:
    """``(n_real, n_synth)`` cosine similarities (inputs are re-normalised, so any embeddings work)."""
    if real.ndim != 2 or synthetic.ndim != 2 or real.shape[1] != synthetic.shape[1]:
        raise ValueError("real and synthetic embeddings must be 2-d with the same width")
    if synthetic.shape[0] == 0:
        raise ValueError("the synthetic corpus is empty")
    return _unit(real) @ _unit(synthetic).T


@FEATURES.register("max")
def feature_max(real: np.ndarray, synthetic: np.ndarray) -> np.ndarray:
    """Nearest-neighbour cosine of each real record to the synthetic corpus."""
    return cosine_matrix(real, synthetic).max(axis=1)


def feature_topk(real: np.ndarray, synthetic: np.ndarray, k: int = 3) -> np.ndarray:
    """Mean of the ``k`` largest cosines (all of them when the corpus has fewer than ``k`` texts)."""
    sim = cosine_matrix(real, synthetic)
    k = min(int(k), sim.shape[1])
    top = np.partition(sim, sim.shape[1] - k, axis=1)[:, sim.shape[1] - k:]
    return top.mean(axis=1)


FEATURES.register("top3", lambda real, synthetic: feature_topk(real, synthetic, 3))


@FEATURES.register("mean")
def feature_mean(real: np.ndarray, synthetic: np.ndarray) -> np.ndarray:
    """Cosine of each real record to the centroid of the (normalised) synthetic embeddings."""
    centroid = _unit(synthetic).mean(axis=0, keepdims=True)
    return cosine_matrix(real, centroid)[:, 0]


FEATURE_NAMES: tuple[str, ...] = ("max", "top3", "mean")


def compute_features(real: np.ndarray, synthetic: np.ndarray, names=FEATURE_NAMES) -> dict[str, np.ndarray]:
    """``{feature name: (n_real,) values}`` for the registered features ``names``."""
    return {n: np.asarray(FEATURES.get(n)(real, synthetic), dtype=float) for n in names}
