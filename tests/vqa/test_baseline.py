"""The built-in baseline VQA model: training, checkpoint round trip, caching, errors."""

import numpy as np
import pytest
import torch

from clinx.errors import CheckpointError
from clinx.vqa import VQA_MODELS, get_vqa
from clinx.vqa.baseline import (BaselineVQA, QuestionEncoder, answer_vocabulary, build_net, load_baseline,
                                save_checkpoint)
from clinx.vqa.baseline_train import TrainConfig, evaluate_clean, train_baseline


def test_answer_vocabulary_normalises_and_orders():
    assert answer_vocabulary(["Yes.", "yes", "no", "Two", "2", ""]) == ["2", "yes", "no"]


def test_question_encoder_caches(encoder, tmp_path):
    a = encoder.encode(["Is there a lesion?", "Is there a lesion?"])
    n = encoder.encoded
    b = encoder.encode(["Is there a lesion?"])
    assert encoder.encoded == n  # second call: cache hit, nothing encoded
    assert a.shape == (2, 384) and np.allclose(a[0], b[0])
    assert np.linalg.norm(a[0]) == pytest.approx(1.0, abs=1e-4)
    # The disk cache is readable by a fresh encoder (no model load needed).
    again = QuestionEncoder(cache_dir=encoder._path.parent)
    assert np.allclose(again.encode(["Is there a lesion?"])[0], a[0]) and again.encoded == 0


def test_train_learns_an_image_dependent_answer_and_round_trips(encoder, samples, tmp_path):
    train, val = samples(48, 0), samples(16, 1)
    cfg = TrainConfig(image_size=32, width=8, hidden=32, epochs=8, batch_size=8, lr=3e-3)
    model, net, vocab, metrics = train_baseline(train, val, cfg, encoder=encoder)
    assert set(vocab) == {"yes", "no"}
    # The answer depends only on brightness: a model that ignored the image would sit at 50 %.
    acc = evaluate_clean(model, val)
    assert acc["em"] >= 90.0, acc
    assert metrics["best_epoch"] >= 0 and len(metrics["val_acc_per_epoch"]) == cfg.epochs

    path = save_checkpoint(tmp_path / "model.pt", net, vocab, cfg.image_size,
                           dict(width=cfg.width, hidden=cfg.hidden, dropout=cfg.dropout))
    loaded = load_baseline(path, cache_dir=encoder._path.parent)
    ims, qs = [s.image for s in val], [s.question for s in val]
    assert loaded.answer(ims, qs) == model.answer(ims, qs)
    assert loaded.model_id == load_baseline(path).model_id  # stable across loads
    assert loaded.calls == len(val)


def test_model_id_changes_with_weights(tmp_path):
    net = build_net(2, 32, width=4, hidden=8)
    p1 = save_checkpoint(tmp_path / "a.pt", net, ["yes", "no"], 32, dict(width=4, hidden=8))
    with torch.no_grad():
        next(net.parameters()).add_(1.0)
    p2 = save_checkpoint(tmp_path / "b.pt", net, ["yes", "no"], 32, dict(width=4, hidden=8))
    assert load_baseline(p1).model_id != load_baseline(p2).model_id


def test_missing_and_corrupt_checkpoints_are_clear_errors(tmp_path):
    with pytest.raises(CheckpointError, match="not found"):
        load_baseline(tmp_path / "nope.pt")
    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError, match="unreadable"):
        load_baseline(bad)


def test_batch_validation():
    model = BaselineVQA(build_net(2, 32, width=4, hidden=8), ["yes", "no"], image_size=32, encoder=QuestionEncoder())
    with pytest.raises(ValueError):
        model.answer([np.zeros((8, 8, 3), np.uint8)], ["a", "b"])
    with pytest.raises(ValueError):
        model.answer([np.zeros((8, 8), np.uint8)], ["a"])


def test_registry_has_every_adapter():
    assert {"baseline", "hf_vlm", "openai_vision"} <= set(VQA_MODELS.names())
    with pytest.raises(KeyError):
        get_vqa("nope")
