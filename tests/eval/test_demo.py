"""`clinx demo` end to end through its console entry point, on a small slice (the README's quick start)."""

import json
import os
import subprocess
import sys

import pytest


@pytest.mark.slow
def test_clinx_demo_runs_end_to_end_and_reruns_from_the_cache(tmp_path):
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    cmd = [sys.executable, "-m", "clinx.cli", "demo", "n=3", "conditions=[raw,ocr]", "levels=[l0,l1]", "leakage_only=[]",
           "~attack.easyocr", f"paths.cache_dir={tmp_path / 'cache'}", f"paths.runs_dir={tmp_path / 'runs'}",
           "report.figures=false", "progress=false", f"hydra.run.dir={tmp_path / 'run'}"]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "clinx demo finished" in first.stdout and "Table 1" in first.stdout
    doc = json.loads((tmp_path / "run" / "results.json").read_text())
    assert doc["figures"]["token_recall/raw/rapidocr"] > 0.5  # the raw images leak, the attack works
    assert "em/l1/ocr" in doc["figures"]  # black fill released (verified by EasyOCR) and scored
    assert (tmp_path / "run" / "config_resolved.yaml").is_file()
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "model answers computed 0" in again.stdout  # a rerun is served from the cache
