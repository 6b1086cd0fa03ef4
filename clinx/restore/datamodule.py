"""Training data for restoration: ``(x̃, m, x)`` triples with fresh synthetic PHI.

Sources (``source=``):

* ``builtin`` — the built-in base images through
  :func:`clinx.data.benchmark.iter_training_triples` (train split), new PHI
  drawn for every item and every epoch;
* a folder path — the user's *clean* images (PNG/JPEG/TIFF/DICOM, via
  :func:`clinx.data.images.load_any`), augmented into ``size``² squares and
  overlaid on the fly with :mod:`clinx.data.inject` (the same injector the
  benchmark uses).

**Masks.** The sanitizer never sees the true PHI mask at inference: it sees a
mask built from OCR boxes plus a small dilation (paper App. B.2). Training on
the bare stroke-tight true mask would teach the network a mask shape it never
meets, so ``mask_source="true"`` (default) uses the true mask dilated by
``mask_dilation`` px (cheap, covers the anti-aliased glyph halo the way the
OCR mask's dilation does). ``mask_source="boxes"`` uses the bounding box of
each text component instead (closer to OCR-box masks, larger regions to
restore). The OCR-built mask itself is not used for training: running OCR on
every fresh training image would cost more than the training step.

**Crops.** Text covers a few per cent of an image, so a full-image step spends
most of its compute on pixels the loss ignores. Training items are
``crop``² windows centred (with jitter) on a random mask pixel: the generator is
fully convolutional, and inference restores the same kind of window around
each mask group (:mod:`clinx.restore.tiling`). Validation uses the full
held-out ``val`` images, restored window by window exactly as the condition does.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np
import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info

from clinx.errors import ConfigError

Triple = tuple[np.ndarray, np.ndarray, np.ndarray]  # (x_tilde, true_mask, x)
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".dcm", ".dicom"}


def training_mask(mask: np.ndarray, mode: str = "true", dilation: int = 3, rng: np.random.Generator | None = None) -> np.ndarray:
    """The mask the restorer trains with, from the true PHI mask (see module docstring).

    ``mode``: ``"true"`` (glyph mask), ``"boxes"`` (word-like boxes: glyphs joined
    horizontally, then their bounding rectangles — the shape OCR masks have),
    ``"mixed"`` (either, 50/50, drawn from ``rng``). Then dilated by ``dilation`` px.
    """
    m = np.asarray(mask, dtype=bool)
    if mode == "mixed":
        mode = "boxes" if (rng if rng is not None else np.random.default_rng()).random() < 0.5 else "true"
    if mode == "boxes" and m.any():
        # Join the letters of a word / line like an OCR box does: close gaps up
        # to about one glyph height horizontally, then fill each component's box.
        gap = int(np.clip(0.6 * _typical_height(m), 3, 40))
        joined = cv2.dilate(m.astype(np.uint8), np.ones((1, gap), np.uint8))
        n, lab = cv2.connectedComponents(joined, connectivity=8)
        out = np.zeros_like(m)
        ys, xs = np.nonzero(m)
        owner = lab[ys, xs]
        for k in range(1, n):
            sel = owner == k  # the box of the glyph pixels, not of the dilated blob
            if sel.any():
                out[ys[sel].min():ys[sel].max() + 1, xs[sel].min():xs[sel].max() + 1] = True
        m = out
    elif mode not in ("true", "boxes"):
        raise ConfigError(f"unknown mask_source {mode!r}; expected 'true', 'boxes' or 'mixed'")
    if dilation > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * dilation + 1, 2 * dilation + 1))
        m = cv2.dilate(m.astype(np.uint8), k).astype(bool)
    return m


def _typical_height(mask: np.ndarray) -> float:
    """Median height of the mask's connected components (≈ glyph height)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    return float(np.median(stats[1:, cv2.CC_STAT_HEIGHT])) if n > 1 else 8.0


def builtin_triples(split: str, size: int, seed: int) -> Iterator[Triple]:
    """Endless triples from the built-in bases (``clinx.data.benchmark.iter_training_triples``)."""
    from clinx.data.benchmark import iter_training_triples

    yield from iter_training_triples(split, size, seed)


def folder_triples(folder: str | Path, size: int, seed: int) -> Iterator[Triple]:
    """Endless triples from a folder of clean images: random image, random augmentation, fresh PHI."""
    from clinx.data.builtin import augment_to_square
    from clinx.data.images import load_any
    from clinx.data.inject import inject_image, make_manifest

    files = sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
    if not files:
        raise ConfigError(f"no images ({', '.join(sorted(IMAGE_SUFFIXES))}) under {folder}")
    rng = np.random.default_rng(seed)
    cache: dict[Path, list[np.ndarray]] = {}
    while True:
        path = files[int(rng.integers(len(files)))]
        if path not in cache:
            cache[path] = load_any(path)
        frames = cache[path]
        clean, _ = augment_to_square(frames[int(rng.integers(len(frames)))], rng, size)
        inj = inject_image(clean, make_manifest(rng), rng)
        yield inj.image, inj.mask, inj.background


def crop_around_mask(triple: Triple, mask: np.ndarray, crop: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A ``crop``² window containing a random mask pixel (jittered), from ``x̃``, ``mask`` and ``x``."""
    x_tilde, _, x = triple
    H, W = mask.shape
    ch, cw = min(crop, H), min(crop, W)
    ys, xs = np.nonzero(mask)
    if len(ys):
        i = int(rng.integers(len(ys)))
        cy = ys[i] + int(rng.integers(-ch // 4, ch // 4 + 1))
        cx = xs[i] + int(rng.integers(-cw // 4, cw // 4 + 1))
    else:
        cy, cx = int(rng.integers(H)), int(rng.integers(W))
    y0 = int(np.clip(cy - ch // 2, 0, H - ch))
    x0 = int(np.clip(cx - cw // 2, 0, W - cw))
    sl = (slice(y0, y0 + ch), slice(x0, x0 + cw))
    return x_tilde[sl], mask[sl], x[sl]


def to_item(x_tilde: np.ndarray, mask: np.ndarray, x: np.ndarray) -> dict[str, torch.Tensor]:
    """Tensors for one item: images ``(3, H, W)`` in ``[-1, 1]``, mask ``(1, H, W)`` float."""
    f = lambda a: torch.from_numpy(np.ascontiguousarray(a)).permute(2, 0, 1).float().div_(127.5).sub_(1.0)
    return {"x_tilde": f(x_tilde), "mask": torch.from_numpy(np.ascontiguousarray(mask)).float()[None], "x": f(x)}


def _interleave(streams: list[Iterator[Triple]], seed: int) -> Iterator[Triple]:
    """Draw from one of ``streams`` uniformly at random at every item (multi-scale training)."""
    rng = np.random.default_rng(seed)
    while True:
        yield next(streams[int(rng.integers(len(streams)))])


class TripleCrops(IterableDataset):
    """``n_items`` training crops per epoch; every epoch (and worker) draws new PHI from a new seed."""

    def __init__(self, source: Callable[[int], Iterator[Triple]], n_items: int, crop: int, mask_source: str,
                 mask_dilation: int, seed: int, crops_per_image: int = 1):
        self.source, self.n_items, self.crop = source, int(n_items), int(crop)
        self.crops_per_image = max(1, int(crops_per_image))
        self.mask_source, self.mask_dilation, self.seed = mask_source, int(mask_dilation), int(seed)
        self.epoch = 0

    def __len__(self) -> int:
        return self.n_items

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (info.id, info.num_workers) if info else (0, 1)
        seed = self.seed * 1_000_003 + self.epoch * 7919 + wid
        self.epoch += 1
        rng = np.random.default_rng(seed)
        n = self.n_items // nw + (1 if wid < self.n_items % nw else 0)
        made = 0
        for triple in self.source(seed):
            m = training_mask(triple[1], self.mask_source, self.mask_dilation, rng)
            # Several windows per generated image: making a PHI-injected image
            # costs about as much CPU as a training step on one window.
            for _ in range(self.crops_per_image):
                if made >= n:
                    return
                yield to_item(*crop_around_mask(triple, m, self.crop, rng))
                made += 1


class FixedTriples(Dataset):
    """A fixed list of full-size triples (validation)."""

    def __init__(self, triples: list[Triple], mask_source: str, mask_dilation: int, seed: int = 0):
        rng = np.random.default_rng(seed)  # "mixed" masks: the same choice on every run
        self.items = [to_item(t[0], training_mask(t[1], mask_source, mask_dilation, rng), t[2]) for t in triples]

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        return self.items[i]


class RestorationDataModule(pl.LightningDataModule):
    """Data only: training crops with fresh PHI and a fixed held-out validation set.

    Args:
        source: ``"builtin"`` or a folder of clean images.
        size: side of the square images the triples are made at (paper: 224).
        crop: side of the training windows (``<= size``; ``size`` trains on full images).
        batch_size: training batch size (paper: 6).
        steps_per_epoch: training batches per epoch (the stream is endless).
        val_n: number of validation images (full size, ``val`` split of the built-in
            bases, or the same folder with a different seed).
        mask_source / mask_dilation: see :func:`training_mask`.
        seed: base seed; validation uses ``seed`` for a fixed set.
        num_workers: DataLoader workers (0 keeps the 2-core budget for the step).
        crops_per_image: training windows cut from each generated image.
        extra_sizes: further image sizes mixed into training (text is drawn in
            proportion to the image, so this teaches several text scales —
            inference windows are taken at native resolution).
    """

    def __init__(self, source: str = "builtin", size: int = 224, crop: int = 128, batch_size: int = 6,
                 steps_per_epoch: int = 100, val_n: int = 24, val_batch_size: int = 8, mask_source: str = "true",
                 mask_dilation: int = 3, seed: int = 0, num_workers: int = 0, extra_sizes: tuple[int, ...] = (),
                 crops_per_image: int = 1):
        super().__init__()
        if crop > size:
            raise ConfigError(f"crop ({crop}) must not exceed size ({size})")
        self.source, self.size, self.crop = str(source), int(size), int(crop)
        self.batch_size, self.steps_per_epoch, self.val_n = int(batch_size), int(steps_per_epoch), int(val_n)
        self.val_batch_size, self.mask_source, self.mask_dilation = int(val_batch_size), mask_source, int(mask_dilation)
        self.seed, self.num_workers = int(seed), int(num_workers)
        self.crops_per_image = int(crops_per_image)
        self.extra_sizes = tuple(int(v) for v in (extra_sizes or ()))
        if any(v < crop for v in self.extra_sizes):
            raise ConfigError(f"extra_sizes {self.extra_sizes} must all be >= crop ({crop})")
        self._train: TripleCrops | None = None
        self._val: FixedTriples | None = None

    def _stream(self, split: str) -> Callable[[int], Iterator[Triple]]:
        if split == "train" and self.extra_sizes:
            sizes = (self.size, *self.extra_sizes)
            return lambda seed: _interleave([self._sized_stream(split, s)(seed + 101 * k) for k, s in enumerate(sizes)], seed)
        return self._sized_stream(split, self.size)

    def _sized_stream(self, split: str, size: int) -> Callable[[int], Iterator[Triple]]:
        if self.source == "builtin":
            return lambda seed: builtin_triples(split, size, seed)
        folder = Path(self.source)
        if not folder.is_dir():
            raise ConfigError(f"data source {self.source!r} is neither 'builtin' nor a folder")
        offset = 0 if split == "train" else 10_000_019
        return lambda seed: folder_triples(folder, size, seed + offset)

    def _val_triples(self) -> list[Triple]:
        if self.source == "builtin":
            from clinx.data.benchmark import build_benchmark

            return [(s.image, s.mask, s.restoration_target) for s in build_benchmark("val", self.val_n, self.seed, self.size)]
        return list(itertools.islice(self._stream("val")(self.seed), self.val_n))

    def setup(self, stage: str | None = None) -> None:
        if self._train is None:
            self._train = TripleCrops(self._stream("train"), self.steps_per_epoch * self.batch_size, self.crop,
                                      self.mask_source, self.mask_dilation, self.seed, self.crops_per_image)
        if self._val is None and self.val_n > 0:
            self._val = FixedTriples(self._val_triples(), self.mask_source, self.mask_dilation, self.seed)

    def train_dataloader(self) -> DataLoader:
        return DataLoader(self._train, batch_size=self.batch_size, num_workers=self.num_workers,
                          persistent_workers=self.num_workers > 0)

    def val_dataloader(self) -> DataLoader:
        return DataLoader(self._val, batch_size=self.val_batch_size, shuffle=False, num_workers=0)
