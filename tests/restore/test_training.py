"""fast_dev_run training through the real Lightning Trainer, for both generators."""

import json

import pytest

from clinx.config import compose
from clinx.restore.checkpoint import load_restorer
from clinx.restore.cli import train

TINY = {
    "prism": ["model.generator.base=8", "model.generator.max_channels=16", "model.generator.n_bottleneck=1",
              "model.generator.spade_hidden=8"],
    "gskip": ["model.generator.base=8", "model.generator.max_channels=16"],
}


@pytest.mark.parametrize("arch", ["prism", "gskip"])
def test_fast_dev_run_trains_and_exports(tmp_path, arch):
    cfg = compose("train", [
        f"model={arch}", "experiment=cpu_quick", *TINY[arch],
        "model.discriminator.base=8", "model.adv_start_step=0",  # exercise the D step too
        "data.size=96", "data.crop=48", "data.batch_size=2", "data.val_n=2", "data.val_batch_size=2",
        "+trainer.fast_dev_run=true",
    ])
    summary = train(cfg, tmp_path)
    assert summary["arch"] == arch and summary["global_step"] >= 2  # one G and one D optimiser step
    assert (tmp_path / "config_resolved.yaml").is_file()
    best = json.loads((tmp_path / "export" / "metrics.json").read_text())["best"]
    assert best["val/psnr_mask"] > 5 and 0 <= best["val/ssim_mask"] <= 1
    restorer, config = load_restorer(tmp_path / "export" / "generator.pt", expect_arch=arch)
    assert config["resolution"] == 48 and config["generator_parameters"] == summary["generator_parameters"]
    assert list((tmp_path / "samples").glob("epoch_*.png"))  # Fig. 5-style grid


def test_model_and_trainer_groups_compose():
    for over in (["model=gskip", "trainer=gpu"], ["experiment=paper_table4"]):
        cfg = compose("train", over)
        assert cfg.trainer.precision == "bf16-mixed"
    paper = compose("train", ["experiment=paper_table4"])
    assert (paper.data.size, paper.data.crop, paper.data.batch_size, paper.model.lr, paper.trainer.max_epochs,
            paper.trainer.devices, paper.trainer.strategy) == (224, 224, 6, 1e-4, 10, 2, "ddp")


def test_init_from_starts_the_generator_from_a_checkpoint(tmp_path):
    import torch

    from clinx.restore.checkpoint import CheckpointError, read_checkpoint
    from clinx.restore.cli import init_generator

    def model_for(arch):
        import hydra
        return hydra.utils.instantiate(compose("train", [f"model={arch}", "experiment=cpu_quick", *TINY[arch]]).model)

    cfg = compose("train", ["model=gskip", "experiment=cpu_quick", *TINY["gskip"], "data.size=96", "data.crop=48",
                            "data.batch_size=2", "data.val_n=2", "data.val_batch_size=2", "+trainer.fast_dev_run=true"])
    train(cfg, tmp_path / "first")
    exported = tmp_path / "first" / "export" / "generator.pt"
    _, state = read_checkpoint(exported)
    fresh = model_for("gskip")
    assert any(not torch.equal(v, state[k]) for k, v in fresh.generator.state_dict().items())
    init_generator(fresh, exported)
    assert all(torch.equal(v, state[k]) for k, v in fresh.generator.state_dict().items())
    with pytest.raises(CheckpointError, match="gskip"):
        init_generator(model_for("prism"), exported)  # another architecture: refused, named
