"""HF VLM adapters: prompt building per model family, batching, decoding and answer parsing.

The processor / model / tokenizer are fakes that behave like the transformers
objects the adapter calls (apply_chat_template, __call__, generate,
batch_decode); a real load is the GPU-only test at the bottom.
"""

import numpy as np
import pytest
import torch

from clinx.errors import CheckpointError, ConfigError
from clinx.vqa import SHORT_ANSWER_PROMPT, get_vqa
from clinx.vqa.base import parse_answer
from clinx.vqa.hf_vlm import SPECS, HFVLM, build_messages, build_prompt


class FakeTokenizer:
    padding_side = "right"


class FakeInputs(dict):
    def to(self, device):
        return self


class FakeProcessor:
    """Renders a Gemma/Qwen-like chat template and returns token tensors of the prompt length."""

    def __init__(self):
        self.tokenizer = FakeTokenizer()
        self.seen = None

    def apply_chat_template(self, messages, add_generation_prompt, tokenize):
        assert add_generation_prompt and not tokenize
        parts = []
        for m in messages:
            body = "".join("<image>" if c["type"] == "image" else c["text"] for c in m["content"])
            parts.append(f"<|{m['role']}|>{body}<|end|>")
        return "".join(parts) + "<|assistant|>"

    def __call__(self, text, images, return_tensors, padding):
        assert len(text) == len(images) and padding
        self.seen = (list(text), images)
        n = max(len(t) for t in text)
        return FakeInputs(input_ids=torch.ones(len(text), n, dtype=torch.long),
                          pixel_values=torch.zeros(len(text), 3, 4, 4))

    def batch_decode(self, ids, skip_special_tokens):
        return [REPLIES[int(row[0])] for row in ids]


REPLIES = ["Yes.", "<think>the lesion is on the left</think>\nAnswer: left lung.", "The answer is: **CT**"]


class FakeModel:
    def __init__(self):
        self.kwargs = None
        self.calls = 0

    def generate(self, input_ids, pixel_values, do_sample, max_new_tokens):
        self.kwargs = dict(do_sample=do_sample, max_new_tokens=max_new_tokens, dtype=pixel_values.dtype)
        b = input_ids.shape[0]
        new = torch.tensor([[(self.calls + i) % len(REPLIES)] for i in range(b)])
        self.calls += b
        return torch.cat([input_ids, new], dim=1)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_prompt_contains_question_instruction_and_one_image(name):
    spec = SPECS[name]
    p = build_prompt(FakeProcessor(), "Is there a nodule?", spec)
    assert "Is there a nodule?" in p and spec.instruction in p
    assert p.count("<image>") == 1
    assert p.index("<image>") < p.index("Is there a nodule?")  # image first, then the question


def test_llava_med_uses_mistral_instruction_format():
    p = build_prompt(None, "What organ is shown?", SPECS["llava-med-7b"])
    assert p == f"[INST] <image>\nWhat organ is shown?\n{SHORT_ANSWER_PROMPT} [/INST]"


def test_medgemma_has_a_system_turn_and_thinker_has_none():
    assert build_messages("q", SPECS["medgemma-1.5-4b"])[0]["role"] == "system"
    assert build_messages("q", SPECS["medvlthinker-3b"])[0]["role"] == "user"


def test_answer_batches_greedy_and_parses():
    proc, net = FakeProcessor(), FakeModel()
    m = HFVLM("medgemma-1.5-4b", processor=proc, net=net, batch_size=2, device="cpu")
    assert proc.tokenizer.padding_side == "left"  # batched decoder-only generation pads left
    ims = [np.zeros((8, 8, 3), np.uint8)] * 3
    out = m.answer(ims, ["q1", "q2", "q3"])
    assert out == ["Yes", "left lung", "CT"]
    assert net.kwargs["do_sample"] is False and net.kwargs["max_new_tokens"] == 32
    assert net.kwargs["dtype"] == torch.bfloat16
    assert len(proc.seen[0]) == 1  # last batch of 3 with batch_size 2
    assert m.calls == 3


def test_model_id_depends_on_model_and_decoding():
    a = HFVLM("medgemma-1.5-4b", processor=FakeProcessor(), net=FakeModel(), device="cpu")
    b = HFVLM("hulumed-4b", processor=FakeProcessor(), net=FakeModel(), device="cpu")
    c = HFVLM("medgemma-1.5-4b", processor=FakeProcessor(), net=FakeModel(), device="cpu", max_new_tokens=8)
    assert len({a.model_id, b.model_id, c.model_id}) == 3


def test_unknown_model_and_missing_path_are_clear_errors(tmp_path):
    with pytest.raises(ConfigError, match="unknown VLM"):
        HFVLM("gpt-5")
    with pytest.raises(CheckpointError, match="no Hugging Face model folder"):
        get_vqa("hf_vlm", model="medgemma-1.5-4b", path=str(tmp_path / "missing"), device="cpu")
    with pytest.raises(CheckpointError, match="path="):
        HFVLM("medgemma-1.5-4b", device="cpu")


@pytest.mark.parametrize(
    "reply, answer",
    [
        ("Yes.", "Yes"),
        ("<think>hmm</think>\nAnswer: left lung.", "left lung"),
        ("<think>a</think><answer> No </answer>", "No"),
        ("<think>ran out of tokens while reasoning", ""),
        ("The answer is: **CT**", "CT"),
        ("ASSISTANT: Right.", "Right"),
        ("\n\n  MRI\nbecause the contrast ...", "MRI"),
        ('"chest"', "chest"),
        ("3.5", "3.5"),
        ("<end_of_turn>", ""),
        ("", ""),
        (None, ""),
    ],
)
def test_parse_answer(reply, answer):
    assert parse_answer(reply) == answer

# The real-transformers load test (CPU, tiny LLaVA) and the GPU bf16 test live in test_hf_vlm_tiny.py.


def test_generation_settings_are_per_model_family():
    """A thinking model gets its own instruction and a budget its reasoning fits in; answer-only models the paper's."""
    from clinx.vqa.hf_vlm import MIN_THINKING_TOKENS, THINKING_INSTRUCTION

    thinker = HFVLM("medvlthinker-3b", processor=FakeProcessor(), net=FakeModel())
    gemma = HFVLM("medgemma-1.5-4b", processor=FakeProcessor(), net=FakeModel())
    assert thinker.max_new_tokens >= MIN_THINKING_TOKENS and gemma.max_new_tokens == 32
    assert THINKING_INSTRUCTION in thinker.prompts(["Is there a nodule?"])[0]
    assert SHORT_ANSWER_PROMPT in gemma.prompts(["Is there a nodule?"])[0]
    custom = HFVLM("medgemma-1.5-4b", processor=FakeProcessor(), net=FakeModel(), instruction="Reply yes or no.",
                   max_new_tokens=8)
    assert "Reply yes or no." in custom.prompts(["q"])[0] and custom.fingerprint() != gemma.fingerprint()
    custom.answer([np.zeros((8, 8, 3), np.uint8)], ["q"])
    assert custom.net.kwargs["max_new_tokens"] == 8


def test_answer_after_a_think_block_opened_by_the_template():
    assert parse_answer("the opacity is basal</think>\n<answer>left lower lobe</answer>") == "left lower lobe"
    assert parse_answer("reasoning here</think> Yes.") == "Yes"
