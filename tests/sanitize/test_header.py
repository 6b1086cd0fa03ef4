"""DICOM header de-identification and the read-back leak check (clinx.sanitize.header)."""

import pydicom
from pydicom.dataset import Dataset
from pydicom.sequence import Sequence

from clinx.records import Manifest
from clinx.sanitize.header import deidentify_header, dicom_header_leaks

M = Manifest(fields={"patient_name": "QUIXBY^ZELDARINE", "mrn": "MRN8675309"})


def test_leak_check_finds_values_anywhere_and_deidentify_removes_them(tmp_path, kit):
    path = kit.write_dicom(tmp_path / "a.dcm", kit.phi_image(0))
    ds = pydicom.dcmread(path)
    inner = Dataset()
    inner.ImageComments = "seen QUIXBY ZELDARINE here"  # nested two sequences deep, in free text
    outer = Dataset()
    outer.ReferencedImageSequence = Sequence([inner])
    ds.ProcedureCodeSequence = Sequence([outer])
    ds.SeriesDescription = "follow-up mrn8675309"
    ds.save_as(tmp_path / "b.dcm")
    assert dicom_header_leaks(tmp_path / "b.dcm", M) == {"patient_name", "mrn"}
    clean = deidentify_header(ds, M)
    clean.save_as(tmp_path / "c.dcm")
    assert dicom_header_leaks(tmp_path / "c.dcm", M) == set()
    assert clean.PatientIdentityRemoved == "YES" and ds.PatientName == "QUIXBY^ZELDARINE", "the source dataset is untouched"
    assert dicom_header_leaks(tmp_path / "b.dcm", None) == set()
