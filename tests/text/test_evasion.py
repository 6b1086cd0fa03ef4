"""The evasion set is what it claims (seeded, evaded, ≥ 500 identifiers) and L2 catches every evaded identifier it catches plainly."""

from collections import Counter

from clinx.text.evasion import CATEGORIES, EVASIONS, build_evasion_set, evasion_recall
from clinx.text.pipeline import TextPipeline
from clinx.text.unicode import fold


def test_set_is_seeded_large_and_balanced():
    items = build_evasion_set()
    assert len(items) >= 500
    assert build_evasion_set() == items  # same seed, same set
    assert build_evasion_set(seed=1) != items
    cells = Counter((it.category, it.evasion) for it in items)
    assert set(cells) == {(c, e) for c in CATEGORIES for e in EVASIONS} and len(set(cells.values())) == 1


def test_every_item_is_evaded_and_reads_back_as_its_value():
    for it in build_evasion_set(n_per_cell=10, seed=3):
        assert it.value.isascii() and not it.text.isascii(), it.evasion
        assert it.value not in it.text  # the plain identifier is not there to find
        # a reader (the fold) sees the value itself in the question
        assert it.value.lower() in fold(it.text, casefold=True).text, (it.category, it.evasion)


def test_l2_recall_on_evasions_equals_its_recall_on_plain_identifiers():
    r = evasion_recall("L2", n_per_cell=10, seed=0)
    assert r["n_identifiers"] == 10 * len(CATEGORIES) * len(EVASIONS)
    assert r["recall/evasion/L2/vs_plain"] == 1.0
    assert r["recall/plain/L2"] >= 0.95
    for ev in EVASIONS:
        assert r[f"recall/evasion/L2/{ev}"] >= r["recall/plain/L2"] - 1e-9


class _NoFold:
    """The levels on the raw text: what the pipeline did before Unicode folding."""

    level = "L2"

    def __init__(self):
        self.pipe = TextPipeline("L2")

    def run(self, text):
        for lvl in self.pipe.levels:
            text = lvl.apply(text).text
        return type("R", (), {"text": text})()


def test_the_set_defeats_a_pipeline_without_folding():
    # the measurement can fail: without the fold most evaded identifiers survive
    r = evasion_recall("L2", n_per_cell=5, seed=0, pipeline=_NoFold())
    assert r["recall/evasion/L2"] < 0.7
