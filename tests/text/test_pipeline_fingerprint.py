"""TextPipeline.fingerprint(): settings, version and the recogniser files are all part of the identity."""

import shutil
from pathlib import Path

import clinx
from clinx.text.pipeline import TextPipeline, text_code_digest

TEXT_PKG = Path(clinx.__file__).resolve().parent / "text"


def test_same_settings_same_fingerprint_and_any_setting_changes_it():
    base = TextPipeline("L2").fingerprint()
    assert base == TextPipeline("L2").fingerprint() and base.startswith("text-L2:")
    others = {
        TextPipeline("L1").fingerprint(),
        TextPipeline("L2", l2={"threshold": 0.5}).fingerprint(),
        TextPipeline("L2", l1={"fuzzy": False}).fingerprint(),
        TextPipeline("L2", keep_values=True).fingerprint(),
        TextPipeline("L2", salt="s1").fingerprint(),
    }
    assert base not in others and len(others) == 5


def test_the_salt_itself_is_not_in_the_fingerprint():
    a, b = TextPipeline("L2", salt="secret-one"), TextPipeline("L2", salt="secret-two")
    assert a.fingerprint() == b.fingerprint()
    assert "secret" not in a.fingerprint()


def test_clinx_version_is_part_of_it(monkeypatch):
    before = TextPipeline("L2").fingerprint()
    monkeypatch.setattr(clinx, "__version__", clinx.__version__ + ".post1")
    assert TextPipeline("L2").fingerprint() != before


def test_an_edit_to_a_rule_table_or_lexicon_changes_the_code_digest(tmp_path):
    copy = tmp_path / "text"
    shutil.copytree(TEXT_PKG, copy, ignore=shutil.ignore_patterns("__pycache__"))
    d0 = text_code_digest(root=copy)
    assert d0 == text_code_digest(root=copy)
    rules = copy / "rules.py"
    rules.write_text(rules.read_text() + "\n# an edited rule table\n")
    d1 = text_code_digest(root=copy)
    assert d1 != d0  # seen in the same process: files are re-stated on every call
    (copy / "data").mkdir(exist_ok=True)
    (copy / "data" / "extra_names.txt").write_text("zyx\n")
    assert text_code_digest(root=copy) != d1  # a new lexicon file counts
    # the CLI does not change what a level outputs
    d2 = text_code_digest(root=copy)
    (copy / "cli.py").write_text((copy / "cli.py").read_text() + "\n# cli only\n")
    assert text_code_digest(root=copy) == d2
    # the L3 rewrite package counts only for L3
    (copy / "rewrite").mkdir(exist_ok=True)
    (copy / "rewrite" / "prompt.txt").write_text("edited prompt")
    assert text_code_digest(root=copy) == d2
    assert text_code_digest(root=copy, include_rewrite=True) != text_code_digest(root=copy / ".." / "text", include_rewrite=False)


def test_the_fingerprint_uses_the_code_digest(monkeypatch):
    import clinx.text.pipeline as pl

    before = TextPipeline("L2").fingerprint()
    monkeypatch.setattr(pl, "text_code_digest", lambda **kw: "0" * 16)
    assert TextPipeline("L2").fingerprint() != before
