"""Membership bookkeeping of static and dynamic ICL: which records entered which prompt."""

import re

import numpy as np
import pytest

from clinx.audit.generate import ICLGenerator, membership, plan_prompts, strip_preamble
from clinx.llm.base import ChatLLM

CORPUS = [f"note number {i} with finding {i % 7}." for i in range(40)]


class RecordingLLM(ChatLLM):
    """Answers with a fixed note and keeps every prompt it was sent."""

    name = "recording"

    def __init__(self):
        super().__init__(cache=None)
        self.prompts: list[str] = []

    @property
    def model_id(self) -> str:
        return "recording"

    def _complete(self, messages, params):
        self.prompts.append(messages[-1]["content"])
        return f"Here is the new report:\n  synthetic   note {len(self.prompts)}\n"


def test_static_reuses_one_prompt_per_group():
    pool = list(range(10, 30))
    plans = plan_prompts(pool, n=7, k=2, regime="static", static_reuse=3, seed=0)
    assert len(plans) == 7 and len(set(plans)) == 3  # ceil(7 / 3) fixed prompts
    assert plans[0] == plans[1] == plans[2] and plans[3] == plans[4] == plans[5] and plans[6] != plans[5]
    assert all(len(set(p)) == 2 and set(p) <= set(pool) for p in plans)
    member = membership(plans, 40)
    assert member.sum() == 6 and set(np.flatnonzero(member)) == {i for p in plans for i in p}
    one = plan_prompts(pool, n=7, k=3, regime="static", seed=0)  # no reuse given: one prompt for every query
    assert len(set(one)) == 1 and membership(one, 40).sum() == 3


def test_dynamic_draws_fresh_exemplars_per_query():
    pool = list(range(10, 30))
    plans = plan_prompts(pool, n=6, k=3, regime="dynamic", seed=0)
    assert all(len(set(p)) == 3 and set(p) <= set(pool) for p in plans)
    flat = [i for p in plans for i in p]
    assert len(flat) == len(set(flat)) == 18  # the pool is large enough: no record enters two prompts
    assert membership(plans, 40).sum() == 18
    # a small pool is drawn again, but never twice in one prompt
    small = plan_prompts([1, 2, 3, 4], n=5, k=3, regime="dynamic", seed=1)
    assert all(len(set(p)) == 3 for p in small) and membership(small, 40).sum() == 4
    assert plans == plan_prompts(pool, n=6, k=3, regime="dynamic", seed=0)  # seeded


def test_preamble_is_cut_but_note_text_kept():
    assert strip_preamble("Sure! Here's a new chest X-ray report: The lungs are clear.") == "The lungs are clear."
    assert strip_preamble("Heart: normal size.  Lungs:\nclear.") == "Heart: normal size. Lungs: clear."


def test_plan_rejects_bad_settings():
    with pytest.raises(ValueError):
        plan_prompts([1, 2], n=3, k=3, regime="dynamic")
    with pytest.raises(ValueError):
        plan_prompts([1, 2, 3], n=3, k=1, regime="sometimes")


def test_generation_prompts_hold_exactly_the_planned_records():
    llm = RecordingLLM()
    gen = ICLGenerator(llm, instruction="Write one about {topic}.", topics=["a", "b"], max_tokens=8)
    plans = plan_prompts(range(40), n=4, k=2, regime="dynamic", seed=3)
    out = gen.generate(CORPUS, plans)
    assert [g.exemplars for g in out] == plans
    assert [g.topic for g in out] == ["a", "b", "a", "b"]
    assert out[0].text == "synthetic note 1"  # chat preamble cut, whitespace folded
    assert llm.prompts[1].endswith("Write one about b.")
    for prompt, plan in zip(llm.prompts, plans):
        shown = {int(m) for m in re.findall(r"note number (\d+) ", prompt)}
        assert shown == set(plan)  # the ground truth is what the model was shown, nothing else
    assert out[0].to_dict([f"id{i}" for i in range(40)])["exemplars"] == [f"id{i}" for i in plans[0]]


@pytest.mark.slow
def test_real_smollm2_generation_is_cached(tmp_path):
    from clinx.llm import get_llm

    llm = get_llm("llamacpp", cache=tmp_path / "llm")
    try:
        gen = ICLGenerator(llm, max_tokens=12)
        plans = plan_prompts(range(3), n=1, k=1, regime="static", seed=0)
        texts = ["The heart is enlarged. The lungs are clear. No pleural effusion."] * 3
        first = gen.generate(texts, plans)
        assert first[0].text.strip() and llm.stats.cache_hits == 0
        again = gen.generate(texts, plans)
        assert again[0].text == first[0].text and llm.stats.cache_hits == 1
    finally:
        llm.close()
