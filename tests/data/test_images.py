"""Raster image I/O: modes, orientation, fail-closed errors, bomb guard, atomic writes."""

from __future__ import annotations

import os
import shutil
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageFile, PngImagePlugin

from clinx.data import images as images_mod
from clinx.data.images import (
    ensure_not_input,
    is_dicom,
    load_any,
    load_image,
    load_image_bytes,
    save_image_atomic,
)
from clinx.errors import InputError, ItemError


# --------------------------------------------------------------------------- helpers


def _rgb(h: int = 24, w: int = 32, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def declared_png(width: int, height: int) -> bytes:
    """A valid, tiny 1-bit grayscale PNG of ``width`` x ``height`` (all black).

    The pixel stream is all zeros, so it compresses ~1000:1: a 20000x20000
    image is a few tens of KB on disk but 400 megapixels decoded — a real
    decompression bomb.
    """
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    row = b"\x00" * (1 + (width + 7) // 8)
    comp = zlib.compressobj(9)
    block = row * 256
    parts = []
    full, rest = divmod(height, 256)
    for _ in range(full):
        parts.append(comp.compress(block))
    parts.append(comp.compress(row * rest))
    parts.append(comp.flush())
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", b"".join(parts)) + _png_chunk(b"IEND", b"")


@pytest.fixture
def no_decode(monkeypatch):
    """Make any pixel decode (or PNG verify) fail the test loudly."""

    def boom(*args, **kwargs):
        raise AssertionError("pixel data was decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", boom)
    monkeypatch.setattr(PngImagePlugin.PngImageFile, "verify", boom)


# --------------------------------------------------------------------------- loading


def test_png_roundtrip_is_exact(tmp_path):
    img = _rgb()
    Image.fromarray(img).save(tmp_path / "a.png")
    out = load_image(tmp_path / "a.png")
    assert out.dtype == np.uint8 and out.shape == (24, 32, 3)
    np.testing.assert_array_equal(out, img)


def test_grayscale_is_replicated_to_three_channels(tmp_path):
    gray = _rgb()[:, :, 0]
    Image.fromarray(gray, mode="L").save(tmp_path / "g.png")
    out = load_image(tmp_path / "g.png")
    for c in range(3):
        np.testing.assert_array_equal(out[:, :, c], gray)


def test_16bit_is_stretched_to_8bit(tmp_path):
    # A 12-bit detector image stored in 16 bits: values 100..4000.
    vals = np.linspace(100, 4000, 16 * 16).reshape(16, 16).astype(np.uint16)
    Image.fromarray(vals).save(tmp_path / "x16.png")
    assert Image.open(tmp_path / "x16.png").mode.startswith("I")
    out = load_image(tmp_path / "x16.png")
    assert out[0, 0, 0] == 0 and out[-1, -1, 0] == 255
    # monotonic: order of intensities is kept
    assert np.all(np.diff(out[:, :, 0].ravel().astype(int)) >= 0)


def test_rgba_drops_alpha_without_compositing(tmp_path):
    img = _rgb()
    rgba = np.dstack([img, np.zeros(img.shape[:2], np.uint8)])  # fully transparent
    Image.fromarray(rgba, mode="RGBA").save(tmp_path / "a.png")
    np.testing.assert_array_equal(load_image(tmp_path / "a.png"), img)


@pytest.mark.parametrize("mode,suffix", [("P", ".png"), ("1", ".png"), ("LA", ".png"), ("CMYK", ".tif"), ("CMYK", ".jpg")])
def test_other_modes_convert_to_rgb(tmp_path, mode, suffix):
    src = Image.fromarray(_rgb()).convert(mode)
    src.save(tmp_path / f"m{suffix}")
    out = load_image(tmp_path / f"m{suffix}")
    assert out.shape == (24, 32, 3) and out.dtype == np.uint8
    expected = np.asarray(src.convert("RGB"), dtype=np.int16)
    # JPEG is lossy; the others must match Pillow's own conversion exactly.
    tol = 12 if suffix == ".jpg" else 0
    assert np.abs(out.astype(np.int16) - expected).mean() <= tol


def test_exif_orientation_is_applied(tmp_path):
    img = np.zeros((20, 40, 3), np.uint8)
    img[:, :10] = 255  # white band on the left of the stored image
    im = Image.fromarray(img)
    exif = im.getexif()
    exif[0x0112] = 6  # "rotate 90 CW to display"
    im.save(tmp_path / "o.jpg", exif=exif.tobytes(), quality=95)
    out = load_image(tmp_path / "o.jpg")
    assert out.shape == (40, 20, 3)
    # after a 90° clockwise turn the left band is on top
    assert out[:10].mean() > 200 and out[-10:].mean() < 50


# --------------------------------------------------------------------------- bad input


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="file not found") as ei:
        load_image(tmp_path / "nope.png")
    assert ei.value.item == "nope.png"


def test_zero_byte_file(tmp_path):
    (tmp_path / "empty.png").write_bytes(b"")
    with pytest.raises(InputError, match="empty"):
        load_image(tmp_path / "empty.png")


def test_random_bytes(tmp_path):
    (tmp_path / "noise.png").write_bytes(np.random.default_rng(1).bytes(4096))
    with pytest.raises(InputError, match="not a recognised image"):
        load_image(tmp_path / "noise.png")


def _encoded(fmt: str) -> bytes:
    import io

    buf = io.BytesIO()
    Image.fromarray(_rgb(64, 64)).save(buf, format=fmt)
    return buf.getvalue()


@pytest.mark.parametrize(
    "fmt,cut",
    [
        ("PNG", 12),  # only the IEND chunk missing: pixels decode, verify must catch it
        ("PNG", 200),
        ("PNG", 0.5),
        ("JPEG", 2),  # only the EOI marker missing
        ("JPEG", 0.5),
    ],
)
def test_truncated_files_are_refused(tmp_path, fmt, cut):
    data = _encoded(fmt)
    n = int(len(data) * cut) if isinstance(cut, float) else len(data) - cut
    p = tmp_path / f"t.{fmt.lower()}"
    p.write_bytes(data[:n])
    with pytest.raises(InputError, match="corrupt or truncated"):
        load_image(p)


def test_corrupt_png_checksum_is_refused(tmp_path):
    data = bytearray(_encoded("PNG"))
    data[60] ^= 0xFF  # inside the IDAT payload
    (tmp_path / "c.png").write_bytes(bytes(data))
    with pytest.raises(InputError, match="corrupt"):
        load_image(tmp_path / "c.png")


def test_formats_outside_the_allow_list_are_not_opened(tmp_path):
    # EPS would be handed to Ghostscript by Pillow; clinx never opens it.
    (tmp_path / "x.eps").write_bytes(b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n")
    with pytest.raises(InputError, match="not a recognised image format"):
        load_image(tmp_path / "x.eps")


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "TIFF", "BMP", "GIF", "WEBP"])
def test_damaged_files_fail_only_with_input_error(tmp_path, fmt):
    """Fail closed: random damage gives InputError or a clean RGB image, never another exception."""
    data = _encoded(fmt)
    rng = np.random.default_rng(3)
    for i in range(30):
        b = bytearray(data)
        if i % 3 == 0:
            b = b[: rng.integers(1, len(b))]
        else:
            for _ in range(rng.integers(1, 12)):
                b[rng.integers(len(b))] = rng.integers(256)
        try:
            img = load_image_bytes(bytes(b), item=f"{fmt}-{i}")
        except InputError:
            continue
        assert img.dtype == np.uint8 and img.shape[2] == 3


def test_tiny_image_is_refused(tmp_path):
    Image.new("RGB", (1, 1)).save(tmp_path / "one.png")
    with pytest.raises(InputError, match=r"too small \(1x1"):
        load_image(tmp_path / "one.png")
    # a caller can lower the bound
    assert load_image(tmp_path / "one.png", min_side=1).shape == (1, 1, 3)


def test_decompression_bomb_is_refused_before_decoding(tmp_path, no_decode):
    data = declared_png(20000, 20000)
    assert len(data) < 200_000  # tiny on disk...
    (tmp_path / "bomb.png").write_bytes(data)
    with pytest.raises(InputError, match="too large") as ei:  # ...400 MP declared
        load_image(tmp_path / "bomb.png")
    assert "bomb" in ei.value.problem


def test_max_pixels_is_checked_from_the_header(tmp_path, no_decode):
    # 8000x8000 = 64 MP: under Pillow's own limit, over clinx's 50 MP default.
    (tmp_path / "big.png").write_bytes(declared_png(8000, 8000))
    with pytest.raises(InputError, match=r"too large \(8000x8000"):
        load_image(tmp_path / "big.png")


def test_max_pixels_parameter(tmp_path):
    Image.fromarray(_rgb(16, 16)).save(tmp_path / "s.png")
    with pytest.raises(InputError, match="too large"):
        load_image(tmp_path / "s.png", max_pixels=100)
    assert load_image(tmp_path / "s.png", max_pixels=256).shape == (16, 16, 3)


def test_errors_name_the_file_not_the_path(tmp_path):
    folder = tmp_path / "Zebediah_Quux_records"  # a folder name that is PHI
    folder.mkdir()
    (folder / "scan.png").write_bytes(b"\x89PNG\r\n\x1a\n garbage")
    with pytest.raises(InputError) as ei:
        load_image(folder / "scan.png")
    assert ei.value.item == "scan.png"
    assert "Zebediah" not in str(ei.value)
    with pytest.raises(InputError) as ei:
        load_image(folder / "scan.png", item="case-7/scan.png")
    assert str(ei.value).startswith("case-7/scan.png")


def test_refuses_when_truncated_loading_is_globally_enabled(tmp_path, monkeypatch):
    Image.fromarray(_rgb()).save(tmp_path / "a.png")
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    with pytest.raises(InputError, match="LOAD_TRUNCATED_IMAGES"):
        load_image(tmp_path / "a.png")


def test_load_image_bytes():
    img = load_image_bytes(_encoded("PNG"), item="row3")
    assert img.shape == (64, 64, 3)
    with pytest.raises(InputError, match="empty") as ei:
        load_image_bytes(b"", item="row4")
    assert ei.value.item == "row4"
    with pytest.raises(InputError, match="corrupt or truncated"):
        load_image_bytes(_encoded("JPEG")[:300], item="row5")


# --------------------------------------------------------------------------- dispatch


def _dicom_test_file(name: str) -> str:
    from pydicom.data import get_testdata_file

    path = get_testdata_file(name, download=False)
    assert path is not None, f"pydicom test file {name} is not installed"
    return path


def test_is_dicom_by_magic_and_suffix(tmp_path):
    src = _dicom_test_file("CT_small.dcm")
    shutil.copy(src, tmp_path / "no_suffix")
    assert is_dicom(tmp_path / "no_suffix")
    Image.fromarray(_rgb()).save(tmp_path / "a.png")
    assert not is_dicom(tmp_path / "a.png")
    assert is_dicom(tmp_path / "missing.dcm")  # suffix alone routes to the DICOM reader
    assert not is_dicom(tmp_path / "missing.png")


def test_load_any_dispatches(tmp_path):
    Image.fromarray(_rgb()).save(tmp_path / "a.png")
    frames = load_any(tmp_path / "a.png")
    assert len(frames) == 1 and frames[0].shape == (24, 32, 3)
    shutil.copy(_dicom_test_file("emri_small.dcm"), tmp_path / "volume.bin")
    frames = load_any(tmp_path / "volume.bin")
    assert len(frames) == 10 and all(f.shape == (64, 64, 3) and f.dtype == np.uint8 for f in frames)
    (tmp_path / "bad.dcm").write_bytes(b"")
    with pytest.raises(InputError, match="empty"):
        load_any(tmp_path / "bad.dcm")


# --------------------------------------------------------------------------- writing


def test_save_png_roundtrip_and_creates_parents(tmp_path):
    img = _rgb()
    out = save_image_atomic(tmp_path / "a" / "b" / "x.png", img)
    np.testing.assert_array_equal(load_image(out), img)
    assert sorted(os.listdir(out.parent)) == ["x.png"]  # no temp file left behind


def test_save_jpeg_quality_and_gray(tmp_path):
    img = _rgb(64, 64)
    hi = save_image_atomic(tmp_path / "hi.jpg", img, quality=95)
    lo = save_image_atomic(tmp_path / "lo.jpg", img, quality=20)
    assert lo.stat().st_size < hi.stat().st_size
    gray = img[:, :, 0]
    out = load_image(save_image_atomic(tmp_path / "g.png", gray))
    np.testing.assert_array_equal(out[:, :, 1], gray)


def test_save_refuses_to_overwrite_its_input(tmp_path):
    img = _rgb()
    src = save_image_atomic(tmp_path / "in.png", img)
    before = src.read_bytes()
    with pytest.raises(ItemError, match="refusing to overwrite"):
        save_image_atomic(tmp_path / "." / "in.png", np.zeros_like(img), input_path=src)
    os.link(src, tmp_path / "alias.png")
    with pytest.raises(ItemError):
        save_image_atomic(tmp_path / "alias.png", np.zeros_like(img), input_path=src)
    assert src.read_bytes() == before
    ensure_not_input(tmp_path / "other.png", src)  # a different path is fine
    ensure_not_input(tmp_path / "other.png", None)


def test_failed_write_keeps_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    target = save_image_atomic(tmp_path / "x.png", _rgb())
    before = target.read_bytes()

    def failing_save(self, fp, *a, **k):
        fp.write(b"partial")
        raise OSError("disk full")

    monkeypatch.setattr(Image.Image, "save", failing_save)
    with pytest.raises(OSError):
        save_image_atomic(target, _rgb(seed=5))
    assert target.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["x.png"]


def test_save_rejects_bad_arrays(tmp_path):
    with pytest.raises(TypeError):
        save_image_atomic(tmp_path / "f.png", np.zeros((8, 8, 3), np.float32))
    with pytest.raises(ValueError):
        save_image_atomic(tmp_path / "f.png", np.zeros((8, 8, 4), np.uint8))
    with pytest.raises(ValueError, match="suffix"):
        save_image_atomic(tmp_path / "f.xyz", np.zeros((8, 8, 3), np.uint8))
    assert not any(Path(tmp_path).iterdir())


def test_module_exports():
    assert images_mod.DEFAULT_MAX_PIXELS == 50_000_000
