"""What a ``clinx sanitize`` run works on: the input tree, item labels, output paths and the items themselves.

* :func:`scan_inputs` walks the input folder without following links and
  returns the image / DICOM files, plus a record (with a reason) of every
  entry it did not take: symbolic links (out of the tree, dangling, to
  folders, or inside it — a link is never followed, so nothing outside the
  input folder is ever read), hidden entries, unsupported types, unreadable
  folders. Nothing is skipped silently.
* Items are named in logs, quarantine records and summaries by
  :func:`item_label`: a stable opaque id (``log.paths: hash``, the default;
  file names can carry patient names) or the escaped relative path
  (``log.paths: relative``).
* :func:`plan_outputs` gives each input its output path: the same relative
  layout (``output.names: keep``) or ``<opaque id>.png|.dcm``
  (``output.names: hash``), refusing names that collide.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from clinx.errors import ClinxError, ConfigError, InputError, ItemError, escape_text
from clinx.records import Manifest, Sample
from clinx.sanitize.core import manifest_digest
from clinx.sanitize.journal import STATE_FILES

__all__ = [
    "IMAGE_SUFFIXES",
    "LOG_PATHS",
    "OUTPUT_NAMES",
    "InputFile",
    "Item",
    "Loaded",
    "item_id",
    "item_label",
    "scan_inputs",
    "plan_outputs",
    "file_item",
    "sample_item",
]

#: Raster suffixes picked up (DICOM is detected by content or suffix). Every one is a format
#: :func:`clinx.data.images.load_image` reads; multi-page files give their first page.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp")
#: ``log.paths`` choices: how items are named in logs and reports.
LOG_PATHS = ("hash", "relative")
#: ``output.names`` choices: how released files are named.
OUTPUT_NAMES = ("keep", "hash")


def item_id(rel: str) -> str:
    """A stable opaque id for the input at relative path ``rel`` (``item-`` + 12 hex digits of its sha256)."""
    return "item-" + hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def item_label(rel: str, log_paths: str = "hash") -> str:
    """How the item at ``rel`` is named in logs and reports under the ``log.paths`` policy."""
    if log_paths not in LOG_PATHS:
        raise ConfigError(f"log.paths must be one of {', '.join(LOG_PATHS)}")
    return item_id(rel) if log_paths == "hash" else escape_text(rel)


@dataclass(frozen=True)
class InputFile:
    """One input file: its path and its path relative to the input folder (POSIX form)."""

    path: Path
    rel: str
    dicom: bool


def _rel(root: Path, p: Path) -> str:
    return p.relative_to(root).as_posix()


def scan_inputs(input_dir: Path) -> tuple[list[InputFile], list[tuple[str, str]]]:
    """Image and DICOM files under ``input_dir`` (recursive, sorted), and ``(rel, reason)`` for every entry not taken.

    Links are never followed (a link out of the tree would release a file
    from elsewhere; a link inside it would release one file twice).
    """
    from clinx.data.images import is_dicom

    root = Path(input_dir)
    files: list[InputFile] = []
    skipped: list[tuple[str, str]] = []
    real_root = root.resolve()

    def onerror(exc: OSError) -> None:
        where = Path(exc.filename) if getattr(exc, "filename", None) else root
        try:
            rel = _rel(root, where)
        except ValueError:
            rel = "."
        skipped.append((rel, f"folder cannot be read ({type(exc).__name__})"))

    for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=onerror):
        here = Path(dirpath)
        dirnames.sort()
        keep_dirs = []
        for d in dirnames:
            p = here / d
            rel = _rel(root, p)
            if os.path.islink(p):
                skipped.append((rel, "link to a folder (not followed)"))
            elif d.startswith("."):
                skipped.append((rel, "hidden folder"))
            else:
                keep_dirs.append(d)
        dirnames[:] = keep_dirs
        for name in sorted(filenames):
            p = here / name
            rel = _rel(root, p)
            try:
                st = os.lstat(p)
            except OSError as exc:
                skipped.append((rel, f"file cannot be accessed ({type(exc).__name__})"))
                continue
            if stat.S_ISLNK(st.st_mode):
                try:
                    target = p.resolve(strict=True)
                except (OSError, RuntimeError):
                    skipped.append((rel, "dangling symbolic link"))
                    continue
                try:
                    target.relative_to(real_root)
                    skipped.append((rel, "symbolic link (not followed)"))
                except ValueError:
                    skipped.append((rel, "symbolic link out of the input folder (not followed)"))
                continue
            if name.startswith("."):
                skipped.append((rel, "hidden file"))
                continue
            if not stat.S_ISREG(st.st_mode):
                skipped.append((rel, "not a regular file"))
                continue
            suffix = p.suffix.lower()
            if suffix in IMAGE_SUFFIXES:
                files.append(InputFile(p, rel, False))
            elif is_dicom(p):
                files.append(InputFile(p, rel, True))
            else:
                skipped.append((rel, f"unsupported file type ({escape_text(suffix) or 'no suffix'})"))
    files.sort(key=lambda f: f.rel)
    return files, skipped


def plan_outputs(files: Sequence[InputFile], output_dir: Path, names: str = "keep") -> dict[str, Path | None]:
    """Output path per input ``rel``; ``None`` where the name collides (the item is then refused).

    ``keep``: same relative layout, PNG for raster images, DICOM kept as DICOM
    (``scan.jpg`` → ``scan.png``; when two inputs would land on one output,
    both keep their full name: ``scan.jpg.png``). ``hash``: ``<item id>.png``
    or ``<item id>.dcm`` in ``output_dir``. Outputs never take the name of a
    state file (journal, quarantine list, summary).
    """
    if names not in OUTPUT_NAMES:
        raise ConfigError(f"output.names must be one of {', '.join(OUTPUT_NAMES)}")
    first: dict[str, str] = {}
    for f in files:
        if names == "hash":
            first[f.rel] = item_id(f.rel) + (".dcm" if f.dicom else ".png")
            continue
        rel = Path(f.rel)
        if f.dicom:
            first[f.rel] = f.rel if rel.suffix.lower() in (".dcm", ".dicom") else f.rel + ".dcm"
        else:
            first[f.rel] = rel.with_suffix(".png").as_posix()
    counts = Counter(first.values())
    for f in files:
        if counts[first[f.rel]] > 1 and not f.dicom:
            first[f.rel] = f.rel + ".png"
    counts = Counter(v.lower() for v in first.values())  # case-insensitive file systems merge names too
    out: dict[str, Path | None] = {}
    for rel, o in first.items():
        if counts[o.lower()] > 1 or o in STATE_FILES:
            out[rel] = None
        else:
            out[rel] = output_dir / o
    return out


@dataclass
class Loaded:
    """An item's decoded frames, its manifest (``None`` = no manifest) and, for DICOM, its header."""

    frames: list[np.ndarray]
    manifest: Manifest | None
    dataset: object | None = None  # pydicom Dataset for DICOM inputs


@dataclass
class Item:
    """One unit of work: a file or a sample, its safe label, where it goes and how to load it.

    ``key_parts()`` gives the input side of the resume key (relative path,
    input digest, manifest digest); ``out_path`` is ``None`` when the output
    name was refused (the item is quarantined at the write stage).
    """

    id: str
    out_path: Path | None
    key_parts: Callable[[], str]
    load: Callable[[], Loaded]
    src_path: Path | None = None
    refused: str = ""
    rel: str = ""  # relative input path or sample id: keys ``RunSummary.outputs`` (in memory only, never logged)


def file_item(f: InputFile, label: str, out_path: Path | None, manifests, max_pixels: int) -> Item:
    """The :class:`Item` for an input file (``manifests``: a :class:`clinx.localize.manifests.ManifestSource`)."""
    from clinx.data.guards import file_digest
    from clinx.data.images import load_image

    def key_parts() -> str:
        return "\x00".join(("file", f.rel, file_digest(f.path), manifests.digest(f.rel)))

    def load() -> Loaded:
        dataset = None
        if f.dicom:
            from clinx.data.dicom import read_dicom

            dcm = read_dicom(f.path, max_pixels=max_pixels, item=label)
            frames, dataset = list(dcm.frames), dcm.dataset
        else:
            frames = [load_image(f.path, max_pixels=max_pixels, item=label)]
        if not frames:
            raise InputError(label, "no image frames", stage="read")
        try:
            manifest = manifests.load(f.rel, dataset, label=label)
        except ItemError as e:
            e.stage = e.stage or "manifest"
            raise
        return Loaded(frames, manifest, dataset)

    refused = "" if out_path is not None else "the output name collides with another output or a state file"
    return Item(label, out_path, key_parts, load, src_path=f.path, refused=refused, rel=f.rel)


def sample_item(sample: Sample, output_dir: Path) -> Item:
    """The :class:`Item` for an in-memory benchmark sample (output ``<id>.png``; ids are dataset ids, not file names)."""
    sid = str(sample.id)
    rel = Path(sid)
    if not sid or rel.is_absolute() or ".." in rel.parts or escape_text(sid) != sid:
        raise ClinxError("sample ids must be relative names without '..' or control characters")
    out_path = output_dir / (sid + ".png")

    def key_parts() -> str:
        from clinx.records import image_digest

        if sample.image is None:
            return "no-image"
        return "\x00".join(("sample", sid, image_digest(np.asarray(sample.image)), manifest_digest(sample.manifest)))

    def load() -> Loaded:
        if sample.image is None:
            raise InputError(sid, "sample has no image", stage="read")
        from clinx.records import as_rgb

        try:
            img = as_rgb(np.asarray(sample.image))
        except (TypeError, ValueError) as exc:
            raise InputError(sid, f"sample image is not a uint8 RGB array ({type(exc).__name__})", stage="read") from None
        return Loaded([img], sample.manifest)

    refused = "the output name is a state file's name" if out_path.name in STATE_FILES else ""
    return Item(sid, out_path if not refused else None, key_parts, load, refused=refused, rel=sid)
