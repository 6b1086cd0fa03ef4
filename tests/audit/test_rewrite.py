"""The rewrite target: released rewrites against their originals (a stand-in encoder, no model)."""

import hashlib

import numpy as np
import pytest

from clinx.audit.core import AttackSettings
from clinx.audit.experiment import run_rewrite

TEXTS = [f"question {i} about finding {i % 5}" for i in range(200)]


class HashEncoder:
    """A deterministic random unit vector per text: equal texts embed equally, different ones nearly orthogonal."""

    def encode(self, texts):
        out = []
        for t in texts:
            seed = int.from_bytes(hashlib.sha256(t.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).normal(size=64)
            out.append(v / np.linalg.norm(v))
        return np.asarray(out)


SETTINGS = AttackSettings(prior=0.1, resamples=100)


def test_a_release_of_the_originals_themselves_is_caught():
    r = run_rewrite(TEXTS, lambda t: t, HashEncoder(), SETTINGS, n_members=20, label="identity")
    assert r["n_members"] == 20 and r["n_synthetic"] == 20 and r["regime"] == "identity"
    assert r["features"]["max"]["m"]["mean"] == pytest.approx(1.0)


def test_a_rewrite_that_keeps_nothing_of_the_original_discloses_nothing():
    r = run_rewrite(TEXTS, lambda t: "a question", HashEncoder(), SETTINGS, n_members=20, label="blank")
    assert r["features"]["max"]["m"]["mean"] <= 0.05


def test_rewriter_uses_clinx_text_levels():
    from clinx.audit.experiment import rewriter

    out = rewriter("L2")("Is this an MRI for patient Braun, Brandon (MRN 07125133)?")
    assert "Braun" not in out and "07125133" not in out and "MRI" in out
