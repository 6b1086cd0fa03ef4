"""Hugging Face ``transformers`` causal LMs, loaded from a local folder only.

``local_files_only=True`` everywhere: clinx never reaches the model hub. The
folder must hold a ``config.json``, weights and a tokenizer (what
``save_pretrained`` writes). Prompts are built with the tokenizer's chat
template; tokenizers without one get a plain ``role: content`` transcript
ending in ``assistant:`` so that base models still work.

There is no grammar-constrained decoding here, so JSON steps rely on the
prompt and on :mod:`clinx.llm.jsonparse`.
"""

from __future__ import annotations

import os
from pathlib import Path

from clinx.llm.base import ChatLLM, ChatParams, LLMError


def plain_transcript(messages: list[dict]) -> str:
    """Fallback prompt for tokenizers without a chat template."""
    lines = [f"{m['role']}: {m['content']}" for m in messages]
    return "\n".join(lines) + "\nassistant:"


class TransformersLLM(ChatLLM):
    """A ``transformers`` causal LM from ``model_path`` on CPU (or ``device``)."""

    name = "transformers"

    def __init__(
        self,
        model_path: str | os.PathLike,
        *,
        device: str = "cpu",
        dtype: str = "float32",
        params: ChatParams | dict | None = None,
        cache=True,
    ):
        super().__init__(params=params, cache=cache)
        self.model_path = Path(model_path).expanduser()
        if not (self.model_path / "config.json").is_file():
            raise LLMError(f"transformers: no config.json in local folder {self.model_path} (hub downloads are disabled)")
        self.device = device
        self.dtype = dtype
        self._model = None
        self._tok = None

    @property
    def model_id(self) -> str:
        cfg = self.model_path / "config.json"
        return f"transformers:{self.model_path.resolve()}:{int(cfg.stat().st_mtime)}"

    def _load(self):
        if self._model is None:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer

            try:
                self._tok = AutoTokenizer.from_pretrained(str(self.model_path), local_files_only=True)
                dtype = getattr(torch, self.dtype)
                try:  # transformers >= 4.56 calls it ``dtype``; older releases ``torch_dtype``
                    model = AutoModelForCausalLM.from_pretrained(str(self.model_path), local_files_only=True, dtype=dtype)
                except TypeError:
                    model = AutoModelForCausalLM.from_pretrained(str(self.model_path), local_files_only=True, torch_dtype=dtype)
                self._model = model.to(self.device)
            except OSError as e:
                raise LLMError(f"transformers: cannot load model from {self.model_path}: {type(e).__name__}") from e
            self._model.eval()
        return self._model, self._tok

    def build_prompt(self, messages: list[dict]) -> str:
        """The exact prompt string the model sees (chat template, or :func:`plain_transcript`)."""
        _, tok = self._load()
        if getattr(tok, "chat_template", None):
            return tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return plain_transcript(messages)

    def _complete(self, messages: list[dict], params: ChatParams) -> str:
        import torch

        model, tok = self._load()
        prompt = self.build_prompt(messages)
        enc = tok(prompt, return_tensors="pt", add_special_tokens=False).to(self.device)
        gen = dict(max_new_tokens=params.max_tokens, pad_token_id=tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id)
        if params.temperature > 0:
            gen.update(do_sample=True, temperature=params.temperature, top_p=params.top_p)
            torch.manual_seed(params.seed)
        else:
            gen.update(do_sample=False)
        with torch.inference_mode():
            out = model.generate(**enc, **gen)
        text = tok.decode(out[0, enc["input_ids"].shape[1]:], skip_special_tokens=True)
        # generate() has no string stop sequences for every model; cut here.
        for s in params.stop:
            i = text.find(s)
            if i >= 0:
                text = text[:i]
        return text

    def close(self) -> None:
        self._model = None
        self._tok = None
