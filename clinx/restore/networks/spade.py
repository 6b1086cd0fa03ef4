"""Spatially-adaptive normalisation (SPADE, Park et al. 2019) conditioned on the PHI mask.

A SPADE layer normalises activations without learned affine parameters and then
modulates them with a per-pixel scale and shift predicted from a conditioning
map. In clinx the map is the binary PHI mask (plus, optionally, extra channels),
so the network knows *where* it has to invent content at every decoder scale,
instead of having to infer it from the zeroed / pre-filled input alone.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class SPADE(nn.Module):
    """``norm(x) * (1 + gamma(mask)) + beta(mask)``.

    Args:
        channels: channels of the activation being normalised.
        cond_channels: channels of the conditioning map (1 for a bare mask).
        hidden: channels of the shared conditioning trunk.

    Instance normalisation (not batch norm) is used because restoration
    batches are small (6 in the paper, 1 at inference) and per-image
    statistics must not depend on the other images in the batch.
    """

    def __init__(self, channels: int, cond_channels: int = 1, hidden: int = 32):
        super().__init__()
        self.norm = nn.InstanceNorm2d(channels, affine=False)
        self.shared = nn.Sequential(nn.Conv2d(cond_channels, hidden, 3, padding=1), nn.ReLU(inplace=True))
        self.gamma = nn.Conv2d(hidden, channels, 3, padding=1)
        self.beta = nn.Conv2d(hidden, channels, 3, padding=1)

    def forward(self, x: torch.Tensor, cond: torch.Tensor) -> torch.Tensor:
        # Nearest resize keeps the mask binary at coarse scales: a bilinear
        # mask would blur "inside" vs "outside" exactly where it matters.
        if cond.shape[-2:] != x.shape[-2:]:
            cond = F.interpolate(cond, size=x.shape[-2:], mode="nearest")
        h = self.shared(cond)
        return self.norm(x) * (1 + self.gamma(h)) + self.beta(h)


class SPADEResBlock(nn.Module):
    """Residual block whose two normalisations are SPADE layers (as in GauGAN).

    ``fin -> fout`` channels; a learned 1x1 shortcut (itself SPADE-normalised)
    is used when the channel count changes.
    """

    def __init__(self, fin: int, fout: int, cond_channels: int = 1, hidden: int = 32):
        super().__init__()
        fmid = min(fin, fout)
        self.norm0 = SPADE(fin, cond_channels, hidden)
        self.conv0 = nn.Conv2d(fin, fmid, 3, padding=1)
        self.norm1 = SPADE(fmid, cond_channels, hidden)
        self.conv1 = nn.Conv2d(fmid, fout, 3, padding=1)
        self.learned_shortcut = fin != fout
        if self.learned_shortcut:
            self.norm_s = SPADE(fin, cond_channels, hidden)
            self.conv_s = nn.Conv2d(fin, fout, 1, bias=False)

    def forward(self, x: torch.Tensor, cond: torch.Tensor) -> torch.Tensor:
        s = self.conv_s(self.norm_s(x, cond)) if self.learned_shortcut else x
        h = self.conv0(F.leaky_relu(self.norm0(x, cond), 0.2))
        h = self.conv1(F.leaky_relu(self.norm1(h, cond), 0.2))
        return s + h
