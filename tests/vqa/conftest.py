"""Shared VQA fixtures: tiny hand-made samples and one MiniLM encoder per session."""

import numpy as np
import pytest

from clinx.records import Sample


def make_samples(n: int, seed: int = 0) -> list[Sample]:
    """Bright-vs-dark images with a question whose answer depends on the image."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        bright = bool(i % 2)
        img = np.full((48, 64, 3), 200 if bright else 30, np.uint8)
        img = np.clip(img + rng.integers(-10, 10, img.shape), 0, 255).astype(np.uint8)
        q = "Is the image bright?" if i % 3 else "Is this image bright?"
        out.append(Sample(id=f"s{i}", image=img, clean_image=img, question=q, clean_question=q,
                          answer="yes" if bright else "no", answer_type="closed"))
    return out


@pytest.fixture
def samples():
    """``samples(n, seed)`` -> hand-made bright/dark samples."""
    return make_samples


@pytest.fixture(scope="session")
def encoder(tmp_path_factory):
    from clinx.vqa.baseline import QuestionEncoder

    return QuestionEncoder(cache_dir=tmp_path_factory.mktemp("qenc"))
