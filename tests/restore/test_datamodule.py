"""Training data: masks, crops around the text, fresh PHI, user folders."""

import numpy as np
import pytest
import torch
from PIL import Image

from clinx.errors import ConfigError
from clinx.restore.datamodule import RestorationDataModule, crop_around_mask, training_mask


def _glyph_mask():
    m = np.zeros((60, 120), bool)
    for x0 in range(10, 100, 12):  # letters of one word, 4 px apart
        m[20:32, x0:x0 + 8] = True
    return m


def test_true_mask_is_dilated():
    m = _glyph_mask()
    d = training_mask(m, "true", 2)
    assert d[m].all() and d.sum() > m.sum()
    assert not training_mask(m, "true", 0)[20:32, 18:22].any()  # no dilation: gaps stay open


def test_box_mask_joins_letters_into_one_word_box():
    m = _glyph_mask()
    b = training_mask(m, "boxes", 0)
    assert b[20:32, 10:102].all() and b.sum() == (32 - 20) * (102 - 10)  # glyphs span x 10..101


def test_unknown_mask_source_is_a_config_error():
    with pytest.raises(ConfigError):
        training_mask(_glyph_mask(), "ocr-magic", 1)


def test_crop_contains_mask_pixels():
    rng = np.random.default_rng(0)
    m = np.zeros((224, 224), bool)
    m[200:210, 150:200] = True
    img = np.zeros((224, 224, 3), np.uint8)
    for _ in range(20):
        xt, cm, x = crop_around_mask((img, m, img), m, 64, rng)
        assert xt.shape == (64, 64, 3) and cm.shape == (64, 64) and cm.any()


def test_builtin_stream_gives_fresh_phi_each_epoch():
    dm = RestorationDataModule(size=96, crop=48, batch_size=2, steps_per_epoch=1, val_n=0)
    dm.setup()
    a = next(iter(dm.train_dataloader()))
    b = next(iter(dm.train_dataloader()))
    assert a["x_tilde"].shape == (2, 3, 48, 48) and a["mask"].shape == (2, 1, 48, 48)
    assert a["mask"].sum() > 0
    assert not torch.equal(a["x_tilde"], b["x_tilde"])
    # Outside the (dilated) mask the overlay and the clean image agree almost everywhere.
    outside = a["mask"].expand_as(a["x"]) == 0
    assert (a["x_tilde"][outside] - a["x"][outside]).abs().mean() < 0.05


def test_folder_of_clean_images(tmp_path):
    rng = np.random.default_rng(0)
    for i in range(2):
        yy, xx = np.mgrid[0:150, 0:130]
        img = (np.stack([xx, yy, xx + yy], -1) % 256).astype(np.uint8)
        Image.fromarray(img).save(tmp_path / f"scan{i}.png")
    dm = RestorationDataModule(source=str(tmp_path), size=128, crop=64, batch_size=3, steps_per_epoch=1, val_n=2,
                               crops_per_image=3)
    dm.setup()
    batch = next(iter(dm.train_dataloader()))
    assert batch["x"].shape == (3, 3, 64, 64) and batch["mask"].sum() > 0
    val = next(iter(dm.val_dataloader()))
    assert val["x"].shape == (2, 3, 128, 128)


def test_missing_folder_is_a_config_error(tmp_path):
    dm = RestorationDataModule(source=str(tmp_path / "nope"), size=64, crop=32, val_n=0)
    with pytest.raises(ConfigError):
        dm.setup()
