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
from pathlib import Path
from typing import Any, Callable, Iterator, Literal

import numpy as np

from clinx.data.images import DEFAULT_MAX_PIXELS, DEFAULT_MIN_SIDE, is_dicom, load_image, load_image_bytes
from clinx.errors import InputError, ItemError
from clinx.records import Manifest, Sample
from clinx.registry import Registry

__all__ = [
    "READERS",
    "SampleStream",
    "ReadOptions",
    "OnError",
    "normalize_answer_type",
    "answer_text",
    "safe_join",
    "require_fields",
    "text_field",
]

#: Dataset readers by format name; each entry is ``read_<fmt>(root, split=None, limit=None, **opts)``.
READERS: Registry[Callable[..., "SampleStream"]] = Registry("reader")

OnError = Literal["collect", "raise"]

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
