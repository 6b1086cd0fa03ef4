"""scripts/score_probe_lines.py: L2 on a probe line set, recall by category and case, PHI-free lines touched."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import score_probe_lines as S  # noqa: E402

from clinx.text.pipeline import TextPipeline  # noqa: E402


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_counts_caught_spans_and_touched_clean_lines(tmp_path):
    text = "Spoke with wife Okonkwo-Adeyemi at bedside."
    s = text.index("Okonkwo")
    rows = [
        {"id": "a1", "case": "mixed", "phi": True, "text": text, "spans": [[s, s + len("Okonkwo-Adeyemi"), "NAME"]]},
        # a made-up street the recognisers cannot know, written as a bare word: a miss to count
        {"id": "a2", "case": "lower", "phi": True, "text": "pt fell near zorbland yesterday", "spans": [[13, 21, "LOCATION"]]},
        {"id": "a3", "case": "lower", "phi": False, "text": "pt resting, pain 2/10, plan unchanged", "spans": []},
    ]
    r = S.score_file(_write(tmp_path / "probe_x_lines.jsonl", rows), TextPipeline("L2"))
    assert r["lines"] == 3 and r["spans"] == 2
    assert r["recall_by_category"]["NAME"] == [1, 1]
    assert r["recall_by_category"]["LOCATION"][1] == 1
    assert r["phi_free_lines_touched"] == [0, 1]
    assert r["recall_by_case"]["mixed"] == [1, 1]


def test_main_writes_json_with_every_set(tmp_path):
    rows = [{"id": "b1", "case": "caps", "phi": False, "text": "NO ACUTE DISTRESS, AMBULATING IN HALL", "spans": []}]
    f = _write(tmp_path / "probe_y_lines.jsonl", rows)
    out = tmp_path / "r.json"
    assert S.main([str(f), "--out", str(out)]) == 0
    d = json.loads(out.read_text())
    assert set(d["sets"]) == {"probe_y_lines.jsonl"} and d["sets"]["probe_y_lines.jsonl"]["phi_free_lines_touched"] == [0, 1]
