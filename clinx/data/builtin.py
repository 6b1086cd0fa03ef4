"""Built-in base data: real images that ship with installed packages, plus phantoms.

Nothing is downloaded. The real images come from ``pydicom-data`` and
pydicom's own test files (both found through
``pydicom.data.get_testdata_file(name, download=False)``) and from
scikit-image (``retina()``, ``shepp_logan_phantom()``). Each source carries
the facts we know for certain — modality, body region, plane / view — so the
questions built on them (:mod:`clinx.data.questions`) have grounded answers.

A handful of real images yields hundreds of distinct bases through seeded
augmentation: crop window, small rotation, scale, gamma and contrast. We never
flip real images horizontally: a mirrored chest film (heart on the right)
is anatomically wrong and would make laterality facts lie. Phantoms need no
flip, they are random already.

**Ultrasound.** Most ultrasound files in pydicom-data carry burned-in text,
some of it identifier-like (an institution name, dates, times). Using them
whole would put real-looking PHI on "clean" bases that is not in our
manifest, so the true mask would be wrong and OCR leakage / non-PHI survival
metrics polluted. We therefore use only ``color3d_jpeg_baseline.dcm`` (a
120-frame echocardiography cine) through a fixed crop of the sector that holds
no text, and exclude the other ultrasound files.

**Splits.** Procedural phantoms use disjoint seed streams per split, and the
echo cine disjoint frame ranges, so their test bases never occur in train.
Single-image real sources appear in every split under split-specific
augmentation streams: no test *array* appears in train (the tests check
digests), but the underlying scan does. ``BaseSpec.strict`` lets a caller
drop those shared sources when a source-level hold-out matters (e.g. a
restoration PSNR claim); the cine it keeps is frame-split, still one exam.
Every base records its base-scan id (``detail["base_id"]``,
:func:`scan_id`) so hold-out claims compare scans, not pixels. For a split
that shares no scan with any training data, see :mod:`clinx.data.native`.
"""

from __future__ import annotations

import functools
import hashlib
import warnings
from dataclasses import dataclass, field
from typing import Iterator

import cv2
import numpy as np

from clinx.data.phantoms import make_phantom

SPLITS = ("train", "val", "test")


@dataclass(frozen=True)
class RealSource:
    """One real image source and the facts known about it.

    ``crop`` is the content box ``(y0, y1, x0, x1)`` as fractions of the
    decoded image; it excludes burned-in text and empty borders. ``window``
    is ``"voi"`` (the file's VOI window), ``"percentile"`` or an explicit
    ``(center, width)`` after the modality LUT. ``frames`` maps each split to
    the frame indices it may use (``None``: the single frame in every split).
    """

    name: str
    file: str  # pydicom test-data file name, or "skimage:<function>"
    modality: str
    region: str
    plane: str = ""
    window: object = "percentile"
    crop: tuple[float, float, float, float] = (0.0, 1.0, 0.0, 1.0)
    frames: dict | None = None
    weight: float = 1.0

    @property
    def shared_across_splits(self) -> bool:
        return self.frames is None


_CINE = "color3d_jpeg_baseline.dcm"

#: The real sources. Weights make the modality mix roughly even.
REAL_SOURCES: tuple[RealSource, ...] = (
    RealSource("chest_xray", "RG1_UNCR.dcm", "x-ray", "chest", "pa", window="percentile", weight=1.5),
    # The leg film carries a burned-in laterality "R" at (0.65-0.70 W, 0.77-0.84 H);
    # the crop stops above it (and trims the blank collimator margins).
    RealSource("leg_xray", "RG3_UNCR.dcm", "x-ray", "leg", "ap", window="percentile",
               crop=(0.0, 0.76, 0.18, 0.80), weight=1.5),
    RealSource("shoulder_mr", "MR2_UNCR.dcm", "mri", "shoulder", "coronal", window="percentile",
               crop=(0.08, 0.95, 0.0, 1.0)),
    RealSource("abdomen_mr", "MR-SIEMENS-DICOM-WithOverlays.dcm", "mri", "abdomen", "axial",
               window="percentile", crop=(0.12, 0.88, 0.0, 0.96)),
    RealSource("head_ct", "693_UNCR.dcm", "ct", "head", "axial", window=(40, 100)),
    RealSource("head_ct_skull_base", "J2K_pixelrep_mismatch.dcm", "ct", "head", "axial", window=(40, 120)),
    RealSource("abdomen_ct", "explicit_VR-UN.dcm", "ct", "abdomen", "axial", window=(50, 400)),
    RealSource("whole_body_nm", "JPEG2000_UNC.dcm", "nuclear medicine", "whole body", "anterior",
               window="percentile", weight=0.7),
    RealSource("echo_us", _CINE, "ultrasound", "heart", "", window="percentile",
               crop=(55 / 480, 435 / 480, 150 / 640, 530 / 640),
               frames={"train": range(0, 80), "val": range(84, 100), "test": range(104, 120)}, weight=1.5),
    RealSource("retina_fundus", "skimage:retina", "fundus photograph", "eye", "", weight=1.2),
    RealSource("shepp_logan", "skimage:shepp_logan_phantom", "phantom", "head", "axial", weight=0.5),
)

SOURCES_BY_NAME = {s.name: s for s in REAL_SOURCES}


@dataclass
class BaseItem:
    """A clean base image with its known facts and where it came from."""

    image: np.ndarray  # uint8 (size, size, 3)
    facts: dict
    source: str
    split: str
    detail: dict = field(default_factory=dict)  # frame, augmentation parameters (no PHI)


def _window(a: np.ndarray, ds, window) -> np.ndarray:
    """Map raw pixel values to ``[0, 1]`` floats for display."""
    from pydicom.pixels import apply_modality_lut

    a = a.astype(np.float32)
    if ds is not None and a.ndim == 2:
        a = apply_modality_lut(a, ds).astype(np.float32)
    if isinstance(window, tuple):
        c, w = window
        out = (a - (c - w / 2)) / w
    else:
        lo, hi = np.percentile(a, [0.5, 99.5])
        out = (a - lo) / max(hi - lo, 1e-6)
    out = np.clip(out, 0, 1)
    if ds is not None and getattr(ds, "PhotometricInterpretation", "") == "MONOCHROME1":
        out = 1.0 - out
    return out


@functools.lru_cache(maxsize=192)
def load_source(name: str, frame: int = 0, max_side: int = 1024) -> np.ndarray:
    """Decode, window and crop one real source frame; RGB ``uint8``, longest side ≤ ``max_side``.

    Cached: decoding a 2000² chest film or one frame of the 6 MB echo cine
    takes 0.1-0.3 s, and augmentation samples the same sources again and
    again. 192 entries hold every single-image source plus all 120 cine frames
    at one working size (about 100 MB at 512², far less at 224²).
    """
    rgb = decode_source(SOURCES_BY_NAME[name], frame, max_side)
    rgb.setflags(write=False)  # shared through the cache
    return rgb


def decode_source(src: RealSource, frame: int = 0, max_side: int | None = 1024) -> np.ndarray:
    """Decode, window and crop any :class:`RealSource`; RGB ``uint8``, longest side ≤ ``max_side`` (``None``: native size).

    Nothing is downloaded: pydicom files come from ``get_testdata_file(name,
    download=False)`` and raise ``FileNotFoundError`` when not installed.
    """
    if src.file.startswith("skimage:"):
        import skimage.data

        a = getattr(skimage.data, src.file.split(":", 1)[1])()
        if a.dtype != np.uint8:
            a = (np.clip(a, 0, 1) * 255).astype(np.uint8)
        if a.ndim == 3 and a.shape[2] == 4:
            a = a[:, :, :3]
        rgb = a if a.ndim == 3 else np.repeat(a[:, :, None], 3, axis=2)
    else:
        import pydicom
        from pydicom.data import get_testdata_file
        from pydicom.pixels import pixel_array

        path = get_testdata_file(src.file, download=False)
        if path is None:
            raise FileNotFoundError(f"built-in source {src.name!r}: {src.file} is not installed (pydicom-data)")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ds = pydicom.dcmread(path)
            nframes = int(getattr(ds, "NumberOfFrames", 1) or 1)
            a = pixel_array(ds, index=frame) if nframes > 1 else ds.pixel_array
        if a.ndim == 3:  # colour (pydicom already converted YBR to RGB)
            rgb = a.astype(np.uint8) if a.dtype == np.uint8 else (_window(a, None, "percentile") * 255).astype(np.uint8)
        else:
            g = (_window(a, ds, src.window) * 255.0 + 0.5).astype(np.uint8)
            rgb = np.repeat(g[:, :, None], 3, axis=2)
    h, w = rgb.shape[:2]
    y0, y1, x0, x1 = src.crop
    rgb = rgb[int(round(y0 * h)) : int(round(y1 * h)), int(round(x0 * w)) : int(round(x1 * w))]
    scale = (max_side / max(rgb.shape[:2])) if max_side else 1.0
    if scale < 1:
        rgb = cv2.resize(rgb, (int(round(rgb.shape[1] * scale)), int(round(rgb.shape[0] * scale))),
                         interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(rgb)


#: Files that hold the same scan as another file under a different encoding or name.
SAME_SCAN = {"JPEG2000.dcm": "JPEG2000_UNC"}
_ENCODING_SUFFIXES = ("_UNCR", "_UNCI", "_J2KR", "_J2KI")


def scan_id(file: str) -> str:
    """The id of the scan behind a source file: encodings of one scan (``RG1_UNCR`` / ``RG1_J2KI``) share it.

    Real sources: ``pydicom:<stem without encoding suffix>`` or
    ``skimage:<function>``. Hold-out checks compare these, never pixels.
    """
    if file.startswith("skimage:"):
        return file
    stem = SAME_SCAN.get(file, file.rsplit(".", 1)[0])
    for suf in _ENCODING_SUFFIXES:
        if stem.endswith(suf):
            stem = stem[: -len(suf)]
    return f"pydicom:{stem}"


def base_scan_id(item: "BaseItem", seed: int, index: int) -> str:
    """Base-scan id of a built base: the real scan's :func:`scan_id`, or a per-draw id for a phantom."""
    if item.source == "phantom":
        return f"phantom:{item.split}:s{int(seed)}:{int(index)}"
    return scan_id(SOURCES_BY_NAME[item.source].file)


def training_scan_ids() -> frozenset[str]:
    """Every real scan the shipped checkpoints could have seen.

    checkpoints/prism, checkpoints/gskip (``scripts/train_checkpoints.py`` →
    :func:`clinx.data.benchmark.iter_training_triples`, train split) and
    checkpoints/baseline_vqa (``scripts/train_baseline_vqa.py`` →
    ``build_benchmark("train")``) all draw bases through :func:`make_base`
    with the default :class:`BaseSpec`, i.e. from every entry of
    :data:`REAL_SOURCES` (plus phantoms of the train split's seed stream).
    """
    return frozenset(scan_id(s.file) for s in REAL_SOURCES)


def augment_to_square(image: np.ndarray, rng: np.random.Generator, size: int, strength: float = 1.0) -> tuple[np.ndarray, dict]:
    """Seeded crop + rotation + scale + gamma/contrast into a ``size``² square, in one affine warp.

    The whole anatomy stays mostly in view (zoom ≤ 1.25, rotation ≤ 8°) so the
    region and modality facts remain true. Images that are not square are
    letterboxed on black, the way viewers show them. ``strength=0`` gives the
    plain resize.
    """
    h, w = image.shape[:2]
    base = size / max(h, w)  # fit the long side
    zoom = 1.0 + strength * rng.uniform(0.0, 0.25)
    angle = strength * rng.uniform(-8.0, 8.0)
    # Shift the view centre by up to 8 % of the image (more when zoomed in).
    tx = strength * rng.uniform(-0.08, 0.08) * w
    ty = strength * rng.uniform(-0.08, 0.08) * h
    s = base * zoom
    m = cv2.getRotationMatrix2D((w / 2 + tx, h / 2 + ty), angle, s)
    m[0, 2] += size / 2 - (w / 2 + tx)
    m[1, 2] += size / 2 - (h / 2 + ty)
    out = cv2.warpAffine(image, m, (size, size), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    gamma = float(np.exp(strength * rng.uniform(-0.25, 0.25)))
    contrast = 1.0 + strength * rng.uniform(-0.12, 0.12)
    lut = np.clip(((np.arange(256) / 255.0) ** gamma - 0.5) * contrast + 0.5, 0, 1)
    out = (lut * 255 + 0.5).astype(np.uint8)[out]
    return out, {"zoom": round(zoom, 4), "angle": round(angle, 3), "gamma": round(gamma, 4), "contrast": round(contrast, 4)}


def _split_code(split: str) -> int:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    return SPLITS.index(split)


def split_rng(split: str, seed: int, index: int, stream: str) -> np.random.Generator:
    """An independent generator per (split, seed, index, purpose).

    Mixing the split into the seed sequence is what keeps the splits' random
    bases disjoint; mixing ``stream`` keeps e.g. the PHI draw independent of
    the base draw, so changing one never shifts the other.
    """
    tag = int.from_bytes(hashlib.sha256(stream.encode()).digest()[:4], "little")
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, _split_code(split), int(index), tag])


@dataclass(frozen=True)
class BaseSpec:
    """How bases are drawn: the share of procedural phantoms and which real sources take part.

    ``strict=True`` keeps only sources whose bases are disjoint across
    splits (phantoms, frame-split cine), for a source-level hold-out.
    """

    phantom_share: float = 0.3
    sources: tuple[str, ...] = tuple(s.name for s in REAL_SOURCES)
    strict: bool = False

    def real_sources(self) -> list[RealSource]:
        out = [SOURCES_BY_NAME[n] for n in self.sources]
        if self.strict:
            out = [s for s in out if not s.shared_across_splits]
        return out


def make_base(split: str, index: int, seed: int = 0, size: int = 512, spec: BaseSpec = BaseSpec()) -> BaseItem:
    """The ``index``-th base of a split: deterministic in (split, index, seed, size, spec)."""
    rng = split_rng(split, seed, index, "base")
    real = spec.real_sources()
    if not real or rng.random() < spec.phantom_share:
        ph = make_phantom(rng, size)
        item = BaseItem(ph.image, ph.facts, "phantom", split, {"lesions": [{"x": round(l.cx, 1), "y": round(l.cy, 1), "r": round(l.radius, 1), "side": l.side} for l in ph.lesions]})
        item.detail["base_id"] = base_scan_id(item, seed, index)
        return item
    weights = np.array([s.weight for s in real], float)
    src = real[int(rng.choice(len(real), p=weights / weights.sum()))]
    frame = 0
    if src.frames is not None:
        frames = src.frames[split]
        frame = int(frames[int(rng.integers(len(frames)))])
    # Use ~2x the output size as working resolution: sharp after zoom, cheap to warp.
    image, aug = augment_to_square(load_source(src.name, frame, max_side=max(2 * size, 256)), rng, size)
    facts = {"modality": src.modality, "region": src.region, "plane": src.plane}
    return BaseItem(image, facts, src.name, split, {"frame": frame, "base_id": scan_id(src.file), **aug})


def iter_bases(split: str, seed: int = 0, size: int = 512, spec: BaseSpec = BaseSpec(), start: int = 0) -> Iterator[BaseItem]:
    """Endless stream of bases ``make_base(split, start), make_base(split, start+1), ...``."""
    i = start
    while True:
        yield make_base(split, i, seed, size, spec)
        i += 1
