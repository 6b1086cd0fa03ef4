"""IU chest X-ray reports from torchxrayvision, with synthetic PHI in the XXXX slots."""

import pytest

from clinx.text.manifest_scan import value_present, value_survives
from clinx.text.pipeline import deidentify
from clinx.text.reports import SECTIONS, inject_report, iu_benchmark, load_reports, reports_archive

pytest.importorskip("torchxrayvision")


@pytest.fixture(scope="module")
def reports():
    return load_reports()


def test_archive_parses(reports):
    assert reports_archive().name == "NLMCXR_reports.tgz"
    assert len(reports) > 3500
    r = reports[0]
    assert r.id.startswith("CXR") and set(r.sections) == set(SECTIONS)
    assert "FINDINGS:" in r.text or "IMPRESSION:" in r.text


def test_injection_is_deterministic_and_consistent(reports):
    rep = next(r for r in reports if "XXXX, XXXX" in r.sections.get("COMPARISON", ""))
    a, b = inject_report(rep, 7), inject_report(rep, 7)
    assert a == b
    assert inject_report(rep, 8).text != a.text or not a.manifest
    assert a.manifest, "a comparison date slot must be filled"
    assert "XXXX, XXXX" not in a.text.split("\n")[0]
    for _, v in a.manifest.items():
        assert value_present(v, a.text)  # every manifest value is in the PHI text ...
        assert not value_survives(v, a.clean_text, ignore_text=rep.text)  # ... and none in the clean text
    assert "[DATE]" in a.clean_text


def test_benchmark_set_and_l1_removes_slot_phi():
    items = [r for r in iu_benchmark(60, seed=1) if r.manifest]
    assert len(items) >= 10
    leaked = total = 0
    for r in items:
        out = deidentify(r.text, "L2").text
        for _, v in r.manifest.items():
            total += 1
            leaked += value_survives(v, out, ignore_text=r.clean_text)
        # clinical content outside the slots is untouched: the clean text's words are all still there
        assert out.replace("[AGE]", "").count("XXXX") == r.clean_text.count("XXXX")
    assert total and leaked / total <= 0.1
