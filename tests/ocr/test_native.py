"""Native-resolution reading: the text test, piece planning, box merging, and the real engines on a large scan."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from clinx.errors import ConfigError
from clinx.ocr import get_engine, independent_engine
from clinx.ocr.native import NativeSettings, _split, merge_boxes, plan_tiles, read_native, text_cells
from clinx.records import Manifest

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _font(cap_px: float):
    return ImageFont.truetype(FONT, max(8, int(round(cap_px / 0.73))))  # DejaVu cap height ~0.73 em


def _draw_words(img: np.ndarray, lines, cap_px: float):
    """Draw ``lines`` = [(x, y, [word, ...], fill)] onto RGB ``img``; returns (image, {word: ink mask}).

    A word's ink mask holds its letters and digits only: the comma after
    ``DOE,`` is not PHI and need not be masked.
    """
    font = _font(cap_px)
    pil = Image.fromarray(img)
    draw = ImageDraw.Draw(pil)
    ink = {}
    h, w = img.shape[:2]
    for x, y, words, fill in lines:
        for word in words:
            layer = Image.new("L", (w, h), 0)
            ImageDraw.Draw(layer).text((x, y), word.rstrip(",:;"), fill=255, font=font)
            draw.text((x, y), word, fill=fill, font=font)
            ink[word] = np.asarray(layer) > 0
            x += draw.textlength(word + " ", font=font)
    return np.asarray(pil).copy(), ink


def _smooth_background(h, w, seed=0):
    yy, xx = np.mgrid[0:h, 0:w]
    base = 60 + 50 * np.sin(xx / 300.0) * np.cos(yy / 410.0) + np.random.default_rng(seed).normal(0, 2, (h, w))
    return np.repeat(np.clip(base, 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)


# ------------------------------------------------------------------ fast, no engine
def test_text_cells_light_up_glyphs_not_smooth_anatomy():
    img, ink = _draw_words(_smooth_background(1200, 1600), [(900, 700, ["00482913"], (240, 240, 240))], 14)
    s = NativeSettings()
    cells = text_cells(img, s)
    ys, xs = np.nonzero(ink["00482913"])
    assert cells[ys // s.cell, xs // s.cell].mean() > 0.9  # the word's cells pass
    assert cells.mean() < 0.01  # the rest of the image does not
    tiles, active = plan_tiles(img, s)
    assert tiles and sum((t[2] - t[0]) * (t[3] - t[1]) for t in tiles) < 0.05 * 1200 * 1600
    x0, x1 = xs.min(), xs.max()
    assert any(t[0] <= x0 and x1 < t[2] and t[1] <= ys.min() and ys.max() < t[3] for t in tiles)


def test_blank_image_runs_no_detector():
    calls = []
    out = read_native(np.full((2000, 2000, 3), 90, np.uint8), NativeSettings(), lambda p: calls.append(p) or [], lambda im, q: ["never"])
    assert out == [] and calls == []


def test_noisy_image_is_tiled_whole_rather_than_trusted():
    noisy = np.random.default_rng(1).integers(0, 255, (900, 900, 3)).astype(np.uint8)
    tiles, active = plan_tiles(noisy, NativeSettings(noise_factor=0.0, min_contrast=10, max_active=0.5))
    assert active > 0.5
    covered = np.zeros((900, 900), bool)
    for x0, y0, x1, y1 in tiles:
        covered[y0:y1, x0:x1] = True
    assert covered.all()


def test_a_long_diagonal_edge_is_read_in_blocks_not_as_one_huge_piece():
    import cv2

    img = np.full((2400, 2400, 3), 40, np.uint8)
    cv2.line(img, (100, 100), (2300, 2300), (230, 230, 230), 3)  # a sharp edge winding across the film
    tiles, _ = plan_tiles(img, NativeSettings())
    assert tiles
    area = sum((t[2] - t[0]) * (t[3] - t[1]) for t in tiles)
    assert area < 0.35 * 2400 * 2400  # its bounding box would be ~84 % of the image
    covered = np.zeros((2400, 2400), bool)
    for x0, y0, x1, y1 in tiles:
        covered[y0:y1, x0:x1] = True
    assert covered[(img[:, :, 0] > 200)].all()  # still every edge pixel is read


def test_split_covers_with_the_requested_overlap():
    pieces = _split(0, 1000, 256, 64)
    assert pieces[0][0] == 0 and pieces[-1][1] == 1000
    assert all(b - a <= 256 for a, b in pieces)
    assert all(p[1] - q[0] >= 64 for p, q in zip(pieces, pieces[1:]))
    assert _split(10, 200, 256, 64) == [(10, 200)]


def _q(x0, y0, x1, y1):
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_merge_boxes_unites_pieces_of_one_line_and_keeps_one_piece_apart():
    quads = [
        _q(100, 50, 300, 80),  # piece 0: the left part of a line cut at x=300
        _q(240, 50, 420, 80),  # piece 1: the right part, overlapping in the band
        _q(100, 90, 200, 120),  # piece 0: the next line
        _q(105, 92, 198, 118),  # piece 1: the same word seen again
        _q(500, 50, 560, 80),  # piece 0: a separate word on the first row
        _q(565, 50, 600, 80),  # piece 0: its neighbour, same piece: the detector split them, keep apart
    ]
    merged = merge_boxes(quads, [0, 1, 0, 1, 0, 0])
    boxes = sorted(tuple(int(v) for v in (q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())) for q in merged)
    assert boxes == [(100, 50, 420, 80), (100, 90, 200, 120), (500, 50, 560, 80), (565, 50, 600, 80)]


def test_settings_validation_and_forms():
    assert NativeSettings.from_any(None) == NativeSettings()
    assert NativeSettings.from_any(False).enabled is False
    assert NativeSettings.from_any({"tile": 512}).tile == 512
    with pytest.raises(ConfigError):
        NativeSettings.from_any({"tiles": 512})
    with pytest.raises(ConfigError):
        NativeSettings(tile=256, overlap=200)


def test_independent_engine_is_the_other_one():
    assert independent_engine("rapidocr") == "easyocr"
    assert independent_engine("easyocr") == "rapidocr"
    with pytest.raises(KeyError):
        independent_engine("tesseract")


# ------------------------------------------------------------------ real engines
def _real_scan(side=2600):
    """pydicom-data's CR chest film (MONOCHROME1), scaled to ``side`` px on its longer side."""
    import cv2
    from pydicom.data import get_testdata_file

    from clinx.data.dicom import read_dicom

    img = read_dicom(get_testdata_file("RG1_UNCR.dcm", download=False)).frames[0]
    h, w = img.shape[:2]
    s = side / max(h, w)
    return cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_LINEAR)


@pytest.fixture(scope="module")
def burned_scan():
    """A 2,600 px CR film with ~20 px burned-in text: listed name and birth date, an unlisted date, non-PHI."""
    img = _real_scan()
    h, w = img.shape[:2]
    white = (255, 255, 255)
    lines = [
        (30, 24, ["Name:", "DOE,", "JOHN"], white),
        (30, 60, ["DOB:", "07.16.1953"], white),
        (w - 260, 24, ["03/02/2021"], white),  # a study date no manifest lists
        (30, h - 90, ["PORTABLE", "AP"], white),
        (30, h - 54, ["120", "kVp"], white),
        (w - 60, h - 70, ["L"], white),
    ]
    img, ink = _draw_words(img, lines, cap_px=20)
    manifest = Manifest({"PatientName": "DOE^JOHN", "PatientBirthDate": "19530716"})  # custodian form
    return img, ink, manifest


def _covered(mask, ink):
    return float(mask[ink].mean())


@pytest.mark.slow
@pytest.mark.parametrize("engine_name", ["rapidocr", "easyocr"])
def test_listed_name_and_unlisted_date_masked_on_a_native_resolution_scan(burned_scan, engine_name):
    from clinx.localize import PhiLocalizer

    img, ink, manifest = burned_scan
    assert max(img.shape[:2]) >= 2500
    res = PhiLocalizer(get_engine(engine_name)).locate(img, manifest, item="scan.png")
    assert res.mode_used == "manifest+patterns"
    for w in ("DOE,", "JOHN", "07.16.1953"):
        assert _covered(res.mask, ink[w]) > 0.99, w
    assert _covered(res.mask, ink["03/02/2021"]) > 0.99
    assert "pattern:DATE" in res.fields and "PatientName" in res.fields
    for w in ("Name:", "PORTABLE", "AP", "120", "kVp"):
        assert _covered(res.mask, ink[w]) < 0.05, w


@pytest.mark.slow
def test_without_native_reading_the_small_name_is_not_even_seen(burned_scan):
    # Why native reading exists: shrunk to 512 px the 20-px name is ~4 px high and RapidOCR does not read it.
    img, _, _ = burned_scan
    texts = " ".join(d.text for d in get_engine("rapidocr", native=False).read(img)).upper()
    assert "JOHN" not in texts
    assert "JOHN" in " ".join(d.text for d in get_engine("rapidocr").read(img)).upper()


@pytest.mark.slow
@pytest.mark.parametrize("engine_name", ["rapidocr", "easyocr"])
def test_a_word_straddling_a_piece_edge_is_read_once_and_masked_whole(engine_name):
    from clinx.localize import PhiLocalizer

    # Every piece read (no skipping), 256-px pieces overlapping by 64: edges at known places.
    settings = {"tile": 256, "overlap": 64, "skip_empty": False}
    size = 1400
    pieces = _split(0, size, 256, 64)
    edge = pieces[0][1]  # right edge of the first column of pieces
    assert pieces[1][0] < edge
    img, ink = _draw_words(_smooth_background(size, size, 3), [(pieces[1][0] - 70, 400, ["KOWALSKI"], (245, 245, 245))], 24)
    xs = np.nonzero(ink["KOWALSKI"].any(axis=0))[0]
    assert xs.min() < pieces[1][0] and xs.max() > edge  # no single piece holds the whole word
    eng = get_engine(engine_name, cache=False, native=settings)
    dets = eng.read(img)
    assert [d.text.upper() for d in dets] == ["KOWALSKI"]
    res = PhiLocalizer(eng).locate(img, Manifest({"PatientName": "KOWALSKI^ANNA"}), item="seam.png")
    assert _covered(res.mask, ink["KOWALSKI"]) > 0.99


@pytest.mark.slow
def test_engine_fingerprints_are_deterministic_and_follow_settings():
    a = get_engine("rapidocr").fingerprint()
    assert a.startswith("rapidocr-") and a == get_engine("rapidocr", cache=False).fingerprint()
    assert get_engine("rapidocr", cache=False, box_thresh=0.4).fingerprint() != a
    assert get_engine("rapidocr", cache=False, native={"tile": 512}).fingerprint() != a
    assert get_engine("rapidocr", cache=False, threads=1).fingerprint() == a  # speed only
    e = get_engine("easyocr").fingerprint()
    assert e.startswith("easyocr-") and e != a
    assert get_engine("easyocr", cache=False, canvas_size=1024).fingerprint() != e
