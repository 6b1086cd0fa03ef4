"""SLAKE (Liu et al., 2021) as released: one JSON list per split plus an image tree.

Layout::

    <root>/train.json  <root>/validate.json  <root>/test.json
    <root>/imgs/<img_name>            e.g. imgs/xmlab102/source.jpg

Records have ``img_name, question, answer, q_lang ("en"/"zh"), answer_type
("CLOSED"/"OPEN"), modality, location, content_type, qid, img_id, …``.
Only English questions are kept (clinx's text tools are English); the others
are counted in ``stream.skipped["non_english"]``.
"""

from __future__ import annotations

import os
from collections import Counter
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
    split_files,
)
from clinx.records import Sample

__all__ = ["read_slake", "SLAKE_SPLITS"]

#: split name -> file; ``val`` is accepted as an alias of SLAKE's ``validate``.
SLAKE_SPLITS = {"train": "train.json", "validate": "validate.json", "test": "test.json"}
_ALIASES = {"val": "validate", "validation": "validate"}
_REQUIRED = ("qid", "img_name", "question", "answer")
_META = ("modality", "location", "content_type", "base_type")


@READERS.register("slake")
def read_slake(root: str | os.PathLike, split: str | None = None, limit: int | None = None, **options) -> SampleStream:
    """Read SLAKE's English questions from its release folder.

    ``split`` is ``"train"``, ``"validate"`` (alias ``"val"``), ``"test"`` or
    ``None`` for every split file present. Sample ids are
    ``slake/<split>/<qid>``. Raises :class:`~clinx.errors.InputError` at once
    if the requested split file (or, for ``None``, every split file) is
    missing. ``options``: see :class:`~clinx.data.readers.base.ReadOptions`.
    """
    root = Path(root)
    files = split_files(
        root,
        split,
        SLAKE_SPLITS,
        dataset="SLAKE",
        aliases=_ALIASES,
        none_found=f"no SLAKE split file ({', '.join(SLAKE_SPLITS.values())}) in the given folder",
    )
    image_dir = root / "imgs"
    opts = ReadOptions(**options)

    def produce(stream: SampleStream) -> Iterator[Sample]:
        for split_name, path in files:
            records = load_record_list(stream, path, read_json, "a JSON")
            for index, record in enumerate(records or ()):
                sample = stream.sample_from(_parse, record, index, path, split_name, image_dir, stream.skipped)
                if sample is not None:
                    yield sample

    return SampleStream("slake", produce, limit=limit, options=opts)


def _parse(record, index: int, path: Path, split: str, image_dir: Path, skipped: Counter) -> RecordFields | None:
    """One SLAKE record; ``None`` (counted in ``skipped``) for a non-English question."""
    where = f"record {index}"
    item = f"{path.name}#{index}"
    require_fields(record, _REQUIRED, item, where)
    lang = record.get("q_lang")
    if isinstance(lang, str) and lang.strip().lower() != "en":
        skipped["non_english"] += 1
        return None
    sid = f"slake/{split}/{nonempty_key(record, 'qid', item, where)}"
    provenance = {
        "split": split,
        "source": path.name,
        "record": index,
        "qid": record["qid"],
        "img_id": record.get("img_id"),
    }
    return qa_record_fields(
        record, sid, where, image_key="img_name", image_dir=image_dir, provenance=provenance, meta=_META
    )
