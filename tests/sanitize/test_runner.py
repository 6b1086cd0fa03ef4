"""The fail-closed runner: outputs, quarantine, resume, never overwriting inputs, no PHI in logs."""

import hashlib
import json
import logging

import numpy as np
import pytest

from clinx.data.images import load_image
from clinx.errors import ClinxError
from clinx.records import Manifest, Sample
from clinx.sanitize.conditions import Condition, get_condition
from clinx.sanitize.runner import (
    PROGRESS_FILE,
    QUARANTINE_FILE,
    SUMMARY_FILE,
    read_jsonl,
    sanitize_folder,
    sanitize_samples,
    scrub,
)


def done_records(out):
    return [r for r in read_jsonl(out / PROGRESS_FILE) if r.get("type") == "done"]


def digest_tree(root):
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def folder(tmp_path, kit):
    src = tmp_path / "in"
    kit.write_png(src / "a.png", kit.phi_image(0))
    kit.write_png(src / "sub" / "b.png", kit.phi_image(1))
    # JPEG would smear the pure red key colour; TIFF is lossless
    kit.write_png(src / "sub" / "c.tif", kit.phi_image(2))
    (src / "notes.txt").write_text("not an image")
    return src


def test_folder_sanitized_with_layout_and_state_files(folder, tmp_path, kit, manifest_file):
    out = tmp_path / "out"
    before = digest_tree(folder)
    s = sanitize_folder(folder, out, get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    assert (s.processed, s.sanitized, s.quarantined, s.skipped) == (3, 3, 0, 0)
    for rel in ("a.png", "sub/b.png", "sub/c.png"):
        img = load_image(out / rel)
        assert not ((img[:, :, 0] == 255) & (img[:, :, 1] == 0) & (img[:, :, 2] == 0)).any()
        assert (img[4:10, 4:30] == 0).all()
    orig = load_image(folder / "a.png")
    got = load_image(out / "a.png")
    outside = np.ones(orig.shape[:2], bool)
    outside[4:10, 4:30] = False
    assert np.array_equal(orig[outside], got[outside])
    assert digest_tree(folder) == before, "inputs must never change"
    assert len(done_records(out)) == 3
    assert json.loads((out / SUMMARY_FILE).read_text())["sanitized"] == 3
    assert "sanitized" in s.table()


def test_rerun_resumes(folder, tmp_path, kit, manifest_file):
    out = tmp_path / "out"
    sanitize_folder(folder, out, get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    mtimes = {p: p.stat().st_mtime_ns for p in out.rglob("*.png")}
    loc = kit.RedLocalizer()
    s2 = sanitize_folder(folder, out, get_condition("ocr"), loc, manifest_file, progress=False)
    assert (s2.processed, s2.skipped, s2.sanitized) == (3, 3, 0)
    assert loc.calls == 0, "finished items must not be OCR'd again"
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.png")} == mtimes
    # a different condition is different work: not skipped
    s3 = sanitize_folder(folder, out, get_condition("ocr", fill=255), kit.RedLocalizer(), manifest_file, progress=False)
    assert s3.skipped == 0 and s3.sanitized == 3
    # a changed input is redone, the others are skipped
    kit.write_png(folder / "a.png", kit.phi_image(7))
    s4 = sanitize_folder(folder, out, get_condition("ocr", fill=255), kit.RedLocalizer(), manifest_file, progress=False)
    assert (s4.skipped, s4.sanitized) == (2, 1)


@pytest.mark.parametrize("where", ["same", "inside", "parent"])
def test_overlapping_output_refused(folder, kit, manifest_file, where):
    out = {"same": folder, "inside": folder / "clean", "parent": folder.parent}[where]
    before = digest_tree(folder)
    with pytest.raises(ClinxError):
        sanitize_folder(folder, out, get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    assert digest_tree(folder) == before


def test_bad_inputs_are_quarantined_and_batch_goes_on(tmp_path, kit, caplog):
    src = tmp_path / "in"
    mdir = tmp_path / "manifests"
    good = kit.write_png(src / "good.png", kit.phi_image(0))
    raw_png = good.read_bytes()
    (src / "corrupt.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (src / "truncated.png").write_bytes(raw_png[: len(raw_png) // 2])
    (src / "empty.png").write_bytes(b"")
    kit.write_png(src / "tiny.png", np.zeros((1, 1, 3), np.uint8))
    kit.png_header_only(src / "bomb.png", 20000, 20000)
    kit.write_dicom(src / "nopixels.dcm", None)
    for name in ("badutf8", "badjson", "emptyfields", "nomanifest"):
        kit.write_png(src / f"{name}.png", kit.phi_image(3))
    mdir.mkdir()
    for name in ("good", "corrupt", "truncated", "empty", "tiny", "bomb", "nopixels"):
        (mdir / f"{name}.json").write_text(json.dumps(kit.MANIFEST))
    (mdir / "badutf8.json").write_bytes(b'{"patient_name": "QUIXBY \xff\xfe"}')
    (mdir / "badjson.json").write_text('{"patient_name": "QUIXBY^ZELDARINE", ')
    (mdir / "emptyfields.json").write_text(json.dumps({"patient_name": "", "mrn": "   "}))
    out = tmp_path / "out"
    caplog.set_level(logging.DEBUG)
    s = sanitize_folder(src, out, get_condition("ocr"), kit.RedLocalizer(), mdir, progress=False, log_paths="relative")

    assert s.processed == 11 and s.sanitized == 1 and s.quarantined == 10
    q = {r["item"]: r for r in read_jsonl(out / QUARANTINE_FILE)}
    expected = {
        "corrupt.png": "read",
        "truncated.png": "read",
        "empty.png": "read",
        "tiny.png": "read",
        "bomb.png": "read",
        "nopixels.dcm": "read",
        "badutf8.png": "manifest",
        "badjson.png": "manifest",
        "emptyfields.png": "manifest",
        "nomanifest.png": "manifest",
    }
    assert {k: v["stage"] for k, v in q.items()} == expected
    assert "empty" in q["empty.png"]["reason"]
    assert "too small" in q["tiny.png"]["reason"]
    assert "too large" in q["bomb.png"]["reason"]
    assert "pixel data" in q["nopixels.dcm"]["reason"]
    assert "UTF-8" in q["badutf8.png"]["reason"]
    assert "JSON" in q["badjson.png"]["reason"]
    assert "no non-empty fields" in q["emptyfields.png"]["reason"]
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.suffix in (".png", ".dcm"))
    assert written == ["good.png"], "nothing may be written for a quarantined item"
    summary_text = (out / SUMMARY_FILE).read_text()
    summary = json.loads(summary_text)
    assert summary["quarantined"] == 10 and sum(summary["quarantined_by_stage"].values()) == 10
    kit.assert_no_phi(caplog.text, (out / QUARANTINE_FILE).read_text(), summary_text, s.table())
    for name in expected:
        assert name in caplog.text, "each quarantined item is named in the log"


def test_verification_failure_is_quarantined(folder, tmp_path, kit, manifest_file, caplog):
    out = tmp_path / "out"
    # raw leaves the red "PHI" in place: verification must catch it
    s = sanitize_folder(folder, out, get_condition("raw"), kit.RedLocalizer(), manifest_file, progress=False)
    assert s.sanitized == 0 and s.quarantined == 3
    assert set(s.by_stage) == {"verify"}
    rec = read_jsonl(out / QUARANTINE_FILE)[0]
    assert "patient_name" in rec["reason"]
    assert not list(out.rglob("*.png"))
    kit.assert_no_phi(caplog.text, (out / QUARANTINE_FILE).read_text())
    # without verification the same run releases the raw images (explicit opt-out)
    s2 = sanitize_folder(folder, tmp_path / "out2", get_condition("raw"), kit.RedLocalizer(), manifest_file, verify=False, progress=False)
    assert s2.sanitized == 3


def test_stale_output_removed_when_item_now_fails(folder, tmp_path, kit, manifest_file):
    out = tmp_path / "out"
    sanitize_folder(folder, out, get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    (folder / "a.png").write_bytes(b"garbage")
    s = sanitize_folder(folder, out, get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    assert s.quarantined == 1 and not (out / "a.png").exists()


class Sloppy(Condition):
    """Paints one pixel outside the mask: must be caught by the composite check."""

    name = "sloppy"

    def apply(self, image, mask, *, seed=0):
        out = image.copy()
        out[mask] = 0
        out[-1, -1] = 255 - out[-1, -1]
        return out


class Exploding(Condition):
    name = "exploding"

    def apply(self, image, mask, *, seed=0):
        raise RuntimeError("QUIXBY^ZELDARINE network exploded")  # a message quoting PHI


def test_condition_errors_and_composite_violations_quarantined(folder, tmp_path, kit, manifest_file, caplog):
    s = sanitize_folder(folder, tmp_path / "o1", Sloppy(), kit.RedLocalizer(), manifest_file, progress=False)
    assert s.quarantined == 3 and set(s.by_stage) == {"condition"}
    assert "outside the PHI mask" in read_jsonl(tmp_path / "o1" / QUARANTINE_FILE)[0]["reason"]
    s = sanitize_folder(folder, tmp_path / "o2", Exploding(), kit.RedLocalizer(), manifest_file, progress=False)
    assert s.quarantined == 3
    qtext = (tmp_path / "o2" / QUARANTINE_FILE).read_text()
    assert "RuntimeError" in qtext
    kit.assert_no_phi(caplog.text, qtext)


def test_dicom_round_trip_with_header_deidentified(tmp_path, kit, manifest_file):
    import pydicom

    src = tmp_path / "in"
    kit.write_dicom(src / "scan.dcm", kit.phi_image(4))
    out = tmp_path / "out"
    s = sanitize_folder(src, out, get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    assert s.sanitized == 1, s.quarantine
    ds = pydicom.dcmread(out / "scan.dcm")
    text = str(ds)
    kit.assert_no_phi(text)
    assert "Quixby Hospital" not in text
    assert ds.PatientIdentityRemoved == "YES"
    arr = ds.pixel_array
    assert arr.shape[:2] == (48, 64) and (arr[4:10, 4:30] == 0).all()


def test_samples_runner_and_scrub(tmp_path, kit):
    m = Manifest.from_dict(kit.MANIFEST)
    samples = [Sample(id=f"s{i}", image=kit.phi_image(i), manifest=m) for i in range(3)]
    samples.append(Sample(id="broken", image=None, manifest=m))
    s = sanitize_samples(samples, tmp_path / "o", get_condition("ocr"), kit.RedLocalizer(), progress=False)
    assert s.sanitized == 3 and s.quarantined == 1
    assert set(s.outputs) == {"s0", "s1", "s2"} and all(p.is_file() for p in s.outputs.values())
    assert scrub("got QUIXBY^ZELDARINE and zeldarine", m) == "got [patient_name] and [patient_name]"


def test_multiframe_dicom_every_frame_sanitized(tmp_path, kit, manifest_file):
    import pydicom

    frames = np.stack([kit.phi_image(5), kit.phi_image(6)])
    frames[1, 30:36, 40:60] = (255, 0, 0)  # PHI at a different place in frame 2
    src = tmp_path / "in"
    kit.write_dicom(src / "cine.dcm", frames)
    out = tmp_path / "out"
    s = sanitize_folder(src, out, get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    assert s.sanitized == 1 and s.frames == 2, s.quarantine
    arr = pydicom.dcmread(out / "cine.dcm").pixel_array
    assert arr.shape[:3] == (2, 48, 64)
    assert (arr[0, 4:10, 4:30] == 0).all() and (arr[1, 4:10, 4:30] == 0).all() and (arr[1, 30:36, 40:60] == 0).all()
    assert np.array_equal(arr[0, 20:30, 0:10], frames[0, 20:30, 0:10])


def test_manifest_from_dicom_header(tmp_path, kit, caplog):
    import pydicom

    src = tmp_path / "in"
    kit.write_dicom(src / "with_phi.dcm", kit.phi_image(8))
    kit.write_dicom(src / "anon.dcm", kit.phi_image(9), name="", mrn="")
    kit.write_png(src / "plain.png", kit.phi_image(10))  # no header to take a manifest from
    out = tmp_path / "out"
    s = sanitize_folder(src, out, get_condition("ocr"), kit.RedLocalizer(), "dicom", progress=False, log_paths="relative")
    q = {r["item"]: r for r in read_jsonl(out / QUARANTINE_FILE)}
    assert s.sanitized + s.quarantined == 3 and (out / "with_phi.dcm").is_file()
    assert kit.PHI_VALUES[0] not in str(pydicom.dcmread(out / "with_phi.dcm"))
    assert q["plain.png"]["stage"] == "manifest" and "not a DICOM" in q["plain.png"]["reason"]
    # the anonymous header still names the institution and the study date, so it may pass or fail closed;
    # either way nothing for a quarantined item is written
    if "anon.dcm" in q:
        assert not (out / "anon.dcm").exists()
    kit.assert_no_phi(caplog.text, (out / QUARANTINE_FILE).read_text(), (out / SUMMARY_FILE).read_text())


def test_per_item_manifest_file(tmp_path, kit):
    src = tmp_path / "in"
    kit.write_png(src / "a.png", kit.phi_image(0))
    kit.write_png(src / "b.png", kit.phi_image(1))
    mf = tmp_path / "manifests.json"
    mf.write_text(json.dumps({"a.png": kit.MANIFEST, "c.png": kit.MANIFEST}))
    s = sanitize_folder(src, tmp_path / "out", get_condition("ocr"), kit.RedLocalizer(), mf, progress=False, log_paths="relative")
    assert s.sanitized == 1 and s.quarantine[0]["item"] == "b.png"
    assert "no entry" in s.quarantine[0]["reason"]


def test_broken_shared_manifest_quarantines_each_item(tmp_path, folder, kit):
    mf = tmp_path / "m.json"
    mf.write_bytes(b"\xff\xfe not json")
    s = sanitize_folder(folder, tmp_path / "out", get_condition("ocr"), kit.RedLocalizer(), mf, progress=False)
    assert s.quarantined == 3 and s.sanitized == 0
    assert all("UTF-8" in r["reason"] for r in s.quarantine)


def test_parallel_localizers_give_the_same_outputs(tmp_path, kit, manifest_file):
    src = tmp_path / "in"
    for i in range(7):
        kit.write_png(src / f"img{i}.png", kit.phi_image(i))
    kit.write_png(src / "tiny.png", np.zeros((1, 1, 3), np.uint8))
    one = sanitize_folder(src, tmp_path / "one", get_condition("ocr"), kit.RedLocalizer(), manifest_file, progress=False)
    locs = [kit.RedLocalizer(), kit.RedLocalizer()]
    two = sanitize_folder(src, tmp_path / "two", get_condition("ocr"), locs, manifest_file, batch_size=3, progress=False)
    assert (two.sanitized, two.quarantined) == (one.sanitized, one.quarantined) == (7, 1)
    assert all(loc.calls > 0 for loc in locs), "both OCR slots were used"
    assert sum(loc.calls for loc in locs) == 14  # locate + verify per released image
    for i in range(7):
        assert (tmp_path / "one" / f"img{i}.png").read_bytes() == (tmp_path / "two" / f"img{i}.png").read_bytes()
    assert len(done_records(tmp_path / "two")) == 7


class PatternLocalizer:
    """A manifest+patterns localizer stand-in: pure red is a name (needs the manifest), pure green a date pattern."""

    mode = "manifest+patterns"

    def locate(self, image, manifest, *, item="<image>"):
        from types import SimpleNamespace

        red = (image[:, :, 0] == 255) & (image[:, :, 1] == 0) & (image[:, :, 2] == 0)
        green = (image[:, :, 0] == 0) & (image[:, :, 1] == 255) & (image[:, :, 2] == 0)
        mask = green | (red if manifest else np.zeros_like(red))
        matches = [SimpleNamespace(field="pattern:DATE")] if green.any() else []
        if manifest and red.any():
            matches.append(SimpleNamespace(field="patient_name"))
        mode = "manifest+patterns" if manifest else "patterns"
        return SimpleNamespace(mask=mask, matches=matches, detections=[], mode_used=mode)


def test_without_a_manifest_only_patterns_run_and_the_summary_says_so(tmp_path, kit, caplog):
    src = tmp_path / "in"
    img = kit.phi_image(0)
    img[4:10, 4:30] = (0, 255, 0)  # only a date, found by pattern
    kit.write_png(src / "a.png", img)
    out = tmp_path / "out"
    s = sanitize_folder(src, out, get_condition("blackout"), PatternLocalizer(), "none", progress=False)
    assert s.sanitized == 1 and (load_image(out / "a.png")[4:10, 4:30] == 0).all()
    summary = json.loads((out / SUMMARY_FILE).read_text())
    assert summary["localize_modes"] == {"patterns": 1}
    assert summary["note"] == "no manifest: only identifier patterns were used to find PHI"
    assert "only identifier patterns" in s.table()
    assert summary["engines"]["localize"]["matches_by_field"] == {"pattern:DATE": 1}
    # with a manifest the same localizer matches both, and no such note is written
    mf = tmp_path / "m.json"
    mf.write_text(json.dumps(kit.MANIFEST))
    s2 = sanitize_folder(src, tmp_path / "out2", get_condition("blackout"), PatternLocalizer(), mf, progress=False)
    assert "note" not in json.loads((tmp_path / "out2" / SUMMARY_FILE).read_text()) and s2.modes == {"manifest+patterns": 1}


def test_manifest_none_with_a_manifest_only_localizer_is_a_config_error(tmp_path, kit):
    class ManifestOnly(kit.RedLocalizer):
        mode = "manifest"

    kit.write_png(tmp_path / "in" / "a.png", kit.phi_image(0))
    with pytest.raises(ClinxError, match="manifest=none needs"):
        sanitize_folder(tmp_path / "in", tmp_path / "out", get_condition("blackout"), ManifestOnly(), "none", progress=False)
    assert not (tmp_path / "out").exists()
