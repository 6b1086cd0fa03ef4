"""Dataset readers: one module per on-disk format, all behind the ``READERS`` registry.

Usage::

    from clinx.data.readers import READERS
    stream = READERS.get("vqa_rad")("/data/VQA_RAD", split="test", limit=100)
    samples = list(stream)    # Sample(id="vqa_rad/<qid>", image=RGB uint8, ...)
    stream.errors             # per-item problems (bad image, bad record, ...)

Every reader is ``read_<fmt>(root, split=None, limit=None, *, on_error="collect",
load_images=True, max_pixels=..., min_side=...) -> SampleStream``; see
:mod:`clinx.data.readers.base` for how errors are collected or raised.

Formats: ``vqa_rad``, ``slake``, ``pathvqa``, ``parquet``, ``jsonl`` (datasets with
questions) and ``folder`` (every image / DICOM frame under a folder, no questions).
"""

from __future__ import annotations

from clinx.data.readers.base import (
    READERS,
    ReadOptions,
    SampleStream,
    answer_text,
    normalize_answer_type,
    safe_join,
)
from clinx.data.readers.folder import read_folder
from clinx.data.readers.jsonl import read_jsonl
from clinx.data.readers.parquet import read_parquet
from clinx.data.readers.pathvqa import SafeUnpickler, read_pathvqa, safe_load_pickle
from clinx.data.readers.slake import read_slake
from clinx.data.readers.vqa_rad import read_vqa_rad

__all__ = [
    "READERS",
    "ReadOptions",
    "SampleStream",
    "SafeUnpickler",
    "answer_text",
    "normalize_answer_type",
    "read_dataset",
    "read_folder",
    "read_jsonl",
    "read_parquet",
    "read_pathvqa",
    "read_slake",
    "read_vqa_rad",
    "safe_join",
    "safe_load_pickle",
]


def read_dataset(fmt: str, root, split: str | None = None, limit: int | None = None, **options) -> SampleStream:
    """Read ``root`` with the reader registered as ``fmt`` (a clear error lists known formats)."""
    return READERS.get(fmt)(root, split=split, limit=limit, **options)
