"""The one sanitization core: stages, fail-closed results, per-engine counts, seeds, one code path."""

import numpy as np
import pytest

from clinx.records import Manifest
from clinx.sanitize.conditions import Condition, get_condition
from clinx.sanitize.core import (
    FrameJob,
    manifest_digest,
    sanitize_batch,
    sanitize_frames,
    seed_for,
)


class Noise(Condition):
    """Seeded noise inside the mask: outputs depend on the seed, so seeding mistakes show."""

    name = "noise"

    def apply(self, image, mask, *, seed=0):
        out = image.copy()
        rng = np.random.default_rng(seed)
        out[mask] = rng.integers(0, 256, size=(int(mask.sum()), 3), dtype=np.uint8)
        return out


class Sloppy(Condition):
    name = "sloppy"

    def apply(self, image, mask, *, seed=0):
        out = image.copy()
        out[mask] = 0
        out[0, -1] = 255 - out[0, -1]
        return out


class Named:
    """An OCR engine stand-in carrying only a registry name."""

    def __init__(self, name):
        self.name = name


class Reader:
    """A localizer whose 'engine' sees pure-red pixels as ``patient_name`` and pure-green as a date pattern."""

    def __init__(self, engine="reader", mode="manifest"):
        self.engine = Named(engine)
        self.mode = mode

    def locate(self, image, manifest, *, item="<image>"):
        from types import SimpleNamespace

        if self.mode == "manifest" and not manifest:
            from clinx.errors import ItemError

            raise ItemError(item, "manifest has no non-empty fields", stage="manifest")
        red = (image[:, :, 0] == 255) & (image[:, :, 1] == 0) & (image[:, :, 2] == 0)
        green = (image[:, :, 0] == 0) & (image[:, :, 1] == 255) & (image[:, :, 2] == 0)
        matches = []
        if red.any() and manifest:
            matches.append(SimpleNamespace(field="patient_name"))
        if green.any() and "patterns" in self.mode:
            matches.append(SimpleNamespace(field="pattern:DATE"))
        mask = (red if manifest else np.zeros_like(red)) | (green if "patterns" in self.mode else np.zeros_like(green))
        return SimpleNamespace(mask=mask, matches=matches, detections=[object()] * (len(matches) + 2))


class Leaky(Condition):
    """Leaves the red PHI where it is (fills nothing): verification must catch it."""

    name = "leaky"

    def apply(self, image, mask, *, seed=0):
        return image.copy()


@pytest.fixture
def frame(kit):
    img = kit.phi_image(0)
    img[20:24, 10:30] = (0, 255, 0)  # a 'date' only patterns find
    return img


@pytest.fixture
def manifest(kit):
    return Manifest.from_dict(kit.MANIFEST)


def test_released_item_has_masked_outputs_and_per_engine_counts(frame, manifest):
    r = sanitize_frames([frame], manifest, get_condition("blackout"), Reader("rapidocr", "manifest+patterns"),
                        Reader("easyocr", "manifest+patterns"), item="a", seed=0)
    assert r.released and not r.reason
    out = r.outputs[0]
    assert (out[4:10, 4:30] == 0).all() and (out[20:24, 10:30] == 0).all()
    assert np.array_equal(out[30:], frame[30:])
    assert r.reads == {"rapidocr": {"pattern:DATE": 1, "patient_name": 1}}
    assert r.verification == {"easyocr": {}}  # verified: nothing left
    assert r.words == {"localize/rapidocr": 4, "verify/easyocr": 2}
    assert r.modes == ["manifest+patterns"]


def test_residual_read_by_verifier_fails_the_item_closed(frame, manifest):
    r = sanitize_frames([frame], manifest, Leaky(), Reader("rapidocr"), Reader("easyocr"), item="a", seed=0)
    assert not r.released and r.outputs is None
    assert r.stage == "verify" and "easyocr" in r.reason and "patient_name" in r.reason
    assert r.verification == {"easyocr": {"patient_name": 1}}
    # without a verifier the same leak is released: verification is what caught it
    assert sanitize_frames([frame], manifest, Leaky(), Reader(), None, item="a", seed=0).released


def test_outside_mask_change_is_caught(frame, manifest):
    r = sanitize_frames([frame], manifest, Sloppy(), Reader(), None, item="a", seed=0)
    assert (r.released, r.stage) == (False, "condition") and "outside the PHI mask" in r.reason


def test_errors_are_returned_phi_safe_never_raised(frame, manifest, kit):
    class Boom(Condition):
        name = "boom"

        def apply(self, image, mask, *, seed=0):
            raise RuntimeError("QUIXBY^ZELDARINE in a library message")

    r = sanitize_frames([frame], manifest, Boom(), Reader(), None, item="a", seed=0)
    assert (r.released, r.stage) == (False, "condition")
    assert r.reason == "unexpected RuntimeError"
    kit.assert_no_phi(r.reason)

    class Quoting(Reader):
        def locate(self, image, manifest, *, item="<image>"):
            from clinx.errors import ItemError

            raise ItemError(item, "engine said: QUIXBY^ZELDARINE mrn MRN8675309", stage="ocr")

    r = sanitize_frames([frame], manifest, get_condition("blackout"), Quoting(), None, item="a", seed=0)
    assert r.stage == "ocr" and "[patient_name]" in r.reason and "[mrn]" in r.reason
    kit.assert_no_phi(r.reason)


def test_no_manifest_runs_patterns_only(frame):
    r = sanitize_frames([frame], None, get_condition("blackout"), Reader(mode="manifest+patterns"), None, item="a", seed=0)
    assert r.released and r.modes == ["patterns"]
    assert (r.outputs[0][20:24, 10:30] == 0).all()
    assert (r.outputs[0][4:10, 4:30] == frame[4:10, 4:30]).all(), "no manifest: the name is not known here"
    # a manifest-only localizer fails closed without a manifest
    r = sanitize_frames([frame], None, get_condition("blackout"), Reader(mode="manifest"), None, item="a", seed=0)
    assert (r.released, r.stage) == (False, "manifest")


def test_batch_equals_items_one_by_one_and_seeds_are_per_item(kit, manifest):
    frames = [kit.phi_image(i) for i in range(4)]
    jobs = [FrameJob([f], manifest, f"item{i}") for i, f in enumerate(frames)]
    batch = sanitize_batch(jobs, Noise(), Reader(), None, seed=3)
    singles = [sanitize_frames([f], manifest, Noise(), Reader(), None, item=f"item{i}", seed=3) for i, f in enumerate(frames)]
    for b, s in zip(batch, singles):
        assert b.released and np.array_equal(b.outputs[0], s.outputs[0])
    # reversed batch order, same per-item outputs
    rev = sanitize_batch(jobs[::-1], Noise(), Reader(), None, seed=3)[::-1]
    assert all(np.array_equal(a.outputs[0], b.outputs[0]) for a, b in zip(batch, rev))
    # the seed is per item and per base seed
    assert seed_for("item0", 0, 3) != seed_for("item1", 0, 3) != seed_for("item1", 0, 4)
    assert not np.array_equal(batch[0].outputs[0][4:10, 4:30], batch[1].outputs[0][4:10, 4:30])


def test_one_bad_item_does_not_sink_its_batch(kit, manifest):
    class PickyBatch(Noise):
        def apply(self, image, mask, *, seed=0):
            if image.shape[0] != 48:
                raise ValueError("odd size")
            return super().apply(image, mask, seed=seed)

    jobs = [FrameJob([kit.phi_image(0)], manifest, "ok"), FrameJob([kit.phi_image(1, size=(40, 64))], manifest, "bad")]
    ok, bad = sanitize_batch(jobs, PickyBatch(), Reader(), None, seed=0)
    assert ok.released and (bad.released, bad.stage) == (False, "condition")


def test_precomputed_masks_skip_localization(frame, manifest):
    class NoOCR:
        def locate(self, *a, **k):
            raise AssertionError("must not be called")

    mask = np.zeros(frame.shape[:2], bool)
    mask[0:2, 0:2] = True
    r = sanitize_frames([frame], manifest, get_condition("blackout"), NoOCR(), None, item="a", seed=0, masks=[mask])
    assert r.released and (r.outputs[0][0:2, 0:2] == 0).all() and r.masked_pixels == 4


def test_manifest_digest_is_content_based_and_phi_free(manifest):
    d = manifest_digest(manifest)
    assert d == manifest_digest(Manifest.from_dict(manifest.to_dict())) and "QUIXBY" not in d
    assert d != manifest_digest(Manifest(fields={"patient_name": "OTHER^NAME"})) and manifest_digest(None) == ""


def test_several_verifiers_must_all_read_nothing(frame, manifest):
    class Blind(Reader):
        def locate(self, image, manifest, *, item="<image>"):
            from types import SimpleNamespace

            return SimpleNamespace(mask=np.zeros(image.shape[:2], bool), matches=[], detections=[])

    both = [Blind("easyocr"), Reader("rapidocr")]
    r = sanitize_frames([frame], manifest, Leaky(), Reader("rapidocr"), both, item="a", seed=0)
    assert (r.released, r.stage) == (False, "verify") and r.reason.startswith("rapidocr still reads PHI")
    assert r.verification == {"easyocr": {}, "rapidocr": {"patient_name": 1}}
    assert sanitize_frames([frame], manifest, get_condition("blackout"), Reader("rapidocr"), both, item="a", seed=0).released
