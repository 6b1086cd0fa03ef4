"""Leakage metrics on hand-made detections (no OCR engine needed)."""

import numpy as np
import pytest

from clinx.metrics.leakage import (
    OCRView,
    ReadCache,
    aggregate_leakage,
    aggregate_masks,
    aggregate_survival,
    boxes_from_mask,
    compact,
    evaluate_leakage,
    field_leak,
    image_leakage,
    leakage_rows,
    markdown_table,
    mask_quality,
    nonphi_survival,
    normalize,
    text_is_read,
    tokens,
)
from clinx.records import Detection, Manifest, Sample


def det(text):
    return Detection(text=text, box=(0, 0, 10, 10))


MANIFEST = Manifest(
    fields={"patient_name": "DOE^JOHN", "birth_date": "1961-03-14", "mrn": "MRN1234567"},
    renderings={"birth_date": ("03/14/1961", "14-Mar-1961")},
)


def test_normalize_and_tokens():
    assert normalize("DOE^JOHN") == "doe john"
    assert normalize("  Doe,  John ") == "doe john"
    assert tokens("03/14/1961") == ["03", "14", "1961"]
    assert compact("A-99 88") == "a9988"


def test_token_recall_exact_and_partial():
    view = OCRView.from_detections([det("Name: DOE^JOHN"), det("DOB 03/14/19")])
    leaks = image_leakage(view, MANIFEST)
    assert leaks["patient_name"].tokens_recovered == 2 and leaks["patient_name"].tokens_total == 2
    # best date variant is 03/14/1961: "03" and "14" read, "1961" not
    assert leaks["birth_date"].tokens_total == 3 and leaks["birth_date"].tokens_recovered == 2
    assert leaks["mrn"].tokens_recovered == 0


def test_merged_ocr_words_count_for_long_tokens_only():
    view = OCRView.from_detections([det("DOEJOHNSON")])
    leak = field_leak(["John Doe"], view)
    # "john" (4 chars) is inside the merged token; "doe" (3 chars) is not credited by substring
    assert leak.tokens_recovered == 1 and leak.tokens_total == 2


def test_single_char_tokens_not_counted():
    view = OCRView.from_detections([det("L"), det("R")])
    leak = field_leak(["L R Smith"], view)
    assert leak.tokens_total == 1 and leak.tokens_recovered == 0


def test_char_overlap_is_longest_common_run_over_value_length():
    view = OCRView.from_detections([det("MRN1234"), det("567")])
    leak = field_leak(["MRN1234567"], view)
    assert leak.chars_total == 10 and leak.chars_recovered == 7
    assert leak.char_overlap == pytest.approx(0.7)


def test_nothing_read_gives_zero():
    leaks = image_leakage(OCRView.from_detections([]), MANIFEST)
    agg = aggregate_leakage([leaks])
    assert agg["token_recall"] == 0 and agg["char_overlap"] == 0
    assert agg["tokens_total"] == 2 + 3 + 1


def test_aggregate_micro_vs_macro():
    a = {"f": _leak(1, 1)}  # image 1: 1/1
    b = {"f": _leak(0, 3)}  # image 2: 0/3
    agg = aggregate_leakage([a, b])
    assert agg["token_recall"] == pytest.approx(1 / 4)
    assert agg["token_recall_macro"] == pytest.approx(0.5)
    assert agg["per_field"]["f"]["n_images"] == 2


def _leak(rec, tot):
    from clinx.metrics.leakage import FieldLeak

    return FieldLeak(tot, rec, tot, rec)


def test_fields_restriction():
    leaks = image_leakage(OCRView.from_detections([]), MANIFEST, fields=["mrn", "not_there"])
    assert set(leaks) == {"mrn"}


def test_mask_quality_iou_and_box_recall():
    true = np.zeros((20, 40), bool)
    true[2:6, 2:10] = True  # box A
    true[12:16, 20:30] = True  # box B
    pred = np.zeros_like(true)
    pred[2:6, 2:10] = True  # covers A fully, misses B
    q = mask_quality(pred, true, boxes=[(2, 2, 10, 6), (20, 12, 30, 16)])
    assert q.iou == pytest.approx(32 / 72)
    assert q.boxes_total == 2 and q.boxes_covered == 1
    agg = aggregate_masks([q, mask_quality(true, true)])
    assert agg["iou"] == pytest.approx((32 + 72) / (72 + 72))
    assert agg["box_recall"] == pytest.approx(3 / 4)
    assert mask_quality(np.zeros_like(true), np.zeros_like(true)).iou == 1.0
    with pytest.raises(ValueError):
        mask_quality(pred, true[:5])


def test_boxes_from_mask_joins_letters_of_a_word():
    m = np.zeros((30, 60), bool)
    for x in (2, 8, 14):  # three "letters" with 2-px gaps
        m[5:12, x : x + 4] = True
    m[20:26, 40:50] = True  # a second value far away
    boxes = boxes_from_mask(m)
    assert len(boxes) == 2
    assert (2, 5, 18, 12) in boxes


def test_nonphi_survival():
    before = OCRView.from_detections([det("L"), det("PORTABLE"), det("SEMI-UPRIGHT")])
    after = OCRView.from_detections([det("L"), det("SEMIUPRIGHT")])
    s = nonphi_survival(["L", "PORTABLE", "SEMI-UPRIGHT", "R"], before, after)
    assert s.read_before == 3 and s.read_after == 2 and not s.all_survived
    agg = aggregate_survival([s, nonphi_survival(["L"], before, before), nonphi_survival(["R"], before, after)])
    assert agg["n_images"] == 2 and agg["image_rate"] == pytest.approx(0.5)
    assert agg["text_rate"] == pytest.approx(3 / 4)
    assert text_is_read("R", before) is False


class FakeEngine:
    """Reads text strings we planted in a dict keyed by the image's first pixel value."""

    def __init__(self, name, table):
        self.name = name
        self.table = table
        self.calls = 0

    def read(self, image):
        self.calls += 1
        return [det(t) for t in self.table.get(int(image[0, 0, 0]), [])]


def test_evaluate_leakage_end_to_end_with_cache():
    def img(v):
        return np.full((16, 16, 3), v, np.uint8)

    samples = [
        Sample(id="a", image=img(1), manifest=Manifest(fields={"patient_name": "Ann Lee"}), nonphi_texts=("PORTABLE",)),
        Sample(id="b", image=img(2), manifest=Manifest(fields={"mrn": "A998877"}), nonphi_texts=("L",)),
        Sample(id="c", image=img(3), manifest=Manifest(fields={"mrn": "B1"})),
    ]
    engine = FakeEngine("fake", {1: ["Ann Lee", "PORTABLE"], 2: ["A998877", "L"], 3: ["B1"], 11: ["PORTABLE"], 12: []})
    cache = ReadCache()
    raw = evaluate_leakage({s.id: s.image for s in samples}, samples, {"fake": engine}, cache=cache)["fake"]
    assert raw["token_recall"] == 1.0 and raw["n_released"] == 3
    san = evaluate_leakage({"a": img(11), "b": img(12)}, samples, {"fake": engine}, cache=cache)["fake"]
    assert san["token_recall"] == 0.0 and san["n_missing"] == 1
    assert san["nonphi"]["image_rate"] == pytest.approx(0.5)  # PORTABLE kept on a, L lost on b
    # input reads were cached from the raw pass: 3 inputs + 2 new outputs
    assert engine.calls == 5
    rows = leakage_rows({"raw": {"fake": raw}, "ocr": {"fake": san}})
    assert {r["condition"] for r in rows} == {"raw", "ocr"}
    md = markdown_table(rows)
    assert md.startswith("| condition") and "Ann" not in md and "A998877" not in md


def test_box_iou_against_filled_boxes():
    true = np.zeros((20, 40), bool)
    true[3:5, 2:10] = True  # glyph pixels inside the box (2, 2, 10, 6)
    pred = np.zeros_like(true)
    pred[2:6, 2:10] = True
    q = mask_quality(pred, true, boxes=[(2, 2, 10, 6)])
    assert q.box_iou == 1.0 and q.iou == pytest.approx(16 / 32)
    assert aggregate_masks([q])["box_iou"] == 1.0


def test_nonphi_fuzzy_tolerates_one_ocr_error_on_long_words_only():
    view = OCRView.from_detections([det("Facilitv:"), det("PORTABLF"), det("A")])
    assert text_is_read("Facility:", view)
    assert text_is_read("PORTABLE", view)
    assert not text_is_read("AP", view)  # short texts must be exact
    assert not text_is_read("SUPINE", OCRView.from_detections([det("SPINAL")]))


def test_nonphi_by_kind_from_provenance():
    img = np.zeros((8, 8, 3), np.uint8)
    s = Sample(
        id="k", image=img, manifest=Manifest(fields={"mrn": "XY12"}), nonphi_texts=("L", "Name:"),
        provenance={"nonphi_boxes": [{"text": "L", "kind": "marker", "box": [0, 0, 1, 1]}, {"text": "Name:", "kind": "label", "box": [0, 0, 1, 1]}]},
    )
    eng = FakeEngine("fake", {0: ["L", "Name:"]})
    res = evaluate_leakage({"k": img}, [s], {"fake": eng})["fake"]
    assert set(res["nonphi_by_kind"]) == {"marker", "label"}
    assert res["nonphi_by_kind"]["marker"]["image_rate"] == 1.0


def test_multi_token_text_read_as_one_word_counts_as_read():
    # The detector sometimes merges the scale-bar label into one box ("5cm");
    # the text is still there, only the spacing differs.
    assert text_is_read("5 cm", OCRView.from_detections([det("5cm")]))
    assert text_is_read("5 cm", OCRView.from_detections([det("5 cm")]))
    assert not text_is_read("5 cm", OCRView.from_detections([det("15cm")]))
    assert not text_is_read("5 cm", OCRView.from_detections([det("5")]))


# ---------------------------------------------------------------- drawn identifiers (native benchmark)

from clinx.metrics.leakage import DrawnValue, bootstrap_ratio_se, drawn_leak, evaluate_release  # noqa: E402


def bdet(text, box):
    return Detection(text=text, box=box)


def test_drawn_leak_splits_listed_and_unlisted_and_needs_the_place():
    values = [
        DrawnValue("07.16.2021", "StudyDate", True, (10, 10, 90, 20)),
        DrawnValue("07.17.2021", "BurnedInStudyDate", False, (10, 100, 90, 110)),
        DrawnValue("Anna Smith", "ReferringPhysicianName", False, (10, 200, 90, 210)),
    ]
    # The listed date was masked; the unlisted one is read where it was drawn; the physician is gone.
    dets = [bdet("Date: 07.17.2021", (0, 98, 95, 112))]
    leak = drawn_leak(values, dets)
    assert (leak.listed_recovered, leak.listed_total) == (0, 3)  # "07"/"2021" read elsewhere do not count
    assert (leak.unlisted_recovered, leak.unlisted_total) == (3, 5)
    assert leak.recovered == 3 and leak.total == 8


def test_drawn_leak_char_overlap_counts_partial_reads_at_the_place_only():
    values = [DrawnValue("Anna Smith", "PatientName", True, (10, 10, 90, 20)),
              DrawnValue("12345678", "PatientID", True, (10, 100, 90, 110))]
    # Half the surname read where the name was drawn: no whole token, but characters recovered.
    # The ID's digits read far away (another text) do not count.
    dets = [bdet("Smi", (12, 8, 40, 22)), bdet("12345678", (500, 500, 590, 510))]
    leak = drawn_leak(values, dets)
    assert leak.recovered == 0
    assert (leak.chars_recovered, leak.chars_total) == (3, 9 + 8)
    nothing = drawn_leak(values, [])
    assert nothing.chars_recovered == 0 and nothing.chars_total == 17


def test_bootstrap_se():
    assert bootstrap_ratio_se([0, 0, 0], [5, 5, 5]) == 0.0
    se = bootstrap_ratio_se([5, 0, 5, 0], [5, 5, 5, 5])
    assert 0.1 < se < 0.4
    assert bootstrap_ratio_se([1], [2]) != bootstrap_ratio_se([1], [2])  # nan: one image has no spread


def test_evaluate_release_counts_quarantined_items_and_unlisted_recall():
    def img(v):
        return np.full((300, 300, 3), v, np.uint8)

    samples = [Sample(id=k, image=img(i + 1), manifest=Manifest(fields={"PatientID": "12345678"}), nonphi_texts=("L",))
               for i, k in enumerate("abcd")]
    drawn = {k: [DrawnValue("12345678", "PatientID", True, (0, 0, 100, 20)),
                 DrawnValue("87654321", "OtherPatientID", False, (0, 200, 100, 220))] for k in "abcd"}
    reads = {i: [("12345678", (0, 0, 100, 20)), ("87654321", (0, 200, 100, 220)), ("L", (250, 100, 260, 120))]
             for i in (1, 2, 3, 4)}
    reads[11] = [("87654321", (0, 200, 100, 220)), ("L", (250, 100, 260, 120))]  # only the unlisted ID left
    reads[12] = [("L", (250, 100, 260, 120))]
    reads[13] = []  # L lost too

    class BoxEngine:
        name = "fake"
        calls = 0

        def read(self, image):
            BoxEngine.calls += 1
            return [bdet(t, b) for t, b in reads[int(image[0, 0, 0])]]

    # d is quarantined: no output.
    res = evaluate_release({"a": img(11), "b": img(12), "c": img(13)}, samples, drawn, {"fake": BoxEngine()})["fake"]
    assert res["n_items"] == 4 and res["n_released"] == 3 and res["n_quarantined"] == 1
    assert res["released_fraction"] == pytest.approx(0.75)
    assert res["token_recall_listed"]["recall"] == 0.0 and res["token_recall_listed"]["upper95"] == pytest.approx(1.0)
    assert res["token_recall_unlisted"]["recall"] == pytest.approx(1 / 3)
    assert res["token_recall"]["recall"] == pytest.approx(1 / 6) and res["token_recall"]["n_images"] == 3
    assert res["nonphi"]["image_rate"] == pytest.approx(2 / 3)
    assert res["char_overlap"]["recall"] == pytest.approx(1 / 6)  # one 8-digit ID of six drawn values read
    # A quarantined item does not silently improve the figures: all quarantined -> nothing released, counted.
    none = evaluate_release({}, samples, drawn, {"fake": BoxEngine()})["fake"]
    assert none["released_fraction"] == 0.0 and none["n_quarantined"] == 4 and none["token_recall"]["tokens"] == 0


def test_read_cache_persists_reads_on_disk(tmp_path):
    image = np.full((20, 20, 3), 7, np.uint8)
    engine = FakeEngine("fake", {7: ["DOE JOHN"]})
    first = ReadCache(tmp_path, {"fake": "fake{limit:1}"})
    assert [d.text for d in first.detections(engine, image)] == ["DOE JOHN"] and first.calls == 1
    again = ReadCache(tmp_path, {"fake": "fake{limit:1}"})
    assert [d.text for d in again.detections(engine, image)] == ["DOE JOHN"] and again.calls == 0
    other = ReadCache(tmp_path, {"fake": "fake{limit:2}"})  # other settings: read again
    other.detections(engine, image)
    assert other.calls == 1


def test_attack_regions_cover_every_drawn_text_and_do_not_overlap():
    from clinx.metrics.leakage import attack_regions

    s = Sample(id="x", image=np.zeros((1000, 800, 3), np.uint8),
               provenance={"nonphi_boxes": [{"text": "L", "kind": "marker", "box": [700, 500, 712, 520]}]})
    drawn = [DrawnValue("DOE, JOHN", "PatientName", True, (10, 10, 120, 22)),
             DrawnValue("12345678", "PatientID", True, (10, 30, 100, 42)),  # same block: merged with the name
             DrawnValue("Anna Smith", "ReferringPhysicianName", False, (600, 960, 760, 975))]
    regions = attack_regions(s, drawn)
    assert len(regions) == 3
    for x0, y0, x1, y1 in [d.box for d in drawn] + [(700, 500, 712, 520)]:
        assert any(r[0] <= x0 and r[1] <= y0 and r[2] >= x1 and r[3] >= y1 for r in regions)
    for i, a in enumerate(regions):
        assert 0 <= a[0] < a[2] <= 800 and 0 <= a[1] < a[3] <= 1000
        for b in regions[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_region_reads_come_back_in_image_coordinates():
    from clinx.metrics.leakage import read_regions

    class CropEngine:
        name = "crop"

        def read(self, image):
            return [Detection("seen", (1, 2, 5, 6))] if image.shape[:2] == (50, 40) else []

    dets = read_regions(ReadCache(), CropEngine(), np.zeros((200, 200, 3), np.uint8), [(100, 10, 140, 60)], "crop")
    assert [d.box for d in dets] == [(101, 12, 105, 16)]


from clinx.metrics.attackers import TesseractAttacker, tesseract_available  # noqa: E402


@pytest.mark.parametrize("polarity", ["light_on_dark", "dark_on_light"])
def test_tesseract_attacker_reads_both_polarities(polarity):
    import cv2

    assert tesseract_available(), "tesseract-ocr (the independent attacker) is installed by scripts/install.sh"

    bg, fg = (0, 255) if polarity == "light_on_dark" else (255, 0)
    img = np.full((120, 520, 3), bg, np.uint8)
    cv2.putText(img, "PATIENT 48213377", (10, 70), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (fg,) * 3, 2, cv2.LINE_AA)
    dets = TesseractAttacker().read(img)
    view = OCRView.from_detections(dets)
    assert view.has_token("48213377")
    hit = next(d for d in dets if "48213377" in d.text)
    assert 140 < hit.box[0] < 260 and 30 < hit.box[1] < 70 and hit.box[3] < 90  # original coordinates


def test_leakage_cli_on_a_native_benchmark_counts_the_quarantined(tmp_path, monkeypatch, capsys):
    """``clinx leakage`` on a native split: drawn-identifier recall, and a missing output is counted, not dropped."""
    import shutil

    from clinx.config import compose
    from clinx.data.native import build_native, save_native
    from clinx.metrics.cli import run

    items = build_native(2, seed=5)
    bench = tmp_path / "bench"
    save_native(items, bench)
    released = tmp_path / "released"
    released.mkdir()
    shutil.copy(bench / "images" / f"{items[0].id}.png", released / f"{items[0].id}.png")  # item 1: quarantined
    monkeypatch.chdir(tmp_path)
    cfg = compose("leakage", [f"images_dir={released}", f"benchmark_dir={bench}", "engines=[rapidocr]",
                              "progress=false", "label=raw"])
    res = run(cfg)["raw"]["rapidocr"]
    assert res["n_items"] == 2 and res["n_released"] == 1 and res["n_quarantined"] == 1
    assert res["released_fraction"] == 0.5
    assert res["token_recall"]["recall"] > 0.5  # the raw image gives its identifiers away
    out = capsys.readouterr().out
    assert "released_fraction" in out and "token_recall_unlisted" in out
    for d in items[0].drawn:
        assert d.text not in out


def test_nonphi_ink_kept_counts_boxes_the_release_left_alone():
    from clinx.metrics.leakage import nonphi_ink_kept

    before = np.full((40, 100, 3), 90, np.uint8)
    after = before.copy()
    after[5:15, 40:60] = 0  # a black box over the second label only
    boxes = [(0, 5, 30, 15), (38, 5, 70, 15), (75, 5, 75, 15)]  # the last one is empty and not counted
    s = nonphi_ink_kept(boxes, before, after)
    assert (s.read_before, s.read_after) == (2, 1)
    assert nonphi_ink_kept(boxes, before, before).all_survived
    after[5, 0] = 0  # one pixel in 300 changed: within the tolerance
    assert nonphi_ink_kept(boxes[:1], before, after).all_survived
    with pytest.raises(ValueError):
        nonphi_ink_kept(boxes, before, after[:, :50])
