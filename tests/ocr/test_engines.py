"""The real engines, offline, on small rendered images (one model load per engine)."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from clinx.errors import ConfigError, ItemError
from clinx.ocr import get_engine

pytestmark = pytest.mark.slow

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def render(lines, size=(512, 512), font_size=20):
    try:
        font = ImageFont.truetype(FONT, font_size)
    except OSError:
        font = ImageFont.load_default(size=font_size)
    img = Image.new("RGB", size, (60, 60, 60))
    d = ImageDraw.Draw(img)
    boxes = {}
    for x, y, text in lines:
        d.text((x, y), text, fill=(235, 235, 235), font=font)
        boxes[text] = d.textbbox((x, y), text, font=font)
    return np.asarray(img).copy(), boxes


@pytest.fixture(scope="module")
def rapid():
    return get_engine("rapidocr")


@pytest.fixture(scope="module")
def easy():
    return get_engine("easyocr")


def _iou_x(a, b):
    inter = min(a[2], b[2]) - max(a[0], b[0])
    return inter / (max(a[2], b[2]) - min(a[0], b[0]))


def test_rapidocr_reads_word_boxes(rapid):
    img, boxes = render([(30, 40, "MRN"), (100, 40, "00482913"), (30, 300, "PORTABLE")])
    dets = rapid.read(img)
    texts = [d.text for d in dets]
    assert "00482913" in texts and "PORTABLE" in texts
    assert all(d.engine == "rapidocr" and d.level == "word" and 0 <= d.confidence <= 1 for d in dets)
    mrn = next(d for d in dets if d.text == "00482913")
    assert _iou_x(mrn.box, boxes["00482913"]) > 0.7  # the box sits on the rendered word
    assert mrn.polygon is not None and len(mrn.polygon) == 4
    assert texts.index("00482913") < texts.index("PORTABLE")  # reading order


def test_rapidocr_splits_a_line_into_words(rapid):
    img, boxes = render([(30, 40, "Name: JOHN DOE")])
    dets = rapid.read(img)
    assert [d.text for d in dets] == ["Name:", "JOHN", "DOE"]
    assert dets[0].box[2] <= dets[1].box[0] + 2 < dets[2].box[0]


def test_rapidocr_handles_blank_tiny_and_gray_inputs(rapid):
    assert rapid.read(np.full((512, 512, 3), 80, np.uint8)) == []
    assert rapid.read(np.zeros((1, 1, 3), np.uint8)) == []
    assert rapid.read(np.zeros((0, 10, 3), np.uint8)) == []
    img, _ = render([(20, 20, "PORTABLE")], size=(256, 96))
    gray = img[:, :, 0].copy()
    assert [d.text for d in rapid.read(gray)] == ["PORTABLE"]
    assert rapid.read_batch([gray, gray[:5]]) == [rapid.read(gray), []]


def test_rapidocr_bad_input_becomes_item_error(rapid):
    with pytest.raises(ItemError) as ei:
        rapid.read_item(np.zeros((64, 64, 3), np.float32), "x.png")
    assert ei.value.stage == "ocr"


def test_rapidocr_missing_model_is_a_config_error_not_a_download(tmp_path):
    with pytest.raises(ConfigError, match="never downloads"):
        get_engine("rapidocr", cache=False, det_model_path=str(tmp_path / "missing.onnx"))


def test_easyocr_reads_offline_and_splits_words(easy):
    img, boxes = render([(16, 24, "Name: JOHN DOE")], size=(320, 80))
    dets = easy.read(img)
    assert [d.text.upper() for d in dets] == ["NAME:", "JOHN", "DOE"]
    assert all(d.engine == "easyocr" and d.level == "word_est" for d in dets)
    assert dets[0].box[2] <= dets[1].box[0] < dets[1].box[2] <= dets[2].box[0]
    full = boxes["Name: JOHN DOE"]
    assert dets[0].box[0] == pytest.approx(full[0], abs=8) and dets[2].box[2] == pytest.approx(full[2], abs=8)


def test_easyocr_missing_weights_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="never downloads"):
        get_engine("easyocr", cache=False, model_dir=str(tmp_path))


def test_hydra_configs_instantiate_the_engines_and_localizer(rapid):
    from hydra.utils import instantiate
    from omegaconf import OmegaConf

    from clinx.config import CONFIG_DIR
    from clinx.localize import PhiLocalizer
    from clinx.ocr.easy import EasyOCREngine
    from clinx.ocr.rapid import RapidOCREngine

    rcfg = OmegaConf.load(CONFIG_DIR / "ocr" / "rapidocr.yaml")
    assert rcfg._target_ == "clinx.ocr.rapid.RapidOCREngine"
    eng = instantiate(rcfg)
    assert isinstance(eng, RapidOCREngine) and eng.params["limit_side_len"] == rcfg.limit_side_len
    ecfg = OmegaConf.load(CONFIG_DIR / "ocr" / "easyocr.yaml")
    assert ecfg._target_ == "clinx.ocr.easy.EasyOCREngine"
    assert set(ecfg) - {"_target_"} <= set(EasyOCREngine.__init__.__code__.co_varnames)
    loc = instantiate(OmegaConf.load(CONFIG_DIR / "localize" / "default.yaml"))
    assert isinstance(loc, PhiLocalizer) and loc.engine is rapid  # built once, shared through get_engine


def test_rapidocr_workers_read_batches_in_parallel_with_identical_results(rapid):
    imgs = [render([(20, 20 + 30 * k, f"ACC{k}2024")], size=(256, 160))[0] for k in range(3)]
    par = get_engine("rapidocr", workers=2, threads=1)
    assert par.workers == 2
    assert par.read_batch(imgs) == [rapid.read(im) for im in imgs]


def test_easyocr_restores_the_callers_torch_threads_and_bf16_reads_like_fp32(easy):
    import torch

    img, _ = render([(16, 24, "MRN 00482913")], size=(320, 80))
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        got = easy.read(img)
        assert torch.get_num_threads() == 2  # the engine reads with its own count, then gives the caller's back
    finally:
        torch.set_num_threads(before)
    fp32 = get_engine("easyocr", cache=False, precision="fp32")
    assert fp32.precision == "fp32"
    assert [d.text for d in got] == [d.text for d in fp32.read(img)]
    with pytest.raises(ConfigError, match="precision"):
        get_engine("easyocr", cache=False, precision="fp16")
