"""``clinx text`` / ``clinx-text``: de-identify a JSONL field, a CSV column or a folder of .txt files.

    clinx-text input=questions.jsonl field=question text=l2
    clinx-text input=notes.csv field=note text=l3 text.strategy=single
    clinx-text input=reports/ text=l1            # every *.txt below the folder

Everything goes into the run folder (``runs/text/<time>/`` unless
``output_dir=`` says otherwise): the de-identified copy of the input, an
``audit.jsonl`` (per row: categories, offsets, source, salted digests — no
values unless ``text.keep_values=true``), ``errors.jsonl`` (row id and
problem; no text), ``summary.json`` and the resolved config. A row whose value
is not text (a number, a list, null, a missing column), a line that is not
UTF-8, not JSON, nested too deeply or longer than ``max_line_bytes`` is
reported as an error and left out of the output; the batch goes on and the
summary is always written.

Fail closed about the user's files: ``output_dir`` must be empty, new, or a
previous ``clinx text`` run folder (recognised by its journal
``.clinx-text.json``, which lists every file the run wrote); clinx writes only
names it recorded there, refuses an output that would replace the input (or a
file it did not write), never opens inputs for writing and never follows
symbolic links in an input folder. Rows are named by line number; id values
and file names appear in errors, audit and logs only with
``log.paths=relative`` (``hash``, the default, names files by a digest of
their relative path). Setup problems are one line on stderr and exit code 2.
"""

from __future__ import annotations

import csv
import hashlib
import json
import logging
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from clinx.atomic import write_text_atomic
from clinx.cli_common import hydra_main
from clinx.config import run_dir, save_resolved
from clinx.errors import ClinxError, ConfigError, InputError, escape_text, safe_reason
from clinx.records import Manifest
from clinx.text.base import CATEGORIES

log = logging.getLogger(__name__)


@dataclass
class Summary:
    """What a run did, in counts only (safe to print and store)."""

    input_kind: str
    level: str
    rows: int = 0
    ok: int = 0
    errors: int = 0
    l3_fallbacks: int = 0
    removed: Counter = field(default_factory=Counter)
    errors_by_stage: Counter = field(default_factory=Counter)
    not_processed: Counter = field(default_factory=Counter)
    status: str = "ok"

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "input_kind": self.input_kind,
            "level": self.level,
            "rows": self.rows,
            "ok": self.ok,
            "errors": self.errors,
            "errors_by_stage": dict(sorted(self.errors_by_stage.items())),
            "not_processed": dict(sorted(self.not_processed.items())),
            "l3_fallbacks": self.l3_fallbacks,
            "removed_by_category": {k: self.removed[k] for k in sorted(self.removed, key=_cat_order)},
            "removed_total": sum(self.removed.values()),
        }

    def table(self) -> str:
        lines = [f"level {self.level}: {self.ok}/{self.rows} rows de-identified, {self.errors} errors"]
        if self.level == "L3":
            lines.append(f"L3 rewrites rejected (fell back to L2): {self.l3_fallbacks}")
        if self.removed:
            lines.append("removed by category:")
            lines += [f"  {k:<10} {self.removed[k]:>7}" for k in sorted(self.removed, key=_cat_order)]
        else:
            lines.append("nothing removed")
        return "\n".join(lines)


def _cat_order(c: str) -> tuple[int, str]:
    return (CATEGORIES.index(c) if c in CATEGORIES else len(CATEGORIES), c)


@dataclass
class Row:
    """One unit of work: a safe id, the value to de-identify (any type), the record to write back."""

    id: str
    value: Any
    record: Any
    manifest: Any = None


# ----------------------------------------------------------------------------- settings


#: The run folder's journal: which app wrote it and every file it wrote there.
JOURNAL = ".clinx-text.json"
#: Held while a run writes into the folder (two runs never share one).
LOCK = ".clinx-text.lock"
_UTF8_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Settings:
    """The run's validated settings (a bad value is a :class:`ConfigError`, exit 2)."""

    input: Path
    field: str
    out_field: str
    manifest_field: str | None
    drop_manifest: bool
    id_field: str | None
    audit: bool
    max_chars: int
    max_line_bytes: int
    limit: int | None
    progress: bool
    log_paths: str  # hash | relative
    output_names: str  # keep | hash


def _int_setting(cfg, key: str, default: int | None, minimum: int) -> int | None:
    raw = cfg.get(key, default)
    if raw is None:
        return None
    try:
        v = int(raw)
        if isinstance(raw, float) and raw != v or isinstance(raw, bool):
            raise ValueError
    except (TypeError, ValueError):
        raise ConfigError(f"{key} must be a whole number, got {escape_text(str(raw))[:40]!r}") from None
    if v < minimum:
        raise ConfigError(f"{key} must be at least {minimum}, got {v}")
    return v


def _choice(cfg, key: str, default: str, allowed: tuple[str, ...]) -> str:
    from omegaconf import OmegaConf

    v = OmegaConf.select(cfg, key, default=default)
    if v not in allowed:
        raise ConfigError(f"{key} must be one of {', '.join(allowed)}, got {escape_text(str(v))[:40]!r}")
    return str(v)


def _settings(cfg) -> Settings:
    if not cfg.get("input"):
        raise ConfigError("input=... is required (a .jsonl or .csv file, or a folder of .txt files)")
    fld = cfg.get("field")
    if not isinstance(fld, str) or not fld:
        raise ConfigError("field must be a non-empty key / column name")
    for key in ("out_field", "manifest_field", "id_field"):
        if cfg.get(key) is not None and not isinstance(cfg.get(key), str):
            raise ConfigError(f"{key} must be a key / column name or null")
    return Settings(
        input=Path(str(cfg.input)).expanduser(),
        field=fld,
        out_field=cfg.get("out_field") or fld,
        manifest_field=cfg.get("manifest_field") or None,
        drop_manifest=bool(cfg.get("drop_manifest", True)),
        id_field=cfg.get("id_field") or None,
        audit=bool(cfg.get("audit", True)),
        max_chars=_int_setting(cfg, "max_chars", 1_000_000, 0) or 0,
        max_line_bytes=_int_setting(cfg, "max_line_bytes", 16 << 20, 1) or (16 << 20),
        limit=_int_setting(cfg, "limit", None, 0),
        progress=bool(cfg.get("progress", True)),
        log_paths=_choice(cfg, "log.paths", "hash", ("hash", "relative")),
        output_names=_choice(cfg, "output.names", "keep", ("keep", "hash")),
    )


def _path_label(rel: str, log_paths: str) -> str:
    """How an input file is named in errors, audit and logs: a digest of its relative path, or the path escaped."""
    if log_paths == "relative":
        return escape_text(rel)
    return "file " + hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def _row_label(n: int, rec: Any, st: Settings) -> str:
    """``line N``; with ``log.paths=relative`` and an ``id_field`` also the row's id (escaped, cut)."""
    rid = f"line {n}"
    if st.log_paths == "relative" and st.id_field and isinstance(rec, dict) and rec.get(st.id_field) not in (None, ""):
        rid += f" ({st.id_field}={escape_text(str(rec[st.id_field]))[:40]})"
    return rid


# ----------------------------------------------------------------------------- readers


def _physical_lines(f, max_bytes: int) -> Iterator[tuple[int, bytes | None, str | None, int]]:
    """(line number, raw bytes or None, problem or None, quote count) for each line of a binary file.

    A line longer than ``max_bytes`` is skipped without being held in memory;
    its count of ``"`` characters is kept so a CSV reader can stay in step
    with quoted cells.
    """
    n = 0
    while True:
        line = f.readline(max_bytes + 1)
        if not line:
            return
        n += 1
        if n == 1 and line.startswith(_UTF8_BOM):
            line = line[len(_UTF8_BOM) :]
        if len(line) > max_bytes and not line.endswith(b"\n"):
            quotes = line.count(b'"')
            while True:  # drain the rest of the line in bounded chunks
                chunk = f.readline(1 << 20)
                quotes += chunk.count(b'"')
                if not chunk or chunk.endswith(b"\n"):
                    break
            yield n, None, f"line longer than max_line_bytes={max_bytes}", quotes
            continue
        yield n, line, None, 0


def _decode(raw: bytes) -> tuple[str | None, str | None]:
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return None, f"not valid UTF-8 (byte {e.start + 1} of the line)"


def _iter_jsonl(path: Path, st: Settings) -> Iterator[Row | InputError]:
    with path.open("rb") as f:
        for n, raw, problem, _ in _physical_lines(f, st.max_line_bytes):
            rid = f"line {n}"
            if problem:
                yield InputError(rid, problem, "read")
                continue
            line, problem = _decode(raw)
            if problem:
                yield InputError(rid, problem, "read")
                continue
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                yield InputError(rid, f"not valid JSON ({e.msg} at column {e.colno})", "read")
                continue
            except RecursionError:
                yield InputError(rid, "JSON nested too deeply", "read")
                continue
            except ValueError as e:  # e.g. an integer with more digits than Python converts
                yield InputError(rid, f"not valid JSON ({type(e).__name__})", "read")
                continue
            if not isinstance(rec, dict):
                yield InputError(rid, f"a JSON object per line is expected, got {type(rec).__name__}", "read")
                continue
            man = rec.get(st.manifest_field) if st.manifest_field else None
            yield Row(_row_label(n, rec, st), rec.get(st.field, _MISSING), rec, man)


#: Stands in for an overlong CSV line (with its quotes, so quoted cells stay in step): the row holding it is an error.
_DAMAGED = "\ufdd0clinx:damaged-line\ufdd0"


def _csv_lines(f, max_bytes: int, bad: dict[int, str]) -> Iterator[str]:
    """Decoded physical lines for :mod:`csv`, damaged ones noted in ``bad``.

    A line that is not UTF-8 is decoded with surrogate escapes, so its commas
    and quotes still delimit cells and the undecodable bytes mark the row
    (a cell holding a surrogate); an overlong line becomes :data:`_DAMAGED`.
    """
    for n, raw, problem, quotes in _physical_lines(f, max_bytes):
        if raw is None:
            bad[n] = problem or "unreadable line"
            yield _DAMAGED + '"' * (quotes % 2) + "\n"
            continue
        line, problem = _decode(raw)
        if line is None:
            bad[n] = problem or "unreadable line"
            line = raw.decode("utf-8", "surrogateescape")
        yield line


def _damaged(cell: Any) -> bool:
    if not isinstance(cell, str):
        return False
    if _DAMAGED in cell:
        return True
    try:
        cell.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _iter_csv(path: Path, st: Settings) -> Iterator[Row | InputError]:
    # csv refuses fields over 128 KiB by default; a note may be longer (max_line_bytes bounds it)
    if csv.field_size_limit() < st.max_line_bytes:
        csv.field_size_limit(st.max_line_bytes)
    bad: dict[int, str] = {}
    with path.open("rb") as f:
        reader = csv.DictReader(_csv_lines(f, st.max_line_bytes, bad))
        try:
            fieldnames = reader.fieldnames
        except csv.Error as e:
            raise ClinxError(f"CSV header unreadable ({e})") from None
        if 1 in bad:
            raise ClinxError(f"CSV header: {bad[1]}")
        if fieldnames is None or st.field not in fieldnames:
            raise ClinxError(f"column {st.field!r} not in the CSV header ({escape_text(', '.join(fieldnames or []))[:300]})")
        prev = reader.line_num  # last physical line of the previous record
        while True:
            try:
                rec = next(reader)
            except StopIteration:
                break
            except csv.Error as e:  # its messages are fixed texts, never cell content
                yield InputError(f"line {prev + 1}", f"CSV row unreadable ({e})", "read")
                prev = reader.line_num
                continue
            first, last = prev + 1, reader.line_num
            prev = last
            cells = [v for k, v in rec.items() if k is not None] + list(rec.get(None) or [])
            if bad and any(_damaged(c) for c in cells):
                lines = [k for k in sorted(bad) if k <= last]
                problems = sorted({bad.pop(k) for k in lines}) or ["unreadable line"]
                yield InputError(f"line {lines[0] if lines else first}", "; ".join(problems), "read")
                continue
            rid = _row_label(first, rec, st)
            if None in rec:  # more cells than header columns
                yield InputError(rid, "row has more cells than the header", "read")
                continue
            man = rec.get(st.manifest_field) if st.manifest_field else None
            # a short row leaves the column None: not text
            yield Row(rid, rec.get(st.field), rec, man)


@dataclass(frozen=True)
class FolderEntry:
    """One ``*.txt`` below an input folder: its relative path, and whether it is a symbolic link."""

    rel: str
    path: Path
    link: bool


def _scan_folder(root: Path) -> tuple[list[FolderEntry], int]:
    """Every ``*.txt`` below ``root`` (links recorded, never followed) and the count of other files."""
    entries: list[FolderEntry] = []
    others = 0
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        d = Path(dirpath)
        for name in list(dirnames):
            if (d / name).is_symlink():  # a linked folder: recorded, not walked
                entries.append(FolderEntry((d / name).relative_to(root).as_posix(), d / name, True))
        for name in filenames:
            p = d / name
            if name.lower().endswith(".txt"):
                entries.append(FolderEntry(p.relative_to(root).as_posix(), p, p.is_symlink()))
            else:
                others += 1
    entries.sort(key=lambda e: e.rel)
    return entries, others


def _iter_folder(entries: list[FolderEntry], st: Settings) -> Iterator[Row | InputError]:
    for e in entries:
        label = _path_label(e.rel, st.log_paths)
        if e.link:
            yield InputError(label, "symbolic link: not followed (clinx reads only regular files inside the input folder)", "read")
            continue
        try:
            size = e.path.stat().st_size
            if size > st.max_line_bytes:
                yield InputError(label, f"file larger than max_line_bytes={st.max_line_bytes}", "read")
                continue
            raw = e.path.read_bytes()
        except OSError as exc:
            yield InputError(label, f"unreadable ({exc.strerror or type(exc).__name__})", "read")
            continue
        if raw.startswith(_UTF8_BOM):
            raw = raw[len(_UTF8_BOM) :]
        try:
            value = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield InputError(label, "not UTF-8 text", "read")
            continue
        yield Row(label, value, e.rel, None)


_MISSING = object()


def _value_problem(value: Any, max_chars: int) -> str | None:
    if value is _MISSING:
        return "field missing"
    if value is None:
        return "value is null / missing"
    if not isinstance(value, str):
        return f"value is not text ({type(value).__name__})"
    if max_chars and len(value) > max_chars:
        return f"value has {len(value)} characters, more than max_chars={max_chars}"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "value holds unpaired surrogate code points (not text)"
    return None


def _manifest(raw: Any) -> Manifest | None:
    if raw is None or raw == "":
        return None
    if isinstance(raw, str):
        raw = json.loads(raw)
    return Manifest.from_dict(raw)


# ----------------------------------------------------------------------------- writers


class _Atomic:
    """A text file written under a temporary name and moved into place on success."""

    def __init__(self, path: Path, newline: str | None = None):
        self.path = path
        self.tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
        path.parent.mkdir(parents=True, exist_ok=True)
        self.f = self.tmp.open("w", encoding="utf-8", newline=newline)

    def commit(self) -> None:
        self.f.close()
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        self.f.close()
        self.tmp.unlink(missing_ok=True)


# ----------------------------------------------------------------------------- the run folder


def _check_output(inp: Path, out_dir: Path) -> None:
    inp_r, out_r = inp.resolve(), out_dir.resolve()
    if out_r == inp_r or (inp_r.is_dir() and (out_r == inp_r or inp_r in out_r.parents)):
        raise ClinxError("output_dir must not be the input or lie inside the input folder (inputs are never overwritten)")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def _is_ours(name: str) -> bool:
    """Journal, lock and half-written temporary files of a clinx text run."""
    return name in (JOURNAL, LOCK) or (name.startswith(".") and ".tmp" in name)


def _read_journal(out_dir: Path) -> dict | None:
    p = out_dir / JOURNAL
    if not p.is_file() or p.is_symlink():
        return None
    try:
        j = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(j, dict) or j.get("app") != "text" or not isinstance(j.get("files"), list):
        return None
    return j


def _claim(out_dir: Path, *, hydra_folder: bool) -> None:
    """Take the folder's lock, or fail: two runs never write into one folder at once."""
    lock = out_dir / LOCK
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                pid = int(lock.read_text().strip() or 0)
            except (OSError, ValueError):
                pid = 0
            if pid and pid != os.getpid() and _alive(pid):
                raise ClinxError("output_dir is in use by another clinx text run; choose another folder") from None
            lock.unlink(missing_ok=True)  # left by a run that was killed
            continue
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return
    raise ClinxError("output_dir: could not take the run lock")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _prepare_out_dir(out_dir: Path, inp: Path, planned: list[str], *, hydra_folder: bool) -> set[str]:
    """Check that clinx may write ``planned`` (paths relative to ``out_dir``); returns the files recorded before.

    The folder must be new, empty, or a previous clinx text run folder (its
    journal); in the Hydra run folder Hydra's own ``.hydra/`` and ``*.log``
    are expected. No planned output may be the input, and in a previous run
    folder no planned output may replace a file that run did not record.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise ClinxError("output_dir exists and is not a folder")
    for rel in planned:
        if _same_file(out_dir / rel, inp) or (inp.is_dir() and inp.resolve() in (out_dir / rel).resolve().parents):
            raise ClinxError(f"output {escape_text(rel)!r} would overwrite the input; choose another output_dir")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        probe = out_dir / f".{LOCK}.probe{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as e:
        raise ClinxError(f"output_dir is not writable ({e.strerror or type(e).__name__})") from None
    _claim(out_dir, hydra_folder=hydra_folder)
    journal = _read_journal(out_dir)
    recorded = set(journal["files"]) if journal else set()
    try:
        present = [n for n in os.listdir(out_dir) if not _is_ours(n)]
        if hydra_folder:
            present = [n for n in present if n != ".hydra" and not n.endswith(".log")]
        if present and journal is None:
            raise ClinxError(
                "output_dir is not empty and holds no clinx text journal; choose an empty or new folder "
                "(clinx never overwrites files it did not write)"
            )
        for rel in planned:
            p = out_dir / rel
            if (p.exists() or p.is_symlink()) and rel not in recorded:
                raise ClinxError(f"output_dir holds {escape_text(rel)!r}, which no clinx text run wrote; it is left as it is and the run refused")
            if p.is_symlink():
                raise ClinxError(f"output {escape_text(rel)!r} is a symbolic link; refused")
    except BaseException:
        (out_dir / LOCK).unlink(missing_ok=True)
        raise
    return recorded


def _write_journal(out_dir: Path, files: set[str], status: str) -> None:
    from clinx import __version__

    write_text_atomic(out_dir / JOURNAL, json.dumps({"app": "text", "clinx_version": __version__, "status": status, "files": sorted(files)}, indent=1))


# ----------------------------------------------------------------------------- run


def build_pipeline(cfg):
    """Instantiate ``cfg.text`` (a :class:`~clinx.text.pipeline.TextPipeline`); a bad setting is a :class:`ConfigError`."""
    from hydra.utils import instantiate

    try:
        return instantiate(cfg.text, _convert_="all")
    except Exception as e:  # noqa: BLE001 - Hydra wraps the cause; the user needs one line, not a traceback
        cause = e
        while cause.__cause__ is not None:
            cause = cause.__cause__
        msg = str(cause).splitlines()[0] if str(cause) else type(cause).__name__
        raise ConfigError(f"text settings invalid: {escape_text(msg)[:200]}") from None


def _fresh_sibling(folder: Path) -> Path:
    """``folder`` if no run has claimed it, else ``folder-2``, ``folder-3``… (runs started in the same instant)."""
    cand, k = folder, 1
    while (cand / JOURNAL).exists() or (cand / LOCK).exists():
        k += 1
        cand = folder.with_name(f"{folder.name}-{k}")
    return cand


def _output_name(rel: str, st: Settings) -> str:
    if st.output_names == "hash":
        return "texts/" + hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()[:16] + ".txt"
    return "texts/" + rel


def run(cfg) -> dict:
    """De-identify the input described by a composed ``text`` config; returns the summary dict."""
    from omegaconf import OmegaConf

    st = _settings(cfg)
    inp = st.input
    if not inp.exists():
        raise ClinxError("input not found (check the path given as input=)")
    if not os.access(inp, os.R_OK):
        raise ClinxError("input is not readable (permissions)")
    entries: list[FolderEntry] = []
    others = 0
    if inp.is_dir():
        kind = "folder"
        entries, others = _scan_folder(inp)
    elif inp.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        kind = "jsonl"
    elif inp.suffix.lower() in (".csv", ".tsv"):
        kind = "csv"
    else:
        raise ClinxError(f"unsupported input type {escape_text(inp.suffix)!r}: use .jsonl, .csv or a folder of .txt files")

    hydra_folder = not cfg.get("output_dir")
    out_dir = Path(str(cfg.output_dir)).expanduser() if not hydra_folder else _fresh_sibling(run_dir())
    _check_output(inp, out_dir)
    pipe = build_pipeline(cfg)

    stem = inp.stem if st.output_names == "keep" else "input"
    main_name = {"jsonl": f"{stem}.deid.jsonl", "csv": f"{stem}.deid.csv"}.get(kind)
    text_names = {e.rel: _output_name(e.rel, st) for e in entries if not e.link}
    planned = ["errors.jsonl", "summary.json", "config_resolved.yaml"] + (["audit.jsonl"] if st.audit else [])
    planned += ([main_name] if main_name else []) + sorted(text_names.values())
    recorded = _prepare_out_dir(out_dir, inp, planned, hydra_folder=hydra_folder)
    try:
        written = recorded | set(planned)
        _write_journal(out_dir, written, "running")
        save_resolved(cfg, out_dir)
        summary = Summary(kind, pipe.level)
        if others:
            summary.not_processed["not a .txt file"] = others
        try:
            _process(cfg, st, kind, inp, entries, text_names, main_name, out_dir, pipe, summary)
        except ClinxError:
            summary.status = "failed"
            _finish(summary, out_dir, pipe, cfg, OmegaConf)
            raise
        except Exception as e:  # noqa: BLE001 - never a traceback that may quote a value; the summary says what happened
            summary.status = "failed"
            _finish(summary, out_dir, pipe, cfg, OmegaConf)
            raise ClinxError(f"the run stopped: {safe_reason(e)}; no de-identified output was released (see summary.json)") from None
        out = _finish(summary, out_dir, pipe, cfg, OmegaConf)
        _write_journal(out_dir, written, "done")
    finally:
        (out_dir / LOCK).unlink(missing_ok=True)
    note = f"{summary.errors} rows could not be de-identified; see {out_dir / 'errors.jsonl'}" if summary.errors else None
    print(summary.table())
    if note:
        print(note)
    return out


def _finish(summary: Summary, out_dir: Path, pipe, cfg, OmegaConf) -> dict:
    from clinx.cli_common import write_summary

    out = summary.to_dict()
    out["output_dir"] = str(out_dir)
    text_cfg = OmegaConf.to_container(cfg.text, resolve=False)
    if isinstance(text_cfg, dict) and text_cfg.get("salt") is not None:
        text_cfg["salt"] = "<set>"  # the salt keys the audit digests: as secret as the data
    out["config"] = {"level": pipe.level, "field": cfg.get("field"), "text": text_cfg}
    try:
        out["fingerprint"] = pipe.fingerprint()
    except Exception as e:  # noqa: BLE001 - the identity is informative; a summary must still be written
        out["fingerprint"] = f"unavailable ({type(e).__name__})"
    write_summary(out, out_dir)
    return out


def _process(cfg, st: Settings, kind: str, inp: Path, entries, text_names, main_name, out_dir: Path, pipe, summary: Summary) -> None:
    """Read, de-identify and write every row; outputs appear only if the whole pass ends."""
    writers: list[_Atomic] = []
    errors = _Atomic(out_dir / "errors.jsonl")
    audit = _Atomic(out_dir / "audit.jsonl") if st.audit else None
    writers += [errors] + ([audit] if audit else [])
    main_out: _Atomic | None = None
    if main_name:
        main_out = _Atomic(out_dir / main_name, newline="" if kind == "csv" else None)
        writers.append(main_out)
    csv_writer = None
    folder_out: dict[str, str] = {}

    from tqdm import tqdm

    try:
        rows = {"folder": lambda: _iter_folder(entries, st), "jsonl": lambda: _iter_jsonl(inp, st), "csv": lambda: _iter_csv(inp, st)}[kind]()
        for k, row in enumerate(tqdm(rows, desc=f"text {pipe.level}", unit="row", disable=not st.progress, file=sys.stderr)):
            if st.limit is not None and k >= st.limit:
                break
            summary.rows += 1
            if isinstance(row, InputError):
                _error(errors, summary, row.item, row.problem, row.stage or "read")
                continue
            problem = _value_problem(row.value, st.max_chars)
            if problem:
                _error(errors, summary, row.id, problem, "input")
                continue
            try:
                manifest = _manifest(row.manifest)
            except Exception as e:  # noqa: BLE001 - bad JSON, nesting, wrong types: the row's problem, not the run's
                _error(errors, summary, row.id, f"manifest unreadable ({type(e).__name__})", "manifest")
                continue
            try:
                res = pipe.run(row.value, manifest)
            except Exception as e:  # noqa: BLE001 - one bad row must not stop the batch; the message names no PHI
                _error(errors, summary, row.id, f"de-identification failed ({type(e).__name__})", "deidentify")
                continue
            try:
                line = _render(kind, row, res, st)
                audit_line = json.dumps({"id": row.id, "level": res.level, "accepted": res.accepted,
                                         "removed": [s.to_dict() for s in res.removed]}) + "\n" if audit else None
                if kind == "csv":
                    if csv_writer is None:
                        fields = list(row.record.keys()) + ([st.out_field] if st.out_field not in row.record else [])
                        csv_writer = csv.DictWriter(main_out.f, fieldnames=fields)
                        csv_writer.writeheader()
                    csv_writer.writerow(line)
                elif kind == "jsonl":
                    main_out.f.write(line)
                else:
                    folder_out[text_names[row.record]] = res.text
                    write_text_atomic(out_dir / text_names[row.record], res.text)
            except (ValueError, TypeError, RecursionError, UnicodeEncodeError) as e:
                _error(errors, summary, row.id, f"output could not be written ({type(e).__name__})", "write")
                continue
            if audit_line:
                audit.f.write(audit_line)
            summary.ok += 1
            summary.removed.update(res.counts())
            if not res.accepted:
                summary.l3_fallbacks += 1
        if kind == "csv" and csv_writer is None:  # every row failed: still write the header
            with open(inp, "rb") as f:
                header_line = _decode(f.readline(st.max_line_bytes).removeprefix(_UTF8_BOM))[0] or ""
            header = next(csv.reader([header_line]), [])
            csv.writer(main_out.f).writerow(header + ([st.out_field] if st.out_field not in header else []))
    except BaseException:
        for w in writers:
            w.abort()
        for name in folder_out:  # released texts of a run that did not finish are withdrawn
            (out_dir / name).unlink(missing_ok=True)
        raise
    for w in writers:
        w.commit()


def _render(kind: str, row: Row, res, st: Settings):
    """The output record for one row (a JSONL line, a CSV dict or, for folders, the text)."""
    if kind == "folder":
        return res.text
    rec = dict(row.record)
    rec[st.out_field] = res.text
    if kind == "jsonl":
        if st.manifest_field and st.drop_manifest:
            rec.pop(st.manifest_field, None)  # the manifest is PHI: it does not travel with the output
        line = json.dumps(rec, ensure_ascii=False) + "\n"
        line.encode("utf-8")  # a lone surrogate elsewhere in the record fails here, not half-way into the file
        return line
    if st.manifest_field and st.drop_manifest:
        rec[st.manifest_field] = ""  # keep the column layout, drop the PHI
    return rec


def _error(errors: _Atomic, summary: Summary, item: str, problem: str, stage: str) -> None:
    summary.errors += 1
    summary.errors_by_stage[stage] += 1
    item, problem = escape_text(item), safe_reason(problem)
    errors.f.write(json.dumps({"item": item, "stage": stage, "problem": problem}) + "\n")
    log.warning("%s [%s]: %s", item, stage, problem)


main = hydra_main("text", run, log, save_config=False)


if __name__ == "__main__":
    raise SystemExit(main())
