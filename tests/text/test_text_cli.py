"""clinx-text on the three input kinds: outputs, per-row errors, audit, summary, inputs untouched."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from clinx.config import compose
from clinx.errors import ClinxError
from clinx.text.cli import run

ROOT = Path(__file__).resolve().parents[2]
PHI_Q = "Patient John Smith, DOB 03/14/1961: is the left lung clear?"


def cfg_for(tmp_path, *overrides):
    return compose("text", [f"output_dir={tmp_path / 'out'}", "progress=false", *overrides])


def test_jsonl_with_bad_rows_goes_on(tmp_path):
    src = tmp_path / "q.jsonl"
    lines = [
        json.dumps({"id": "a", "question": PHI_Q}),
        json.dumps({"id": "b", "question": 42}),
        "not json",
        json.dumps({"id": "c"}),
        json.dumps({"id": "d", "question": None}),
        json.dumps({"id": "e", "question": "is zq xw ok?", "m": {"patient_name": "Zq Xw"}}),
        json.dumps({"id": "f", "question": ["a list"]}),
    ]
    src.write_text("\n".join(lines) + "\n")
    before = src.read_bytes()
    summary = run(cfg_for(tmp_path, f"input={src}", "manifest_field=m", "id_field=id"))
    out = tmp_path / "out"
    assert src.read_bytes() == before  # input untouched
    rows = [json.loads(x) for x in (out / "q.deid.jsonl").read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "e"]
    assert rows[0]["question"] == "Patient [NAME], DOB [DATE]: is the left lung clear?"
    assert "zq xw" not in rows[1]["question"] and "m" not in rows[1]  # manifest used, then dropped
    errs = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
    assert len(errs) == 5 and summary["errors"] == 5 and summary["ok"] == 2
    assert any("not text (int)" in e["problem"] for e in errs)
    assert any("not valid JSON" in e["problem"] for e in errs)
    assert any("missing" in e["problem"] for e in errs)
    err_dump = (out / "errors.jsonl").read_text()
    assert "Smith" not in err_dump and "1961" not in err_dump
    audit = [json.loads(x) for x in (out / "audit.jsonl").read_text().splitlines()]
    assert audit[0]["removed"] and all("value" not in s for a in audit for s in a["removed"])
    assert "Smith" not in (out / "audit.jsonl").read_text()
    s = json.loads((out / "summary.json").read_text())
    assert s["removed_by_category"]["NAME"] >= 2 and s["level"] == "L2"
    assert (out / "config_resolved.yaml").exists()


def test_csv_column_and_level_choice(tmp_path):
    src = tmp_path / "notes.csv"
    with src.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "note", "other"])
        w.writerow(["1", PHI_Q, "x"])
        w.writerow(["2", "What organ is shown?", "y"])
        w.writerow(["3"])  # short row: the column is missing -> per-row error
    summary = run(cfg_for(tmp_path, f"input={src}", "field=note", "text=l1"))
    out = list(csv.DictReader((tmp_path / "out" / "notes.deid.csv").open()))
    assert [r["id"] for r in out] == ["1", "2"]
    assert "Smith" not in out[0]["note"] and out[0]["other"] == "x"
    assert out[1]["note"] == "What organ is shown?"
    assert summary["level"] == "L1" and summary["errors"] == 1


def test_csv_missing_column_is_a_clear_error(tmp_path):
    src = tmp_path / "n.csv"
    src.write_text("a,b\n1,2\n")
    with pytest.raises(ClinxError, match="column 'question' not in the CSV header"):
        run(cfg_for(tmp_path, f"input={src}"))


def test_folder_of_text_files(tmp_path):
    src = tmp_path / "reports"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text("Seen by Dr. Alan Turing on 2023-05-02. Lungs clear.")
    (src / "sub" / "b.txt").write_text("No acute disease.")
    (src / "bad.txt").write_bytes(b"\xff\xfe\x00bad")
    summary = run(cfg_for(tmp_path, f"input={src}"))
    a = (tmp_path / "out" / "texts" / "a.txt").read_text()
    assert "Turing" not in a and "2023" not in a and "Lungs clear." in a
    assert (tmp_path / "out" / "texts" / "sub" / "b.txt").read_text() == "No acute disease."
    assert summary["errors"] == 1 and summary["ok"] == 2
    assert (src / "a.txt").read_text().startswith("Seen by Dr. Alan Turing")


def test_output_inside_input_is_refused(tmp_path):
    src = tmp_path / "reports"
    src.mkdir()
    (src / "a.txt").write_text("x")
    with pytest.raises(ClinxError, match="never overwritten"):
        run(compose("text", [f"input={src}", f"output_dir={src / 'out'}", "progress=false"]))


def test_console_entry_point(tmp_path):
    src = tmp_path / "q.jsonl"
    src.write_text(json.dumps({"question": PHI_Q}) + "\n")
    out = tmp_path / "cli_out"
    proc = subprocess.run(
        [sys.executable, "-m", "clinx.cli", "text", f"input={src}", f"output_dir={out}", "progress=false",
         f"hydra.run.dir={tmp_path / 'hydra'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "removed by category" in proc.stdout and "NAME" in proc.stdout
    assert "Smith" not in proc.stdout + proc.stderr
    assert json.loads((out / "q.deid.jsonl").read_text())["question"].startswith("Patient [NAME]")
