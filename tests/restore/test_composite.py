"""The restoration wrapper: base fill, residual, composite."""

import numpy as np
import torch

from clinx.restore.composite import Restorer, base_fill, composite_uint8, to_tensor, to_uint8


def test_tensor_roundtrip_is_exact(make_image, make_generator):
    img = np.random.default_rng(0).integers(0, 256, (16, 24, 3), dtype=np.uint8)
    assert np.array_equal(to_uint8(to_tensor([img]))[0], img)


def test_base_fill_uses_only_outside_pixels(make_image, make_generator):
    img, mask = make_image(64, 64, [(10, 10, 40, 22)])
    other = img.copy()
    other[mask] = 0  # different content under the mask
    for method in ("telea", "ns", "zero"):
        a, b = base_fill(img, mask, method), base_fill(other, mask, method)
        assert np.array_equal(a, b), method  # the PHI pixels never influence the fill
        assert np.array_equal(a[~mask], img[~mask])


def test_restorer_composite_keeps_outside_pixels(make_image, make_generator):
    img, mask = make_image(32, 32, [(4, 4, 20, 12)])
    x, m = to_tensor([img], [mask])
    r = Restorer(make_generator("prism"), fill="telea", fill_radius=3)
    with torch.no_grad():
        out = r(x, m)
    assert torch.equal(out.composite[m.expand_as(x) == 0], x[m.expand_as(x) == 0])
    assert not torch.equal(out.composite, x)


def test_restorer_input_hides_the_masked_pixels(make_image, make_generator):
    img, mask = make_image(32, 32, [(4, 4, 20, 12)])
    other = img.copy()
    other[mask] = 17
    r = Restorer(make_generator("gskip"), fill="zero")
    with torch.no_grad():
        a = r(*to_tensor([img], [mask])).composite
        b = r(*to_tensor([other], [mask])).composite
    m = torch.from_numpy(mask)
    assert torch.equal(a[0][:, m], b[0][:, m])  # prediction inside the mask does not see x̃ there


def test_composite_uint8_is_bit_identical_outside(make_image, make_generator):
    img, mask = make_image(20, 30, [(2, 2, 10, 8)])
    pred = np.full_like(img, 5)
    out = composite_uint8(img, mask, pred)
    assert np.array_equal(out[~mask], img[~mask]) and np.all(out[mask] == 5)


def test_phi_fill_lets_the_network_see_the_masked_pixels(make_image, make_generator):
    """fill=phi is the paper's setting: the input under the mask reaches the network (and only through it)."""
    img, mask = make_image(32, 32, [(4, 4, 20, 12)])
    other = img.copy()
    other[mask] = 17
    r = Restorer(make_generator("gskip"), fill="phi")  # a tiny generator with a random head
    silent = make_generator("gskip")
    for p in silent.parameters():  # a network that outputs nothing
        p.data.zero_()
    with torch.no_grad():
        a = r(*to_tensor([img], [mask])).composite
        b = r(*to_tensor([other], [mask])).composite
        zero_net = Restorer(silent, fill="phi")(*to_tensor([img], [mask]))
    m = torch.from_numpy(mask)
    assert not torch.equal(a[0][:, m], b[0][:, m])  # what was under the mask changes the prediction
    # A network that outputs nothing leaves mid-grey inside the mask, not the PHI pixels:
    # nothing bypasses the network.
    assert torch.allclose(zero_net.raw[0][:, m], torch.zeros_like(zero_net.raw[0][:, m]))
    assert np.array_equal(base_fill(img, mask, "phi"), img)
