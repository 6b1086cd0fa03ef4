"""VQA-RAD (Lau et al., 2018) as released: one JSON file plus an image folder.

Layout::

    <root>/VQA_RAD Dataset Public.json      list of records
    <root>/VQA_RAD Image Folder/<image_name>

Each record has ``qid, image_name, image_organ, question, answer,
answer_type ("CLOSED"/"OPEN"), question_type, phrase_type, …``. There is no
split field; the conventional test set is the records whose ``phrase_type``
starts with ``test`` (``test_freeform``, ``test_para``), everything else is
train.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from clinx.data.jsonio import read_json
from clinx.data.readers.base import (
    READERS,
    ReadOptions,
    RecordFields,
    SampleStream,
    load_record_list,
    nonempty_key,
    qa_record_fields,
    require_fields,
)
from clinx.errors import InputError
from clinx.records import Sample

__all__ = ["read_vqa_rad", "VQA_RAD_JSON", "VQA_RAD_IMAGES", "VQA_RAD_SPLITS"]

VQA_RAD_JSON = "VQA_RAD Dataset Public.json"
VQA_RAD_IMAGES = "VQA_RAD Image Folder"
VQA_RAD_SPLITS = ("train", "test")

_REQUIRED = ("qid", "image_name", "question", "answer")
# Non-PHI descriptive fields carried into provenance for analysis by organ/type.
_META = ("image_organ", "question_type", "phrase_type", "evaluation")


def _split_of(record: dict) -> str:
    phrase = str(record.get("phrase_type") or "").strip().lower()
    return "test" if phrase.startswith("test") else "train"


@READERS.register("vqa_rad")
def read_vqa_rad(root: str | os.PathLike, split: str | None = None, limit: int | None = None, **options) -> SampleStream:
    """Read VQA-RAD from its release folder (or directly from its JSON file).

    ``split`` is ``"train"``, ``"test"`` or ``None`` (all). Sample ids are
    ``vqa_rad/<qid>``. ``options`` are those of
    :class:`~clinx.data.readers.base.ReadOptions` (``on_error``,
    ``load_images``, ``max_pixels``, ``min_side``). Raises
    :class:`~clinx.errors.InputError` at once if the JSON file is missing.
    """
    if split is not None and split not in VQA_RAD_SPLITS:
        raise ValueError(f"unknown VQA-RAD split {split!r}; known: {', '.join(VQA_RAD_SPLITS)}")
    root = Path(root)
    json_path = root if root.is_file() else root / VQA_RAD_JSON
    folder = json_path.parent
    if not json_path.is_file():
        raise InputError(json_path.name, f"VQA-RAD file not found in the given folder (expected {VQA_RAD_JSON!r})")
    image_dir = folder / VQA_RAD_IMAGES
    if not image_dir.is_dir():
        image_dir = folder  # flattened copies keep images beside the JSON
    opts = ReadOptions(**options)

    def produce(stream: SampleStream) -> Iterator[Sample]:
        records = load_record_list(stream, json_path, read_json, "a JSON")
        for index, record in enumerate(records or ()):
            sample = stream.sample_from(_parse, record, index, json_path, split, image_dir)
            if sample is not None:
                yield sample

    return SampleStream("vqa_rad", produce, limit=limit, options=opts)


def _parse(record, index: int, json_path: Path, split: str | None, image_dir: Path) -> RecordFields | None:
    """One VQA-RAD record; ``None`` when it belongs to another split than the one asked for."""
    where = f"record {index}"
    item = f"{json_path.name}#{index}"
    require_fields(record, _REQUIRED, item, where)
    rec_split = _split_of(record)
    if split is not None and rec_split != split:
        return None
    sid = f"vqa_rad/{nonempty_key(record, 'qid', item, where)}"
    provenance = {"split": rec_split, "source": json_path.name, "record": index, "qid": record["qid"]}
    return qa_record_fields(
        record, sid, where, image_key="image_name", image_dir=image_dir, provenance=provenance, meta=_META
    )
