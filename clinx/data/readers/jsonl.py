"""A generic JSONL + image-folder format, for data that is in no public layout.

One JSON object per line::

    {"id": "a1", "image": "imgs/a1.png", "question": "...", "answer": "yes",
     "answer_type": "closed", "manifest": {"patient_name": "...", "mrn": "..."}}

``image``, ``question`` and ``answer`` are required; ``image`` is a path
relative to the JSONL file's folder (absolute paths and ``..`` leaving that
folder are refused). ``id``, ``answer_type`` and ``manifest`` (an object in
:meth:`clinx.records.Manifest.from_dict` form) are optional. Blank lines are
ignored; a UTF-8 BOM at the start is accepted.

``root`` is a ``.jsonl`` file or a folder: with a ``split`` it reads
``<split>.jsonl``, without one every ``*.jsonl`` in the folder (sorted).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from clinx.data.jsonio import iter_jsonl
from clinx.data.readers.base import (
    READERS,
    ReadOptions,
    RecordFields,
    SampleStream,
    locate_image,
    require_fields,
    text_field,
)
from clinx.errors import InputError
from clinx.records import Manifest, Sample

__all__ = ["read_jsonl"]

_REQUIRED = ("image", "question", "answer")


def _jsonl_files(root: Path, split: str | None) -> list[tuple[str | None, Path]]:
    if root.is_file():
        return [(split, root)]
    if not root.is_dir():
        raise InputError(root.name or str(root), "JSONL file or folder not found")
    if split is not None:
        path = root / f"{split}.jsonl"
        if not path.is_file():
            raise InputError(path.name, "JSONL split file not found in the given folder")
        return [(split, path)]
    files = sorted(p for p in root.glob("*.jsonl") if p.is_file())
    if not files:
        raise InputError(root.name or str(root), "no .jsonl files in the given folder")
    return [(p.stem, p) for p in files]


@READERS.register("jsonl")
def read_jsonl(
    root: str | os.PathLike,
    split: str | None = None,
    limit: int | None = None,
    *,
    name: str = "jsonl",
    **options,
) -> SampleStream:
    """Read samples from JSONL file(s) (see module docstring for the format).

    Sample ids are ``<name>/<id>`` when a line has an ``id``, else
    ``<name>/<file stem>/<line number>``. Per-line problems (not UTF-8,
    malformed JSON, missing keys, bad manifest, unreadable image) are errors
    naming ``<file>:<line>`` or the sample id. ``options``: see
    :class:`~clinx.data.readers.base.ReadOptions`.
    """
    root = Path(root)
    files = _jsonl_files(root, split)
    opts = ReadOptions(**options)

    def produce(stream: SampleStream) -> Iterator[Sample]:
        for split_name, path in files:
            try:
                lines = iter_jsonl(path)
                for lineno, value in lines:
                    if isinstance(value, InputError):
                        stream.error(value)
                        continue
                    sample = stream.sample_from(_parse, value, lineno, path, split_name, name)
                    if sample is not None:
                        yield sample
            except InputError as err:
                if opts.on_error == "raise":
                    raise
                stream.error(err)  # the file itself could not be opened

    return SampleStream(name, produce, limit=limit, options=opts)


def _parse(record, lineno: int, path: Path, split: str | None, name: str) -> RecordFields:
    """One JSONL line (already decoded) as the fields of a sample."""
    where = f"line {lineno}"
    item = f"{path.name}:{lineno}"
    require_fields(record, _REQUIRED, item, where)
    raw_id = record.get("id")
    if raw_id is not None and not isinstance(raw_id, (str, int)):
        raise InputError(item, f"{where}: 'id' must be text or an integer")
    sid = f"{name}/{str(raw_id).strip()}" if raw_id is not None and str(raw_id).strip() else f"{name}/{path.stem}/{lineno}"
    question = text_field(record, "question", sid, where)
    answer = text_field(record, "answer", sid, where, allow_number=True)
    image_rel = text_field(record, "image", sid, where)
    image_path = locate_image(path.parent, image_rel, sid, where)
    manifest = Manifest()
    if record.get("manifest") is not None:
        try:
            manifest = Manifest.from_dict(record["manifest"])
        except (TypeError, ValueError, AttributeError):
            raise InputError(sid, f"{where}: 'manifest' must be a JSON object of field -> text") from None
    return RecordFields(
        sid,
        question=question,
        answer=answer,
        answer_type=record.get("answer_type"),
        image_path=image_path,
        manifest=manifest,
        provenance={
            "split": split,
            "source": path.name,
            "line": lineno,
            "image": image_rel,
            **({"original_id": raw_id} if raw_id is not None else {}),
        },
    )
