"""scripts/report_tables.py renders README tables from benchmark JSONs; clinx.provenance stamps those JSONs."""

import importlib.util
import json
from pathlib import Path

import pytest

from clinx.provenance import provenance, write_figures

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rt():
    spec = importlib.util.spec_from_file_location("report_tables", ROOT / "scripts" / "report_tables.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_figures_carry_the_commit_machine_and_load(tmp_path):
    out = write_figures(tmp_path / "sub" / "b.json", {"em/l0/raw": 50.0}, _meta={"n": 2})
    doc = json.loads(out.read_text())
    assert doc["em/l0/raw"] == 50.0 and doc["_meta"] == {"n": 2}
    assert len(doc["provenance/git_commit"]) == 40  # a real commit of this repository, not "unknown"
    assert doc["provenance/cpu_count"] >= 1 and doc["provenance/load_avg_1m"] >= 0
    assert set(provenance()) <= set(doc)


def test_demo_table_is_rendered_from_the_json_and_replaces_only_its_section(rt, tmp_path):
    fig = {"em/l0/raw": 62.5, "f1/l0/raw": 62.5, "yn_em/l0/raw": 70.0, "judge/smollm2/l0/raw": 90.0,
           "em/l0/prism": 65.625, "f1/l0/prism": 65.625, "yn_em/l0/prism": 71.0, "judge/smollm2/l0/prism": 91.0,
           "diff/em/l0/prism-raw": 3.125, "diff_se/em/l0/prism-raw": 2.0,
           "token_recall/raw/rapidocr": 0.99, "token_recall/prism/rapidocr": 0.0, "n_items": 32, "wall_s": 300.0,
           "wall_s_cached": 4.0}
    write_figures(tmp_path / "bench_eval.json", fig)
    md = rt.render("demo", tmp_path)
    assert "| L0 | PRISM | 65.6 | 65.6 | 71.0 | 91.0 | +3.1 ± 2.0 |" in md
    assert "| RapidOCR | 0.990 | 0.000 |" in md and "benchmarks/results/bench_eval.json" in md
    assert rt.render("restore", tmp_path) is None  # no JSON, no table
    readme = "intro\n<!-- table:demo -->\nold table\n<!-- /table:demo -->\nrest\n<!-- table:restore -->\nkept\n<!-- /table:restore -->\n"
    new, done = rt.replace_sections(readme, {"demo": md})
    assert done == ["demo"] and "old table" not in new and md in new
    assert new.startswith("intro\n<!-- table:demo -->\n") and "rest\n<!-- table:restore -->\nkept\n" in new


def test_evidence_items_get_their_own_figures_and_paired_differences():
    from clinx.eval.grid import GridResult
    from clinx.eval.report import evidence_figures, evidence_markdown, flat_figures

    rows = []
    for i in range(6):
        ev = i < 4
        for cond, em in (("raw", 1.0), ("ocr", 0.0 if ev else 1.0), ("prism", 1.0 if i % 2 == 0 else 0.0)):
            rows.append({"dataset": "d", "model": "m", "block": "grid", "condition": cond, "level": "l0",
                         "item": f"it{i}", "answer_type": "closed", "evidence": ev, "em": em, "f1": em, "yn_em": em})
    result = GridResult(rows=rows, meta={"levels": ["l0"], "conditions": ["raw", "ocr", "prism"]})
    figs = evidence_figures(result)
    assert figs["n/evidence"] == 4 and figs["em/evidence/ocr"] == 0.0 and figs["em/evidence/prism"] == 50.0
    assert figs["em_diff/evidence/prism-ocr"] == 50.0 and figs["em_diff_se/evidence/prism-ocr"] > 0
    assert "em_diff/evidence/gskip-ocr" not in figs  # not run, not reported
    assert figs.items() <= flat_figures(result).items()
    assert "Evidence under the mask" in evidence_markdown(result)
    for r in rows:
        r["evidence"] = False
    assert evidence_figures(result) == {} and evidence_markdown(result) == ""
