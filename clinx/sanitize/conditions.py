"""Image conditions: what the sanitizer does inside the PHI mask.

Every condition takes the PHI-overlaid image ``x̃`` (``uint8 (H, W, 3)``) and
its PHI mask ``m`` (``bool (H, W)``) and returns ``x̂``. The one rule every
condition obeys — the composite rule of the ClinX paper (§3.2), the way LaMa
does it — is ``x̂ = ŷ ⊙ m + x̃ ⊙ (1 − m)``: pixels outside the mask leave the
condition bit-identical to the input. :func:`composite` implements it and the
runner re-checks it on every item (fail closed), so a condition that paints
outside its mask is quarantined instead of released.

Conditions are looked up by name in :data:`CONDITIONS`:

* ``raw`` — the PHI-overlaid image unchanged (the baseline the attack must beat);
* ``blackout`` — fill of the mask (black by default); ``ocr`` is the ClinX
  paper's name for it and stays registered as an alias (the same condition,
  fingerprinted as ``blackout``);
* ``gskip``, ``prism``, ``prism_flat`` — generative restoration, implemented in
  :mod:`clinx.restore.condition` and registered here *lazily* so importing the
  sanitizer never imports torch.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

import numpy as np

from clinx.records import as_rgb, check_mask
from clinx.registry import Registry, lazy

__all__ = [
    "CONDITIONS",
    "Condition",
    "RawCondition",
    "BlackFillCondition",
    "composite",
    "outside_mask_changed",
    "get_condition",
]


def composite(image: np.ndarray, mask: np.ndarray, pred: np.ndarray) -> np.ndarray:
    """``pred`` inside ``mask``, ``image`` everywhere else (a new array).

    ``image`` and ``pred`` are ``uint8 (H, W, 3)`` of the same shape; ``mask``
    is ``bool (H, W)``. Restoration conditions call this last so that the
    network can never alter a pixel the localizer did not select.
    """
    image = as_rgb(image)
    mask = check_mask(mask, image)
    pred = np.asarray(pred)
    if pred.shape != image.shape:
        raise ValueError(f"prediction shape {pred.shape} does not match image {image.shape}")
    out = image.copy()
    out[mask] = pred[mask].astype(np.uint8, copy=False)
    return out


def outside_mask_changed(image: np.ndarray, mask: np.ndarray, out: np.ndarray) -> int:
    """Number of pixels outside ``mask`` where ``out`` differs from ``image`` (0 when the composite rule holds)."""
    if out.shape != image.shape:
        return int(image.shape[0] * image.shape[1])
    diff = np.any(out != image, axis=2)
    return int(np.count_nonzero(diff & ~mask))


class Condition(ABC):
    """One way of sanitizing the masked region.

    Subclasses implement :meth:`apply`; :meth:`apply_batch` defaults to a loop
    and is overridden by conditions that gain from batching (networks).
    ``seed`` makes stochastic conditions reproducible per item: the same input,
    mask and seed must give the same output.
    """

    name: str = ""
    #: Whether the runner must localize PHI first (``raw`` ignores the mask).
    needs_mask: bool = True
    #: Whether pixels outside the mask stay bit-identical; the sanitizer
    #: checks it on every output unless a condition declares otherwise.
    keeps_outside_mask: bool = True

    @abstractmethod
    def apply(self, image: np.ndarray, mask: np.ndarray, *, seed: int = 0) -> np.ndarray:
        """Return the sanitized image (a new ``uint8 (H, W, 3)`` array; the input is not modified)."""

    def apply_batch(
        self, images: Sequence[np.ndarray], masks: Sequence[np.ndarray], seeds: Sequence[int] | None = None
    ) -> list[np.ndarray]:
        """Sanitize several images; images may have different sizes."""
        if len(images) != len(masks):
            raise ValueError(f"{len(images)} images but {len(masks)} masks")
        seeds = list(seeds) if seeds is not None else [0] * len(images)
        if len(seeds) != len(images):
            raise ValueError(f"{len(images)} images but {len(seeds)} seeds")
        return [self.apply(im, m, seed=s) for im, m, s in zip(images, masks, seeds)]

    def params(self) -> dict:
        """Settings that change the output (used to key resume records and caches)."""
        return {}

    def fingerprint(self) -> str:
        """``name`` plus :meth:`params`, stable across runs."""
        p = self.params()
        inner = ",".join(f"{k}={p[k]}" for k in sorted(p))
        return f"{self.name}({inner})"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.fingerprint()}>"


class RawCondition(Condition):
    """The PHI-overlaid image as it is: the no-protection baseline."""

    name = "raw"
    # Nothing is removed, so the runner need not OCR the image to build a mask.
    needs_mask = False

    def apply(self, image: np.ndarray, mask: np.ndarray, *, seed: int = 0) -> np.ndarray:
        image = as_rgb(image)
        check_mask(mask, image)
        return image.copy()


class BlackFillCondition(Condition):
    """OCR-guided blackout: every masked pixel set to ``fill`` (black by default)."""

    name = "blackout"

    def __init__(self, fill: int | Sequence[int] = 0):
        fill_arr = np.broadcast_to(np.asarray(fill, dtype=np.int64), (3,))
        if np.any(fill_arr < 0) or np.any(fill_arr > 255):
            raise ValueError(f"fill must be within 0..255, got {fill!r}")
        self.fill = tuple(int(v) for v in fill_arr)

    def params(self) -> dict:
        return {"fill": self.fill}

    def apply(self, image: np.ndarray, mask: np.ndarray, *, seed: int = 0) -> np.ndarray:
        image = as_rgb(image)
        mask = check_mask(mask, image)
        out = image.copy()
        out[mask] = np.asarray(self.fill, dtype=np.uint8)
        return out


#: Condition name -> factory (a class or a lazy importer) returning a :class:`Condition`.
CONDITIONS: Registry = Registry("condition")
CONDITIONS.register("raw", RawCondition)
CONDITIONS.register("blackout", BlackFillCondition)
# The paper calls black fill "ocr" (OCR-guided blackout); the alias keeps its tables reproducible.
CONDITIONS.register("ocr", BlackFillCondition)
# Restoration conditions live with the networks; importing them pulls in torch,
# so they are resolved only when asked for by name.
CONDITIONS.register("gskip", lazy("clinx.restore.condition", "GSkipCondition"))
CONDITIONS.register("prism", lazy("clinx.restore.condition", "PrismCondition"))
CONDITIONS.register("prism_flat", lazy("clinx.restore.condition", "PrismFlatCondition"))
#: The conditions that run a trained generator (they take ``checkpoint=`` / ``checkpoint_dir=``).
RESTORING_CONDITIONS = ("prism", "prism_flat", "gskip")


def get_condition(name: str, **params) -> Condition:
    """Build the condition registered as ``name`` with its parameters (e.g. ``fill=0``, ``checkpoint=...``).

    Raises ``KeyError`` listing the known names for an unknown condition.
    """
    cond = CONDITIONS.get(name)(**params)
    # Duck-typed on purpose: plug-in conditions should subclass Condition, but
    # anything with apply/apply_batch works with the runner.
    if not (callable(getattr(cond, "apply", None)) and callable(getattr(cond, "apply_batch", None))):
        raise TypeError(f"condition {name!r} built a {type(cond).__name__} without apply/apply_batch")
    if not getattr(cond, "name", ""):
        cond.name = name
    return cond
