"""What every dataset reader shares: the registry, the error-collecting stream, helpers.

Design of a read
----------------
A reader call ``read_<fmt>(root, split=None, limit=None, *, on_error=...)``
checks eagerly that the dataset is there (a wrong ``root`` or a missing split
file raises :class:`~clinx.errors.InputError` at once) and returns a
:class:`SampleStream`: an iterator of :class:`~clinx.records.Sample` that
reads lazily, one record at a time.

A bad *item* (corrupt image, record missing a key, malformed JSONL line) or a
bad *file* among several (one unreadable split file) must not end the whole
read. With ``on_error="collect"`` (the default) the problem is appended to
``stream.errors`` as an :class:`~clinx.errors.ItemError` naming the sample id
or ``file:line``/``file#record`` and the problem, and iteration goes on; the
caller lists ``stream.errors`` in its run summary. With ``on_error="raise"``
the first problem is raised. Records left out on purpose (e.g. non-English
SLAKE questions) are counted in ``stream.skipped``, not reported as errors.

Images are decoded while iterating (``load_images=True``), so a sample that
comes out of the stream is known to be readable (an image path that is a
single-frame DICOM file is rendered through :mod:`clinx.data.dicom`); ``load_images=False`` gives
samples with ``image=None`` and the path in ``provenance["image_path"]``
for cheap listing.
"""

from __future__ import annotations

import os
from collections import Counter, OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Literal, TypeVar

import numpy as np

from clinx.data.images import DEFAULT_MAX_PIXELS, DEFAULT_MIN_SIDE, is_dicom, load_image, load_image_bytes
from clinx.errors import InputError, ItemError
from clinx.records import Manifest, Sample
from clinx.registry import Registry

__all__ = [
    "READERS",
    "SampleStream",
    "ReadOptions",
    "RecordFields",
    "OnError",
    "normalize_answer_type",
    "answer_text",
    "safe_join",
    "require_fields",
    "text_field",
    "nonempty_key",
    "locate_image",
    "qa_record_fields",
    "split_files",
    "load_record_list",
]

#: Dataset readers by format name; each entry is ``read_<fmt>(root, split=None, limit=None, **opts)``.
READERS: Registry[Callable[..., "SampleStream"]] = Registry("reader")

OnError = Literal["collect", "raise"]
_T = TypeVar("_T")

_CLOSED = {"closed", "close", "yes/no", "yes_no", "yesno", "y/n", "binary", "boolean"}
_OPEN = {"open", "open-ended", "open_ended", "other", "number", "free-form", "freeform", "free_form"}


def normalize_answer_type(raw: Any, answer: str) -> str:
    """Map a dataset's answer-type label to ``"closed"``/``"open"``.

    Known labels (``CLOSED``, ``OPEN``, ``yes/no``, ``other``, ``number``…) are
    mapped case-insensitively; a missing or unknown label falls back to the
    answer: ``yes``/``no`` is closed, anything else open.
    """
    if isinstance(raw, str):
        key = raw.strip().lower()
        if key in _CLOSED:
            return "closed"
        if key in _OPEN:
            return "open"
    return "closed" if answer.strip().lower() in ("yes", "no") else "open"


def answer_text(value: Any) -> str | None:
    """A dataset answer as text: strings stripped, numbers formatted, booleans as yes/no.

    Returns ``None`` for values that are not a plain answer (``None``, lists,
    objects), which readers report as a malformed record.
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return None


def safe_join(folder: Path, relative: str) -> Path:
    """``folder / relative``, refusing absolute paths and ``..`` that leave ``folder``.

    Dataset files name their images; a hostile or sloppy file must not make
    the reader open arbitrary files elsewhere on the machine. Symlinks inside
    the folder are allowed (the check is lexical).
    """
    rel = str(relative).replace("\\", "/")
    if not rel or rel.startswith("/") or os.path.isabs(rel) or (len(rel) > 1 and rel[1] == ":"):
        raise ValueError("image path must be relative to the dataset folder")
    joined = os.path.normpath(os.path.join(str(folder), rel))
    base = os.path.normpath(str(folder))
    if os.path.commonpath([joined, base]) != base:
        raise ValueError("image path leaves the dataset folder")
    return Path(joined)


class ReadOptions:
    """Options every reader accepts (kept together so readers pass them on unchanged)."""

    def __init__(
        self,
        *,
        on_error: OnError = "collect",
        load_images: bool = True,
        max_pixels: int = DEFAULT_MAX_PIXELS,
        min_side: int = DEFAULT_MIN_SIDE,
        image_cache: int = 8,
    ):
        if on_error not in ("collect", "raise"):
            raise ValueError(f"on_error must be 'collect' or 'raise', got {on_error!r}")
        self.on_error = on_error
        self.load_images = load_images
        self.max_pixels = max_pixels
        self.min_side = min_side
        self.image_cache = image_cache


@dataclass
class RecordFields:
    """One dataset record, checked and parsed by a reader, ready to become a :class:`Sample`.

    Readers differ in how a record looks on disk; once parsed, every reader
    hands the same things to :meth:`SampleStream.sample_from`.
    """

    sample_id: str
    question: str
    answer: str
    provenance: dict
    #: The dataset's own answer-type label (or ``None``); see :func:`normalize_answer_type`.
    answer_type: Any = None
    image_path: Path | None = None
    image_bytes: bytes | None = None
    #: How an image given as bytes is named in error messages (a path names itself).
    image_label: str = ""
    manifest: Manifest | None = None


class SampleStream(Iterator[Sample]):
    """An iterator of :class:`Sample` that collects per-item problems instead of stopping.

    Attributes, filled while iterating:

    * ``errors`` — :class:`~clinx.errors.ItemError` per bad item or file;
    * ``skipped`` — :class:`collections.Counter` of records left out on purpose;
    * ``n_yielded`` — samples produced so far.

    ``limit`` caps the number of samples yielded (errors do not count).
    Sample ids are unique within a stream: a repeated id is reported as an
    error and the later record dropped, because ids key resumable runs.
    """

    def __init__(
        self,
        dataset: str,
        produce: Callable[["SampleStream"], Iterator[Sample]],
        *,
        limit: int | None = None,
        options: ReadOptions | None = None,
    ):
        if limit is not None and limit < 0:
            raise ValueError("limit must be >= 0")
        self.dataset = dataset
        self.options = options or ReadOptions()
        self.limit = limit
        self.errors: list[ItemError] = []
        self.skipped: Counter = Counter()
        self.n_yielded = 0
        self._seen: set[str] = set()
        self._images: OrderedDict[str, np.ndarray | InputError] = OrderedDict()
        self._gen = produce(self)

    # -- iteration ---------------------------------------------------------
    def __iter__(self) -> "SampleStream":
        return self

    def __next__(self) -> Sample:
        if self.limit is not None and self.n_yielded >= self.limit:
            self._gen.close()
            raise StopIteration
        while True:
            sample = next(self._gen)  # StopIteration ends the stream
            if sample.id in self._seen:
                self.error(ItemError(sample.id, "duplicate sample id; later record dropped", stage="read"))
                continue
            self._seen.add(sample.id)
            self.n_yielded += 1
            return sample

    def collect(self) -> list[Sample]:
        """All (remaining) samples as a list; errors stay in ``self.errors``."""
        return list(self)

    # -- used by readers ---------------------------------------------------
    def error(self, err: ItemError) -> None:
        """Record a per-item/per-file problem, or raise it when ``on_error="raise"``."""
        if not err.stage:
            # Rebuild rather than set .stage: the message text is fixed at init.
            err = type(err)(err.item, err.problem, stage="read")
        if self.options.on_error == "raise":
            raise err
        self.errors.append(err)

    def load(self, sample_id: str, *, path: Path | None = None, data: bytes | None = None, label: str = "") -> np.ndarray | None:
        """Decode a sample's image from a file or bytes; on failure record an error and return ``None``.

        Decoded images of recent paths are cached (several questions usually
        share one image) and handed out as copies, so a consumer drawing on
        one sample cannot change another.
        """
        opts = self.options
        try:
            if data is not None:
                return load_image_bytes(data, item=label or sample_id, max_pixels=opts.max_pixels, min_side=opts.min_side)
            assert path is not None
            key = str(path)
            cached = self._images.get(key)
            if cached is None:
                try:
                    cached = self._decode_file(path, label or path.name)
                except InputError as exc:
                    cached = exc
                if opts.image_cache > 0:
                    self._images[key] = cached
                    while len(self._images) > opts.image_cache:
                        self._images.popitem(last=False)
            else:
                self._images.move_to_end(key)
            if isinstance(cached, InputError):
                raise cached
            return cached.copy()
        except InputError as exc:
            self.error(InputError(sample_id, f"image {exc.item}: {exc.problem}", stage="read"))
            return None

    def _decode_file(self, path: Path, label: str) -> np.ndarray:
        """A raster image, or a single-frame DICOM rendered for display."""
        opts = self.options
        if is_dicom(path):
            from clinx.data.dicom import read_dicom  # pydicom only when a dataset has DICOM

            dcm = read_dicom(path, frame=None, max_pixels=opts.max_pixels, min_side=opts.min_side, item=label)
            if len(dcm.frames) != 1:
                # One question is about one image; silently picking a frame
                # of a series would pair the question with the wrong picture.
                raise InputError(label, f"multi-frame DICOM ({len(dcm.frames)} frames) where one image is expected")
            return dcm.frames[0]
        return load_image(path, max_pixels=opts.max_pixels, min_side=opts.min_side, item=label)

    def sample_from(self, parse: Callable[..., RecordFields | None], *args: Any) -> Sample | None:
        """The :class:`Sample` of one record parsed by ``parse(*args)``, or ``None``.

        ``parse`` raises :class:`~clinx.errors.InputError` for a malformed
        record (recorded as an error here, or raised with ``on_error="raise"``)
        and returns ``None`` for a record left out on purpose. ``None`` is
        also returned when the record's image is unusable (see :meth:`make`).
        """
        try:
            fields = parse(*args)
        except InputError as err:
            self.error(err)
            return None
        if fields is None:
            return None
        return self.make(
            fields.sample_id,
            question=fields.question,
            answer=fields.answer,
            answer_type=normalize_answer_type(fields.answer_type, fields.answer),
            provenance=fields.provenance,
            image_path=fields.image_path,
            image_bytes=fields.image_bytes,
            image_label=fields.image_label,
            manifest=fields.manifest,
        )

    def make(
        self,
        sample_id: str,
        *,
        question: str,
        answer: str,
        answer_type: str,
        provenance: dict,
        image_path: Path | None = None,
        image_bytes: bytes | None = None,
        image_label: str = "",
        manifest: Manifest | None = None,
    ) -> Sample | None:
        """Build a :class:`Sample`, loading its image unless ``load_images`` is off.

        Returns ``None`` (after recording the error) when the image is unusable.
        """
        prov = {"dataset": self.dataset, **provenance}
        if image_path is not None:
            prov["image_path"] = str(image_path)
        image = None
        if self.options.load_images:
            image = self.load(sample_id, path=image_path, data=image_bytes, label=image_label)
            if image is None:
                return None
        return Sample(
            id=sample_id,
            image=image,
            question=question,
            answer=answer,
            answer_type=answer_type,
            manifest=manifest or Manifest(),
            provenance=prov,
        )


def require_fields(record: Any, keys: tuple[str, ...], item: str, where: str) -> dict:
    """Check ``record`` is an object holding ``keys`` with non-null values; else raise InputError.

    The message names the missing key(s) and the place — never a value.
    """
    if not isinstance(record, dict):
        raise InputError(item, f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [k for k in keys if record.get(k) is None]
    if missing:
        raise InputError(item, f"{where}: missing required key(s) {', '.join(repr(k) for k in missing)}")
    return record


def text_field(record: dict, key: str, item: str, where: str, *, allow_number: bool = False) -> str:
    """A non-empty text value of ``record[key]`` (numbers accepted for answers)."""
    value = record.get(key)
    text = answer_text(value) if allow_number else (value.strip() if isinstance(value, str) else None)
    if text is None:
        raise InputError(item, f"{where}: {key!r} must be {'text or a number' if allow_number else 'text'}, got {type(value).__name__}")
    if not text:
        raise InputError(item, f"{where}: {key!r} is empty")
    return text


def nonempty_key(record: dict, key: str, item: str, where: str) -> str:
    """``record[key]`` as stripped text (ids may be numbers); InputError when that is empty."""
    value = str(record[key]).strip()
    if not value:
        raise InputError(item, f"{where}: {key!r} is empty")
    return value


def locate_image(
    folder: Path,
    ref: Any,
    sample_id: str,
    where: str,
    resolve: Callable[[Path, Any], _T] = safe_join,
) -> _T:
    """Where a record's image is: ``resolve(folder, ref)``, :func:`safe_join` by default.

    Readers with their own way of naming images pass their own ``resolve``
    (which may return more than a path, e.g. parquet's ``(bytes, path)``).
    A reference that ``resolve`` refuses with ``ValueError`` (absolute, leaving
    the folder, unusable) becomes an :class:`~clinx.errors.InputError` naming
    the sample and the record.
    """
    try:
        return resolve(folder, ref)
    except ValueError as exc:
        raise InputError(sample_id, f"{where}: {exc}") from None


def split_files(
    root: Path,
    split: str | None,
    relpaths: dict[str, str],
    *,
    dataset: str,
    aliases: dict[str, str] | None = None,
    none_found: str,
) -> list[tuple[str, Path]]:
    """``(split, file)`` pairs to read for a dataset released as one file per split.

    ``relpaths`` maps each split name to its file relative to ``root``, in
    reading order. A named ``split`` (or an alias of one) must exist: an
    unknown name is a ``ValueError``, a missing file an
    :class:`~clinx.errors.InputError` at once. ``split=None`` reads every
    split file present and fails with ``none_found`` when there is none.
    """
    if split is not None:
        split = (aliases or {}).get(split, split)
        if split not in relpaths:
            raise ValueError(f"unknown {dataset} split {split!r}; known: {', '.join(relpaths)}")
        path = root / relpaths[split]
        if not path.is_file():
            raise InputError(relpaths[split], f"{dataset} split file not found in the given folder")
        return [(split, path)]
    files = [(name, root / rel) for name, rel in relpaths.items() if (root / rel).is_file()]
    if not files:
        raise InputError(root.name or str(root), none_found)
    return files


def load_record_list(stream: SampleStream, path: Path, load: Callable[[Path], Any], kind: str) -> list | None:
    """The list of records ``load(path)`` returns, or ``None`` after recording why there is none.

    A file that cannot be read, or holds something other than a list, is a
    per-file error: the stream goes on with the next file. ``kind`` names
    the format in the message (``"a JSON"``, ``"a pickled"``).
    """
    try:
        records = load(path)
    except InputError as err:
        stream.error(err)
        return None
    if not isinstance(records, list):
        stream.error(InputError(path.name, f"expected {kind} list of records, got {type(records).__name__}"))
        return None
    return records


def qa_record_fields(
    record: dict,
    sample_id: str,
    where: str,
    *,
    image_key: str,
    image_dir: Path,
    provenance: dict,
    meta: tuple[str, ...] = (),
) -> RecordFields:
    """The fields of a JSON-released VQA record (SLAKE, VQA-RAD): question, answer, image name.

    ``question`` and ``answer`` (text or a number) are required, the image
    file is ``record[image_key]`` inside ``image_dir`` and ``answer_type``
    is the dataset's label. The provenance is ``provenance`` followed by the
    image name and the descriptive ``meta`` keys the record holds as text.
    """
    question = text_field(record, "question", sample_id, where)
    answer = text_field(record, "answer", sample_id, where, allow_number=True)
    image_name = text_field(record, image_key, sample_id, where)
    return RecordFields(
        sample_id,
        question=question,
        answer=answer,
        answer_type=record.get("answer_type"),
        image_path=locate_image(image_dir, image_name, sample_id, where),
        provenance={
            **provenance,
            "image": image_name,
            **{k: record[k] for k in meta if isinstance(record.get(k), str)},
        },
    )
