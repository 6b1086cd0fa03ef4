"""The release's own gates: an output that does not decode to the verified pixels, or whose header still
holds a manifest value, is quarantined — whatever the step before did."""

from __future__ import annotations

import json

import numpy as np

import clinx.data.dicom as dicom_mod
import clinx.sanitize.header as header_mod
from clinx.release.runner import release_tree


def _one(tmp_path, rkit, **kw):
    src = tmp_path / "in"
    rkit.write_dicom(src / "a.dcm", "P2", study="1.2.826.0.1.3680043.10.511.5", series="1.2.826.0.1.3680043.10.511.5.1",
                     modality="CT", seed=5, **kw)
    return src


def test_output_that_decodes_to_other_pixels_is_quarantined(tmp_path, rkit, monkeypatch):
    src = _one(tmp_path, rkit)
    real = dicom_mod.dicom_like_bytes

    def encoder_that_brings_the_name_back(header, frames, **kw):
        frames = [f.copy() for f in frames]
        for f in frames:
            f[2:8, 2:30] = 255
        return real(header, frames, **kw)

    monkeypatch.setattr(dicom_mod, "dicom_like_bytes", encoder_that_brings_the_name_back)
    s = release_tree(src, tmp_path / "out", rkit.fake_parts)
    assert s.released == 0 and s.quarantined == 1 and not (tmp_path / "out" / "a.dcm").exists()
    q = json.loads((tmp_path / "out" / "audit.json").read_text())["quarantined_items"][0]
    assert q["stage"] == "write" and "other pixels than the verified ones" in q["reason"]


def test_header_that_still_holds_a_manifest_value_is_quarantined(tmp_path, rkit, monkeypatch):
    from pydicom import dcmread

    src = _one(tmp_path, rkit, private=True)
    ds = dcmread(src / "a.dcm")
    # an allow-listed private tag that carries the patient's ID: only the manifest scrub would catch it
    ds.private_block(0x0009, "CLINX KEEP", create=True).add_new(0x02, "LO", "ref " + rkit.PATIENTS["P2"]["PatientID"])
    ds.save_as(src / "a.dcm", enforce_file_format=True)
    monkeypatch.setattr(header_mod, "scrub_manifest_values", lambda ds, manifest: [])
    s = release_tree(src, tmp_path / "out", rkit.fake_parts)
    assert s.released == 0 and s.quarantined == 1
    q = json.loads((tmp_path / "out" / "audit.json").read_text())["quarantined_items"][0]
    assert q["stage"] == "write" and "mrn" in q["reason"] and rkit.PATIENTS["P2"]["PatientID"] not in q["reason"]
    # with the scrub in place the same file is released, the kept private value emptied
    monkeypatch.undo()
    s = release_tree(src, tmp_path / "out2", rkit.fake_parts)
    assert s.released == 1
    out = dcmread(tmp_path / "out2" / "a.dcm")
    assert "kept value" in [str(e.value) for e in out if e.tag.is_private]
    assert not any(rkit.PATIENTS["P2"]["PatientID"] in str(e.value) for e in out.iterall())
    assert np.all(out.pixel_array[2:8, 2:30] == 0)


def test_text_the_rescan_still_reads_is_quarantined(tmp_path, rkit, monkeypatch):
    import clinx.text.pipeline as pipeline
    from clinx.text.base import TextResult

    src = _one(tmp_path, rkit)
    (src / "report.txt").write_text("Seen: Albrecht Vortigan, MRN5551212, 11/11/2023.\n")
    monkeypatch.setattr(pipeline, "deidentify", lambda text, level, manifest: TextResult(text))  # a level that removes nothing
    s = release_tree(src, tmp_path / "out", rkit.fake_parts)
    assert not (tmp_path / "out" / "report.txt").exists()
    q = json.loads((tmp_path / "out" / "audit.json").read_text())["quarantined_items"]
    assert [(e["kind"], e["stage"]) for e in q] == [("text", "verify")] and "re-scan still finds" in q[0]["reason"]
    assert s.released == 1  # the DICOM beside it is not held back
