"""The out-of-fold scorer of the CRF (scripts/crf_out_of_fold.py): every tune file in exactly one fold, fold models
that learnt a file of their own fold refused, and the totals of per-note counts."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

_SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(_SCRIPTS))
_SPEC = importlib.util.spec_from_file_location("crf_out_of_fold", _SCRIPTS / "crf_out_of_fold.py")
oof = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(oof)


def _files(tmp_path, names):
    for n in names:
        (tmp_path / n).write_text('{"id": "x1", "text": "t", "spans": []}\n')
    return sorted(tmp_path / n for n in names)


def test_each_tune_file_falls_in_the_fold_its_name_names(tmp_path):
    files = _files(tmp_path, ["tune_notes_2026-12-02.jsonl", "tune_notes_2026-12-03b.jsonl", "tune_notes_2026-12-05c.jsonl"])
    groups = oof.fold_files(files, ["2026-12-02,2026-12-03", "2026-12-05"])
    assert [[f.name for f in g] for g in groups] == [
        ["tune_notes_2026-12-02.jsonl", "tune_notes_2026-12-03b.jsonl"], ["tune_notes_2026-12-05c.jsonl"]]


@pytest.mark.parametrize("folds", [["2026-12-02"], ["2026-12", "2026-12-02"]], ids=["a_file_in_no_fold", "a_file_in_two_folds"])
def test_a_file_in_no_fold_or_in_two_is_refused(tmp_path, folds):
    files = _files(tmp_path, ["tune_notes_2026-12-02.jsonl", "tune_notes_2026-12-05.jsonl"])
    with pytest.raises(SystemExit, match="exactly one fold"):
        oof.fold_files(files, folds)


def test_models_that_learnt_their_own_fold_are_refused(tmp_path, monkeypatch):
    data = tmp_path / "benchmarks" / "data"
    data.mkdir(parents=True)
    _files(data, ["tune_notes_2026-12-02.jsonl", "tune_notes_2026-12-05.jsonl"])
    monkeypatch.setattr(oof, "REPO", tmp_path)
    for i, learnt in enumerate(["tune_notes_2026-12-05.jsonl", "tune_notes_2026-12-05.jsonl"]):
        folder = tmp_path / "models" / f"fold{i}"
        folder.mkdir(parents=True)
        for m in oof.MODELS:
            (folder / m).write_bytes(b"model")
            (folder / f"{m}.json").write_text(json.dumps({"trained_on": [{"file": f"benchmarks/data/{learnt}", "notes": 1}]}))
    with pytest.raises(SystemExit, match="learnt a file of their own fold"):
        oof.main(["--models", str(tmp_path / "models"), "--fold", "2026-12-02", "--fold", "2026-12-05", "--out", str(tmp_path / "o.json")])


def test_totals_are_recall_and_precision_of_the_summed_counts():
    t = oof.totals({"a": [9, 10, 40, 50], "b": [1, 2, 10, 10]})
    assert (t["recall"], t["precision"], t["caught"], t["gold"], t["notes"]) == (round(10 / 12, 4), round(50 / 60, 4), 10, 12, 2)


def test_trees_whose_features_differ_are_refused_unless_allowed_and_then_noted():
    same, other = {"features_digest": "aa"}, {"features_digest": "bb"}
    assert oof.feature_mismatch(same, dict(same), allowed=False) is None
    with pytest.raises(SystemExit, match="different features"):
        oof.feature_mismatch(same, other, allowed=False)
    note = oof.feature_mismatch(same, other, allowed=True)
    assert "aa" in note and "bb" in note and "against the head" in note

