"""DICOM reading (display pipeline, codecs, multi-frame) and writing sanitized frames back."""

from __future__ import annotations

import shutil
import warnings

import numpy as np
import pydicom
import pytest
from pydicom.data import get_testdata_file
from pydicom.dataset import Dataset, FileMetaDataset
from pydicom.pixels import pixel_array
from pydicom.sequence import Sequence
from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage, generate_uid

from clinx.data.dicom import read_dicom, write_dicom_like
from clinx.errors import InputError, ItemError

PHI_NAME = "Zebediah^Quux"


def dicom_file(name: str) -> str:
    path = get_testdata_file(name, download=False)
    assert path is not None, f"pydicom/pydicom-data test file {name} is not installed"
    return path


def make_dicom(path, pixels: np.ndarray, *, photometric="MONOCHROME2", bits_stored=None, signed=False, **attrs):
    """Write a small Secondary Capture DICOM holding ``pixels`` (frames first if 3-D gray)."""
    ds = Dataset()
    ds.file_meta = FileMetaDataset()
    ds.file_meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds.file_meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    uid = generate_uid()
    ds.file_meta.MediaStorageSOPInstanceUID = uid
    ds.SOPClassUID = SecondaryCaptureImageStorage
    ds.SOPInstanceUID = uid
    ds.PatientName = PHI_NAME
    ds.PatientID = "MRN-424242"
    ds.Modality = "OT"
    color = photometric in ("RGB",)
    frames = pixels.shape[0] if (pixels.ndim == 3 and not color) or pixels.ndim == 4 else 1
    ds.Rows, ds.Columns = pixels.shape[-3:-1] if color else pixels.shape[-2:]
    ds.SamplesPerPixel = 3 if color else 1
    ds.PhotometricInterpretation = photometric
    if color:
        ds.PlanarConfiguration = 0
    if frames > 1:
        ds.NumberOfFrames = frames
    alloc = pixels.dtype.itemsize * 8
    ds.BitsAllocated = alloc
    ds.BitsStored = bits_stored or alloc
    ds.HighBit = ds.BitsStored - 1
    ds.PixelRepresentation = 1 if signed else 0
    for k, v in attrs.items():
        setattr(ds, k, v)
    ds.PixelData = np.ascontiguousarray(pixels).tobytes()
    ds["PixelData"].VR = "OW" if alloc > 8 else "OB"
    pydicom.dcmwrite(path, ds, enforce_file_format=True)
    return path


def assert_rgb_frames(frames, n, shape):
    assert len(frames) == n
    for f in frames:
        assert f.dtype == np.uint8 and f.shape == (*shape, 3) and f.flags.c_contiguous


def gray(frame):
    assert np.array_equal(frame[:, :, 0], frame[:, :, 1]) and np.array_equal(frame[:, :, 0], frame[:, :, 2])
    return frame[:, :, 0]


# --------------------------------------------------------------------------- real files


@pytest.mark.parametrize(
    "name,n,shape,color",
    [
        ("CT_small.dcm", 1, (128, 128), False),  # 16-bit signed + rescale
        ("MR_small.dcm", 1, (64, 64), False),  # window center/width
        ("emri_small.dcm", 10, (64, 64), False),  # multi-frame
        ("SC_rgb.dcm", 1, (100, 100), True),
        ("US1_J2KR.dcm", 1, (480, 640), True),  # JPEG 2000 lossless, YBR_RCT
        ("JPEG2000.dcm", 1, (1024, 256), False),  # JPEG 2000
        ("MR_small_RLE.dcm", 1, (64, 64), False),  # RLE
        ("SC_rgb_jpeg_dcmtk.dcm", 1, (100, 100), True),  # JPEG baseline, YBR_FULL_422
        ("JPGLosslessP14SV1_1s_1f_8b.dcm", 1, (768, 1024), False),  # JPEG lossless
        ("OBXXXX1A.dcm", 1, (600, 800), True),  # PALETTE COLOR
        ("liver.dcm", 3, (512, 512), False),  # 1-bit, enhanced functional groups
    ],
)
def test_real_files_decode_to_rgb_frames(name, n, shape, color):
    img = read_dicom(dicom_file(name))
    assert_rgb_frames(img.frames, n, shape)
    assert img.n_frames == n and img.frame_indices == list(range(n))
    f = img.frames[0]
    is_gray = np.array_equal(f[:, :, 0], f[:, :, 1]) and np.array_equal(f[:, :, 1], f[:, :, 2])
    assert is_gray is not color
    assert f.max() > f.min()  # not a blank render
    # decoded once, not cached on the dataset handed back
    assert getattr(img.dataset, "_pixel_array", None) is None


def test_compressed_syntaxes_decode_to_the_same_pixels_as_uncompressed():
    ref = read_dicom(dicom_file("MR_small.dcm")).frames[0]
    for name in ("MR_small_RLE.dcm", "MR_small_jp2klossless.dcm"):
        np.testing.assert_array_equal(read_dicom(dicom_file(name)).frames[0], ref)
    rgb = read_dicom(dicom_file("SC_rgb.dcm")).frames[0]
    np.testing.assert_array_equal(read_dicom(dicom_file("SC_rgb_rle.dcm")).frames[0], rgb)
    # lossy JPEG with YBR colour: close to the RGB original, and converted (not left as YBR)
    jpg = read_dicom(dicom_file("SC_rgb_jpeg_dcmtk.dcm")).frames[0]
    assert np.abs(jpg.astype(int) - rgb).mean() < 4
    ybr = read_dicom(dicom_file("SC_ybr_full_uncompressed.dcm")).frames[0]
    assert np.abs(ybr.astype(int) - rgb).max() <= 8


def test_rgb_file_is_passed_through_exactly():
    path = dicom_file("SC_rgb.dcm")
    np.testing.assert_array_equal(read_dicom(path).frames[0], pixel_array(path))


def test_window_is_applied_from_the_header():
    img = read_dicom(dicom_file("MR_small.dcm"))
    assert img.windowed
    ds = img.dataset
    c, w = float(ds.WindowCenter), float(ds.WindowWidth)
    raw = pixel_array(ds).astype(float)
    expected = np.clip((raw - (c - 0.5)) / (w - 1) + 0.5, 0, 1) * 255
    assert np.abs(gray(img.frames[0]).astype(float) - expected).max() <= 1.0


def test_no_window_falls_back_to_minmax_over_all_frames():
    img = read_dicom(dicom_file("emri_small.dcm"))
    assert not img.windowed
    stack = np.stack([gray(f) for f in img.frames])
    assert stack.min() == 0 and stack.max() == 255
    raw = pixel_array(img.dataset).astype(float)
    expected = (raw - raw.min()) / (raw.max() - raw.min()) * 255
    assert np.abs(stack - expected).max() <= 0.5 + 1e-9


def test_monochrome1_real_file_is_inverted():
    img = read_dicom(dicom_file("RG1_J2KI.dcm"))  # MONOCHROME1, JPEG 2000, windowed
    assert img.photometric == "MONOCHROME1" and img.windowed
    ds = img.dataset
    raw = pixel_array(ds).astype(float)
    c, w = float(ds.WindowCenter), float(ds.WindowWidth)
    shown = np.clip((raw - (c - 0.5)) / (w - 1) + 0.5, 0, 1) * 255
    assert np.abs(gray(img.frames[0]).astype(float) - (255 - shown)).max() <= 1.0


def test_frame_selection(tmp_path):
    vol = np.stack([np.full((16, 16), v, np.uint16) for v in (100, 200, 300)])
    vol[:, 0, 0] = 0
    path = make_dicom(tmp_path / "v.dcm", vol, bits_stored=12, WindowCenter=200, WindowWidth=201)
    all_frames = read_dicom(path).frames
    one = read_dicom(path, frame=2)
    assert one.frame_indices == [2] and one.n_frames == 3 and len(one.frames) == 1
    np.testing.assert_array_equal(one.frames[0], all_frames[2])
    with pytest.raises(InputError, match="frame 3 is out of range"):
        read_dicom(path, frame=3)


# --------------------------------------------------------------------------- synthetic pipelines


def test_16bit_windowing_numerically(tmp_path):
    px = np.zeros((16, 16), np.uint16)
    px[0, :5] = [0, 900, 1000, 1100, 4000]
    path = make_dicom(tmp_path / "w.dcm", px, bits_stored=12, WindowCenter=1000, WindowWidth=200)
    row = gray(read_dicom(path).frames[0])[0, :5]
    # LINEAR: <= c-0.5-(w-1)/2 -> 0 ; > c-0.5+(w-1)/2 -> 255 ; between linear
    assert row.tolist() == [0, 0, 128, 255, 255]


def test_rescale_then_window_signed(tmp_path):
    # CT-like: stored signed values, HU = stored * 1 - 1024, soft-tissue window (40 / 400)
    px = np.zeros((16, 16), np.int16)
    px[0, :4] = [1024 - 1000, 1024 + 40, 1024 - 160, 1024 + 1000]  # air, centre, window bottom, bone
    path = make_dicom(
        tmp_path / "ct.dcm", px, signed=True, bits_stored=16,
        RescaleSlope=1, RescaleIntercept=-1024, WindowCenter=40, WindowWidth=400,
    )
    row = gray(read_dicom(path).frames[0])[0, :4].astype(int)
    assert row[0] == 0 and row[3] == 255
    assert abs(row[1] - 128) <= 1
    assert row[2] == 0


def test_monochrome1_inversion_numerically(tmp_path):
    px = np.array([[0, 100, 255] + [0] * 13] * 16, np.uint8)
    m2 = gray(read_dicom(make_dicom(tmp_path / "m2.dcm", px)).frames[0])
    m1 = gray(read_dicom(make_dicom(tmp_path / "m1.dcm", px, photometric="MONOCHROME1")).frames[0])
    assert m2[0, :3].tolist() == [0, 100, 255]  # 8-bit data without transforms passes unchanged
    assert m1[0, :3].tolist() == [255, 155, 0]
    np.testing.assert_array_equal(m1, 255 - m2)


def test_16bit_without_window_is_minmax_stretched(tmp_path):
    px = np.linspace(500, 3000, 256).reshape(16, 16).astype(np.uint16)
    out = gray(read_dicom(make_dicom(tmp_path / "s.dcm", px, bits_stored=12)).frames[0])
    assert out.min() == 0 and out.max() == 255
    assert np.all(np.diff(out.ravel().astype(int)) >= 0)


def test_voi_lut_sequence_wins_over_window(tmp_path):
    px = np.tile(np.arange(16, dtype=np.uint8) * 16, (16, 1))
    lut = Dataset()
    lut.add_new(0x00283002, "US", [256, 0, 8])  # LUT Descriptor (VR is ambiguous: say US)
    lut.add_new(0x00283006, "US", [255 - i for i in range(256)])  # LUT Data: an inverting LUT
    path = make_dicom(tmp_path / "lut.dcm", px, VOILUTSequence=Sequence([lut]), WindowCenter=128, WindowWidth=10)
    out = gray(read_dicom(path).frames[0])
    np.testing.assert_array_equal(out, 255 - px)


def test_enhanced_per_frame_windows(tmp_path):
    vol = np.stack([np.full((16, 16), 1000, np.uint16)] * 2)

    def group(center):
        voi = Dataset()
        voi.WindowCenter, voi.WindowWidth = center, 100
        g = Dataset()
        g.FrameVOILUTSequence = Sequence([voi])
        return g

    path = make_dicom(
        tmp_path / "enh.dcm", vol, bits_stored=12,
        PerFrameFunctionalGroupsSequence=Sequence([group(800), group(1200)]),
    )
    img = read_dicom(path)
    assert img.windowed
    assert gray(img.frames[0]).min() == 255  # 1000 is above the first window
    assert gray(img.frames[1]).max() == 0  # and below the second


# --------------------------------------------------------------------------- bad input


def test_no_pixel_data():
    with pytest.raises(InputError, match="DICOM has no pixel data") as ei:
        read_dicom(dicom_file("rtplan.dcm"))
    assert ei.value.item == "rtplan.dcm"


def test_zero_byte_and_random_bytes(tmp_path):
    (tmp_path / "empty.dcm").write_bytes(b"")
    with pytest.raises(InputError, match="empty"):
        read_dicom(tmp_path / "empty.dcm")
    (tmp_path / "noise.dcm").write_bytes(np.random.default_rng(0).bytes(3000))
    with pytest.raises(InputError, match="not a DICOM file|corrupt"):
        read_dicom(tmp_path / "noise.dcm")
    (tmp_path / "fake.dcm").write_bytes(b"\x00" * 128 + b"DICM" + np.random.default_rng(1).bytes(500))
    with pytest.raises(InputError, match="corrupt|not a DICOM"):
        read_dicom(tmp_path / "fake.dcm")


def test_undecodable_transfer_syntax_is_named():
    # pydicom's deliberately broken 12-bit JPEG Extended file: no plugin decodes it
    with pytest.raises(InputError) as ei:
        read_dicom(dicom_file("JPEG-lossy.dcm"))
    assert "cannot decode pixel data with transfer syntax 1.2.840.10008.1.2.4.51" in ei.value.problem


def test_unknown_private_transfer_syntax_is_named(tmp_path):
    data = open(dicom_file("MR_small.dcm"), "rb").read()
    explicit_le = b"1.2.840.10008.1.2.1\x00"
    assert data.count(explicit_le) == 1
    (tmp_path / "priv.dcm").write_bytes(data.replace(explicit_le, b"1.2.840.99999.1.2.1\x00"))
    with pytest.raises(InputError, match=r"cannot decode pixel data with transfer syntax 1\.2\.840\.99999\.1\.2\.1"):
        read_dicom(tmp_path / "priv.dcm")


def test_truncated_pixel_data_does_not_leak_header_values(tmp_path):
    px = np.arange(64 * 64, dtype=np.uint16).reshape(64, 64)
    path = make_dicom(tmp_path / "t.dcm", px, bits_stored=12)
    data = path.read_bytes()
    (tmp_path / "cut.dcm").write_bytes(data[: len(data) - 2000])
    with pytest.raises(InputError, match="corrupt or truncated") as ei:
        read_dicom(tmp_path / "cut.dcm")
    assert "Zebediah" not in str(ei.value) and "424242" not in str(ei.value)
    # cut inside the header
    (tmp_path / "cut2.dcm").write_bytes(data[:200])
    with pytest.raises(InputError) as ei:
        read_dicom(tmp_path / "cut2.dcm")
    assert "Zebediah" not in str(ei.value)


def test_size_guards_are_checked_before_decoding(tmp_path, monkeypatch):
    px = np.zeros((16, 16), np.uint8)
    path = make_dicom(tmp_path / "huge.dcm", px)
    ds = pydicom.dcmread(path)
    ds.Rows = ds.Columns = 20000  # header claims 400 MP; the data is 256 bytes
    ds.save_as(tmp_path / "huge.dcm", enforce_file_format=True)

    def boom(*a, **k):
        raise AssertionError("pixel data was decoded")

    monkeypatch.setattr("clinx.data.dicom.pixel_array", boom)
    with pytest.raises(InputError, match="too large"):
        read_dicom(tmp_path / "huge.dcm")
    tiny = make_dicom(tmp_path / "tiny.dcm", np.zeros((1, 1), np.uint8))
    with pytest.raises(InputError, match="too small"):
        read_dicom(tiny)
    with pytest.raises(InputError, match="too many pixels"):
        read_dicom(dicom_file("emri_small.dcm"), max_total_pixels=64 * 64 * 5)


def test_oversized_file_is_refused_without_reading_its_pixels(tmp_path):
    import tracemalloc

    path = make_dicom(tmp_path / "big.dcm", np.zeros((2000, 2000), np.uint16), bits_stored=12)  # 8 MB
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match="too large"):
            read_dicom(path, max_pixels=1_000_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000  # the 8 MB pixel value stayed on disk


def test_header_values_never_reach_warnings_or_logs(tmp_path, caplog, recwarn):
    import logging

    px = np.zeros((16, 16), np.uint8)
    path = make_dicom(tmp_path / "v.dcm", px)
    ds = pydicom.dcmread(path)
    with pydicom.config.disable_value_validation():
        # an invalid UID carrying a name: pydicom's validator quotes such values
        ds.StudyInstanceUID = "1.2.Zebediah"
        ds.save_as(path, enforce_file_format=True)
    caplog.set_level(logging.DEBUG, logger="pydicom")
    img = read_dicom(path)
    write_dicom_like(img.dataset, img.frames, tmp_path / "out.dcm")
    read_dicom(tmp_path / "out.dcm")
    assert "Zebediah" not in caplog.text
    assert not any("Zebediah" in str(w.message) for w in recwarn)
    # and the logger's level is restored afterwards
    assert logging.getLogger("pydicom").level == logging.DEBUG


@pytest.mark.parametrize("name", ["CT_small.dcm", "SC_rgb_jpeg_dcmtk.dcm", "emri_small_RLE.dcm"])
def test_damaged_files_fail_only_with_input_error(tmp_path, name):
    """Fail closed: whatever the damage, the caller sees InputError (or a clean read)."""
    data = open(dicom_file(name), "rb").read()
    rng = np.random.default_rng(7)
    for i in range(40):
        b = bytearray(data)
        if i % 3 == 0:
            b = b[: rng.integers(1, len(b))]
        else:
            for _ in range(rng.integers(1, 30)):
                b[rng.integers(len(b))] = rng.integers(256)
        path = tmp_path / f"d{i}.dcm"
        path.write_bytes(bytes(b))
        try:
            img = read_dicom(path)
        except InputError:
            continue
        assert all(f.dtype == np.uint8 and f.ndim == 3 for f in img.frames)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        read_dicom(tmp_path / "absent.dcm")


# --------------------------------------------------------------------------- writing


def test_write_gray_roundtrip(tmp_path):
    src = read_dicom(dicom_file("CT_small.dcm"))
    frames = [f.copy() for f in src.frames]
    frames[0][:10, :40] = 0  # "sanitized" corner
    out = write_dicom_like(src.dataset, frames, tmp_path / "out" / "ct.dcm")
    back = read_dicom(out)
    np.testing.assert_array_equal(back.frames[0], frames[0])
    ds = back.dataset
    assert ds.PhotometricInterpretation == "MONOCHROME2" and ds.BitsAllocated == 8 and ds.SamplesPerPixel == 1
    assert ds.file_meta.TransferSyntaxUID == ExplicitVRLittleEndian
    assert ds.SOPInstanceUID != src.dataset.SOPInstanceUID
    assert ds.file_meta.MediaStorageSOPInstanceUID == ds.SOPInstanceUID
    assert ds.SOPClassUID == src.dataset.SOPClassUID
    assert list(ds.ImageType)[:2] == ["DERIVED", "SECONDARY"]
    assert ds.BurnedInAnnotation == "NO"
    for kw in ("RescaleSlope", "RescaleIntercept", "WindowCenter", "WindowWidth"):
        assert kw not in ds
    # header de-identification is not this function's job: the header is kept
    assert ds.PatientName == src.dataset.PatientName
    assert sorted(p.name for p in out.parent.iterdir()) == ["ct.dcm"]


def test_write_rgb_and_multiframe(tmp_path):
    rgb = read_dicom(dicom_file("US1_J2KR.dcm"))
    out = write_dicom_like(rgb.dataset, rgb.frames, tmp_path / "us.dcm")
    back = read_dicom(out)
    assert back.dataset.PhotometricInterpretation == "RGB" and back.dataset.SamplesPerPixel == 3
    np.testing.assert_array_equal(back.frames[0], rgb.frames[0])

    vol = read_dicom(dicom_file("emri_small.dcm"))
    out = write_dicom_like(vol.dataset, [gray(f) for f in vol.frames], tmp_path / "vol.dcm")  # 2-D frames accepted
    back = read_dicom(out)
    assert int(back.dataset.NumberOfFrames) == 10
    for a, b in zip(back.frames, vol.frames):
        np.testing.assert_array_equal(a, b)
    # readable by plain pydicom as well
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert pydicom.dcmread(out).pixel_array.shape == (10, 64, 64)


def test_write_refuses_to_overwrite_the_input(tmp_path):
    path = shutil.copy(dicom_file("MR_small.dcm"), tmp_path / "mr.dcm")
    before = open(path, "rb").read()
    img = read_dicom(path)
    with pytest.raises(ItemError, match="refusing to overwrite"):
        write_dicom_like(img.dataset, img.frames, path)  # src_dataset.filename is checked
    other = tmp_path / "in2.dcm"
    with pytest.raises(ItemError):
        write_dicom_like(img.dataset, img.frames, other, input_path=other)
    assert open(path, "rb").read() == before


def test_write_rejects_bad_frames(tmp_path):
    img = read_dicom(dicom_file("MR_small.dcm"))
    with pytest.raises(TypeError):
        write_dicom_like(img.dataset, [img.frames[0].astype(np.float32)], tmp_path / "a.dcm")
    with pytest.raises(ValueError, match="same shape"):
        write_dicom_like(img.dataset, [img.frames[0], img.frames[0][:10]], tmp_path / "a.dcm")
    with pytest.raises(ValueError, match="no frames"):
        write_dicom_like(img.dataset, [], tmp_path / "a.dcm")
    assert not (tmp_path / "a.dcm").exists()


def test_crafted_transfer_syntax_string_is_never_echoed(tmp_path):
    """A TransferSyntaxUID holding a patient's name (same byte length, so the file still parses) is not quoted."""
    data = open(dicom_file("MR_small.dcm"), "rb").read()
    explicit_le = b"1.2.840.10008.1.2.1\x00"
    crafted = b"SMITH^JOHN 00482913\x00"
    assert len(crafted) == len(explicit_le) and data.count(explicit_le) == 1
    (tmp_path / "crafted.dcm").write_bytes(data.replace(explicit_le, crafted))
    with pytest.raises(InputError) as ei:
        read_dicom(tmp_path / "crafted.dcm", item="item-1")
    text = str(ei.value)
    assert "SMITH" not in text and "00482913" not in text
    assert "malformed UID of 19 characters" in text


def test_reader_and_writer_share_one_guards_module():
    """images.py and dicom.py use clinx.data.guards, not each other's private helpers."""
    import ast
    from pathlib import Path

    import clinx.data.dicom as dicom_mod
    import clinx.data.images as images_mod

    for mod, other in ((dicom_mod, "clinx.data.images"), (images_mod, "clinx.data.dicom")):
        tree = ast.parse(Path(mod.__file__).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == other:
                assert not any(a.name.startswith("_") for a in node.names), f"{mod.__name__} imports a private helper"
