"""Training the baseline VQA model with Lightning (losses and optimisation only; data is plain tensors).

The recipe trains on the *clean* training split of the built-in benchmark
(clean image, clean question): the evaluation then measures how far each
sanitisation condition moves the input away from what the model learned,
which is the situation of an off-the-shelf MedVQA model meeting sanitized data.
Images are resized once and question embeddings computed once before the
first epoch, so an epoch on a few hundred samples takes seconds on a CPU.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import asdict, dataclass
from typing import Sequence

import numpy as np

from clinx.metrics.utility import exact_match, normalize_answer

from .baseline import BaselineVQA, QuestionEncoder, answer_vocabulary, build_net, preprocess_images

log = logging.getLogger(__name__)


@dataclass
class TrainConfig:
    """Hyper-parameters of the baseline recipe (saved beside the checkpoint)."""

    image_size: int = 128
    width: int = 16
    hidden: int = 256
    dropout: float = 0.2
    epochs: int = 12
    batch_size: int = 32
    lr: float = 2e-3
    weight_decay: float = 1e-4
    min_answer_count: int = 1
    seed: int = 0
    num_threads: int = 2


def _module(net, lr: float, weight_decay: float, epochs: int):
    """A LightningModule wrapping ``net``: cross-entropy, AdamW + cosine schedule, accuracy logs."""
    import pytorch_lightning as pl
    import torch

    class BaselineVQAModule(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.net = net
            self.val_acc: list[float] = []

        def training_step(self, batch, _):
            x, q, y = batch
            loss = torch.nn.functional.cross_entropy(self.net(x, q), y)
            self.log("train_loss", loss, prog_bar=False, on_epoch=True, on_step=False)
            return loss

        def validation_step(self, batch, _):
            x, q, y = batch
            logits = self.net(x, q)
            acc = (logits.argmax(1) == y).float().mean()
            self.log("val_acc", acc, on_epoch=True, prog_bar=False)
            return acc

        def configure_optimizers(self):
            opt = torch.optim.AdamW(self.net.parameters(), lr=lr, weight_decay=weight_decay)
            sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs))
            return {"optimizer": opt, "lr_scheduler": sched}

    return BaselineVQAModule()


def _tensors(samples: Sequence, encoder: QuestionEncoder, vocab_index: dict[str, int], image_size: int):
    """Clean image / clean question / answer index tensors; items whose answer is outside the vocabulary get -100."""
    import torch

    images = [s.clean_image if s.clean_image is not None else s.image for s in samples]
    questions = [s.clean_question if s.clean_question else s.question for s in samples]
    x = preprocess_images(images, image_size)
    q = torch.from_numpy(encoder.encode(questions))
    y = torch.tensor([vocab_index.get(normalize_answer(s.answer), -100) for s in samples], dtype=torch.long)
    return x, q, y


def train_baseline(train: Sequence, val: Sequence, cfg: TrainConfig | None = None,
                   encoder: QuestionEncoder | None = None, log_dir: str | None = None, verbose: bool = False):
    """Train the baseline on ``train`` samples, select the epoch with the best ``val`` accuracy.

    Returns ``(model, net, vocabulary, metrics)`` where ``model`` is a ready
    :class:`BaselineVQA` (digest ``"untrained"`` until saved) and ``metrics``
    holds per-epoch validation accuracy and the chosen epoch.
    """
    import pytorch_lightning as pl
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    cfg = cfg or TrainConfig()
    torch.set_num_threads(cfg.num_threads)
    pl.seed_everything(cfg.seed, workers=True, verbose=False)
    encoder = encoder or QuestionEncoder()
    vocab = answer_vocabulary([s.answer for s in train], cfg.min_answer_count)
    index = {a: i for i, a in enumerate(vocab)}
    xt, qt, yt = _tensors(train, encoder, index, cfg.image_size)
    keep = yt >= 0
    train_ds = TensorDataset(xt[keep], qt[keep], yt[keep])
    xv, qv, yv = _tensors(val, encoder, index, cfg.image_size)
    # Validation answers unseen in training stay in the set (label -100 never matches
    # an arg-max), so val accuracy is the honest exact-match rate.
    val_ds = TensorDataset(xv, qv, yv)
    g = torch.Generator().manual_seed(cfg.seed)
    train_dl = DataLoader(train_ds, batch_size=cfg.batch_size, shuffle=True, generator=g)
    val_dl = DataLoader(val_ds, batch_size=256)

    net = build_net(len(vocab), cfg.image_size, cfg.width, cfg.hidden, cfg.dropout)
    module = _module(net, cfg.lr, cfg.weight_decay, cfg.epochs)
    history: list[float] = []
    best: dict = {"acc": -1.0, "epoch": -1, "state": None}

    class KeepBest(pl.Callback):
        """Keep the weights of the epoch with the best validation accuracy (checkpoint selection on val)."""

        def on_validation_epoch_end(self, trainer, pl_module):
            if trainer.sanity_checking:
                return
            acc = float(trainer.callback_metrics.get("val_acc", torch.tensor(0.0)))
            history.append(acc)
            log.info("epoch %d: val acc %.3f", trainer.current_epoch, acc)
            if verbose:
                print(f"epoch {trainer.current_epoch}: val acc {acc:.3f}", flush=True)
            if acc > best["acc"]:
                best.update(acc=acc, epoch=trainer.current_epoch, state=copy.deepcopy(pl_module.net.state_dict()))

    logger = pl.loggers.CSVLogger(log_dir, name="baseline_vqa") if log_dir else False
    trainer = pl.Trainer(
        max_epochs=cfg.epochs, accelerator="cpu", devices=1, logger=logger, enable_checkpointing=False,
        enable_progress_bar=False, enable_model_summary=False, num_sanity_val_steps=0,
        callbacks=[KeepBest()], deterministic=True,
    )
    trainer.fit(module, train_dl, val_dl)
    if best["state"] is not None:
        net.load_state_dict(best["state"])
    net.eval()
    model = BaselineVQA(net, vocab, image_size=cfg.image_size, encoder=encoder)
    metrics = {
        "val_acc_per_epoch": history,
        "best_epoch": best["epoch"],
        "val_acc": best["acc"],
        "n_train": int(keep.sum()),
        "n_val": len(val),
        "n_answers": len(vocab),
        "config": asdict(cfg),
    }
    return model, net, vocab, metrics


def evaluate_clean(model: BaselineVQA, samples: Sequence) -> dict[str, float]:
    """Exact-match accuracy (percent) of ``model`` on the clean image + clean question of each sample,
    overall and split by answer type."""
    images = [s.clean_image if s.clean_image is not None else s.image for s in samples]
    questions = [s.clean_question if s.clean_question else s.question for s in samples]
    preds = model.answer(images, questions)
    em = np.array([exact_match(p, s.answer) for p, s in zip(preds, samples)])
    out = {"em": float(100 * em.mean()) if len(em) else float("nan"), "n": len(samples)}
    for t in ("closed", "open"):
        sel = np.array([s.answer_type == t for s in samples])
        if sel.any():
            out[f"em_{t}"] = float(100 * em[sel].mean())
            out[f"n_{t}"] = int(sel.sum())
    # Majority-answer accuracy: the floor any learned model must beat.
    vocab = {}
    for s in samples:
        vocab[normalize_answer(s.answer)] = vocab.get(normalize_answer(s.answer), 0) + 1
    out["majority_em"] = float(100 * max(vocab.values()) / len(samples)) if samples else float("nan")
    return out
