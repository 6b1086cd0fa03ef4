"""The built-in baseline MedVQA model: a small CNN + the shipped MiniLM question embedding.

Why a classifier and not a generator: on two CPU cores the grid must answer
thousands of (image, question) pairs in minutes, and the built-in benchmark's
answers come from a closed vocabulary (modality, region, side, counts,
yes/no). A CNN image encoder fused with a frozen sentence embedding of the
question and a softmax over the training answers is the classic VQA baseline
and trains on CPU in a few minutes.

The network sees the image at ``image_size``² (128 by default). Question
embeddings are cached by text digest (in memory and, when ``cache_dir`` is
given, on disk), because the grid asks the same question under every image
condition.

Checkpoints are plain dicts of tensors and primitives saved with
``torch.save`` and loaded with ``weights_only=True``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Sequence

import numpy as np

from clinx.embed import MINILM_DIM, SentenceEncoder
from clinx.errors import CheckpointError
from clinx.metrics.utility import normalize_answer

from .base import VQAModel, check_batch

log = logging.getLogger(__name__)

#: Where the shipped checkpoint lives (repo root ``checkpoints/baseline_vqa``).
DEFAULT_CHECKPOINT = Path(__file__).resolve().parents[2] / "checkpoints" / "baseline_vqa" / "model.pt"
EMBED_DIM = MINILM_DIM


def _torch():
    import torch

    return torch


def build_net(n_answers: int, image_size: int = 128, width: int = 32, hidden: int = 256, dropout: float = 0.2):
    """The baseline network: CNN image encoder ⊕ projected question embedding -> answer logits.

    Fusion is concatenation plus the element-wise product of the two
    projections (the product lets a question "select" image features, which a
    plain concatenation learns slowly from a few hundred samples).
    """
    torch = _torch()
    nn = torch.nn

    def block(cin: int, cout: int) -> nn.Module:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class BaselineNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            w = width
            # 128 -> 64 -> 32 -> 16 -> 8; global average pooling keeps it size-agnostic.
            self.encoder = nn.Sequential(block(3, w), block(w, 2 * w), block(2 * w, 4 * w), block(4 * w, 4 * w))
            self.img_proj = nn.Linear(4 * w, hidden)
            self.q_proj = nn.Linear(EMBED_DIM, hidden)
            self.head = nn.Sequential(
                nn.ReLU(),
                nn.Dropout(dropout),
                nn.Linear(3 * hidden, hidden),
                nn.ReLU(),
                nn.Dropout(dropout),
                nn.Linear(hidden, n_answers),
            )

        def forward(self, images, q_emb):
            f = self.encoder(images).mean(dim=(2, 3))
            i, q = self.img_proj(f), self.q_proj(q_emb)
            return self.head(torch.cat([i, q, i * q], dim=1))

    return BaselineNet()


def preprocess_images(images: Sequence[np.ndarray], size: int):
    """uint8 RGB images -> float tensor ``(N, 3, size, size)`` in [-1, 1] (area resize keeps thin text and edges)."""
    import cv2

    torch = _torch()
    arr = np.stack([cv2.resize(np.asarray(im), (size, size), interpolation=cv2.INTER_AREA) for im in images])
    t = torch.from_numpy(arr).permute(0, 3, 1, 2).float().div_(127.5).sub_(1.0)
    return t.contiguous()


class QuestionEncoder(SentenceEncoder):
    """The shipped MiniLM sentence embedding of questions (:class:`clinx.embed.SentenceEncoder`).

    Kept as its own name because checkpoints and the grid's caches know it:
    ``cache_dir`` (optional) keeps embeddings across processes in
    ``minilm_question_embeddings.npz``.
    """

    def __init__(self, cache_dir: str | os.PathLike | None = None, device: str = "cpu", batch_size: int = 64):
        super().__init__(None, cache_dir=cache_dir, cache_name="minilm_question_embeddings.npz", device=device,
                         batch_size=batch_size)


def file_digest(path: str | os.PathLike) -> str:
    """SHA-256 (first 16 hex digits) of a file's bytes — the weights part of ``model_id``."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


class BaselineVQA(VQAModel):
    """The trained baseline: answers by arg-max over the training answer vocabulary."""

    name = "baseline"

    def __init__(self, net, answers: Sequence[str], image_size: int = 128, weights_digest: str = "untrained",
                 encoder: QuestionEncoder | None = None, batch_size: int = 64, device: str = "cpu"):
        self.net = net.eval().to(device)
        self.answers = list(answers)
        self.image_size = int(image_size)
        self.weights_digest = weights_digest
        self.encoder = encoder or QuestionEncoder(device=device)
        self.batch_size = int(batch_size)
        self.device = device
        self.calls = 0  # items answered; tests count these to prove cache hits

    def id_parts(self):
        return (type(self).__name__, self.weights_digest, self.image_size, len(self.answers))

    def answer(self, images: list[np.ndarray], questions: list[str]) -> list[str]:
        check_batch(images, questions)
        torch = _torch()
        out: list[str] = []
        for s in range(0, len(questions), self.batch_size):
            ims = images[s : s + self.batch_size]
            qs = questions[s : s + self.batch_size]
            x = preprocess_images(ims, self.image_size).to(self.device)
            q = torch.from_numpy(self.encoder.encode(qs)).to(self.device)
            with torch.inference_mode():
                idx = self.net(x, q).argmax(dim=1).tolist()
            out.extend(self.answers[i] for i in idx)
        self.calls += len(questions)
        return out


def save_checkpoint(path: str | os.PathLike, net, answers: Sequence[str], image_size: int, arch: dict) -> Path:
    """Write the network weights, the answer vocabulary and the architecture as one ``weights_only``-safe file."""
    torch = _torch()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": "clinx-baseline-vqa/1",
        "state_dict": {k: v.detach().cpu() for k, v in net.state_dict().items()},
        "answers": list(answers),
        "image_size": int(image_size),
        "arch": {k: (float(v) if isinstance(v, float) else int(v)) for k, v in arch.items()},
    }
    tmp = path.with_name(f".{path.name}.tmp")
    torch.save(payload, tmp)
    os.replace(tmp, path)
    return path


def load_baseline(checkpoint: str | os.PathLike | None = None, device: str = "cpu", batch_size: int = 64,
                  cache_dir: str | os.PathLike | None = None) -> BaselineVQA:
    """Load the baseline model (the shipped checkpoint by default).

    A missing, unreadable or mismatching checkpoint raises
    :class:`~clinx.errors.CheckpointError` — never a silent fallback to random weights.
    """
    torch = _torch()
    path = Path(checkpoint) if checkpoint else DEFAULT_CHECKPOINT
    if not path.is_file():
        raise CheckpointError(
            f"baseline VQA checkpoint not found at {path}; train one with scripts/train_baseline_vqa.py"
        )
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
        answers = [str(a) for a in payload["answers"]]
        arch = dict(payload.get("arch", {}))
        net = build_net(len(answers), image_size=int(payload["image_size"]), **arch)
        net.load_state_dict(payload["state_dict"])
    except CheckpointError:
        raise
    except Exception as exc:
        raise CheckpointError(f"baseline VQA checkpoint {path.name} is unreadable or does not fit: {type(exc).__name__}: {exc}") from None
    return BaselineVQA(
        net, answers, image_size=int(payload["image_size"]), weights_digest=file_digest(path),
        encoder=QuestionEncoder(cache_dir=cache_dir, device=device), batch_size=batch_size, device=device,
    )


def answer_vocabulary(answers: Sequence[str], min_count: int = 1) -> list[str]:
    """Normalised training answers seen at least ``min_count`` times, most frequent first (ties alphabetical)."""
    counts: dict[str, int] = {}
    for a in answers:
        n = normalize_answer(a)
        if n:
            counts[n] = counts.get(n, 0) + 1
    return [a for a, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])) if c >= min_count]


def write_json(path: str | os.PathLike, obj) -> None:
    """Atomic JSON write (temp file + rename), used for the checkpoint's metrics and config."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(obj, indent=2, sort_keys=True))
    os.replace(tmp, path)
