"""The shared record types: manifests never leak values through their summaries."""

import numpy as np
import pytest

from clinx.records import Manifest, as_rgb, check_mask, image_digest, iter_chunks, text_digest


def test_manifest_drops_empty_fields_and_keeps_renderings():
    m = Manifest(fields={"patient_name": "Jane Roe", "mrn": "  ", "phone": None}, renderings={"patient_name": ["ROE^JANE", ""]})
    assert set(m.fields) == {"patient_name"}
    assert m.values_for("patient_name") == ("Jane Roe", "ROE^JANE")
    assert list(m.items()) == [("patient_name", "Jane Roe"), ("patient_name", "ROE^JANE")]


def test_manifest_describe_has_no_values():
    m = Manifest(fields={"patient_name": "Jane Roe", "mrn": "00482913"})
    summary = repr(m.describe())
    assert "Jane" not in summary and "00482913" not in summary
    assert m.describe() == {"patient_name": 8, "mrn": 8}


def test_manifest_round_trip_and_flat_form():
    m = Manifest(fields={"mrn": "123"}, renderings={"mrn": ["MRN 123"]})
    assert Manifest.from_dict(m.to_dict()) == m
    flat = Manifest.from_dict({"mrn": "123", "nested": {"x": 1}})
    assert flat.fields == {"mrn": "123"}
    with pytest.raises(TypeError):
        Manifest.from_dict(["not", "a", "dict"])


def test_empty_manifest_is_falsy():
    assert not Manifest()
    assert not Manifest(fields={"mrn": ""})


def test_as_rgb_layouts():
    g = np.zeros((4, 5), np.uint8)
    assert as_rgb(g).shape == (4, 5, 3)
    rgba = np.zeros((4, 5, 4), np.uint8)
    assert as_rgb(rgba).shape == (4, 5, 3)
    with pytest.raises(TypeError):
        as_rgb(np.zeros((4, 5), np.float32))
    with pytest.raises(ValueError):
        as_rgb(np.zeros((4, 5, 2), np.uint8))


def test_check_mask_shape():
    img = np.zeros((4, 5, 3), np.uint8)
    assert check_mask(np.ones((4, 5), np.uint8), img).dtype == bool
    with pytest.raises(ValueError):
        check_mask(np.ones((5, 4), bool), img)


def test_digests_are_content_hashes():
    a = np.zeros((2, 2, 3), np.uint8)
    b = a.copy()
    b[0, 0, 0] = 1
    assert image_digest(a) == image_digest(a.copy()) != image_digest(b)
    assert text_digest("a", "b") != text_digest("ab")


def test_iter_chunks():
    assert list(iter_chunks(range(5), 2)) == [[0, 1], [2, 3], [4]]
