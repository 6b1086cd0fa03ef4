"""The HF VLM adapter against real transformers objects: a tiny randomly initialised LLaVA.

Built and saved in the test (no download): a word-level tokenizer, a CLIP
image processor, a 2-layer CLIP vision tower and a 2-layer Llama. Loading it
through :class:`HFVLM` exercises the real code path — ``from_pretrained``
with ``local_files_only``, the chat template, batched left-padded greedy
generation, decoding only the new tokens, answer parsing. Its answers are
noise (random weights); the tests check the mechanics.
"""

import os

import numpy as np
import pytest

from clinx.vqa import get_vqa

pytestmark = pytest.mark.slow


def _build_tiny_llava(folder):
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import (CLIPImageProcessor, CLIPVisionConfig, LlamaConfig, LlavaConfig,
                              LlavaForConditionalGeneration, LlavaProcessor, PreTrainedTokenizerFast)

    words = ["<unk>", "<pad>", "<s>", "</s>", "<image>", "[INST]", "[/INST]"] + [f"w{i}" for i in range(40)]
    words += list("abcdefghijklmnopqrstuvwxyz?.,:")
    vocab = {w: i for i, w in enumerate(words)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    ftok = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", bos_token="<s>",
                                   eos_token="</s>")
    ftok.add_special_tokens({"additional_special_tokens": ["<image>"]})
    template = ("{% for m in messages %}{{ m['role'] }}: {% for c in m['content'] %}{% if c['type'] == 'image' %}"
                "<image> {% else %}{{ c['text'] }}{% endif %}{% endfor %}\n{% endfor %}assistant:")
    proc = LlavaProcessor(image_processor=CLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}),
                          tokenizer=ftok, patch_size=8, vision_feature_select_strategy="default",
                          num_additional_image_tokens=1, chat_template=template)
    vc = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                          image_size=32, patch_size=8)
    tc = LlamaConfig(vocab_size=len(vocab) + 1, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                     num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=256, pad_token_id=1,
                     bos_token_id=2, eos_token_id=3)
    cfg = LlavaConfig(vision_config=vc, text_config=tc, image_token_index=vocab["<image>"],
                      vision_feature_select_strategy="default", vision_feature_layer=-1)
    LlavaForConditionalGeneration(cfg).save_pretrained(folder)
    proc.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def tiny_llava(tmp_path_factory):
    os.environ["HF_HUB_OFFLINE"] = "1"
    return _build_tiny_llava(tmp_path_factory.mktemp("tiny_llava"))


def _images(n):
    rng = np.random.default_rng(0)
    return [rng.integers(0, 255, (40 + 3 * i, 50, 3)).astype(np.uint8) for i in range(n)]


@pytest.mark.parametrize("family", ["medgemma-1.5-4b", "llava-med-7b"])
def test_tiny_llava_loads_from_a_local_folder_and_answers_in_batches(tiny_llava, family):
    m = get_vqa("hf_vlm", model=family, path=str(tiny_llava), device="cpu", dtype="float32", batch_size=2)
    prompt = m.prompts(["w1 w2 ?"])[0]
    assert prompt.count("<image>") == 1 and "Answer with a single word or phrase." in prompt
    out = m.answer(_images(3), ["w1 w2 ?", "a b c ?", "w3 ?"])
    assert len(out) == 3 and all(isinstance(a, str) for a in out)
    # Greedy decoding, at most 32 new word-level tokens, prompt not echoed back.
    assert all(len(a.split()) <= 32 for a in out) and not any("Answer with" in a for a in out)
    # Deterministic: the same batch gives the same answers.
    assert m.answer(_images(3), ["w1 w2 ?", "a b c ?", "w3 ?"]) == out
    m.close()


@pytest.mark.gpu
def test_vlm_in_bf16_on_gpu(tiny_llava):
    """A real VLM when CLINX_VLM_PATH is set (CLINX_VLM_MODEL names its family), else the tiny LLaVA, in bf16 on CUDA."""
    import torch

    path = os.environ.get("CLINX_VLM_PATH") or str(tiny_llava)
    family = os.environ.get("CLINX_VLM_MODEL", "medgemma-1.5-4b")
    m = get_vqa("hf_vlm", model=family, path=path, device="cuda", dtype="bfloat16", batch_size=4)
    assert next(m.net.parameters()).dtype == torch.bfloat16 and next(m.net.parameters()).is_cuda
    img = np.zeros((224, 224, 3), np.uint8)
    img[60:160, 60:160] = 200
    out = m.answer([img] * 5, ["Is there a bright square?"] * 5)
    assert len(out) == 5 and len(set(out)) == 1  # same input, same greedy answer across batches
    m.close()
