"""Restore large images without squashing them: one window per (merged) mask component.

A 2000x1500 scan with a name in one corner and a date in another must not be
resized to 224² (the text would shrink to a few pixels and the restored region
would come back blurred by the upsampling). Instead:

1. mask components closer than ``merge_gap`` px are merged into groups
   (a word broken into letters, or two lines of one label, become one group);
2. each group gets a window: its bounding box plus ``context`` px on every
   side, at least ``resolution`` px per side (the size the network was trained
   at), shifted to stay inside the image and rounded up to the network's
   size multiple;
3. a window whose long side exceeds ``max_side`` (default ``max(512, 4 x
   resolution)``) is downscaled to it (only then), restored, and upscaled
   back — the networks are fully convolutional, so anything smaller runs at
   native resolution;
4. the restored window is pasted back **only on the group's own mask pixels**,
   at native resolution.

The network input for a window masks *every* PHI pixel inside the window (not
only the group's), so a neighbouring group's text is never visible as context.
Windows of equal size are batched together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np


@dataclass(frozen=True)
class Window:
    """One restoration window on image ``index``: native box, network input size, group label."""

    index: int
    y0: int
    y1: int
    x0: int
    x1: int
    out_h: int  # network input height (== y1 - y0 unless downscaled / padded)
    out_w: int
    label: int
    scaled: bool

    @property
    def shape(self) -> tuple[int, int]:
        return (self.out_h, self.out_w)


def mask_groups(mask: np.ndarray, merge_gap: int) -> tuple[np.ndarray, int]:
    """Label map of mask pixels grouped so that components within ``merge_gap`` px share a label.

    Returns ``(labels, n)``; ``labels`` is 0 outside the mask, 1..n inside.
    """
    m = mask.astype(np.uint8)
    if merge_gap > 0:
        k = cv2.getStructuringElement(cv2.MORPH_RECT, (merge_gap + 1, merge_gap + 1))
        joined = cv2.dilate(m, k)
    else:
        joined = m
    n, lab = cv2.connectedComponents(joined, connectivity=8)
    lab = np.where(m > 0, lab, 0).astype(np.int32)
    # Relabel densely (a dilated component always contains mask pixels, but stay safe).
    used = np.unique(lab[lab > 0])
    remap = np.zeros(n, dtype=np.int32)
    remap[used] = np.arange(1, len(used) + 1, dtype=np.int32)
    return remap[lab], len(used)


def default_max_side(resolution: int) -> int:
    """Windows up to this long side run at native resolution: ``max(512, 4 * resolution)``.

    The generators are fully convolutional, so a window larger than the
    training crop costs time, not quality; only windows beyond this (labels
    on multi-megapixel scans) are downscaled.
    """
    return max(512, 4 * int(resolution))


def _round_up(v: int, multiple: int) -> int:
    return int(-(-v // multiple) * multiple)


def _span(lo: int, hi: int, size: int, limit: int) -> tuple[int, int]:
    """Grow ``[lo, hi)`` symmetrically to ``size`` and shift it inside ``[0, limit)`` (clipped if too big)."""
    size = min(size, limit)
    extra = size - (hi - lo)
    lo = lo - extra // 2
    lo = max(0, min(lo, limit - size))
    return lo, lo + size


def plan_windows(index: int, mask: np.ndarray, *, resolution: int, context: int, merge_gap: int,
                 max_side: int, multiple: int, labels: tuple[np.ndarray, int] | None = None) -> list[Window]:
    """Windows covering every group of ``mask`` (see the module docstring for the rules).

    ``labels`` may pass a precomputed :func:`mask_groups` result.
    """
    labels, n = labels if labels is not None else mask_groups(mask, merge_gap)
    H, W = mask.shape
    wins = []
    for lab in range(1, n + 1):
        ys, xs = np.nonzero(labels == lab)
        by0, by1, bx0, bx1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        h = max(resolution, _round_up(by1 - by0 + 2 * context, multiple))
        w = max(resolution, _round_up(bx1 - bx0 + 2 * context, multiple))
        y0, y1 = _span(by0, by1, h, H)
        x0, x1 = _span(bx0, bx1, w, W)
        nh, nw = y1 - y0, x1 - x0
        long = max(nh, nw)
        if long > max_side:
            s = max_side / long
            oh, ow = _round_up(max(1, round(nh * s)), multiple), _round_up(max(1, round(nw * s)), multiple)
            scaled = True
        else:
            oh, ow = _round_up(nh, multiple), _round_up(nw, multiple)  # padded if the image edge cut it
            scaled = False
        wins.append(Window(index, y0, y1, x0, x1, oh, ow, lab, scaled))
    return wins


def _cut(image: np.ndarray, mask: np.ndarray, win: Window) -> tuple[np.ndarray, np.ndarray]:
    """The window's image and full PHI mask at network input size."""
    crop = image[win.y0:win.y1, win.x0:win.x1]
    cm = mask[win.y0:win.y1, win.x0:win.x1]
    if win.scaled:
        crop = cv2.resize(crop, (win.out_w, win.out_h), interpolation=cv2.INTER_AREA)
        # Any coverage counts as masked: a downscaled pixel that mixes PHI must be regenerated.
        cm = cv2.resize(cm.astype(np.float32), (win.out_w, win.out_h), interpolation=cv2.INTER_AREA) > 0
    else:
        ph, pw = win.out_h - crop.shape[0], win.out_w - crop.shape[1]
        if ph or pw:
            # Reflection padding would mirror PHI pixels into the pad, but those
            # are masked too (the mask is padded the same way), so the network
            # never sees them.
            crop = cv2.copyMakeBorder(crop, 0, ph, 0, pw, cv2.BORDER_REFLECT_101)
            cm = cv2.copyMakeBorder(cm.astype(np.uint8), 0, ph, 0, pw, cv2.BORDER_REFLECT_101).astype(bool)
    return np.ascontiguousarray(crop), cm


def restore_tiled(images: Sequence[np.ndarray], masks: Sequence[np.ndarray],
                  run: Callable[[list[np.ndarray], list[np.ndarray]], list[np.ndarray]], *,
                  resolution: int, context: int = 32, merge_gap: int = 24, max_side: int | None = None,
                  multiple: int = 8, batch_size: int = 8) -> list[np.ndarray]:
    """Restore each image inside its mask, window by window, and return the pasted-back results.

    ``run(crops, crop_masks) -> restored_crops`` restores same-sized ``uint8``
    windows (the network call). The returned images equal the inputs outside
    their masks exactly; inside, each pixel comes from its group's window.
    ``max_side`` defaults to :func:`default_max_side`.
    """
    max_side = int(max_side or default_max_side(resolution))
    outs = [np.array(im, copy=True) for im in images]
    groups: list[np.ndarray | None] = []
    plan: list[Window] = []
    for i, m in enumerate(masks):
        if not m.any():
            groups.append(None)
            continue
        lab = mask_groups(m, merge_gap)
        groups.append(lab[0])
        plan += plan_windows(i, m, resolution=resolution, context=context, merge_gap=merge_gap,
                             max_side=max_side, multiple=multiple, labels=lab)
    by_shape: dict[tuple[int, int], list[Window]] = {}
    for w in plan:
        by_shape.setdefault(w.shape, []).append(w)
    for wins in by_shape.values():
        for s in range(0, len(wins), batch_size):
            chunk = wins[s:s + batch_size]
            cuts = [_cut(images[w.index], masks[w.index], w) for w in chunk]
            restored = run([c[0] for c in cuts], [c[1] for c in cuts])
            for w, r in zip(chunk, restored):
                nh, nw = w.y1 - w.y0, w.x1 - w.x0
                r = cv2.resize(r, (nw, nh), interpolation=cv2.INTER_CUBIC) if w.scaled else r[:nh, :nw]
                # Paste only this group's pixels: other groups in the window are
                # pasted from their own (better-centred) windows.
                sel = groups[w.index][w.y0:w.y1, w.x0:w.x1] == w.label
                outs[w.index][w.y0:w.y1, w.x0:w.x1][sel] = r[sel]
    return outs
