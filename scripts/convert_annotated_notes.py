#!/usr/bin/env python
"""Turn a writer's inline-marked notes into the notes files' ``[start, end, category]`` spans.

    python scripts/convert_annotated_notes.py RAW.jsonl OUT.jsonl --prefix ny --split blind --count 30 \
        [--styles lower=8,caps=8,mixed=7,telegraphic=7]

The blind and tune notes are written by agents that see nothing of clinx but the brief (``docs/writers_brief.md``):
each writes ``{"id", "style", "text"}`` lines with every PHI marked inline as ``⟦CATEGORY|text⟧``. This strips the
marks, computes the spans and refuses a batch with unknown categories, malformed marks, blanks at a span's edges,
ids other than ``<prefix>1`` ... ``<prefix><count>``, other style counts, or notes far outside the brief's size; it
prints what is wrong (ids and counts only, never a note's text) and writes nothing until all of it is right.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

CATEGORIES = frozenset({"NAME", "HOSPITAL", "LOCATION", "DATE", "AGE", "ID", "PHONE", "EMAIL", "URL"})
#: One inline mark: ⟦CATEGORY|text⟧, no mark inside another.
MARK_RE = re.compile(r"⟦([^|⟦⟧]*)\|([^⟦⟧]*)⟧")
#: The brief asks for 600-1,500 characters and 8-25 spans; a batch a little outside still measures, far outside not.
LENGTH_RANGE = (400, 2200)
SPANS_RANGE = (5, 30)


def convert_text(raw: str) -> tuple[str, list[list], list[str]]:
    """The plain text of one marked note, its ``[start, end, category]`` spans and the problems found in it."""
    problems: list[str] = []
    parts, spans, pos, length = [], [], 0, 0
    for m in MARK_RE.finditer(raw):
        before = raw[pos : m.start()]
        parts.append(before)
        length += len(before)
        category, body = m.group(1), m.group(2)
        if category not in CATEGORIES:
            problems.append(f"unknown category {category!r}")
        if not body:
            problems.append(f"an empty {category} span")
        elif body != body.strip():
            problems.append(f"blanks at the edge of a {category} span")
        spans.append([length, length + len(body), category])
        parts.append(body)
        length += len(body)
        pos = m.end()
    parts.append(raw[pos:])
    text = "".join(parts)
    if "⟦" in text or "⟧" in text:
        problems.append("a malformed mark (a ⟦ or ⟧ left after the marks were read)")
    return text, spans, problems


def convert(rows: list[dict], prefix: str, split: str, count: int, styles: dict[str, int]) -> tuple[list[dict], list[str]]:
    """The converted notes of a batch and every problem of the batch, each naming the note's id."""
    problems = []
    ids = [r.get("id") for r in rows]
    want = [f"{prefix}{k}" for k in range(1, count + 1)]
    if ids != want:
        problems.append(f"ids must be {want[0]} ... {want[-1]} in order ({len(ids)} rows)")
    got = dict(Counter(r.get("style") for r in rows))
    if got != styles:
        problems.append(f"style counts must be {styles}, got {got}")
    out = []
    for r in rows:
        if set(r) != {"id", "style", "text"}:
            problems.append(f"{r.get('id')}: keys must be id, style and text")
        text, spans, note_problems = convert_text(str(r.get("text", "")))
        if not LENGTH_RANGE[0] <= len(text) <= LENGTH_RANGE[1]:
            note_problems.append(f"{len(text)} characters")
        if not SPANS_RANGE[0] <= len(spans) <= SPANS_RANGE[1]:
            note_problems.append(f"{len(spans)} spans")
        problems.extend(f"{r.get('id')}: {p}" for p in note_problems)
        out.append({"id": r.get("id"), "split": split, "style": r.get("style"), "text": text, "spans": spans})
    return out, problems


def _styles(arg: str) -> dict[str, int]:
    return {k: int(v) for k, v in (part.split("=") for part in arg.split(","))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("raw", type=Path, help="the writer's raw.jsonl")
    ap.add_argument("out", type=Path, help="the notes file to write")
    ap.add_argument("--prefix", required=True, help="the batch's id prefix (ids <prefix>1 ... <prefix><count>)")
    ap.add_argument("--split", required=True, choices=("blind", "tune"))
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--styles", type=_styles, default=_styles("lower=8,caps=8,mixed=7,telegraphic=7"))
    args = ap.parse_args(argv)
    rows, problems = [], []
    for i, line in enumerate(args.raw.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            problems.append(f"line {i}: not JSON ({e.msg})")
    notes, more = convert(rows, args.prefix, args.split, args.count, args.styles)
    problems += more
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problems; {args.out} not written")
        return 1
    with open(args.out, "w", encoding="utf-8") as f:
        for n in notes:
            f.write(json.dumps(n, ensure_ascii=False) + "\n")
    print(f"{len(notes)} notes OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
