"""The release audit: ``audit.json`` and ``audit.md`` in the release folder — counts, fields, actions, reasons; never PHI.

Built from the per-item records (``audit.jsonl``) the runner keeps, sorted,
with no times or speeds in it, so the same input and settings give the same
audit bytes whether the run was interrupted and resumed or not. Items are
named by their log label (an opaque id unless ``log.paths=relative``).
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

__all__ = ["build_audit", "render_markdown"]


def _add(into: dict, counts: dict | None) -> None:
    for k, v in (counts or {}).items():
        into[k] = into.get(k, 0) + int(v)


def build_audit(records: Iterable[dict], not_processed: Iterable[tuple[str, str]], *, log_paths: str = "hash") -> dict:
    """The audit document from the final per-item records and the ``(label, reason)`` of input entries not taken."""
    records = list(records)
    status = Counter(r.get("status", "unknown") for r in records)
    by_modality: dict[str, dict[str, int]] = {}
    header: dict[str, dict[str, int]] = {}
    by_action: Counter = Counter()
    reads: dict[str, dict[str, int]] = {}
    residual: dict[str, dict[str, int]] = {}
    text_removed: dict[str, int] = {}
    text_residual: dict[str, int] = {}
    syntax = Counter()
    notes = Counter()
    frames = masked = 0
    quarantined, failed = [], []
    for r in records:
        mod = str(r.get("modality") or "unknown")
        by_modality.setdefault(mod, Counter())[r.get("status", "unknown")] += 1
        for engine, counts in (r.get("pixel_reads_by_field") or {}).items():
            _add(reads.setdefault(engine, {}), counts)
        for engine, counts in (r.get("pixel_residual_by_field") or {}).items():
            _add(residual.setdefault(engine, {}), counts)
        _add(text_removed, r.get("text_removed_by_category"))
        _add(text_residual, r.get("text_residual_by_category"))
        if r.get("status") == "released":
            frames += int(r.get("frames", 0) or 0)
            masked += int(r.get("masked_pixels", 0) or 0)
            for name, acts in (r.get("header_actions") or {}).items():
                _add(header.setdefault(name, {}), acts)
                by_action.update({a: int(n) for a, n in acts.items()})
            if r.get("kind") == "dicom":
                syntax["kept" if r.get("transfer_syntax_in") == r.get("transfer_syntax_out") else "changed"] += 1
                if r.get("transfer_syntax_note"):
                    notes[r["transfer_syntax_note"]] += 1
        entry = {"item": r.get("item"), "kind": r.get("kind"), "modality": mod, "stage": r.get("stage", ""),
                 "reason": r.get("reason", "")}
        if r.get("status") == "quarantined":
            quarantined.append(entry)
        elif r.get("status") == "failed":
            failed.append(entry)
    skipped = sorted(not_processed)
    return {
        "items": len(records),
        "released": status.get("released", 0),
        "quarantined": status.get("quarantined", 0),
        "failed": status.get("failed", 0),
        "not_processed": len(skipped),
        "items_named_by": "opaque id (item-<sha256 of the relative path>)" if log_paths == "hash" else "relative path",
        "by_modality": {m: dict(sorted(c.items())) for m, c in sorted(by_modality.items())},
        "header_actions_by_field": {k: dict(sorted(v.items())) for k, v in sorted(header.items())},
        "header_actions": dict(sorted(by_action.items())),
        "pixels": {
            "frames_released": frames,
            "masked_pixels_released": masked,
            "before_reads_by_field": {e: dict(sorted(c.items())) for e, c in sorted(reads.items())},
            "after_residual_by_field": {e: dict(sorted(c.items())) for e, c in sorted(residual.items())},
        },
        "text": {"removed_by_category": dict(sorted(text_removed.items())),
                 "residual_by_category": dict(sorted(text_residual.items()))},
        "transfer_syntax": {**dict(sorted(syntax.items())), "notes": dict(sorted(notes.items()))},
        "quarantined_items": sorted(quarantined, key=lambda e: str(e["item"])),
        "failed_items": sorted(failed, key=lambda e: str(e["item"])),
        "not_processed_items": [{"item": i, "reason": why} for i, why in skipped],
    }


def _table(head: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return out


def render_markdown(audit: dict) -> str:
    """``audit.md``: the audit as tables a custodian can read."""
    lines = ["# clinx release audit", "",
             f"{audit['items']} items: **{audit['released']} released**, {audit['quarantined']} quarantined, "
             f"{audit['failed']} failed; {audit['not_processed']} input entries not processed. "
             f"Items are named by {audit['items_named_by']}.", ""]
    statuses = sorted({s for c in audit["by_modality"].values() for s in c})
    lines += ["## By modality", ""]
    lines += _table(["modality", *statuses], [[m, *[c.get(s, 0) for s in statuses]] for m, c in audit["by_modality"].items()])
    actions = sorted(audit["header_actions"])
    lines += ["", "## Header actions (released DICOM)", ""]
    lines += _table(["attribute", *actions], [[f, *[a.get(x, "") for x in actions]] for f, a in audit["header_actions_by_field"].items()])
    px = audit["pixels"]
    lines += ["", "## Burned-in text (pixels)", "",
              f"{px['frames_released']} frames released, {px['masked_pixels_released']} pixels masked.", ""]
    rows = []
    for role, key in (("before: read by the mask engine", "before_reads_by_field"), ("after: left for the verifier", "after_residual_by_field")):
        for engine, counts in px[key].items():
            rows.append([role, engine, sum(counts.values()), ", ".join(f"{k}: {v}" for k, v in counts.items()) or "—"])
    lines += _table(["", "engine", "matches", "by field"], rows)
    tx = audit["text"]
    lines += ["", "## Text", "",
              f"Removed: {', '.join(f'{k}: {v}' for k, v in tx['removed_by_category'].items()) or 'nothing'}. "
              f"Left after the re-scan: {', '.join(f'{k}: {v}' for k, v in tx['residual_by_category'].items()) or 'nothing'}.", ""]
    ts = audit["transfer_syntax"]
    lines += ["## Transfer syntax", "", f"kept: {ts.get('kept', 0)}, changed: {ts.get('changed', 0)}"]
    lines += [f"- {n}: {k}" for n, k in ts["notes"].items()]
    for title, key in (("Quarantined (not released)", "quarantined_items"), ("Failed (not released)", "failed_items")):
        lines += ["", f"## {title}", ""]
        items = audit[key]
        lines += _table(["item", "kind", "modality", "stage", "reason"],
                        [[e["item"], e["kind"], e["modality"], e["stage"], e["reason"]] for e in items]) if items else ["none"]
    lines += ["", "## Input entries not processed", ""]
    items = audit["not_processed_items"]
    lines += _table(["item", "reason"], [[e["item"], e["reason"]] for e in items]) if items else ["none"]
    return "\n".join(lines) + "\n"
