#!/usr/bin/env python
"""Train the head of L2's second tagger (``text.l2.ner=crf+minilm``) on clinx's annotated development and tune notes.

    python scripts/train_text_minilm.py [--out clinx/text/data/minilm_head.pt] [--exclude tune_notes_2026-12-04d]

The same notes as the CRF (:func:`clinx.text.crf.training_files`: development notes of split ``tune`` and every
``benchmarks/data/tune_notes_*.jsonl``; never the blind notes). The encoder (all-MiniLM-L6-v2) stays frozen; only
the head is trained. Writes the head and, beside it, a JSON card (``<out>.json``): files, counts, parameters, the
commit and the file's digest. Seeded: the same data, parameters and torch build give the same head. About four
minutes on two cores, most of it reading the notes through the encoder.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from clinx.text.crf import training_notes, write_training_card  # noqa: E402
from clinx.text.minilm_ner import head_path, train  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(head_path()), help="head file to write (default: the shipped head)")
    ap.add_argument("--exclude", action="append", default=[], help="leave out training files whose name contains this")
    args = ap.parse_args(argv)
    notes, used = training_notes(REPO, exclude=args.exclude)
    t0 = time.time()
    card = train(notes, args.out)
    card = write_training_card(REPO, args.out, used, card, time.time() - t0)
    print(f"{card['notes']} notes, {card['spans']} spans, {card['pieces']} pieces -> {args.out} ({card['sha256_12']}) in {card['train_s']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
