"""Checks every file reader and writer shares: safe item labels, file and size guards, never writing over an input.

:mod:`clinx.data.images` and :mod:`clinx.data.dicom` both use these (before,
each imported the other's private helpers). Errors are
:class:`~clinx.errors.InputError` / :class:`~clinx.errors.ItemError` naming
the caller's item label and a problem a user can act on — never a path, a
file name the caller did not choose as label, or file content.
"""

from __future__ import annotations

import os
from pathlib import Path

from clinx.atomic import atomic_write
from clinx.errors import InputError, ItemError

__all__ = [
    "DEFAULT_MAX_PIXELS",
    "DEFAULT_MIN_SIDE",
    "atomic_write",
    "check_file",
    "check_size",
    "ensure_not_input",
    "file_digest",
    "item_label",
]

#: Largest image (width × height) accepted by default: 50 megapixels.
DEFAULT_MAX_PIXELS = 50_000_000
#: Smallest accepted side in pixels; a 1×1 "image" is a broken export, not data.
DEFAULT_MIN_SIDE = 8


def item_label(path: str | os.PathLike, item: str | None) -> str:
    """The label errors use: the caller's ``item`` label, else the bare file name.

    Batch code always passes its own label (an opaque id or a relative path,
    per the user's logging policy); the file-name fallback is for one-off
    calls where the caller named the file itself.
    """
    return str(item) if item is not None else Path(path).name


def check_file(path: Path, item: str) -> None:
    """Raise :class:`InputError` for a missing, non-regular or empty file."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError(item, "file not found") from None
    except OSError as exc:  # permission denied, broken link, name too long…
        raise InputError(item, f"file cannot be accessed ({type(exc).__name__})") from None
    if not path.is_file():
        raise InputError(item, "not a regular file")
    if st.st_size == 0:
        raise InputError(item, "file is empty (0 bytes)")


def check_size(width: int, height: int, item: str, max_pixels: int, min_side: int) -> None:
    """Raise :class:`InputError` for an image below ``min_side`` or above ``max_pixels`` (checked before decoding)."""
    if min(width, height) < min_side:
        raise InputError(item, f"image is too small ({width}x{height} pixels; minimum side is {min_side})")
    if width * height > max_pixels:
        raise InputError(
            item,
            f"image is too large ({width}x{height} = {width * height} pixels; limit is {max_pixels}); "
            "refused before decoding as a possible decompression bomb",
        )


def ensure_not_input(out_path: str | os.PathLike, in_path: str | os.PathLike | None, *, item: str | None = None) -> None:
    """Raise :class:`~clinx.errors.ItemError` if ``out_path`` is the file ``in_path``.

    Compares resolved paths and, when both exist, file identity (so a hard
    link or a differently spelled path to the input is caught too). ``item``
    labels the error (default: the output's file name).
    """
    if in_path is None:
        return
    out_p, in_p = Path(out_path), Path(in_path)
    same = False
    try:
        same = out_p.resolve() == in_p.resolve()
        if not same and out_p.exists() and in_p.exists():
            same = os.path.samefile(out_p, in_p)
    except OSError:
        same = False
    if same:
        raise ItemError(item_label(out_p, item), "output path is the input file; refusing to overwrite an input", stage="write")


def file_digest(path: str | os.PathLike, chunk: int = 1 << 20) -> str:
    """sha256 (hex) of a file's bytes, read in chunks (resume keys, manifest identity, output checks)."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as fp:
        while True:
            b = fp.read(chunk)
            if not b:
                break
            h.update(b)
    return h.hexdigest()
