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
        "sanitize", f"benchmark_dir={bench}", f"output_dir={out}", "condition=blackout", "progress=false",
        f"hydra.run.dir={run1}", cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "sanitized" in r.stdout
    assert (run1 / "config_resolved.yaml").is_file()
    summary = json.loads((run1 / "summary.json").read_text())
    # something must be released (a run that quarantines everything is not a working sanitizer)
    assert summary["processed"] == 2 and summary["sanitized"] >= 1
    assert summary["sanitized"] + summary["quarantined"] == 2
    released = sorted(p.name for p in out.glob("*.png"))
    assert len(released) == summary["sanitized"]
    # masks from RapidOCR, every output verified by EasyOCR; counts per field, never values
    assert summary["engines"]["localize"]["engine"] == "rapidocr" and summary["engines"]["verify"]["engine"] == "easyocr"
    assert summary["engines"]["verify"]["items"] == 2 and summary["engines"]["localize"]["matches_by_field"]
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


def test_condition_raw_is_quarantined_by_the_verifier_through_the_cli(tmp_path):
    """The same command with nothing removed releases nothing: verification is on and independent by default."""
    from clinx.data.benchmark import build_benchmark, save_benchmark

    bench = tmp_path / "bench"
    # 384 px: at 256 px the overlay text is ~6 px high and EasyOCR (the verifier) reads only noise
    save_benchmark(build_benchmark("test", 1, 0, 384), bench)
    out = tmp_path / "clean"
    r = run_clinx("sanitize", f"benchmark_dir={bench}", f"output_dir={out}", "condition=raw", "progress=false",
                  f"hydra.run.dir={tmp_path / 'run'}", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert (summary["sanitized"], summary["quarantined_by_stage"]) == (0, {"verify": 1})
    assert not list(out.glob("*.png"))


test_condition_raw_is_quarantined_by_the_verifier_through_the_cli = pytest.mark.slow(
    test_condition_raw_is_quarantined_by_the_verifier_through_the_cli
)


@pytest.mark.parametrize(
    "override, words",
    [
        ("workers=abc", "workers must be an integer"),
        ("workers=0", "workers must be at least 1"),
        ("ocr.engine=bogus", "ocr=rapidocr"),
        ("ocr=bogus", "bad configuration"),
        ("condition=bogus", "bad configuration"),
        ("log.paths=names", "log.paths must be one of"),
        ("output.names=plain", "output.names must be one of"),
    ],
)
def test_configuration_errors_are_one_line_and_exit_2(tmp_path, override, words):
    (tmp_path / "in").mkdir()
    r = run_clinx("sanitize", f"input_dir={tmp_path / 'in'}", f"output_dir={tmp_path / 'out'}", "manifest=dicom",
                  override, f"hydra.run.dir={tmp_path / 'run'}", cwd=tmp_path)
    assert r.returncode == 2, (r.stdout[-500:], r.stderr[-2000:])
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert lines and words in lines[-1] and "Traceback" not in r.stderr
    assert lines[-1].startswith("clinx sanitize: ")


@pytest.mark.parametrize("kind", ["file", "foreign_files"])
def test_unusable_output_dir_is_exit_2_and_left_alone(tmp_path, kind):
    (tmp_path / "in").mkdir()
    out = tmp_path / "out"
    if kind == "file":
        out.write_text("a user's file")
        words = "not a folder"
    else:
        out.mkdir()
        (out / "notes.png").write_bytes(b"a user's notes")
        words = "holds no clinx sanitize journal"
    before = sorted(p.read_bytes() for p in ([out] if out.is_file() else out.rglob("*")))
    r = run_clinx("sanitize", f"input_dir={tmp_path / 'in'}", f"output_dir={out}", "manifest=dicom",
                  f"hydra.run.dir={tmp_path / 'run'}", cwd=tmp_path)
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr
    assert sorted(p.read_bytes() for p in ([out] if out.is_file() else out.rglob("*"))) == before


def test_run_folders_are_unique_within_one_second():
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra
    from omegaconf import OmegaConf

    from clinx.config import CONFIG_DIR

    GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        dirs = set()
        for _ in range(3):
            cfg = compose("sanitize", return_hydra_config=True)
            dirs.add(OmegaConf.to_container(cfg.hydra.run, resolve=True)["dir"])
    GlobalHydra.instance().clear()
    assert len(dirs) == 3
