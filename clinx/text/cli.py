"""``clinx text`` / ``clinx-text``: de-identify a JSONL field, a CSV column or a folder of .txt files.

    clinx-text input=questions.jsonl field=question text=l2
    clinx-text input=notes.csv field=note text=l3 text.strategy=single
    clinx-text input=reports/ text=l1            # every *.txt below the folder

Everything goes into the run folder (``runs/text/<time>/`` unless
``output_dir=`` says otherwise): the de-identified copy of the input, an
``audit.jsonl`` (per row: categories, offsets, source, salted digests — no
values unless ``text.keep_values=true``), ``errors.jsonl`` (row id and
problem; no text), ``summary.json`` and the resolved config. Inputs are never
written to. A row whose value is not text (a number, a list, null, a missing
column) is reported as an error and left out of the output; the batch goes on.
"""

from __future__ import annotations

import csv
import json
import logging
import os
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from clinx.atomic import write_text_atomic
from clinx.cli_common import finish_run, hydra_main
from clinx.config import run_dir, save_resolved
from clinx.errors import ClinxError, InputError
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

    def to_dict(self) -> dict:
        return {
            "input_kind": self.input_kind,
            "level": self.level,
            "rows": self.rows,
            "ok": self.ok,
            "errors": self.errors,
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


# ----------------------------------------------------------------------------- readers


def _iter_jsonl(path: Path, cfg) -> Iterator[Row | InputError]:
    with path.open("r", encoding="utf-8", errors="strict") as f:
        for n, line in enumerate(f, 1):
            rid = f"line {n}"
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                yield InputError(rid, f"not valid JSON ({e.msg} at column {e.colno})", "read")
                continue
            if not isinstance(rec, dict):
                yield InputError(rid, f"a JSON object per line is expected, got {type(rec).__name__}", "read")
                continue
            if cfg.id_field and cfg.id_field in rec:
                rid = f"line {n} ({cfg.id_field}={str(rec[cfg.id_field])[:40]})"
            man = rec.get(cfg.manifest_field) if cfg.manifest_field else None
            yield Row(rid, rec.get(cfg.field, _MISSING), rec, man)


def _iter_csv(path: Path, cfg) -> Iterator[Row | InputError]:
    with path.open("r", encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or cfg.field not in reader.fieldnames:
            raise ClinxError(f"column {cfg.field!r} not in the CSV header ({', '.join(reader.fieldnames or [])})")
        for n, rec in enumerate(reader, 2):  # header is line 1
            rid = f"line {n}"
            if cfg.id_field and rec.get(cfg.id_field):
                rid = f"line {n} ({cfg.id_field}={str(rec[cfg.id_field])[:40]})"
            if None in rec:  # more cells than header columns
                yield InputError(rid, "row has more cells than the header", "read")
                continue
            man = rec.get(cfg.manifest_field) if cfg.manifest_field else None
            # a short row leaves the column None: not text
            yield Row(rid, rec.get(cfg.field), rec, man)


def _iter_folder(root: Path, cfg) -> Iterator[Row | InputError]:
    for p in sorted(root.rglob("*.txt")):
        rel = p.relative_to(root).as_posix()
        try:
            value = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            yield InputError(rel, "not UTF-8 text", "read")
            continue
        except OSError as e:
            yield InputError(rel, f"unreadable ({e.strerror or type(e).__name__})", "read")
            continue
        yield Row(rel, value, rel, None)


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


def _check_output(inp: Path, out_dir: Path) -> None:
    inp_r, out_r = inp.resolve(), out_dir.resolve()
    if out_r == inp_r or (inp_r.is_dir() and (out_r == inp_r or inp_r in out_r.parents)):
        raise ClinxError("output_dir must not be the input or lie inside the input folder (inputs are never overwritten)")


# ----------------------------------------------------------------------------- run


def build_pipeline(cfg):
    """Instantiate ``cfg.text`` (a :class:`~clinx.text.pipeline.TextPipeline`)."""
    from hydra.utils import instantiate

    return instantiate(cfg.text, _convert_="all")


def run(cfg) -> dict:
    """De-identify the input described by a composed ``text`` config; returns the summary dict."""
    from omegaconf import OmegaConf

    if not cfg.get("input"):
        raise ClinxError("input=... is required (a .jsonl or .csv file, or a folder of .txt files)")
    inp = Path(str(cfg.input)).expanduser()
    if not inp.exists():
        raise ClinxError(f"input not found: {inp}")
    out_dir = Path(str(cfg.output_dir)) if cfg.get("output_dir") else run_dir()
    _check_output(inp, out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    save_resolved(cfg, out_dir)

    if inp.is_dir():
        kind, rows = "folder", _iter_folder(inp, cfg)
    elif inp.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        kind, rows = "jsonl", _iter_jsonl(inp, cfg)
    elif inp.suffix.lower() in (".csv", ".tsv"):
        kind, rows = "csv", _iter_csv(inp, cfg)
    else:
        raise ClinxError(f"unsupported input {inp.name!r}: use .jsonl, .csv or a folder of .txt files")

    pipe = build_pipeline(cfg)
    summary = Summary(kind, pipe.level)
    out_field = cfg.get("out_field") or cfg.field
    max_chars = int(cfg.get("max_chars") or 0)
    limit = cfg.get("limit")

    writers: list[_Atomic] = []
    errors = _Atomic(out_dir / "errors.jsonl")
    audit = _Atomic(out_dir / "audit.jsonl") if cfg.get("audit", True) else None
    writers += [errors] + ([audit] if audit else [])
    main_out: _Atomic | None = None
    csv_writer = None
    if kind == "jsonl":
        main_out = _Atomic(out_dir / f"{inp.stem}.deid.jsonl")
    elif kind == "csv":
        main_out = _Atomic(out_dir / f"{inp.stem}.deid.csv", newline="")
    if main_out:
        writers.append(main_out)

    from tqdm import tqdm

    try:
        for k, row in enumerate(tqdm(rows, desc=f"text {pipe.level}", unit="row", disable=not cfg.get("progress", True), file=sys.stderr)):
            if limit is not None and k >= int(limit):
                break
            summary.rows += 1
            if isinstance(row, InputError):
                _error(errors, summary, row.item, row.problem, row.stage)
                continue
            problem = _value_problem(row.value, max_chars)
            if problem:
                _error(errors, summary, row.id, problem, "input")
                continue
            try:
                manifest = _manifest(row.manifest)
            except (ValueError, TypeError) as e:
                _error(errors, summary, row.id, f"manifest unreadable ({type(e).__name__})", "manifest")
                continue
            try:
                res = pipe.run(row.value, manifest)
            except Exception as e:  # one bad row must not stop the batch; the message names no PHI
                _error(errors, summary, row.id, f"de-identification failed ({type(e).__name__})", "deidentify")
                continue
            summary.ok += 1
            summary.removed.update(res.counts())
            if not res.accepted:
                summary.l3_fallbacks += 1
            if audit:
                audit.f.write(json.dumps({"id": row.id, "level": res.level, "accepted": res.accepted,
                                          "removed": [s.to_dict() for s in res.removed]}) + "\n")
            if kind == "jsonl":
                rec = dict(row.record)
                rec[out_field] = res.text
                if cfg.manifest_field and cfg.get("drop_manifest", True):
                    rec.pop(cfg.manifest_field, None)  # the manifest is PHI: it does not travel with the output
                main_out.f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            elif kind == "csv":
                rec = dict(row.record)
                rec[out_field] = res.text
                if cfg.manifest_field and cfg.get("drop_manifest", True):
                    rec[cfg.manifest_field] = ""  # keep the column layout, drop the PHI
                if csv_writer is None:
                    fields = list(row.record.keys()) + ([out_field] if out_field not in row.record else [])
                    csv_writer = csv.DictWriter(main_out.f, fieldnames=fields)
                    csv_writer.writeheader()
                csv_writer.writerow(rec)
            else:
                write_text_atomic(out_dir / "texts" / row.id, res.text)
    except BaseException:
        for w in writers:
            w.abort()
        raise
    if kind == "csv" and csv_writer is None:  # every row failed: still write the header
        with open(inp, encoding="utf-8", newline="") as f:
            header = next(csv.reader(f), [])
        csv.writer(main_out.f).writerow(header + ([out_field] if out_field not in header else []))
    for w in writers:
        w.commit()

    out = summary.to_dict()
    out["output_dir"] = str(out_dir)
    out["config"] = {"level": pipe.level, "field": cfg.get("field"), "text": OmegaConf.to_container(cfg.text, resolve=False)}
    note = f"{summary.errors} rows could not be de-identified; see {out_dir / 'errors.jsonl'}" if summary.errors else None
    return finish_run(out, out_dir, summary.table(), note)


def _error(errors: _Atomic, summary: Summary, item: str, problem: str, stage: str) -> None:
    summary.errors += 1
    errors.f.write(json.dumps({"item": item, "stage": stage, "problem": problem}) + "\n")
    log.warning("%s [%s]: %s", item, stage, problem)


main = hydra_main("text", run, log, save_config=False)


if __name__ == "__main__":
    raise SystemExit(main())
