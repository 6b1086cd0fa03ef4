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
from pathlib import Path
from typing import Iterator

from clinx.data.jsonio import read_json
from clinx.data.readers.base import (
    READERS,
    ReadOptions,
    SampleStream,
    normalize_answer_type,
    require_fields,
    safe_join,
    text_field,
)
from clinx.errors import InputError
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
    if split is not None:
        split = _ALIASES.get(split, split)
        if split not in SLAKE_SPLITS:
            raise ValueError(f"unknown SLAKE split {split!r}; known: {', '.join(SLAKE_SPLITS)}")
        files = [(split, root / SLAKE_SPLITS[split])]
        if not files[0][1].is_file():
            raise InputError(SLAKE_SPLITS[split], "SLAKE split file not found in the given folder")
    else:
        files = [(s, root / f) for s, f in SLAKE_SPLITS.items() if (root / f).is_file()]
        if not files:
            raise InputError(root.name or str(root), f"no SLAKE split file ({', '.join(SLAKE_SPLITS.values())}) in the given folder")
    image_dir = root / "imgs"
    opts = ReadOptions(**options)

    def produce(stream: SampleStream) -> Iterator[Sample]:
        for split_name, path in files:
            try:
                records = read_json(path)
            except InputError as err:
                stream.error(err)
                continue
            if not isinstance(records, list):
                stream.error(InputError(path.name, f"expected a JSON list of records, got {type(records).__name__}"))
                continue
            for index, record in enumerate(records):
                where = f"record {index}"
                item = f"{path.name}#{index}"
                try:
                    require_fields(record, _REQUIRED, item, where)
                    lang = record.get("q_lang")
                    if isinstance(lang, str) and lang.strip().lower() != "en":
                        stream.skipped["non_english"] += 1
                        continue
                    qid = str(record["qid"]).strip()
                    if not qid:
                        raise InputError(item, f"{where}: 'qid' is empty")
                    sid = f"slake/{split_name}/{qid}"
                    question = text_field(record, "question", sid, where)
                    answer = text_field(record, "answer", sid, where, allow_number=True)
                    img_name = text_field(record, "img_name", sid, where)
                    try:
                        image_path = safe_join(image_dir, img_name)
                    except ValueError as exc:
                        raise InputError(sid, f"{where}: {exc}") from None
                except InputError as err:
                    stream.error(err)
                    continue
                provenance = {
                    "split": split_name,
                    "source": path.name,
                    "record": index,
                    "qid": record["qid"],
                    "img_id": record.get("img_id"),
                    "image": img_name,
                    **{k: record[k] for k in _META if isinstance(record.get(k), str)},
                }
                sample = stream.make(
                    sid,
                    question=question,
                    answer=answer,
                    answer_type=normalize_answer_type(record.get("answer_type"), answer),
                    provenance=provenance,
                    image_path=image_path,
                )
                if sample is not None:
                    yield sample

    return SampleStream("slake", produce, limit=limit, options=opts)
