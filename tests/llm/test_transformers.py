"""transformers backend from a local folder: a tiny random Llama + a tokenizer built offline."""

import json

import pytest

from clinx.llm import LLMError, get_llm
from clinx.llm.hf_transformers import plain_transcript

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}</s>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory):
    """Write a randomly initialised 2-layer Llama and a word-level tokenizer with save_pretrained."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = tmp_path_factory.mktemp("tiny_llama")
    words = "is there a fracture in the left lung chest x-ray yes no finding json { } : , \" [ ]".split()
    specials = ["<unk>", "<pad>", "<s>", "</s>", "<|user|>", "<|system|>", "<|assistant|>"]
    vocab = {t: i for i, t in enumerate(specials + words)}
    tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tk.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, unk_token="<unk>", pad_token="<pad>", bos_token="<s>", eos_token="</s>",
                                  additional_special_tokens=["<|user|>", "<|system|>", "<|assistant|>"])
    tok.chat_template = CHAT_TEMPLATE
    tok.save_pretrained(folder)
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                      num_key_value_heads=4, max_position_embeddings=128, pad_token_id=1, bos_token_id=2, eos_token_id=3)
    LlamaForCausalLM(cfg).save_pretrained(folder)
    return folder


@pytest.fixture()
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


def test_prompt_uses_the_chat_template(tiny_model_dir, offline):
    llm = get_llm("transformers", model_path=str(tiny_model_dir), cache=None)
    prompt = llm.build_prompt([{"role": "system", "content": "json"}, {"role": "user", "content": "is there a fracture"}])
    assert prompt == "<|system|>json</s><|user|>is there a fracture</s><|assistant|>"


def test_generates_from_local_folder_and_caches(tiny_model_dir, offline, tmp_path):
    llm = get_llm("transformers", model_path=str(tiny_model_dir), cache=tmp_path)
    msgs = [{"role": "user", "content": "is there a fracture"}]
    a = llm.chat(msgs, max_tokens=5)
    assert isinstance(a, str)
    assert llm._complete(msgs, llm.params.merged(max_tokens=5)) == a  # greedy: deterministic
    llm.chat(msgs, max_tokens=5)
    assert llm.stats.cache_hits == 1


def test_plain_transcript_without_template(tiny_model_dir, offline, tmp_path):
    import shutil

    bare = tmp_path / "bare"
    shutil.copytree(tiny_model_dir, bare)
    cfg_path = bare / "tokenizer_config.json"
    cfg = json.loads(cfg_path.read_text())
    cfg.pop("chat_template", None)
    cfg_path.write_text(json.dumps(cfg))
    (bare / "chat_template.jinja").unlink(missing_ok=True)
    llm = get_llm("transformers", model_path=str(bare), cache=None)
    msgs = [{"role": "user", "content": "yes"}]
    assert llm.build_prompt(msgs) == plain_transcript(msgs) == "user: yes\nassistant:"


def test_non_local_path_is_refused(tmp_path, offline):
    with pytest.raises(LLMError, match="no config.json"):
        get_llm("transformers", model_path="HuggingFaceTB/SmolLM2-135M-Instruct", cache=None)
