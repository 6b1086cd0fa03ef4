"""The converter of the writers' inline marks (scripts/convert_annotated_notes.py): spans at the right characters, and
a batch refused, with nothing written, for each kind of mistake the brief names."""

import importlib.util
import json
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "convert_annotated_notes", Path(__file__).resolve().parents[2] / "scripts" / "convert_annotated_notes.py")
conv = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(conv)

_BODY = "pt ⟦NAME|teodoro balagtas⟧, ⟦AGE|91⟧m, mrn ⟦ID|41-77092⟧, seen at ⟦HOSPITAL|riverside occ health⟧ ⟦DATE|9/18/24⟧. "


def _rows(n=2, styles=("lower", "caps"), body=_BODY * 6):
    return [{"id": f"qq{k + 1}", "style": styles[k], "text": body} for k in range(n)]


def test_the_spans_land_on_the_marked_words():
    text, spans, problems = conv.convert_text(_BODY)
    assert not problems
    assert [(text[s:e], c) for s, e, c in spans] == [
        ("teodoro balagtas", "NAME"), ("91", "AGE"), ("41-77092", "ID"), ("riverside occ health", "HOSPITAL"), ("9/18/24", "DATE")]
    assert "⟦" not in text and "|" not in text


@pytest.mark.parametrize(
    "raw,problem",
    [("seen by ⟦DOCTOR|amy cho⟧", "unknown category"), ("seen by ⟦NAME| amy cho⟧", "blanks at the edge"),
     ("seen by ⟦NAME|amy cho", "malformed mark"), ("seen by ⟦NAME|⟧ today", "empty")],
    ids=["unknown_category", "blank_edge", "unclosed_mark", "empty_span"],
)
def test_each_kind_of_mark_mistake_is_named(raw, problem):
    assert any(problem in p for p in conv.convert_text(raw)[2])


def test_a_good_batch_converts():
    notes, problems = conv.convert(_rows(), "qq", "tune", 2, {"lower": 1, "caps": 1})
    assert not problems and [n["split"] for n in notes] == ["tune", "tune"] and len(notes[0]["spans"]) == 30


@pytest.mark.parametrize(
    "rows,problem",
    [(_rows()[::-1], "ids must be"), (_rows(styles=("lower", "lower")), "style counts"), (_rows(body=_BODY), "characters")],
    ids=["ids_out_of_order", "wrong_style_counts", "too_short"],
)
def test_a_batch_with_a_mistake_is_refused(rows, problem):
    assert any(problem in p for p in conv.convert(rows, "qq", "tune", 2, {"lower": 1, "caps": 1})[1])


def test_the_command_writes_nothing_for_a_refused_batch_and_the_notes_for_a_good_one(tmp_path, capsys):
    raw, out = tmp_path / "raw.jsonl", tmp_path / "notes.jsonl"
    raw.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in _rows(styles=("lower", "lower"))), encoding="utf-8")
    assert conv.main([str(raw), str(out), "--prefix", "qq", "--split", "tune", "--count", "2", "--styles", "lower=1,caps=1"]) == 1
    assert not out.exists() and "teodoro" not in capsys.readouterr().out  # (problems name ids and counts, never a value)
    raw.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in _rows()), encoding="utf-8")
    assert conv.main([str(raw), str(out), "--prefix", "qq", "--split", "tune", "--count", "2", "--styles", "lower=1,caps=1"]) == 0
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == ["qq1", "qq2"]
