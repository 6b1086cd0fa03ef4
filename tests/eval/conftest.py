"""Hand-made grid parts: tiny PHI-overlaid samples, a fake OCR attacker, a fake text pipeline, a fake judge LLM."""

import numpy as np
import pytest

from clinx.records import Detection, Manifest, Sample

NAME = "Jane Roe"  # synthetic


def make_item(i: int) -> Sample:
    rng = np.random.default_rng(i)
    clean = rng.integers(20, 60, (64, 64, 3)).astype(np.uint8)
    bright = i % 2 == 1
    if bright:
        clean[24:40, 24:40] = 220  # a "lesion" in the middle
    img = clean.copy()
    img[2:10, 2:30] = 255  # burned-in "PHI" band, top left
    mask = np.zeros((64, 64), bool)
    mask[2:10, 2:30] = True
    q = "Is there a lesion?"
    return Sample(id=f"item{i}", image=img, clean_image=clean, mask=mask, question=f"For {NAME}: {q}",
                  clean_question=q, answer="yes" if bright else "no", answer_type="closed",
                  manifest=Manifest(fields={"patient_name": NAME}))


class FakeOCR:
    """Reads the manifest name wherever the top-left band is still bright (what a real OCR would do)."""

    name = "fakeocr"

    def __init__(self):
        self.reads = 0

    def read(self, image):
        self.reads += 1
        if image[2:10, 2:30].mean() > 200:
            return [Detection(text=NAME.upper(), box=(2, 2, 30, 10), confidence=0.9, engine="fakeocr")]
        return []


def fake_text(text, level, manifest):
    """L1+ replaces the manifest name with a placeholder; L3 also drops the 'For ...:' lead-in."""
    out = text.replace(NAME, "[NAME]")
    if level == "l3":
        out = out.split(": ", 1)[-1]
    return out


class FakeLLM:
    model_id = "fake-judge-llm"

    def __init__(self):
        self.calls = 0

    def chat(self, messages, **kw):
        self.calls += 1
        user = messages[-1]["content"]
        ref = user.split("Reference answer: ")[1].split("\n")[0]
        pred = user.split("Predicted answer: ")[1].split("\n")[0]
        return "1" if ref.lower() == pred.lower() else "0"


@pytest.fixture
def items():
    return [make_item(0), make_item(1)]


@pytest.fixture
def fake_ocr():
    return FakeOCR()


@pytest.fixture(scope="session")
def tiny_baseline(tmp_path_factory):
    """A small baseline model trained on bright/dark items (real network, real MiniLM)."""
    from clinx.vqa.baseline import QuestionEncoder
    from clinx.vqa.baseline_train import TrainConfig, train_baseline

    train = [make_item(i) for i in range(24)]
    enc = QuestionEncoder(cache_dir=tmp_path_factory.mktemp("qenc"))
    model, *_ = train_baseline(train, train[:8], TrainConfig(image_size=32, width=8, hidden=32, epochs=4, batch_size=8),
                               encoder=enc)
    return model


@pytest.fixture
def parts():
    """The fake parts as a namespace (test modules cannot import conftest under importlib mode)."""
    import types

    return types.SimpleNamespace(make_item=make_item, fake_text=fake_text, FakeLLM=FakeLLM, FakeOCR=FakeOCR, NAME=NAME)
