"""``release_tree`` on a small on-disk archive: what is released, what is not and why, resume, dry run, key file.

Pixels here go through the real sanitization core with a bright-pixel
stand-in for OCR (see conftest); ``test_release_ocr.py`` uses the real engines.
"""

from __future__ import annotations

import json
import os
import stat
from datetime import date

import numpy as np
import pydicom
import pytest

import clinx.release.runner as runner_mod
from clinx.data.dicom import read_dicom
from clinx.data.guards import file_digest
from clinx.errors import ConfigError
from clinx.release.runner import release_tree


def _digests(root):
    return {p.relative_to(root).as_posix(): file_digest(p) for p in sorted(root.rglob("*")) if p.is_file()}


def _assert_no_phi(rkit, *blobs: bytes) -> None:
    for b in blobs:
        for v in rkit.PHI_STRINGS:
            assert v.encode() not in b, "a PHI value is in released bytes, a report or a log"


def _ordinal(x: str) -> int:
    return date(int(x[:4]), int(x[4:6]), int(x[6:])).toordinal()


def test_release_of_an_archive(archive, rkit, tmp_path, caplog):
    src, info = archive
    before = _digests(src)
    out = tmp_path / "rel"
    s = release_tree(src, out, rkit.fake_parts, key_dir=tmp_path / "key")
    assert _digests(src) == before  # the input tree is never touched
    assert (s.released, s.quarantined, s.failed, s.not_processed) == (5, 0, 3, 1)
    outs = {p.relative_to(out).as_posix(): p for p in out.rglob("*") if p.is_file()}
    assert {"P1/study1/ct.dcm", "P1/study2/mr.dcm", "P1/study2/multi.dcm", "P2/study3/us.dcm", "P2/study3/report.txt"} <= set(outs)
    assert not any(k.endswith(("sr.dcm", "empty.dcm", "corrupt.dcm", ".csv")) for k in outs)
    # no PHI in any released byte, in the audit or in the log; no key file unless asked
    _assert_no_phi(rkit, *(p.read_bytes() for p in outs.values()), caplog.text.encode())
    assert not (tmp_path / "key").exists()

    ds = {k: pydicom.dcmread(outs[k]) for k in outs if k.endswith(".dcm")}
    for k, d in ds.items():
        assert d.PatientIdentityRemoved == "YES" and d.BurnedInAnnotation == "NO"
        assert {c.CodeValue for c in d.DeidentificationMethodCodeSequence} >= {"113100", "113101", "113107"}
        assert "StudyDescription" not in d
        frames = read_dicom(outs[k]).frames  # re-read: the bright "name" is gone, the rest is kept
        assert not any(np.all(f == 255, axis=2).any() for f in frames)
    # one patient: one new ID, one shift across studies; UIDs remapped with references still resolving
    p1 = [ds["P1/study1/ct.dcm"], ds["P1/study2/mr.dcm"], ds["P1/study2/multi.dcm"]]
    assert len({d.PatientID for d in p1}) == 1 and p1[0].PatientID != ds["P2/study3/us.dcm"].PatientID
    shifts = {_ordinal(d.StudyDate) - _ordinal(o) for d, o in zip(p1, ("20240102", "20240310", "20240310"))}
    assert len(shifts) == 1 and -730 <= shifts.pop() <= -62
    assert p1[1].StudyInstanceUID == p1[2].StudyInstanceUID != info["studies"][1]
    assert p1[1].ReferencedImageSequence[0].ReferencedSOPInstanceUID == p1[0].SOPInstanceUID != info["ct_uid"]
    # transfer syntax kept (implicit VR, RLE lossless), multi-frame stays multi-frame, private allow-list kept
    assert str(p1[1].file_meta.TransferSyntaxUID) == "1.2.840.10008.1.2"
    assert str(p1[2].file_meta.TransferSyntaxUID) == "1.2.840.10008.1.2.5" and int(p1[2].NumberOfFrames) == 3
    us = ds["P2/study3/us.dcm"]
    assert us.PhotometricInterpretation == "RGB" and {str(e.value) for e in us if e.tag.is_private} == {"CLINX KEEP", "kept value"}
    # the sidecar report: de-identified with the manifest of the DICOMs beside it, and re-scanned clean
    text = outs["P2/study3/report.txt"].read_text()
    assert "No focal lesion" in text and "[NAME]" in text

    audit = json.loads((out / "audit.json").read_text())
    assert audit["by_modality"]["CT"] == {"released": 1} and audit["by_modality"]["SR"] == {"failed": 1}
    reasons = sorted(e["reason"] for e in audit["failed_items"])
    assert reasons == ["corrupt DICOM (no recognisable data elements)", "file is empty (0 bytes)",
                       "structured report (free-text content items; not released)"]
    assert audit["header_actions_by_field"]["PatientName"] == {"replaced": 4}
    assert audit["header_actions_by_field"]["ReferencedSOPInstanceUID"] == {"uid_remapped": 1}
    assert audit["pixels"]["before_reads_by_field"]["BrightLocalizer"]["patient_name"] == 6
    assert audit["transfer_syntax"]["kept"] == 4
    assert audit["not_processed_items"][0]["reason"].startswith("unsupported file type")
    assert "| CT |" in (out / "audit.md").read_text()


def test_verification_hit_quarantines_and_a_stale_release_is_removed(archive, rkit, tmp_path):
    src, _ = archive
    out = tmp_path / "rel"
    release_tree(src, out, rkit.fake_parts)
    assert (out / "P1/study1/ct.dcm").exists()
    # the same folder released again with settings under which the pixels do not pass: nothing stays released
    s = release_tree(src, out, rkit.raw_parts, settings_fp="raw")
    assert s.released == 1 and s.quarantined == 4  # only the text passes
    assert not any(out.rglob("*.dcm"))
    audit = json.loads((out / "audit.json").read_text())
    assert {e["stage"] for e in audit["quarantined_items"]} == {"verify"}
    assert all("still reads PHI" in e["reason"] for e in audit["quarantined_items"])


def test_a_killed_run_resumes_to_a_byte_identical_release(archive, rkit, tmp_path, monkeypatch):
    src, _ = archive
    whole = tmp_path / "whole"
    release_tree(src, whole, rkit.fake_parts)

    class Killed(BaseException):
        pass

    real_replace, calls = os.replace, []

    def dying_replace(a, b):
        calls.append(b)
        if len(calls) == 3:
            raise Killed()  # the process dies with the third output's temp file written, not yet in place
        return real_replace(a, b)

    part = tmp_path / "part"
    monkeypatch.setattr(runner_mod.os, "replace", dying_replace)
    with pytest.raises(Killed):
        release_tree(src, part, rkit.fake_parts)
    monkeypatch.setattr(runner_mod.os, "replace", real_replace)
    assert any(p.name.endswith(".clinx-tmp") for p in part.rglob(".*")) and not (part / "audit.json").exists()

    s = release_tree(src, part, rkit.fake_parts)
    assert s.skipped == 2 and s.processed == 6
    assert rkit.tree_bytes(part) == rkit.tree_bytes(whole)
    # and a third run has nothing left to do
    s = release_tree(src, part, rkit.fake_parts)
    assert s.processed == 0 and s.skipped == 8
    assert rkit.tree_bytes(part) == rkit.tree_bytes(whole)


def test_rerun_redoes_an_item_whose_input_or_output_changed(archive, rkit, tmp_path):
    src, _ = archive
    out = tmp_path / "rel"
    release_tree(src, out, rkit.fake_parts)
    (out / "P1/study1/ct.dcm").write_bytes(b"tampered")  # someone replaced a released file
    text = src / "P2/study3/report.txt"
    text.write_text(text.read_text() + "Follow up.\n")  # an input changed
    s = release_tree(src, out, rkit.fake_parts)
    assert s.processed == 2 and s.skipped == 6
    # the changed input is released anew; the file clinx did not write is left alone and the item is not released
    assert "Follow up." in (out / "P2/study3/report.txt").read_text()
    assert (out / "P1/study1/ct.dcm").read_bytes() == b"tampered"
    audit = json.loads((out / "audit.json").read_text())
    assert [e["stage"] for e in audit["quarantined_items"]] == ["write"]
    assert "did not write" in audit["quarantined_items"][0]["reason"]


def test_dry_run_writes_nothing(archive, rkit, tmp_path):
    src, _ = archive
    out = tmp_path / "rel"
    s = release_tree(src, out, rkit.fake_parts, dry_run=True, key_dir=tmp_path / "key", key_file=True)
    assert not out.exists() and not (tmp_path / "key").exists()
    assert s.audit["would"] == {"process dicom": 7, "process text": 1}
    assert s.audit["by_modality"]["CT"] == 1 and s.audit["not_processed"] == {"unsupported file type (.csv)": 1}


def test_key_file_only_when_asked_and_private(archive, rkit, tmp_path):
    src, _ = archive
    release_tree(src, tmp_path / "rel", rkit.fake_parts, key_dir=tmp_path / "key", key_file=True)
    key = tmp_path / "key" / "key.json"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE((tmp_path / "key").stat().st_mode) == 0o700
    doc = json.loads(key.read_text())
    assert set(doc["patients"]) == {"PatientID:MRN8675309", "PatientID:MRN5551212"}
    shift = doc["patients"]["PatientID:MRN8675309"]["date_shift_days"]
    ct = pydicom.dcmread(tmp_path / "rel/P1/study1/ct.dcm")
    assert _ordinal(ct.StudyDate) - _ordinal("20240102") == shift
    assert ct.StudyInstanceUID in doc["uids"].values()
    with pytest.raises(ConfigError):
        release_tree(src, tmp_path / "rel2", rkit.fake_parts, key_dir=tmp_path / "rel2" / "key", key_file=True)


def test_setup_errors_are_config_errors(archive, rkit, tmp_path):
    src, _ = archive
    with pytest.raises(ConfigError):
        release_tree(src, src / "out", rkit.fake_parts)
    with pytest.raises(ConfigError):
        release_tree(src, tmp_path / "o", rkit.fake_parts, backend="spark")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("not ours")
    with pytest.raises(ConfigError):
        release_tree(src, tmp_path / "full", rkit.fake_parts)


def test_a_folder_of_images_with_a_json_manifest(tmp_path, rkit):
    """A dataset that is not DICOM: PNGs in, PNGs out, the custodian's JSON manifest used for the pixels."""
    from PIL import Image

    from clinx.data.images import load_image
    from clinx.localize.manifests import ManifestSource

    src = tmp_path / "in"
    (src / "case1").mkdir(parents=True)
    img = np.random.default_rng(0).integers(0, 200, size=(40, 56, 3), dtype=np.uint8)
    img[3:9, 3:33] = 255
    Image.fromarray(img).save(src / "case1" / "scan.jpg", quality=100)
    Image.fromarray(img).save(src / "case1" / "scan2.png")
    (tmp_path / "m.json").write_text(json.dumps({"patient_name": "QUIXBY^ZELDARINE"}))
    s = release_tree(src, tmp_path / "out", rkit.fake_parts, manifest_source=ManifestSource(str(tmp_path / "m.json")))
    assert (s.released, s.failed) == (2, 0)
    out = load_image(tmp_path / "out" / "case1" / "scan2.png")
    assert not np.all(out == 255, axis=2).any() and np.array_equal(out[20:], img[20:])
    assert (tmp_path / "out" / "case1" / "scan.png").is_file()  # JPEG in, lossless PNG out
    audit = json.loads((tmp_path / "out" / "audit.json").read_text())
    assert audit["by_modality"] == {"image": {"released": 2}}


def test_cli_setup_error_is_one_line_and_creates_nothing(archive, tmp_path):
    import subprocess
    import sys

    src, _ = archive
    r = subprocess.run([sys.executable, "-m", "clinx.cli", "release", f"input_dir={src}", f"output_dir={src / 'rel'}",
                        f"paths.runs_dir={tmp_path / 'runs'}"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "inside input_dir" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (src / "rel").exists() and not (src / "rel.key").exists()  # no key folder made inside the input
    r = subprocess.run([sys.executable, "-m", "clinx.cli", "release", "release.backend=spark", f"input_dir={src}",
                        f"output_dir={tmp_path / 'o'}", f"paths.runs_dir={tmp_path / 'runs'}"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 2 and "release.backend" in r.stderr


def test_an_image_question_dataset_in_jsonl(tmp_path, rkit):
    """A JSONL dataset: questions and answers de-identified with each line's manifest, the manifest dropped, the
    image path pointed at the released PNG, and the line's manifest used for that image's pixels."""
    from PIL import Image

    src = tmp_path / "in"
    (src / "imgs").mkdir(parents=True)
    img = np.random.default_rng(1).integers(0, 200, size=(40, 56, 3), dtype=np.uint8)
    img[3:9, 3:33] = 255
    Image.fromarray(img).save(src / "imgs" / "a1.bmp")
    line = {"id": "a1", "image": "imgs/a1.bmp", "question": "Is there a fracture in Zeldarine Quixby's left arm?",
            "answer": "no", "manifest": {"patient_name": "QUIXBY^ZELDARINE", "mrn": "MRN8675309"}}
    (src / "test.jsonl").write_text(json.dumps(line) + "\n")
    s = release_tree(src, tmp_path / "out", rkit.fake_parts)
    assert (s.released, s.failed, s.quarantined) == (2, 0, 0)
    got = json.loads((tmp_path / "out" / "test.jsonl").read_text())
    assert set(got) == {"id", "image", "question", "answer"} and got["image"] == "imgs/a1.png"
    assert "Quixby" not in got["question"] and "fracture" in got["question"] and got["answer"] == "no"
    assert (tmp_path / "out" / got["image"]).is_file()
    audit = json.loads((tmp_path / "out" / "audit.json").read_text())
    assert audit["text"]["removed_by_category"].get("NAME", 0) >= 1 and audit["by_modality"]["dataset"] == {"released": 1}
    _assert_no_phi(rkit, *(p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()))
    from clinx.release.runner import _dataset_links
    from clinx.sanitize.inputs import plan_outputs, scan_inputs

    files, _ = scan_inputs(src)
    manifests, renames = _dataset_links(src, ["test.jsonl"], plan_outputs(files, tmp_path / "o"), tmp_path / "o")
    assert manifests["imgs/a1.bmp"].fields["mrn"] == "MRN8675309" and renames == {"test.jsonl": {"imgs/a1.bmp": "imgs/a1.png"}}


def test_an_input_named_like_a_release_state_file_is_refused(tmp_path, rkit):
    src = tmp_path / "in"
    src.mkdir()
    (src / "audit.jsonl").write_text(json.dumps({"image": "x.png", "question": "q", "answer": "a"}) + "\n")
    s = release_tree(src, tmp_path / "out", rkit.fake_parts)
    audit = json.loads((tmp_path / "out" / "audit.json").read_text())
    assert s.failed == 1 and audit["failed_items"][0]["reason"] == "the output name is a release state file's name"
    assert json.loads((tmp_path / "out" / "audit.jsonl").read_text().splitlines()[0])["status"] == "failed"
