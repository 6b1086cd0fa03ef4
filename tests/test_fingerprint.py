"""clinx.fingerprint: identities that change with settings and code, and stay put otherwise."""

import sys

from clinx.fingerprint import _digest_modules, code_digest, fingerprint_of, make_fingerprint


def test_code_digest_follows_the_source(tmp_path, monkeypatch):
    pkg = tmp_path / "fp_probe_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "rules.py").write_text("THRESHOLD = 82\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = code_digest("fp_probe_pkg")
    assert code_digest("fp_probe_pkg") == before
    (pkg / "rules.py").write_text("THRESHOLD = 83\n")  # an edit to a rule table ...
    _digest_modules.cache_clear()  # (a new process: the digest is taken once per process)
    assert code_digest("fp_probe_pkg") != before  # ... is a new identity
    sys.modules.pop("fp_probe_pkg", None)


def test_make_fingerprint_changes_with_each_setting_only():
    a = make_fingerprint("engine", {"text_score": 0.5}, code=("clinx.records",))
    assert a == make_fingerprint("engine", {"text_score": 0.5}, code=("clinx.records",))
    assert a != make_fingerprint("engine", {"text_score": 0.4}, code=("clinx.records",))
    assert a != make_fingerprint("engine", {"text_score": 0.5}, code=("clinx.atomic",))
    assert a.startswith("engine:")


def test_fallback_identity_ignores_counters_but_not_the_model():
    class Part:
        name = "p"

        def __init__(self, model_id):
            self.model_id, self.calls = model_id, 0

    p = Part("m1")
    fp = fingerprint_of(p)
    p.calls += 5
    assert fingerprint_of(p) == fp and fingerprint_of(Part("m2")) != fp
