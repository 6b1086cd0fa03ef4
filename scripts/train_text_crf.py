#!/usr/bin/env python
"""Train the CRF tagger of L2 (``text.l2.ner=crf``) on clinx's annotated development and tune notes.

    python scripts/train_text_crf.py [--lower | --upper] [--out clinx/text/data/crf_l2.crfsuite] [--exclude tune_notes_2026-12-02d]

Reads the development notes (split ``tune``; the held-out split is left out) and every
``benchmarks/data/tune_notes_*.jsonl``; never the blind notes, which measure the model. Writes the model
and, beside it, a JSON card (``<out>.json``): the files and note counts it learned from, the parameters,
the commit and the model's digest. Deterministic: the same data and parameters give the same file.
``--exclude`` leaves out the files whose name contains the given text (a cross-validation fold). ``--lower``
trains the model L2 runs on lines in lower case: the same notes, each in lower case; ``--upper`` the one for lines in
capitals, each note in capitals.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from clinx.text.crf import lower_model_path, model_path, train, training_notes, upper_model_path, write_training_card  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="model file to write (default: the shipped model, or with --lower the shipped lower-case one)")
    ap.add_argument("--exclude", action="append", default=[], help="leave out training files whose name contains this")
    ap.add_argument("--add", action="append", default=[], help="another annotated notes file (JSON lines) to learn from")
    ap.add_argument("--negatives", choices=("iu-even", "none"), default="iu-even",
                    help="PHI-free text to learn from too: the Indiana University reports with an even index (the odd ones measure it)")
    ap.add_argument("--lower", action="store_true",
                    help="learn every note in lower case: the model for lines in lower case (default --out: the shipped one)")
    ap.add_argument("--upper", action="store_true",
                    help="learn every note in capitals: the model for lines in capitals (default --out: the shipped one)")
    args = ap.parse_args(argv)
    if args.lower and args.upper:
        ap.error("--lower and --upper build different models: give one")
    args.out = args.out or str(lower_model_path() if args.lower else upper_model_path() if args.upper else model_path())
    notes, used = training_notes(REPO, exclude=args.exclude, add=args.add)
    t0 = time.time()
    negatives = []
    if args.negatives == "iu-even":
        from clinx.text.reports import load_reports

        negatives = [r.text for r in load_reports()[::2]]
    card = train(notes, args.out, negatives=negatives, lower=args.lower, upper=args.upper)
    card = write_training_card(REPO, args.out, used, card, time.time() - t0)
    print(f"{card['notes']} notes, {card['spans']} spans -> {args.out} ({card['sha256_12']}) in {card['train_s']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
