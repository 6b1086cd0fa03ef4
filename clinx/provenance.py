"""Where a measured figure came from: the code (git commit), the machine and its load.

Every benchmark (``scripts/bench_*.py``) writes its flat figures through
:func:`write_figures`, which adds ``provenance/*`` keys, so a number in the
README can be traced to the commit and the conditions that produced it. The
JSON files behind README tables live in ``benchmarks/results/`` and
``scripts/report_tables.py`` renders the tables from them.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Mapping

from clinx.atomic import write_text_atomic

__all__ = ["provenance", "write_figures", "REPO_ROOT", "RESULTS_DIR"]

REPO_ROOT = Path(__file__).resolve().parent.parent
#: Committed benchmark outputs behind the README's tables.
RESULTS_DIR = REPO_ROOT / "benchmarks" / "results"


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def provenance(argv: list[str] | None = None) -> dict[str, Any]:
    """Flat ``provenance/*`` figures: git commit (and whether the tree had uncommitted edits), clinx version,
    machine, CPU count, 1/5/15-minute load average, Python and torch versions, UTC time, command line."""
    from clinx import __version__

    status = _git("status", "--porcelain", "--untracked-files=no")
    load = os.getloadavg() if hasattr(os, "getloadavg") else (-1.0, -1.0, -1.0)
    out: dict[str, Any] = {
        "provenance/git_commit": _git("rev-parse", "HEAD") or "unknown",
        "provenance/git_dirty": bool(status) if status is not None else None,
        "provenance/clinx_version": __version__,
        "provenance/machine": f"{platform.system()} {platform.machine()} {platform.processor() or ''}".strip(),
        "provenance/hostname_digest": _host_digest(),
        "provenance/cpu_count": os.cpu_count(),
        "provenance/load_avg_1m": round(load[0], 2),
        "provenance/load_avg_5m": round(load[1], 2),
        "provenance/load_avg_15m": round(load[2], 2),
        "provenance/python": platform.python_version(),
        "provenance/utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "provenance/argv": " ".join(argv if argv is not None else sys.argv),
    }
    torch = sys.modules.get("torch")  # only when the benchmark loaded it (never imported here)
    if torch is not None:
        out["provenance/torch"] = torch.__version__
        out["provenance/torch_threads"] = torch.get_num_threads()
        out["provenance/cuda"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    return out


def _host_digest() -> str:
    """A short digest of the host name: tells runs on different machines apart without naming the host."""
    import hashlib

    return hashlib.sha256(platform.node().encode()).hexdigest()[:8]


def write_figures(path: str | os.PathLike, figures: Mapping[str, Any], *, start: Mapping[str, Any] | None = None,
                  **extra: Any) -> Path:
    """Write ``figures`` (flat ``name -> value``) plus :func:`provenance` and ``extra`` keys as sorted JSON, atomically.

    ``start`` is :func:`provenance` taken when the benchmark began: the code
    that ran is the commit (and edits) of the start, not of the end (a long
    run can outlive a commit); the load average is the end's (the run's).
    Values JSON cannot hold become text.
    """
    prov = provenance()
    if start is not None:
        for key in ("provenance/git_commit", "provenance/git_dirty", "provenance/argv"):
            prov[key] = start.get(key, prov[key])
        prov["provenance/utc_start"] = start.get("provenance/utc")
    doc = {**dict(figures), **extra, **prov}
    return write_text_atomic(Path(path), json.dumps(doc, indent=2, sort_keys=True, default=str))
