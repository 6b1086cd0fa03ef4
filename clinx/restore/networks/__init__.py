"""Plain ``nn.Module`` networks for restoration (no training logic here).

* :class:`PrismGenerator` — ClinX-PRISM, no-skip, SPADE-conditioned on the mask.
* :class:`GSkipGenerator` — the skip-connected U-Net baseline ("g-skip").
* :class:`PatchDiscriminator` — PatchGAN realism map.

``GENERATORS`` maps the architecture names used in configs and checkpoints to
their classes; :func:`build_generator` builds one from a JSON-able dict.
"""

from __future__ import annotations

from torch import nn

from clinx.registry import Registry
from clinx.restore.networks.gskip import GSkipGenerator
from clinx.restore.networks.patchgan import PatchDiscriminator
from clinx.restore.networks.prism import PrismGenerator
from clinx.restore.networks.spade import SPADE, SPADEResBlock

GENERATORS: Registry[type[nn.Module]] = Registry("generator")
GENERATORS.register("prism", PrismGenerator)
GENERATORS.register("gskip", GSkipGenerator)


def build_generator(arch: str, **params) -> nn.Module:
    """Build the generator called ``arch`` (``prism`` | ``gskip``) with constructor ``params``."""
    return GENERATORS.get(arch)(**params)


def count_parameters(module: nn.Module) -> int:
    """Number of trainable parameters."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


__all__ = [
    "GENERATORS", "GSkipGenerator", "PatchDiscriminator", "PrismGenerator", "SPADE", "SPADEResBlock",
    "build_generator", "count_parameters",
]
