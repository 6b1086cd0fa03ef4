"""Errors that name the item and the problem, never the PHI — and the one helper that makes any error safe to write.

Every module that turns an exception or a problem string into something a
user will read (a quarantine record, a summary, a log line, a report row)
goes through :func:`safe_reason`. The policy, in one place:

* clinx's own errors (:class:`ClinxError` and subclasses) are written so that
  they never quote a value: their message is kept;
* any other exception keeps only its *type* — library messages quote header
  values, file contents and paths (pydicom: ``Invalid value for VR PN:
  '<the name>'``);
* the text is then scrubbed of every manifest value the caller knows of
  (:func:`scrub`, defence in depth), control characters and unpaired
  surrogates are escaped (:func:`escape_text`: a newline in a file name must
  not forge a log line, a non-UTF-8 name must not break a log file), and the
  result is cut to a bounded length.

:class:`EscapingFilter` applies the same escaping to every log record.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # records imports nothing from here; keep errors import-light
    from clinx.records import Manifest

__all__ = [
    "ClinxError",
    "ItemError",
    "InputError",
    "CheckpointError",
    "ConfigError",
    "safe_reason",
    "scrub",
    "escape_text",
    "EscapingFilter",
]


class ClinxError(Exception):
    """Base class for clinx errors."""


class ItemError(ClinxError):
    """A single item could not be processed.

    ``item`` is a safe identifier (a file name relative to the input root or a
    sample id — never a value from the manifest); ``problem`` says what went
    wrong in words a user can act on. Batches catch this, quarantine the item
    and go on.
    """

    def __init__(self, item: str, problem: str, stage: str = ""):
        self.item = str(item)
        self.problem = str(problem)
        self.stage = stage
        where = f" [{stage}]" if stage else ""
        super().__init__(f"{self.item}{where}: {self.problem}")


class InputError(ItemError):
    """The input item is unreadable or invalid (corrupt, empty, too large, bad JSON…)."""


class CheckpointError(ClinxError):
    """A checkpoint is missing, corrupt or does not fit the network."""


class ConfigError(ClinxError):
    """A configuration value is invalid."""


#: Default bound on a reason's length: enough for a sentence, too short for a dump.
MAX_REASON = 300


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_text(text: str) -> str:
    """``text`` with control, format, line/paragraph-separator and surrogate characters escaped (``\\x0a``, ``\\u2028``…).

    The result is one printable line that always encodes as UTF-8: a file
    name holding ``\\n[INFO] all items sanitized OK`` stays on its own line,
    and a file name that was not valid UTF-8 (decoded with surrogate escapes)
    cannot make a log handler raise.
    """
    out = []
    for ch in str(text):
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            out.append(_escape_char(ch))
        else:
            out.append(ch)
    return "".join(out)


def scrub(text: str, manifest: "Manifest | None") -> str:
    """Replace any manifest value (or a token of 3+ characters of one) in ``text`` by ``[field]``.

    Defence in depth for problem strings that come from other modules: they
    should never quote PHI, but a reason that did would end up in a file.
    Matching is case-insensitive for tokens.
    """
    if not manifest:
        return text
    out = text
    pairs = sorted(manifest.items(), key=lambda kv: -len(kv[1]))
    for name, value in pairs:
        if value and value in out:
            out = out.replace(value, f"[{name}]")
    for name, value in pairs:
        for tok in value.replace("^", " ").split():
            if len(tok) < 3:
                continue
            low_tok = tok.lower()
            idx = out.lower().find(low_tok)
            while idx >= 0:
                out = out[:idx] + f"[{name}]" + out[idx + len(tok) :]
                idx = out.lower().find(low_tok, idx + len(name) + 2)
    return out


def safe_reason(exc_or_text: BaseException | str, manifest: "Manifest | None" = None, *, limit: int = MAX_REASON) -> str:
    """A PHI-safe, one-line description of an error or problem text.

    * ``str`` — taken as a problem written by clinx;
    * :class:`ItemError` — its ``problem`` (the item and stage are recorded apart);
    * other :class:`ClinxError` — its message;
    * :class:`MemoryError` — ``"out of memory"``;
    * anything else — ``"unexpected <TypeName>"`` (the message is dropped:
      library messages can quote header values, file content or paths).

    The text is then scrubbed of ``manifest`` values (:func:`scrub`),
    control characters are escaped (:func:`escape_text`) and it is cut to
    ``limit`` characters.
    """
    if isinstance(exc_or_text, str):
        text = exc_or_text
    elif isinstance(exc_or_text, ItemError):
        text = exc_or_text.problem
    elif isinstance(exc_or_text, ClinxError):
        text = str(exc_or_text)
    elif isinstance(exc_or_text, MemoryError):
        text = "out of memory"
    elif isinstance(exc_or_text, BaseException):
        text = f"unexpected {type(exc_or_text).__name__}"
    else:
        text = f"unexpected {type(exc_or_text).__name__}"
    text = escape_text(scrub(text, manifest))
    if len(text) > limit:
        text = text[: max(0, limit - 1)] + "…"
    return text


class EscapingFilter(logging.Filter):
    """A logging filter that escapes control characters in every record (see :func:`escape_text`).

    Attach it to handlers (``handler.addFilter(EscapingFilter())``): the
    formatted message replaces ``msg``/``args``, so a value interpolated into
    a record can neither start a new log line nor break a UTF-8 log file.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            msg = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is still logged, as its template
            msg = str(record.msg)
        record.msg = escape_text(msg)
        record.args = None
        return True
