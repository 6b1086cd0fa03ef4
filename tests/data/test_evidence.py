"""Evidence-under-the-mask items: a lesion partly under a PHI line, deterministic, flagged, answered by the facts."""

import numpy as np

from clinx.data.benchmark import build_benchmark
from clinx.data.evidence import COVER_RANGE, _covered, _disc, build_evidence_sample


def test_items_are_deterministic_flagged_and_partly_covered():
    items = [build_evidence_sample("test", i, 0, 256) for i in range(10)]
    again = build_evidence_sample("test", 3, 0, 256)
    assert np.array_equal(again.image, items[3].image) and again.question == items[3].question
    present = [s for s in items if s.provenance["evidence_lesion_present"]]
    absent = [s for s in items if not s.provenance["evidence_lesion_present"]]
    assert present and absent  # both answers occur
    for s in items:
        p = s.provenance
        assert p["evidence_under_mask"] and s.mask.any() and p["question_family"] in ("lesion_any", "lesion_side")
        assert s.answer in ("yes", "no") and s.id.endswith("-ev")
    for s in present:
        # Partly, never wholly, under the overlay; and the lesion is really in the pixels.
        assert COVER_RANGE[0] <= s.provenance["evidence_covered_box"] <= COVER_RANGE[1]
        assert s.clean_image.max() >= 230
        if s.provenance["question_family"] == "lesion_any":
            assert s.answer == "yes"
    for s in absent:
        if s.provenance["question_family"] == "lesion_any":
            assert s.answer == "no"


def test_covered_share_counts_backing_boxes():
    class Fake:
        drawn, nonphi_texts = [], []
        backings = [(0, 0, 32, 64)]

    disc = _disc((64, 64), 32.0, 32.0, 10.0)
    assert 0.4 < _covered(disc, Fake()) < 0.6


def test_benchmark_mixes_evidence_items_only_when_asked():
    plain = build_benchmark("test", 6, 0, 128)
    mixed = build_benchmark("test", 6, 0, 128, evidence_share=0.5)
    assert not any(s.provenance.get("evidence_under_mask") for s in plain)
    assert any(s.provenance.get("evidence_under_mask") for s in mixed)
    # Items that are not evidence items are the same as before.
    for a, b in zip(plain, mixed):
        if not b.provenance.get("evidence_under_mask"):
            assert np.array_equal(a.image, b.image) and a.question == b.question
