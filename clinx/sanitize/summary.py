"""What a ``clinx sanitize`` run did, in counts and reasons — never PHI."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from clinx.sanitize.core import SanitizedItem

#: The note a run without any manifest carries (issue: say that only patterns were used).
PATTERNS_ONLY_NOTE = "no manifest: only identifier patterns were used to find PHI"


@dataclass
class RunSummary:
    """Counters of one run. Item labels follow the run's ``log.paths`` policy; reasons are PHI-safe.

    ``engines`` says what each OCR engine read, by role: ``{"localize":
    {"engine": "rapidocr", "items": n, "words": n, "matches_by_field": {...}},
    "verify": {"engine": "easyocr", "items": n, "words": n,
    "residual_by_field": {...}}}`` — field names and counts only.
    ``outputs`` maps each released item's relative input path (or sample id)
    to its output file — for callers in the same process; it is never written.
    ``modes`` counts the localizer modes used per frame (``patterns`` when a
    frame had no manifest to match). ``inputs_not_processed`` counts, by
    reason, files of the input tree that were recorded but not processed
    (links, unsupported types).
    """

    condition: str = ""
    processed: int = 0
    sanitized: int = 0
    skipped: int = 0
    quarantined: int = 0
    by_reason: Counter = field(default_factory=Counter)
    by_stage: Counter = field(default_factory=Counter)
    frames: int = 0
    masked_pixels: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    outputs: dict[str, Path] = field(default_factory=dict)
    quarantine: list[dict] = field(default_factory=list)
    engines: dict[str, dict] = field(default_factory=dict)
    modes: Counter = field(default_factory=Counter)
    not_processed: Counter = field(default_factory=Counter)
    stale_left: int = 0
    settings: dict = field(default_factory=dict)

    @property
    def images_per_s(self) -> float:
        """Items sanitized or quarantined (not resumed) per wall-clock second."""
        done = self.processed - self.skipped
        return done / self.wall_s if self.wall_s > 0 else 0.0

    @property
    def patterns_only(self) -> bool:
        """True when every localized frame ran patterns only (no manifest was matched)."""
        return bool(self.modes) and set(self.modes) == {"patterns"}

    def add_engine_counts(self, result: SanitizedItem, localize_engine: str | None, verify_engines: list[str] | None) -> None:
        """Fold one item's per-engine reads into the run's totals (role ``verify``, or ``verify/<engine>`` with several)."""
        roles = [("localize", localize_engine, result.reads, "matches_by_field")]
        verify_engines = list(verify_engines or [])
        for engine in verify_engines:
            role = "verify" if len(verify_engines) == 1 else f"verify/{engine}"
            roles.append((role, engine, result.verification, "residual_by_field"))
        for role, engine, counts, key in roles:
            if engine is None or engine not in counts:
                continue
            entry = self.engines.setdefault(role, {"engine": engine, "items": 0, "words": 0, key: Counter()})
            entry["items"] += 1
            entry["words"] += int(result.words.get(f"{role.split('/')[0]}/{engine}", 0))
            entry[key].update(counts[engine])
        self.modes.update(result.modes)

    def to_dict(self) -> dict:
        """The JSON-ready summary (``summary.json``)."""
        engines = {
            role: {k: (dict(sorted(v.items())) if isinstance(v, Counter) else v) for k, v in entry.items()}
            for role, entry in self.engines.items()
        }
        out = {
            "condition": self.condition,
            "processed": self.processed,
            "sanitized": self.sanitized,
            "skipped_resumed": self.skipped,
            "quarantined": self.quarantined,
            "quarantined_by_reason": dict(self.by_reason.most_common()),
            "quarantined_by_stage": dict(self.by_stage.most_common()),
            "inputs_not_processed": dict(self.not_processed.most_common()),
            "stale_outputs_left": self.stale_left,
            "frames": self.frames,
            "masked_pixels": self.masked_pixels,
            "engines": engines,
            "localize_modes": dict(self.modes.most_common()),
            "wall_s": round(self.wall_s, 3),
            "cpu_s": round(self.cpu_s, 3),
            "images_per_s": round(self.images_per_s, 3),
        }
        if self.settings:
            out["settings"] = dict(self.settings)
        if self.patterns_only:
            out["note"] = PATTERNS_ONLY_NOTE
        return out

    def table(self) -> str:
        """A small plain-text table for the console."""
        rows: list[tuple[str, object]] = [
            ("condition", self.condition),
            ("processed", self.processed),
            ("sanitized", self.sanitized),
            ("skipped (resumed)", self.skipped),
            ("quarantined", self.quarantined),
        ]
        rows += [(f"  {reason}", n) for reason, n in self.by_reason.most_common()]
        if self.not_processed:
            rows.append(("inputs not processed", sum(self.not_processed.values())))
            rows += [(f"  {reason}", n) for reason, n in self.not_processed.most_common()]
        for role, entry in self.engines.items():
            counts = entry.get("matches_by_field") or entry.get("residual_by_field") or {}
            total = sum(counts.values())
            what = "matches" if role == "localize" else "residual matches"
            rows.append((f"{role} ({entry['engine']})", f"{entry['words']} words read, {total} {what}"))
        if self.modes:
            rows.append(("localize modes", ", ".join(f"{m}: {n}" for m, n in self.modes.most_common())))
        if self.stale_left:
            rows.append(("STALE OUTPUTS LEFT", self.stale_left))
        rows += [("images/s", f"{self.images_per_s:.2f}"), ("wall s", f"{self.wall_s:.1f}")]
        width = max(len(str(k)) for k, _ in rows)
        lines = [f"{str(k):<{width}}  {v}" for k, v in rows]
        if self.patterns_only:
            lines.append(PATTERNS_ONLY_NOTE)
        return "\n".join(lines)
