"""``clinx-train`` / ``clinx train``: train a restoration generator with Hydra + Lightning.

    clinx-train model=prism                       # PRISM, CPU defaults
    clinx-train model=gskip trainer=gpu           # g-skip on one GPU, bf16
    clinx-train experiment=paper_table4           # Table 4: 224², 10 epochs, batch 6, 2 GPUs DDP
    clinx-train experiment=cpu_quick model=gskip data.source=/path/to/clean/images

The run folder (``runs/train/<time>/``) holds ``config_resolved.yaml``, CSV and
TensorBoard logs, ``samples/epoch_*.png`` (input / target / restored),
Lightning's resumable ``checkpoints/`` and ``export/generator.pt`` +
``export/metrics.json``: the best generator by masked PSNR/SSIM on the
held-out validation split, in the format the sanitizer loads.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from clinx.cli_common import hydra_main, write_summary

log = logging.getLogger(__name__)


def _instantiate_all(group) -> list:
    """Every ``_target_`` node of a ``callbacks`` / ``logger`` group, in config order."""
    import hydra

    return [hydra.utils.instantiate(node) for node in (group or {}).values() if node is not None and "_target_" in node]


def init_generator(model, path) -> None:
    """Load the generator weights of a clinx checkpoint into ``model`` (fine-tuning from ``init_from``).

    Only the generator is taken: the discriminator, the optimisers and the
    Lightning loop start fresh (use ``ckpt_path`` to resume a whole run).
    Raises :class:`clinx.restore.checkpoint.CheckpointError` when the file
    holds another architecture or does not fit the configured one.
    """
    from clinx.restore.checkpoint import CheckpointError, read_checkpoint

    config, state = read_checkpoint(path)
    if config["arch"] != model.arch:
        raise CheckpointError(f"init_from {path} holds a {config['arch']!r} generator, the model is {model.arch!r}")
    try:
        model.generator.load_state_dict(state, strict=True)
    except RuntimeError as exc:
        raise CheckpointError(f"init_from {path} does not fit the configured {model.arch!r} generator: {str(exc)[:300]}") from exc
    if config.get("fill") != model.restorer.fill:
        log.warning("init_from %s was trained with fill=%s; fine-tuning with fill=%s", path, config.get("fill"),
                    model.restorer.fill)
    log.info("generator initialised from %s", path)


def train(cfg, run_folder: Path | None = None) -> dict:
    """Train from a composed config; returns a summary dict (also written to ``summary.json``).

    Callbacks and loggers come from the ``callbacks`` and ``logger`` config
    groups; their folders are relative to ``run_dir``, set here to
    ``run_folder`` (or the config's ``run_dir``, or the Hydra run folder).
    """
    import hydra
    import pytorch_lightning as pl
    from omegaconf import open_dict

    from clinx.config import run_dir, save_resolved
    from clinx.restore.condition import set_torch_threads
    from clinx.restore.networks import count_parameters

    set_torch_threads(cfg.get("threads"))
    folder = Path(run_folder or cfg.get("run_dir") or run_dir())
    with open_dict(cfg):
        cfg.run_dir = str(folder)
    save_resolved(cfg, folder)
    pl.seed_everything(int(cfg.seed), workers=True)
    datamodule = hydra.utils.instantiate(cfg.data)
    model = hydra.utils.instantiate(cfg.model)
    if cfg.get("init_from"):
        init_generator(model, cfg.init_from)
    export = Path(cfg.export_dir)
    callbacks = _instantiate_all(cfg.get("callbacks"))
    loggers = _instantiate_all(cfg.get("logger")) or False
    trainer = hydra.utils.instantiate(cfg.trainer, callbacks=callbacks, logger=loggers, default_root_dir=str(folder))
    log.info("training %s: G %d params, D %d params", cfg.model.arch, count_parameters(model.generator),
             count_parameters(model.discriminator))
    ckpt = cfg.get("ckpt_path")
    # A Lightning .ckpt pickles the hyperparameters and loop state, so it loads only with weights_only=False:
    # ckpt_path must be a run folder's own checkpoint, never a file from elsewhere. Shared weights go through
    # init_from / generator.pt, which read_checkpoint loads with weights_only=True.
    if ckpt:
        # Resuming (e.g. a second stage of the checkpoint recipe): score the
        # resumed weights on this run's validation set first, so the export
        # keeps them unless training improves on them.
        trainer.validate(model, datamodule=datamodule, ckpt_path=str(ckpt), weights_only=False)
    trainer.fit(model, datamodule=datamodule, ckpt_path=str(ckpt) if ckpt else None, weights_only=False)
    summary = {
        "arch": cfg.model.arch,
        "generator_parameters": count_parameters(model.generator),
        "discriminator_parameters": count_parameters(model.discriminator),
        "export": str(export / "generator.pt"),
        "global_step": int(trainer.global_step),
        "epochs": int(trainer.current_epoch),
    }
    metrics = export / "metrics.json"
    if metrics.exists():
        summary["best"] = json.loads(metrics.read_text()).get("best")
    write_summary(summary, folder)
    return summary


def validate_generator(cfg, checkpoint: str | Path) -> dict[str, float]:
    """The validation figures (``val/psnr_mask`` …) of the generator in ``checkpoint`` on ``cfg``'s validation set.

    The validation set, restoration path and figures are those training
    selects with (:meth:`RestorationModule.validation_step`), computed by the
    code as it is now; used to check and refresh the shipped checkpoints'
    ``metrics.json``.
    """
    import hydra
    import torch

    from clinx.restore.checkpoint import read_checkpoint
    from clinx.restore.condition import set_torch_threads

    set_torch_threads(cfg.get("threads"))
    datamodule = hydra.utils.instantiate(cfg.data)
    model = hydra.utils.instantiate(cfg.model)
    _, state = read_checkpoint(checkpoint)
    model.generator.load_state_dict(state, strict=True)
    model.eval()
    datamodule.setup("validate")
    model.on_validation_epoch_start()
    with torch.no_grad():
        for i, batch in enumerate(datamodule.val_dataloader()):
            model.validation_step(batch, i)
    return model.val_figures()


def run(cfg) -> dict:
    """``clinx train``: train, print the summary."""
    summary = train(cfg)
    print(json.dumps(summary, indent=2))
    return summary


# train() saves the resolved config once run_dir is known.
main = hydra_main("train", run, log, save_config=False)


if __name__ == "__main__":
    raise SystemExit(main())
