"""Checkpoints reload exactly and fail loudly."""

import pytest
import torch

from clinx.errors import CheckpointError
from clinx.restore.checkpoint import load_restorer, read_checkpoint, restorer_config, save_checkpoint
from clinx.restore.composite import Restorer, to_tensor

PARAMS = {
    "prism": {"base": 8, "n_down": 2, "n_bottleneck": 1, "max_channels": 16, "spade_hidden": 8},
    "gskip": {"base": 8, "n_down": 2, "max_channels": 16},
}


@pytest.mark.parametrize("arch", ["prism", "gskip"])
def test_reload_gives_identical_outputs(tmp_path, make_generator, make_image, arch):
    img, mask = make_image(32, 48, [(5, 5, 30, 15)])
    x, m = to_tensor([img], [mask])
    gen = make_generator(arch)
    before = Restorer(gen, fill="telea", fill_radius=3).eval()
    path = save_checkpoint(tmp_path / "g.pt", gen, restorer_config(arch, PARAMS[arch], "telea", 3, 32))
    after, cfg = load_restorer(path)
    assert cfg["arch"] == arch and cfg["resolution"] == 32
    with torch.no_grad():
        assert torch.equal(before(x, m).composite, after(x, m).composite)


def test_missing_checkpoint_is_a_clear_error(tmp_path):
    with pytest.raises(CheckpointError, match="not found"):
        load_restorer(tmp_path / "nope.pt")


@pytest.mark.parametrize("content", [b"", b"not a zip file at all", b"PK\x03\x04truncated"])
def test_corrupt_checkpoint_is_a_clear_error(tmp_path, content):
    p = tmp_path / "bad.pt"
    p.write_bytes(content)
    with pytest.raises(CheckpointError, match="unreadable or corrupt"):
        load_restorer(p)


def test_truncated_real_checkpoint(tmp_checkpoint):
    data = tmp_checkpoint.read_bytes()
    tmp_checkpoint.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError):
        load_restorer(tmp_checkpoint)


def test_pickled_objects_are_refused(tmp_path):
    # weights_only=True: arbitrary pickled objects never execute / load.
    p = tmp_path / "evil.pt"
    torch.save({"format": "clinx-restore/1", "config": "{}", "state_dict": {}, "obj": Restorer}, p)
    with pytest.raises(CheckpointError, match="unreadable or corrupt"):
        load_restorer(p)


def test_foreign_file_is_refused(tmp_path):
    p = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(3)}, p)
    with pytest.raises(CheckpointError, match="not a clinx restoration checkpoint"):
        read_checkpoint(p)


def test_mismatched_weights_are_refused(tmp_path, make_generator):
    # g-skip weights recorded as a PRISM architecture.
    p = save_checkpoint(tmp_path / "mix.pt", make_generator("gskip"), restorer_config("prism", PARAMS["prism"], "telea", 3, 32))
    with pytest.raises(CheckpointError, match="does not fit"):
        load_restorer(p)


def test_wrong_architecture_for_the_caller(tmp_checkpoint):
    with pytest.raises(CheckpointError, match="expected 'gskip'"):
        load_restorer(tmp_checkpoint, expect_arch="gskip")


@pytest.fixture
def tmp_checkpoint(tmp_path, make_generator):
    return save_checkpoint(tmp_path / "ok.pt", make_generator("prism"), restorer_config("prism", PARAMS["prism"], "telea", 3, 32))


def test_committed_phi_mode_checkpoints_load_and_see_the_masked_pixels(make_image):
    """checkpoints/phi (issue 13's skip-leakage experiment) load as fill=phi generators of their architecture."""
    import numpy as np
    import torch

    from clinx.restore.checkpoint import CHECKPOINTS_DIR, load_restorer
    from clinx.restore.composite import to_tensor

    img, mask = make_image(64, 64, [(8, 8, 56, 24)])
    other = img.copy()
    other[mask] = 0
    for arch in ("gskip", "prism"):
        restorer, cfg = load_restorer(CHECKPOINTS_DIR / "phi" / arch / "generator.pt", expect_arch=arch)
        assert cfg["fill"] == "phi" and restorer.fill == "phi"
        with torch.no_grad():
            a = restorer(*to_tensor([img], [mask])).composite
            b = restorer(*to_tensor([other], [mask])).composite
        assert not torch.equal(a, b)  # the PHI pixels reach the network in this mode
        m = torch.from_numpy(np.asarray(mask))
        assert torch.equal(a[0][:, ~m], to_tensor([img])[0][:, ~m])
