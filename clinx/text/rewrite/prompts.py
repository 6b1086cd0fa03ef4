"""Prompts and output schemas for L3 rewriting.

Kept short on purpose: the embedded model (SmolLM2-135M, ``n_ctx`` 2048)
follows a terse instruction plus two worked examples far better than a long
policy, and short prompts keep one call near a second on two CPU cores. Every
string field in the schemas has a ``maxLength`` and every array a
``maxItems``: with grammar-constrained decoding a small model otherwise loops
inside a string until ``max_tokens`` and the JSON never closes.

The few-shot examples use placeholders (``[NAME]``) and invented details
only — never real PHI.

* :data:`SINGLE_*` — the ClinX paper's single-prompt rewrite (Appendix B.3);
  :data:`SINGLE_DOC_*` the same for a document (a report or note) instead of a question.
* :data:`PRIVACY_*`, :data:`SEMANTIC_*`, :data:`RECONSTRUCT_*` — the three
  agents of the multi-agent rewriter (privacy-preserving RAG paper §3.2,
  Appendices A–C), adapted to one-sentence medical questions.
"""

from __future__ import annotations

#: Quasi-identifier types the privacy agent may report.
QUASI_TYPES = ("age", "occupation", "location", "relative", "date", "event", "other")
WEIGHTS = ("high", "medium", "low")


def _str(max_len: int) -> dict:
    return {"type": "string", "maxLength": max_len}


# ----------------------------------------------------------------------------- single prompt

SINGLE_SYSTEM = (
    "You remove identifying details from medical questions. Rewrite the question without names, "
    "dates, ID numbers, hospitals, places, ages, jobs or family details. Keep every medical word "
    "(anatomy, imaging, finding) and keep the same kind of question. Bracket placeholders like "
    '[NAME] may be dropped. Reply only with JSON: {"question": "..."}'
)

SINGLE_SHOTS = (
    ("Question: Does [NAME], a retired teacher from Ohio, have a fracture of the left femur on this x-ray?",
     '{"question": "Is there a fracture of the left femur on this x-ray?"}'),
    ("Question: On the CT from [DATE] at [HOSPITAL], where is the mass in the liver?",
     '{"question": "Where is the mass in the liver on this CT?"}'),
)


def single_schema(max_len: int) -> dict:
    return {"type": "object", "properties": {"question": _str(max_len)}, "required": ["question"]}


# The same single prompt for a document (a report or note, not a question): the model is asked
# for the text back, not for a question. Without it a small model turns every report into a
# question, which the validator rightly rejects (question_form_changed), so single-prompt L3 on
# documents fell back to L2 every time.
SINGLE_DOC_SYSTEM = (
    "You remove identifying details from medical reports. Rewrite the report without names, "
    "dates, ID numbers, hospitals, places, ages, jobs or family details. Keep every medical word "
    "(anatomy, imaging, finding) and every finding as a statement. Bracket placeholders like "
    '[NAME] may be dropped. Reply only with JSON: {"text": "..."}'
)

SINGLE_DOC_SHOTS = (
    ("Report: Seen by Dr. [NAME] at [HOSPITAL] on [DATE]. The lungs are clear. No pleural effusion.",
     '{"text": "The lungs are clear. No pleural effusion."}'),
    ("Report: Retired teacher from Ohio, 67 years old. Mild cardiomegaly. Degenerative changes of the spine.",
     '{"text": "Mild cardiomegaly. Degenerative changes of the spine."}'),
)


def single_doc_schema(max_len: int) -> dict:
    return {"type": "object", "properties": {"text": _str(max_len)}, "required": ["text"]}


# ----------------------------------------------------------------------------- privacy agent

PRIVACY_SYSTEM = (
    "Find personal details in the text that could identify the patient: age, job, place, relative, "
    "date, event or other rare personal fact. Bracket placeholders like [NAME] are already removed: "
    "skip them. Never list medical words (anatomy, imaging, disease, finding). Copy each detail "
    'exactly as written. Reply only with JSON: {"items": [{"text": "...", "type": "age|occupation|'
    'location|relative|date|event|other"}]}; use an empty list when there is none.'
)

PRIVACY_SHOTS = (
    ("Already removed: NAME\nText: Does the 67 year old retired firefighter [NAME] have pneumonia in the right lung?",
     '{"items": [{"text": "67 year old", "type": "age"}, {"text": "retired firefighter", "type": "occupation"}]}'),
    ("Already removed: none\nText: Is the heart enlarged on this chest x-ray?",
     '{"items": []}'),
)


def privacy_schema(max_items: int = 5) -> dict:
    item = {
        "type": "object",
        "properties": {"text": _str(60), "type": {"type": "string", "enum": list(QUASI_TYPES)}},
        "required": ["text", "type"],
    }
    return {"type": "object", "properties": {"items": {"type": "array", "items": item, "maxItems": max_items}}, "required": ["items"]}


# ----------------------------------------------------------------------------- semantic agent

SEMANTIC_SYSTEM = (
    "List the medical facts of the question as tuples: entity, relation, value, weight. Weight is "
    "high for the finding, anatomy, imaging and what is asked; low for personal details. Reply "
    'only with JSON: {"facts": [{"entity": "...", "relation": "...", "value": "...", "weight": '
    '"high|medium|low"}]}'
)

SEMANTIC_SHOTS = (
    ("Text: Does the 67 year old retired firefighter [NAME] have pneumonia in the right lung?",
     '{"facts": [{"entity": "patient", "relation": "has finding", "value": "pneumonia", "weight": "high"}, '
     '{"entity": "pneumonia", "relation": "located in", "value": "right lung", "weight": "high"}, '
     '{"entity": "patient", "relation": "occupation", "value": "retired firefighter", "weight": "low"}]}'),
    ("Text: Which imaging modality was used for this scan of the brain?",
     '{"facts": [{"entity": "image", "relation": "shows", "value": "brain", "weight": "high"}, '
     '{"entity": "question", "relation": "asks for", "value": "imaging modality", "weight": "high"}]}'),
)


def semantic_schema(max_items: int = 6) -> dict:
    fact = {
        "type": "object",
        "properties": {"entity": _str(40), "relation": _str(30), "value": _str(60), "weight": {"type": "string", "enum": list(WEIGHTS)}},
        "required": ["entity", "relation", "value", "weight"],
    }
    return {"type": "object", "properties": {"facts": {"type": "array", "items": fact, "maxItems": max_items}}, "required": ["facts"]}


# ----------------------------------------------------------------------------- reconstruction agent

RECONSTRUCT_SYSTEM = (
    "Write one short medical question from the facts and the draft. Keep every medical word of the "
    "draft. Do not add names, dates, places, ages or numbers. Keep the question type. Reply only "
    'with JSON: {"question": "..."}'
)

RECONSTRUCT_SHOTS = (
    ("Question type: yes/no\nFacts:\n- patient has finding: pneumonia\n- pneumonia located in: right lung\n"
     "Draft: Does the adult [NAME] have pneumonia in the right lung?",
     '{"question": "Does the patient have pneumonia in the right lung?"}'),
    ("Question type: wh\nFacts:\n- question asks for: imaging modality\n- image shows: brain\n"
     "Draft: Which imaging modality was used for this scan of the brain from [HOSPITAL]?",
     '{"question": "Which imaging modality was used for this scan of the brain?"}'),
)

FORM_WORDS = {
    "yesno": "yes/no",
    "choice": "choice between options",
    "wh": "wh (what/where/which/how)",
    "imperative": "instruction",
    "statement": "statement",
}


def reconstruct_schema(max_len: int) -> dict:
    return single_schema(max_len)


def few_shot(system: str, shots, user: str) -> list[dict]:
    """``[system, (user, assistant)*, user]`` chat messages."""
    msgs = [{"role": "system", "content": system}]
    for u, a in shots:
        msgs.append({"role": "user", "content": u})
        msgs.append({"role": "assistant", "content": a})
    msgs.append({"role": "user", "content": user})
    return msgs
