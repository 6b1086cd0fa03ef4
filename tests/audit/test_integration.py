"""The audit end to end with the real MiniLM model: controls, the encoder cache and ``clinx audit``."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from clinx.audit.core import AttackSettings
from clinx.audit.corpora import iu_notes, near_copy
from clinx.audit.experiment import run_control
from clinx.embed import SentenceEncoder

REPO = Path(__file__).resolve().parents[2]
SETTINGS = AttackSettings(prior=0.25, resamples=100)


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("embed")


@pytest.fixture(scope="module")
def notes():
    return iu_notes(120, 60)[1]


@pytest.fixture(scope="module")
def encoder(cache_dir, notes):
    enc = SentenceEncoder(cache_dir=cache_dir)
    enc.encode(notes)
    return enc


def test_embeddings_see_a_near_copy_and_are_cached(encoder, notes, cache_dir):
    a, unrelated = notes[0], notes[30]
    e = encoder.encode([a, near_copy(a, np.random.default_rng(0)), unrelated])
    assert e.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(e, axis=1), 1.0, atol=1e-5)
    assert e[0] @ e[1] > e[0] @ e[2]
    again = SentenceEncoder(cache_dir=cache_dir)
    np.testing.assert_allclose(again.encode(notes[:5]), encoder.encode(notes[:5]))
    assert again.encoded == 0  # served from the file, the model never loaded


def test_planted_copies_give_m_near_one(encoder, notes):
    r = run_control("planted", notes, encoder, SETTINGS, n_members=10, n_outsiders=10, verbatim_fraction=1.0)
    assert r["n_members"] == 10
    assert r["features"]["max"]["m"]["mean"] > 0.9


def test_independent_corpus_gives_m_near_zero(encoder, notes):
    r = run_control("independent", notes, encoder, SETTINGS, n_members=10, n_outsiders=10)
    for feat in ("max", "top3", "mean"):
        m = r["features"][feat]["m"]
        assert abs(m["mean"]) < 0.25 and m["ci_low"] < 0 < m["ci_high"]


def test_clinx_audit_writes_its_report(tmp_path, cache_dir, notes, encoder):
    real = tmp_path / "real.jsonl"
    synth = tmp_path / "synth.jsonl"
    real.write_text("".join(json.dumps({"text": t, "member": i < 10}) + "\n" for i, t in enumerate(notes[:40])))
    synth.write_text("".join(json.dumps({"text": t}) + "\n" for t in notes[:10] + notes[45:55]))
    run = tmp_path / "run"
    env = dict(os.environ, HF_HUB_OFFLINE="1", CLINX_ROOT=str(tmp_path))
    r = subprocess.run(
        [sys.executable, "-m", "clinx.cli", "audit", "targets=[external,planted,independent]", "corpus.limit=60",
         "controls.n_members=10", "controls.n_outsiders=10", "attack.resamples=50", "attack.prior=0.25",
         f"external.real={real}", f"external.synthetic={synth}", f"embedding.cache={cache_dir}",
         f"hydra.run.dir={run}"],
        capture_output=True, text=True, timeout=300, cwd=REPO, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    for name in ("config_resolved.yaml", "results.json", "tables.md", "results.csv", "m_plot.png", "summary.json"):
        assert (run / name).is_file(), name
    results = json.loads((run / "results.json").read_text())
    by = {x["regime"]: x for x in results}
    assert by["external"]["features"]["max"]["m"]["mean"] > 0.5  # the synthetic file copies its members
    assert by["external"]["decision"]["release"] is False
    table = (run / "tables.md").read_text()
    assert "| external |" in table and "do not release" in table
    assert notes[0][:40] not in table + r.stdout  # reports hold scores, never text


def test_clinx_audit_bad_target_is_a_one_line_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "clinx.cli", "audit", "targets=[nope]", f"hydra.run.dir={tmp_path}"],
                       capture_output=True, text=True, timeout=120, cwd=REPO,
                       env=dict(os.environ, HF_HUB_OFFLINE="1", CLINX_ROOT=str(tmp_path)))
    assert r.returncode == 2 and "targets must be" in r.stderr
