"""Raster image I/O that fails closed.

Every image that enters clinx goes through :func:`load_image` (or
:func:`load_any`, which also routes DICOM files to :mod:`clinx.data.dicom`),
and every image clinx writes goes through :func:`save_image_atomic`.

Why this module is strict:

* A truncated or corrupt file must never reach the sanitizer half-decoded:
  Pillow happily returns partially decoded images when asked lazily, so we
  force a full decode (and a structural ``verify`` pass, which is what catches
  a PNG cut off after its last data chunk).
* Sizes are checked from the *header*, before any pixel is decoded, so a
  20000×20000 "decompression bomb" costs a few bytes of reading, not gigabytes.
* Errors are :class:`~clinx.errors.InputError` naming the item (a file name,
  never a full path or any file content) and a problem a user can act on.
  Messages from the underlying library are *not* echoed: some of them quote
  paths or metadata, which can carry PHI.
* Writes go to a temporary file in the destination folder followed by
  ``os.replace``, so a crash leaves either the old file or the new one, never a
  torn one; and an output path that is the input file is refused.
"""

from __future__ import annotations

import io
import os
import struct
import warnings
from pathlib import Path
from typing import BinaryIO

import numpy as np
from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from clinx.errors import InputError

from .guards import (
    DEFAULT_MAX_PIXELS,
    DEFAULT_MIN_SIDE,
    atomic_write,
    check_file,
    check_size,
    ensure_not_input,
    item_label,
)

__all__ = [
    "DEFAULT_MAX_PIXELS",
    "DEFAULT_MIN_SIDE",
    "READ_FORMATS",
    "load_image",
    "load_image_bytes",
    "load_any",
    "is_dicom",
    "save_image_atomic",
    "ensure_not_input",
    "to_uint8_rgb",
]

#: Suffixes treated as DICOM even when the 128-byte preamble is missing.
DICOM_SUFFIXES = (".dcm", ".dicom")

#: Pillow formats ``load_image`` opens. Not "everything Pillow knows": some
#: plugins hand the file to external programs (EPS runs Ghostscript) or parse
#: rarely exercised legacy formats; medical/VQA data comes in these.
READ_FORMATS = ("PNG", "JPEG", "TIFF", "BMP", "GIF", "WEBP", "PPM", "JPEG2000")

# Pillow format names for the suffixes we write.
_SAVE_FORMATS = {
    ".png": "PNG",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".tif": "TIFF",
    ".tiff": "TIFF",
    ".bmp": "BMP",
    ".webp": "WEBP",
}


def to_uint8_rgb(im: Image.Image) -> np.ndarray:
    """Convert a decoded Pillow image of any common mode to ``uint8`` RGB ``(H, W, 3)``.

    * 8-bit modes (``1``, ``L``, ``P``, ``LA``, ``RGBA``, ``CMYK``, ``YCbCr``…)
      are converted by Pillow; alpha is dropped, not composited, because the
      colour under a transparent pixel is still image content.
    * High-bit-depth modes (``I;16*``, ``I``, ``F``) are min–max stretched to
      0–255: medical 16-bit PNG/TIFF exports usually use 10–12 of the 16 bits,
      so scaling by the container depth would give an almost black image.
      A constant image keeps its value (clipped to 0–255).
    """
    mode = im.mode
    if mode.startswith("I;16") or mode in ("I", "F"):
        arr = np.asarray(im)
        if arr.ndim != 2:
            raise ValueError(f"unexpected array shape {arr.shape} for mode {mode}")
        a = arr.astype(np.float64, copy=False)
        finite = np.isfinite(a)
        if not finite.any():
            gray = np.zeros(a.shape, np.uint8)
        else:
            lo, hi = float(a[finite].min()), float(a[finite].max())
            a = np.where(finite, a, lo)
            if hi > lo:
                gray = np.rint((a - lo) * (255.0 / (hi - lo))).astype(np.uint8)
            else:
                gray = np.full(a.shape, np.clip(lo, 0, 255), np.uint8)
        return np.repeat(gray[:, :, None], 3, axis=2)
    if mode != "RGB":
        im = im.convert("RGB")
    arr = np.asarray(im, dtype=np.uint8)
    if arr.ndim != 3 or arr.shape[2] != 3:
        raise ValueError(f"conversion gave shape {arr.shape}")
    return np.ascontiguousarray(arr)


def _decode(open_source, item: str, max_pixels: int, min_side: int) -> np.ndarray:
    """Open, size-check, verify, fully decode and convert one image.

    ``open_source`` is a zero-argument callable returning a fresh binary
    stream: ``verify()`` leaves a Pillow image unusable, so the image is opened
    twice (both opens read only the header until ``load``).
    """
    if ImageFile.LOAD_TRUNCATED_IMAGES:
        # Someone flipped Pillow's global switch; truncated files would then
        # decode "successfully" with grey fill. We cannot change a process-wide
        # setting safely from here, so refuse rather than pass bad pixels on.
        raise InputError(item, "PIL.ImageFile.LOAD_TRUNCATED_IMAGES is enabled; refusing to decode")
    with warnings.catch_warnings():
        # Our own max_pixels check below replaces Pillow's bomb warning
        # (its *error*, beyond 2x its global limit, is still raised and
        # mapped). Plugin warnings about odd metadata are per-file noise
        # that can quote metadata, so they are silenced as well.
        warnings.simplefilter("ignore")
        try:
            with open_source() as fp, Image.open(fp, formats=READ_FORMATS) as im:
                width, height = im.size
                check_size(width, height, item, max_pixels, min_side)
                im.verify()  # structure and checksums (catches PNG missing its end)
            with open_source() as fp, Image.open(fp, formats=READ_FORMATS) as im:
                im.load()  # force the full decode: truncated data fails here
                try:
                    im = ImageOps.exif_transpose(im)
                except Exception as exc:  # noqa: BLE001 - any EXIF parser failure
                    # Pixels are fine but we cannot tell which way is up; a
                    # wrongly rotated image would misplace masks, so refuse.
                    raise InputError(item, f"unreadable EXIF orientation metadata ({type(exc).__name__})") from None
                try:
                    return to_uint8_rgb(im)
                except ValueError:
                    raise InputError(item, f"unsupported image mode {im.mode!r}") from None
        except InputError:
            raise
        except Image.DecompressionBombError:
            raise InputError(item, "image is too large; refused as a possible decompression bomb") from None
        except UnidentifiedImageError:
            raise InputError(item, "not a recognised image format (corrupt, not an image, or a format clinx does not read)") from None
        except MemoryError:
            raise InputError(item, "not enough memory to decode the image") from None
        except (OSError, SyntaxError, ValueError, TypeError, EOFError, IndexError, KeyError, struct.error) as exc:
            # Pillow signals truncation/corruption with a zoo of exception
            # types (struct.error from plugins reading short headers); name
            # the type but not the message (it can quote paths or metadata).
            raise InputError(item, f"corrupt or truncated image ({type(exc).__name__})") from None
        except Exception as exc:  # noqa: BLE001 - fail closed: no decoder failure may escape as a crash
            raise InputError(item, f"unreadable image ({type(exc).__name__})") from None


def load_image(
    path: str | os.PathLike,
    *,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    min_side: int = DEFAULT_MIN_SIDE,
    item: str | None = None,
) -> np.ndarray:
    """Load a raster image file as ``uint8`` RGB ``(H, W, 3)``.

    EXIF orientation is applied. Modes are converted as described in
    :func:`to_uint8_rgb`. Multi-page files (TIFF, GIF) give their first page.
    Only the formats in :data:`READ_FORMATS` are opened.

    Raises :class:`~clinx.errors.InputError` (``item`` = ``item`` or the file
    name) when the file is missing or empty, is not an image, is corrupt or
    truncated (a full decode is forced), has a side below ``min_side``, or has
    more than ``max_pixels`` pixels — checked from the header before decoding.
    Pillow's own decompression-bomb error also becomes an ``InputError``.
    """
    p = Path(path)
    label = item_label(p, item)
    check_file(p, label)
    return _decode(lambda: open(p, "rb"), label, max_pixels, min_side)


def load_image_bytes(
    data: bytes,
    *,
    item: str,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    min_side: int = DEFAULT_MIN_SIDE,
) -> np.ndarray:
    """Like :func:`load_image` for an encoded image held in memory (e.g. a parquet cell)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise InputError(item, f"image bytes expected, got {type(data).__name__}")
    if len(data) == 0:
        raise InputError(item, "image is empty (0 bytes)")
    buf = bytes(data)
    return _decode(lambda: io.BytesIO(buf), item, max_pixels, min_side)


def is_dicom(path: str | os.PathLike) -> bool:
    """True when ``path`` looks like DICOM: ``DICM`` at byte 128, or a ``.dcm``/``.dicom`` suffix.

    The suffix rule lets files written without the 128-byte preamble (old
    ACR-NEMA style exports) reach the DICOM reader, which then decides.
    Unreadable or missing files give ``False`` unless the suffix says DICOM.
    """
    p = Path(path)
    if p.suffix.lower() in DICOM_SUFFIXES:
        return True
    try:
        with open(p, "rb") as fp:
            head = fp.read(132)
    except OSError:
        return False
    return len(head) == 132 and head[128:132] == b"DICM"


def load_any(
    path: str | os.PathLike,
    *,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    min_side: int = DEFAULT_MIN_SIDE,
    item: str | None = None,
) -> list[np.ndarray]:
    """Load an image or a DICOM file as a list of ``uint8`` RGB frames.

    Raster images give one frame; DICOM gives every frame after the display
    pipeline of :func:`clinx.data.dicom.read_dicom`. Errors are
    :class:`~clinx.errors.InputError`.
    """
    p = Path(path)
    label = item_label(p, item)
    if is_dicom(p):
        from clinx.data.dicom import read_dicom  # pydicom only when needed

        return read_dicom(p, max_pixels=max_pixels, min_side=min_side, item=label).frames
    return [load_image(p, max_pixels=max_pixels, min_side=min_side, item=label)]


def save_image_atomic(
    path: str | os.PathLike,
    image: np.ndarray,
    *,
    quality: int | None = None,
    input_path: str | os.PathLike | None = None,
) -> Path:
    """Write ``image`` (``uint8`` ``(H, W, 3)`` RGB or ``(H, W)`` gray) to ``path`` atomically.

    The format follows the suffix (``.png``, ``.jpg``/``.jpeg``, ``.tif``,
    ``.bmp``, ``.webp``). ``quality`` applies to JPEG/WebP (JPEG default 95,
    because sanitized images are measured afterwards and heavy compression
    would blur the evidence). Parent folders are created. If ``input_path`` is
    given and is the same file as ``path``, :class:`~clinx.errors.ItemError`
    is raised and nothing is written. Returns the written path.
    """
    p = Path(path)
    ensure_not_input(p, input_path)
    fmt = _SAVE_FORMATS.get(p.suffix.lower())
    if fmt is None:
        raise ValueError(f"unsupported output suffix {p.suffix!r}; use one of {sorted(_SAVE_FORMATS)}")
    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise TypeError(f"expected a uint8 image, got {arr.dtype}")
    if not (arr.ndim == 2 or (arr.ndim == 3 and arr.shape[2] == 3)):
        raise ValueError(f"expected (H, W, 3) or (H, W) image, got shape {arr.shape}")
    im = Image.fromarray(np.ascontiguousarray(arr))
    params: dict = {}
    if fmt == "JPEG":
        params["quality"] = 95 if quality is None else int(quality)
    elif fmt == "WEBP" and quality is not None:
        params["quality"] = int(quality)
    elif fmt == "PNG":
        params["compress_level"] = 6

    def _write(fp: BinaryIO) -> None:
        im.save(fp, format=fmt, **params)

    atomic_write(p, _write)
    return p
