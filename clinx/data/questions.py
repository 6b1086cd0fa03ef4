"""Questions whose answers are grounded in a base item's known facts.

A fact dict (see :mod:`clinx.data.builtin`) holds ``modality``, ``region``,
``plane`` and, for phantoms, ``lesion_count`` / ``lesion_left`` /
``lesion_right``. Each question family below applies only when the facts it
needs are present, so no question is asked that the data cannot answer.

Answers use a small lowercase vocabulary in the style of VQA-RAD / SLAKE
(``yes``/``no``, ``ct``, ``mri``, ``x-ray``, digits for counts) so exact match
is meaningful. Closed questions are balanced: for yes/no families the asked
value is the true one or a distractor with equal probability.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

#: How each modality is named inside a question ("Is this {phrase}?").
MODALITY_PHRASES = {
    "x-ray": "an X-ray",
    "ct": "a CT scan",
    "mri": "an MRI",
    "ultrasound": "an ultrasound image",
    "fundus photograph": "a fundus photograph",
    "nuclear medicine": "a nuclear medicine scan",
    "phantom": "a synthetic phantom image",
}
REGIONS = ("chest", "leg", "shoulder", "head", "abdomen", "heart", "eye", "whole body")
PLANES = ("axial", "coronal")


@dataclass(frozen=True)
class Question:
    text: str
    answer: str
    answer_type: str  # "closed" | "open"
    family: str


def _pick(rng: np.random.Generator, options):
    return options[int(rng.integers(len(options)))]


def _yes_no(rng, truth: str, pool) -> tuple[str, str]:
    """Ask about the true value or a distractor with equal odds; return (asked, answer)."""
    if rng.random() < 0.5:
        return truth, "yes"
    others = [p for p in pool if p != truth]
    return _pick(rng, others), "no"


def _modality_closed(f, rng):
    asked, ans = _yes_no(rng, f["modality"], list(MODALITY_PHRASES))
    return Question(f"Is this {MODALITY_PHRASES[asked]}?", ans, "closed", "modality_closed")


def _modality_open(f, rng):
    t = _pick(rng, ("What imaging modality is shown?", "What type of imaging is this?", "Which imaging modality was used?"))
    return Question(t, f["modality"], "open", "modality_open")


def _region_closed(f, rng):
    asked, ans = _yes_no(rng, f["region"], list(REGIONS))
    phrase = "the whole body" if asked == "whole body" else f"the {asked}"
    t = _pick(rng, ("Is this an image of {r}?", "Does this image show {r}?"))
    return Question(t.format(r=phrase), ans, "closed", "region_closed")


def _region_open(f, rng):
    t = _pick(rng, ("Which body region is shown?", "What part of the body is shown?", "Which organ or region is imaged?"))
    return Question(t, f["region"], "open", "region_open")


def _plane_closed(f, rng):
    asked, ans = _yes_no(rng, f["plane"], list(PLANES))
    return Question(f"Is this an {asked} image?" if asked[0] in "aeiou" else f"Is this a {asked} image?", ans, "closed", "plane_closed")


def _plane_open(f, rng):
    return Question(_pick(rng, ("In which plane is this image acquired?", "What is the imaging plane?")), f["plane"], "open", "plane_open")


def _lesion_any(f, rng):
    t = _pick(rng, ("Is there a lesion?", "Are any lesions visible?", "Is there a focal lesion in this image?"))
    return Question(t, "yes" if f["lesion_count"] > 0 else "no", "closed", "lesion_any")


def _lesion_side(f, rng):
    side = _pick(rng, ("left", "right"))
    ans = "yes" if f[f"lesion_{side}"] else "no"
    return Question(f"Is there a lesion in the {side} half of the image?", ans, "closed", "lesion_side")


def _lesion_multi(f, rng):
    return Question("Is there more than one lesion?", "yes" if f["lesion_count"] > 1 else "no", "closed", "lesion_multi")


def _lesion_count(f, rng):
    t = _pick(rng, ("How many lesions are visible?", "How many lesions are there?"))
    return Question(t, str(int(f["lesion_count"])), "open", "lesion_count")


def _lesion_where(f, rng):
    return Question("On which side of the image is the lesion?", "left" if f["lesion_left"] else "right", "open", "lesion_where")


def _has(*keys) -> Callable[[dict], bool]:
    return lambda f: all(f.get(k) not in (None, "") for k in keys)


#: family -> (applies(facts), make(facts, rng))
FAMILIES: dict[str, tuple[Callable[[dict], bool], Callable]] = {
    "modality_closed": (_has("modality"), _modality_closed),
    "modality_open": (_has("modality"), _modality_open),
    "region_closed": (_has("region"), _region_closed),
    "region_open": (_has("region"), _region_open),
    "plane_closed": (lambda f: f.get("plane") in PLANES, _plane_closed),
    "plane_open": (lambda f: f.get("plane") in PLANES, _plane_open),
    "lesion_any": (_has("lesion_count"), _lesion_any),
    "lesion_side": (_has("lesion_count"), _lesion_side),
    "lesion_multi": (_has("lesion_count"), _lesion_multi),
    "lesion_count": (_has("lesion_count"), _lesion_count),
    "lesion_where": (lambda f: f.get("lesion_count") == 1, _lesion_where),
}


def applicable_families(facts: dict) -> list[str]:
    """Question families the facts can answer."""
    return [name for name, (ok, _) in FAMILIES.items() if ok(facts)]


def make_question(facts: dict, rng: np.random.Generator, family: str | None = None) -> Question:
    """One grounded question for ``facts``; a random applicable family unless one is named.

    Phantoms carry lesion facts; three in four of their questions are about lesions
    (the part a phantom can ground best), the rest about modality/region.
    """
    fams = applicable_families(facts)
    if not fams:
        raise ValueError("no question family applies to these facts")
    if family is None:
        lesion = [f for f in fams if f.startswith("lesion")]
        if lesion and rng.random() < 0.75:
            fams = lesion
        family = _pick(rng, fams)
    elif family not in fams:
        raise ValueError(f"question family {family!r} does not apply to these facts")
    return FAMILIES[family][1](facts, rng)
