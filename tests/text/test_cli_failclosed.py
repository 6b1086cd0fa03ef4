"""clinx text fails closed: it never touches files it did not write, damaged lines are per-row errors, setup errors exit 2."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clinx.config import compose
from clinx.errors import ClinxError
from clinx.text import cli as text_cli
from clinx.text.cli import JOURNAL, run

ROOT = Path(__file__).resolve().parents[2]
PHI_Q = "Patient John Smith, DOB 03/14/1961: is the left lung clear?"


def cfg(out, *overrides):
    return compose("text", [f"output_dir={out}", "progress=false", *overrides])


def jsonl(path: Path, *questions, extra=None) -> Path:
    path.write_text("".join(json.dumps({"question": q, **(extra or {})}) + "\n" for q in questions))
    return path


def test_an_input_named_like_an_output_inside_output_dir_is_refused_untouched(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    src = jsonl(out / "audit.jsonl", PHI_Q)
    before = src.read_bytes()
    with pytest.raises(ClinxError, match="would overwrite the input"):
        run(cfg(out, f"input={src}"))
    assert src.read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["audit.jsonl"]  # nothing written, no lock left


def test_same_collision_in_an_earlier_run_folder_is_refused(tmp_path):
    out = tmp_path / "out"
    run(cfg(out, f"input={jsonl(tmp_path / 'q.jsonl', PHI_Q)}"))
    src = out / "audit.jsonl"  # the user now points clinx at its own audit trail
    before = src.read_bytes()
    with pytest.raises(ClinxError, match="would overwrite the input"):
        run(cfg(out, f"input={src}"))
    assert src.read_bytes() == before


def test_a_folder_clinx_did_not_write_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("the user's own file")
    with pytest.raises(ClinxError, match="not empty"):
        run(cfg(out, f"input={jsonl(tmp_path / 'q.jsonl', PHI_Q)}"))
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "the user's own file"


def test_an_earlier_run_folder_is_reused_but_unrecorded_files_are_not_replaced(tmp_path):
    out = tmp_path / "out"
    src = jsonl(tmp_path / "q.jsonl", PHI_Q)
    run(cfg(out, f"input={src}"))
    journal = json.loads((out / JOURNAL).read_text())
    assert journal["app"] == "text" and "q.deid.jsonl" in journal["files"] and journal["status"] == "done"
    (out / "mine.txt").write_text("kept")
    s = run(cfg(out, f"input={src}"))  # a rerun into its own folder is fine; the user's extra file stays
    assert s["ok"] == 1 and (out / "mine.txt").read_text() == "kept"
    # a second input whose output name clinx never recorded there, but that the user has put in place
    other = jsonl(tmp_path / "r.jsonl", PHI_Q)
    (out / "r.deid.jsonl").write_text("user data")
    with pytest.raises(ClinxError, match="no clinx text run wrote"):
        run(cfg(out, f"input={other}"))
    assert (out / "r.deid.jsonl").read_text() == "user data"


def test_output_dir_that_is_a_file_is_a_setup_error(tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    with pytest.raises(ClinxError, match="not a folder"):
        run(cfg(f, f"input={jsonl(tmp_path / 'q.jsonl', PHI_Q)}"))
    assert f.read_text() == "x"


def test_damaged_jsonl_lines_are_row_errors_and_valid_rows_are_kept(tmp_path):
    src = tmp_path / "q.jsonl"
    deep = '{"question": ' + "[" * 100_000 + "]" * 100_000 + "}"
    huge = json.dumps({"question": "x" * 400_000})
    with src.open("wb") as f:
        f.write(json.dumps({"question": PHI_Q}).encode() + b"\n")
        f.write(b'{"question": "Patient Ren\xe9e Paul \xff"}\n')  # Latin-1, not UTF-8
        f.write(deep.encode() + b"\n")
        f.write(huge.encode() + b"\n")
        f.write(json.dumps({"question": "Is the heart enlarged?"}).encode() + b"\n")
    out = tmp_path / "out"
    s = run(cfg(out, f"input={src}", "max_line_bytes=300000"))
    rows = [json.loads(x) for x in (out / "q.deid.jsonl").read_text().splitlines()]
    assert [r["question"] for r in rows] == ["Patient [NAME], DOB [DATE]: is the left lung clear?", "Is the heart enlarged?"]
    errs = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
    assert [e["item"] for e in errs] == ["line 2", "line 3", "line 4"]
    assert "UTF-8" in errs[0]["problem"] and "nested too deeply" in errs[1]["problem"] and "max_line_bytes" in errs[2]["problem"]
    assert s["errors"] == 3 and s["ok"] == 2 and s["status"] == "ok"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["errors_by_stage"] == {"read": 3}
    dump = (out / "errors.jsonl").read_text() + (out / "summary.json").read_text()
    assert "Ren" not in dump and "Paul" not in dump


def test_damaged_csv_lines_are_row_errors_and_valid_rows_are_kept(tmp_path):
    src = tmp_path / "n.csv"
    src.write_bytes(
        b"id,note\n"
        b'1,"Seen by Dr. Ren\xe9e Paul"\n'  # Latin-1 inside a cell
        b'2,"Patient John Smith, DOB 03/14/1961"\n'
        b'3,"first line\nsecond \xff line of one note"\n'  # the damaged line is inside a quoted cell
        b'4,"What organ is shown?"\n'
        b'5,"' + b"y" * 5000 + b'"\n'  # longer than max_line_bytes
        b'6,"Is the heart enlarged?"\n'
    )
    out = tmp_path / "out"
    s = run(cfg(out, f"input={src}", "field=note", "max_line_bytes=4096"))
    import csv

    rows = list(csv.DictReader((out / "n.deid.csv").open(newline="")))
    assert [r["id"] for r in rows] == ["2", "4", "6"]
    assert rows[0]["note"] == "Patient [NAME], DOB [DATE]"
    errs = [json.loads(x) for x in (out / "errors.jsonl").read_text().splitlines()]
    assert [e["item"] for e in errs] == ["line 2", "line 5", "line 7"]
    assert "UTF-8" in errs[0]["problem"] and "UTF-8" in errs[1]["problem"] and "max_line_bytes" in errs[2]["problem"]
    assert s["errors"] == 3 and s["ok"] == 3
    assert "Ren" not in (out / "errors.jsonl").read_text()


def test_a_csv_header_that_is_not_utf8_is_one_clear_error(tmp_path):
    src = tmp_path / "n.csv"
    src.write_bytes(b"id,n\xf6te\n1,x\n")
    with pytest.raises(ClinxError, match="CSV header"):
        run(cfg(tmp_path / "out", f"input={src}", "field=note"))
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["status"] == "failed"


def test_row_ids_and_file_names_are_not_echoed_unless_allowed(tmp_path):
    src = jsonl(tmp_path / "q.jsonl", 7, extra={"pid": "SMITH-JOHN"})
    out = tmp_path / "out"
    run(cfg(out, f"input={src}", "id_field=pid"))
    assert "SMITH" not in (out / "errors.jsonl").read_text()
    run(cfg(tmp_path / "out2", f"input={src}", "id_field=pid", "log.paths=relative"))
    assert "pid=SMITH-JOHN" in (tmp_path / "out2" / "errors.jsonl").read_text()

    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "john_smith.txt").write_bytes(b"\xff not utf-8")
    (folder / "ok.txt").write_text("Seen by Dr. Alan Turing.")
    outside = tmp_path / "outside.txt"
    outside.write_text("Patient Mary Major")
    (folder / "link.txt").symlink_to(outside)
    (folder / "scan.gif").write_bytes(b"GIF89a")
    s = run(cfg(tmp_path / "out3", f"input={folder}", "output.names=hash"))
    errs = (tmp_path / "out3" / "errors.jsonl").read_text()
    assert "john" not in errs and "symbolic link" in errs and "not UTF-8" in errs
    released = [p.name for p in (tmp_path / "out3" / "texts").iterdir()]
    assert len(released) == 1 and released[0] != "ok.txt"  # the link was not followed, the name is opaque
    assert s["ok"] == 1 and s["errors"] == 2 and s["not_processed"] == {"not a .txt file": 1}


def test_two_default_run_folders_in_the_same_instant_are_distinct(tmp_path, monkeypatch):
    monkeypatch.setattr(text_cli, "run_dir", lambda: tmp_path / "runs" / "same-instant")
    src = jsonl(tmp_path / "q.jsonl", PHI_Q)
    a = run(compose("text", [f"input={src}", "progress=false"]))
    b = run(compose("text", [f"input={src}", "progress=false"]))
    assert a["output_dir"] != b["output_dir"]
    assert (Path(a["output_dir"]) / "q.deid.jsonl").exists() and (Path(b["output_dir"]) / "q.deid.jsonl").exists()
    # Hydra's own run folder is named to the microsecond, so it differs too
    from omegaconf import OmegaConf

    assert "%f}" in OmegaConf.to_container(OmegaConf.load(ROOT / "configs" / "text.yaml"))["hydra"]["run"]["dir"]


def _cli(tmp_path, *args):
    return subprocess.run(
        [sys.executable, "-m", "clinx.cli", "text", *args, "progress=false", f"hydra.run.dir={tmp_path / 'hydra'}"],
        cwd=ROOT, capture_output=True, text=True, timeout=180, env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )


def test_setup_errors_are_one_line_and_exit_2(tmp_path):
    src = jsonl(tmp_path / "q.jsonl", PHI_Q)
    for args, words in (
        ([f"input={src}", "max_chars=abc"], "max_chars must be a whole number"),
        ([f"input={src}", "text.level=L9"], "unknown text level"),
        ([f"input={tmp_path / 'missing.jsonl'}"], "input not found"),
    ):
        p = _cli(tmp_path, *args, f"output_dir={tmp_path / 'o'}")
        assert p.returncode == 2, (args, p.stderr[-500:])
        lines = [ln for ln in p.stderr.splitlines() if ln.startswith("clinx text:")]
        assert len(lines) == 1 and words in lines[0]
        assert "Traceback" not in p.stderr
