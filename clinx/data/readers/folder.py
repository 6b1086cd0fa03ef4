"""A plain folder of images and DICOM files — what a custodian usually has to sanitize.

Every raster image (by suffix) and every DICOM file (by ``.dcm``/``.dicom``
suffix or the ``DICM`` magic, so suffix-less exports are found too) under
``root`` becomes a :class:`~clinx.records.Sample` with no question/answer.
A multi-frame DICOM gives one sample per frame (ids ``…#<frame>``), so each
frame is sanitized and verified on its own. Hidden files (names starting with
``.``, which includes clinx's own in-progress temp files) are ignored; other
files are counted in ``stream.skipped["not_image"]``.

Building a manifest from a DICOM header is not done here (that lives in
``clinx.localize.manifests``, above this module); ``provenance["kind"] ==
"dicom"`` and ``provenance["image_path"]`` tell the caller where to look.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

from clinx.data.images import is_dicom
from clinx.data.readers.base import READERS, ReadOptions, SampleStream
from clinx.errors import InputError
from clinx.records import Sample

__all__ = ["read_folder", "IMAGE_SUFFIXES"]

#: Suffixes read as raster images (content still decides; see ``load_image``).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp", ".ppm", ".jp2", ".j2k")


def _walk(folder: Path) -> Iterator[Path]:
    """Files under ``folder`` in a stable order, skipping hidden files and folders."""
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith("."):
                yield Path(dirpath) / name


@READERS.register("folder")
def read_folder(
    root: str | os.PathLike,
    split: str | None = None,
    limit: int | None = None,
    *,
    name: str = "folder",
    **options,
) -> SampleStream:
    """Read every image / DICOM frame under ``root`` (or ``root/<split>``) as a question-less sample.

    Sample ids are ``<name>/<path relative to root>`` plus ``#<frame>`` for
    multi-frame DICOM. With ``load_images=False`` each file gives one sample
    with ``image=None`` (frames are not counted without decoding).
    ``options``: see :class:`~clinx.data.readers.base.ReadOptions`.
    """
    root = Path(root)
    folder = root / split if split is not None else root
    if not folder.is_dir():
        raise InputError(folder.name or str(folder), "image folder not found")
    opts = ReadOptions(**options)

    def produce(stream: SampleStream) -> Iterator[Sample]:
        for path in _walk(folder):
            rel = path.relative_to(folder).as_posix()
            dicom = is_dicom(path)
            if not dicom and path.suffix.lower() not in IMAGE_SUFFIXES:
                stream.skipped["not_image"] += 1
                continue
            sid = f"{name}/{rel}"
            provenance = {"split": split, "source": rel, "kind": "dicom" if dicom else "image"}
            if not dicom or not opts.load_images:
                sample = stream.make(sid, question="", answer="", answer_type="open", provenance=provenance, image_path=path)
                if sample is not None:
                    yield sample
                continue
            from clinx.data.dicom import read_dicom  # pydicom only when the folder has DICOM

            try:
                dcm = read_dicom(path, max_pixels=opts.max_pixels, min_side=opts.min_side, item=rel)
            except InputError as exc:
                stream.error(InputError(sid, exc.problem, stage="read"))
                continue
            multi = len(dcm.frames) > 1
            for index, frame in zip(dcm.frame_indices, dcm.frames):
                yield Sample(
                    id=f"{sid}#{index}" if multi else sid,
                    image=frame,
                    answer_type="open",
                    provenance={
                        "dataset": stream.dataset,
                        **provenance,
                        "image_path": str(path),
                        "frame": index,
                        "n_frames": dcm.n_frames,
                    },
                )

    return SampleStream(name, produce, limit=limit, options=opts)
