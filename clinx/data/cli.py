"""``clinx build`` / ``clinx-build``: write a PHI-injected benchmark to disk.

    clinx build                                        # 300 test samples, 512², built-in data
    clinx build split=all n=100 size=224 out_dir=bench/
    clinx build data=vqa_rad data.root=/data/VQA_RAD split=test n=500
    clinx build split=native n=200                     # held-out scans at native size, custodian manifests

Resumable: samples already in ``out_dir`` are skipped. The resolved config is
written into the Hydra run folder and beside the benchmark. The summary names
counts per split / modality / answer type — never a PHI value.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

log = logging.getLogger("clinx.build")


def _splits(value) -> list[str]:
    from clinx.data.builtin import SPLITS

    if isinstance(value, str):
        names = list(SPLITS) if value == "all" else [v.strip() for v in value.split(",") if v.strip()]
    else:
        names = [str(v) for v in value]
    if not names:
        raise ValueError("split must name at least one split")
    return names


def _iter_items(cfg, split: str, n: int):
    """Yield ``(sample_id, build())`` for one split; ``build`` is deferred so finished samples cost nothing."""
    from clinx.data.benchmark import BaseSpec, build_sample, inject_sample, injected_id, sample_id

    data = cfg.data
    if split == "native":  # clinx.data.native: its own bases and manifests, whatever the data config
        from clinx.data.native import build_native_item, native_id

        share = float(cfg.get("native_phantom_share", 0.5))
        for i in range(n):
            yield native_id(cfg.seed, i), (lambda i=i: build_native_item(i, cfg.seed, share))
        return
    if data.get("fmt", "builtin") == "builtin":
        spec = BaseSpec(phantom_share=float(data.get("phantom_share", 0.3)), strict=bool(data.get("strict", False)))
        for i in range(n):
            yield sample_id(split, cfg.seed, i), (lambda i=i: build_sample(split, i, cfg.seed, cfg.size, spec))
        return
    from hydra.utils import instantiate

    reader = instantiate(data)  # a partial: reader(split=..., limit=...)
    stream = reader(split=split, limit=n)
    for i, sample in enumerate(stream):
        yield injected_id(sample.id, split, cfg.seed, i), (lambda s=sample, i=i: inject_sample(s, split, i, cfg.seed, cfg.size))
    for err in getattr(stream, "errors", []) or []:
        yield "reader-error", err


def run(cfg) -> dict:
    """Build and save the benchmark described by ``cfg``; return the summary dict."""
    from tqdm import tqdm

    from clinx.config import run_dir, save_resolved
    from clinx.data.benchmark import is_saved, save_sample, summarize, write_index
    from clinx.data.native import NativeItem, save_native_item
    from clinx.errors import ItemError

    out = Path(cfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    n = int(cfg.n)
    built = skipped = 0
    errors: list[dict] = []
    ids: list[str] = []
    for split in _splits(cfg.split):
        bar = tqdm(_iter_items(cfg, split, n), total=n, desc=f"build {split}", unit="sample",
                   disable=not cfg.get("progress", True))
        for sid, make in bar:
            if sid == "reader-error":  # a per-item problem the reader collected
                errors.append({"item": str(getattr(make, "item", "?")), "problem": str(getattr(make, "problem", make))})
                continue
            if sid is not None and is_saved(out, sid):
                skipped += 1
                ids.append(sid)
                continue
            try:
                sample = make()
            except ItemError as e:
                errors.append({"item": e.item, "problem": e.problem})
                continue
            except Exception as e:  # fail closed per item: name it, keep going
                errors.append({"item": sid or "?", "problem": f"{type(e).__name__}"})
                continue
            ids.append(sample.id)
            saver = save_native_item if isinstance(sample, NativeItem) else save_sample
            if saver(sample, out):
                built += 1
            else:
                skipped += 1
    write_index(out)

    records = []
    for sid in ids:
        p = out / "records" / f"{sid}.json"
        if p.is_file():
            records.append(json.loads(p.read_text(encoding="utf-8")))
    summary = {"out_dir": str(out), "built": built, "skipped": skipped, "errors": errors, **summarize(records)}
    save_resolved(cfg)
    save_resolved(cfg, out)
    (Path(run_dir()) / "build_summary.json").write_text(json.dumps(summary, indent=1))
    _print_summary(summary)
    return summary


def _print_summary(s: dict) -> None:
    print(f"benchmark: {s['out_dir']}  (built {s['built']}, already there {s['skipped']}, errors {len(s['errors'])})")
    for key in ("split", "modality", "answer_type"):
        parts = ", ".join(f"{k}: {v}" for k, v in s[key].items())
        print(f"  per {key:<11} {parts}")
    for e in s["errors"][:20]:
        print(f"  error {e['item']}: {e['problem']}")


def main() -> int:
    """Console entry point (``clinx-build`` and ``clinx build``)."""
    from clinx.config import hydra_app

    result: dict = {}

    @hydra_app("build")
    def _app(cfg) -> None:
        result.update(run(cfg))

    _app()
    return 1 if result.get("errors") and not (result.get("built") or result.get("skipped")) else 0


if __name__ == "__main__":
    raise SystemExit(main())
