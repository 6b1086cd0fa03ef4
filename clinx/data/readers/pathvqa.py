"""PathVQA (He et al., 2020) in its pickled release format.

Layout::

    <root>/qas/{train,val,test}_vqa.pkl     pickled list of dicts
    <root>/images/{train,val,test}/<img_id>.jpg

Each record has ``img_id, sent (the question), label ({answer: score}),
question_id, answer_type``; the answer is the label with the highest score
(the first one on a tie, in the pickle's order).

**Security.** Unpickling can run arbitrary code. This reader opens only the
files the user points it at, and unpickles them with :class:`SafeUnpickler`,
which refuses every global except a short list of plain data types, so a
tampered file fails with an error instead of running code. Still: only read
PathVQA files from a source you trust.
"""

from __future__ import annotations

import io
import os
import pickle
from pathlib import Path
from typing import Any, Iterator

from clinx.data.readers.base import (
    READERS,
    ReadOptions,
    RecordFields,
    SampleStream,
    load_record_list,
    locate_image,
    nonempty_key,
    require_fields,
    safe_join,
    split_files,
)
from clinx.errors import InputError
from clinx.records import Sample

__all__ = ["read_pathvqa", "SafeUnpickler", "safe_load_pickle", "PATHVQA_SPLITS"]

PATHVQA_SPLITS = ("train", "val", "test")
_ALIASES = {"validate": "val", "validation": "val"}
_REQUIRED = ("img_id", "sent", "label")
_IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")

# Globals a data-only pickle of the PathVQA kind may reference. Plain
# containers/str/int/float need no global at all; these cover the rest
# (ordered dicts, sets, and numpy scalars such as a float64 score).
_ALLOWED_GLOBALS = {
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "complex"),
    ("builtins", "bytearray"),
    ("collections", "OrderedDict"),
    ("numpy", "dtype"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
}


class _Refused(pickle.UnpicklingError):
    """A pickle asked for a global outside the allow-list."""


class SafeUnpickler(pickle.Unpickler):
    """An unpickler that resolves only :data:`_ALLOWED_GLOBALS` (data types, no callables)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise _Refused(f"global '{module}.{name}' is not allowed in a data pickle")


def safe_load_pickle(path: str | os.PathLike, *, item: str | None = None) -> Any:
    """Unpickle ``path`` with :class:`SafeUnpickler`; failures become :class:`InputError`."""
    p = Path(path)
    label = item if item is not None else p.name
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(label, "file not found") from None
    except OSError as exc:
        raise InputError(label, f"file cannot be read ({type(exc).__name__})") from None
    if not data:
        raise InputError(label, "file is empty (0 bytes)")
    try:
        return SafeUnpickler(io.BytesIO(data)).load()
    except _Refused:
        # The global's name comes from the file, so it is not echoed either.
        raise InputError(label, "pickle refused: it references code or a type that is not plain data") from None
    except pickle.UnpicklingError:
        raise InputError(label, "corrupt or truncated pickle (UnpicklingError)") from None
    except (EOFError, ValueError, TypeError, KeyError, IndexError, AttributeError, ImportError, MemoryError, RecursionError) as exc:
        raise InputError(label, f"corrupt or truncated pickle ({type(exc).__name__})") from None


def _best_answer(label: Any) -> str | None:
    """The highest-scoring answer of a ``{answer: score}`` label (a bare string is used as is)."""
    if isinstance(label, str):
        return label.strip() or None
    if not isinstance(label, dict) or not label:
        return None
    best, best_score = None, None
    for answer, score in label.items():
        try:
            s = float(score)
        except (TypeError, ValueError):
            return None
        if best_score is None or s > best_score:  # strict: first wins a tie
            best, best_score = answer, s
    return best.strip() if isinstance(best, str) and best.strip() else None


def _image_path(image_dir: Path, img_id: str) -> Path:
    """The image file of ``img_id``: ``<img_id>.jpg`` (or .jpeg/.png, or the id if it has a suffix)."""
    if Path(img_id).suffix.lower() in _IMAGE_SUFFIXES:
        return safe_join(image_dir, img_id)
    first = safe_join(image_dir, img_id + _IMAGE_SUFFIXES[0])
    for suffix in _IMAGE_SUFFIXES:
        candidate = safe_join(image_dir, img_id + suffix)
        if candidate.is_file():
            return candidate
    return first  # missing: the loader reports "file not found" for the .jpg


@READERS.register("pathvqa")
def read_pathvqa(root: str | os.PathLike, split: str | None = None, limit: int | None = None, **options) -> SampleStream:
    """Read PathVQA from its release folder (pickles unpickled safely — see module docstring).

    ``split`` is ``"train"``, ``"val"``, ``"test"`` or ``None`` for every split
    present. Sample ids are ``pathvqa/<split>/<question_id>`` (the record
    index when a record has no ``question_id``). Raises
    :class:`~clinx.errors.InputError` at once when the requested pickle (or,
    for ``None``, every pickle) is missing. ``options``: see
    :class:`~clinx.data.readers.base.ReadOptions`.
    """
    root = Path(root)
    files = split_files(
        root,
        split,
        {name: f"qas/{name}_vqa.pkl" for name in PATHVQA_SPLITS},
        dataset="PathVQA",
        aliases=_ALIASES,
        none_found="no PathVQA file qas/{train,val,test}_vqa.pkl in the given folder",
    )
    opts = ReadOptions(**options)

    def produce(stream: SampleStream) -> Iterator[Sample]:
        for split_name, path in files:
            records = load_record_list(stream, path, safe_load_pickle, "a pickled")
            image_dir = root / "images" / split_name
            for index, record in enumerate(records or ()):
                sample = stream.sample_from(_parse, record, index, path, split_name, image_dir)
                if sample is not None:
                    yield sample

    return SampleStream("pathvqa", produce, limit=limit, options=opts)


def _parse(record, index: int, path: Path, split: str, image_dir: Path) -> RecordFields:
    """One PathVQA record (the answer is the best-scoring label)."""
    where = f"record {index}"
    require_fields(record, _REQUIRED, f"{path.name}#{index}", where)
    qid = record.get("question_id")
    sid = f"pathvqa/{split}/{qid if qid is not None else index}"
    question = record["sent"].strip() if isinstance(record["sent"], str) else ""
    if not question:
        raise InputError(sid, f"{where}: 'sent' (the question) must be non-empty text")
    answer = _best_answer(record["label"])
    if answer is None:
        raise InputError(sid, f"{where}: 'label' must be a non-empty {{answer: score}} mapping")
    img_id = nonempty_key(record, "img_id", sid, where)
    return RecordFields(
        sid,
        question=question,
        answer=answer,
        answer_type=record.get("answer_type"),
        image_path=locate_image(image_dir, img_id, sid, where, resolve=_image_path),
        provenance={
            "split": split,
            "source": f"qas/{path.name}",
            "record": index,
            "question_id": qid,
            "img_id": img_id,
        },
    )
