"""LLM-as-judge: what the judge sees, how its reply is parsed, and the real SmolLM2 judge once."""

import pytest

from clinx.eval.judge import LLMJudge, build_messages, parse_score


@pytest.mark.parametrize(
    "reply, score",
    [("1", 1), ("0", 0), (" 1.", 1), ("Score: 0", 0), ("<think>maybe 0</think>1", 1), ("Yes", 1),
     ("incorrect", 0), ("Correct.", 1), ("", None), ("I cannot tell", None), ("10 points", None)],
)
def test_parse_score(reply, score):
    assert parse_score(reply) == score


def test_judge_sees_only_question_reference_prediction():
    msgs = build_messages("Is there a lesion?", "yes", "Yes.")
    assert [m["role"] for m in msgs] == ["system", "user"]
    user = msgs[1]["content"]
    assert "Question: Is there a lesion?" in user and "Reference answer: yes" in user and "Predicted answer: Yes." in user
    assert "image" not in user.lower() and "condition" not in user.lower()


class ScriptedLLM:
    model_id = "scripted"

    def __init__(self, replies):
        self.replies, self.seen = list(replies), []

    def chat(self, messages, **kw):
        self.seen.append((messages, kw))
        return self.replies.pop(0)


def test_judge_scores_counts_unparsed_and_skips_empty_predictions():
    llm = ScriptedLLM(["1", "nonsense", "0"])
    j = LLMJudge(llm, name="s", rules=False)
    assert j.score([("q", "yes", "yes"), ("q", "no", "maybe"), ("q", "2", ""), ("q", "ct", "mri")]) == [1, 0, 0, 0]
    assert j.calls == 3 and j.unparsed == 1  # the empty prediction was never sent


@pytest.mark.parametrize(
    "reference, prediction, verdict",
    [("yes", "Yes.", 1), ("lung", "The lung", 1), ("no", "yes", 0), ("Yes", "no.", 0),
     ("no", "maybe", None), ("ct", "mri", None), ("left", "right lung", None)],
)
def test_rule_score_decides_identical_and_closed_answers_only(reference, prediction, verdict):
    from clinx.eval.judge import rule_score

    assert rule_score(reference, prediction) == verdict


def test_rules_answer_closed_pairs_without_the_llm():
    llm = ScriptedLLM(["1"])  # a judge that would call anything consistent
    j = LLMJudge(llm, name="s")
    assert j.score([("Is there a lesion?", "yes", "no"), ("Organ?", "lung", "Lung."), ("Modality?", "ct", "mri")]) == [0, 1, 1]
    assert j.calls == 1  # only the open pair that differs was asked
    assert LLMJudge(llm, "s").fingerprint() != LLMJudge(llm, "s", rules=False).fingerprint()
    assert all(kw["temperature"] == 0.0 and kw["max_tokens"] == 12 and kw["json_schema"]["required"] == ["score"]
               for _, kw in llm.seen)


def test_fingerprint_depends_on_the_model_and_the_decoding():
    a, b = ScriptedLLM([]), ScriptedLLM([])
    b.model_id = "other"
    fa = LLMJudge(a, "x").fingerprint()
    assert fa == LLMJudge(ScriptedLLM([]), "x").fingerprint()  # stable: a rerun hits the score cache
    assert fa != LLMJudge(b, "x").fingerprint()
    assert fa != LLMJudge(a, "x", max_tokens=5).fingerprint() != LLMJudge(a, "x", constrained=False).fingerprint()
    assert LLMJudge(a, "x").judge_id == fa  # the deprecated name is the same identity


@pytest.mark.slow
def test_real_smollm2_judge_tells_a_match_from_a_clear_mismatch(tmp_path):
    """The shipped judge is weak — SmolLM2-135M alone calls nearly every pair consistent — but not constant:
    closed-ended pairs are graded by rule and the open pair reaches the real model, whose constrained reply parses."""
    from clinx.llm import get_llm

    j = LLMJudge(get_llm("llamacpp", cache=str(tmp_path / "llm")), name="smollm2")
    scores = j.score([("Is there a lesion?", "yes", "yes"), ("What organ is shown?", "lung", "lung"),
                      ("Is there a pleural effusion?", "yes", "no"),
                      ("What imaging modality is shown?", "ct", "fundus photograph")])
    assert scores[:3] == [1, 1, 0] and scores[3] in (0, 1)
    assert j.calls == 1 and j.unparsed == 0  # constrained decoding: the reply is always {"score": 0|1}
