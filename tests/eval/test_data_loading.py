"""Datasets for the grid: a real on-disk format (JSONL + PNG) gets synthetic PHI injected, and is cached."""

import json

import cv2
import numpy as np

from clinx.config import compose
from clinx.eval.cli import load_dataset


def _write_jsonl_dataset(root):
    (root / "imgs").mkdir(parents=True)
    lines = []
    for i in range(2):
        img = np.full((60, 80, 3), 40 + 100 * i, np.uint8)
        cv2.imwrite(str(root / "imgs" / f"a{i}.png"), img)
        lines.append({"id": f"a{i}", "image": f"imgs/a{i}.png", "question": "Is there a lesion?",
                      "answer": "no", "answer_type": "closed"})
    (root / "test.jsonl").write_text("\n".join(json.dumps(l) for l in lines) + "\n")


def test_real_format_gets_synthetic_phi_and_is_cached(tmp_path):
    _write_jsonl_dataset(tmp_path / "data")
    cfg = compose("eval", ["data=jsonl", f"data.root={tmp_path / 'data'}", "n=2", "size=128"])
    samples = load_dataset(dict(cfg.data), cfg, tmp_path / "cache")
    assert len(samples) == 2
    for s in samples:
        assert s.manifest and s.mask is not None and s.mask.any()  # PHI drawn, true mask known
        assert s.image.shape == (128, 128, 3) and s.clean_image.shape == (128, 128, 3)
        assert s.clean_question == "Is there a lesion?" and s.question != s.clean_question
        assert s.answer == "no"
    saved = list((tmp_path / "cache" / "benchmarks").glob("jsonl-*/COMPLETE"))
    assert len(saved) == 1
    again = load_dataset(dict(cfg.data), cfg, tmp_path / "cache")  # served from the saved benchmark
    assert [s.id for s in again] == [s.id for s in samples]
    assert all(np.array_equal(a.image, b.image) for a, b in zip(again, samples))
