"""Atomic file writes: a reader sees the old file or the new one, never half of one.

Every writer here puts the data in a temporary file *in the destination
folder* (so the final rename never crosses file systems, which would turn it
into a non-atomic copy), flushes and fsyncs it (so a crash right after the
rename cannot leave an empty file behind), then moves it into place with
:func:`os.replace`. On any failure the temporary file is removed and the
destination is left as it was.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import BinaryIO, Callable

__all__ = ["atomic_write", "write_bytes_atomic", "write_text_atomic"]


def atomic_write(path: str | os.PathLike, write: Callable[[BinaryIO], None], *, mode: int | None = None) -> Path:
    """Call ``write(binary_file)`` on a temp file beside ``path``, then ``os.replace`` it in.

    Parent folders are created. ``mode`` (e.g. ``0o600``) is set on the temp
    file before any byte is written, so private data is never readable by
    others, not even for a moment. Returns ``path`` as a :class:`Path`.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A dot prefix keeps the half-written file out of ``*.json``-style globs.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fp:
            write(fp)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def write_bytes_atomic(path: str | os.PathLike, data: bytes, *, mode: int | None = None) -> Path:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_write`)."""
    return atomic_write(path, lambda fp: fp.write(data), mode=mode)


def write_text_atomic(path: str | os.PathLike, text: str, *, encoding: str = "utf-8", mode: int | None = None) -> Path:
    """Write ``text`` to ``path`` atomically, encoded as ``encoding`` (no newline translation)."""
    return write_bytes_atomic(path, text.encode(encoding), mode=mode)
