"""scripts/compare_commits_on_notes.py: the paired difference of two commits' per-note counts."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import compare_commits_on_notes as C  # noqa: E402


def test_paired_difference_and_its_se():
    base = {"a": [8, 10, 0, 0], "b": [9, 10, 0, 0], "c": [5, 10, 0, 0]}
    head = {"a": [9, 10, 0, 0], "b": [9, 10, 0, 0], "c": [7, 10, 0, 0]}
    r = C.paired(base, head, 0, 1, draws=400)
    assert r["base"] == round(22 / 30, 4) and r["head"] == round(25 / 30, 4) and r["diff"] == round(3 / 30, 4)
    assert 0 < r["se"] < r["diff"]


def test_no_change_has_no_spread():
    base = {"a": [8, 10, 0, 0], "b": [9, 10, 0, 0]}
    r = C.paired(base, base, 0, 1, draws=100)
    assert r["diff"] == 0 and r["se"] == 0


def test_a_stored_format_keeps_each_gold_span_on_its_text(tmp_path):
    import json

    from clinx.text.notes_eval import load_dev_notes

    src = tmp_path / "notes.jsonl"
    text = "Seen by Dr. John Smith today at Mercy Hospital in Springfield for a fall at home last night.\nok"
    src.write_text(json.dumps({"id": "f1", "split": "blind", "style": "mixed", "text": text,
                               "spans": [[12, 22, "NAME"], [32, 46, "HOSPITAL"], [50, 61, "LOCATION"]]}) + "\n")
    for fmt in ("wrap60", "crlf", "nbsp"):
        (note,) = load_dev_notes(path=C.write_format(src, fmt, tmp_path / f"{fmt}.jsonl"))
        assert [note.text[a:b].replace("\xa0", " ").replace("\n", " ") for a, b, _ in note.spans] == \
            ["John Smith", "Mercy Hospital", "Springfield"], fmt
        assert note.text != text
