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


def test_folder_with_manifest_dir_removes_phi_and_verifies(bench, localizer, tmp_path, caplog):
    from clinx.metrics.leakage import ReadCache, evaluate_leakage

    samples, folder = bench
    out = tmp_path / "out"
    s = sanitize_folder(folder / "images", out, get_condition("ocr"), localizer, folder / "manifests", progress=False)
    assert s.processed == 3 and s.sanitized + s.quarantined == 3
    assert s.sanitized >= 2, s.quarantine
    # verification ran: every released image was re-read without a manifest match
    outputs = {k.removesuffix(".png"): p for k, p in s.outputs.items()}
    engines = {"rapidocr": localizer.engine}
    cache = ReadCache()
    raw = evaluate_leakage({x.id: x.image for x in samples}, samples, engines, cache=cache)["rapidocr"]
    san = evaluate_leakage(outputs, samples, engines, cache=cache)["rapidocr"]
    assert raw["token_recall"] >= 0.3
    assert san["token_recall"] <= 0.05 < raw["token_recall"]
    # no manifest value in logs, quarantine or summary
    texts = [caplog.text, (out / QUARANTINE_FILE).read_text(), (out / "summary.json").read_text()]
    for x in samples:
        for _, value in x.manifest.items():
            if len(value) >= 4:
                assert all(value not in t for t in texts)


def test_samples_runner_outputs_keep_non_mask_pixels(bench, localizer, tmp_path):
    from clinx.data.images import load_image

    samples, _ = bench
    s = sanitize_samples(samples, tmp_path / "o", get_condition("ocr"), localizer, progress=False)
    assert s.sanitized == 3
    for x in samples:
        out = load_image(s.outputs[x.id])
        changed = np.any(out != x.image, axis=2)
        assert changed.any(), "something was masked"
        assert (out[changed] == 0).all(), "only black fill inside the mask"
