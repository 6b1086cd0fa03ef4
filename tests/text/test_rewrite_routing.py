"""Multi-agent routing, agents and fallbacks with a scripted ChatLLM.

A scripted test double is used here on purpose: these tests pin the
*deterministic* logic (what is kept, how conflicts are routed, when a rewrite
is rejected) independent of what a real model says. The real SmolLM2 runs end
to end in test_rewrite_e2e.py.
"""

import json

import pytest

from clinx.llm.base import ChatLLM, LLMError
from clinx.records import Manifest
from clinx.text import TextPipeline
from clinx.text.rewrite import make_l3, prompts
from clinx.text.rewrite.agents import Fact, PrivacyItem, find_all, quasi_rule_items, route, substitute


class ScriptedLLM(ChatLLM):
    """Answers by agent (recognised from the system prompt) from a script; records prompts."""

    name = "scripted"

    def __init__(self, script):
        super().__init__(cache=None)
        self.script = script
        self.prompts = []

    @property
    def model_id(self):
        return "scripted"

    def _complete(self, messages, params):
        sysmsg = messages[0]["content"]
        agent = {prompts.PRIVACY_SYSTEM: "privacy", prompts.SEMANTIC_SYSTEM: "semantic",
                 prompts.RECONSTRUCT_SYSTEM: "reconstruct", prompts.SINGLE_SYSTEM: "single",
                 prompts.SINGLE_DOC_SYSTEM: "single_doc"}[sysmsg]
        self.prompts.append((agent, messages[-1]["content"]))
        out = self.script[agent]
        if isinstance(out, Exception):
            raise out
        return out if isinstance(out, str) else json.dumps(out)


L2 = "Does [NAME], a 58 year old retired firefighter whose wife is a nurse, have pneumonia in the right lung?"
MAN = Manifest({"patient_name": "Zebulon Quackenbush"})


def item(text, cat="occupation", kind="quasi", base=L2):
    return PrivacyItem(text, cat, kind, "test", find_all(base, text))


# --------------------------------------------------------------------------- routing unit tests


def test_explicit_identifier_is_always_a_placeholder():
    r = route([item("Springfield", "LOCATION", "explicit")], [Fact("patient", "lives in", "Springfield", "high")])
    assert r.routes == ["placeholder"] and r.replacements == ["[LOCATION]"]
    assert r.conflicts[0].reason == "explicit"


def test_quasi_in_low_weight_slot_is_cleanly_removed():
    r = route([item("retired firefighter")], [Fact("patient", "occupation", "retired firefighter", "low"),
                                              Fact("patient", "has finding", "pneumonia", "high")])
    assert r.routes == ["placeholder"] and r.replacements == ["person"]
    # the slot had nothing else: dropped from the backbone; the clinical slot stays
    assert [f.value for f in r.facts] == ["pneumonia"]


def test_quasi_that_is_the_core_of_a_high_weight_slot_is_abstracted():
    r = route([item("retired firefighter")], [Fact("patient", "occupation", "retired firefighter", "high")])
    assert r.routes == ["abstraction"] and r.replacements == ["a worker"]
    assert r.conflicts[0].reason == "core_of_high_weight_slot"
    assert r.facts[0].value == "a worker"


def test_quasi_sharing_a_high_slot_with_other_content_is_a_placeholder():
    r = route([item("58 year old", "age")], [Fact("58 year old patient", "has finding", "pneumonia in the right lung", "high")])
    assert r.routes == ["placeholder"] and r.replacements == ["[AGE]"]
    assert r.facts[0].entity == "[AGE] patient"


def test_quasi_carrying_clinical_words_keeps_them_when_abstracted():
    base = "Is the pneumonia after his trip to Lagos worse?"
    it = PrivacyItem("pneumonia after his trip to Lagos", "event", "quasi", "llm", find_all(base, "pneumonia after his trip to Lagos"))
    r = route([it], [Fact("patient", "has finding", "pneumonia", "high")])
    assert r.routes == ["abstraction"] and r.replacements == ["pneumonia"]
    text, _ = substitute(base, [it], r.replacements)
    assert text == "Is the pneumonia worse?"


def test_age_abstraction_is_by_band():
    for txt, want in [("7 year old", "a child"), ("40 year old", "an adult"), ("81 year old", "an older adult")]:
        r = route([item(txt, "age", base=f"a {txt} with a nodule")], [Fact("patient", "age", txt, "high")])
        assert r.replacements == [want]


def test_substitute_merges_overlaps_and_tidies_spacing():
    base = "Is the  lung of the 58 year old clear ?"
    a, b = item("58 year old", "age", base=base), item("58 year", "age", base=base)
    text, spans = substitute(base, [a, b], ["[AGE]", "[AGE]"])
    assert text == "Is the lung of the [AGE] clear?" and len(spans) == 1


def test_quasi_rules_find_demographics_but_not_clinical_numbers():
    got = {(i.text, i.category) for i in quasi_rule_items(L2)}
    assert got == {("58 year old", "age"), ("retired firefighter", "occupation"), ("whose wife", "relative"), ("nurse", "occupation")}
    got = {(i.text, i.category) for i in quasi_rule_items("A 3 yo boy from Boston who lives in Springfield Gardens")}
    assert got == {("3 yo", "age"), ("Boston", "location"), ("Springfield Gardens", "location")}
    assert quasi_rule_items("Is the 3 cm nodule at C5 larger than 5 mm 2 years ago?") == []


# --------------------------------------------------------------------------- multi-agent with a scripted LLM

GOOD_PRIV = {"items": [{"text": "58 year old", "type": "age"}, {"text": "pneumonia", "type": "other"},
                       {"text": "Chicago", "type": "location"}, {"text": "whose wife", "type": "relative"}]}
GOOD_SEM = {"facts": [{"entity": "patient", "relation": "has finding", "value": "pneumonia", "weight": "high"},
                      {"entity": "pneumonia", "relation": "located in", "value": "right lung", "weight": "high"},
                      {"entity": "patient", "relation": "occupation", "value": "retired firefighter", "weight": "low"}]}


def test_llm_candidates_are_grounded_and_never_clinical():
    llm = ScriptedLLM({"privacy": GOOD_PRIV, "semantic": GOOD_SEM, "reconstruct": {"question": "Does the patient have pneumonia in the right lung?"}})
    res = make_l3("multi_agent", llm=llm).apply(L2, MAN)
    p = res.notes["privacy"]
    assert p["llm_proposed"] == 4 and p["llm_clinical"] == 1 and p["llm_ungrounded"] == 1  # "Chicago" is not in the text
    assert p["llm_duplicate"] == 2 and p["rules_quasi"] == 4  # age and relative were already found by the rules
    assert p["llm_kept"] == 0
    assert res.accepted and res.notes["source"] == "llm"
    assert res.text == "Does the patient have pneumonia in the right lung?"
    # The reconstruction agent saw the routed draft and sanitized slots, never the quasi-identifiers.
    recon = [u for a, u in llm.prompts if a == "reconstruct"][0]
    for leaked in ("firefighter", "nurse", "58", "wife"):
        assert leaked not in recon
    assert "pneumonia" in recon and "right lung" in recon
    # The privacy agent was told which categories are already known, and got the L2 text.
    priv = [u for a, u in llm.prompts if a == "privacy"][0]
    assert priv.startswith("Already removed: NAME, age, occupation, relative\nText: Does [NAME], a 58")
    # Audit trail: the quasi spans removed, offsets into the L2 text, no values.
    cats = sorted(s.category for s in res.removed)
    assert cats == ["AGE", "OCCUPATION", "OCCUPATION", "RELATIVE"]
    for s in res.removed:
        assert s.value is None and L2[s.start:s.end] in {"58 year old", "retired firefighter", "whose wife", "nurse"}


def test_leaky_reconstruction_falls_back_to_the_routed_draft():
    llm = ScriptedLLM({"privacy": {"items": []}, "semantic": GOOD_SEM,
                       "reconstruct": {"question": "Does Zebulon have pneumonia in the right lung?"}})
    res = make_l3("multi_agent", llm=llm).apply(L2, MAN)
    assert res.accepted and res.notes["source"] == "draft"
    assert [v["source"] for v in res.notes["verdicts"]] == ["llm", "draft"]
    assert "manifest_token" in res.notes["verdicts"][0]["reasons"] or "rescan_hits" in res.notes["verdicts"][0]["reasons"]
    assert res.text == "Does [NAME], a [AGE] person relative is a person, have pneumonia in the right lung?"
    assert "Zebulon" not in res.text


def test_everything_rejected_falls_back_to_exact_l2_text():
    llm = ScriptedLLM({"privacy": "I cannot help with that.", "semantic": "{broken",
                       "reconstruct": {"question": "Does the patient have a fracture?"}})
    l2 = "Is there pneumonia in the right lung of [NAME]?"
    res = make_l3("multi_agent", llm=llm).apply(l2, MAN)
    assert not res.accepted and res.text == l2 and res.notes["source"] == "fallback"
    assert res.notes["privacy_error"] == "unparseable" and res.notes["semantic_error"] == "unparseable"
    assert "clinical_terms_missing" in res.notes["verdicts"][0]["reasons"]


def test_backend_failure_is_a_fallback_not_a_crash():
    llm = ScriptedLLM({"privacy": LLMError("down"), "semantic": LLMError("down"), "reconstruct": LLMError("down"), "single": LLMError("down")})
    l2 = "Is there pneumonia in the right lung of [NAME]?"
    for strat in ("multi_agent", "single"):
        res = make_l3(strat, llm=llm).apply(l2, MAN)
        assert not res.accepted and res.text == l2
    assert res.notes["llm_error"] == "llm_error"


def test_never_the_original_even_when_l2_leaked():
    """If L2 let a manifest value through, neither the LLM nor the fallback keeps it."""
    llm = ScriptedLLM({"privacy": {"items": []}, "semantic": {"facts": []},
                       "reconstruct": {"question": "Is there pneumonia in the right lung of Quackenbush?"}, "single": {"question": "x"}})
    leaky_l2 = "Is there pneumonia in the right lung of quackenbush?"
    for strat in ("multi_agent", "single"):
        res = make_l3(strat, llm=llm).apply(leaky_l2, MAN)
        assert "quackenbush" not in res.text.lower()
        assert res.text == "Is there pneumonia in the right lung of [NAME]?"
    # ...and the LLM was never shown the value the re-scan knew about.
    assert all("uackenbush" not in u for _, u in llm.prompts)


def test_single_strategy_accepts_and_rejects():
    ok = ScriptedLLM({"single": '```json\n{"question": "Is there pneumonia in the right lung?"}\n```'})
    res = make_l3("single", llm=ok).apply(L2, MAN)
    assert res.accepted and res.text == "Is there pneumonia in the right lung?" and res.notes["llm_calls"] == 1
    bad = ScriptedLLM({"single": {"question": "Is there pneumonia?"}})  # dropped "right lung"
    res = make_l3("single", llm=bad).apply(L2, MAN)
    assert not res.accepted and res.text == L2 and res.notes["verdicts"][0]["missing_terms"]


def test_empty_input_and_type_errors():
    llm = ScriptedLLM({})
    l3 = make_l3("multi_agent", llm=llm)
    res = l3.apply("", MAN)
    assert res.text == "" and not res.accepted and llm.prompts == []
    with pytest.raises(TypeError):
        l3.apply(None)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        make_l3("three_agents", llm=llm)


def test_llm_adds_what_the_rules_missed():
    l2 = "Is the effusion in the left lung worse since the marathon last spring?"
    llm = ScriptedLLM({"privacy": {"items": [{"text": "the marathon last spring", "type": "event"}]},
                       "semantic": {"facts": [{"entity": "effusion", "relation": "located in", "value": "left lung", "weight": "high"}]},
                       "reconstruct": {"question": "Is the effusion in the left lung worse?"}})
    res = make_l3("multi_agent", llm=llm).apply(l2, MAN)
    assert res.notes["privacy"]["rules_quasi"] == 0 and res.notes["privacy"]["llm_kept"] == 1
    assert res.notes["routes"] == {"placeholder": 1, "abstraction": 0}
    assert res.accepted and res.text == "Is the effusion in the left lung worse?"
    assert [(l2[s.start:s.end], s.source) for s in res.removed] == [("the marathon last spring", "llm:quasi:placeholder")]


def test_unexpected_failure_falls_back_and_is_recorded(monkeypatch):
    from clinx.text.rewrite import agents

    def boom(*a, **k):
        raise RuntimeError("bug")

    monkeypatch.setattr(agents, "route", boom)
    llm = ScriptedLLM({"privacy": {"items": []}, "semantic": {"facts": []}})
    l2 = "Is there pneumonia in the right lung of [NAME]?"
    res = make_l3("multi_agent", llm=llm).apply(l2, MAN)
    assert not res.accepted and res.text == l2 and res.notes["internal_error"] == "RuntimeError"


# --------------------------------------------------------------------------- pipeline fallback


def test_pipeline_fallback_original_returns_the_question_when_no_rewrite_validates():
    """The paper's L3 falls back to the original question (App. B.3); clinx's default falls back to L2."""
    from clinx.text.pipeline import TextPipeline

    question = "Does Zebulon Quackenbush have pneumonia in the right lung?"
    failing = ScriptedLLM({"single": LLMError("down")})
    safe = TextPipeline("L3", strategy="single", llm=failing).run(question, MAN)
    paper = TextPipeline("L3", strategy="single", llm=failing, fallback="original").run(question, MAN)
    assert "Quackenbush" not in safe.text and not safe.accepted
    assert paper.text == question and not paper.accepted and paper.removed == []
    assert paper.notes["L3"]["fallback"] == "original"
    # A validated rewrite is used under either setting.
    ok = ScriptedLLM({"single": {"question": "Does the patient have pneumonia in the right lung?"}})
    assert TextPipeline("L3", strategy="single", llm=ok, fallback="original").run(question, MAN).accepted
    with pytest.raises(ValueError, match="fallback"):
        TextPipeline("L3", fallback="nowhere")


def test_single_prompt_rewrites_a_document_as_a_document():
    """A report gets the document prompt and comes back as statements; a question keeps the question prompt."""
    report = "Seen by Dr. [NAME] on [DATE]. The heart is normal in size. No pleural effusion."
    llm = ScriptedLLM({"single_doc": {"text": "The heart is normal in size. No pleural effusion."},
                       "single": {"question": "Is the heart normal in size?"}})
    out = TextPipeline("L3", strategy="single", llm=llm).run(report)
    assert out.accepted and out.text == "The heart is normal in size. No pleural effusion."
    assert llm.prompts[-1][0] == "single_doc" and llm.prompts[-1][1].startswith("Report: ")
    assert out.notes["L3"]["input_form"] == "document"
    q = TextPipeline("L3", strategy="single", llm=llm).run("Is the heart normal in size?")
    assert q.accepted and llm.prompts[-1][0] == "single"
    # the question prompt's answer for a report would change its form and is rejected: the reason for the mode
    wrong = ScriptedLLM({"single_doc": {"text": "Is the heart normal in size?"}, "single": {"question": "x"}})
    assert not TextPipeline("L3", strategy="single", llm=wrong).run(report).accepted
