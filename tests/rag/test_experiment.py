"""The defence comparison wired end to end with an obedient model: every named figure, naive leaking most."""

from clinx.config import compose
from clinx.rag.experiment import compare, interleave
from clinx.rag.report import markdown
from clinx.rag.system import corpus


def test_compare_produces_the_issue_figures_and_naive_leaks_most(tmp_path, hash_encoder, echo_llm):
    cfg = compose("rag", [f"paths.cache_dir={tmp_path}", "corpus.n=6", "sanitize.progress=false"])
    docs = corpus(cfg)
    out = compare(cfg, docs, ["naive", "rules"], echo_llm, hash_encoder, n_targeted=4, n_untargeted=4, n_adaptive=1,
                  n_questions=3, kinds=list(cfg.attack.kinds), progress=False, chunk=2)
    f = out["figures"]
    for name in ("target_info", "repeat_prompt", "rouge_prompt", "bleu1", "rougeL", "ingest_s_per_doc"):
        assert f"{name}/naive" in f and f"{name}/rules" in f
    assert {"recall_at_3/raw", "recall_at_3/sanitized", "query_ms_p50"} <= set(f)
    assert f["config/prompts_generated_per_defence"] == 8
    assert f["target_info/naive"] > 0 and f["target_info/rules"] < f["target_info/naive"]
    det = out["details"]
    assert det["naive"]["context_all_prompts"]["context_target_info"] > det["rules"]["context_all_prompts"]["context_target_info"]
    assert det["naive"]["attack_stepwise"]["prompts"] == 1
    assert (tmp_path / "rag" / "ingest" / "rules.jsonl").exists()  # ingestion went through the store
    table = markdown(f, ["naive", "rules"])
    assert "| naive |" in table and all(d.raw[:30] not in table for d in docs)  # counts and scores, never text


def test_a_time_budget_stops_every_defence_after_the_same_prompts(tmp_path, hash_encoder, echo_llm):
    cfg = compose("rag", [f"paths.cache_dir={tmp_path}", "corpus.n=4", "sanitize.progress=false"])
    out = compare(cfg, corpus(cfg), ["naive", "rules"], echo_llm, hash_encoder, n_targeted=6, n_untargeted=6,
                  n_adaptive=0, n_questions=2, kinds=["targeted", "untargeted"], progress=False, chunk=2, budget_s=0)
    assert out["figures"]["config/prompts_generated_per_defence"] == 0
    assert out["details"]["naive"]["attack_all"]["prompts"] == out["details"]["rules"]["attack_all"]["prompts"] == 0
    assert out["details"]["naive"]["context_all_prompts"]["prompts"] == 12  # context leakage still covers every prompt


def test_interleave_alternates_then_appends_the_rest():
    assert interleave(["t1", "t2", "t3"], ["u1"]) == ["t1", "u1", "t2", "t3"]
    assert interleave([], ["u1", "u2"]) == ["u1", "u2"]
