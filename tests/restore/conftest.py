"""Shared fixtures for restoration tests: tiny networks and checkpoints written to tmp dirs."""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before torch: see clinx/restore/__init__.py

import numpy as np
import pytest
import torch

torch.set_num_threads(2)

TINY = {
    "prism": {"base": 8, "n_down": 2, "n_bottleneck": 1, "max_channels": 16, "spade_hidden": 8},
    "gskip": {"base": 8, "n_down": 2, "max_channels": 16},
}


def tiny_generator(arch: str, seed: int = 0):
    """A tiny generator whose zero-initialised head is randomised, so its output depends on its input."""
    from clinx.restore.networks import build_generator

    torch.manual_seed(seed)
    g = build_generator(arch, **TINY[arch])
    torch.nn.init.normal_(g.head.weight, std=0.05)
    torch.nn.init.normal_(g.head.bias, std=0.05)
    return g.eval()


@pytest.fixture(scope="session")
def tiny_checkpoints(tmp_path_factory):
    """``{arch: path}`` of tiny saved checkpoints (resolution 32)."""
    from clinx.restore.checkpoint import restorer_config, save_checkpoint

    root = tmp_path_factory.mktemp("ckpt")
    out = {}
    for arch in ("prism", "gskip"):
        cfg = restorer_config(arch, TINY[arch], "telea", 3, 32)
        out[arch] = save_checkpoint(root / arch / "generator.pt", tiny_generator(arch), cfg)
    return out


@pytest.fixture(scope="session")
def make_generator():
    """Factory fixture: ``make_generator(arch, seed=0)`` -> tiny generator with a random head."""
    return tiny_generator


@pytest.fixture(scope="session")
def make_image():
    """Factory fixture: ``make_image(h, w, boxes, seed=0)`` -> ``(image, mask)`` (see :func:`text_like_image`)."""
    return text_like_image


def text_like_image(h: int, w: int, boxes, seed: int = 0):
    """A smooth random image with bright 'text' bars inside ``boxes``; returns ``(image, mask)``."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w]
    base = 90 + 60 * np.sin(xx / 37.0) * np.cos(yy / 23.0)
    img = np.clip(base[..., None] + rng.normal(0, 6, (h, w, 3)), 0, 255).astype(np.uint8)
    mask = np.zeros((h, w), bool)
    for x0, y0, x1, y1 in boxes:
        img[y0:y1:3, x0:x1] = 250  # stroke-like lines
        mask[y0:y1, x0:x1] = True
    return img, mask
