"""The input tree: links never followed, every skipped entry recorded, names kept out of logs and releases."""

import json
import logging
import os

import numpy as np
import pytest
from PIL import Image

from clinx.sanitize.conditions import get_condition
from clinx.sanitize.inputs import item_id, plan_outputs, scan_inputs
from clinx.sanitize.runner import INPUTS_FILE, PROGRESS_FILE, QUARANTINE_FILE, SUMMARY_FILE, sanitize_folder

PATIENT_FILE = "QUIXBY_ZELDARINE_chest"  # a file name that names the patient


def run(src, out, kit, manifest_file, **kw):
    kw.setdefault("progress", False)
    return sanitize_folder(src, out, get_condition("blackout"), kit.RedLocalizer(), manifest_file, **kw)


def state_texts(out):
    return [(out / n).read_text() for n in (PROGRESS_FILE, QUARANTINE_FILE, SUMMARY_FILE, INPUTS_FILE)]


def test_links_and_unsupported_entries_are_recorded_never_followed(tmp_path, kit, manifest_file):
    src, outside = tmp_path / "in", tmp_path / "elsewhere"
    kit.write_png(src / "ok.png", kit.phi_image(0))
    kit.write_png(outside / "secret.png", kit.phi_image(1))
    os.symlink(outside / "secret.png", src / "link_out.png")
    os.symlink(src / "ok.png", src / "link_in.png")
    os.symlink(tmp_path / "missing.png", src / "dangling.png")
    os.symlink(outside, src / "folder_link")
    (src / "notes.xyz").write_text("not an image")
    kit.write_png(src / ".hidden.png", kit.phi_image(2))
    os.mkfifo(src / "pipe.png")
    Image.fromarray(kit.phi_image(3)).save(src / "anim.gif")
    Image.fromarray(kit.phi_image(4)).save(src / "lossless.webp", lossless=True)
    out = tmp_path / "out"
    s = run(src, out, kit, manifest_file, log_paths="relative")
    # GIF and WebP are read like any other raster image (the red key survives lossless WebP and the GIF palette)
    assert (s.processed, s.sanitized) == (3, 3), s.quarantine
    assert sorted(p.name for p in out.glob("*.png")) == ["anim.png", "lossless.png", "ok.png"]
    recorded = {json.loads(x)["item"]: json.loads(x)["reason"] for x in (out / INPUTS_FILE).read_text().splitlines()}
    assert recorded == {
        "link_out.png": "symbolic link out of the input folder (not followed)",
        "link_in.png": "symbolic link (not followed)",
        "dangling.png": "dangling symbolic link",
        "folder_link": "link to a folder (not followed)",
        "notes.xyz": "unsupported file type (.xyz)",
        ".hidden.png": "hidden file",
        "pipe.png": "not a regular file",
    }
    assert sum(json.loads((out / SUMMARY_FILE).read_text())["inputs_not_processed"].values()) == 7
    assert "inputs not processed" in s.table()


def test_default_names_keep_file_names_out_of_every_record_and_log(tmp_path, kit, manifest_file, caplog):
    src = tmp_path / "in"
    kit.write_png(src / f"{PATIENT_FILE}.png", kit.phi_image(0))
    (src / f"{PATIENT_FILE}_corrupt.png").write_bytes(b"\x89PNG broken")
    (src / f"{PATIENT_FILE}.txt").write_text("x")
    out = tmp_path / "out"
    caplog.set_level(logging.DEBUG)
    s = run(src, out, kit, manifest_file, output_names="hash")
    assert (s.sanitized, s.quarantined) == (1, 1)
    released = [p.name for p in out.iterdir() if p.suffix == ".png"]
    assert released == [item_id(f"{PATIENT_FILE}.png") + ".png"]
    for text in state_texts(out) + [caplog.text, s.table()]:
        assert "QUIXBY" not in text and "ZELDARINE" not in text
    assert s.quarantine[0]["item"] == item_id(f"{PATIENT_FILE}_corrupt.png"), "a stable opaque id names the item"


def test_control_characters_in_names_cannot_forge_log_lines(tmp_path, kit, manifest_file, caplog):
    src = tmp_path / "in"
    src.mkdir()
    evil = "x\n[INFO] all items sanitized OK\u2028.png"
    (src / evil).write_bytes(b"\x89PNG broken")
    caplog.set_level(logging.DEBUG)
    s = run(src, tmp_path / "out", kit, manifest_file, log_paths="relative")
    assert s.quarantined == 1
    assert not any(line.lstrip().startswith("[INFO] all items") for line in caplog.text.splitlines())
    assert "\\x0a" in s.quarantine[0]["item"] and "\n" not in s.quarantine[0]["item"]


def test_non_utf8_file_name_is_processed_and_logged_safely(tmp_path, kit, manifest_file):
    src = tmp_path / "in"
    src.mkdir()
    name = os.fsdecode(b"scan_\xff\xfe.png")
    kit.write_png(src / name, kit.phi_image(0))
    (src / os.fsdecode(b"bad_\xff.png")).write_bytes(b"\x89PNG broken")
    out = tmp_path / "out"
    log_file = tmp_path / "run.log"
    handler = logging.FileHandler(log_file, encoding="utf-8")
    from clinx.errors import EscapingFilter

    handler.addFilter(EscapingFilter())
    logging.getLogger().addHandler(handler)
    try:
        s = run(src, out, kit, manifest_file, log_paths="relative")
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
    assert (s.sanitized, s.quarantined) == (1, 1)
    assert "\\udcff" in log_file.read_text(encoding="utf-8")  # escaped, and the log file is valid UTF-8
    json.loads((out / SUMMARY_FILE).read_text())


def test_colliding_output_names_are_refused(tmp_path, kit, manifest_file):
    src = tmp_path / "in"
    for name in ("a.png", "a.tif"):
        kit.write_png(src / name, kit.phi_image(0))
    kit.write_png(src / "a.tif.png", kit.phi_image(1))  # 'a.tif' falls back to 'a.tif.png': taken
    files, _ = scan_inputs(src)
    planned = plan_outputs(files, tmp_path / "out")
    assert planned["a.png"] == tmp_path / "out" / "a.png.png" and planned["a.tif"] is None and planned["a.tif.png"] is None
    s = run(src, tmp_path / "out", kit, manifest_file, log_paths="relative")
    assert s.sanitized == 1 and {r["item"] for r in s.quarantine} == {"a.tif", "a.tif.png"}
    assert all("collides" in r["reason"] for r in s.quarantine)


def test_inputs_are_never_opened_for_writing(tmp_path, kit, manifest_file, monkeypatch):
    import builtins

    src = tmp_path / "in"
    kit.write_png(src / "a.png", kit.phi_image(0))
    kit.write_dicom(src / "b.dcm", kit.phi_image(1))
    real_open = builtins.open
    src_real = str(src.resolve())

    def guarded(file, mode="r", *a, **k):
        if isinstance(file, (str, os.PathLike)) and str(os.path.realpath(file)).startswith(src_real):
            assert not any(c in mode for c in "wax+"), "an input was opened for writing"
        return real_open(file, mode, *a, **k)

    monkeypatch.setattr(builtins, "open", guarded)
    s = run(src, tmp_path / "out", kit, manifest_file)
    assert s.sanitized == 2, s.quarantine


@pytest.mark.parametrize("n", [1, 3])
def test_item_ids_are_stable_and_distinct(n):
    ids = {item_id(f"dir/{i}.png") for i in range(n)}
    assert len(ids) == n and item_id("dir/0.png") == item_id("dir/0.png") and np.all([i.startswith("item-") for i in ids])
