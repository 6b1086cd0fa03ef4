"""MedVQA models behind one interface (:class:`clinx.vqa.base.VQAModel`).

Models are looked up by name in :data:`VQA_MODELS`; the heavy ones (torch,
transformers, httpx) are imported only when their factory is called, so
``import clinx.vqa`` stays cheap.

* ``baseline`` — the built-in CNN + MiniLM answer classifier (CPU, shipped checkpoint);
* ``hf_vlm`` — a Hugging Face VLM from a local folder (LLaVA-Med, MedGemma, MedVLThinker, HuluMed);
* ``openai_vision`` — any OpenAI-compatible vision chat endpoint (vLLM, ...).
"""

from __future__ import annotations

from clinx.registry import Registry, lazy

from .base import SHORT_ANSWER_PROMPT, VQAModel

VQA_MODELS: Registry = Registry("vqa model")
VQA_MODELS.register("baseline", lazy("clinx.vqa.baseline", "load_baseline"))
VQA_MODELS.register("hf_vlm", lazy("clinx.vqa.hf_vlm", "HFVLM"))
VQA_MODELS.register("openai_vision", lazy("clinx.vqa.openai_vision", "OpenAIVisionVQA"))


def get_vqa(name: str, **params) -> VQAModel:
    """Build the VQA model registered as ``name`` with keyword ``params``."""
    return VQA_MODELS.get(name)(**params)


__all__ = ["VQA_MODELS", "VQAModel", "SHORT_ANSWER_PROMPT", "get_vqa"]
