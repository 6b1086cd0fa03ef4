#!/usr/bin/env python
"""L2 on every tune note with CRF models that never learnt it: the honest set for tuning L2's use of the tagger.

    python scripts/crf_out_of_fold.py --models DIR [--fold 12-05 ...] [--base COMMIT] --out FILE.json

The shipped CRF learnt every tune note, so on them it is surer than on any note it has not seen, and a gate or a
threshold tuned there is tuned to its memory. This script splits the tune files (``benchmarks/data/tune_notes_*``) into
folds by the text their names contain (``--fold``, repeated; a comma joins several; default: the batches of 2 to 4
December, of the 5th, of the 6th, of the 7th, about 1,200 notes each), trains the three models (mixed, lower-case and
capitals; :mod:`clinx.text.crf`) on the development notes and the other folds into ``DIR/fold<i>/`` (skipped where they
are already there: one fold's three models take some minutes on one core), and runs L2 with each fold's models on the
fold's notes. The held-out split and the blind notes are never read.

``--base`` scores a commit too, with the same fold models, and reports the paired difference (resampled by note, as
:mod:`scripts.compare_commits_on_notes` does). That is only sound when the two commits read a note into the same
features, so the script checks that first (the feature lines of the first notes, digested in each tree) and refuses
otherwise. ``--features-may-differ`` pairs them anyway where a change of the head moved some words' features (a word's
class in the lexicons): the fold models then read the head's notes into features a little unlike those they learnt, a
pairing that leans against the head, and the JSON says so. The JSON holds both trees' per-note counts, the totals, the
folds and the models' digests.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from compare_commits_on_notes import export, paired  # noqa: E402

MODELS = ("crf_l2.crfsuite", "crf_l2_lower.crfsuite", "crf_l2_upper.crfsuite")

_SCORER = r"""
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
import clinx.text.crf as crf
from clinx.text.notes_eval import load_dev_notes, removed_mask, score_notes
from clinx.text.pipeline import TextPipeline
folds = json.loads(sys.argv[2])
out, feats = {}, hashlib.sha256()
for fold in folds:
    pipe = TextPipeline("L2")
    for lvl in pipe.levels:
        if getattr(lvl, "ner", None) is not None:
            d = fold["dir"]
            lvl.ner = crf.CrfNer(model=f"{d}/crf_l2.crfsuite", lower_model=f"{d}/crf_l2_lower.crfsuite",
                                 upper_model=f"{d}/crf_l2_upper.crfsuite")
    for path in fold["files"]:
        for n in load_dev_notes(path=path):
            if n.split == "heldout":
                continue
            if len(out) < 40:
                toks = crf.tokens(n.text)
                feats.update(json.dumps(crf.features(n.text, toks) if toks else []).encode())
            s = score_notes([n], [removed_mask(n.text, pipe.run(n.text))], term_finder=lambda t: [])
            out[n.id] = [s.caught, s.gold, s.removed_in_phi, s.removed]
print(json.dumps({"notes": out, "features_digest": feats.hexdigest()[:16]}))
"""


#: The default folds: the tune batches by the day they were written.
FOLDS = ("2026-12-02,2026-12-03,2026-12-04", "2026-12-05", "2026-12-06", "2026-12-07")


def fold_files(files: list[Path], folds: list[str]) -> list[list[Path]]:
    """``files`` grouped by ``folds`` (each: comma-separated texts a file's name contains); every file in one fold."""
    out = [[f for f in files if any(x in f.name for x in fold.split(","))] for fold in folds]
    placed = [f for group in out for f in group]
    if sorted(placed) != sorted(files):
        missing = sorted({f.name for f in files} - {f.name for f in placed})
        raise SystemExit(f"each tune file must fall in exactly one fold; unplaced or doubled: {missing or 'doubled'}")
    return out


def train_fold(folder: Path, exclude: list[Path]) -> None:
    """The three models of one fold into ``folder``, each learnt without the ``exclude`` files (skipped if there)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, flag in zip(MODELS, ([], ["--lower"], ["--upper"])):
        if (folder / name).is_file():
            continue
        ex = [a for f in exclude for a in ("--exclude", f.name)]
        subprocess.run([sys.executable, str(REPO / "scripts" / "train_text_crf.py"), *flag, "--out", str(folder / name), *ex],
                       check=True, env={**os.environ, "HF_HUB_OFFLINE": "1"})


def score(root: Path, folds: list[dict]) -> dict:
    """Per note [caught, gold, removed in PHI, removed] of ``root``'s L2 with each fold's models, and the features digest."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    res = subprocess.run([sys.executable, "-c", _SCORER, str(root), json.dumps(folds)], capture_output=True, text=True,
                         check=True, env=env)
    return json.loads(res.stdout)


def totals(scores: dict[str, list[int]]) -> dict:
    """Recall and precision of per-note counts."""
    c, g, rin, r = (sum(v[i] for v in scores.values()) for i in range(4))
    return {"notes": len(scores), "recall": round(c / g, 4) if g else 1.0, "precision": round(rin / r, 4) if r else 1.0,
            "caught": c, "gold": g}


def feature_mismatch(base: dict, head: dict, allowed: bool) -> str | None:
    """None where the two trees' scores read notes into the same features; otherwise the note the report carries where
    ``allowed`` (see the module docstring), or SystemExit."""
    if base["features_digest"] == head["features_digest"]:
        return None
    if not allowed:
        raise SystemExit("the two trees read notes into different features: fold models trained by one do not fit the other "
                         "(--features-may-differ pairs them anyway)")
    return (f"features differ (base {base['features_digest']}, head {head['features_digest']}): the fold models read the "
            "head's notes into features a little unlike those they learnt, a pairing that leans against the head")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", required=True, help="folder of the fold models (trained there where missing)")
    ap.add_argument("--fold", action="append", help="texts (comma-separated) naming one fold's tune files; repeat per fold")
    ap.add_argument("--base", help="a commit to score with the same fold models, paired with the working tree")
    ap.add_argument("--features-may-differ", action="store_true",
                    help="pair --base and the working tree though their features differ (noted in the JSON)")
    ap.add_argument("--out", required=True, help="JSON file to write")
    args = ap.parse_args(argv)
    files = sorted((REPO / "benchmarks" / "data").glob("tune_notes_*.jsonl"))
    folds = []
    for i, block in enumerate(fold_files(files, args.fold or list(FOLDS))):
        folder = Path(args.models).resolve() / f"fold{i}"
        train_fold(folder, block)
        cards = [json.loads(Path(f"{folder / m}.json").read_text()) for m in MODELS]
        learnt = sorted({u["file"] for c in cards for u in c["trained_on"]})
        if any(Path(f).name == b.name for f in learnt for b in block):
            raise SystemExit(f"the models in {folder} learnt a file of their own fold: delete them to retrain")
        folds.append({"dir": str(folder), "files": [str(f) for f in block], "trained_on": learnt,
                      "models": {m: hashlib.sha256((folder / m).read_bytes()).hexdigest()[:12] for m in MODELS}})
    head = score(REPO, folds)
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    report = {"head": f"{commit} (working tree)", "folds": [{**f, "files": [Path(p).name for p in f["files"]]} for f in folds],
              "head_totals": totals(head["notes"])}
    if args.base:
        with tempfile.TemporaryDirectory() as tmp:
            base = score(export(args.base, Path(tmp)), folds)
        note = feature_mismatch(base, head, args.features_may_differ)
        if note:
            report["features_note"] = note
        report.update(base=args.base, base_totals=totals(base["notes"]), paired={"recall": paired(base["notes"], head["notes"], 0, 1), "precision": paired(base["notes"], head["notes"], 2, 3)},
                      base_notes=base["notes"])
    report["head_notes"] = head["notes"]
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k.endswith("totals") or k == "paired"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
