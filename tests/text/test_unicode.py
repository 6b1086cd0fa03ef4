"""Unicode folding: the issue's evasions are de-identified, and the original characters are what is replaced."""

import pytest

from clinx.records import Manifest
from clinx.text.manifest_scan import scan_manifest, surviving_tokens, value_present
from clinx.text.pipeline import TextPipeline, deidentify, rescan
from clinx.text.unicode import fold, fold_char

# The five inputs of the issue, verbatim (Cyrillic а/і/е, zero-width spaces, full-width digits).
ISSUE_CASES = [
    ("Is J\u0430mes Sm\u0456th's left lung clear?", "Is [NAME]'s left lung clear?", "NAME"),
    ("SSN 1\u200b2\u200b3-4\u200b5-6\u200b789 effusion?", "SSN [SSN] effusion?", "SSN"),
    ("Email j.smith@\u0435xample.com about the effusion?", "Email [EMAIL] about the effusion?", "EMAIL"),
    ("Scan from \uff10\uff13/\uff11\uff14/\uff11\uff19\uff16\uff11, is the heart enlarged?", "Scan from [DATE], is the heart enlarged?", "DATE"),
    ("Patient Jo\u200bhn Sm\u200bith, is the lung clear?", "Patient [NAME], is the lung clear?", "NAME"),
]


def test_fold_reads_each_evasion_as_latin():
    assert fold("J\u0430mes Sm\u0456th").text == "James Smith"  # Cyrillic а, і
    assert fold("1\u200b2\u200b3-4\u200b5").text == "123-45"  # zero-width spaces
    assert fold("\uff10\uff13/\uff11\uff14").text == "03/14"  # full-width digits
    assert fold("\U0001d409\U0001d428\U0001d421\U0001d427").text == "John"  # mathematical bold
    assert fold("Jo\u00adhn\u2060 S\ufe0fmith\ufeff").text == "John Smith"  # soft hyphen, word joiner, VS16, BOM
    assert fold("\u0663\u0661\u0664").text == "314"  # Arabic-Indic digits
    assert fold("Jos\u00e9 Garc\u0131a").text == "Jose Garcia"  # accent dropped, dotless i read as i
    assert fold("\u03f2ooper").text == "cooper"  # Greek lunate sigma looks like c (NFKD would make it ς)
    assert fold("\u0399van").text == "Ivan"  # Greek capital iota: an upper-case I, not TR39's prototype l
    assert fold("SSN 123-45-67\u041e9").text == "SSN 123-45-6709"  # Cyrillic О between digits is a zero
    assert fold("a\u00a0b\u3000c").text == "a b c"  # every space separator is a space


def test_ascii_takes_the_fast_path_and_non_ascii_maps_back():
    f = fold("Patient John Smith")
    assert f.identity and f.text == "Patient John Smith" and f.index is None
    assert fold("ABC", casefold=True).text == "abc"
    text = "Pt Jo\u200bhn \uff33mith ok"
    g = fold(text)
    assert g.text == "Pt John Smith ok" and not g.identity
    s, e = g.span_back(g.text.index("John"), g.text.index("Smith") + 5)
    assert text[s:e] == "Jo\u200bhn \uff33mith"
    # one character that folds to several: a span inside it covers the whole original character
    h = fold("x \ufb01le")  # ligature fi
    assert h.text == "x file" and h.span_back(2, 3) == (2, 3)


def test_text_that_folds_to_itself_is_identity():
    assert fold("\u4e2d\u6587").identity  # CJK has nothing to fold
    assert fold_char("\u200b") == "" and fold_char("\uff21", True) == "a"


@pytest.mark.parametrize("level", ["L1", "L2"])
@pytest.mark.parametrize("text,expected,category", ISSUE_CASES, ids=["cyrillic_name", "zw_ssn", "cyrillic_email", "fullwidth_date", "zw_name"])
def test_issue_cases_are_deidentified(level, text, expected, category):
    r = deidentify(text, level=level, keep_values=True)
    assert r.text == expected
    assert category in r.counts()
    # the audit trail points into the original text and holds the original characters
    span = next(s for s in r.removed if s.category == category)
    assert text[span.start : span.end] == span.value
    assert not rescan(r.text)  # nothing identifying left, even for the re-scan's folded view


def test_issue_cases_are_found_by_the_rescan():
    for text, _, category in ISSUE_CASES:
        spans = rescan(text)
        assert category in {s.category for s in spans}


def test_text_outside_the_identifier_keeps_its_unicode():
    # a non-ASCII character outside any identifier is released as it came
    text = "Patient Jo\u200bhn Sm\u200bith, \u00bfest\u00e1 el pulm\u00f3n claro? SSN 1\u200b23-45-6789"
    out = TextPipeline("L2").run(text).text
    assert out == "Patient [NAME], \u00bfest\u00e1 el pulm\u00f3n claro? SSN [SSN]"


def test_manifest_matching_is_unicode_safe():
    m = Manifest.from_dict({"patient_name": "Smith^John", "mrn": "00482913"})
    text = "Is S\u200bm\u0456th ok? MRN \uff10\uff10\uff14\uff18\uff12\uff19\uff11\uff13"
    hits = scan_manifest(text, m)
    fields = {h.field for h in hits}
    assert fields == {"patient_name", "mrn"}
    for h in hits:
        assert "\u200b" not in text[: h.start][-1:]  # spans start on the identifier, not before
    assert value_present("John Smith", "J\u043ehn Sm\u0456th")
    assert surviving_tokens("John Smith", "[NAME] J\u043ehn") == ["john"]
    r = deidentify(text, level="L1", manifest=m)
    assert "Sm" not in r.text and "\uff10\uff10\uff14" not in r.text


def test_levels_see_folded_text_but_replace_the_original():
    text = "DOB \uff10\uff13/\uff11\uff14/\uff11\uff19\uff16\uff11 and MRN 0048\u200b2913."
    r = TextPipeline("L2", keep_values=True).run(text)
    assert r.text == "DOB [DATE] and MRN [MRN]."
    values = sorted(s.value for s in r.removed)
    assert values == sorted(["\uff10\uff13/\uff11\uff14/\uff11\uff19\uff16\uff11", "0048\u200b2913"])


def test_ocr_and_manifest_normalisation_use_the_same_fold():
    from clinx.localize.normalize import normalize, normalize_with_map

    text = "DOE^J\u200b\u041eHN \u0405m\u0456th"  # zero-width space, Cyrillic О, Ѕ, і
    norm, idx = normalize_with_map(text)
    assert norm == "doejohnsmith" == normalize("Doe John Smith")
    assert [text[i] for i in idx[3:7]] == ["J", "\u041e", "H", "N"]  # the map skips the zero-width space
    assert normalize("\uff10\uff10\uff14\uff18\uff12\uff19\uff11\uff13") == "00482913"
