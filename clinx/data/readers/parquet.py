"""Parquet exports of VQA datasets (the Hugging Face ``datasets`` layout).

Required columns: ``image``, ``question``, ``answer``; optional:
``answer_type`` and an id column (``id``, ``qid`` or ``question_id``).
The ``image`` cell may be

* a struct ``{"bytes": <encoded image>, "path": <name>}`` — the HF ``Image``
  feature; the bytes win, else ``path`` is read relative to the parquet
  file's folder;
* raw encoded bytes;
* a string path relative to the parquet file's folder.

``root`` is one ``.parquet`` file or a folder searched recursively. With a
``split``, files named ``<split>-*.parquet`` / ``<split>.parquet`` or lying
under a ``<split>/`` folder are read (HF names shards
``data/train-00000-of-00001.parquet``). Rows are streamed in small batches,
so a large export is never held in memory at once.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

from clinx.data.readers.base import (
    READERS,
    ReadOptions,
    RecordFields,
    SampleStream,
    answer_text,
    locate_image,
    safe_join,
)
from clinx.errors import InputError
from clinx.records import Sample

__all__ = ["read_parquet"]

_REQUIRED = ("image", "question", "answer")
_ID_COLUMNS = ("id", "qid", "question_id")
_BATCH_ROWS = 32


def _parquet_files(root: Path, split: str | None) -> list[Path]:
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise InputError(root.name or str(root), "parquet file or folder not found")
    files = sorted(p for p in root.rglob("*.parquet") if p.is_file())
    if split is not None:
        files = [
            p
            for p in files
            if p.stem == split or p.name.startswith(f"{split}-") or split in p.relative_to(root).parts[:-1]
        ]
    if not files:
        where = f" for split {split!r}" if split else ""
        raise InputError(root.name or str(root), f"no .parquet files{where} in the given folder")
    return files


def _image_source(folder: Path, cell: Any) -> tuple[bytes | None, Path | None]:
    """``(bytes, path)`` of an image cell, exactly one set; ``ValueError`` when unusable."""
    if isinstance(cell, dict):
        data = cell.get("bytes")
        if data:
            return bytes(data), None
        path = cell.get("path")
        if isinstance(path, str) and path.strip():
            return None, safe_join(folder, path.strip())
        raise ValueError("image cell has neither bytes nor a path")
    if isinstance(cell, (bytes, bytearray, memoryview)):
        if not len(cell):
            raise ValueError("image cell is empty")
        return bytes(cell), None
    if isinstance(cell, str) and cell.strip():
        return None, safe_join(folder, cell.strip())
    raise ValueError(f"image cell must be bytes, a path or a {{bytes, path}} struct, got {type(cell).__name__}")


@READERS.register("parquet")
def read_parquet(
    root: str | os.PathLike,
    split: str | None = None,
    limit: int | None = None,
    *,
    name: str = "parquet",
    **options,
) -> SampleStream:
    """Read VQA samples from parquet export(s) (see module docstring for the layout).

    Sample ids are ``<name>/<file stem>/<id column value or row number>``;
    ``name`` (default ``"parquet"``) lets callers use the dataset's own name.
    A file that is not parquet, or lacks a required column, is a per-file
    error; a bad row or image is a per-row error naming ``<file>#<row>``.
    ``options``: see :class:`~clinx.data.readers.base.ReadOptions`.
    """
    import pyarrow.parquet as pq  # heavy import, only when parquet is used

    root = Path(root)
    files = _parquet_files(root, split)
    opts = ReadOptions(**options)

    def produce(stream: SampleStream) -> Iterator[Sample]:
        for path in files:
            try:
                pf = pq.ParquetFile(path)
                columns = set(pf.schema_arrow.names)
            except Exception as exc:  # noqa: BLE001 - pyarrow raises many types for a bad file
                stream.error(InputError(path.name, f"not a readable parquet file ({type(exc).__name__})"))
                continue
            missing = [c for c in _REQUIRED if c not in columns]
            if missing:
                stream.error(InputError(path.name, f"missing required column(s) {', '.join(repr(c) for c in missing)}"))
                continue
            id_col = next((c for c in _ID_COLUMNS if c in columns), None)
            wanted = [*_REQUIRED, *(c for c in ("answer_type", id_col) if c and c in columns)]
            row = -1
            try:
                for batch in pf.iter_batches(batch_size=_BATCH_ROWS, columns=wanted):
                    for record in batch.to_pylist():
                        row += 1
                        sample = stream.sample_from(_parse, record, row, path, id_col, name, split)
                        if sample is not None:
                            yield sample
            except InputError:
                raise  # on_error="raise" from inside stream.sample_from
            except Exception as exc:  # noqa: BLE001 - a corrupt row group ends this file only
                stream.error(InputError(path.name, f"parquet data unreadable after row {row} ({type(exc).__name__})"))

    return SampleStream(name, produce, limit=limit, options=opts)


def _parse(record: dict, row: int, path: Path, id_col: str | None, name: str, split: str | None) -> RecordFields:
    """One parquet row as the fields of a sample (the image as bytes or as a path)."""
    where = f"row {row}"
    raw_id = record.get(id_col) if id_col else None
    key = str(raw_id).strip() if raw_id is not None and str(raw_id).strip() else str(row)
    sid = f"{name}/{path.stem}/{key}"
    question = record.get("question")
    if not isinstance(question, str) or not question.strip():
        raise InputError(sid, f"{path.name} {where}: 'question' must be non-empty text")
    answer = answer_text(record.get("answer"))
    if not answer:
        raise InputError(sid, f"{path.name} {where}: 'answer' must be non-empty text or a number")
    data, image_path = locate_image(
        path.parent, record.get("image"), sid, f"{path.name} {where}", resolve=_image_source
    )
    return RecordFields(
        sid,
        question=question.strip(),
        answer=answer,
        answer_type=record.get("answer_type"),
        image_path=image_path,
        image_bytes=data,
        image_label=f"{path.name}#{row}",
        provenance={
            "split": split,
            "source": path.name,
            "record": row,
            **({id_col: raw_id} if id_col and raw_id is not None else {}),
        },
    )
