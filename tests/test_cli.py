"""``clinx sanitize`` and ``clinx leakage`` through the dispatcher, as a user runs them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clinx import cli

REPO = Path(__file__).resolve().parent.parent


def run_clinx(*args, cwd):
    env = dict(os.environ, HF_HUB_OFFLINE="1", CLINX_ROOT=str(cwd))
    return subprocess.run(
        [sys.executable, "-m", "clinx.cli", *args], capture_output=True, text=True, timeout=600, cwd=REPO, env=env
    )


def test_help_names_sanitize_and_leakage(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "sanitize" in out and "leakage" in out


def test_sanitize_without_output_dir_is_a_clear_error(tmp_path):
    r = run_clinx("sanitize", f"input_dir={tmp_path}", f"hydra.run.dir={tmp_path / 'run'}", cwd=tmp_path)
    assert r.returncode == 2
    assert "output_dir is required" in r.stderr


def test_sanitize_refuses_output_inside_input(tmp_path):
    (tmp_path / "in").mkdir()
    r = run_clinx(
        "sanitize", f"input_dir={tmp_path / 'in'}", f"output_dir={tmp_path / 'in' / 'out'}",
        f"manifest={tmp_path}", f"hydra.run.dir={tmp_path / 'run'}", cwd=tmp_path,
    )
    assert r.returncode == 2 and "inside input_dir" in r.stderr


@pytest.mark.slow
def test_sanitize_then_leakage_on_a_tiny_benchmark(tmp_path):
    from clinx.data.benchmark import build_benchmark, save_benchmark

    samples = build_benchmark("test", 2, 0, 320)
    bench = tmp_path / "bench"
    save_benchmark(samples, bench)
    out, run1, run2 = tmp_path / "clean", tmp_path / "run1", tmp_path / "run2"
    r = run_clinx(
        "sanitize", f"benchmark_dir={bench}", f"output_dir={out}", "condition=ocr", "progress=false",
        f"hydra.run.dir={run1}", cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "sanitized" in r.stdout
    assert (run1 / "config_resolved.yaml").is_file()
    summary = json.loads((run1 / "summary.json").read_text())
    assert summary["processed"] == 2 and summary["sanitized"] + summary["quarantined"] == 2
    assert (out / "progress.jsonl").is_file()

    r = run_clinx(
        "leakage", f"images_dir={out}", f"benchmark_dir={bench}", "engines=[rapidocr]", "progress=false",
        f"hydra.run.dir={run2}", cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "| condition |" in r.stdout and "token_recall" in r.stdout
    for ext in ("md", "csv", "json"):
        assert (run2 / f"leakage.{ext}").is_file()
    res = json.loads((run2 / "leakage.json").read_text())
    assert res["clean"]["rapidocr"]["n_released"] == summary["sanitized"]
    everything = r.stdout + r.stderr + (run2 / "leakage.csv").read_text()
    for s in samples:
        for _, value in s.manifest.items():
            if len(value) >= 4:
                assert value not in everything
