"""``clinx <command> [hydra overrides...]`` — one entry point for every app.

Each command is also its own console script (``clinx-build``, ``clinx-eval``…);
this dispatcher only strips the command word and hands the rest to Hydra.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS: dict[str, tuple[str, str, str]] = {
    "build": ("clinx.data.cli", "main", "build the PHI-injected benchmark from the built-in data"),
    "sanitize": ("clinx.sanitize.cli", "main", "sanitize a dataset or a folder of images / DICOM with a condition"),
    "release": ("clinx.release.cli", "main", "release a DICOM archive / image folder: pixels, headers and text de-identified and verified"),
    "leakage": ("clinx.metrics.cli", "main", "attack sanitized images with OCR engines and report PHI leakage"),
    "train": ("clinx.restore.cli", "main", "train a restoration generator (model=prism | gskip)"),
    "text": ("clinx.text.cli", "main", "de-identify text (JSONL / CSV column / folder) at a level L0-L3"),
    "eval": ("clinx.eval.cli", "main", "run the privacy-utility grid (conditions x text levels x data x models)"),
    "audit": ("clinx.audit.cli", "main", "membership-disclosure audit of synthetic / rewritten text"),
    "rag": ("clinx.rag.cli", "main", "privacy-preserving retrieval: ingest, query, extraction attacks"),
    "demo": ("clinx.eval.demo", "main", "the whole pipeline on the built-in data, end to end"),
}


def usage() -> str:
    lines = ["usage: clinx <command> [key=value ...]", "", "commands:"]
    lines += [f"  {name:<9} {help_}" for name, (_, _, help_) in COMMANDS.items()]
    lines += ["", "Any config value can be overridden on the command line, e.g.", "  clinx sanitize condition=ocr input_dir=scans/ output_dir=clean/"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(usage())
        return 0
    cmd = argv[0]
    if cmd not in COMMANDS:
        print(f"clinx: unknown command {cmd!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module, attr, _ = COMMANDS[cmd]
    fn = getattr(importlib.import_module(module), attr)
    # Hydra reads sys.argv: present the remaining arguments as if the sub-app was called directly.
    sys.argv = [f"clinx {cmd}"] + argv[1:]
    result = fn()
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
