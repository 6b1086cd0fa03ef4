#!/usr/bin/env python
"""L2 on the probe line sets: recall by category, precision, and PHI-free lines touched.

    python scripts/score_probe_lines.py [--out FILE.json] [FILES...]

The probe sets (``benchmarks/data/probe_*_lines.jsonl``) are short charting lines about one kind of identifier
(organisations, people, places and dates), written for clinx by agents blind to the code, each with gold spans,
plus lines with no identifier at all that use the same cues; ``probe_negatives_lines.jsonl`` holds only such
lines (the words around institutions' names with no name: "main lab", "referring hospital", "PPH"). They are *tune* data: rules were fitted to what
they showed, so their figures say what the rules do on the forms the sets hold, not how they generalise (the
blind notes say that). Keys per line: ``id``, ``case`` (caps/lower/mixed), ``phi``, ``text``, ``spans``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clinx.text.notes_eval import Note, removed_mask, score_notes  # noqa: E402
from clinx.text.pipeline import TextPipeline  # noqa: E402

DEFAULT = sorted((ROOT / "benchmarks" / "data").glob("probe_*_lines.jsonl"))


def score_file(path: Path, pipe: TextPipeline) -> dict:
    """Figures of one probe set: span recall by category and letter case, precision, PHI-free lines touched."""
    caught, gold, by_case, case_gold = Counter(), Counter(), Counter(), Counter()
    notes, masks = [], []
    touched = clean = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        text = d["text"]
        mask = removed_mask(text, pipe.run(text))
        note = Note(d["id"], text, tuple((int(s), int(e), str(c)) for s, e, c in d["spans"]), "tune", d.get("case", "mixed"))
        notes.append(note)
        masks.append(mask)
        if not d["spans"]:
            clean += 1
            touched += any(mask[i] for i, ch in enumerate(text) if ch.isalnum())
        for s, e, c in note.spans:
            ok = all(mask[i] for i in range(s, e) if text[i].isalnum())
            gold[c] += 1
            caught[c] += ok
            case_gold[note.style] += 1
            by_case[note.style] += ok
    score = score_notes(notes, masks, term_finder=lambda t: [])
    return {
        "lines": len(notes),
        "spans": sum(gold.values()),
        # (a set of PHI-free lines only has no recall or precision: its figure is the lines touched)
        "recall": round(score.recall, 4) if score.gold else None,
        "precision": round(score.precision, 4) if score.gold else None,
        "recall_by_category": {c: [caught[c], gold[c]] for c in sorted(gold)},
        "recall_by_case": {c: [by_case[c], case_gold[c]] for c in sorted(case_gold)},
        "phi_free_lines_touched": [touched, clean],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    pipe = TextPipeline("L2")
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    result = {"git_commit": commit, "sets": {}}
    for path in args.files:
        r = result["sets"][path.name] = score_file(path, pipe)
        cats = ", ".join(f"{c} {a}/{b}" for c, (a, b) in r["recall_by_category"].items())
        figures = f"recall {r['recall']:.3f} precision {r['precision']:.3f} ({cats}); " if r["spans"] else ""
        print(f"{path.name}: {figures}PHI-free lines touched {r['phi_free_lines_touched'][0]}/{r['phi_free_lines_touched'][1]}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
