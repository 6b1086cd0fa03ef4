"""Recover a strict JSON value from what an LLM actually says.

Models wrap JSON in ``<think>…</think>`` reasoning, Markdown code fences,
chatty preambles ("Sure! Here is…") and trailing explanations, and small
models add trailing commas. :func:`parse_json` strips those, takes the first
*balanced* JSON object or array (string-aware, so braces inside strings do not
confuse it) and parses it with :mod:`json`. Anything else raises
:class:`JSONParseError` with a reason that never quotes the text (it may hold
PHI).
"""

from __future__ import annotations

import json
import re
from typing import Any

from clinx.errors import ClinxError

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript|js)?[ \t]*\n?(.*?)```", re.DOTALL)
# A comma followed only by whitespace and a closing bracket; applied outside strings only.
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


class JSONParseError(ClinxError, ValueError):
    """No JSON value of the expected kind could be recovered."""


def strip_wrappers(text: str) -> str:
    """Remove ``<think>`` blocks (closed or cut off) and a stray leading ``</think>``."""
    text = _THINK.sub("", text)
    # Some chat templates put the opening tag in the prompt, so only the close tag appears.
    if "</think>" in text.lower():
        text = re.split(r"</think>", text, flags=re.IGNORECASE)[-1]
    return text.strip()


def _balanced_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every balanced ``{…}``/``[…]``, ordered by start; one linear pass.

    Inner spans are returned too (after their container) so that prose like
    ``{note: {"a": 1}}`` still gives up its valid inner object. Quotes only
    count as string delimiters inside brackets, so an apostrophe or quote in
    the prose before the JSON does not derail the scan. A mismatched closer
    resets the scan: nothing that spans it can be JSON.
    """
    spans: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    in_str = esc = False
    for j, c in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
        elif c == '"' and stack:
            in_str = True
        elif c in "{[":
            stack.append(("}" if c == "{" else "]", j))
        elif c in "}]" and stack:
            closer, start = stack.pop()
            if c != closer:
                stack.clear()
                continue
            spans.append((start, j + 1))
    spans.sort()
    return spans


def _remove_trailing_commas(s: str) -> str:
    """Drop commas before ``}``/``]`` outside string literals."""
    out, in_str, esc = [], False, False
    i = 0
    while i < len(s):
        c = s[i]
        if in_str:
            out.append(c)
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif c == ",":
            m = _TRAILING_COMMA.match(s, i)
            if not m:
                out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _try_load(candidate: str) -> tuple[bool, Any]:
    for variant in (candidate, _remove_trailing_commas(candidate)):
        try:
            return True, json.loads(variant)
        except (json.JSONDecodeError, RecursionError):
            continue
    return False, None


def parse_json(text: str, *, expect: type | tuple[type, ...] | None = None) -> Any:
    """Parse the first JSON object/array in ``text``.

    ``expect`` (``dict``, ``list`` or a tuple of them) restricts which kind is
    accepted; earlier values of another kind are skipped. Order of attempts:
    the whole text, each fenced code block, then each balanced ``{…}``/``[…]``
    in reading order. Raises :class:`JSONParseError` when nothing parses.
    """
    if not isinstance(text, str):
        raise JSONParseError(f"expected text, got {type(text).__name__}")
    kinds = expect if expect is None or isinstance(expect, tuple) else (expect,)

    def ok(value: Any) -> bool:
        return isinstance(value, (dict, list)) and (kinds is None or isinstance(value, kinds))

    body = strip_wrappers(text)
    if not body:
        raise JSONParseError("empty response")
    candidates = [body] + [m.group(1).strip() for m in _FENCE.finditer(body)]
    for cand in candidates:
        good, value = _try_load(cand)
        if good and ok(value):
            return value
    for cand in candidates:
        for a, b in _balanced_spans(cand):
            good, value = _try_load(cand[a:b])
            if good and ok(value):
                return value
    what = "/".join(k.__name__ for k in kinds) if kinds else "object or array"
    raise JSONParseError(f"no valid JSON {what} found in a response of {len(text)} characters")
