"""Restoration conditions for the sanitizer: ``gskip``, ``prism`` and ``prism_flat``.

Registered lazily by name in :mod:`clinx.sanitize.conditions` (importing the
sanitizer does not import torch). Each condition loads its generator from a
checkpoint (the shipped default in ``checkpoints/<arch>/generator.pt`` unless
``checkpoint=...`` is given) and restores images window by window
(:mod:`clinx.restore.tiling`), batched on the network.

* ``gskip`` — skip-connected U-Net generator, masked composite only.
* ``prism`` — ClinX-PRISM no-skip SPADE generator + Table 4 post-processing.
* ``prism_flat`` — the same PRISM generator without post-processing (the
  paper's leakage diagnostic, App. A.2).

Every output obeys the composite rule (pixels outside the mask bit-identical
to the input); :meth:`RestorationCondition.apply_batch` re-checks it and
raises rather than return an image that breaks it. The one exception is
``prism`` with ``post.scope=paper``, the paper's literal post-processing,
which perturbs and JPEG-compresses past the mask by design; the condition
then says so through ``keeps_outside_mask`` and the sanitizer skips that
check (and only that check).
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path
from typing import Sequence

import numpy as np
import torch

from clinx.errors import CheckpointError
from clinx.records import as_rgb, check_mask
from clinx.restore.checkpoint import default_checkpoint, load_restorer
from clinx.restore.composite import Restorer, to_tensor, to_uint8
from clinx.restore.postprocess import PostProcessConfig, postprocess
from clinx.restore.tiling import default_max_side, restore_tiled
from clinx.sanitize.conditions import Condition, composite, outside_mask_changed

__all__ = ["GSkipCondition", "PrismCondition", "PrismFlatCondition", "RestorationCondition", "set_torch_threads"]


def set_torch_threads(n: int | None = None) -> int:
    """Use ``n`` intra-op threads (``CLINX_TORCH_THREADS``, default 2: the project's reference machine)."""
    n = int(n or os.environ.get("CLINX_TORCH_THREADS", 2))
    if torch.get_num_threads() != n:
        torch.set_num_threads(n)
    return n


_CACHE: dict[tuple[str, float, str], tuple[Restorer, dict]] = {}
_CACHE_LOCK = threading.Lock()


def _load_cached(path: Path, arch: str, device: str) -> tuple[Restorer, dict]:
    """Load once per (file, mtime, device): ``prism`` and ``prism_flat`` share one network."""
    try:
        key = (str(path.resolve()), path.stat().st_mtime, device)
    except OSError:
        key = None
    with _CACHE_LOCK:
        if key is not None and key in _CACHE:
            restorer, cfg = _CACHE[key]
            if cfg["arch"] != arch:
                raise CheckpointError(f"restoration checkpoint {path} holds a {cfg['arch']!r} generator, expected {arch!r}")
            return restorer, cfg
        restorer, cfg = load_restorer(path, expect_arch=arch, device=device)
        if key is not None:
            _CACHE[key] = (restorer, cfg)
        return restorer, cfg


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


class RestorationCondition(Condition):
    """Restore the masked region with a trained generator (see the module docstring).

    Args:
        checkpoint: path to a ``generator.pt``; default: the shipped checkpoint for ``arch``.
        device: ``"cpu"`` or a CUDA device string.
        batch_size: windows per network call.
        context: px of context around each mask group in its window.
        merge_gap: mask components closer than this are restored in one window.
        max_side: windows longer than this are downscaled (default ``max(512, 4 x resolution)``).
        post: Table 4 post-processing settings (PRISM only), as a dict.
    """

    arch: str = ""
    use_postprocess: bool = False

    def __init__(self, checkpoint: str | os.PathLike | None = None, *, checkpoint_dir: str | os.PathLike | None = None,
                 device: str = "cpu", batch_size: int = 8, context: int = 32, merge_gap: int = 24,
                 max_side: int | None = None, post: dict | None = None):
        set_torch_threads()
        # checkpoint_dir: a folder laid out like checkpoints/ (e.g. checkpoints/phi); this condition picks its arch
        self.checkpoint = Path(checkpoint) if checkpoint else default_checkpoint(self.arch, checkpoint_dir)
        self.device = str(device)
        self.restorer, self.config = _load_cached(self.checkpoint, self.arch, self.device)
        self.batch_size = int(batch_size)
        self.context = int(context)
        self.merge_gap = int(merge_gap)
        self.resolution = int(self.config.get("resolution", 128))
        self.max_side = int(max_side or default_max_side(self.resolution))
        self.post = PostProcessConfig(**(post or {}))
        self._digest = _file_digest(self.checkpoint)

    @property
    def keeps_outside_mask(self) -> bool:
        """False only for the paper-scope post-processing, which changes pixels outside the mask."""
        return not self.use_postprocess or self.post.keeps_outside_mask

    def params(self) -> dict:
        p = {"checkpoint": self._digest, "context": self.context, "merge_gap": self.merge_gap, "max_side": self.max_side}
        if self.use_postprocess:
            p.update({f"post_{k}": v for k, v in self.post.to_dict().items()})
        return p

    @torch.no_grad()
    def _run(self, crops: list[np.ndarray], masks: list[np.ndarray]) -> list[np.ndarray]:
        x, m = to_tensor(crops, masks)
        out = self.restorer(x.to(self.device), m.to(self.device)).composite
        return to_uint8(out)

    def apply(self, image: np.ndarray, mask: np.ndarray, *, seed: int = 0) -> np.ndarray:
        return self.apply_batch([image], [mask], [seed])[0]

    def apply_batch(self, images: Sequence[np.ndarray], masks: Sequence[np.ndarray],
                    seeds: Sequence[int] | None = None) -> list[np.ndarray]:
        if len(images) != len(masks):
            raise ValueError(f"{len(images)} images but {len(masks)} masks")
        seeds = list(seeds) if seeds is not None else [0] * len(images)
        if len(seeds) != len(images):
            raise ValueError(f"{len(images)} images but {len(seeds)} seeds")
        imgs = [as_rgb(np.asarray(i)) for i in images]
        ms = [check_mask(k, i) for k, i in zip(masks, imgs)]
        restored = restore_tiled(imgs, ms, self._run, resolution=self.resolution, context=self.context,
                                 merge_gap=self.merge_gap, max_side=self.max_side,
                                 multiple=self.restorer.multiple, batch_size=self.batch_size)
        outs = []
        for im, m, r, s in zip(imgs, ms, restored, seeds):
            out = postprocess(r, im, m, s, self.post) if self.use_postprocess and m.any() else composite(im, m, r)
            # Fail closed: a bug that paints outside the mask must never be released.
            if self.keeps_outside_mask and outside_mask_changed(im, m, out):
                raise RuntimeError(f"{self.name}: restoration changed pixels outside the mask")
            outs.append(out)
        return outs


class GSkipCondition(RestorationCondition):
    """Skip-connected U-Net restoration baseline (``gskip``)."""

    name = "gskip"
    arch = "gskip"
    use_postprocess = False


class PrismCondition(RestorationCondition):
    """ClinX-PRISM: no-skip SPADE generator + Table 4 post-processing (``prism``)."""

    name = "prism"
    arch = "prism"
    use_postprocess = True


class PrismFlatCondition(RestorationCondition):
    """ClinX-PRISM generator without post-processing (``prism_flat``, leakage diagnostic)."""

    name = "prism_flat"
    arch = "prism"
    use_postprocess = False
