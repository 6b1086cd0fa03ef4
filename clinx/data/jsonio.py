"""Strict JSON / JSONL reading with errors that point at the place, never at the content.

Dataset files are user input: they can be truncated, saved in a legacy
encoding, or hand-edited. These helpers turn every such failure into an
:class:`~clinx.errors.InputError` that names the file and the line/column or
byte offset — and never quotes the offending text, which may contain PHI.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

from clinx.errors import InputError

__all__ = ["read_json", "iter_jsonl", "parse_json_text"]

_BOM = b"\xef\xbb\xbf"


def _decode_utf8(data: bytes, item: str, where: str = "") -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(item, f"{where}not valid UTF-8 (invalid byte at offset {exc.start})") from None


def parse_json_text(text: str, item: str, where: str = "") -> Any:
    """``json.loads`` with an :class:`InputError` giving line/column of a syntax error.

    ``where`` prefixes the problem (e.g. ``"line 7: "``). ``json``'s own
    messages (``"Expecting ',' delimiter"``) are fixed phrases and safe to
    show; the document itself is not shown.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(item, f"{where}malformed JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})") from None
    except RecursionError:
        raise InputError(item, f"{where}JSON is nested too deeply") from None


def read_json(path: str | os.PathLike, *, item: str | None = None) -> Any:
    """Read one JSON document from ``path`` (UTF-8, optional BOM).

    Raises :class:`InputError` (``item`` defaults to the file name) when the
    file is missing, empty, not UTF-8, or not valid JSON.
    """
    p = Path(path)
    label = item if item is not None else p.name
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(label, "file not found") from None
    except IsADirectoryError:
        raise InputError(label, "is a folder, not a JSON file") from None
    except OSError as exc:
        raise InputError(label, f"file cannot be read ({type(exc).__name__})") from None
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    if not data.strip():
        raise InputError(label, "file is empty")
    return parse_json_text(_decode_utf8(data, label), label)


def iter_jsonl(path: str | os.PathLike, *, item: str | None = None) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value)`` for each non-blank line of a JSONL file.

    Line numbers are 1-based. A line that is not UTF-8 or not valid JSON
    yields ``(line_number, InputError)`` instead of a value, so the caller can
    record it and go on with the next line; the error's item is
    ``"<file>:<line>"``. A missing or unreadable file raises
    :class:`InputError` at once.
    """
    p = Path(path)
    label = item if item is not None else p.name
    try:
        fp = open(p, "rb")
    except FileNotFoundError:
        raise InputError(label, "file not found") from None
    except OSError as exc:
        raise InputError(label, f"file cannot be read ({type(exc).__name__})") from None
    with fp:
        for lineno, raw in enumerate(fp, start=1):
            if lineno == 1 and raw.startswith(_BOM):
                raw = raw[len(_BOM) :]
            if not raw.strip():
                continue
            where = f"{label}:{lineno}"
            try:
                text = _decode_utf8(raw, where, f"line {lineno}: ")
                value = parse_json_text(text, where, f"line {lineno}: ")
            except InputError as err:
                yield lineno, err
                continue
            yield lineno, value
