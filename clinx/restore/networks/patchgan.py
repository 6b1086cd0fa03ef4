"""PatchGAN discriminator (Isola et al. 2017): a spatial map of realism scores.

ClinX App. C.1 / Fig. 4: instead of one real/fake score per image the
discriminator scores overlapping patches, which pushes the generator towards
locally plausible texture in the restored region while staying small.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils import spectral_norm


class PatchDiscriminator(nn.Module):
    """``(B, in_channels, H, W) -> (B, 1, H', W')`` realism logits.

    Input is the RGB image in ``[-1, 1]`` concatenated with the PHI mask, so
    the discriminator knows which patches were generated. Spectral
    normalisation keeps the hinge-loss game stable at the small batch sizes
    used here. With ``n_layers=3`` each output logit sees a 70x70 receptive field.
    """

    def __init__(self, in_channels: int = 4, base: int = 32, n_layers: int = 3, max_channels: int = 256):
        super().__init__()
        layers: list[nn.Module] = [spectral_norm(nn.Conv2d(in_channels, base, 4, stride=2, padding=1)), nn.LeakyReLU(0.2, inplace=True)]
        ch = base
        for i in range(1, n_layers + 1):
            nxt = min(base * 2**i, max_channels)
            stride = 2 if i < n_layers else 1
            layers += [spectral_norm(nn.Conv2d(ch, nxt, 4, stride=stride, padding=1)), nn.LeakyReLU(0.2, inplace=True)]
            ch = nxt
        layers.append(spectral_norm(nn.Conv2d(ch, 1, 4, stride=1, padding=1)))
        self.net = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)
