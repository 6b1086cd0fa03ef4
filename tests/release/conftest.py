"""Fixtures for ``clinx release``: a tiny DICOM archive on disk and a colour-keyed stand-in for OCR.

Most release tests are about the archive (headers, UIDs, dates, resume,
failures, backends), not about OCR, so they use ``BrightLocalizer``: pixels at
255 in every channel are "burned-in PHI", which makes the mask exact and the
run fast. ``test_release_ocr.py`` runs the real engines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

#: Header PHI of the fixture archive; asserted absent from every released byte, log and report.
PATIENTS = {
    "P1": {"PatientName": "QUIXBY^ZELDARINE", "PatientID": "MRN8675309", "PatientBirthDate": "19610314"},
    "P2": {"PatientName": "VORTIGAN^ALBRECHT", "PatientID": "MRN5551212", "PatientBirthDate": "19471102"},
}
PHI_STRINGS = ("QUIXBY", "ZELDARINE", "VORTIGAN", "ALBRECHT", "MRN8675309", "MRN5551212", "8675309", "5551212",
               "Quixby", "Zeldarine", "Vortigan", "Albrecht", "Saint Quixby Hospital")
SECRET = "test-secret-not-for-production"


@dataclass
class Match:
    field: str


@dataclass
class Localization:
    mask: np.ndarray
    matches: list = field(default_factory=list)
    detections: list = field(default_factory=list)


class BrightLocalizer:
    """Pixels at 255 in every channel are PHI of field ``patient_name`` (the fixture images never reach 255 otherwise)."""

    def locate(self, image, manifest, *, item="<image>"):
        m = np.all(image == 255, axis=2)
        return Localization(m, [Match("patient_name")] if m.any() else [])


def fake_parts():
    """The worker parts for tests: black fill, the bright-pixel localizer, itself as verifier, the real header de-identifier."""
    from clinx.release.header import HeaderDeidentifier
    from clinx.sanitize.conditions import get_condition

    return get_condition("blackout"), BrightLocalizer(), BrightLocalizer(), HeaderDeidentifier(SECRET, keep_private=["CLINX KEEP"])


def raw_parts():
    """Parts that leave the pixels alone: verification then finds the bright block and quarantines."""
    from clinx.release.header import HeaderDeidentifier
    from clinx.sanitize.conditions import get_condition

    return get_condition("raw"), BrightLocalizer(), BrightLocalizer(), HeaderDeidentifier(SECRET)


def _image(rng, rows=32, cols=48, rgb=False) -> np.ndarray:
    shape = (rows, cols, 3) if rgb else (rows, cols)
    a = rng.integers(0, 200, size=shape, dtype=np.uint8)
    a[2:8, 2:30] = 255  # the "burned-in name"
    return a


def write_dicom(path: Path, patient: str, *, study: str, series: str, modality: str, frames: int = 1, rgb: bool = False,
                syntax: str = "1.2.840.10008.1.2.1", study_date: str = "20240102", seed: int = 0,
                referenced: str | None = None, private: bool = False, sop_uid: str | None = None) -> str:
    """A small DICOM with PHI in the header and a bright block in the pixels; returns its SOP Instance UID."""
    from pydicom.dataset import Dataset, FileDataset, FileMetaDataset
    from pydicom.uid import SecondaryCaptureImageStorage, generate_uid

    rng = np.random.default_rng(seed)
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    meta.MediaStorageSOPInstanceUID = sop_uid or generate_uid()
    meta.TransferSyntaxUID = "1.2.840.10008.1.2.1"
    ds = FileDataset(str(path), {}, file_meta=meta, preamble=b"\x00" * 128)
    ds.SOPClassUID = SecondaryCaptureImageStorage
    ds.SOPInstanceUID = meta.MediaStorageSOPInstanceUID
    ds.StudyInstanceUID = study
    ds.SeriesInstanceUID = series
    ds.FrameOfReferenceUID = study + ".9"
    ds.Modality = modality
    for k, v in PATIENTS[patient].items():
        setattr(ds, k, v)
    ds.InstitutionName = "Saint Quixby Hospital"
    ds.ReferringPhysicianName = "HOUSE^GREGORY"
    ds.AccessionNumber = "ACC" + patient + study[-3:].replace(".", "")
    ds.StudyDate, ds.StudyTime = study_date, "101500"
    ds.SeriesDate = study_date
    ds.StudyDescription = "CHEST for " + PATIENTS[patient]["PatientName"].split("^")[0]
    ds.BurnedInAnnotation = "YES"
    if referenced:
        ref = Dataset()
        ref.ReferencedSOPClassUID = SecondaryCaptureImageStorage
        ref.ReferencedSOPInstanceUID = referenced
        ds.ReferencedImageSequence = [ref]
    if private:
        ds.private_block(0x0009, "CLINX KEEP", create=True).add_new(0x01, "LO", "kept value")
        ds.private_block(0x0011, "OTHER VENDOR", create=True).add_new(0x01, "LO", PATIENTS[patient]["PatientName"])
    imgs = [_image(rng, rgb=rgb) for _ in range(frames)]
    arr = np.stack(imgs) if frames > 1 else imgs[0]
    ds.Rows, ds.Columns = imgs[0].shape[:2]
    ds.SamplesPerPixel = 3 if rgb else 1
    ds.PhotometricInterpretation = "RGB" if rgb else "MONOCHROME2"
    if rgb:
        ds.PlanarConfiguration = 0
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 8, 8, 7, 0
    if frames > 1:
        ds.NumberOfFrames = frames
    ds.PixelData = np.ascontiguousarray(arr).tobytes()
    if syntax == "1.2.840.10008.1.2.5":
        ds.compress(syntax)
    elif syntax != "1.2.840.10008.1.2.1":
        ds.file_meta.TransferSyntaxUID = syntax
    path.parent.mkdir(parents=True, exist_ok=True)
    ds.save_as(str(path), enforce_file_format=True)
    return str(ds.SOPInstanceUID)


def build_archive(root: Path) -> dict:
    """Two patients, three studies, four modalities, a multi-frame RLE object, an RGB one, a sidecar report and four bad files."""
    from pydicom.dataset import FileDataset, FileMetaDataset
    from pydicom.uid import generate_uid

    rng = np.random.default_rng(7)
    s1, s2, s3 = (f"1.2.826.0.1.3680043.10.511.{int(rng.integers(10**9, 10**10))}" for _ in range(3))
    ct = write_dicom(root / "P1" / "study1" / "ct.dcm", "P1", study=s1, series=s1 + ".1", modality="CT", study_date="20240102", seed=1)
    write_dicom(root / "P1" / "study2" / "mr.dcm", "P1", study=s2, series=s2 + ".1", modality="MR", study_date="20240310",
                seed=2, referenced=ct, syntax="1.2.840.10008.1.2")
    write_dicom(root / "P1" / "study2" / "multi.dcm", "P1", study=s2, series=s2 + ".2", modality="XA", frames=3,
                study_date="20240310", seed=3, syntax="1.2.840.10008.1.2.5")
    write_dicom(root / "P2" / "study3" / "us.dcm", "P2", study=s3, series=s3 + ".1", modality="US", rgb=True,
                study_date="20231111", seed=4, private=True)
    (root / "P2" / "study3" / "report.txt").write_text(
        "Ultrasound for Albrecht Vortigan, MRN5551212, seen 11/11/2023. No focal lesion.\n", encoding="utf-8")
    # bad inputs: zero bytes, corrupt, a structured report (no pixels), a file that is no DICOM at all
    (root / "P2" / "study3" / "empty.dcm").write_bytes(b"")
    (root / "P2" / "study3" / "corrupt.dcm").write_bytes(b"\x00" * 128 + b"DICM" + b"\x02\x00\x10\x00UI\xff\x7f" + b"garbage" * 5)
    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = "1.2.840.10008.5.1.4.1.1.88.11"  # Basic Text SR
    meta.MediaStorageSOPInstanceUID = generate_uid()
    meta.TransferSyntaxUID = "1.2.840.10008.1.2.1"
    sr = FileDataset("sr", {}, file_meta=meta, preamble=b"\x00" * 128)
    sr.SOPClassUID, sr.SOPInstanceUID, sr.Modality = meta.MediaStorageSOPClassUID, meta.MediaStorageSOPInstanceUID, "SR"
    sr.PatientName, sr.PatientID = PATIENTS["P2"]["PatientName"], PATIENTS["P2"]["PatientID"]
    sr.save_as(str(root / "P2" / "study3" / "sr.dcm"), enforce_file_format=True)
    (root / "P2" / "notes.csv").write_text("not taken\n")
    return {"ct_uid": ct, "studies": (s1, s2, s3)}


@pytest.fixture
def archive(tmp_path) -> tuple[Path, dict]:
    root = tmp_path / "archive"
    info = build_archive(root)
    return root, info


def tree_bytes(root: Path, exclude=("progress.jsonl", "audit.jsonl")) -> dict[str, bytes]:
    """Every file under ``root`` (relative path -> bytes), state logs excluded."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name not in exclude}


@pytest.fixture
def rkit():
    """The helpers above (test modules cannot import conftest under importlib mode)."""
    from types import SimpleNamespace

    return SimpleNamespace(fake_parts=fake_parts, raw_parts=raw_parts, PHI_STRINGS=PHI_STRINGS, PATIENTS=PATIENTS,
                           SECRET=SECRET, tree_bytes=tree_bytes, write_dicom=write_dicom, build_archive=build_archive,
                           BrightLocalizer=BrightLocalizer)
