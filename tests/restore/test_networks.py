"""Shapes, conditioning and parameter counts of the plain networks."""

import pytest
import torch

from clinx.restore.networks import (GSkipGenerator, PatchDiscriminator, PrismGenerator, SPADE, SPADEResBlock,
                                    build_generator, count_parameters)


@pytest.mark.parametrize("h,w", [(32, 32), (64, 48)])
def test_generators_keep_spatial_size(h, w):
    x, m = torch.randn(2, 4, h, w), (torch.rand(2, 1, h, w) > 0.7).float()
    for g in (PrismGenerator(base=8, max_channels=16, n_bottleneck=1), GSkipGenerator(base=8, max_channels=16)):
        assert g(x, m).shape == (2, 3, h, w)


def test_patch_discriminator_gives_a_realism_map():
    d = PatchDiscriminator(base=8)
    out = d(torch.randn(2, 4, 128, 96))
    assert out.dim() == 4 and out.shape[:2] == (2, 1)
    assert out.shape[2] > 1 and out.shape[3] > 1  # one logit per patch, not per image


def test_spade_output_depends_on_the_mask():
    torch.manual_seed(0)
    layer = SPADE(8, 1, 8)
    x = torch.randn(1, 8, 16, 16)
    m0 = torch.zeros(1, 1, 16, 16)
    m1 = m0.clone()
    m1[..., 4:10, 4:12] = 1
    assert not torch.allclose(layer(x, m0), layer(x, m1))


def test_prism_uses_the_mask_through_spade_not_only_the_input():
    torch.manual_seed(0)
    g = PrismGenerator(base=8, max_channels=16, n_bottleneck=1, spade_hidden=8)
    torch.nn.init.normal_(g.head.weight, std=0.1)
    x = torch.randn(1, 4, 32, 32)
    m0 = torch.zeros(1, 1, 32, 32)
    m1 = m0.clone()
    m1[..., 8:20, 8:24] = 1
    # Same image input (mask channel included), different SPADE conditioning map.
    assert not torch.allclose(g(x, m0), g(x, m1))


def test_untrained_head_returns_zero_residual():
    # Zero-initialised head: the wrapper starts from its base fill.
    for g in (PrismGenerator(base=8, max_channels=16, n_bottleneck=1), GSkipGenerator(base=8, max_channels=16)):
        assert torch.count_nonzero(g(torch.randn(1, 4, 32, 32), torch.ones(1, 1, 32, 32))) == 0


def test_spade_resblock_changes_channels():
    blk = SPADEResBlock(16, 8, 1, 8)
    assert blk(torch.randn(1, 16, 8, 8), torch.ones(1, 1, 32, 32)).shape == (1, 8, 8, 8)


def test_default_generators_have_comparable_size():
    p, g = count_parameters(build_generator("prism")), count_parameters(build_generator("gskip"))
    assert 1_000_000 < p < 5_000_000 and 1_000_000 < g < 5_000_000
    assert max(p, g) / min(p, g) < 1.25


def test_prism_has_no_skip_connections():
    # Zeroing the bottleneck output must zero the decoder path entirely: there is
    # no other route from the encoder to the output.
    g = PrismGenerator(base=8, max_channels=16, n_bottleneck=1, spade_hidden=8)
    torch.nn.init.normal_(g.head.weight, std=0.1)
    seen = {}
    g.bottleneck[-1].register_forward_hook(lambda mod, inp, out: out * 0)
    x1, x2 = torch.randn(1, 4, 32, 32), torch.randn(1, 4, 32, 32)
    m = torch.zeros(1, 1, 32, 32)
    m[..., 3:9, 3:20] = 1
    x1[:, 3:], x2[:, 3:] = m, m
    assert torch.allclose(g(x1, m), g(x2, m))  # output independent of the image once the bottleneck is cut
    seen["ok"] = True
    u = GSkipGenerator(base=8, max_channels=16)
    torch.nn.init.normal_(u.head.weight, std=0.1)
    u.encoder[-1].register_forward_hook(lambda mod, inp, out: out * 0)
    assert not torch.allclose(u(x1, m), u(x2, m))  # skips carry the image around the bottleneck
