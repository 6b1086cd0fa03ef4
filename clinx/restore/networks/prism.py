"""ClinX-PRISM generator: a mask-conditioned encoder-decoder with **no skip connections**.

Paper (ClinX, App. C.1, Fig. 3): the PHI-overlaid image is encoded by a
convolutional downsampling path; the PHI mask conditions SPADE residual blocks
in the bottleneck and in every decoder stage; encoder features are never
concatenated into the decoder. The privacy argument is that whatever the
masked region is rebuilt from has to pass through the low-resolution,
mask-conditioned bottleneck, so fine low-level detail of the input (such as
text strokes) cannot be copied straight to the output.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from clinx.restore.networks.spade import SPADEResBlock


def _down(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 4, stride=2, padding=1), nn.InstanceNorm2d(cout), nn.LeakyReLU(0.2, inplace=True))


class PrismGenerator(nn.Module):
    """No-skip SPADE encoder-decoder.

    Input ``x``: ``(B, in_channels, H, W)`` — by convention the (pre-filled or
    zeroed) RGB image in ``[-1, 1]`` followed by the mask channel; ``mask``:
    ``(B, 1, H, W)`` in ``{0, 1}`` (the SPADE conditioning map). Output:
    ``(B, 3, H, W)``, an unbounded residual the wrapper adds to its base fill
    (see :class:`clinx.restore.composite.Restorer`). ``H`` and ``W`` must be
    multiples of ``2 ** n_down``.

    Args:
        in_channels: input channels (3 image + 1 mask).
        base: channels after the stem; doubled at every downsampling.
        n_down: number of stride-2 stages (3 -> bottleneck at 1/8 resolution).
        n_bottleneck: SPADE residual blocks at the bottleneck.
        max_channels: cap on the channel width.
        spade_hidden: width of the SPADE conditioning trunks.
    """

    def __init__(self, in_channels: int = 4, base: int = 16, n_down: int = 3, n_bottleneck: int = 4,
                 max_channels: int = 128, spade_hidden: int = 16):
        super().__init__()
        self.n_down = n_down
        ch = [min(base * 2**i, max_channels) for i in range(n_down + 1)]
        self.stem = nn.Sequential(nn.Conv2d(in_channels, ch[0], 7, padding=3), nn.InstanceNorm2d(ch[0]), nn.LeakyReLU(0.2, inplace=True))
        self.encoder = nn.ModuleList(_down(ch[i], ch[i + 1]) for i in range(n_down))
        self.bottleneck = nn.ModuleList(SPADEResBlock(ch[-1], ch[-1], 1, spade_hidden) for _ in range(n_bottleneck))
        # Decoder: upsample, then a SPADE block that sees the mask at that scale.
        self.decoder = nn.ModuleList(SPADEResBlock(ch[i + 1], ch[i], 1, spade_hidden) for i in reversed(range(n_down)))
        self.head = nn.Conv2d(ch[0], 3, 3, padding=1)
        # Zero-initialised head: an untrained generator returns its base fill
        # unchanged, so training starts from the pre-fill and only has to learn
        # a correction (much faster and never worse at step 0).
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        h = self.stem(x)
        for down in self.encoder:
            h = down(h)
        for block in self.bottleneck:
            h = block(h, mask)
        for block in self.decoder:
            h = F.interpolate(h, scale_factor=2, mode="nearest")
            h = block(h, mask)
        return self.head(F.leaky_relu(h, 0.2))
