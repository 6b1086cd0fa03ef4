"""Accept an L3 rewrite only when it is both useful and clean; otherwise fall back to L2.

A rewrite is accepted when **all** of these hold (each failure is a reason
code recorded in ``TextResult.notes`` — codes and clinical terms only, never
the text):

* ``empty`` / ``too_long`` — it is a non-empty sentence not wildly longer than its input;
* ``clinical_terms_missing`` / ``question_form_changed`` — it keeps every
  anatomy / modality / finding term and the question form of the L2 text it
  was made from (:func:`clinx.text.clinical.check_clinical`);
* ``clinical_terms_added`` — it adds no anatomy / modality / finding term the
  L2 text did not hold (a small model turning "Is there a lesion?" into "Is
  there a lesion on the liver?" changes the question as surely as dropping a
  term; ``allow_added=True`` switches this off);
* ``rescan_hits`` — a re-scan with L1 + L2 and the manifest
  (:func:`clinx.text.pipeline.rescan`) finds nothing;
* ``manifest_token`` — no token of any manifest value survives (checked here
  independently of the rules, so the guarantee does not rest on one recogniser);
* ``new_digits`` — it introduces no digit string absent from its input (a
  small model's invented numbers read as ages, dates or IDs).

When a rewrite is rejected the level falls back to the L2 text — **never to
the original** (the ClinX paper fell back to the original question, which can
re-expose PHI). If the L2 text itself still holds a manifest token or a re-scan
hit, those spans are masked with typed placeholders first, so L3 recall is
never below L2's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Sequence

from clinx.records import Manifest
from clinx.text.base import PLACEHOLDER_RE, Candidate, RemovedSpan, apply_candidates, category_for_field
from clinx.text.clinical import CLINICAL_WORDS, check_clinical

RescanFn = Callable[[str, "Manifest | None"], Sequence[RemovedSpan]]

#: Words too common to prove a leak on their own when they appear in a manifest
#: value ("St. Mary's *General Hospital*"); identifying tokens are the rest.
GENERIC_WORDS = frozenset(
    """
the and of for at in on to a an st saint mount mt general hospital hospitals medical medicine center centre clinic
clinics health healthcare university college institute regional community memorial county city state
national children childrens women womens mercy care system services dr mr mrs ms md jr sr
""".split()
)

_TOKEN_RE = re.compile(r"[A-Za-z0-9]+")
_DIGITS_RE = re.compile(r"\d+")


def default_rescan(text: str, manifest: Manifest | None) -> list[RemovedSpan]:
    """L1 + L2 + manifest re-scan from the text pipeline (imported lazily)."""
    from clinx.text.pipeline import rescan

    return list(rescan(text, manifest))


def identifying_tokens(manifest: Manifest | None) -> dict[str, str]:
    """``{token (lower-case): field}`` for every manifest token that would prove a leak.

    Alphabetic tokens need 3+ characters and must not be generic or clinical
    words; numeric tokens need 3+ digits (``14`` in a date is too common to
    count, ``1961`` is not).
    """
    out: dict[str, str] = {}
    if not manifest:
        return out
    for fname, value in manifest.items():
        for tok in _TOKEN_RE.findall(value):
            t = tok.lower()
            if t.isdigit():
                if len(t) >= 3:
                    out.setdefault(t, fname)
            elif len(t) >= 3 and t not in GENERIC_WORDS and t not in CLINICAL_WORDS:
                out.setdefault(t, fname)
    return out


def manifest_token_hits(text: str, manifest: Manifest | None) -> list[Candidate]:
    """Whole-token, case-insensitive occurrences of identifying manifest tokens in ``text``."""
    toks = identifying_tokens(manifest)
    if not toks:
        return []
    hits = []
    for m in _TOKEN_RE.finditer(text):
        fname = toks.get(m.group(0).lower())
        if fname is not None:
            hits.append(Candidate(m.start(), m.end(), category_for_field(fname), "manifest:token"))
    return hits


@dataclass(frozen=True)
class Verdict:
    """Outcome of :func:`validate_rewrite` (log-safe)."""

    ok: bool
    reasons: tuple[str, ...] = ()
    retention: float = 1.0
    missing_terms: tuple[str, ...] = ()
    form_before: str = ""
    form_after: str = ""
    leaks: int = 0
    details: dict = field(default_factory=dict)

    def to_notes(self) -> dict:
        return {
            "ok": self.ok, "reasons": list(self.reasons), "retention": round(self.retention, 3),
            "missing_terms": list(self.missing_terms), "form_before": self.form_before,
            "form_after": self.form_after, "leaks": self.leaks,
        }


def _strip_placeholders(text: str) -> str:
    return PLACEHOLDER_RE.sub(" ", text)


def validate_rewrite(
    candidate: str,
    reference: str,
    manifest: Manifest | None = None,
    *,
    rescan: RescanFn | None = None,
    max_growth: float = 2.0,
    min_retention: float = 1.0,
    allow_added: bool = False,
) -> Verdict:
    """Check ``candidate`` (a rewrite) against ``reference`` (the L2 text it came from).

    ``max_growth``: the rewrite may be at most ``max_growth × len(reference) + 40``
    characters. ``min_retention``: fraction of clinical terms that must survive.
    ``allow_added``: accept rewrites that introduce clinical terms (off by default).
    """
    rescan = rescan or default_rescan
    reasons: list[str] = []
    cand = candidate.strip() if isinstance(candidate, str) else ""
    if not cand or not _TOKEN_RE.search(cand):
        return Verdict(ok=False, reasons=("empty",))
    if len(cand) > max_growth * len(reference) + 40:
        reasons.append("too_long")
    clin = check_clinical(reference, cand, min_retention=min_retention)
    if clin.retention < min_retention:
        reasons.append("clinical_terms_missing")
    if clin.added and not allow_added:
        reasons.append("clinical_terms_added")
    if clin.form_before != clin.form_after:
        reasons.append("question_form_changed")
    hits = list(rescan(cand, manifest))
    if hits:
        reasons.append("rescan_hits")
    tok_hits = manifest_token_hits(cand, manifest)
    if tok_hits:
        reasons.append("manifest_token")
    ref_digits = set(_DIGITS_RE.findall(_strip_placeholders(reference)))
    new_digits = [d for d in _DIGITS_RE.findall(_strip_placeholders(cand)) if d not in ref_digits]
    if new_digits:
        reasons.append("new_digits")
    return Verdict(
        ok=not reasons, reasons=tuple(reasons), retention=clin.retention, missing_terms=clin.missing,
        form_before=clin.form_before, form_after=clin.form_after, leaks=len(hits) + len(tok_hits),
        details={"rescan_categories": sorted({h.category for h in hits})},
    )


def safe_fallback(
    l2_text: str,
    manifest: Manifest | None = None,
    *,
    rescan: RescanFn | None = None,
    level: str = "L3",
    salt=None,
    keep_values: bool = False,
):
    """The L2 text, with any residual re-scan hit or manifest token masked.

    Returns a :class:`~clinx.text.base.TextResult`; it equals the L2 text
    unless L2 let something through, in which case ``notes['fallback_masked']``
    counts the extra spans.
    """
    rescan = rescan or default_rescan
    cands = [Candidate(s.start, s.end, s.category, f"l3-fallback:{s.source}") for s in rescan(l2_text, manifest)]
    cands += manifest_token_hits(l2_text, manifest)
    # Never re-mask a placeholder we (or L1/L2) wrote.
    ph = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(l2_text)]
    cands = [c for c in cands if not any(a <= c.start and c.end <= b for a, b in ph)]
    res = apply_candidates(l2_text, cands, level, salt=salt, keep_values=keep_values)
    res.notes["fallback_masked"] = len(res.removed)
    return res
