"""Never touch what clinx did not write; resume per item (path, input digest, settings); stale outputs."""

import json
from pathlib import Path

import pytest

from clinx.errors import ConfigError
from clinx.sanitize.conditions import get_condition
from clinx.sanitize.journal import PROGRESS_FILE, Journal, read_jsonl
from clinx.sanitize.runner import sanitize_folder


def run(src, out, kit, manifest_file, **kw):
    kw.setdefault("progress", False)
    return sanitize_folder(src, out, get_condition("blackout"), kit.RedLocalizer(), manifest_file, **kw)


@pytest.fixture
def twins(tmp_path, kit):
    """Two inputs with the same bytes under different names."""
    src = tmp_path / "in"
    kit.write_png(src / "a.png", kit.phi_image(0))
    (src / "b.png").write_bytes((src / "a.png").read_bytes())
    return src


def test_resume_is_per_item_not_per_content(twins, tmp_path, kit, manifest_file):
    out = tmp_path / "out"
    assert run(twins, out, kit, manifest_file).sanitized == 2
    (out / "b.png").unlink()
    s = run(twins, out, kit, manifest_file)
    assert (s.skipped, s.sanitized) == (1, 1), "the missing output is written again"
    assert (out / "b.png").read_bytes() == (out / "a.png").read_bytes()
    # a renamed input is new work, not 'resumed' under its twin's record
    (twins / "b.png").rename(twins / "c.png")
    s = run(twins, out, kit, manifest_file)
    assert (s.skipped, s.sanitized) == (1, 1) and (out / "c.png").is_file()


def test_output_that_differs_from_its_record_is_redone_not_skipped(twins, tmp_path, kit, manifest_file):
    out = tmp_path / "out"
    run(twins, out, kit, manifest_file)
    # a released output replaced by something else (here: the raw input, PHI included)
    (out / "a.png").write_bytes((twins / "a.png").read_bytes())
    s = run(twins, out, kit, manifest_file, log_paths="relative")
    assert s.skipped == 1, "only the untouched output is resumed"
    # the changed file is not clinx's any more: never overwritten, reported
    assert [r["item"] for r in s.quarantine] == ["a.png"] and "did not write" in s.quarantine[0]["reason"]
    assert (out / "a.png").read_bytes() == (twins / "a.png").read_bytes()


def test_crash_between_rename_and_record_is_resumed_byte_identical(twins, tmp_path, kit, manifest_file):
    out = tmp_path / "out"
    run(twins, out, kit, manifest_file)
    first = {p.name: p.read_bytes() for p in out.glob("*.png")}
    # as if killed after os.replace but before the 'done' record: only the 'writing' intent survives
    lines = (out / PROGRESS_FILE).read_text().splitlines()
    (out / PROGRESS_FILE).write_text("\n".join(x for x in lines if '"done"' not in x) + "\n")
    s = run(twins, out, kit, manifest_file)
    assert (s.sanitized, s.quarantined) == (2, 0)
    assert {p.name: p.read_bytes() for p in out.glob("*.png")} == first


def test_users_file_at_an_output_path_is_never_deleted_or_overwritten(tmp_path, kit, manifest_file):
    src, out = tmp_path / "in", tmp_path / "out"
    kit.write_png(src / "notes.png", kit.phi_image(0))
    run(src, out, kit, manifest_file)
    (out / "notes.png").write_bytes(b"the user's own notes")  # replaced by hand after the run
    (src / "notes.png").write_bytes(b"now corrupt")  # the input now fails: quarantined
    s = run(src, out, kit, manifest_file)
    assert s.quarantined == 1 and s.stale_left == 0
    assert (out / "notes.png").read_bytes() == b"the user's own notes"


def test_stale_output_is_removed_and_a_failed_removal_is_an_error(tmp_path, kit, manifest_file, monkeypatch):
    src, out = tmp_path / "in", tmp_path / "out"
    kit.write_png(src / "a.png", kit.phi_image(0))
    kit.write_png(src / "b.png", kit.phi_image(1))
    run(src, out, kit, manifest_file)
    (src / "a.png").write_bytes(b"garbage")
    (src / "b.png").write_bytes(b"garbage too")
    real_unlink = Path.unlink

    def unlink(self, *a, **k):
        if self.name == "b.png":
            raise PermissionError("denied")
        return real_unlink(self, *a, **k)

    monkeypatch.setattr(Path, "unlink", unlink)
    s = run(src, out, kit, manifest_file, log_paths="relative")
    assert s.quarantined == 2 and not (out / "a.png").exists()
    assert s.stale_left == 1 and (out / "b.png").exists()
    rec = {r["item"]: r for r in s.quarantine}
    assert "could not be removed" in rec["b.png"]["stale_output"] and "stale_output" not in rec["a.png"]
    assert json.loads((out / "summary.json").read_text())["stale_outputs_left"] == 1
    assert any(r.get("type") == "removed" and r["output"] == "a.png" for r in read_jsonl(out / PROGRESS_FILE))


@pytest.mark.parametrize("kind", ["file", "foreign", "old_style_progress"])
def test_output_dir_must_be_new_empty_or_a_clinx_run(tmp_path, kit, manifest_file, kind):
    src = tmp_path / "in"
    kit.write_png(src / "a.png", kit.phi_image(0))
    out = tmp_path / "out"
    if kind == "file":
        out.write_bytes(b"x")
    else:
        out.mkdir()
        name = "notes.png" if kind == "foreign" else PROGRESS_FILE
        (out / name).write_text('{"key": "k", "output": "notes.png"}\n')
    before = {p: p.read_bytes() for p in ([out] if out.is_file() else out.rglob("*"))}
    with pytest.raises(ConfigError):
        run(src, out, kit, manifest_file)
    assert {p: p.read_bytes() for p in ([out] if out.is_file() else out.rglob("*"))} == before


def test_unwritable_output_dir_is_a_config_error(tmp_path, kit, manifest_file, monkeypatch):
    import os

    src = tmp_path / "in"
    kit.write_png(src / "a.png", kit.phi_image(0))
    (tmp_path / "out").mkdir()
    monkeypatch.setattr(os, "access", lambda *a, **k: False)  # root ignores mode bits; pretend we are not root
    with pytest.raises(ConfigError, match="not writable"):
        run(src, tmp_path / "out", kit, manifest_file)


def test_journal_owns_only_what_it_recorded(tmp_path):
    j = Journal(tmp_path / "o").open()
    mine, theirs = tmp_path / "o" / "x.png", tmp_path / "o" / "y.png"
    mine.write_bytes(b"mine")
    theirs.write_bytes(b"theirs")
    from clinx.data.guards import file_digest

    j.record_done("k", mine, file_digest(mine), "item-1", "s")
    assert j.owns(mine) and not j.owns(theirs)
    assert j.remove(theirs) == "not ours" and theirs.exists()
    assert j.remove(mine) == "removed" and not mine.exists()
    j.close()
    again = Journal(tmp_path / "o").open()
    assert again.done == {}, "a removed output's record is gone after reopening"
    again.close()


def test_a_link_inside_output_dir_never_redirects_writes(tmp_path, kit, manifest_file):
    src, out, elsewhere = tmp_path / "in", tmp_path / "out", tmp_path / "elsewhere"
    kit.write_png(src / "sub" / "a.png", kit.phi_image(0))
    run(src, out, kit, manifest_file)
    import shutil

    shutil.rmtree(out / "sub")
    elsewhere.mkdir()
    (out / "sub").symlink_to(elsewhere)  # planted after the first run
    s = run(src, out, kit, manifest_file)
    assert s.quarantined == 1 and "leads out of output_dir" in s.quarantine[0]["reason"]
    assert list(elsewhere.iterdir()) == []


def test_two_runs_cannot_share_one_output_dir_at_once(tmp_path):
    first = Journal(tmp_path / "o").open()
    with pytest.raises(ConfigError, match="in use"):
        Journal(tmp_path / "o").open()
    first.close()
    Journal(tmp_path / "o").open().close()
