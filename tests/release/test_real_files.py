"""Real-world DICOM from pydicom's test data through the release: what it keeps, what it refuses and why."""

from __future__ import annotations

import json
import shutil

import pydicom
from pydicom.data import get_testdata_file

from clinx.release.runner import release_tree

FILES = ("CT_small.dcm", "MR_small.dcm", "emri_small.dcm", "SC_rgb_rle.dcm", "MR_small_bigendian.dcm", "SC_rgb_jpeg.dcm",
         "rtplan.dcm")


def test_pydicom_test_files(tmp_path, rkit):
    src = tmp_path / "in"
    src.mkdir()
    for n in FILES:
        shutil.copy(get_testdata_file(n, download=False), src / n)
    s = release_tree(src, tmp_path / "out", rkit.fake_parts)
    assert (s.released, s.quarantined, s.failed) == (6, 0, 1)
    audit = json.loads((tmp_path / "out" / "audit.json").read_text())
    assert [e["reason"] for e in audit["failed_items"]] == ["DICOM has no pixel data"]  # the RT plan
    syntax = {n: str(pydicom.dcmread(tmp_path / "out" / n).file_meta.TransferSyntaxUID) for n in FILES[:-1]}
    assert syntax["SC_rgb_rle.dcm"] == "1.2.840.10008.1.2.5"  # RLE kept
    assert syntax["MR_small_bigendian.dcm"] == syntax["SC_rgb_jpeg.dcm"] == "1.2.840.10008.1.2.1"  # retired / lossy: explicit LE
    assert audit["transfer_syntax"]["notes"] == {
        "big-endian or unknown syntax written as Explicit VR Little Endian": 1,
        "lossy original syntax: re-encoding would change the verified pixels": 1,
    }
    emri = pydicom.dcmread(tmp_path / "out" / "emri_small.dcm")
    assert int(emri.NumberOfFrames) == 10 and emri.pixel_array.shape[0] == 10
    for n in FILES[:-1]:
        src_ds, out_ds = pydicom.dcmread(src / n), pydicom.dcmread(tmp_path / "out" / n)
        assert out_ds.PatientIdentityRemoved == "YES" and not any(e.tag.is_private for e in out_ds)
        if str(src_ds.get("PatientName", "")):
            assert str(out_ds.PatientName) != str(src_ds.PatientName)
