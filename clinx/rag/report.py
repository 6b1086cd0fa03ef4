"""Report tables of a RAG comparison: leakage beside utility, one row per defence (counts and scores only)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

__all__ = ["markdown"]

_COLS = (("target_info", "Target Info"), ("repeat_prompt", "Repeat"), ("rouge_prompt", "ROUGE"),
         ("details/context_all_prompts/context_repeat_prompt", "ctx Repeat"),
         ("details/context_all_prompts/context_target_info", "ctx Target Info"),
         ("bleu1", "BLEU-1"), ("rougeL", "ROUGE-L"), ("ingest_s_per_doc", "ingest s/doc"))


def _fmt(v: Any) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def markdown(figures: Mapping[str, Any], defences: Sequence[str]) -> str:
    """A markdown table of the flat figures (``<figure>/<defence>`` keys), then retrieval and latency."""
    head = "| defence | " + " | ".join(t for _, t in _COLS) + " |"
    lines = [head, "|" + "---|" * (len(_COLS) + 1)]
    for d in defences:
        lines.append(f"| {d} | " + " | ".join(_fmt(figures.get(f"{k}/{d}")) for k, _ in _COLS) + " |")
    lines.append("")
    lines.append(f"recall@3: raw (dual-track) {_fmt(figures.get('recall_at_3/raw'))}, "
                 f"sanitized index {_fmt(figures.get('recall_at_3/sanitized'))}; "
                 f"retrieval p50 {_fmt(figures.get('query_ms_p50'))} ms")
    return "\n".join(lines)
