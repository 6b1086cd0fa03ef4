"""The run journal of ``clinx sanitize``: what clinx wrote into ``output_dir``, so it can resume and never touch anything else.

``output_dir`` must be empty (or new) or a folder an earlier ``clinx
sanitize`` run wrote, recognised by the journal's first record
(``{"journal": "clinx-sanitize", ...}`` in ``progress.jsonl``). The journal
records, per finished item:

* its **key** — (relative input path, input digest, manifest digest,
  settings fingerprint) hashed: two inputs with the same bytes, a renamed
  input or changed settings are different work;
* its **output** (relative path) and the output's sha256.

An item is skipped on a rerun only when its key is recorded *and* its
output is still there with the recorded digest; anything else is redone.
Before an output is moved into place, a ``writing`` record with its digest
is appended, so an output that a crash left unrecorded is still known as
clinx's own on the next run.

clinx overwrites or deletes only files whose current digest is one the
journal recorded for that path (:meth:`Journal.owns`): a file the user put
at an output path is never replaced or removed, and a stale output that
cannot be removed is reported as an error, not ignored.
"""

from __future__ import annotations

import fcntl
import json
import os
from datetime import datetime, timezone
from pathlib import Path

from clinx.data.guards import file_digest
from clinx.errors import ClinxError, ConfigError

__all__ = [
    "JOURNAL_FILE",
    "PROGRESS_FILE",
    "QUARANTINE_FILE",
    "SUMMARY_FILE",
    "INPUTS_FILE",
    "STATE_FILES",
    "JOURNAL_KIND",
    "Journal",
    "append_jsonl",
    "read_jsonl",
    "check_output_dir",
]

PROGRESS_FILE = "progress.jsonl"
#: The journal is the progress file (kept under its old name).
JOURNAL_FILE = PROGRESS_FILE
QUARANTINE_FILE = "quarantine.jsonl"
SUMMARY_FILE = "summary.json"
#: Files of the input tree that were seen but not processed (links, unsupported types), with reasons.
INPUTS_FILE = "inputs_not_processed.jsonl"
STATE_FILES = frozenset({PROGRESS_FILE, QUARANTINE_FILE, SUMMARY_FILE, INPUTS_FILE})
JOURNAL_KIND = "clinx-sanitize"
JOURNAL_VERSION = 2


def now() -> str:
    """UTC time stamp for records."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def append_jsonl(path: Path, record: dict) -> None:
    """Append one JSON line and fsync: a crash loses at most the line being written (readers skip a torn line)."""
    with open(path, "a", encoding="utf-8") as fp:
        fp.write(json.dumps(record, ensure_ascii=True) + "\n")
        fp.flush()
        os.fsync(fp.fileno())


def read_jsonl(path: Path) -> list[dict]:
    """Records of a JSONL state file; torn (crash-cut) or non-object lines are skipped."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(rec, dict):
            out.append(rec)
    return out


def _is_journal(path: Path) -> bool:
    recs = read_jsonl(path) if path.is_file() else []
    return bool(recs) and recs[0].get("journal") == JOURNAL_KIND


def check_output_dir(output_dir: Path) -> None:
    """Refuse an ``output_dir`` that clinx must not write into (a :class:`~clinx.errors.ConfigError`, one line).

    Accepted: a folder that does not exist yet (its parent must be
    creatable), an empty folder, or a folder with a ``clinx sanitize``
    journal. Refused: a file, a non-empty folder without a journal, a folder
    clinx cannot write.
    """
    if output_dir.exists() or output_dir.is_symlink():
        if not output_dir.is_dir():
            raise ConfigError("output_dir exists and is not a folder")
        try:
            entries = [e.name for e in os.scandir(output_dir)]
        except OSError as exc:
            raise ConfigError(f"output_dir cannot be read ({type(exc).__name__})") from None
        if entries and not _is_journal(output_dir / JOURNAL_FILE):
            raise ConfigError(
                "output_dir is not empty and holds no clinx sanitize journal; give a new or empty folder "
                "(or the output_dir of an earlier clinx sanitize run to resume it)"
            )
        if not os.access(output_dir, os.W_OK | os.X_OK):
            raise ConfigError("output_dir is not writable")
        return
    parent = output_dir.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise ConfigError("output_dir cannot be created: a parent path is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ConfigError("output_dir cannot be created: its parent folder is not writable")


class Journal:
    """The journal of one output folder (see the module docstring).

    Not thread-safe by itself: the runner serialises calls under its lock.
    """

    def __init__(self, output_dir: str | os.PathLike, *, resume: bool = True):
        self.dir = Path(output_dir)
        self.path = self.dir / JOURNAL_FILE
        self.resume = resume
        self.done: dict[str, dict] = {}
        #: relative output path -> digests clinx wrote there (intended or finished)
        self.written: dict[str, set[str]] = {}
        self._lock_fd: int | None = None

    def close(self) -> None:
        """Release the folder for other runs."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing drops the flock
            self._lock_fd = None

    def open(self) -> "Journal":
        """Create the folder and the journal (or read an existing one)."""
        check_output_dir(self.dir)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError as exc:
            raise ConfigError(f"output_dir cannot be written ({type(exc).__name__})") from None
        try:
            # Two runs writing one folder would each take the other's files for their own.
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise ConfigError("output_dir is in use by another clinx sanitize run") from None
        self._lock_fd = fd
        records = read_jsonl(self.path)
        if not records:
            append_jsonl(self.path, {"journal": JOURNAL_KIND, "version": JOURNAL_VERSION, "created": now()})
        for r in records:
            kind = r.get("type")
            out = r.get("output")
            if kind in ("writing", "done") and isinstance(out, str) and isinstance(r.get("digest"), str):
                self.written.setdefault(out, set()).add(r["digest"])
            if kind == "done" and isinstance(r.get("key"), str):
                self.done[r["key"]] = r
            elif kind == "removed" and isinstance(out, str):
                self.written.pop(out, None)
                for k in [k for k, d in self.done.items() if d.get("output") == out]:
                    del self.done[k]
        return self

    def rel(self, out_path: Path) -> str:
        """``out_path`` relative to the folder, as recorded."""
        return out_path.relative_to(self.dir).as_posix()

    def finished(self, key: str) -> Path | None:
        """The output of a finished item whose output is still there, unchanged; ``None`` when it must be redone."""
        if not self.resume:
            return None
        rec = self.done.get(key)
        if rec is None:
            return None
        out = self.dir / rec["output"]
        try:
            if out.is_file() and not out.is_symlink() and file_digest(out) == rec.get("digest"):
                return out
        except OSError:
            return None
        return None

    def owns(self, out_path: Path) -> bool:
        """Whether the file at ``out_path`` is one clinx wrote and recorded (its current digest is recorded there)."""
        rel = self.rel(out_path)
        if rel not in self.written or out_path.is_symlink() or not out_path.is_file():
            return False
        try:
            return file_digest(out_path) in self.written[rel]
        except OSError:
            return False

    def intend(self, out_path: Path, digest: str, item: str) -> None:
        """Record that a file with ``digest`` is about to be moved to ``out_path``."""
        rel = self.rel(out_path)
        append_jsonl(self.path, {"type": "writing", "output": rel, "digest": digest, "item": item, "time": now()})
        self.written.setdefault(rel, set()).add(digest)

    def record_done(self, key: str, out_path: Path, digest: str, item: str, settings: str) -> None:
        """Record a finished item (its key, output and output digest)."""
        rec = {"type": "done", "key": key, "item": item, "output": self.rel(out_path), "digest": digest,
               "settings": settings, "time": now()}
        append_jsonl(self.path, rec)
        self.done[key] = rec
        self.written.setdefault(rec["output"], set()).add(digest)

    def remove(self, out_path: Path) -> str:
        """Remove a stale output clinx wrote; returns ``"removed"``, ``"absent"`` or ``"not ours"``.

        Raises :class:`~clinx.errors.ClinxError` when the file is clinx's but
        cannot be deleted (a released file that did not pass this run must not
        stay behind silently).
        """
        if not (out_path.exists() or out_path.is_symlink()):
            return "absent"
        try:
            out_path.parent.resolve().relative_to(self.dir.resolve())
        except ValueError:
            return "not ours"  # reached through a link out of the folder
        if not self.owns(out_path):
            return "not ours"
        try:
            out_path.unlink()
        except OSError as exc:
            raise ClinxError(f"a stale output from an earlier run could not be removed ({type(exc).__name__})") from None
        rel = self.rel(out_path)
        append_jsonl(self.path, {"type": "removed", "output": rel, "time": now()})
        self.written.pop(rel, None)
        for k in [k for k, d in self.done.items() if d.get("output") == rel]:
            del self.done[k]
        return "removed"
