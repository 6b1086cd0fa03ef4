"""L3 end to end with the real embedded SmolLM2 (llama.cpp), both strategies.

SmolLM2-135M is weak, so these tests assert only what must hold *whatever
the model says*: no manifest value survives; the output is either an accepted
rewrite that keeps the clinical terms and question form of the L2 text, or
exactly the L2 text; never the original when it carried PHI.
"""

import pytest

from clinx.records import Manifest
from clinx.text.clinical import check_clinical
from clinx.text.pipeline import TextPipeline, deidentify, rescan
from clinx.text.rewrite import make_l3
from clinx.text.rewrite.validate import manifest_token_hits

pytestmark = pytest.mark.slow

CASES = [
    ("Does Zebulon Quackenbush (MRN 4471923), a 67 year old retired firefighter, have pneumonia in the right lung on this chest x-ray?",
     Manifest({"patient_name": "Zebulon Quackenbush", "mrn": "4471923"})),
    ("Is there a fracture of the left femur in the x-ray of Mary Okonkwo taken on 03/14/2019 at St. Luke's Hospital?",
     Manifest({"patient_name": "Mary Okonkwo", "study_date": "03/14/2019", "hospital_name": "St. Luke's Hospital"})),
    ("Where is the mass in the liver on the CT of patient Ahmed Khan, whose wife is a teacher?",
     Manifest({"patient_name": "Ahmed Khan"})),
]


@pytest.fixture(scope="module")
def llm(tmp_path_factory):
    from clinx.llm import get_llm

    m = get_llm("llamacpp", cache=tmp_path_factory.mktemp("llm_cache"))
    yield m
    m.close()


def check_invariants(original, manifest, l2_text, res):
    for _, value in manifest.items():
        assert value.lower() not in res.text.lower()
    assert manifest_token_hits(res.text, manifest) == []
    assert res.text != original
    if res.accepted:
        assert res.notes["source"] in ("llm", "draft")
        assert check_clinical(l2_text, res.text).ok
        assert rescan(res.text, manifest) == []
    else:
        assert res.text == l2_text and res.notes["source"] == "fallback"


@pytest.mark.parametrize("strategy", ["single", "multi_agent"])
def test_l3_invariants_with_real_smollm2(llm, strategy):
    l3 = make_l3(strategy, llm=llm)
    for original, manifest in CASES[:2]:
        l2 = deidentify(original, "L2", manifest)
        res = l3.apply(l2.text, manifest)
        check_invariants(original, manifest, l2.text, res)
        assert res.level == "L3" and res.notes["strategy"] == strategy
        assert res.notes["llm_calls"] == (1 if strategy == "single" else 3)
        assert all(s.value is None for s in res.removed)


def test_pipeline_l3_and_cache_makes_reruns_free(llm):
    """Through the text pipeline (L1 -> L2 -> L3): same answer on rerun, served from the cache."""
    original, manifest = CASES[2]
    pipe = TextPipeline("L3", strategy="multi_agent", llm=llm)
    first = pipe.run(original, manifest)
    hits = llm.stats.cache_hits
    second = pipe.run(original, manifest)
    assert second.text == first.text and llm.stats.cache_hits == hits + 3
    l2 = deidentify(original, "L2", manifest).text
    check_invariants(original, manifest, l2, TextResultView(first))


class TextResultView:
    """The pipeline nests per-level notes; view the L3 part like a level result."""

    def __init__(self, res):
        self.text, self.accepted, self.notes = res.text, res.accepted, res.notes["L3"]
