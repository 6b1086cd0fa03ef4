"""Unicode evasion: recall of L1/L2 on identifiers hidden with homoglyphs, zero-width and full-width forms, and what folding costs.

    python scripts/bench_evasion.py --out benchmarks/results/bench_evasion.json [--quick]

Figures (flat, see :func:`clinx.text.evasion.evasion_recall`):

* ``recall/evasion/<L>`` over the seeded evasion set (6 categories × 4
  evasions × n identifiers, 600 by default), per evasion and per category;
  ``recall/plain/<L>`` on the same identifiers written plainly;
  ``recall/evasion/<L>/vs_plain`` — of those caught plainly, the share still
  caught when evaded (the cost of Unicode alone; target 1.000);
* ``recall/evasion_unfolded/<L>`` — the same levels run on the text as
  given, without :func:`clinx.text.unicode.fold` (what the pipeline did
  before folding);
* ``throughput/<L>/questions_per_s`` and ``throughput/<L>/notes_per_s``
  (~1 KB notes) on one core with folding on, ``..._nofold`` without it (ASCII
  text takes the fast path, so the two should match), and
  ``..._unicode_questions_per_s`` on evaded questions (the slow path).
  Best of ``repeats`` timed passes, CPU time of this process.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clinx.provenance import write_figures  # noqa: E402
from clinx.text.evasion import build_evasion_set, evasion_recall  # noqa: E402
from clinx.text.pipeline import TextPipeline  # noqa: E402

_CLINICAL = (
    "The cardiac silhouette is within normal limits. No focal consolidation, pleural effusion or pneumothorax.",
    "Mild degenerative changes of the thoracic spine. Lungs are clear bilaterally.",
    "There is a small left basilar opacity which may represent atelectasis or early pneumonia.",
    "Compared with the prior study there is interval improvement of the right upper lobe infiltrate.",
    "Endotracheal tube terminates 4 cm above the carina. Nasogastric tube courses below the diaphragm.",
    "No acute osseous abnormality. Surgical clips project over the right upper quadrant.",
)


class _Unfolded:
    """The pipeline's levels applied to the text as given (no Unicode folding): the behaviour before folding."""

    def __init__(self, pipe: TextPipeline):
        self.pipe = pipe
        self.level = pipe.level

    def run(self, text: str):
        cur = text
        for lvl in self.pipe.levels:
            cur = lvl.apply(cur, None).text
        return type("R", (), {"text": cur})()


def _questions(n: int, seed: int) -> list[str]:
    """Short ASCII questions: the plain evasion set (one identifier each) and clean clinical questions."""
    plain = [it.text for it in build_evasion_set(max(1, n // 12), seed, evasions=("plain",))]
    clean = ["Is the left lung clear?", "Is there a pleural effusion?", "What organ is shown?", "Is the heart enlarged?"]
    rng = random.Random(seed)
    out = (plain + clean * (len(plain) // len(clean) + 1))[: max(n, len(plain))]
    rng.shuffle(out)
    return out[:n]


def _notes(n: int, seed: int) -> list[str]:
    """~1 KB ASCII notes: clinical sentences with two identifiers from the plain set."""
    rng = random.Random(seed)
    ids = [it.text for it in build_evasion_set(max(1, n // 6), seed + 1, evasions=("plain",))]
    notes = []
    for i in range(n):
        parts = [ids[i % len(ids)]]
        while sum(len(p) for p in parts) < 900:
            parts.append(rng.choice(_CLINICAL))
        parts.append(ids[(i * 7 + 3) % len(ids)])
        notes.append(" ".join(parts))
    return notes


def _per_s(run, texts: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for t in texts:
            run(t)
        best = min(best, time.process_time() - t0)
    return len(texts) / best if best > 0 else float("inf")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sets (smoke run)")
    ap.add_argument("--out", required=True, help="JSON file for the figures")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-per-cell", type=int, default=None, help="identifiers per (category, evasion); 25 gives 600")
    args = ap.parse_args(argv)

    n_cell = args.n_per_cell or (25 if not args.quick else 21)
    nq, nn, repeats = (2000, 200, 2) if args.quick else (5000, 500, 3)
    figures: dict = {"config/seed": args.seed, "config/quick": bool(args.quick), "config/n_per_cell": n_cell}
    t0 = time.time()
    for level in ("L1", "L2"):
        pipe = TextPipeline(level)
        figures.update(evasion_recall(level, n_per_cell=n_cell, seed=args.seed, pipeline=pipe))
        unf = evasion_recall(level, n_per_cell=n_cell, seed=args.seed, pipeline=_Unfolded(pipe))
        figures[f"recall/evasion_unfolded/{level}"] = unf[f"recall/evasion/{level}"]
    pipe = TextPipeline("L2")
    nofold = _Unfolded(pipe)
    qs, notes = _questions(nq, args.seed), _notes(nn, args.seed)
    uq = [it.text for it in build_evasion_set(max(1, nq // 24), args.seed + 2)][:nq]
    figures["throughput/L2/questions_per_s"] = round(_per_s(pipe.run, qs, repeats), 1)
    figures["throughput/L2/questions_per_s_nofold"] = round(_per_s(nofold.run, qs, repeats), 1)
    figures["throughput/L2/notes_per_s"] = round(_per_s(pipe.run, notes, repeats), 1)
    figures["throughput/L2/notes_per_s_nofold"] = round(_per_s(nofold.run, notes, repeats), 1)
    figures["throughput/L2/unicode_questions_per_s"] = round(_per_s(pipe.run, uq, repeats), 1)
    figures["throughput/n_questions"] = len(qs)
    figures["throughput/n_notes"] = len(notes)
    figures["throughput/mean_note_chars"] = round(sum(map(len, notes)) / len(notes))
    figures["config/wall_s"] = round(time.time() - t0, 1)

    for k in sorted(figures):
        v = figures[k]
        print(f"{k:<44}{v:.4f}" if isinstance(v, float) and k.startswith("recall") else f"{k:<44}{v}")
    out = write_figures(args.out, figures)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
