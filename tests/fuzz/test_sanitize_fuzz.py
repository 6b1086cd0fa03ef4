"""Fuzz ``clinx sanitize``: byte-level damage of PNG / DICOM / JSON manifests, and hostile file trees.

Whatever the damage, the sanitizer must fail closed and stay quiet about PHI:

* only :class:`~clinx.errors.ClinxError` subclasses come out of the readers
  (never a library exception, never a RecursionError);
* a batch always finishes: every item is released or quarantined with a
  stage and a reason, and nothing is written for a quarantined item;
* released outputs hold no PHI pixels; inputs are never changed;
* no manifest value, header value or file name appears in any record or log
  line, and no file name can add a line to them.

The cases are seeded (Hypothesis with ``derandomize``), so a failure
reproduces; the module's docstring of each test says how many cases it runs.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from clinx.errors import ClinxError
from clinx.records import Manifest
from clinx.sanitize.conditions import get_condition
from clinx.sanitize.runner import INPUTS_FILE, PROGRESS_FILE, QUARANTINE_FILE, SUMMARY_FILE, read_jsonl, sanitize_folder

SECRETS = ("QUIXBY", "ZELDARINE", "8675309")
MANIFEST = {"fields": {"patient_name": "QUIXBY^ZELDARINE", "mrn": "MRN8675309"}}
STAGES = {"read", "manifest", "localize", "ocr", "condition", "verify", "write"}
FUZZ = settings(derandomize=True, deadline=None, suppress_health_check=list(HealthCheck), database=None)


class RedLocalizer:
    """Pure red pixels are the burned-in PHI (field ``patient_name``)."""

    def locate(self, image, manifest, *, item="<image>"):
        from types import SimpleNamespace

        m = (image[:, :, 0] == 255) & (image[:, :, 1] == 0) & (image[:, :, 2] == 0)
        return SimpleNamespace(mask=m, matches=[SimpleNamespace(field="patient_name")] if m.any() else [], detections=[])


def phi_image(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = rng.integers(0, 200, size=(40, 56, 3), dtype=np.uint8)
    img[4:10, 4:30] = (255, 0, 0)
    return img


def png_bytes(seed: int = 0) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(phi_image(seed)).save(buf, format="PNG")
    return buf.getvalue()


def dicom_bytes(seed: int = 0) -> bytes:
    import pydicom
    from pydicom.dataset import FileDataset, FileMetaDataset
    from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage, generate_uid

    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    meta.MediaStorageSOPInstanceUID = "1.2.3.4"
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = FileDataset("x", {}, file_meta=meta, preamble=b"\x00" * 128)
    ds.SOPClassUID = SecondaryCaptureImageStorage
    ds.SOPInstanceUID = "1.2.3.4"
    ds.StudyInstanceUID, ds.SeriesInstanceUID = generate_uid(), generate_uid()
    ds.Modality = "OT"
    ds.PatientName = "QUIXBY^ZELDARINE"
    ds.PatientID = "MRN8675309"
    img = phi_image(seed)
    ds.Rows, ds.Columns = img.shape[:2]
    ds.SamplesPerPixel, ds.PhotometricInterpretation, ds.PlanarConfiguration = 3, "RGB", 0
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 8, 8, 7, 0
    ds.PixelData = img.tobytes()
    buf = io.BytesIO()
    pydicom.dcmwrite(buf, ds, enforce_file_format=True)
    return buf.getvalue()


def damage(data: bytes, rng: np.random.Generator) -> bytes:
    """One or more random byte-level injuries: truncation, flips, zeroed/0xFF ranges, junk inserted, ranges cut or doubled."""
    b = bytearray(data)
    for _ in range(int(rng.integers(1, 4))):
        n = len(b)
        if n < 2:
            break
        op = int(rng.integers(0, 7))
        i = int(rng.integers(0, n))
        j = min(n, i + int(rng.integers(1, 64)))
        if op == 0:
            b = b[: max(1, i)]
        elif op == 1:
            for k in rng.integers(0, n, size=int(rng.integers(1, 16))):
                b[int(k)] ^= 1 << int(rng.integers(0, 8))
        elif op == 2:
            b[i:j] = bytes(j - i)
        elif op == 3:
            b[i:j] = b"\xff" * (j - i)
        elif op == 4:
            b[i:i] = rng.integers(0, 256, size=int(rng.integers(1, 128)), dtype=np.uint8).tobytes()
        elif op == 5:
            del b[i:j]
        else:
            b[i:i] = b[i:j]
    return bytes(b)


def tree_digest(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def assert_quiet(*texts: str) -> None:
    for t in texts:
        for s in SECRETS:
            assert s not in t and s.lower() not in t.lower(), "a PHI value or a PHI-bearing file name leaked"


def check_run(out: Path, s, n_items: int) -> None:
    """The invariants every sanitize run keeps, whatever its inputs."""
    assert s.processed == n_items and s.sanitized + s.quarantined + s.skipped == n_items
    q = read_jsonl(out / QUARANTINE_FILE)
    assert len(q) == s.quarantined
    for line in (out / QUARANTINE_FILE).read_text().splitlines():
        json.loads(line)  # one record per line: nothing forged a line
    assert all(r["stage"] in STAGES and r["reason"] for r in q)
    released = [p for p in out.rglob("*") if p.suffix in (".png", ".dcm") and not p.name.startswith(".")]
    assert len(released) == s.sanitized + s.skipped, "nothing is written for a quarantined item"
    for p in released:
        if p.suffix == ".png":
            img = np.asarray(Image.open(p).convert("RGB"))
        else:
            import pydicom

            img = pydicom.dcmread(p).pixel_array
            assert_quiet(str(pydicom.dcmread(p, stop_before_pixels=True)))
        red = (img[..., 0] == 255) & (img[..., 1] == 0) & (img[..., 2] == 0)
        assert not red.any(), "a released output still holds the PHI pixels"


# ----------------------------------------------------------------- whole batches of damaged files


@pytest.mark.parametrize("seed", range(3))
def test_batch_of_damaged_png_dicom_and_manifests_fails_closed(tmp_path, seed, caplog):
    """3 seeds x (24 PNG + 24 DICOM + 24 damaged per-item manifests) = 216 damaged items through the whole runner."""
    rng = np.random.default_rng(seed)
    src, mdir, out = tmp_path / "in", tmp_path / "manifests", tmp_path / "out"
    src.mkdir()
    mdir.mkdir()
    good_png, good_dcm, good_json = png_bytes(seed), dicom_bytes(seed), json.dumps(MANIFEST).encode()
    n = 24
    for i in range(n):
        # File names carry the 'patient' too: with log.paths=hash they must never show.
        (src / f"QUIXBY_png_{i}.png").write_bytes(damage(good_png, rng))
        (src / f"QUIXBY_dcm_{i}.dcm").write_bytes(damage(good_dcm, rng))
        (src / f"QUIXBY_man_{i}.png").write_bytes(good_png)
        for kind in ("png", "dcm"):
            (mdir / f"QUIXBY_{kind}_{i}.json").write_bytes(good_json)
        (mdir / f"QUIXBY_man_{i}.json").write_bytes(damage(good_json, rng))
    before = tree_digest(src)
    caplog.set_level(logging.DEBUG)
    s = sanitize_folder(src, out, get_condition("blackout"), RedLocalizer(), mdir, progress=False, output_names="hash")
    check_run(out, s, 3 * n)
    assert s.quarantined > 0 and s.sanitized > 0, "the damage must both break and spare some files"
    assert tree_digest(src) == before, "inputs never change"
    assert_quiet(caplog.text, s.table(), *[(out / f).read_text() for f in (PROGRESS_FILE, QUARANTINE_FILE, SUMMARY_FILE)])
    # the same damaged batch again: finished items resume, the others fail the same way
    s2 = sanitize_folder(src, out, get_condition("blackout"), RedLocalizer(), mdir, progress=False, output_names="hash")
    assert (s2.skipped, s2.sanitized, s2.quarantined) == (s.sanitized, 0, s.quarantined)
    assert s2.by_reason == s.by_reason


# ----------------------------------------------------------------- single readers, many cases


@settings(FUZZ, max_examples=150)
@given(seed=st.integers(0, 2**32 - 1))
def test_damaged_png_bytes_give_pixels_or_an_input_error(seed):
    """150 damaged PNGs through the raster reader."""
    from clinx.data.images import load_image_bytes

    data = damage(png_bytes(), np.random.default_rng(seed))
    try:
        img = load_image_bytes(data, item="item-x")
    except ClinxError as exc:
        assert exc.item == "item-x"
        return
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3


@settings(FUZZ, max_examples=100)
@given(seed=st.integers(0, 2**32 - 1))
def test_damaged_dicom_bytes_give_frames_or_an_input_error(tmp_path_factory, seed):
    """100 damaged DICOMs through the DICOM reader: only InputError, never a header value in the message."""
    from clinx.data.dicom import read_dicom

    path = tmp_path_factory.mktemp("dcm") / "x.dcm"
    path.write_bytes(damage(dicom_bytes(), np.random.default_rng(seed)))
    try:
        dcm = read_dicom(path, item="item-x")
    except ClinxError as exc:
        assert_quiet(str(exc))
        return
    assert all(f.dtype == np.uint8 and f.shape[2] == 3 for f in dcm.frames)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=20,
)


@settings(FUZZ, max_examples=200)
@given(doc=json_values, seed=st.integers(0, 2**32 - 1), depth=st.sampled_from([0, 0, 0, 30, 5000]))
def test_any_manifest_document_gives_a_manifest_or_an_input_error(tmp_path_factory, doc, seed, depth):
    """200 manifest files (random JSON documents, deep nesting, byte damage) through ManifestSource."""
    from clinx.localize.manifests import ManifestSource

    rng = np.random.default_rng(seed)
    body = {"patient_name": "QUIXBY^ZELDARINE", "extra": doc}
    text = json.dumps(body, allow_nan=True)
    if depth:
        text = "[" * depth + text + "]" * depth
    data = text.encode()
    if rng.random() < 0.5:
        data = damage(data, rng)
    folder = tmp_path_factory.mktemp("man")
    (folder / "m.json").write_bytes(data)
    try:
        m = ManifestSource(folder / "m.json").load("a.png", label="item-x")
    except ClinxError as exc:
        assert getattr(exc, "item", "item-x") == "item-x"
        assert_quiet(str(exc))
        return
    assert isinstance(m, Manifest) and m


# ----------------------------------------------------------------- hostile file trees

name_chars = st.sampled_from(list("aZ09 -_.'\"$`;&|*?[]{}()#%~") + ["\n", "\r", "\t", "\x1b", "\u2028", "\u202e", "\u200b", "é", "名"])
file_names = st.text(name_chars, min_size=1, max_size=40).filter(lambda s: s not in (".", "..") and "/" not in s)


@settings(FUZZ, max_examples=25)
@given(names=st.lists(file_names, min_size=1, max_size=5, unique=True), raw=st.binary(min_size=1, max_size=6),
       policy=st.sampled_from(["hash", "relative"]))
def test_hostile_file_names_and_links_never_leak_or_forge_records(tmp_path_factory, names, raw, policy):
    """25 random trees: odd names (control/format characters, shell syntax, non-UTF-8 bytes), links in and out."""
    root = tmp_path_factory.mktemp("tree")
    src, out = root / "in", root / "out"
    src.mkdir()
    (root / "outside.png").write_bytes(png_bytes(1))
    entries, hidden = 0, 0
    for i, name in enumerate(names):
        p = src / f"{name}_QUIXBY{i}.png"
        p.write_bytes(png_bytes(i) if i % 2 == 0 else b"\x89PNG damaged")
        if name.startswith("."):
            hidden += 1  # hidden files are recorded as not processed
        else:
            entries += 1
    bad = src / os.fsdecode(b"QUIXBY_" + raw.replace(b"/", b"_").replace(b"\x00", b"_") + b".png")
    if not bad.exists():
        bad.write_bytes(png_bytes(9))
        entries += 1
    os.symlink(root / "outside.png", src / "QUIXBY_link_out.png")
    os.symlink(src / "missing", src / "QUIXBY_dangling.png")
    (root / "m.json").write_text(json.dumps(MANIFEST))
    s = sanitize_folder(src, out, get_condition("blackout"), RedLocalizer(), root / "m.json", progress=False, log_paths=policy)
    check_run(out, s, entries)
    not_processed = read_jsonl(out / INPUTS_FILE)
    assert len(not_processed) == 2 + hidden and sum(s.not_processed.values()) == 2 + hidden
    for f in (PROGRESS_FILE, QUARANTINE_FILE, SUMMARY_FILE, INPUTS_FILE):
        text = (out / f).read_text(encoding="utf-8")
        assert not any(c in text for c in "\r\x1b\u2028\u202e\u200b"), "control/format characters are escaped"
        if f != SUMMARY_FILE:
            assert all(isinstance(json.loads(x), dict) for x in text.splitlines() if x.strip())
        if policy == "hash" and f != PROGRESS_FILE:  # the journal records released (kept) names
            assert_quiet(text)
    assert not (out / "QUIXBY_link_out.png").exists(), "a link out of the tree is never released"
