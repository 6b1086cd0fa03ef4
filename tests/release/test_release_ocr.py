"""``clinx release`` end to end with the real OCR engines: the name burned into a DICOM is masked, verified and audited."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pydicom
import pytest

pytestmark = pytest.mark.slow


def _burned_dicom(path, rkit, *, study: str, seed: int) -> None:
    """A gray 8-bit DICOM with the patient's name drawn in its corner, as a scanner would."""
    from PIL import Image, ImageDraw, ImageFont

    rkit.write_dicom(path, "P1", study=study, series=study + ".1", modality="DX", seed=seed)
    ds = pydicom.dcmread(path)
    img = Image.new("L", (480, 160), 30)
    draw = ImageDraw.Draw(img)
    draw.text((12, 12), "QUIXBY, ZELDARINE", fill=235, font=ImageFont.load_default(size=28))
    draw.text((12, 110), "PORTABLE", fill=235, font=ImageFont.load_default(size=28))
    arr = np.asarray(img, dtype=np.uint8)
    ds.Rows, ds.Columns = arr.shape
    ds.PixelData = arr.tobytes()
    ds.save_as(path, enforce_file_format=True)


def test_clinx_release_with_real_engines(rkit, tmp_path):
    src = tmp_path / "archive"
    _burned_dicom(src / "P1" / "a.dcm", rkit, study="1.2.826.0.1.3680043.10.511.11", seed=1)
    (src / "P1" / "note.txt").write_text("Portable film for Zeldarine Quixby (MRN8675309).\n")
    out = tmp_path / "release"
    r = subprocess.run(
        [sys.executable, "-m", "clinx.cli", "release", f"input_dir={src}", f"output_dir={out}", "condition=blackout",
         f"paths.runs_dir={tmp_path / 'runs'}", "progress=false", "release.key_file=true"],
        capture_output=True, text=True, timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    audit = json.loads((out / "audit.json").read_text())
    assert (audit["released"], audit["quarantined"], audit["failed"]) == (2, 0, 0), audit
    reads = audit["pixels"]["before_reads_by_field"]["rapidocr"]
    assert sum(v for k, v in reads.items() if k.startswith("patient_name")) >= 1  # RapidOCR built the mask from the name
    assert audit["pixels"]["after_residual_by_field"] == {"easyocr": {}}  # EasyOCR verified: nothing left
    # an independent read of the released pixels finds no name, and the non-PHI label survives
    from clinx.data.dicom import read_dicom
    from clinx.ocr import get_engine

    frame = read_dicom(out / "P1" / "a.dcm").frames[0]
    words = " ".join(d.text for d in get_engine("rapidocr").read(frame)).upper()
    assert "QUIXBY" not in words and "ZELDARINE" not in words and "PORTABLE" in words
    released = [p.read_bytes() for p in out.rglob("*") if p.is_file()] + [r.stdout.encode(), r.stderr.encode()]
    released += [p.read_bytes() for p in (tmp_path / "runs").rglob("*.log")]
    for v in rkit.PHI_STRINGS:
        assert all(v.encode() not in b for b in released)
    assert "[NAME]" in (out / "P1" / "note.txt").read_text()
    assert (tmp_path / "release.key" / "key.json").is_file()
