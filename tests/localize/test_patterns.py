"""Identifiers found by pattern on OCR lines, the localisation modes, and the localizer's fingerprint."""

import numpy as np
import pytest

from clinx.errors import ItemError
from clinx.localize import MODES, PhiLocalizer
from clinx.localize import patterns as pat
from clinx.localize.patterns import is_non_phi_text, pattern_matches
from clinx.ocr.base import OCREngine
from clinx.records import Detection, Manifest


class FixedEngine(OCREngine):
    name = "fixed"

    def __init__(self, dets):
        self.dets = dets
        self.params = {"n": len(dets)}

    def _read(self, image):
        return list(self.dets)


def W(text, x0, y0, x1, y1, level="word"):
    return Detection(text, (x0, y0, x1, y1), 0.99, None, "fixed", level)


# Two overlay rows: a listed birth date and a study date that differs from the header.
DETS = [
    W("DOB:", 10, 10, 50, 30), W("07.16.1953", 56, 10, 150, 30),
    W("Study:", 10, 40, 62, 60), W("03/02/2021", 68, 40, 160, 60),
    W("PORTABLE", 10, 100, 90, 120), W("L", 230, 100, 240, 120),
]  # fmt: skip
IMG = np.zeros((160, 256, 3), np.uint8)
MANIFEST = Manifest({"PatientBirthDate": "19530716", "StudyDate": "20210315"})  # the header's date is not the drawn one


def test_unlisted_date_is_masked_by_pattern_but_not_by_manifest_alone():
    only_manifest = PhiLocalizer(FixedEngine(DETS), mode="manifest", dilation=0, relative_dilation=0).locate(IMG, MANIFEST)
    assert only_manifest.mask[20, 100] and not only_manifest.mask[50, 110]  # DOB masked, study date leaks
    both = PhiLocalizer(FixedEngine(DETS), dilation=0, relative_dilation=0).locate(IMG, MANIFEST)
    assert both.mode_used == "manifest+patterns"
    assert both.mask[20, 100] and both.mask[50, 110]
    assert "pattern:DATE" in both.fields and "PatientBirthDate" in both.fields
    assert both.pattern_hits >= 2  # both dates are dates
    assert not both.mask[20, 30] and not both.mask[50, 30]  # labels kept
    assert not both.mask[110, 50] and not both.mask[110, 235]  # PORTABLE, L kept


def test_pattern_only_run_without_a_manifest():
    loc = PhiLocalizer(FixedEngine(DETS), dilation=0, relative_dilation=0)  # default mode
    for empty in (None, Manifest()):
        res = loc.locate(IMG, empty, item="no_manifest.png")  # no ItemError: patterns still run
        assert res.mode_used == "patterns"
        assert res.mask[20, 100] and res.mask[50, 110]
        assert all(m.field.startswith("pattern:") for m in res.matches)
    res = PhiLocalizer(FixedEngine(DETS), mode="patterns").locate(IMG, MANIFEST)
    assert res.mode_used == "patterns" and all(m.field.startswith("pattern:") for m in res.matches)


def test_manifest_mode_still_fails_closed_on_an_empty_manifest():
    with pytest.raises(ItemError) as ei:
        PhiLocalizer(FixedEngine(DETS), mode="manifest").locate(IMG, Manifest(), item="x.png")
    assert ei.value.stage == "manifest"
    assert MODES[0] == "manifest+patterns"


def test_pattern_hit_inside_a_glued_word_is_cut_word_exact():
    d = [W("DOB:07.16.1953", 10, 10, 150, 30)]
    ms = pattern_matches(d)
    assert len(ms) == 1 and ms[0].field == "pattern:DATE" and ms[0].method == "pattern"
    assert 40 < ms[0].box[0] < 60 and ms[0].box[2] == pytest.approx(150, abs=6)  # the date, not "DOB:"


def test_ids_and_cued_names_are_found_on_lines_rebuilt_from_words():
    d = [W("Name:", 10, 10, 60, 30), W("JOHN", 66, 10, 110, 30), W("DOE", 116, 10, 150, 30),
         W("MRN:", 10, 40, 52, 60), W("00482913", 58, 40, 140, 60)]  # fmt: skip
    fields = {d[m.detection_index].text: m.field for m in pattern_matches(d)}
    assert fields.get("JOHN") == fields.get("DOE") == "pattern:NAME"
    assert fields.get("00482913") == "pattern:MRN"
    assert "Name:" not in fields and "MRN:" not in fields


@pytest.mark.parametrize(
    ("words", "masked"),
    [
        (["Pat", "ID:", "Z0172576"], ["Z0172576"]),  # "Pat" is the label's, not a first name
        (["Ref", "Phys:", "Jeremy", "Madden"], ["Jeremy", "Madden"]),
        (["ID2:", "16164750"], ["16164750"]),  # the 2 of the label is no ID
        (["Gilbert", "Alt", "ID:", "78121997"], ["Gilbert", "78121997"]),
        (["Name:", "DOE,", "JOHN", "ID:", "00482913"], ["DOE,", "JOHN", "00482913"]),  # a surname before a label stays PHI
    ],
)
def test_field_labels_are_taken_out_of_pattern_hits(words, masked):
    dets, x = [], 10
    for w in words:
        dets.append(W(w, x, 10, x + 12 * len(w), 30))
        x += 12 * len(w) + 8
    assert sorted({dets[m.detection_index].text for m in pattern_matches(dets)}) == sorted(masked)


NON_PHI = ["L", "R", "LA6", "PORTABLE", "AP", "PA", "SUPINE", "Semi-Upright", "Name:", "5 cm", "120 kVp", "2.5 mAs", "CHEST PA"]


def test_overlay_words_that_are_not_phi_survive():
    dets = [W(t, 10, 10 + 30 * k, 10 + 12 * len(t), 30 + 30 * k, "line") for k, t in enumerate(NON_PHI)]
    res = PhiLocalizer(FixedEngine(dets)).locate(np.zeros((440, 256, 3), np.uint8), Manifest({"PatientName": "DOE^JOHN"}))
    assert res.matches == [] and not res.mask.any()


def test_non_phi_filter_drops_technique_and_marker_hits_even_if_a_recogniser_flags_them(monkeypatch):
    class Span:
        def __init__(self, start, end, category):
            self.start, self.end, self.category = start, end, category

    # A recogniser that flags everything: only the allow-list / shape rule stands between it and the mask.
    monkeypatch.setattr(pat, "_rescan", lambda text: [Span(0, len(text), "ID")])
    for t in ("120 kVp", "2.5 mAs", "5 cm", "LA6", "PORTABLE AP", "SUPINE"):
        assert pattern_matches([W(t, 10, 10, 100, 30, "line")]) == [], t
    assert len(pattern_matches([W("KOWALSKI", 10, 10, 100, 30)])) == 1
    assert len(pattern_matches([W("LI", 10, 10, 30, 30)])) == 1  # a two-letter surname is not a marker


@pytest.mark.parametrize(
    ("text", "expected"),
    [("120 kVp", True), ("120kVp 2.5 mAs", True), ("0.8 mm", True), ("LA6", True), ("R2", True), ("Semi-Upright", True),
     ("SMITH", False), ("LI", False), ("2021", False), ("A1234567", False)],
)  # fmt: skip
def test_non_phi_shape_rule(text, expected):
    assert is_non_phi_text(text) is expected


def test_localizer_fingerprint_is_deterministic_and_follows_settings():
    eng = FixedEngine(DETS)
    a = PhiLocalizer(eng).fingerprint()
    assert a == PhiLocalizer(eng).fingerprint() and a.startswith("localizer-")
    assert PhiLocalizer(eng, mode="manifest").fingerprint() != a
    assert PhiLocalizer(eng, threshold=90).fingerprint() != a
    assert PhiLocalizer(eng, dilation=5).fingerprint() != a
    other = FixedEngine(DETS[:2])  # engine settings differ -> engine fingerprint differs
    assert other.fingerprint() != eng.fingerprint()
    assert PhiLocalizer(other).fingerprint() != a


def test_code_digest_follows_the_text_recognisers_and_their_data(monkeypatch):
    """An edit anywhere under clinx/text that the recognisers read (evidence, lexicons, dates) changes the key."""
    from clinx.localize import localizer
    from clinx.text import pipeline

    before = localizer.code_digest()
    assert localizer.code_digest() == before
    monkeypatch.setattr(pipeline, "text_code_digest", lambda **kw: "0" * 16)
    assert localizer.code_digest() != before


# ------------------------------------------------------------------ field labels as OCR reads them


def _line(words, y=10):
    """Word detections of one overlay line, 12 px per character, 8 px apart."""
    dets, x = [], 10
    for w in words:
        dets.append(W(w, x, y, x + 12 * len(w), y + 20))
        x += 12 * len(w) + 8
    return dets


def _masked_words(dets, **kw):
    return sorted({dets[m.detection_index].text for m in pattern_matches(dets, **kw)})


@pytest.mark.parametrize(
    ("words", "masked"),
    [
        (["Narne:", "DOE,", "JOHN"], ["DOE,", "JOHN"]),  # "rn" read for "m"; the whole value after a name label
        (["Name:", "DOE,", "JOHN"], ["DOE,", "JOHN"]),  # rescan alone flagged only JOHN
        (["DOB", "07.16.1953"], ["07.16.1953"]),  # colon lost
        (["PatID:", "Z0172576"], ["Z0172576"]),  # two-word label read as one word
        (["Ref.Phys", "Jeremy", "Madden"], ["Jeremy", "Madden"]),
        (["Ref.", "Phy3:", "STAFFORD,", "DANIEL"], ["DANIEL", "STAFFORD,"]),  # a misread letter in the label
        (["Name:", "CRUZ", "MICHAEL", "DOB", "12.04.2005"], ["12.04.2005", "CRUZ", "MICHAEL"]),  # DOB ends the name
        (["Pt:", "Pat", "Li"], ["Li", "Pat"]),  # inside a name's value "Pat" and "Li" are names, not "Pat ID"
        (["Patient:Fisher;", "Mark"], ["Mark", "Patient:Fisher;"]),  # the value glued to its label is cut below
    ],
)
def test_ocr_variants_of_field_labels_are_kept_and_name_values_masked(words, masked):
    assert _masked_words(_line(words)) == sorted(masked)


@pytest.mark.parametrize("words", [["Pat", "ID"], ["Pat", "IL"], ["Pal", "ID"], ["Birthe"], ["Pat", "ID?"], ["Name:", "DOB"], ["Ref", "Phys"]])
def test_a_line_of_labels_whose_values_were_masked_has_no_hit(words):
    # What the verifier reads on a sanitized image: a hit here quarantines a clean item.
    assert pattern_matches(_line(words)) == []


def test_a_glued_name_value_is_cut_after_its_label():
    d = _line(["Patient:Fisher;"])
    (m,) = pattern_matches(d)
    assert m.field == "pattern:NAME" and m.box[0] > 10 + 12 * 6  # "Patient:" (8 of 15 characters) is left out


def test_a_label_looking_word_that_is_a_manifest_value_stays_masked():
    d = _line(["Pat", "ID", "07.16.1953"])
    assert _masked_words(d) == ["07.16.1953"]  # without a manifest: the label "Pat ID" and its date
    assert "Pat" in _masked_words(d, protect={"PAT"})  # a given name the manifest lists is no label
    res = PhiLocalizer(FixedEngine(d), dilation=0, relative_dilation=0).locate(np.zeros((40, 300, 3), np.uint8), Manifest({"PatientName": "ID^PAT"}))
    for w in d:  # the manifest match masks both words, and no label box takes its margin back
        assert res.mask[20, int((w.box[0] + w.box[2]) / 2)], w.text
    assert res.mask[20, int(d[0].box[0])] and res.mask[20, int(d[1].box[2]) - 1]


def test_mask_margins_stay_off_a_label_on_the_line_below():
    # Two tight lines: the name's margin (relative dilation) would clip the top of "DOB:" below it.
    d = [W("Pt:", 10, 10, 46, 30), W("KOWALSKI", 54, 10, 150, 30), W("DOB:", 54, 32, 102, 52), W("07.16.1953", 108, 32, 228, 52)]
    loc = PhiLocalizer(FixedEngine(d), dilation=3, relative_dilation=0.3)
    res = loc.locate(np.zeros((70, 260, 3), np.uint8), Manifest({"PatientName": "KOWALSKI^ANNA"}))
    assert res.mask[20, 100] and res.mask[42, 160]  # the name and the date (pattern) masked
    assert not res.mask[32:52, 56:100].any()  # the whole "DOB:" box kept
    assert not res.mask[10:30, 12:44].any()  # and "Pt:"
    assert res.mask[31, 100]  # the name's margin is still there outside the label boxes
