"""The runner with the real RapidOCR localizer on a few benchmark images (integration)."""


import numpy as np
import pytest

from clinx.sanitize.conditions import get_condition
from clinx.sanitize.runner import QUARANTINE_FILE, sanitize_folder, sanitize_samples

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def localizer():
    from clinx.localize.localizer import PhiLocalizer
    from clinx.ocr import get_engine

    return PhiLocalizer(get_engine("rapidocr"))


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    from clinx.data.benchmark import build_benchmark, save_benchmark

    samples = build_benchmark("test", 3, 0, 384)
    folder = tmp_path_factory.mktemp("bench")
    save_benchmark(samples, folder)
    return samples, folder


def test_folder_with_manifest_dir_removes_phi_and_verifies_with_the_other_engine(bench, localizer, tmp_path, caplog):
    from clinx.metrics.leakage import ReadCache, evaluate_leakage
    from clinx.ocr import get_engine

    samples, folder = bench
    out = tmp_path / "out"
    s = sanitize_folder(folder / "images", out, get_condition("blackout"), localizer, folder / "manifests", progress=False)
    assert s.processed == 3 and s.sanitized + s.quarantined == 3
    assert s.sanitized >= 2, s.quarantine
    # masks from RapidOCR, verification by EasyOCR (the default), on every item that reached it
    engines = s.to_dict()["engines"]
    assert engines["localize"]["engine"] == "rapidocr" and engines["verify"]["engine"] == "easyocr"
    assert engines["verify"]["items"] == s.sanitized + s.by_stage.get("verify", 0)
    assert sum(engines["localize"]["matches_by_field"].values()) > 0 and engines["verify"]["words"] > 0
    outputs = {k.removesuffix(".png"): p for k, p in s.outputs.items()}
    cache = ReadCache()
    attackers = {"easyocr": get_engine("easyocr")}
    raw = evaluate_leakage({x.id: x.image for x in samples}, samples, attackers, cache=cache)["easyocr"]
    san = evaluate_leakage(outputs, samples, attackers, cache=cache)["easyocr"]
    assert san["token_recall"] <= 0.05 < raw["token_recall"]
    # the same run with nothing removed: the verifier reads the PHI and every item is quarantined
    s_raw = sanitize_folder(folder / "images", tmp_path / "raw", get_condition("raw"), localizer, folder / "manifests", progress=False)
    assert (s_raw.sanitized, set(s_raw.by_stage)) == (0, {"verify"})
    assert all("easyocr still reads PHI" in r["reason"] for r in s_raw.quarantine)
    # no manifest value in logs, quarantine or summary
    texts = [caplog.text, (out / QUARANTINE_FILE).read_text(), (out / "summary.json").read_text(),
             (tmp_path / "raw" / QUARANTINE_FILE).read_text()]
    for x in samples:
        for _, value in x.manifest.items():
            if len(value) >= 4:
                assert all(value not in t for t in texts)


def test_verifier_is_the_other_engine_by_default(localizer):
    from clinx.sanitize.core import independent_verifier

    v = independent_verifier(localizer)
    assert v.engine.name == "easyocr" and localizer.engine.name == "rapidocr"
    assert (v.threshold, v.dilation, v.mode) == (localizer.threshold, localizer.dilation, localizer.mode)
    assert independent_verifier(v).engine.name == "rapidocr"


def test_numeric_manifest_id_still_masks_its_leading_zeros(localizer, tmp_path):
    """A custodian's JSON holds the MRN as the number 482913; the image shows 00482913: both zeros are masked."""
    import json

    from PIL import Image, ImageDraw, ImageFont

    from clinx.data.images import load_image

    img = Image.new("RGB", (640, 160), (40, 40, 40))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=40)
    draw.text((20, 50), "MRN 00482913", fill=(235, 235, 235), font=font)
    x0 = 20 + draw.textlength("MRN ", font=font)
    x1 = 20 + draw.textlength("MRN 00", font=font)
    src = tmp_path / "in"
    src.mkdir()
    img.save(src / "scan.png")
    (tmp_path / "m.json").write_text(json.dumps({"mrn": 482913}))
    s = sanitize_folder(src, tmp_path / "out", get_condition("blackout"), localizer, tmp_path / "m.json", verify=False, progress=False)
    assert s.sanitized == 1, s.quarantine
    out = load_image(tmp_path / "out" / "scan.png")
    zeros = out[50:100, int(x0) + 2 : int(x1) - 2]
    assert (zeros == 0).all(), "the leading zeros of the burned-in ID are masked too"
    assert (out[50:100, 20 : int(x0) - 20] != 0).any(), "the label MRN stays"


def test_samples_runner_outputs_keep_non_mask_pixels(bench, localizer, tmp_path):
    from clinx.data.images import load_image

    samples, _ = bench
    s = sanitize_samples(samples, tmp_path / "o", get_condition("blackout"), localizer, progress=False)
    assert s.sanitized == 3
    for x in samples:
        out = load_image(s.outputs[x.id])
        changed = np.any(out != x.image, axis=2)
        assert changed.any(), "something was masked"
        assert (out[changed] == 0).all(), "only black fill inside the mask"


def test_verify_with_both_engines_catches_what_one_cannot_read(localizer, tmp_path):
    """At 256 px the overlay is ~6 px high: EasyOCR reads noise, RapidOCR still reads it. Both verifying: quarantined."""
    from clinx.data.benchmark import build_benchmark
    from clinx.sanitize.core import independent_verifier

    samples = build_benchmark("test", 2, 0, 256)
    both = (independent_verifier(localizer), localizer)
    s = sanitize_samples(samples, tmp_path / "o", get_condition("raw"), localizer, verify=True, verifier=both, progress=False)
    assert (s.sanitized, set(s.by_stage)) == (0, {"verify"})
    assert all("rapidocr" in r["reason"] for r in s.quarantine)
    engines = s.to_dict()["engines"]
    assert set(engines) == {"verify/easyocr", "verify/rapidocr"} and engines["verify/rapidocr"]["residual_by_field"]
