"""Fixtures for the sanitizer: a colour-keyed fake localizer and real on-disk inputs.

The runner's contract (fail closed, resume, never overwrite, no PHI in logs)
does not depend on which OCR engine finds the PHI, so most runner tests use
``RedLocalizer``: it treats pure-red pixels as burned-in PHI, which makes the
expected mask exact. Tests with the real OCR localizer live in
``test_runner_ocr.py``.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from clinx.records import Manifest

#: Values used as "PHI" in runner tests; asserted absent from every log/report.
PHI_NAME = "QUIXBY^ZELDARINE"
PHI_MRN = "MRN8675309"
PHI_VALUES = ("QUIXBY", "ZELDARINE", "Quixby", "Zeldarine", PHI_MRN, "8675309")
MANIFEST = {"fields": {"patient_name": PHI_NAME, "mrn": PHI_MRN}}


@dataclass
class Match:
    field: str


@dataclass
class Localization:
    mask: np.ndarray
    matches: list = field(default_factory=list)
    detections: list = field(default_factory=list)


class RedLocalizer:
    """Pure red (255, 0, 0) pixels are PHI of field ``patient_name``."""

    def __init__(self):
        self.calls = 0

    def locate(self, image, manifest, *, item="<image>"):
        self.calls += 1
        m = (image[:, :, 0] == 255) & (image[:, :, 1] == 0) & (image[:, :, 2] == 0)
        return Localization(m, [Match("patient_name")] if m.any() else [])


def phi_image(seed: int = 0, size=(48, 64)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 200, size=(*size, 3), dtype=np.uint8)  # never pure red by chance (R < 200)
    img[4:10, 4:30] = (255, 0, 0)
    return img


def write_png(path: Path, img: np.ndarray) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(img).save(path)
    return path


def png_header_only(path: Path, width: int, height: int) -> Path:
    """A PNG whose IHDR declares ``width x height`` but holds a tiny IDAT (a decompression-bomb stand-in)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 16)) + chunk(b"IEND", b"")
    path.write_bytes(data)
    return path


def write_dicom(path: Path, img: np.ndarray | None, *, name: str = PHI_NAME, mrn: str = PHI_MRN) -> Path:
    """A small uncompressed RGB DICOM with PHI in the header (or no pixel data when ``img`` is None)."""
    from pydicom.dataset import FileDataset, FileMetaDataset
    from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage, generate_uid

    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    meta.MediaStorageSOPInstanceUID = generate_uid()
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = FileDataset(str(path), {}, file_meta=meta, preamble=b"\x00" * 128)
    ds.SOPClassUID = SecondaryCaptureImageStorage
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.StudyInstanceUID = generate_uid()
    ds.SeriesInstanceUID = generate_uid()
    ds.Modality = "OT"
    ds.PatientName = name
    ds.PatientID = mrn
    ds.InstitutionName = "Saint Quixby Hospital"
    ds.StudyDate = "20240102"
    if img is not None:
        if img.ndim == 4:  # (frames, H, W, 3)
            ds.NumberOfFrames = img.shape[0]
        ds.Rows, ds.Columns = img.shape[-3:-1]
        ds.SamplesPerPixel = 3
        ds.PhotometricInterpretation = "RGB"
        ds.PlanarConfiguration = 0
        ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 8, 8, 7, 0
        ds.PixelData = np.ascontiguousarray(img).tobytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    ds.save_as(str(path), enforce_file_format=True)
    return path


def assert_no_phi(*texts: str) -> None:
    for t in texts:
        for v in PHI_VALUES:
            assert v not in t, "a PHI value leaked into a log/report"


@pytest.fixture
def manifest_file(tmp_path) -> Path:
    p = tmp_path / "manifest.json"
    p.write_text(json.dumps(MANIFEST))
    return p


@pytest.fixture
def manifest_obj() -> Manifest:
    return Manifest.from_dict(MANIFEST)


@pytest.fixture
def kit():
    """The helpers above, as a fixture (test modules cannot import conftest under importlib mode)."""
    from types import SimpleNamespace

    return SimpleNamespace(
        RedLocalizer=RedLocalizer,
        phi_image=phi_image,
        write_png=write_png,
        png_header_only=png_header_only,
        write_dicom=write_dicom,
        assert_no_phi=assert_no_phi,
        MANIFEST=MANIFEST,
        PHI_VALUES=PHI_VALUES,
    )
