"""Manifest scanning: exact, normalised, generated date renderings, tokens, fuzzy; leak test semantics."""

from clinx.records import Manifest
from clinx.text.manifest_scan import date_renderings, fold, scan_manifest, surviving_tokens, value_present, value_survives

M = Manifest(
    fields={"patient_name": "Jane Roe", "birth_date": "1961-03-14", "mrn": "48213377", "phone": "(555) 123-4567",
            "hospital_name": "Riverside General Hospital"},
    renderings={"patient_name": ("ROE^JANE", "Roe, Jane")},
)


def kinds(text, **kw):
    return {(h.field, h.kind) for h in scan_manifest(text, M, **kw)}


def test_exact_and_case_insensitive():
    hits = scan_manifest("is JANE ROE ok?", M)
    h = next(h for h in hits if h.kind == "exact")
    assert (h.field, h.category) == ("patient_name", "NAME")
    assert "is JANE ROE ok?"[h.start : h.end] == "JANE ROE"


def test_separators_are_normalised():
    assert ("phone", "exact") in kinds("call 555.123.4567 now")
    assert ("mrn", "exact") in kinds("mrn 48-213-377")


def test_date_renderings_are_generated():
    assert "March 14, 1961" in date_renderings("1961-03-14")
    assert "14-Mar-1961" in date_renderings("03/14/1961")
    assert date_renderings("not a date") == ()
    assert ("birth_date", "rendering") in kinds("born March 14, 1961?")
    assert ("birth_date", "rendering") in kinds("born 14.03.1961?")


def test_token_hits_find_partial_names_but_not_generic_words():
    assert ("patient_name", "token") in kinds("is Roe's lung clear?")
    assert not [h for h in scan_manifest("the general hospital is large", M) if h.field == "hospital_name"]
    assert ("hospital_name", "token") in kinds("seen at riverside")


def test_fuzzy_catches_misspelling():
    hits = scan_manifest("is Jnae Roe's lung clear?", M)
    assert any(h.kind == "exact" or h.kind == "token" for h in hits)
    m2 = Manifest(fields={"patient_name": "Katherine Johansson"})
    hits = scan_manifest("is katherine johanson well?", m2)
    assert any(h.kind == "fuzzy" for h in hits)
    assert not [h for h in scan_manifest("is katherine johanson well?", m2, fuzzy=False) if h.kind == "fuzzy"]


def test_unicode_offsets_map_back():
    m = Manifest(fields={"patient_name": "José Núñez"})
    text = "Ärztin sah JOSE NUNEZ heute"
    hits = [h for h in scan_manifest(text, m) if h.kind == "exact"]
    assert hits and text[hits[0].start : hits[0].end] == "JOSE NUNEZ"
    t2 = "ﬁle for José Núñez"  # ligature changes length when folded
    h2 = [h for h in scan_manifest(t2, m) if h.kind == "exact"][0]
    assert t2[h2.start : h2.end] == "José Núñez"
    assert fold("ABC")[1] is None


def test_empty_inputs():
    assert scan_manifest("", M) == []
    assert scan_manifest("anything", None) == []
    assert scan_manifest("anything", Manifest()) == []


def test_surviving_tokens_definition():
    # any token of length >= 3 surviving as a whole word is a leak
    assert surviving_tokens("Jane Roe", "is [NAME] Roe ok") == ["roe"]
    assert surviving_tokens("Jane Roe", "is [NAME] ok") == []
    # substrings of other words do not count; placeholders are not tokens
    assert not value_survives("Ann Lee", "annotate the sleeve")
    assert not value_survives("Riverside General Hospital", "seen at [HOSPITAL]")
    # tokens already present in the clean text are not leaks ("Hill" vs "hill")
    assert not value_survives("Ann Hill", "the hill sign is [NAME]", ignore_text="the hill sign is")
    # values without a 3-char token are tested on all tokens
    assert value_survives("Al Bo", "al bo")
    assert value_present("03/14/1961", "dob 03-14-1961")
