"""Matching synthetic OCR detections against manifests: only PHI words are kept."""

import pytest

from clinx.localize.match import Match, match_detections
from clinx.ocr.base import char_width
from clinx.records import Detection, Manifest


def words(*items, y=10, h=20, start=10, space=12, cw=11, conf=0.99, engine="test"):
    """Word detections laid out left to right on one row, ``cw`` pixels per character."""
    out, x = [], start
    for text in items:
        w = cw * len(text)
        out.append(Detection(text, (x, y, x + w, y + h), conf, None, engine, "word"))
        x += w + space
    return out


def line(text, x=10, y=10, h=20, scale=18.0, conf=0.99):
    """A line detection whose box is as wide as ``text`` drawn at ``scale`` px per em."""
    return Detection(text, (x, y, x + advance(text, scale), y + h), conf, None, "test", "line")


def advance(text, scale=18.0):
    return scale * sum(char_width(c) for c in text)


def matched_texts(dets, matches):
    return sorted({dets[m.detection_index].text for m in matches})


def test_word_split_name_is_combined_and_label_and_marker_survive():
    dets = words("Name:", "JOHN", "DOE", "L")
    ms = match_detections(dets, Manifest({"patient_name": "John Doe"}))
    assert matched_texts(dets, ms) == ["DOE", "JOHN"]
    assert all(isinstance(m, Match) and m.field == "patient_name" for m in ms)


def test_line_detection_masks_only_the_value_part():
    text = "Name: JOHN DOE    L"
    det = line(text)
    ms = match_detections([det], Manifest({"patient_name": "JOHN DOE"}))
    assert ms, "the name inside the line must be found"
    x0 = min(m.box[0] for m in ms)
    x1 = max(m.box[2] for m in ms)
    assert x0 >= 10 + advance("Name:") - 1  # the label stays out (estimated boxes get <1 px slack)
    assert x1 <= 10 + advance("Name: JOHN DOE    ")  # and the marker
    assert x0 <= 10 + advance("Name: ") and x1 >= 10 + advance("Name: JOHN DOE")  # the whole name is in


def test_value_split_over_words_on_one_line():
    dets = words("DOB", "03/14/", "1961", "PORTABLE")
    ms = match_detections(dets, Manifest({"birth_date": "1961-03-14"}))
    assert matched_texts(dets, ms) == ["03/14/", "1961"]


@pytest.mark.parametrize("ocr", ["14-MAR-1961", "Mar 14, 1961", "19610314", "14.03.1961"])
def test_any_date_rendering_matches(ocr):
    dets = words("DOB:", *ocr.split())
    ms = match_detections(dets, Manifest({"birth_date": "03/14/1961"}))
    assert matched_texts(dets, ms) == sorted(ocr.split())


def test_ocr_typos_in_names_and_numbers():
    dets = words("J0HN", "D0E") + words("MRN", "O0482913", y=40)
    ms = match_detections(dets, Manifest({"patient_name": "JOHN DOE", "mrn": "00482913"}))
    assert matched_texts(dets, ms) == ["D0E", "J0HN", "O0482913"]


def test_dicom_caret_name_matches_any_order():
    man = Manifest({"patient_name": "DOE^JOHN"})
    for texts in (("JOHN", "DOE"), ("DOE,", "JOHN"), ("DOE^JOHN",)):
        dets = words("Pt:", *texts)
        assert matched_texts(dets, match_detections(dets, man)) == sorted(texts)


def test_single_name_part_on_its_own_is_masked():
    dets = words("Ref:", "THOMPSON")
    ms = match_detections(dets, Manifest({"patient_name": "Margaret Thompson"}))
    assert matched_texts(dets, ms) == ["THOMPSON"]


def test_short_tokens_never_match_by_partial_score():
    dets = words("L") + words("R", start=300) + words("AP", y=40)
    man = Manifest({"patient_name": "Lara Rapp", "hospital_name": "Lakeside Regional"})
    assert match_detections(dets, man) == []


def test_short_value_must_equal_a_whole_word():
    dets = words("ANNUAL", "CT") + words("ANN", "LEE", y=40)
    ms = match_detections(dets, Manifest({"patient_name": "Ann Lee"}))
    assert matched_texts(dets, ms) == ["ANN", "LEE"]


def test_words_of_other_values_are_not_masked():
    dets = words("CHEST", "PA") + words("Mercy", "General", y=40)
    ms = match_detections(dets, Manifest({"hospital_name": "Chester General Hospital"}))
    assert "CHEST" not in matched_texts(dets, ms)


def test_threshold_controls_fuzzy_matches():
    dets = words("Margret", "Thomson")
    man = Manifest({"patient_name": "Margaret Thompson"})
    assert matched_texts(dets, match_detections(dets, man, threshold=85)) == ["Margret", "Thomson"]
    assert match_detections(dets, man, threshold=99) == []


def test_numbers_tolerate_one_misread_digit_only():
    man = Manifest({"mrn": "00482913"})
    one = words("MRN", "00482918")
    two = words("MRN", "00482988")
    assert matched_texts(one, match_detections(one, man)) == ["00482918"]
    assert match_detections(two, man) == []


def test_low_confidence_detections_are_ignored():
    dets = words("JOHN", "DOE", conf=0.1)
    man = Manifest({"patient_name": "John Doe"})
    assert match_detections(dets, man) == []
    assert match_detections(dets, man, min_confidence=0.05)


def test_label_glued_to_value_is_cut_out_of_the_word_box():
    det = line("MRN00482913")
    det = Detection(det.text, det.box, det.confidence, None, "test", "word")  # one engine word
    ms = match_detections([det], Manifest({"mrn": "00482913"}))
    assert len(ms) == 1 and ms[0].method == "ratio"
    half_char = 0.5 * det.width / len(det.text)
    assert ms[0].box[0] >= 10 + advance("MRN") - half_char - 0.01  # "MRN" left out
    assert ms[0].box[2] == pytest.approx(det.box[2])


def test_values_in_different_columns_are_not_joined():
    dets = words("03/14/") + words("1961", start=400)
    assert match_detections(dets, Manifest({"birth_date": "1961-03-14"})) == []


def test_repeated_value_on_one_line_is_found_twice():
    dets = words("00482913", "/", "00482913")
    ms = match_detections(dets, Manifest({"mrn": "00482913"}))
    assert sorted(m.detection_index for m in ms) == [0, 2]


def test_stacked_lines_stay_apart():
    # Two tightly stacked annotation lines must not be read as one line.
    dets = words("Name:", "JOHN", "DOE", y=10) + words("St.", "Mary", y=24, start=200)
    ms = match_detections(dets, Manifest({"patient_name": "John Doe", "hospital_name": "St Mary"}))
    by_field = {dets[m.detection_index].text: m.field for m in ms}
    assert by_field == {"JOHN": "patient_name", "DOE": "patient_name", "St.": "hospital_name", "Mary": "hospital_name"}


def test_renderings_are_used():
    dets = words("Seen", "twelfth", "of", "May")
    man = Manifest({"study_date": "2001-05-12"}, renderings={"study_date": ("twelfth of May",)})
    assert matched_texts(dets, match_detections(dets, man)) == ["May", "of", "twelfth"]


def test_empty_inputs():
    assert match_detections([], Manifest({"mrn": "123456"})) == []
    assert match_detections(words("JOHN"), Manifest()) == []


def test_match_objects_carry_no_text():
    dets = words("JOHN", "DOE")
    for m in match_detections(dets, Manifest({"patient_name": "John Doe"})):
        assert "JOHN" not in repr(m).upper() and "DOE" not in repr(m).upper()


def test_label_letters_are_not_folded_into_phone_digits():
    # "+1" in the value must not pull the "l" of "Tel:" into the mask.
    dets = words("Tel:", "668-376-2070")
    ms = match_detections(dets, Manifest({"phone": "+1 668-376-2070"}))
    assert matched_texts(dets, ms) == ["668-376-2070"]


def test_fragment_does_not_carry_a_neighbouring_label():
    dets = words("Pt:", "Cunningham,", "Antonio")
    ms = match_detections(dets, Manifest({"email": "antonio.cunningham@example.com"}))
    assert "Pt:" not in matched_texts(dets, ms)


def test_numeric_folding_does_not_pull_a_label_into_a_phone_match():
    from clinx.localize.match import match_detections
    from clinx.records import Detection, Manifest

    # One OCR word "Tel:(756)530-3006": folding the "l" of "Tel" to "1" would let
    # a "+1 756 ..." rendering start inside the label.
    d = Detection("Tel:(756)530-3006", (10, 10, 190, 30), 0.99, None, "t", "word")
    ms = match_detections([d], Manifest({"phone": "+1 756 530 3006"}))
    assert ms and all(m.field == "phone" for m in ms)
    assert min(m.box[0] for m in ms) > 10 + 0.15 * 180  # the cut starts after "Tel:"


def test_cut_match_is_not_dilated_into_the_label_of_the_same_word():
    from clinx.localize.mask import build_mask
    from clinx.localize.match import match_detections
    from clinx.records import Detection, Manifest

    d = Detection("MRN:96324251", (10, 10, 130, 30), 0.99, None, "t", "word")
    ms = match_detections([d], Manifest({"mrn": "96324251"}))
    assert len(ms) == 1 and ms[0].limits is not None
    m = build_mask((64, 160), ms, 3, relative_dilation=0.15)
    x0 = ms[0].box[0]
    assert not m[20, : int(x0)].any()  # no margin to the left: "MRN:" stays
    assert m[20, int(x0) + 1 : 131].all() and m[30 + 2, int(x0) + 5]  # value covered, vertical margin kept


def test_neighbouring_matched_words_still_cover_the_gap_between_them():
    from clinx.localize.mask import build_mask
    from clinx.localize.match import match_detections
    from clinx.records import Detection, Manifest

    dets = [Detection("Name:", (10, 10, 60, 30), 0.99, None, "t", "word"),
            Detection("JOHN", (70, 10, 110, 30), 0.99, None, "t", "word"),
            Detection("DOE", (120, 10, 150, 30), 0.99, None, "t", "word")]
    ms = match_detections(dets, Manifest({"patient_name": "DOE^JOHN"}))
    m = build_mask((64, 200), ms, 6)
    assert m[20, 66:154].all()  # gap JOHN|DOE covered, 6 px margin right of DOE (no neighbour)
    assert not m[20, :60].any()  # but never into the box of "Name:"
    assert m[20, 64]  # the margin fills the gap up to it (word boxes are off by a few px at native size)
