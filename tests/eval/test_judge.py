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
    j = LLMJudge(llm, name="s")
    assert j.score([("q", "yes", "yes"), ("q", "no", "maybe"), ("q", "2", ""), ("q", "ct", "mri")]) == [1, 0, 0, 0]
    assert j.calls == 3 and j.unparsed == 1  # the empty prediction was never sent
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
    """The shipped judge is weak (it calls most answers correct) but not constant: a judge that always says
    1 — or always 0 — fails here. Greedy decoding of fixed weights makes the verdicts reproducible."""
    from clinx.llm import get_llm

    j = LLMJudge(get_llm("llamacpp", cache=str(tmp_path / "llm")), name="smollm2")
    scores = j.score([("Is there a lesion?", "yes", "yes"), ("What organ is shown?", "lung", "lung"),
                      ("What imaging modality is shown?", "ct", "fundus photograph")])
    assert scores == [1, 1, 0]
    assert j.unparsed == 0  # constrained decoding: the reply is always {"score": 0|1}
