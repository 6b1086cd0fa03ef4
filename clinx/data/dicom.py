"""DICOM pixel I/O: decode to display-ready RGB frames, and write sanitized frames back.

Reading follows the DICOM grayscale display pipeline, so that what OCR sees
is what a viewer would show (burned-in text is drawn for the *displayed*
image, not for raw detector counts):

1. decode the stored values (uncompressed, RLE, JPEG, JPEG-LS, JPEG 2000 —
   compressed transfer syntaxes go through pydicom's decoder plugins:
   pylibjpeg / pylibjpeg-libjpeg / pylibjpeg-openjpeg, or Pillow);
2. Modality LUT (*Rescale Slope/Intercept* or a *Modality LUT Sequence*);
3. VOI LUT (*VOI LUT Sequence*, else *Window Center/Width*, first view) and
   scaling of the VOI output range to 0–255; without any VOI information,
   unsigned ≤ 8-bit data with no rescale is scaled by its nominal range (so
   8-bit images pass unchanged) and anything else is min–max stretched over
   all returned frames;
4. MONOCHROME1 is inverted (low values display white);
5. colour data: YBR is converted to RGB by pydicom, PALETTE COLOR through its
   lookup tables, > 8-bit colour scaled down;
6. gray frames are replicated to three channels (:mod:`clinx.records`).

Enhanced multi-frame objects keep their rescale/window attributes in the
shared or per-frame functional groups; those are honoured per frame.

Errors are :class:`~clinx.errors.InputError` naming the item and the problem;
exception messages from pydicom are never echoed, because they can quote
header values (which are PHI).
"""

from __future__ import annotations

import copy
import logging
import os
import re
import struct
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
import pydicom
from pydicom.dataset import Dataset, FileMetaDataset
from pydicom.errors import InvalidDicomError
from pydicom.pixels import apply_color_lut, apply_modality_lut, apply_voi, apply_windowing, pixel_array
from pydicom.uid import (
    UID,
    ExplicitVRBigEndian,
    ExplicitVRLittleEndian,
    ImplicitVRLittleEndian,
    generate_uid,
)

from clinx.data.guards import (
    DEFAULT_MAX_PIXELS,
    DEFAULT_MIN_SIDE,
    atomic_write,
    check_file,
    ensure_not_input,
    item_label,
)
from clinx.errors import InputError

__all__ = ["DicomImage", "read_dicom", "write_dicom_like", "dicom_like_bytes", "quiet_pydicom", "DEFAULT_MAX_TOTAL_PIXELS"]

#: Upper bound on rows × columns × frames decoded from one file (≈ 2 GB as uint8 RGB).
DEFAULT_MAX_TOTAL_PIXELS = 600_000_000

_PIXEL_KEYWORDS = ("PixelData", "FloatPixelData", "DoubleFloatPixelData")
_PIXEL_TAGS = {0x7FE00010, 0x7FE00008, 0x7FE00009}
_DEFER_BYTES = 1 << 20
#: A DICOM UID: dot-separated digit groups, at most 64 characters (PS3.5 §9.1).
_UID_RE = re.compile(r"(?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*))*")

# Attributes a per-frame display transform needs (copied into a small view
# dataset so pydicom's helpers never mutate the caller's dataset).
_VIEW_KEYWORDS = (
    "PhotometricInterpretation",
    "BitsAllocated",
    "BitsStored",
    "PixelRepresentation",
    "RescaleSlope",
    "RescaleIntercept",
    "RescaleType",
    "ModalityLUTSequence",
    "WindowCenter",
    "WindowWidth",
    "VOILUTFunction",
    "VOILUTSequence",
)


@contextmanager
def quiet_pydicom() -> Iterator[None]:
    """Keep pydicom from echoing header values into warnings and logs while inside.

    pydicom reports invalid values (``Invalid value for VR PN: '<the name>'``)
    through both ``warnings.warn`` and the ``pydicom`` logger — and an
    application that configures logging (Hydra does) would write those, PHI
    included, into its run log. Inside this context value validation is off,
    warnings are ignored and the ``pydicom`` logger drops records below
    ERROR. The previous settings are restored on exit. Process-wide state is
    changed for the duration, so this is not meant for concurrent threads.
    """
    logger = logging.getLogger("pydicom")
    level = logger.level
    with warnings.catch_warnings(), pydicom.config.disable_value_validation():
        warnings.simplefilter("ignore")
        logger.setLevel(logging.ERROR)
        try:
            yield
        finally:
            logger.setLevel(level)


@dataclass
class DicomImage:
    """Decoded DICOM pixels plus the header they came from.

    ``frames`` are ``uint8`` ``(H, W, 3)`` RGB, one per returned frame.
    ``dataset`` is the parsed pydicom dataset; its pixel data was decoded once,
    by :func:`read_dicom`, and is not cached on it. ``photometric`` and
    ``bits_stored`` describe the *stored* pixels; ``n_frames`` is the number
    of frames in the file (``frame_indices`` says which ones ``frames`` hold).
    ``windowed`` tells whether a VOI LUT / window was applied (else min–max).
    """

    frames: list[np.ndarray]
    dataset: Dataset
    photometric: str
    bits_stored: int
    n_frames: int
    transfer_syntax: str = ""
    frame_indices: list[int] = field(default_factory=list)
    windowed: bool = False


# --------------------------------------------------------------------------- reading


def _parse(path: Path, item: str) -> Dataset:
    """Parse the header (pixel data stays encoded), mapping failures to InputError."""
    with open(path, "rb") as fp:
        head = fp.read(132)
    has_preamble = len(head) == 132 and head[128:132] == b"DICM"
    try:
        # force=True only without the preamble: old exports lack it, and
        # the content check below rejects what is not DICOM at all.
        # defer_size: large values (the pixel data) stay on disk until
        # decoded, so the size guards run before a huge file is pulled into
        # memory.
        ds = pydicom.dcmread(path, force=not has_preamble, defer_size=_DEFER_BYTES)
        # Parse every header element now (pydicom converts values lazily)
        # so that a corrupt header fails here, as a read error.
        for tag in list(ds.keys()):
            if tag in _PIXEL_TAGS:
                continue
            elem = ds[tag]
            if elem.VR == "SQ":
                for seq_item in elem.value:
                    for _ in seq_item.iterall():
                        pass
    except InvalidDicomError:
        raise InputError(item, "not a DICOM file") from None
    except MemoryError:
        raise InputError(item, "not enough memory to read the DICOM header") from None
    except Exception as exc:  # noqa: BLE001 - any parser failure means a corrupt file
        # (pydicom raises OSError, EOFError, ValueError, struct.error,
        # BytesLengthException (RuntimeError)… depending on where it broke.)
        raise InputError(item, f"corrupt or truncated DICOM header ({type(exc).__name__})") from None
    if not any(k in ds for k in ("SOPClassUID", "Rows", "Modality", *_PIXEL_KEYWORDS)):
        # Arbitrary bytes (after a forged preamble, or read with force=True)
        # "parse" into a few junk elements; real objects always carry some of these.
        raise InputError(item, "corrupt DICOM (no recognisable data elements)" if has_preamble else "not a DICOM file")
    _ensure_transfer_syntax(ds)
    return ds


def _ensure_transfer_syntax(ds: Dataset) -> None:
    """Files without a meta header have no Transfer Syntax UID; infer it from how they parsed."""
    meta = getattr(ds, "file_meta", None)
    if meta is None:
        ds.file_meta = meta = FileMetaDataset()
    if "TransferSyntaxUID" in meta:
        return
    implicit, little = getattr(ds, "original_encoding", (True, True))
    if implicit:
        meta.TransferSyntaxUID = ImplicitVRLittleEndian
    else:
        meta.TransferSyntaxUID = ExplicitVRLittleEndian if little else ExplicitVRBigEndian


def _syntax_name(uid: str) -> str:
    """A printable name for a transfer syntax UID that can never quote header text.

    The TransferSyntaxUID is read from the file, so a crafted file can put any
    string (a patient's name) there. Only a syntactically valid UID (digits
    and dots, at most 64 characters) is echoed, with pydicom's name for it
    when known; anything else is reported as malformed without its content.
    """
    uid = str(uid)
    if len(uid) > 64 or not _UID_RE.fullmatch(uid):
        return f"(malformed UID of {len(uid)} characters)"
    try:
        name = UID(uid).name
    except Exception:  # noqa: BLE001 - an unknown UID must not mask the real error
        name = ""
    return f"{uid} ({name})" if name and name != uid else uid


def _is_compressed(uid: str) -> bool:
    """Whether ``uid`` is a compressed transfer syntax; unknown/private UIDs count as compressed."""
    try:
        return bool(UID(uid).is_compressed)
    except Exception:  # noqa: BLE001 - pydicom raises for UIDs it does not know
        return True


def _frame_view(ds: Dataset, index: int) -> Dataset:
    """A small dataset with the display-transform attributes that apply to frame ``index``.

    Priority: per-frame functional group > shared functional group > top level,
    which is how enhanced multi-frame objects (Enhanced CT/MR…) store them.
    """
    view = Dataset()
    if getattr(ds, "file_meta", None) is not None:
        view.file_meta = ds.file_meta  # pydicom reads LUT endianness from it
    for kw in _VIEW_KEYWORDS:
        if kw in ds:
            view[kw] = copy.deepcopy(ds[kw])

    groups = []
    shared = ds.get("SharedFunctionalGroupsSequence")
    if shared:
        groups.append(shared[0])
    per_frame = ds.get("PerFrameFunctionalGroupsSequence")
    if per_frame and index < len(per_frame):
        groups.append(per_frame[index])
    for group in groups:  # later groups override earlier ones
        pvt = group.get("PixelValueTransformationSequence")
        if pvt:
            for kw in ("RescaleSlope", "RescaleIntercept", "RescaleType"):
                if kw in pvt[0]:
                    view[kw] = copy.deepcopy(pvt[0][kw])
        voi = group.get("FrameVOILUTSequence")
        if voi:
            for kw in ("WindowCenter", "WindowWidth", "VOILUTFunction"):
                if kw in voi[0]:
                    view[kw] = copy.deepcopy(voi[0][kw])
    return view


def _voi_to_unit(values: np.ndarray, view: Dataset) -> np.ndarray | None:
    """Apply the VOI transform and return values in [0, 1], or ``None`` if there is none.

    A VOI LUT Sequence wins over a window (as in ``pydicom.pixels.apply_voi_lut``
    with ``prefer_lut=True``). The output range used for scaling is the LUT's
    own value range, or — for a window — the range pydicom maps to, found by
    pushing two extreme values through the same function. An unusable window
    (e.g. width < 1) counts as no window.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        lut_seq = view.get("VOILUTSequence")
        if lut_seq and "LUTDescriptor" in lut_seq[0] and "LUTData" in lut_seq[0]:
            try:
                desc = lut_seq[0].LUTDescriptor
                n, first = int(desc[0]) or 2**16, int(desc[1])
                table = apply_voi(np.arange(first, first + n, dtype=np.int64), view)
                out = apply_voi(np.rint(values).astype(np.int64), view).astype(np.float64)
                lo, hi = float(table.min()), float(table.max())
                if hi > lo:
                    return (out - lo) / (hi - lo)
            except (ValueError, TypeError, IndexError, KeyError, AttributeError, NotImplementedError, struct.error):
                pass  # broken LUT: fall through to the window, then min-max
        if "WindowCenter" in view and "WindowWidth" in view:
            try:
                lo, hi = (float(v) for v in apply_windowing(np.array([-1e300, 1e300]), view))
                out = apply_windowing(values, view)
                if hi > lo:
                    return (np.asarray(out, np.float64) - lo) / (hi - lo)
            except (ValueError, TypeError, IndexError, KeyError, AttributeError, NotImplementedError):
                pass
    return None


def _to_uint8(unit: np.ndarray) -> np.ndarray:
    return np.rint(np.clip(unit, 0.0, 1.0) * 255.0).astype(np.uint8)


def _small_unsigned_range(ds: Dataset, modality: list[np.ndarray]) -> float | None:
    """``2**BitsStored - 1`` for unsigned ≤ 8-bit data that no Modality LUT changed, else ``None``."""
    try:
        bits = int(ds.get("BitsStored") or 0)
        signed = int(ds.get("PixelRepresentation") or 0) != 0
    except (TypeError, ValueError):
        return None
    if not 1 <= bits <= 8 or signed:
        return None
    if not all(np.issubdtype(m.dtype, np.integer) for m in modality):
        return None  # a rescale produced real-valued output: use min-max
    return float(2**bits - 1)


def _render_gray(raw_frames: list[np.ndarray], indices: list[int], ds: Dataset, photometric: str) -> tuple[list[np.ndarray], bool]:
    """Modality LUT → VOI (or global min–max) → 8-bit → MONOCHROME1 inversion."""
    modality: list[np.ndarray] = []
    views = []
    for raw, idx in zip(raw_frames, indices):
        view = _frame_view(ds, idx)
        try:
            vals = apply_modality_lut(raw, view)
        except (ValueError, TypeError, IndexError, KeyError, AttributeError, NotImplementedError):
            vals = raw  # unusable rescale: the stored values are the best we have
        modality.append(np.asarray(vals))
        views.append(view)

    out: list[np.ndarray | None] = [None] * len(modality)
    windowed = True
    for i, (vals, view) in enumerate(zip(modality, views)):
        unit = _voi_to_unit(vals, view)
        if unit is None:
            windowed = False
            break
        out[i] = _to_uint8(unit)
    stored_range = _small_unsigned_range(ds, modality)
    if not windowed and stored_range is not None:
        # Low-depth unsigned data with no transforms (8-bit secondary
        # captures, 1-bit masks, our own 8-bit output) already *is* display
        # data: scale by its nominal range so values survive a round trip.
        out = [_to_uint8(m.astype(np.float64) / stored_range) for m in modality]
    elif not windowed:
        # One stretch for all frames, so a volume keeps its relative contrast.
        finite = [v[np.isfinite(v)] for v in (m.astype(np.float64, copy=False) for m in modality)]
        nonempty = [f for f in finite if f.size]
        lo = min(float(f.min()) for f in nonempty) if nonempty else 0.0
        hi = max(float(f.max()) for f in nonempty) if nonempty else 0.0
        for i, vals in enumerate(modality):
            v = np.nan_to_num(vals.astype(np.float64), nan=lo, posinf=hi, neginf=lo)
            out[i] = _to_uint8((v - lo) / (hi - lo)) if hi > lo else np.zeros(v.shape, np.uint8)
    frames = []
    for g in out:
        assert g is not None
        if photometric == "MONOCHROME1":
            g = 255 - g
        frames.append(np.repeat(g[:, :, None], 3, axis=2))
    return frames, windowed


def _render_color(raw_frames: list[np.ndarray], ds: Dataset, photometric: str, bits_stored: int) -> list[np.ndarray]:
    frames = []
    for raw in raw_frames:
        a = raw
        if photometric == "PALETTE COLOR":
            a = apply_color_lut(a, ds)  # uint8 or uint16 RGB, per the LUT descriptor
            if a.dtype != np.uint8:
                a = np.rint(a.astype(np.float64) / 257.0).astype(np.uint8)
        elif a.dtype != np.uint8:
            depth = max(1, min(int(bits_stored or 16), 16))
            a = _to_uint8(a.astype(np.float64) / float(2**depth - 1))
        if a.ndim != 3 or a.shape[2] != 3:
            raise ValueError(f"unexpected colour frame shape {a.shape}")
        frames.append(np.ascontiguousarray(a))
    return frames


def read_dicom(
    path: str | os.PathLike,
    *,
    frame: int | None = None,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    min_side: int = DEFAULT_MIN_SIDE,
    max_total_pixels: int = DEFAULT_MAX_TOTAL_PIXELS,
    item: str | None = None,
) -> DicomImage:
    """Read a DICOM file and render its frames as ``uint8`` RGB (see module docstring).

    ``frame`` selects one 0-based frame (decoding only that frame where the
    transfer syntax allows); ``None`` returns all frames. ``max_pixels`` bounds
    one frame and ``max_total_pixels`` all decoded frames together; both are
    checked from the header before decoding. ``item`` labels errors (default:
    the file name).

    Raises :class:`~clinx.errors.InputError` for: missing/empty file, not a
    DICOM file, corrupt header, no pixel data (``"DICOM has no pixel data"``),
    sizes out of bounds, a frame index out of range, a transfer syntax no
    installed decoder handles (the message names the syntax UID), and corrupt
    or truncated pixel data.
    """
    p = Path(path)
    label = item_label(p, item)
    check_file(p, label)
    with quiet_pydicom():
        return _read(p, label, frame, max_pixels, min_side, max_total_pixels)


def _read(p: Path, label: str, frame: int | None, max_pixels: int, min_side: int, max_total_pixels: int) -> DicomImage:
    ds = _parse(p, label)

    if not any(k in ds for k in _PIXEL_KEYWORDS):
        raise InputError(label, "DICOM has no pixel data")
    try:
        rows, cols = int(ds.Rows), int(ds.Columns)
        n_frames = int(ds.get("NumberOfFrames") or 1)
        samples = int(ds.get("SamplesPerPixel") or 1)
        photometric = str(ds.get("PhotometricInterpretation", "MONOCHROME2")).strip().upper()
        bits_stored = int(ds.get("BitsStored") or ds.get("BitsAllocated") or 8)
    except (AttributeError, TypeError, ValueError):
        raise InputError(label, "DICOM image attributes (Rows, Columns, …) are missing or invalid") from None
    if n_frames < 1:
        raise InputError(label, f"DICOM declares {n_frames} frames")
    if min(rows, cols) < min_side:
        raise InputError(label, f"image is too small ({cols}x{rows} pixels; minimum side is {min_side})")
    if rows * cols > max_pixels:
        raise InputError(label, f"image is too large ({cols}x{rows} = {rows * cols} pixels per frame; limit is {max_pixels})")
    if frame is not None and not 0 <= frame < n_frames:
        raise InputError(label, f"frame {frame} is out of range (the file has {n_frames} frames)")
    n_decode = 1 if frame is not None else n_frames
    if rows * cols * n_decode > max_total_pixels:
        raise InputError(label, f"too many pixels to decode ({n_decode} frames of {cols}x{rows}; limit is {max_total_pixels})")

    syntax = str(ds.file_meta.get("TransferSyntaxUID", ""))
    try:
        # The functional API decodes without caching the array on `ds`, so
        # the dataset we hand back does not carry a second copy.
        arr = pixel_array(ds, index=frame)
    except MemoryError:
        raise InputError(label, "not enough memory to decode the pixel data") from None
    except (NotImplementedError, RuntimeError) as exc:
        # pydicom raises these when no plugin can handle the syntax or every
        # plugin failed; for compressed data that is "cannot decode".
        if _is_compressed(syntax) or isinstance(exc, NotImplementedError):
            raise InputError(label, f"cannot decode pixel data with transfer syntax {_syntax_name(syntax)}") from None
        raise InputError(label, f"corrupt pixel data ({type(exc).__name__})") from None
    except Exception as exc:  # noqa: BLE001 - decoder plugins raise many types for bad data
        raise InputError(label, f"corrupt or truncated pixel data ({type(exc).__name__})") from None

    indices = [frame] if frame is not None else list(range(n_frames))
    # Normalise to one array per frame: pydicom drops the frame axis for one frame.
    per_frame_ndim = 3 if samples > 1 else 2
    if arr.ndim == per_frame_ndim:
        raw_frames = [arr]
    elif arr.ndim == per_frame_ndim + 1:
        raw_frames = list(arr)
    else:
        raise InputError(label, f"unexpected decoded pixel array shape {arr.shape}")
    if len(raw_frames) != len(indices):
        raise InputError(label, f"decoded {len(raw_frames)} frames but the header declares {len(indices)}")

    try:
        if samples == 1 and photometric != "PALETTE COLOR":
            frames, windowed = _render_gray(raw_frames, indices, ds, photometric)
        else:
            frames, windowed = _render_color(raw_frames, ds, photometric, bits_stored), False
    except MemoryError:
        raise InputError(label, "not enough memory to render the pixel data") from None
    except Exception as exc:  # noqa: BLE001 - LUTs/palettes from the header can be malformed in many ways
        raise InputError(label, f"cannot render pixel data for display ({type(exc).__name__})") from None

    return DicomImage(
        frames=frames,
        dataset=ds,
        photometric=photometric,
        bits_stored=bits_stored,
        n_frames=n_frames,
        transfer_syntax=syntax,
        frame_indices=indices,
        windowed=windowed,
    )


# --------------------------------------------------------------------------- writing

# Elements that describe the *old* pixel values and would misdescribe the new
# 8-bit display-rendered frames (a viewer would re-window or re-map them).
_DROP_ON_WRITE = (
    "PixelData",
    "FloatPixelData",
    "DoubleFloatPixelData",
    "ExtendedOffsetTable",
    "ExtendedOffsetTableLengths",
    "RescaleSlope",
    "RescaleIntercept",
    "RescaleType",
    "ModalityLUTSequence",
    "WindowCenter",
    "WindowWidth",
    "WindowCenterWidthExplanation",
    "VOILUTFunction",
    "VOILUTSequence",
    "RedPaletteColorLookupTableDescriptor",
    "GreenPaletteColorLookupTableDescriptor",
    "BluePaletteColorLookupTableDescriptor",
    "RedPaletteColorLookupTableData",
    "GreenPaletteColorLookupTableData",
    "BluePaletteColorLookupTableData",
    "SegmentedRedPaletteColorLookupTableData",
    "SegmentedGreenPaletteColorLookupTableData",
    "SegmentedBluePaletteColorLookupTableData",
    "PaletteColorLookupTableUID",
    "LargestImagePixelValue",
    "SmallestImagePixelValue",
    "LargestPixelValueInSeries",
    "SmallestPixelValueInSeries",
    "PixelPaddingValue",
    "PixelPaddingRangeLimit",
    "PlanarConfiguration",
    "NumberOfFrames",
)


def _as_frames(frames: np.ndarray | Sequence[np.ndarray]) -> list[np.ndarray]:
    if isinstance(frames, np.ndarray) and frames.ndim in (2, 3) and (frames.ndim == 2 or frames.shape[2] == 3):
        frames = [frames]
    out = []
    for f in frames:
        a = np.asarray(f)
        if a.dtype != np.uint8:
            raise TypeError(f"frames must be uint8, got {a.dtype}")
        if a.ndim == 2:
            a = np.repeat(a[:, :, None], 3, axis=2)
        if a.ndim != 3 or a.shape[2] != 3:
            raise ValueError(f"frames must be (H, W, 3) or (H, W), got {a.shape}")
        out.append(a)
    if not out:
        raise ValueError("no frames to write")
    if any(f.shape != out[0].shape for f in out):
        raise ValueError("all frames must have the same shape")
    return out


def write_dicom_like(
    src_dataset: Dataset,
    frames: np.ndarray | Sequence[np.ndarray],
    path: str | os.PathLike,
    *,
    input_path: str | os.PathLike | None = None,
    sop_instance_uid: str | None = None,
) -> Path:
    """Write ``frames`` as a new uncompressed DICOM derived from ``src_dataset``'s header.

    The pixels are stored as 8-bit: ``MONOCHROME2`` when every frame is gray
    (all three channels equal), else ``RGB`` (interleaved). Elements that
    describe the old pixel encoding (rescale, windows, LUTs, palettes, pixel
    padding, per-frame pixel transforms) are removed, since the frames are
    already display-rendered. The object gets a new SOP Instance UID,
    *Image Type* ``DERIVED\\SECONDARY\\…``, *Burned In Annotation* ``NO`` and a
    *Derivation Description*; the transfer syntax is Explicit VR Little Endian.

    Everything else in the header is kept as it was. **Header
    de-identification is not done here** — names, IDs and dates in the header
    survive; run a header de-identifier (e.g. the DICOM PS3.15 basic profile)
    on the result before release.

    The file is written atomically (temp file + ``os.replace``). The output
    may not be the input: ``input_path`` (or else ``src_dataset.filename``)
    is checked with :func:`~clinx.data.images.ensure_not_input`.
    ``sop_instance_uid`` keeps a caller's SOP Instance UID (a release remaps
    UIDs consistently across an archive, so references between objects keep
    resolving); by default a new one is generated.
    """
    out_path = Path(path)
    src_file = input_path if input_path is not None else getattr(src_dataset, "filename", None)
    ensure_not_input(out_path, src_file if isinstance(src_file, (str, os.PathLike)) else None)
    fr = _as_frames(frames)
    with quiet_pydicom():
        ds = _derived(src_dataset, fr, sop_instance_uid)

        def _write(fp) -> None:
            pydicom.dcmwrite(fp, ds, enforce_file_format=True)

        atomic_write(out_path, _write)
    return out_path


#: Transfer syntaxes whose encoding loses nothing: re-encoding sanitized frames in them keeps
#: exactly the pixels that were verified.
_LOSSLESS_COMPRESSED = (
    "1.2.840.10008.1.2.5",  # RLE Lossless
    "1.2.840.10008.1.2.4.90",  # JPEG 2000 Lossless Only
    "1.2.840.10008.1.2.4.80",  # JPEG-LS Lossless
    "1.2.840.10008.1.2.4.70",  # JPEG Lossless SV1
    "1.2.840.10008.1.2.4.57",  # JPEG Lossless
)


def dicom_like_bytes(
    src_dataset: Dataset,
    frames: np.ndarray | Sequence[np.ndarray],
    *,
    sop_instance_uid: str | None = None,
    transfer_syntax: str | None = None,
) -> tuple[bytes, str, str]:
    """``frames`` as DICOM file bytes derived from ``src_dataset`` (as :func:`write_dicom_like`), in memory.

    ``transfer_syntax`` (default: Explicit VR Little Endian) is kept when it
    can be written without changing a pixel: uncompressed little-endian
    syntaxes (implicit, explicit, deflated) always, lossless compressed ones
    (RLE, JPEG 2000 lossless, JPEG-LS / JPEG lossless) when pydicom has an
    encoder for them. Lossy originals and syntaxes without an encoder are
    written as Explicit VR Little Endian, since re-encoding lossily would
    change the pixels that verification read. Returns ``(bytes, syntax
    written, note)``; ``note`` says why the syntax changed (``""`` when kept).
    """
    import io

    fr = _as_frames(frames)
    with quiet_pydicom():
        ds = _derived(src_dataset, fr, sop_instance_uid)
        wanted = str(transfer_syntax or ExplicitVRLittleEndian)
        used, note = _apply_syntax(ds, wanted)
        buf = io.BytesIO()
        pydicom.dcmwrite(buf, ds, enforce_file_format=True)
    return buf.getvalue(), used, note


def _apply_syntax(ds: Dataset, wanted: str) -> tuple[str, str]:
    """Encode ``ds`` (uncompressed, Explicit VR LE) in ``wanted`` when lossless and possible; returns (syntax, note)."""
    uid = UID(wanted)
    if wanted == str(ExplicitVRLittleEndian):
        return wanted, ""
    if not _is_compressed(wanted):
        known = uid.is_transfer_syntax if uid.is_valid else False
        if known and uid.is_little_endian:
            ds.file_meta.TransferSyntaxUID = uid
            return wanted, ""
        ds.file_meta.TransferSyntaxUID = ExplicitVRLittleEndian
        return str(ExplicitVRLittleEndian), "big-endian or unknown syntax written as Explicit VR Little Endian"
    if wanted in _LOSSLESS_COMPRESSED:
        try:
            ds.compress(uid, generate_instance_uid=False)  # the (remapped) SOP Instance UID must stay
            return wanted, ""
        except Exception as exc:  # noqa: BLE001 - no encoder plugin, or it refused these pixels
            ds.file_meta.TransferSyntaxUID = ExplicitVRLittleEndian
            return str(ExplicitVRLittleEndian), f"no usable encoder for the original lossless syntax ({type(exc).__name__})"
    return str(ExplicitVRLittleEndian), "lossy original syntax: re-encoding would change the verified pixels"


def _derived(src_dataset: Dataset, fr: list[np.ndarray], sop_instance_uid: str | None = None) -> Dataset:
    """The derived 8-bit dataset holding ``fr`` (Explicit VR Little Endian), header copied from ``src_dataset``."""
    gray = all(np.array_equal(f[:, :, 0], f[:, :, 1]) and np.array_equal(f[:, :, 0], f[:, :, 2]) for f in fr)
    rows, cols = fr[0].shape[:2]

    ds = Dataset()
    drop = set(_DROP_ON_WRITE)
    for elem in src_dataset:
        if elem.keyword in drop:
            continue
        ds.add(copy.deepcopy(elem))
    # Per-frame pixel transforms in functional groups would be re-applied by
    # viewers to our already-rendered values.
    for kw in ("SharedFunctionalGroupsSequence", "PerFrameFunctionalGroupsSequence"):
        for group in ds.get(kw) or []:
            for sub in ("PixelValueTransformationSequence", "FrameVOILUTSequence"):
                if sub in group:
                    del group[sub]
    if "PerFrameFunctionalGroupsSequence" in ds and len(ds.PerFrameFunctionalGroupsSequence) > len(fr):
        ds.PerFrameFunctionalGroupsSequence = ds.PerFrameFunctionalGroupsSequence[: len(fr)]

    ds.Rows, ds.Columns = rows, cols
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 8, 8, 7, 0
    if gray:
        ds.SamplesPerPixel = 1
        ds.PhotometricInterpretation = "MONOCHROME2"
        pixels = np.stack([f[:, :, 0] for f in fr])
        if "ICCProfile" in ds:  # a colour profile does not describe gray data
            del ds.ICCProfile
    else:
        ds.SamplesPerPixel = 3
        ds.PhotometricInterpretation = "RGB"
        ds.PlanarConfiguration = 0
        pixels = np.stack(fr)
    if "PresentationLUTShape" in ds:
        ds.PresentationLUTShape = "IDENTITY"  # MONOCHROME2/RGB: no inversion
    if len(fr) > 1 or "NumberOfFrames" in src_dataset:
        ds.NumberOfFrames = len(fr)
    data = pixels.tobytes()
    if len(data) % 2:
        data += b"\x00"  # DICOM values have even length
    ds.add_new(0x7FE00010, "OB", data)

    image_type = list(src_dataset.get("ImageType") or [])
    ds.ImageType = ["DERIVED", "SECONDARY", *image_type[2:]]
    ds.BurnedInAnnotation = "NO"
    ds.DerivationDescription = "clinx: burned-in annotations removed from pixels; rendered to 8-bit"
    sop_uid = sop_instance_uid or generate_uid()
    ds.SOPInstanceUID = sop_uid

    meta = FileMetaDataset()
    src_meta = getattr(src_dataset, "file_meta", None)
    sop_class = src_dataset.get("SOPClassUID") or (src_meta.get("MediaStorageSOPClassUID") if src_meta else None)
    if sop_class:
        meta.MediaStorageSOPClassUID = sop_class
        if "SOPClassUID" not in ds:
            ds.SOPClassUID = sop_class
    meta.MediaStorageSOPInstanceUID = sop_uid
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds.file_meta = meta
    ds.preamble = b"\x00" * 128
    return ds
