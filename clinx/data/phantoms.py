"""Procedural phantoms: a body of ellipses with 0..3 seeded lesions.

Real scans that ship with pydicom cannot answer "how many lesions?" — a
phantom can, because we drew them. Every phantom therefore comes with the
facts needed for grounded questions: lesion count and on which half of the
image (as displayed, not patient anatomy) each lesion lies.

Lesions are kept clear of the vertical midline so that "left half / right
half" always has exactly one correct answer, and clear of each other so a
count is unambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

#: Most lesions a phantom carries; counting questions answer in ``0..MAX_LESIONS``.
MAX_LESIONS = 3


@dataclass(frozen=True)
class Lesion:
    """One drawn lesion: centre and radius in output pixels, and the image half it lies in."""

    cx: float
    cy: float
    radius: float
    side: str  # "left" | "right" of the displayed image


@dataclass
class Phantom:
    image: np.ndarray  # uint8 (H, W, 3)
    lesions: list[Lesion] = field(default_factory=list)

    @property
    def facts(self) -> dict:
        sides = [l.side for l in self.lesions]
        return {
            "modality": "phantom",
            "region": "abdomen",
            "plane": "axial",
            "lesion_count": len(self.lesions),
            "lesion_left": "left" in sides,
            "lesion_right": "right" in sides,
        }


def _ellipse(canvas: np.ndarray, cx, cy, ax, ay, angle, value, shift=4) -> None:
    """Fill an ellipse with sub-pixel precision (cv2 fixed-point ``shift``)."""
    s = 1 << shift
    cv2.ellipse(
        canvas,
        (int(round(cx * s)), int(round(cy * s))),
        (max(1, int(round(ax * s))), max(1, int(round(ay * s)))),
        float(angle), 0, 360, float(value), thickness=-1, lineType=cv2.LINE_AA, shift=shift,
    )


def make_phantom(rng: np.random.Generator, size: int = 512, n_lesions: int | None = None) -> Phantom:
    """Draw one phantom of ``size``×``size`` pixels.

    ``n_lesions`` forces the lesion count (tests); by default it is drawn
    uniformly from ``0..MAX_LESIONS`` so counting questions are balanced.
    The body is an axial "abdomen": outer fat ring, soft tissue, a few organ
    ellipses and a spine, with Gaussian noise and blur so it is not trivially
    flat for restoration networks.
    """
    s = float(size)
    canvas = np.zeros((size, size), np.float32)
    cx, cy = s / 2 + rng.uniform(-0.03, 0.03) * s, s / 2 + rng.uniform(-0.03, 0.03) * s
    bx, by = rng.uniform(0.36, 0.44) * s, rng.uniform(0.28, 0.38) * s
    _ellipse(canvas, cx, cy, bx, by, rng.uniform(-4, 4), rng.uniform(150, 185))  # skin / fat
    fat = rng.uniform(0.05, 0.09)
    _ellipse(canvas, cx, cy, bx * (1 - fat), by * (1 - fat), 0, rng.uniform(95, 125))  # soft tissue
    # Organs: a "liver" on one side, a "spleen", two "kidneys" and bowel blobs.
    for _ in range(int(rng.integers(3, 7))):
        ox = cx + rng.uniform(-0.6, 0.6) * bx
        oy = cy + rng.uniform(-0.5, 0.4) * by
        _ellipse(canvas, ox, oy, rng.uniform(0.08, 0.25) * bx, rng.uniform(0.08, 0.25) * by,
                 rng.uniform(0, 180), rng.uniform(70, 140))
    # Spine: a flat grey vertebral body with a posterior process. Kept well below
    # lesion brightness and not round, so it is never mistaken for a lesion.
    vy = cy + 0.66 * by
    _ellipse(canvas, cx, vy, 0.13 * bx, 0.08 * by, 0, rng.uniform(165, 185))
    _ellipse(canvas, cx, vy + 0.13 * by, 0.025 * bx, 0.08 * by, 0, rng.uniform(165, 185))

    n = int(rng.integers(0, MAX_LESIONS + 1)) if n_lesions is None else int(n_lesions)
    if not 0 <= n <= MAX_LESIONS:
        raise ValueError(f"n_lesions must be in 0..{MAX_LESIONS}")
    lesions: list[Lesion] = []
    tries = 0
    while len(lesions) < n and tries < 500:
        tries += 1
        r = rng.uniform(0.035, 0.06) * s
        lx = cx + rng.uniform(-0.75, 0.75) * bx
        ly = cy + rng.uniform(-0.7, 0.35) * by
        # Inside the soft tissue ellipse with a margin, off the midline, apart from others.
        if ((lx - cx) / (bx * (1 - fat))) ** 2 + ((ly - cy) / (by * (1 - fat))) ** 2 > 0.55:
            continue
        if abs(lx - s / 2) < r + 0.04 * s:
            continue
        if any(np.hypot(lx - o.cx, ly - o.cy) < r + o.radius + 0.04 * s for o in lesions):
            continue
        lesions.append(Lesion(float(lx), float(ly), float(r), "left" if lx < s / 2 else "right"))
    if len(lesions) < n:  # pragma: no cover - geometry always leaves room at these sizes
        raise RuntimeError("could not place lesions")
    for les in lesions:
        # Bright, slightly irregular lesion with a dark rim: clearly countable after blur.
        _ellipse(canvas, les.cx, les.cy, les.radius * 1.15, les.radius * 1.15, 0, 40)
        _ellipse(canvas, les.cx, les.cy, les.radius, les.radius * rng.uniform(0.8, 1.0),
                 rng.uniform(0, 180), rng.uniform(235, 255))

    canvas = cv2.GaussianBlur(canvas, (0, 0), sigmaX=max(0.6, s / 400))
    canvas += rng.normal(0, rng.uniform(2, 7), canvas.shape).astype(np.float32)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    return Phantom(image=np.repeat(img[:, :, None], 3, axis=2), lesions=lesions)
