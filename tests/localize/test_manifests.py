"""Manifests from JSON files and DICOM headers; bad JSON fails clearly without leaking values."""

import json

import pydicom
import pytest
from pydicom.dataset import Dataset

from clinx.errors import InputError
from clinx.localize.manifests import manifest_from_dicom, manifest_from_json, manifests_from_json

SECRET = "ZEBULON^QUIXOTE"


def test_flat_and_structured_json(tmp_path):
    p = tmp_path / "m.json"
    p.write_text(json.dumps({"patient_name": "DOE^JOHN", "mrn": 482913, "email": "", "x": None}), encoding="utf-8")
    m = manifest_from_json(p)
    assert m.fields == {"patient_name": "DOE^JOHN", "mrn": "482913"}
    s = manifest_from_json({"fields": {"birth_date": "1961-03-14"}, "renderings": {"birth_date": ["14-Mar-1961"]}})
    assert s.values_for("birth_date") == ("1961-03-14", "14-Mar-1961")
    lst = manifest_from_json({"other_id": ["A1", "A1-X"]})
    assert lst.fields["other_id"] == "A1" and lst.values_for("other_id") == ("A1", "A1-X")


def test_utf8_bom_is_accepted(tmp_path):
    p = tmp_path / "bom.json"
    p.write_bytes(b"\xef\xbb\xbf" + json.dumps({"patient_name": "Jos\u00e9 N\u00fa\u00f1ez"}).encode())
    assert manifest_from_json(p).fields["patient_name"] == "Jos\u00e9 N\u00fa\u00f1ez"


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "empty"),
        (b"\xff\xfe{\x00", "not UTF-8"),
        (('{"patient_name": "' + SECRET + '",').encode(), "malformed JSON"),
        (b'["a", "b"]', "must be a JSON object"),
        (json.dumps({"patient_name": "", "mrn": "  ", "dob": None}).encode(), "no non-empty fields"),
        (json.dumps({"patient_name": {"family": SECRET}}).encode(), "unsupported values"),
        (json.dumps({"fields": [SECRET]}).encode(), "'fields' must be an object"),
    ],
)
def test_bad_json_raises_clear_input_error_without_values(tmp_path, content, words):
    p = tmp_path / "item_007.json"
    p.write_bytes(content)
    with pytest.raises(InputError) as ei:
        manifest_from_json(p)
    msg = str(ei.value)
    assert words in msg
    assert "item_007.json" in msg
    assert ei.value.stage == "manifest"
    assert "ZEBULON" not in msg and "QUIXOTE" not in msg


def test_empty_manifest_error_names_the_fields(tmp_path):
    p = tmp_path / "e.json"
    p.write_text(json.dumps({"patient_name": "", "mrn": ""}))
    with pytest.raises(InputError, match=r"mrn, patient_name"):
        manifest_from_json(p)


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        manifest_from_json(tmp_path / "nope.json")


def test_per_item_manifest_files(tmp_path):
    p = tmp_path / "all.json"
    p.write_text(json.dumps({"a.png": {"mrn": "1234567"}, "b.png": {"fields": {"patient_name": "Ann Lee"}}}))
    ms = manifests_from_json(p)
    assert set(ms) == {"a.png", "b.png"} and ms["b.png"].fields["patient_name"] == "Ann Lee"
    lst = manifests_from_json([{"image": "c.png", "mrn": "42424242"}, {"file": "d.png", "manifest": {"mrn": "1"}}])
    assert lst["c.png"].fields == {"mrn": "42424242"} and lst["d.png"].fields == {"mrn": "1"}
    with pytest.raises(InputError, match="names no image"):
        manifests_from_json([{"mrn": "1"}])
    with pytest.raises(InputError, match=r"all.json:b.png.*no non-empty"):
        p.write_text(json.dumps({"a.png": {"mrn": "1"}, "b.png": {"mrn": ""}}))
        manifests_from_json(p)


def _dataset():
    ds = Dataset()
    ds.PatientName = "DOE^JOHN^QUINCY"
    ds.PatientID = "00482913"
    ds.PatientBirthDate = "19610314"
    ds.StudyDate = "20240102"
    ds.SeriesDate = "20240102"
    ds.AcquisitionDate = "20240103"
    ds.ContentDate = ""
    ds.InstitutionName = "St Mary Hospital"
    ds.ReferringPhysicianName = "HOUSE^GREGORY"
    ds.AccessionNumber = "A1234567"
    ds.OtherPatientIDs = ["X-99", "00482913"]
    item = Dataset()
    item.PatientID = "Y-77"
    ds.OtherPatientIDsSequence = [item]
    return ds


def test_manifest_from_dicom_dataset():
    m = manifest_from_dicom(_dataset())
    f = m.fields
    assert f["patient_name"] == "DOE^JOHN^QUINCY"
    assert f["patient_name_family_name"] == "DOE"
    assert f["patient_name_given_name"] == "JOHN"
    assert f["patient_name_middle_name"] == "QUINCY"
    assert "JOHN QUINCY DOE" in m.values_for("patient_name") and "DOE JOHN QUINCY" in m.values_for("patient_name")
    assert f["physician_name"] == "HOUSE^GREGORY" and f["physician_name_family_name"] == "HOUSE"
    assert f["mrn"] == "00482913" and f["accession"] == "A1234567" and f["hospital_name"] == "St Mary Hospital"
    assert f["birth_date"] == "19610314"
    for r in ("1961-03-14", "03/14/1961", "14/03/1961", "14-Mar-1961", "Mar 14, 1961"):
        assert r in m.values_for("birth_date")
    assert f["study_date"] == "20240102" and f["series_date"] == "20240102" and f["acquisition_date"] == "20240103"
    assert "content_date" not in f  # empty attributes are skipped
    assert f["other_id"] == "X-99" and f["other_id_2"] == "Y-77"  # the MRN repeat is dropped
    assert len([k for k in f if k.startswith("other_id")]) == 2


def test_manifest_from_real_dicom_file():
    path = pydicom.data.get_testdata_file("CT_small.dcm", download=False)
    ds = pydicom.dcmread(path)
    m = manifest_from_dicom(ds)
    assert m.fields["patient_name"] == str(ds.PatientName)
    assert m.fields["patient_name_family_name"] == ds.PatientName.family_name
    assert m.fields["mrn"] == ds.PatientID
    assert m.fields["hospital_name"] == ds.InstitutionName
    assert m.fields["study_date"] == ds.StudyDate
    assert "birth_date" not in m.fields  # empty in this file
    assert len(m.values_for("study_date")) > 5  # rendered in the common forms
    assert any(k.startswith("other_id") for k in m.fields)  # from OtherPatientIDsSequence


def test_manifest_from_empty_dicom_header_is_empty():
    assert not manifest_from_dicom(Dataset())


def test_numeric_id_keeps_its_zero_padded_renderings_with_a_warning(tmp_path, caplog):
    import logging

    caplog.set_level(logging.WARNING)
    m = manifest_from_json({"mrn": 482913, "accession": "00123", "weight": 72.5})
    assert m.fields["mrn"] == "482913" and "00482913" in m.values_for("mrn") and "0482913" in m.values_for("mrn")
    assert m.values_for("accession") == ("00123",), "IDs given as text are kept exactly"
    assert m.fields["weight"] == "72.5"
    assert "mrn" in caplog.text and "482913" not in caplog.text


@pytest.mark.parametrize("shape", ["list", "object"])
def test_deeply_nested_manifest_is_a_clear_error_not_a_recursion_error(tmp_path, shape):
    depth = 100_000  # ~200 KB of brackets
    body = "[" * depth + "]" * depth if shape == "list" else '{"a":' * depth + "1" + "}" * depth
    p = tmp_path / "deep.json"
    p.write_text(body)
    assert p.stat().st_size >= 200_000
    with pytest.raises(InputError, match="nested"):
        manifest_from_json(p)
    # still a clear error at a depth json itself can parse
    p.write_text('{"patient_name":' + "[" * 40 + '"X"' + "]" * 40 + "}")
    with pytest.raises(InputError, match="nested"):
        manifest_from_json(p)


def test_manifest_source_kinds(tmp_path):
    from clinx.errors import ConfigError, ItemError
    from clinx.localize.manifests import ManifestSource

    assert ManifestSource(None).load("a.png") is None and ManifestSource("none").kind == "none"
    with pytest.raises(ConfigError):
        ManifestSource(tmp_path / "missing.json")
    (tmp_path / "per_item.json").write_text(json.dumps({"a.png": {"mrn": "A1"}}))
    src = ManifestSource(tmp_path / "per_item.json")
    assert src.load("sub/a.png").fields == {"mrn": "A1"}
    with pytest.raises(ItemError) as ei:
        src.load("b.png", label="item-123")
    assert ei.value.item == "item-123" and "b.png" not in str(ei.value)
