"""PRISM's privacy-oriented post-processing (ClinX §3.2, Table 4).

Applied to the restored image ``c`` (the composite of the generator output)
inside the PHI mask only; ``prism_flat`` is the same generator without it.
With ``m^f`` the feathered mask, ``ε`` luminance grain and ``γ`` a per-channel
colour gain (paper eq. in §3.2)::

    u = c + m^f ⊙ ε                      luminance grain, std 0.12
    v = (1 − m^f) ⊙ u + m^f ⊙ (u ⊙ γ)    colour jitter, γ ~ N(1, 0.04²) per channel
    w = (1 − m^f) ⊙ v + m^f ⊙ B_0.7(v)   micro-blur, Gaussian σ = 0.7 px
    x_prism = J_92(w)                     JPEG round trip, quality 92

followed by the composite ``x̂ = x_prism ⊙ m + x̃ ⊙ (1 − m)``.

Interpretation choices (the paper gives values, not all definitions):

* **Units.** Intensities are in the generator's ``[-1, 1]`` range, so grain
  std 0.12 is 0.06 of the ``[0, 1]`` range (≈15 grey levels before feathering).
  Grain is one noise field shared by the three channels (luminance only).
* **Feathering, "10 px Gaussian blur".** ``m^f = clip(G_σ(m), 0, 1)`` with
  σ = 10 px (the PIL ``GaussianBlur(radius)`` convention, where the radius is
  the standard deviation — consistent with the 0.7 px micro-blur "radius").
* **Edge band, "8 px, reserved".** Not defined in the paper. We read it as the
  8 px band *inside* the mask along its border, reserved as the transition
  zone: there ``m^f`` is multiplied by a linear ramp ``clip(d / 8, 0, 1)`` where
  ``d`` is the distance to the nearest unmasked pixel, so the perturbations
  fade to exactly zero at the mask boundary. The paper's own ``m^f`` would
  spill over the mask (a blurred mask is non-zero outside it); clinx keeps
  the composite rule instead — pixels outside the mask are bit-identical —
  and the band prevents the step at the border that the paper's App. A.2
  suspects OCR engines read as text-like structure.
* **JPEG.** Encoded on the mask's bounding box plus a margin (enough context
  for the 8x8 blocks and the blur), then only masked pixels are kept.

``scope`` chooses between that reading and the paper's literal one:

* ``mask`` (default) — everything above: perturbations confined to the mask,
  fading to zero at its border, outside pixels bit-identical.
* ``paper`` — the equations as printed: ``m^f = clip(G_σ(m), 0, 1)`` spills
  past the mask (no edge-band ramp, no ``⊙ m``), the JPEG round trip covers
  the whole image and its output *is* the release (no final composite). This
  is the setting in which the paper's App. A.2 blames post-processing for
  boundary and compression artefacts; it exists to test that claim, and
  changes pixels outside the mask by construction.

Stochastic parts (ε, γ) come from ``numpy.random.default_rng(seed)``: the same
input, mask and seed give the same output; the runner passes a per-sample seed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import cv2
import numpy as np

from clinx.records import as_rgb, check_mask
from clinx.sanitize.conditions import composite


SCOPES = ("mask", "paper")


@dataclass(frozen=True)
class PostProcessConfig:
    """Table 4 settings (defaults are the paper's)."""

    feather_sigma: float = 10.0
    grain: float = 0.12
    jitter_std: float = 0.04
    blur_sigma: float = 0.7
    jpeg_quality: int = 92
    edge_band: int = 8
    scope: str = "mask"

    def __post_init__(self) -> None:
        if self.scope not in SCOPES:
            raise ValueError(f"post-processing scope must be one of {SCOPES}, got {self.scope!r}")

    @property
    def keeps_outside_mask(self) -> bool:
        """True when pixels outside the mask are left bit-identical (``scope=mask``)."""
        return self.scope == "mask"

    def to_dict(self) -> dict:
        return asdict(self)


def feathered_mask(mask: np.ndarray, feather_sigma: float, edge_band: int) -> np.ndarray:
    """``m^f`` in ``[0, 1]``: Gaussian-feathered mask, zero outside ``mask``, ramping up over the edge band."""
    m = mask.astype(np.float32)
    mf = np.clip(cv2.GaussianBlur(m, (0, 0), sigmaX=feather_sigma, borderType=cv2.BORDER_REPLICATE), 0.0, 1.0) if feather_sigma > 0 else m.copy()
    if edge_band > 0:
        # Distance (px) from each masked pixel to the nearest unmasked one; a
        # 1-px border keeps masks touching the image edge from counting the
        # edge as "inside".
        padded = np.pad(mask.astype(np.uint8), 1, constant_values=0)
        dist = cv2.distanceTransform(padded, cv2.DIST_L2, 3)[1:-1, 1:-1]
        mf *= np.clip(dist / float(edge_band), 0.0, 1.0)
    return mf * m


def _jpeg(image_rgb: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(image_rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:  # pragma: no cover - OpenCV only fails on invalid input
        raise RuntimeError("JPEG encoding failed")
    return cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def _perturb(c: np.ndarray, mf: np.ndarray, eps: np.ndarray, gamma: np.ndarray, cfg: PostProcessConfig) -> np.ndarray:
    """The paper's ``u, v, w, J_q(w)`` on ``c`` in ``[-1, 1]``; returns ``uint8``."""
    u = c + mf * eps
    v = (1.0 - mf) * u + mf * (u * gamma)
    if cfg.blur_sigma > 0:
        w = (1.0 - mf) * v + mf * cv2.GaussianBlur(v, (0, 0), sigmaX=cfg.blur_sigma, borderType=cv2.BORDER_REFLECT_101)
    else:
        w = v
    w8 = np.clip(np.round((w + 1.0) * 127.5), 0, 255).astype(np.uint8)
    if cfg.jpeg_quality and cfg.jpeg_quality < 100:
        w8 = _jpeg(np.ascontiguousarray(w8), cfg.jpeg_quality)
    return w8


def _postprocess_paper(c8: np.ndarray, mask: np.ndarray, rng: np.random.Generator, cfg: PostProcessConfig) -> np.ndarray:
    """``scope=paper``: whole image, feathered mask spilling past ``mask``, JPEG everywhere, no composite."""
    m = mask.astype(np.float32)
    mf = np.clip(cv2.GaussianBlur(m, (0, 0), sigmaX=cfg.feather_sigma, borderType=cv2.BORDER_REPLICATE), 0.0, 1.0) \
        if cfg.feather_sigma > 0 else m
    eps = rng.standard_normal(mask.shape, dtype=np.float32)[..., None] * np.float32(cfg.grain)
    gamma = (1.0 + rng.standard_normal(3) * cfg.jitter_std).astype(np.float32)
    return _perturb(c8.astype(np.float32) / 127.5 - 1.0, mf[..., None], eps, gamma, cfg)


def postprocess(restored: np.ndarray, original: np.ndarray, mask: np.ndarray, seed: int,
                cfg: PostProcessConfig = PostProcessConfig()) -> np.ndarray:
    """Apply Table 4 post-processing to ``restored`` inside ``mask``; outside, return ``original`` pixels.

    ``restored`` is the flat restoration (``uint8 (H, W, 3)``), ``original`` the
    PHI-overlaid input ``x̃`` whose pixels are kept outside the mask. Returns a
    new ``uint8`` image; deterministic for a given ``seed``. With
    ``cfg.scope == "paper"`` the perturbations and the JPEG round trip reach
    past the mask as the paper's equations do (see the module docstring).
    """
    restored, original = as_rgb(restored), as_rgb(original)
    mask = check_mask(mask, original)
    if restored.shape != original.shape:
        raise ValueError(f"restored {restored.shape} and original {original.shape} differ")
    if not mask.any():
        return original.copy()
    rng = np.random.default_rng(int(seed) & 0xFFFFFFFFFFFFFFFF)
    if cfg.scope == "paper":
        return _postprocess_paper(composite(original, mask, restored), mask, rng, cfg)
    # Work on the mask's bounding box plus a margin: same result inside the
    # mask as on the whole image (the margin covers the blur support), much
    # cheaper on large images.
    ys, xs = np.nonzero(mask)
    margin = int(np.ceil(3 * max(cfg.feather_sigma, cfg.blur_sigma))) + 8
    y0, y1 = max(0, ys.min() - margin), min(mask.shape[0], ys.max() + 1 + margin)
    x0, x1 = max(0, xs.min() - margin), min(mask.shape[1], xs.max() + 1 + margin)
    c = restored[y0:y1, x0:x1].astype(np.float32) / 127.5 - 1.0
    m = mask[y0:y1, x0:x1]
    mf = feathered_mask(m, cfg.feather_sigma, cfg.edge_band)[..., None]
    eps = rng.standard_normal(m.shape, dtype=np.float32)[..., None] * np.float32(cfg.grain)
    gamma = (1.0 + rng.standard_normal(3) * cfg.jitter_std).astype(np.float32)
    w8 = _perturb(c, mf, eps, gamma, cfg)
    full = restored.copy()
    full[y0:y1, x0:x1] = w8
    return composite(original, mask, full)
