"""The ClinX paper's single-prompt L3 rewrite (§3.3, Appendix B.3).

One instruction ("remove every identity-bearing detail, keep the medical
question") with two worked examples, answered as ``{"question": ...}``. The
paper accepted a rewrite when finding, anatomy, modality, disease cue and
question intent survived and otherwise *used the original question*; clinx
validates the same way (plus a PHI re-scan) but falls back to the L2 text.
"""

from __future__ import annotations

from clinx.text.clinical import question_form
from clinx.text.rewrite import prompts
from clinx.text.rewrite.common import L3Base


class SingleRewriter(L3Base):
    """L3 by one LLM call: ``apply(l2_text, manifest) -> TextResult``."""

    strategy = "single"

    def _candidates(self, base, l2_text, manifest, notes, call, state):
        # A question gets the paper's question prompt; anything else (a report, a note: the
        # retrieval payloads of clinx.rag) gets the document prompt, so the rewrite keeps its form.
        document = question_form(base) == "statement"  # the form classifier the validator uses
        notes["input_form"] = "document" if document else "question"
        # llama.cpp refuses grammars that repeat a character rule ~2,000 times; a document rewrite
        # that drops identifiers is shorter than its input, and one cut short fails validation (fallback)
        system, shots, label, schema, key, cap = (
            (prompts.SINGLE_DOC_SYSTEM, prompts.SINGLE_DOC_SHOTS, "Report", prompts.single_doc_schema, "text", 1000)
            if document else
            (prompts.SINGLE_SYSTEM, prompts.SINGLE_SHOTS, "Question", prompts.single_schema, "question", 600))
        max_len = int(min(self.max_growth * len(base) + 40, cap))
        data, err = call(prompts.few_shot(system, shots, f"{label}: {base}"), schema(max_len), key)
        if err:
            notes["llm_error"] = err
            return
        q = data.get(key)
        if not isinstance(q, str):
            notes["llm_error"] = "bad_shape"
            return
        yield "llm", q
