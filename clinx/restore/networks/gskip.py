"""g-skip generator: the skip-connected (U-Net) restoration baseline of the ClinX paper.

Same input, output and mask conditioning contract as
:class:`~clinx.restore.networks.prism.PrismGenerator`, but every decoder stage
concatenates the encoder features of the same resolution (U-Net skips), so
low-level detail can flow from input to output without crossing the
bottleneck. The widths are chosen so the parameter count is comparable to
PRISM's (see ``scripts/bench_train.py`` / the checkpoints' ``config.json``).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def _conv_block(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1), nn.InstanceNorm2d(cout), nn.LeakyReLU(0.2, inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1), nn.InstanceNorm2d(cout), nn.LeakyReLU(0.2, inplace=True),
    )


class GSkipGenerator(nn.Module):
    """U-Net with skip connections.

    Input ``x``: ``(B, in_channels, H, W)`` (image in ``[-1, 1]`` + mask);
    ``mask`` is accepted for interface parity with PRISM (it already is the
    last input channel) and otherwise unused. Output: ``(B, 3, H, W)``
    residual added to the wrapper's base fill. ``H``/``W`` multiples of
    ``2 ** n_down``.
    """

    def __init__(self, in_channels: int = 4, base: int = 24, n_down: int = 3, max_channels: int = 192):
        super().__init__()
        self.n_down = n_down
        ch = [min(base * 2**i, max_channels) for i in range(n_down + 1)]
        self.stem = _conv_block(in_channels, ch[0])
        self.encoder = nn.ModuleList(
            nn.Sequential(nn.Conv2d(ch[i], ch[i + 1], 4, stride=2, padding=1), nn.LeakyReLU(0.2, inplace=True), _conv_block(ch[i + 1], ch[i + 1]))
            for i in range(n_down)
        )
        self.up = nn.ModuleList(nn.Conv2d(ch[i + 1], ch[i], 3, padding=1) for i in reversed(range(n_down)))
        # Skip connection: the decoder block sees [upsampled, encoder features].
        self.decoder = nn.ModuleList(_conv_block(2 * ch[i], ch[i]) for i in reversed(range(n_down)))
        self.head = nn.Conv2d(ch[0], 3, 3, padding=1)
        nn.init.zeros_(self.head.weight)  # start from the base fill, as PRISM does
        nn.init.zeros_(self.head.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        h = self.stem(x)
        skips = [h]
        for down in self.encoder:
            h = down(h)
            skips.append(h)
        skips.pop()  # the bottleneck itself is not a skip
        for up, block in zip(self.up, self.decoder):
            h = up(F.interpolate(h, scale_factor=2, mode="nearest"))
            h = block(torch.cat([h, skips.pop()], dim=1))
        return self.head(h)
