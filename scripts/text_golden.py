#!/usr/bin/env python
"""Golden outputs of the text levels, to prove a speed change leaves every output as it was.

    python scripts/text_golden.py OUT.json            # on one commit
    python scripts/text_golden.py OUT2.json           # on another
    cmp OUT.json OUT2.json                            # byte-identical, or the change altered an output

Runs L1 and L2 (``keep_values=True``: removed values and offsets, not only the text)
over every annotated development note, the benchmark questions ``scripts/bench_text.py``
uses (PHI-injected with and without their manifest, clean, and with out-of-gazetteer
names) and the IU reports, plus ``rescan`` and L2 with ``years: keep`` on a subset.
The inputs are built in a fixed order in one process: some lexicon classes are
memoised on first use, so the order is part of what is compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import bench_text as B  # noqa: E402
from clinx.text.notes_eval import load_dev_notes  # noqa: E402
from clinx.text.pipeline import TextPipeline, rescan  # noqa: E402


def _row(r) -> list:
    return [r.text, [(s.category, s.level, s.start, s.end, s.source, s.value) for s in r.removed]]


def golden(n_questions: int = 1000, n_reports: int = 500, seed: int = 0) -> dict:
    """Outputs by ``<level>/<set>``: per input, [text, removed spans] (twice when a manifest exists)."""
    q = B.question_items(n_questions, seed)
    sets = {
        "notes": [(n.text, None) for n in load_dev_notes()],
        "q": [(it.text, it.manifest) for it in q],
        "qclean": [(it.clean, None) for it in q],
        "qood": [(it.text, it.manifest) for it in B.ood_name_items(q, seed)],
        "iu": [(it.text, it.manifest) for it in B.iu_items(n_reports, seed)],
    }
    out: dict = {}
    for level in ("L1", "L2"):
        pipe = TextPipeline(level, keep_values=True)
        for name, items in sets.items():
            rows = []
            for text, man in items:
                rows.append(_row(pipe.run(text, None)))
                if man is not None:
                    rows.append(_row(pipe.run(text, man)))
            out[f"{level}/{name}"] = rows
    for name in ("notes", "q"):
        out[f"rescan/{name}"] = [[(s.category, s.start, s.end, s.source) for s in rescan(t, m)] for t, m in sets[name][:300]]
    keep = TextPipeline("L2", keep_values=True, l1={"years": "keep"})
    out["L2keep/notes"] = [[keep.run(t).text] for t, _ in sets["notes"]]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="JSON file for the outputs")
    ap.add_argument("--n-questions", type=int, default=1000)
    ap.add_argument("--n-reports", type=int, default=500)
    args = ap.parse_args(argv)
    blob = json.dumps(golden(args.n_questions, args.n_reports), sort_keys=True, ensure_ascii=False)
    Path(args.out).write_text(blob, encoding="utf-8")
    print(f"wrote {args.out}: sha256 {hashlib.sha256(blob.encode()).hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
