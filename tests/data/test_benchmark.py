"""Benchmark builder: determinism, PHI-free provenance, on-disk round trip, resume, training triples."""

import json

import numpy as np
import pytest

from clinx.data.benchmark import (
    build_benchmark,
    build_sample,
    inject_sample,
    is_saved,
    iter_training_triples,
    load_benchmark,
    save_benchmark,
    save_sample,
    summarize,
)
from clinx.data.builtin import make_base
from clinx.errors import InputError
from clinx.records import Sample


@pytest.fixture(scope="module")
def bench():
    return build_benchmark("test", n=6, seed=1, size=160)


def test_same_arguments_give_identical_arrays(bench):
    again = build_benchmark("test", n=6, seed=1, size=160)
    for a, b in zip(bench, again):
        assert a.id == b.id
        for f in ("image", "clean_image", "mask", "nonphi_mask"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), f
        assert (a.question, a.answer, a.manifest) == (b.question, b.answer, b.manifest)
        assert a.provenance == b.provenance
    other = build_benchmark("test", n=2, seed=2, size=160)
    assert not np.array_equal(other[0].image, bench[0].image)


def test_samples_are_complete(bench):
    for s in bench:
        assert s.image.shape == (160, 160, 3) and s.image.dtype == np.uint8
        assert s.clean_image.shape == s.image.shape
        assert s.mask.dtype == bool and s.mask.any()
        assert s.answer_type in ("closed", "open") and s.answer
        assert s.clean_question and s.clean_question.rstrip("?") in s.question
        assert s.question != s.clean_question
        p = s.provenance
        assert p["split"] == "test" and p["seed"] == 1 and p["base_source"]
        assert set(p["image_fields"]) <= set(s.manifest.fields)
        assert set(p["question_fields"]) <= set(s.manifest.fields)
        assert p["question_position"] in ("before", "after", "inside")


def test_nothing_outside_the_manifest_carries_phi(bench):
    for s in bench:
        public = json.dumps({"id": s.id, "provenance": s.provenance, "nonphi": s.nonphi_texts})
        for _, value in s.manifest.items():
            assert value not in public


def test_save_load_round_trip_and_resume(bench, tmp_path):
    folder = tmp_path / "bench"
    index = save_benchmark(bench, folder)
    assert index.name == "samples.jsonl" and len(index.read_text().splitlines()) == len(bench)
    readme = (folder / "README.md").read_text()
    assert "PHI (synthetic)" in readme and "manifests/" in readme
    loaded = load_benchmark(folder)
    assert [s.id for s in loaded] == [s.id for s in bench]
    for a, b in zip(bench, loaded):
        assert np.array_equal(a.image, b.image) and np.array_equal(a.clean_image, b.clean_image)
        assert np.array_equal(a.mask, b.mask) and np.array_equal(a.nonphi_mask, b.nonphi_mask)
        assert a.manifest == b.manifest
        assert (a.question, a.clean_question, a.answer, a.answer_type) == (b.question, b.clean_question, b.answer, b.answer_type)
        assert a.provenance == b.provenance and a.nonphi_texts == b.nonphi_texts
    # A rerun skips finished samples and leaves their files untouched.
    img = folder / "images" / f"{bench[0].id}.png"
    before = img.stat().st_mtime_ns
    assert is_saved(folder, bench[0].id) and save_sample(bench[0], folder) is False
    save_benchmark(bench, folder)
    assert img.stat().st_mtime_ns == before
    assert not list(folder.rglob("*.tmp"))
    assert len(load_benchmark(folder, split="test", limit=2)) == 2
    assert load_benchmark(folder, split="train") == []


def test_broken_benchmark_folder_names_the_item_not_the_phi(bench, tmp_path):
    folder = tmp_path / "b"
    save_benchmark(bench[:2], folder)
    (folder / "manifests" / f"{bench[1].id}.json").write_text("{not json")
    with pytest.raises(InputError) as e:
        load_benchmark(folder)
    assert bench[1].id in str(e.value)
    (folder / "samples.jsonl").write_text("{oops\n")
    with pytest.raises(InputError, match="samples.jsonl:1"):
        load_benchmark(folder)
    with pytest.raises(InputError):
        load_benchmark(tmp_path / "missing")


def test_summary_counts(bench):
    s = summarize(bench)
    assert s["split"] == {"test": 6}
    assert sum(s["answer_type"].values()) == 6 and sum(s["modality"].values()) == 6


def test_training_triples_fresh_phi_per_epoch():
    a = list(iter_training_triples("train", 96, 0, n=4))
    b = list(iter_training_triples("train", 96, 0, n=4, epoch=1))
    assert len(a) == 4
    for i, ((xt, m, x), (xt2, m2, x2)) in enumerate(zip(a, b)):
        assert xt.shape == x.shape == (96, 96, 3) and m.shape == (96, 96) and m.dtype == bool
        base = make_base("train", i, 0, 96).image  # same base sequence in every epoch
        for tilde, mask, target in ((xt, m, x), (xt2, m2, x2)):
            overlay = (tilde != base).any(axis=2)
            # the target is the base outside the overlay (text that happens to match the scan's
            # colour on a backing box leaves x̃ equal to the base there, and the box in the target)
            assert ((target != base).any(axis=2) & ~overlay).mean() < 0.01
            assert not (mask & ~overlay).any()
            assert not mask.any() or (tilde != target).any(axis=2)[mask].mean() > 0.97  # no text in the target (faint edges on a box round to it)
        assert not np.array_equal(xt, xt2)  # new identity and layout
    # Training bases come from the train split only.
    test_x = {build_sample("test", i, 0, 96).clean_image.tobytes() for i in range(4)}
    assert not any(x.tobytes() in test_x for _, _, x in a)


def test_dataset_samples_can_be_injected_too():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (90, 120, 3), dtype=np.uint8)
    src = Sample(id="vqa_rad/17", image=img, question="Is the heart enlarged?", answer="no", answer_type="closed",
                 provenance={"dataset": "vqa_rad"})
    s = inject_sample(src, "test", 3, 0, 192)
    assert s.image.shape == (192, 192, 3) and s.mask.any()
    assert s.answer == "no" and s.clean_question == "Is the heart enlarged?" and "Is the heart enlarged" in s.question
    assert s.provenance["base_source"] == "vqa_rad" and s.provenance["source_id"] == "vqa_rad/17"
    assert "/" not in s.id
    with pytest.raises(InputError):
        inject_sample(Sample(id="x"), "test", 0)
