#!/usr/bin/env python
"""Paired L2 recall and precision of two commits on one annotated notes file, with a note-bootstrap SE.

    python scripts/compare_commits_on_notes.py --notes NOTES.jsonl --base eae79ed [--head HEAD] [--ids t,r] [--head-ner crf+minilm]
        [--format wrap60|crlf|nbsp] --out FILE.json

How a blind batch is measured without reading it: each commit scores every note (span counts only, no text
leaves the scorer), and the difference is resampled by note, since the spans of one note share one writer.
``--head`` defaults to the working tree. Each commit is exported with ``git archive`` into a temporary folder
and scored in its own interpreter, so the two code versions never share an import. ``--format`` scores the notes as
another system would store them (:data:`FORMATS`: hard-wrapped at 60 characters, Windows line ends, no-break
spaces), the gold spans moved with the text; both commits read the same rewritten file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_SCORER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from clinx.text.notes_eval import load_dev_notes, removed_mask, score_notes
from clinx.text.pipeline import TextPipeline
pipe = TextPipeline("L2", l2={"ner": sys.argv[4]}) if sys.argv[4] else TextPipeline("L2")
out = {}
prefixes = tuple(p for p in sys.argv[3].split(",") if p)
for n in load_dev_notes(path=sys.argv[2]):
    if prefixes and not n.id.startswith(prefixes):
        continue
    s = score_notes([n], [removed_mask(n.text, pipe.run(n.text))], term_finder=lambda t: [])
    out[n.id] = [s.caught, s.gold, s.removed_in_phi, s.removed]
print(json.dumps(out))
"""


def score_tree(root: Path, notes: Path, ids: str = "", ner: str = "") -> dict[str, list[int]]:
    """Per note (those whose id starts with one of the comma-separated ``ids``, or all): [spans caught, gold spans,
    removed characters inside PHI, removed characters], scored by ``root``'s code (``ner``: its ``text.l2.ner``,
    default the shipped one)."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    res = subprocess.run([sys.executable, "-c", _SCORER, str(root), str(notes), ids, ner], capture_output=True, text=True, check=True, env=env)
    return json.loads(res.stdout)


def export(commit: str, dest: Path) -> Path:
    """``commit``'s tree under ``dest`` (git archive | tar -x)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def paired(a: dict, b: dict, num: int, den: int, draws: int = 1000, seed: int = 0) -> dict:
    """Ratio sum(num)/sum(den) under ``a`` and ``b`` and their paired difference with a note-bootstrap SE."""
    ids = sorted(a)
    rng = random.Random(seed)

    def ratio(d, sample):
        d_ = sum(d[k][den] for k in sample)
        return sum(d[k][num] for k in sample) / d_ if d_ else 0.0

    diffs = []
    for _ in range(draws):
        sample = [rng.choice(ids) for _ in ids]
        diffs.append(ratio(b, sample) - ratio(a, sample))
    mean = sum(diffs) / len(diffs)
    se = (sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1)) ** 0.5
    return {"base": round(ratio(a, ids), 4), "head": round(ratio(b, ids), 4), "diff": round(ratio(b, ids) - ratio(a, ids), 4), "se": round(se, 4)}


#: Stored formats a note may arrive in (--format), built by this checkout's clinx.text.notes_eval.
FORMATS = ("as_written", "wrap60", "crlf", "nbsp")


def write_format(notes: Path, fmt: str, dest: Path) -> Path:
    """``notes`` rewritten in the stored format ``fmt`` (see :data:`FORMATS`) as a notes file at ``dest``."""
    sys.path.insert(0, str(REPO))
    from clinx.text.notes_eval import Note, hard_wrapped, load_dev_notes, with_crlf

    def nbsp(n: Note) -> Note:
        return Note(n.id, n.text.replace(" ", "\xa0"), n.spans, n.split, n.style, n.source)

    change = {"wrap60": lambda n: hard_wrapped(n, 60), "crlf": with_crlf, "nbsp": nbsp}[fmt]
    with dest.open("w", encoding="utf-8") as f:
        for n in map(change, load_dev_notes(path=notes)):
            f.write(json.dumps({"id": n.id, "split": n.split, "style": n.style, "text": n.text, "spans": [list(x) for x in n.spans]}) + "\n")
    return dest


def _rev(ref: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", ref], capture_output=True, text=True, check=True).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", required=True, type=Path)
    ap.add_argument("--base", required=True, help="commit to compare from")
    ap.add_argument("--head", default=None, help="commit to compare to (default: the working tree)")
    ap.add_argument("--ids", default="", help="only notes whose id starts with one of these comma-separated prefixes")
    ap.add_argument("--head-ner", default="", help="the head's text.l2.ner (e.g. crf+minilm); default: the shipped one")
    ap.add_argument("--format", choices=FORMATS, default="as_written", help="score the notes stored so (default: as written)")
    ap.add_argument("--out", required=True, type=Path)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        notes = args.notes.resolve() if args.format == "as_written" else write_format(args.notes.resolve(), args.format, Path(tmp, "notes.jsonl"))
        Path(tmp, "base").mkdir()
        base = score_tree(export(args.base, Path(tmp, "base")), notes, args.ids)
        if args.head:
            Path(tmp, "head").mkdir()
            head = score_tree(export(args.head, Path(tmp, "head")), notes, args.ids, args.head_ner)
        else:
            head = score_tree(REPO, notes, args.ids, args.head_ner)
    result = {
        "notes": str(args.notes), "format": args.format, "ids": args.ids or "all", "n_notes": len(base),
        "n_spans": sum(v[1] for v in base.values()),
        "base": _rev(args.base), "head": _rev(args.head) if args.head else "working tree", "head_ner": args.head_ner or "shipped",
        "recall": paired(base, head, 0, 1), "precision": paired(base, head, 2, 3),
        "per_note": {"base": base, "head": head},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"{result['n_notes']} notes, {result['n_spans']} spans: recall {result['recall']}, precision {result['precision']}")


if __name__ == "__main__":
    main()
