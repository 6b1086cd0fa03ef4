"""Evidence under the mask: benchmark items whose answer depends on pixels the PHI overlay partly covers.

The ordinary built-in questions ask about what lies well away from the
burned-in text, so black fill and restoration tie on utility. These items put
the evidence where sanitization has to act: a phantom lesion half under one
line of burned-in PHI (or, for the "no" answers, nothing there at all), with a
lesion question whose answer depends on it. Black fill hides the covered part
under a box; a restoration has to continue what the uncovered part shows.

Construction, per item (deterministic in ``(split, index, seed, size)``):

1. a phantom with no lesions and a synthetic manifest;
2. the overlay is laid out once (its layout depends on the manifest and the
   overlay seed, not on the pixels) to learn where one PHI line will sit;
3. with probability ½ a lesion is drawn so that its disc straddles that line's
   box: 15–70 % of the disc under the overlay (text and backing boxes of the
   final image), so part of it always stays visible; the lesion may sit
   outside the body — it is a bright, rimmed blob either way;
4. the overlay is burned in for real over the final image, with the same seed.

Every sample carries ``provenance["evidence_under_mask"] = True`` with the
covered fraction, so the grid can report utility on these items apart from
the rest (:func:`clinx.eval.report.evidence_rows`).
"""

from __future__ import annotations

import numpy as np

from clinx.data.builtin import split_rng
from clinx.data.fakephi import make_manifest
from clinx.data.inject import inject_image, inject_question_detailed
from clinx.data.phantoms import _ellipse, make_phantom
from clinx.data.questions import make_question
from clinx.records import Sample

#: Question families an evidence item asks (both depend on whether the lesion is there).
EVIDENCE_FAMILIES = ("lesion_any", "lesion_side")
#: Share of the lesion disc that must lie inside the PHI line's box: partly, not wholly, covered.
COVER_RANGE = (0.15, 0.70)


def _disc(shape: tuple[int, int], cx: float, cy: float, r: float) -> np.ndarray:
    yy, xx = np.mgrid[: shape[0], : shape[1]]
    return (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r


def _box_mask(shape: tuple[int, int], box) -> np.ndarray:
    m = np.zeros(shape, bool)
    x0, y0, x1, y1 = box
    m[max(0, y0) : y1, max(0, x0) : x1] = True
    return m


def _candidate(rng: np.random.Generator, boxes: list, size: int):
    """A lesion ``(cx, cy, r)`` next to one of ``boxes`` (centre within half a radius of its edge), or ``None``."""
    box = boxes[int(rng.integers(len(boxes)))]
    x0, y0, x1, y1 = box
    r = rng.uniform(0.035, 0.06) * size
    cx = rng.uniform(min(x0 + r, x1), max(x0 + r, x1 - r)) if x1 - x0 > 2 * r else (x0 + x1) / 2
    below = y1 + r < size - 2
    cy = y1 + r * rng.uniform(-0.2, 0.5) if below else y0 - r * rng.uniform(-0.2, 0.5)
    if not (r < cx < size - r and r < cy < size - r):
        return None
    return float(cx), float(cy), float(r)


def _covered(disc: np.ndarray, inj) -> float:
    """Share of ``disc`` under the overlay: inside a PHI line's box, a label's box or a backing box."""
    cover = np.zeros(disc.shape, bool)
    for box in [d.box for d in inj.drawn] + [t.box for t in inj.nonphi_texts] + list(inj.backings):
        cover |= _box_mask(disc.shape, tuple(int(v) for v in box))
    return float((disc & cover).sum() / max(1, disc.sum()))


def _draw_lesion(clean: np.ndarray, cx: float, cy: float, r: float, rng: np.random.Generator) -> np.ndarray:
    canvas = clean[:, :, 0].astype(np.float32)
    _ellipse(canvas, cx, cy, r * 1.15, r * 1.15, 0, 40)  # the phantoms' dark rim, then the bright lesion
    _ellipse(canvas, cx, cy, r, r * rng.uniform(0.8, 1.0), rng.uniform(0, 180), rng.uniform(235, 255))
    return np.repeat(np.clip(canvas, 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)


def build_evidence_sample(split: str, index: int, seed: int = 0, size: int = 512) -> Sample:
    """The ``index``-th evidence-under-the-mask item of ``split`` (see the module docstring)."""
    base_rng = split_rng(split, seed, index, "evidence-base")
    clean = make_phantom(base_rng, size, n_lesions=0).image
    manifest = make_manifest(split_rng(split, seed, index, "manifest"))
    overlay_seed = int(split_rng(split, seed, index, "overlay").integers(2**62))
    layout = inject_image(clean, manifest, overlay_seed)
    boxes = [tuple(int(v) for v in d.box) for d in layout.drawn]
    want = bool(boxes) and base_rng.random() < 0.5
    placed, image, inj = None, clean, None
    for _ in range(40 if want else 0):
        cand = _candidate(base_rng, boxes, size)
        if cand is None:
            continue
        drawn = _draw_lesion(clean, *cand, base_rng)
        trial = inject_image(drawn, manifest, overlay_seed)  # backing boxes depend on the pixels: check the real one
        covered = _covered(_disc(clean.shape[:2], *cand), trial)
        if COVER_RANGE[0] <= covered <= COVER_RANGE[1]:
            placed, image, inj = (*cand, covered), drawn, trial
            break
    present = placed is not None
    if inj is None:
        inj = layout
    side = ("left" if placed[0] < size / 2 else "right") if present else None
    facts = {"modality": "phantom", "region": "abdomen", "plane": "axial", "lesion_count": int(present),
             "lesion_left": side == "left", "lesion_right": side == "right"}
    qrng = split_rng(split, seed, index, "question")
    question = make_question(facts, qrng, family=EVIDENCE_FAMILIES[int(qrng.integers(len(EVIDENCE_FAMILIES)))])
    iq = inject_question_detailed(question.text, manifest, split_rng(split, seed, index, "question-phi"))
    from clinx.data.benchmark import _injection_provenance, sample_id

    covered_glyphs = 0.0
    if present:
        disc = _disc(inj.mask.shape, placed[0], placed[1], placed[2])
        covered_glyphs = float((disc & inj.mask).sum() / max(1, disc.sum()))
    provenance = {
        "base_source": "phantom",
        "split": split,
        "seed": int(seed),
        "index": int(index),
        "size": int(size),
        "facts": facts,
        "question_family": question.family,
        "evidence_under_mask": True,
        "evidence_lesion_present": bool(present),
        # Geometry only (no PHI): how much of the lesion the PHI line's box and its glyphs cover.
        "evidence_covered_box": round(placed[3], 3) if present else 0.0,
        "evidence_covered_glyphs": round(covered_glyphs, 3),
        **_injection_provenance(iq, inj),
    }
    return Sample(
        id=sample_id(split, seed, index) + "-ev",
        image=inj.image, question=iq.text, answer=question.answer, answer_type=question.answer_type,
        manifest=manifest, mask=inj.mask, provenance=provenance, clean_image=image, background=inj.background,
        clean_question=question.text, nonphi_mask=inj.nonphi_mask,
        nonphi_texts=tuple(t.text for t in inj.nonphi_texts),
    )


__all__ = ["COVER_RANGE", "EVIDENCE_FAMILIES", "build_evidence_sample"]
