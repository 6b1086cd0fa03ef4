"""What the Hydra command-line apps share: the entry point wrapper and the run summary.

Every app (``clinx sanitize``, ``clinx leakage``, ``clinx text`` …) is a
``run(cfg)`` function plus the same tail: save the resolved config, turn a
:class:`~clinx.errors.ClinxError` (an unusable setup) into a one-line message
and exit code 2, and at the end write ``summary.json`` and print the table.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
from pathlib import Path
from typing import Any, Callable

from clinx.atomic import write_text_atomic
from clinx.config import hydra_app, save_resolved
from clinx.errors import ClinxError

__all__ = ["hydra_main", "write_summary", "finish_run"]


def hydra_main(
    app: str,
    run: Callable[[Any], Any],
    log: logging.Logger,
    *,
    save_config: bool = True,
) -> Callable[[], int]:
    """The console entry point ``main() -> int`` of the Hydra app ``configs/<app>.yaml``.

    ``main`` composes the config from the command line, saves the resolved
    config into the run folder (unless ``save_config`` is off), calls
    ``run(cfg)`` and returns 0. A :class:`ClinxError` is logged and printed as
    ``clinx <app>: <message>`` on stderr, and the process exits with code 2.
    """

    # Hydra names the job (and so the run folder ``runs/<job name>/…``) after
    # the task function's module or file, unwrapping ``__wrapped__`` first:
    # ``wraps(run)`` makes that the app's own ``cli`` module, not this one.
    @functools.wraps(run)
    def _app(cfg) -> None:
        if save_config:
            save_resolved(cfg)
        try:
            run(cfg)
        except ClinxError as exc:
            log.error("%s", exc)
            print(f"clinx {app}: {exc}", file=sys.stderr)
            sys.exit(2)

    _app = hydra_app(app)(_app)

    def main() -> int:
        _app()
        return 0

    main.__doc__ = f"Console entry point (``clinx-{app}``, ``clinx {app}``)."
    main.__module__ = run.__module__
    return main


def write_summary(out: dict, folder: str | Path, name: str = "summary.json") -> Path:
    """Write a run summary as indented JSON, atomically (values JSON cannot hold become text)."""
    return write_text_atomic(Path(folder) / name, json.dumps(out, indent=2, default=str))


def finish_run(out: dict, folder: str | Path, table: str, note: str | None = None) -> dict:
    """Write ``out`` to ``<folder>/summary.json``, print ``table`` and then ``note`` (if any); returns ``out``."""
    write_summary(out, folder)
    print(table)
    if note:
        print(note)
    return out
