"""Multi-agent L3 rewrite (privacy-preserving RAG paper §3.2, Appendices A–C, F).

Three agents, each with one job, and a deterministic router between them:

1. **Privacy extraction** (Pri-Extra, rule–LLM synergy). Rules first: the
   placeholders L1/L2 already wrote and anything a re-scan with L1 + L2 + the
   manifest still finds are the explicit identifiers ``P_expl`` (the latter are
   masked before any LLM sees the text). Then the LLM, told which categories
   are already removed, proposes *quasi-identifiers* the rules cannot know
   (age phrases, occupations, relatives, places, events). A proposal is kept
   only if it occurs verbatim in the text and is not purely clinical content —
   a small model happily lists "pneumonia" as personal.
2. **Semantic extraction** (Sem-Extra): the LLM maps the text to
   ``(entity, relation, value, weight)`` knowledge slots ``K_seq``; every
   clinical lexicon term it forgot is added as a high-weight slot, so the
   backbone never misses the finding / anatomy / modality.
3. **Conflict routing** (deterministic, :func:`route`): each privacy item that
   overlaps a slot is a conflict. Explicit identifiers always get
   *placeholder substitution* (τ = 0). A quasi-identifier gets placeholder
   substitution when it can be cleanly removed (the slot is low/medium weight,
   or keeps content without it) and *high-level abstraction* when it is the
   semantic core of a high-weight slot or carries clinical words itself.
4. **Reconstruction**: the LLM writes the question from the sanitized slots
   and the routed draft; the validator then decides. If the LLM's text fails,
   the routed draft (the L2 text with the routed substitutions) is validated
   as the deterministic reconstruction; if that fails too, the level falls
   back to the L2 text. ``notes['source']`` says which one was used.

Privacy items hold PHI (``text``); they live only in memory during one call.
Notes and logs carry counts, categories and route labels — never the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Sequence

from clinx.records import Manifest
from clinx.text.base import CATEGORIES, PLACEHOLDER_RE, RemovedSpan, TextResult, digest_value, placeholder
from clinx.text.clinical import CLINICAL_WORDS, clinical_terms, is_clinical_word, question_form
from clinx.text.rewrite import prompts
from clinx.text.rewrite.common import L3Base, LLMCall

#: Quasi-identifier type -> placeholder category (types without one get a generic phrase).
QUASI_CATEGORY = {"age": "AGE", "location": "LOCATION", "date": "DATE"}

#: Generic phrase written when a quasi-identifier without a category is substituted.
#: No article: the span being replaced keeps its own ("a teacher" -> "a person").
GENERIC_PHRASE = {
    "occupation": "person",
    "relative": "relative",
    "event": "event",
    "other": "detail",
}

#: Broader concept used for high-level abstraction, by type.
ABSTRACTION = {
    "occupation": "a worker",
    "relative": "a relative",
    "event": "a past event",
    "other": "a personal detail",
    "location": "a region",
    "date": "a past date",
}

_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9'-]*")
_STOP = frozenset(
    "a an the of in on at to for with and or is are was were be does do did has have had this that these those "
    "there his her their its patient patients pt person people who which what where when how any some".split()
)


@dataclass(frozen=True)
class PrivacyItem:
    """One element of ``P_seq``. ``text`` is PHI: keep it in memory, never log it."""

    text: str
    category: str  # placeholder category (NAME, DATE…) or quasi type (occupation…)
    kind: str  # "explicit" | "quasi"
    source: str  # "placeholder", "rules", "llm"
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Fact:
    """One knowledge slot ``(entity, relation, value, weight)`` of ``K_seq``."""

    entity: str
    relation: str
    value: str
    weight: str = "high"
    source: str = "llm"  # "llm" | "lexicon"


@dataclass(frozen=True)
class Conflict:
    """A privacy item overlapping a slot, and the route chosen for it."""

    item: int
    fact: int
    route: str  # "placeholder" | "abstraction"
    reason: str


@dataclass
class Routing:
    """Output of :func:`route`: per-item route and replacement, conflicts, sanitized slots."""

    routes: list[str]
    replacements: list[str]
    conflicts: list[Conflict] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


# ----------------------------------------------------------------------------- helpers


def content_tokens(text: str) -> set[str]:
    """Lower-cased words that carry meaning (no stop words, no placeholders)."""
    text = PLACEHOLDER_RE.sub(" ", text)
    return {w.lower() for w in _WORD_RE.findall(text) if w.lower() not in _STOP}


def find_all(text: str, needle: str) -> tuple[tuple[int, int], ...]:
    """Case-insensitive, word-bounded occurrences of ``needle`` in ``text``."""
    if not needle.strip():
        return ()
    pat = re.compile(r"(?<![A-Za-z0-9])" + re.escape(needle.strip()) + r"(?![A-Za-z0-9])", re.IGNORECASE)
    return tuple((m.start(), m.end()) for m in pat.finditer(text))


def is_clinical_phrase(text: str) -> bool:
    """True when every content word of ``text`` is a clinical lexicon word (nothing personal left)."""
    toks = content_tokens(text)
    return bool(toks) and all(is_clinical_word(t) for t in toks)


def _age_abstraction(text: str) -> str:
    nums = [int(n) for n in re.findall(r"\d{1,3}", text)]
    if not nums:
        return "a patient"
    n = nums[0]
    return "a child" if n < 18 else ("an older adult" if n >= 65 else "an adult")


def abstraction_for(item: PrivacyItem) -> str:
    """High-level abstraction: keep the clinical words the item carries, generalise the rest."""
    clinical = [w for w in _WORD_RE.findall(item.text) if is_clinical_word(w)]
    if item.category == "age" or item.category == "AGE":
        head = _age_abstraction(item.text)
    else:
        head = ABSTRACTION.get(item.category, "a personal detail")
    if clinical:
        # "rare Kawasaki-like pneumonia of a Lagos fisherman" -> "pneumonia (a personal detail)"
        # keeps the clinical core in the sentence while the identifying rest goes.
        return " ".join(clinical)
    return head


def placeholder_for(item: PrivacyItem) -> str:
    """Placeholder substitution: a typed placeholder where a category exists, else a generic phrase."""
    if item.category in CATEGORIES:
        return placeholder(item.category)
    cat = QUASI_CATEGORY.get(item.category)
    if cat:
        return placeholder(cat)
    return GENERIC_PHRASE.get(item.category, "detail")


def _overlaps(item: PrivacyItem, fact: Fact) -> bool:
    p = item.text.lower().strip()
    slot = f"{fact.entity} {fact.value}".lower()
    if p and p in slot:
        return True
    pt = content_tokens(item.text)
    return bool(pt) and bool(pt & content_tokens(slot))


# ----------------------------------------------------------------------------- routing


def route(items: Sequence[PrivacyItem], facts: Sequence[Fact]) -> Routing:
    """Fine-grained conflict routing between ``P_seq`` and ``K_seq``.

    * explicit identifier -> placeholder (zero tolerance, whatever the slot);
    * quasi-identifier carrying clinical words -> abstraction (the clinical
      word must survive, the personal rest must not);
    * quasi-identifier in conflict with a *high*-weight slot whose content
      would be empty without it -> abstraction (removing it would destroy the
      semantic core);
    * any other quasi-identifier -> placeholder (it can be cleanly removed).

    Slots are then sanitized with the chosen replacements; a slot left with no
    content of its own and not high weight is dropped.
    """
    routes: list[str] = []
    conflicts: list[Conflict] = []
    for i, it in enumerate(items):
        r = "placeholder"
        if it.kind == "quasi" and any(is_clinical_word(w) for w in _WORD_RE.findall(it.text)):
            r = "abstraction"
        for j, f in enumerate(facts):
            if not _overlaps(it, f):
                continue
            if it.kind == "explicit":
                conflicts.append(Conflict(i, j, "placeholder", "explicit"))
                continue
            rest = content_tokens(f.value) - content_tokens(it.text)
            if f.weight == "high" and not rest:
                conflicts.append(Conflict(i, j, "abstraction", "core_of_high_weight_slot"))
                r = "abstraction"
            elif r == "abstraction":
                conflicts.append(Conflict(i, j, "abstraction", "carries_clinical_words"))
            else:
                conflicts.append(Conflict(i, j, "placeholder", "cleanly_removable"))
        routes.append(r)
    repl = [abstraction_for(it) if r == "abstraction" else placeholder_for(it) for it, r in zip(items, routes)]
    clean: list[Fact] = []
    for f in facts:
        ent, val = f.entity, f.value
        for it, rep in zip(items, repl):
            if it.text.strip():
                pat = re.compile(re.escape(it.text.strip()), re.IGNORECASE)
                ent, val = pat.sub(rep, ent), pat.sub(rep, val)
        g = replace(f, entity=ent, value=val)
        own = content_tokens(val) - {w for r in repl for w in content_tokens(r)}
        if own or f.weight == "high":
            clean.append(g)
    return Routing(routes=routes, replacements=repl, conflicts=conflicts, facts=clean)


def substitute(text: str, items: Sequence[PrivacyItem], replacements: Sequence[str]) -> tuple[str, list[tuple[int, int, int]]]:
    """Replace every span of every item; returns the new text and ``(start, end, item)`` of what was replaced."""
    spans: list[tuple[int, int, int]] = []
    for k, it in enumerate(items):
        spans += [(a, b, k) for a, b in it.spans]
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
    merged: list[tuple[int, int, int]] = []
    for s in spans:
        if merged and s[0] < merged[-1][1]:
            if s[1] > merged[-1][1]:  # overlapping items: cover the union, keep the first item's route
                merged[-1] = (merged[-1][0], s[1], merged[-1][2])
            continue
        merged.append(s)
    out, pos = [], 0
    for a, b, k in merged:
        out.append(text[pos:a])
        out.append(replacements[k])
        pos = b
    out.append(text[pos:])
    new = re.sub(r"[ \t]{2,}", " ", "".join(out))
    new = re.sub(r"\s+([?.,!;:])", r"\1", new)
    return new.strip(), merged


# ----------------------------------------------------------------------------- quasi-identifier rules

_RELATIVES = r"(?:wife|husband|partner|son|daughter|mother|father|brother|sister|grandmother|grandfather|grandson|granddaughter|uncle|aunt|cousin|nephew|niece|twin|fianc[eé]e?|boyfriend|girlfriend|children|kids)"
_JOBS = (
    r"(?:teacher|firefighter|fire\s{1,2}fighter|pilot|nurse|farmer|soldier|veteran|lawyer|attorney|engineer|driver|bus\s{1,2}driver|truck\s{1,2}driver|"
    r"police\s{1,2}officer|officer|mayor|senator|governor|student|athlete|footballer|boxer|miner|fisherman|chef|accountant|mechanic|"
    r"electrician|carpenter|plumber|welder|priest|pastor|rabbi|imam|judge|actor|actress|singer|musician|journalist|banker|ceo|"
    r"construction\s{1,2}worker|factory\s{1,2}worker|worker|waiter|waitress|janitor|librarian|architect|dentist|pharmacist|"
    r"coal\s{1,2}miner|sailor|astronaut|jockey|dancer|bartender)"
)

#: Deterministic quasi-identifier recognisers (bounded quantifiers only: linear time).
#: The rules half of the Pri-Extra agent for what L1/L2 do not cover by design
#: (they remove HIPAA identifiers, not demographics or circumstances).
QUASI_RULES: tuple[tuple[str, re.Pattern], ...] = (
    ("age", re.compile(r"(?<![\w-])\d{1,3}(?:\s{0,2}|-)(?:years?|yrs?|months?|mos?|weeks?|wks?|days?)(?:\s{0,2}|-)old\b", re.IGNORECASE)),
    ("age", re.compile(r"\b(?:aged?|age\s{0,2}of)\s{1,2}\d{1,3}\b", re.IGNORECASE)),
    ("age", re.compile(r"(?<![\w-])\d{1,3}\s{0,2}(?:y/?o|yo|yrs?|years?)\b(?!\s{0,2}(?:ago|of|after|before|later))", re.IGNORECASE)),
    ("age", re.compile(r"(?<![\w-])\d{1,3}-?(?:M|F)\b")),
    ("relative", re.compile(r"\b(?:his|her|their|whose|the\s{1,2}patient'?s)\s{1,2}" + _RELATIVES + r"\b", re.IGNORECASE)),
    ("occupation", re.compile(r"\b(?:a|an|the)\s{1,2}(?P<v>(?:(?:retired|former|off-duty|professional|local)\s{1,2}){0,2}" + _JOBS + r")\b", re.IGNORECASE)),
    ("occupation", re.compile(r"\b(?P<v>(?:retired|former|off-duty)\s{1,2}" + _JOBS + r")\b", re.IGNORECASE)),
    ("location", re.compile(r"\b(?:lives|living|resides|residing|born|raised|works|working|visiting|travell?ed|moved)\s{1,2}(?:in|at|to|from)\s{1,2}(?P<v>[A-Z][a-z]{2,20}(?:\s{1,2}[A-Z][a-z]{2,20}){0,2})")),
    ("location", re.compile(r"\bfrom\s{1,2}(?P<v>[A-Z][a-z]{2,20}(?:\s{1,2}[A-Z][a-z]{2,20}){0,2})")),
)


def quasi_rule_items(text: str) -> list["PrivacyItem"]:
    """Quasi-identifiers the deterministic rules find (age phrases, relatives, jobs, places)."""
    found: dict[str, PrivacyItem] = {}
    for typ, pat in QUASI_RULES:
        for m in pat.finditer(text):
            t = (m.group("v") if "v" in pat.groupindex else m.group(0)).strip()
            if is_clinical_phrase(t) or t.lower() in found:
                continue
            found[t.lower()] = PrivacyItem(text=t, category=typ, kind="quasi", source="rules", spans=find_all(text, t))
    return drop_covered(list(found.values()))


def drop_covered(items: list["PrivacyItem"]) -> list["PrivacyItem"]:
    """Drop items whose every span lies inside another item's span ("67 year" inside "67 year old")."""
    out = []
    for i, it in enumerate(items):
        others = [(a, b) for j, o in enumerate(items) if j != i for a, b in o.spans]
        inside = all(any(a <= s and e <= b and (a, b) != (s, e) for a, b in others) for s, e in it.spans)
        if not (it.spans and inside):
            out.append(it)
    return out


# ----------------------------------------------------------------------------- agents


class PrivacyAgent:
    """``P_seq = P_expl ∪ f_LLM(T, P_expl)`` on the (already masked) L2 text."""

    def __init__(self, max_items: int = 5, use_rules: bool = True):
        self.max_items = max_items
        self.use_rules = use_rules

    def extract(self, base: str, call: LLMCall | None, notes: dict) -> list[PrivacyItem]:
        already = sorted({m.group(0)[1:-1] for m in PLACEHOLDER_RE.finditer(base)})
        items: list[PrivacyItem] = quasi_rule_items(base) if self.use_rules else []
        stats = {"explicit": len(already), "rules_quasi": len(items), "llm_proposed": 0, "llm_kept": 0,
                 "llm_ungrounded": 0, "llm_clinical": 0, "llm_duplicate": 0}
        notes["privacy"] = stats
        if call is None:
            return items
        # Tell the LLM what the rules already have, by category only: it looks for the rest.
        known = already + sorted({it.category for it in items})
        user = f"Already removed: {', '.join(known) or 'none'}\nText: {base}"
        data, err = call(prompts.few_shot(prompts.PRIVACY_SYSTEM, prompts.PRIVACY_SHOTS, user), prompts.privacy_schema(self.max_items), "items")
        if err:
            notes["privacy_error"] = err
            return items
        raw = data.get("items")
        if not isinstance(raw, list):
            notes["privacy_error"] = "bad_shape"
            return items
        seen: set[str] = {it.text.lower() for it in items}
        n_rules = len(items)
        for r in raw[: self.max_items]:
            if not isinstance(r, dict) or not isinstance(r.get("text"), str):
                continue
            stats["llm_proposed"] += 1
            t = r["text"].strip().strip(".,;:!?\"'")
            typ = r.get("type") if r.get("type") in prompts.QUASI_TYPES else "other"
            t_wo = PLACEHOLDER_RE.sub("", t).strip()
            spans = find_all(base, t) if t_wo else ()
            if not spans:
                stats["llm_ungrounded"] += 1  # hallucinated, or only a placeholder: nothing to remove
                continue
            if not content_tokens(t):
                stats["llm_ungrounded"] += 1  # only stop words ("the", "a"): nothing identifying
                continue
            if is_clinical_phrase(t):
                stats["llm_clinical"] += 1  # "pneumonia" is the question, not the patient
                continue
            if t.lower() in seen:
                stats["llm_duplicate"] += 1
                continue
            seen.add(t.lower())
            items.append(PrivacyItem(text=t, category=typ, kind="quasi", source="llm", spans=spans))
        stats["llm_kept"] = len(items) - n_rules
        return items


class SemanticAgent:
    """``K_seq = g(T)``: LLM knowledge slots plus every lexicon term the LLM left out."""

    def __init__(self, max_items: int = 6):
        self.max_items = max_items

    def extract(self, base: str, call: LLMCall | None, notes: dict) -> list[Fact]:
        facts: list[Fact] = []
        stats = {"llm": 0, "lexicon": 0}
        notes["semantic"] = stats
        if call is not None:
            data, err = call(prompts.few_shot(prompts.SEMANTIC_SYSTEM, prompts.SEMANTIC_SHOTS, f"Text: {base}"), prompts.semantic_schema(self.max_items), "facts")
            if err:
                notes["semantic_error"] = err
            elif isinstance(data.get("facts"), list):
                for r in data["facts"][: self.max_items]:
                    if not isinstance(r, dict):
                        continue
                    vals = [r.get(k) for k in ("entity", "relation", "value")]
                    if not all(isinstance(v, str) and v.strip() for v in vals):
                        continue
                    w = r.get("weight") if r.get("weight") in prompts.WEIGHTS else "medium"
                    facts.append(Fact(*(v.strip() for v in vals), weight=w, source="llm"))
        stats["llm"] = len(facts)
        covered = " ".join(f"{f.entity} {f.value}".lower() for f in facts)
        covered_terms = clinical_terms(covered)
        for term in sorted(clinical_terms(base)):
            if term not in covered_terms:
                facts.append(Fact("image", "shows", term, weight="high", source="lexicon"))
                stats["lexicon"] += 1
        return facts


class ReconstructionAgent:
    """Writes ``T_safe`` from the sanitized slots and the routed draft (never from raw identifiers)."""

    def __init__(self, max_facts: int = 6, max_growth: float = 2.0):
        self.max_facts = max_facts
        self.max_growth = max_growth

    def prompt(self, facts: Sequence[Fact], draft: str, form: str) -> str:
        keep = [f for f in facts if f.weight != "low"][: self.max_facts]
        lines = "\n".join(f"- {f.entity} {f.relation}: {f.value}" for f in keep) or "- (none)"
        return f"Question type: {prompts.FORM_WORDS.get(form, form)}\nFacts:\n{lines}\nDraft: {draft}"

    def reconstruct(self, facts: Sequence[Fact], draft: str, form: str, call: LLMCall, notes: dict) -> str | None:
        max_len = int(min(self.max_growth * len(draft) + 40, 600))
        msgs = prompts.few_shot(prompts.RECONSTRUCT_SYSTEM, prompts.RECONSTRUCT_SHOTS, self.prompt(facts, draft, form))
        data, err = call(msgs, prompts.reconstruct_schema(max_len), "question")
        if err:
            notes["reconstruct_error"] = err
            return None
        q = data.get("question")
        return q if isinstance(q, str) else None


class MultiAgentRewriter(L3Base):
    """L3 by privacy extraction -> semantic extraction -> routing -> reconstruction -> validation."""

    strategy = "multi_agent"

    def __init__(self, llm, *, max_items: int = 5, max_facts: int = 6, use_draft: bool = True, quasi_rules: bool = True, **kw):
        super().__init__(llm, **kw)
        self.privacy = PrivacyAgent(max_items, use_rules=quasi_rules)
        self.semantic = SemanticAgent(max_facts)
        self.reconstruction = ReconstructionAgent(max_facts, self.max_growth)
        self.use_draft = use_draft

    def _candidates(self, base, l2_text, manifest, notes, call, state):
        items = self.privacy.extract(base, call, notes)
        facts = self.semantic.extract(base, call, notes)
        routing = route(items, facts)
        draft, replaced = substitute(base, items, routing.replacements)
        notes["routes"] = {"placeholder": routing.routes.count("placeholder"), "abstraction": routing.routes.count("abstraction")}
        notes["conflicts"] = [{"route": c.route, "reason": c.reason} for c in routing.conflicts]
        notes["facts_kept"] = len(routing.facts)
        state.update(base=base, items=items, replaced=replaced, routes=routing.routes)
        yield "llm", self.reconstruction.reconstruct(routing.facts, draft, question_form(base), call, notes)
        if self.use_draft and draft != base:
            yield "draft", draft

    def _extra_removed(self, base_result: TextResult, notes: dict, state: dict) -> list[RemovedSpan]:
        """Audit spans for the quasi-identifiers removed, with offsets in the L3 input (the L2 text)."""
        base, items, routes = state.get("base", ""), state.get("items", []), state.get("routes", [])
        # base = L2 text with residual hits masked: (base start of each mask, length change).
        masks, delta = [], 0
        for sp in sorted(base_result.removed, key=lambda r: r.start):
            plen = len(placeholder(sp.category))
            masks.append((sp.start - delta, (sp.end - sp.start) - plen))
            delta += (sp.end - sp.start) - plen
        out = []
        for a, b, k in state.get("replaced", []):
            it = items[k]
            shift = sum(d for bs, d in masks if bs < a)
            out.append(RemovedSpan(
                category=QUASI_CATEGORY.get(it.category, it.category.upper()), level="L3",
                start=a + shift, end=b + shift, source=f"llm:quasi:{routes[k]}",
                digest=digest_value(base[a:b], self.salt), value=base[a:b] if self.keep_values else None,
            ))
        return out
