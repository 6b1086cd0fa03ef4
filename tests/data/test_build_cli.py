"""``clinx build``: the real console entry point, Hydra overrides, run folder, resume, dataset configs."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from clinx.config import compose

REPO = Path(__file__).resolve().parents[2]


def _build(*overrides, cwd):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "clinx.cli", "build", *overrides], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_build_writes_a_benchmark_and_resumes(tmp_path):
    out, runs = tmp_path / "bench", tmp_path / "runs"
    args = ["split=[test,val]", "n=3", "size=128", "seed=4", f"out_dir={out}", f"paths.runs_dir={runs}", "progress=false"]
    r = _build(*args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "built 6" in r.stdout and "per split" in r.stdout and "test: 3" in r.stdout and "val: 3" in r.stdout
    assert "per modality" in r.stdout and "per answer_type" in r.stdout
    lines = (out / "samples.jsonl").read_text().splitlines()
    assert len(lines) == 6
    rec = json.loads(lines[0])
    assert Image.open(out / rec["image"]).size == (128, 128)
    assert (out / "config_resolved.yaml").is_file()
    run_dirs = list((runs / "build").iterdir())
    assert len(run_dirs) == 1 and (run_dirs[0] / "config_resolved.yaml").is_file()
    summary = json.loads((run_dirs[0] / "build_summary.json").read_text())
    assert summary["built"] == 6 and summary["split"] == {"test": 3, "val": 3}
    # No manifest value leaks into what the CLI printed.
    for line in lines:
        m = json.loads((out / json.loads(line)["manifest"]).read_text())
        for v in m["fields"].values():
            assert v not in r.stdout and v not in r.stderr

    again = _build(*args, cwd=tmp_path)
    assert again.returncode == 0 and "built 0, already there 6" in again.stdout


def test_build_from_a_jsonl_dataset(tmp_path):
    data = tmp_path / "ds"
    (data / "imgs").mkdir(parents=True)
    rows = []
    for i in range(2):
        Image.fromarray(np.full((60, 80, 3), 40 + 60 * i, np.uint8)).save(data / "imgs" / f"{i}.png")
        rows.append({"id": f"q{i}", "image": f"imgs/{i}.png", "question": "Is this normal?", "answer": "yes"})
    (data / "test.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    out = tmp_path / "bench"
    r = _build("data=jsonl", f"data.root={data}", "n=5", "size=160", f"out_dir={out}",
               f"paths.runs_dir={tmp_path / 'runs'}", "progress=false", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    recs = [json.loads(l) for l in (out / "samples.jsonl").read_text().splitlines()]
    assert len(recs) == 2 and all(rec["clean_question"] == "Is this normal?" for rec in recs)
    assert sorted(rec["provenance"]["source_id"].rsplit("/", 1)[-1] for rec in recs) == ["q0", "q1"]
    assert all(rec["provenance"]["image_fields"] for rec in recs)


def test_build_config_composes_with_every_data_group():
    cfg = compose("build", [])
    assert cfg.data.fmt == "builtin" and cfg.n == 300 and cfg.size == 512 and cfg.split == "test"
    for name in ("vqa_rad", "slake", "pathvqa", "jsonl", "parquet"):
        c = compose("build", [f"data={name}", "data.root=/nowhere"])
        assert c.data.fmt == name and c.data.root == "/nowhere"
        assert c.data._target_ == "clinx.data.readers.read_dataset"
    from clinx.data.readers import READERS

    assert {"vqa_rad", "slake", "pathvqa", "jsonl", "parquet"} <= set(READERS.names())


def test_build_native_split(tmp_path):
    from clinx.data.native import HEADER_FIELDS, load_native

    out = tmp_path / "native"
    r = _build("split=native", "n=2", f"out_dir={out}", f"paths.runs_dir={tmp_path / 'runs'}", "progress=false",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "built 2" in r.stdout and "native: 2" in r.stdout
    items = load_native(out)
    assert [it.id for it in items] == ["native-s0-00000", "native-s0-00001"]
    for it in items:
        assert it.drawn and set(it.sample.manifest.fields) <= set(HEADER_FIELDS)
        assert (out / "drawn" / f"{it.id}.json").is_file()
        with Image.open(out / "images" / f"{it.id}.png") as im:
            assert im.size == (it.sample.provenance["width"], it.sample.provenance["height"])
        for d in it.drawn:  # the drawn strings are PHI: never printed
            assert d.text not in r.stdout and d.text not in r.stderr
    assert {it.sample.image.shape[0] for it in items} != {512}
