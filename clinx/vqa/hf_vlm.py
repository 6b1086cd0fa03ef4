"""Hugging Face vision-language models loaded from a local folder (never from the hub).

The four MedVQA models of the ClinX paper (§4.1) are described by a
:class:`VLMSpec`: which transformers class loads them, how their prompt is
built (their own chat template, or LLaVA-Med's Mistral ``[INST]`` format,
which the converted checkpoints do not always carry as a template), an
optional system prompt, whether they emit ``<think>`` blocks, and their
generation settings: the instruction appended to the question and the new-token
budget. Answer-only models get the paper's "Answer with a single word or
phrase." and 32 new tokens; a thinking model (MedVLThinker) reasons first, so
it is asked to reason inside ``<think>`` and answer inside ``<answer>``, gets
1,024 new tokens (a ``<think>`` cut off by the budget is an empty answer, not
the reasoning's first words), and its answer is parsed after ``</think>``.
Greedy decoding, in batches, in bf16 on a GPU. ``instruction=`` and
``max_new_tokens=`` override the family defaults per config.

Weights are read with ``local_files_only=True`` from ``path``; download them
yourself (e.g. ``huggingface-cli download google/medgemma-1.5-4b-it --local-dir …``)
on a machine that may reach the hub.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from clinx.errors import CheckpointError, ConfigError

from .base import SHORT_ANSWER_PROMPT, VQAModel, check_batch, parse_answer

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class VLMSpec:
    """How one VLM family is loaded and prompted."""

    name: str
    hub_id: str  # documentation only: where users get the weights; never fetched here
    loader: str  # "image_text_to_text" | "llava" | "causal_lm_remote"
    prompt_style: str  # "chat_template" | "llava_mistral"
    system: str | None = None
    trust_remote_code: bool = False
    thinks: bool = False  # emits <think>...</think> before the answer
    instruction: str = SHORT_ANSWER_PROMPT  # appended to every question
    max_new_tokens: int = 32


#: What a thinking model is asked (its RL training used <think>/<answer> tags).
THINKING_INSTRUCTION = ("Think about the question inside <think> </think> tags, then give the final answer "
                        "as a single word or phrase inside <answer> </answer> tags.")
#: Fewer new tokens than this cut most reasoning traces short (issue 13).
MIN_THINKING_TOKENS = 512


SPECS: dict[str, VLMSpec] = {
    "llava-med-7b": VLMSpec(
        name="llava-med-7b",
        hub_id="microsoft/llava-med-v1.5-mistral-7b (HF-format conversion, e.g. chaoyinshe/llava-med-v1.5-mistral-7b-hf)",
        loader="llava",
        prompt_style="llava_mistral",
    ),
    "medgemma-1.5-4b": VLMSpec(
        name="medgemma-1.5-4b",
        hub_id="google/medgemma-1.5-4b-it",
        loader="image_text_to_text",
        prompt_style="chat_template",
        system="You are an expert radiologist.",
    ),
    "medvlthinker-3b": VLMSpec(
        name="medvlthinker-3b",
        hub_id="UCSC-VLAA/MedVLThinker-3B-RL_m23k (Qwen2.5-VL-3B based)",
        loader="image_text_to_text",
        prompt_style="chat_template",
        thinks=True,
        instruction=THINKING_INSTRUCTION,
        max_new_tokens=1024,
    ),
    "hulumed-4b": VLMSpec(
        name="hulumed-4b",
        hub_id="ZJU-AI4H/Hulu-Med-4B",
        loader="causal_lm_remote",
        prompt_style="chat_template",
        trust_remote_code=True,
    ),
}


def user_text(question: str, instruction: str = SHORT_ANSWER_PROMPT) -> str:
    """The text turn a model receives: the question, then its instruction."""
    return f"{question.strip()}\n{instruction}"


def build_messages(question: str, spec: VLMSpec, instruction: str | None = None) -> list[dict]:
    """Chat messages in the transformers multimodal format (one image slot, then the text)."""
    msgs: list[dict] = []
    if spec.system:
        msgs.append({"role": "system", "content": [{"type": "text", "text": spec.system}]})
    text = user_text(question, instruction or spec.instruction)
    msgs.append({"role": "user", "content": [{"type": "image"}, {"type": "text", "text": text}]})
    return msgs


def build_prompt(processor: Any, question: str, spec: VLMSpec, instruction: str | None = None) -> str:
    """The full prompt string for one question.

    ``chat_template`` models use the processor's own template (so special
    tokens and the image placeholder are the ones the model was trained
    with); LLaVA-Med v1.5 uses its Mistral instruction format with the
    ``<image>`` token first, as in its conversation template.
    """
    if spec.prompt_style == "llava_mistral":
        return f"[INST] <image>\n{user_text(question, instruction or spec.instruction)} [/INST]"
    if spec.prompt_style == "chat_template":
        return processor.apply_chat_template(build_messages(question, spec, instruction), add_generation_prompt=True,
                                             tokenize=False)
    raise ConfigError(f"unknown prompt style {spec.prompt_style!r}")


def _dtype(name: str):
    import torch

    try:
        return {"bfloat16": torch.bfloat16, "bf16": torch.bfloat16, "float16": torch.float16,
                "fp16": torch.float16, "float32": torch.float32, "fp32": torch.float32}[name]
    except KeyError:
        raise ConfigError(f"unknown dtype {name!r}") from None


def load_hf(path: str | os.PathLike, spec: VLMSpec, device: str, dtype: str):
    """Load processor and model from a local folder; a clear :class:`CheckpointError` otherwise."""
    import transformers

    p = Path(path).expanduser()
    if not p.is_dir() or not (p / "config.json").is_file():
        raise CheckpointError(
            f"{spec.name}: no Hugging Face model folder at {p} (need config.json + weights; get them from {spec.hub_id})"
        )
    kw = dict(local_files_only=True, trust_remote_code=spec.trust_remote_code)
    processor = transformers.AutoProcessor.from_pretrained(str(p), **kw)
    cls = {
        "image_text_to_text": transformers.AutoModelForImageTextToText,
        "llava": transformers.LlavaForConditionalGeneration,
        "causal_lm_remote": transformers.AutoModelForCausalLM,
    }[spec.loader]
    model = cls.from_pretrained(str(p), dtype=_dtype(dtype), **kw).to(device).eval()
    return processor, model


class HFVLM(VQAModel):
    """A local Hugging Face VLM behind the :class:`VQAModel` interface.

    ``model`` picks a :data:`SPECS` entry; ``path`` is the local weights folder.
    ``processor`` / ``net`` may be passed directly (tests use fakes; notebooks
    may reuse a loaded model). ``instruction`` and ``max_new_tokens`` default
    to the family's (:class:`VLMSpec`).
    """

    def __init__(self, model: str, path: str | None = None, batch_size: int = 8, device: str | None = None,
                 dtype: str = "bfloat16", max_new_tokens: int | None = None, processor: Any = None, net: Any = None,
                 name: str | None = None, instruction: str | None = None):
        if model not in SPECS:
            raise ConfigError(f"unknown VLM {model!r}; known: {', '.join(sorted(SPECS))}")
        self.spec = SPECS[model]
        self.name = name or self.spec.name
        self.path = str(path) if path else ""
        self.batch_size = int(batch_size)
        self.max_new_tokens = int(max_new_tokens or self.spec.max_new_tokens)
        self.instruction = str(instruction or self.spec.instruction)
        if self.spec.thinks and self.max_new_tokens < MIN_THINKING_TOKENS:
            log.warning("%s reasons before it answers; %d new tokens will cut most answers off (use >= %d)",
                        self.spec.name, self.max_new_tokens, MIN_THINKING_TOKENS)
        self.dtype = dtype
        if device is None:
            import torch

            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        if processor is None or net is None:
            if not path:
                raise CheckpointError(f"{self.spec.name}: set path= to a local weights folder ({self.spec.hub_id})")
            processor, net = load_hf(path, self.spec, device, dtype)
        self.processor, self.net = processor, net
        tok = getattr(processor, "tokenizer", None)
        # Decoder-only generation in a batch needs left padding, or the new
        # tokens of shorter prompts start after pad tokens.
        if tok is not None and getattr(tok, "padding_side", "left") != "left":
            tok.padding_side = "left"
        self.calls = 0

    def id_parts(self):
        weights = Path(self.path).name if self.path else "in-memory"
        return (type(self).__name__, self.spec.name, weights, self.instruction, "greedy", self.max_new_tokens, self.dtype)

    def prompts(self, questions: Sequence[str]) -> list[str]:
        """The prompt strings for a batch (exposed for tests and for inspecting templates)."""
        return [build_prompt(self.processor, q, self.spec, self.instruction) for q in questions]

    def _generate(self, images: Sequence[np.ndarray], questions: Sequence[str]) -> list[str]:
        import torch
        from PIL import Image

        pil = [Image.fromarray(np.asarray(im)) for im in images]
        inputs = self.processor(text=self.prompts(questions), images=pil, return_tensors="pt", padding=True)
        inputs = inputs.to(self.device) if hasattr(inputs, "to") else {k: v.to(self.device) for k, v in inputs.items()}
        if "pixel_values" in inputs and hasattr(inputs["pixel_values"], "is_floating_point") and inputs["pixel_values"].is_floating_point():
            inputs["pixel_values"] = inputs["pixel_values"].to(_dtype(self.dtype))
        with torch.inference_mode():
            out = self.net.generate(**inputs, do_sample=False, max_new_tokens=self.max_new_tokens)
        new = out[:, inputs["input_ids"].shape[1]:]  # decode only what the model added
        decode = getattr(self.processor, "batch_decode", None) or self.processor.tokenizer.batch_decode
        return decode(new, skip_special_tokens=True)

    def answer(self, images: list[np.ndarray], questions: list[str]) -> list[str]:
        check_batch(images, questions)
        out: list[str] = []
        for s in range(0, len(questions), self.batch_size):
            raw = self._generate(images[s : s + self.batch_size], questions[s : s + self.batch_size])
            out.extend(parse_answer(r) for r in raw)
        self.calls += len(questions)
        return out

    def close(self) -> None:
        self.net = None
        try:
            import torch

            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        except Exception:
            pass
