"""Header de-identification of a release: dicognito + per-patient shifts + basic-profile removals, on real pydicom files."""

from __future__ import annotations

import copy

import pydicom
import pytest
from pydicom.data import get_testdata_file

from clinx.localize.manifests import manifest_from_dicom
from clinx.release.header import HeaderDeidentifier, date_shift_days, patient_key
from clinx.sanitize.header import dicom_header_leaks


def _ct():
    return pydicom.dcmread(get_testdata_file("CT_small.dcm", download=False))


def test_ct_header_to_the_basic_profile(tmp_path):
    ds = _ct()
    manifest = manifest_from_dicom(ds)
    res = HeaderDeidentifier("s1")(ds, manifest)
    out = res.dataset
    assert str(out.PatientName) != str(ds.PatientName) and out.PatientID != ds.PatientID
    assert out.PatientIdentityRemoved == "YES" and out.LongitudinalTemporalInformationModified == "MODIFIED"
    codes = {c.CodeValue for c in out.DeidentificationMethodCodeSequence}
    assert codes == {"113100", "113101", "113107"}
    assert not any(e.tag.is_private for e in out.iterall())
    for kw in ("StudyDescription", "PatientAge", "PatientWeight", "OtherPatientIDsSequence", "ImageComments"):
        assert kw not in out
    # class UIDs stay, instance UIDs change
    assert out.SOPClassUID == ds.SOPClassUID and out.StudyInstanceUID != ds.StudyInstanceUID
    assert res.uid_map[ds.StudyInstanceUID] == out.StudyInstanceUID
    # the written header holds no manifest value anywhere
    out.save_as(tmp_path / "o.dcm", enforce_file_format=True)
    assert dicom_header_leaks(tmp_path / "o.dcm", manifest) == set()
    # actions are counted by attribute, never with values
    assert res.actions[("PatientName", "replaced")] == 1 and res.actions[("StudyDate", "date_shifted")] == 1
    assert res.actions[("private", "removed")] > 0
    assert all(str(ds.PatientName) not in str(k) for k in res.actions)
    # the original is untouched
    assert str(ds.PatientName) == str(_ct().PatientName) and "PatientIdentityRemoved" not in ds


def test_same_patient_same_shift_and_ids_across_objects_and_instances():
    a, b = _ct(), _ct()
    b.StudyDate, b.StudyInstanceUID = "20050301", "1.2.3.4.5"
    d1, d2 = HeaderDeidentifier("s1"), HeaderDeidentifier("s1")  # two workers with the same secret
    r1, r2 = d1(a), d2(b)
    assert r1.shift_days == r2.shift_days
    assert r1.dataset.PatientID == r2.dataset.PatientID and r1.dataset.PatientName == r2.dataset.PatientName
    from datetime import date

    def days(x: str) -> int:
        return date(int(x[:4]), int(x[4:6]), int(x[6:])).toordinal()

    # intervals between the patient's studies survive the shift
    assert days(r2.dataset.StudyDate) - days(r1.dataset.StudyDate) == days("20050301") - days(a.StudyDate)
    # another patient gets another shift (with these keys), another secret another mapping
    c = _ct()
    c.PatientID = "SOMEONE-ELSE"
    assert d1(c).shift_days != r1.shift_days
    assert HeaderDeidentifier("s2")(_ct()).dataset.StudyInstanceUID != r1.dataset.StudyInstanceUID


def test_shift_is_whole_days_in_bounds_and_keyed():
    shifts = {date_shift_days("k", f"PatientID:{i}", 62, 730) for i in range(200)}
    assert all(-730 <= s <= -62 for s in shifts) and len(shifts) > 100
    assert date_shift_days("k", "PatientID:1") == date_shift_days("k", "PatientID:1") != date_shift_days("k2", "PatientID:1")
    with pytest.raises(ValueError):
        date_shift_days("k", "x", 10, 5)
    ds = _ct()
    assert patient_key(ds).startswith("PatientID:")
    ds.PatientID = ""
    assert patient_key(ds).startswith("PatientName:")


def test_private_tags_removed_unless_allow_listed():
    ds = _ct()
    ds.private_block(0x0009, "KEEP ME", create=True).add_new(0x01, "LO", "keep")
    ds.private_block(0x0011, "DROP ME", create=True).add_new(0x01, "LO", "drop")
    out = HeaderDeidentifier("s", keep_private=["KEEP ME"])(copy.deepcopy(ds)).dataset
    private = {str(e.value) for e in out if e.tag.is_private}
    assert private == {"KEEP ME", "keep"}
    assert not any(e.tag.is_private for e in HeaderDeidentifier("s")(ds).dataset)


def test_manifest_value_in_a_kept_free_text_element_is_emptied():
    ds = _ct()
    ds.BodyPartExamined = "CHEST"
    ds.SeriesDescription = "for " + str(ds.PatientName).split("^")[0]  # removed by the profile anyway
    ds.ImageType = ["ORIGINAL", "PRIMARY", str(ds.PatientID)]
    out = HeaderDeidentifier("s")(ds, manifest_from_dicom(ds)).dataset
    assert str(ds.PatientID) not in str(out.ImageType) and out.BodyPartExamined == "CHEST"
