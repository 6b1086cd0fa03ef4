#!/usr/bin/env python3
"""Re-run the recipe that produced the shipped default checkpoints ``checkpoints/{prism,gskip}/``.

    python scripts/train_checkpoints.py                 # both, side by side (1 torch thread each)
    python scripts/train_checkpoints.py --arch prism    # one
    python scripts/train_checkpoints.py --sequential -- trainer.max_time=00:01:00:00   # extra Hydra overrides

Each generator is trained with ``clinx-train experiment=checkpoints model=<arch>``
into ``runs/checkpoints/<arch>/``; the exported best generator, its validation
metrics and the resolved config are then copied to ``checkpoints/<arch>/``
(``generator.pt``, ``metrics.json``, ``config_resolved.yaml``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def command(arch: str, run: Path, extra: list[str]) -> list[str]:
    return [sys.executable, "-m", "clinx.restore.cli", "experiment=checkpoints", f"model={arch}",
            f"hydra.run.dir={run}", *extra]


def publish(arch: str, run: Path, dest_root: Path) -> dict:
    """Copy the run's export + resolved config into ``dest_root/<arch>/``; return its best metrics."""
    export = run / "export"
    if not (export / "generator.pt").is_file():
        raise SystemExit(f"{arch}: no exported generator in {export} (did validation run?)")
    dest = dest_root / arch
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(export / "generator.pt", dest / "generator.pt")
    shutil.copy2(export / "metrics.json", dest / "metrics.json")
    shutil.copy2(run / "config_resolved.yaml", dest / "config_resolved.yaml")
    return json.loads((dest / "metrics.json").read_text())["best"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arch", choices=["prism", "gskip"], action="append", help="default: both")
    ap.add_argument("--sequential", action="store_true", help="one after the other (threads=2) instead of side by side")
    ap.add_argument("--runs", type=Path, default=ROOT / "runs" / "checkpoints")
    ap.add_argument("--dest", type=Path, default=ROOT / "checkpoints")
    ap.add_argument("overrides", nargs="*", help="extra Hydra overrides (after --)")
    args = ap.parse_args(argv)
    archs = args.arch or ["prism", "gskip"]
    extra = list(args.overrides) + (["threads=2"] if args.sequential else [])
    runs = {a: args.runs / a for a in archs}
    t0 = time.time()
    if args.sequential:
        for a in archs:
            subprocess.run(command(a, runs[a], extra), cwd=ROOT, check=True)
    else:
        procs = {a: subprocess.Popen(command(a, runs[a], extra), cwd=ROOT) for a in archs}
        failed = [a for a, p in procs.items() if p.wait() != 0]
        if failed:
            raise SystemExit(f"training failed for {failed}")
    for a in archs:
        best = publish(a, runs[a], args.dest)
        print(f"{a}: best epoch {best.get('epoch')} val psnr_mask {best.get('val/psnr_mask'):.2f} dB "
              f"(base fill {best.get('val/psnr_mask_fill'):.2f}) ssim_mask {best.get('val/ssim_mask'):.4f}")
    print(f"done in {(time.time() - t0) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
