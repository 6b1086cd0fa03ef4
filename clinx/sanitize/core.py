"""The one sanitization core: localize → condition → outside-mask re-check → verify.

``clinx sanitize`` (:mod:`clinx.sanitize.runner`), the evaluation grid, the
leakage and restoration benchmarks and the release pipeline all sanitize an
image through :func:`sanitize_frames` (one item) or :func:`sanitize_batch`
(several items, the condition batched across them — restoration networks
gain from that). There is one code path: ``sanitize_frames`` is a batch of
one. So the pixels a benchmark scores are the pixels ``clinx sanitize``
releases.

Per item the stages are:

1. **localize** — the localizer (:class:`clinx.localize.PhiLocalizer`: OCR →
   manifest and identifier-pattern matches → PHI mask) runs on every frame;
   a condition that ignores the mask (``raw``) skips it. Precomputed masks
   (the grid's mask cache) skip it as well.
2. **condition** — ``condition.apply_batch`` over all frames of all items,
   each frame seeded with :func:`seed_for` (same item, same seed, whatever the
   batch); when the batch call fails, items are retried one by one so one
   bad item cannot sink its batch.
3. **check** — every output must be ``uint8`` of the input's shape and equal
   to the input outside the mask (the composite rule).
4. **verify** — the verifier (by default the *other* OCR engine, at the same
   localize settings: manifest + patterns) re-reads every output; any match
   left is a residual and the item is not released.

Failures never raise: the item comes back with ``released=False``, the
``stage`` that failed and a PHI-safe ``reason`` (:func:`clinx.errors.safe_reason`).
What each engine read is counted per field (``reads`` for the localizer,
``verification`` for the verifier) — field names and counts, never values.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

import numpy as np

from clinx.errors import ItemError, safe_reason
from clinx.records import Manifest, text_digest
from clinx.sanitize.conditions import outside_mask_changed

__all__ = [
    "STAGES",
    "SanitizedItem",
    "FrameJob",
    "seed_for",
    "manifest_digest",
    "engine_name",
    "part_fingerprint",
    "independent_engine_name",
    "independent_verifier",
    "verifier_list",
    "sanitize_frames",
    "sanitize_batch",
]

#: Stages an item goes through; a quarantined item names the one that failed.
STAGES = ("read", "manifest", "localize", "ocr", "condition", "verify", "write")


@dataclass
class SanitizedItem:
    """What the core did with one item.

    ``outputs`` are the sanitized frames (``uint8 (H, W, 3)``), or ``None``
    when the condition did not run or failed; ``masks`` the PHI masks (one per
    frame); ``localizations`` the localizer's results per frame (empty when no
    localization ran). ``reads`` counts, per engine, the matches the masks were
    built from, by field (``{"rapidocr": {"patient_name": 2, "pattern:DATE": 1}}``);
    ``verification`` counts each verifier's residual matches the same way
    (``{"easyocr": {}}`` = verified, nothing left). ``words`` counts the OCR
    detections each engine read, by role (``{"localize/rapidocr": 21, "verify/easyocr": 19}``). ``modes`` are the localizer modes actually
    used per frame (``"patterns"`` when there was no manifest to match).
    ``released`` is true only when every stage passed; otherwise ``stage`` and
    ``reason`` (PHI-safe) say why not.
    """

    item: str
    outputs: list[np.ndarray] | None = None
    masks: list[np.ndarray] | None = None
    localizations: list = field(default_factory=list)
    reads: dict[str, dict[str, int]] = field(default_factory=dict)
    verification: dict[str, dict[str, int]] = field(default_factory=dict)
    words: dict[str, int] = field(default_factory=dict)
    modes: list[str] = field(default_factory=list)
    released: bool = False
    stage: str = ""
    reason: str = ""

    @property
    def failed(self) -> bool:
        """True once a stage has failed (``stage`` and ``reason`` are set)."""
        return bool(self.reason)

    @property
    def masked_pixels(self) -> int:
        """Pixels inside the PHI masks, over all frames."""
        return int(sum(int(np.count_nonzero(m)) for m in self.masks or ()))


@dataclass
class FrameJob:
    """One item handed to :func:`sanitize_batch`: its frames, manifest (``None`` = none), safe label and optional precomputed masks."""

    frames: list[np.ndarray]
    manifest: Manifest | None
    item: str
    masks: list[np.ndarray] | None = None


def seed_for(item: str, frame: int, base_seed: int) -> int:
    """The per-item, per-frame seed of stochastic conditions: same item, same seed, whatever the batch order."""
    h = hashlib.sha256(f"{base_seed}\x00{item}\x00{frame}".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(h[:4], "little")


def manifest_digest(manifest: Manifest | None) -> str:
    """A PHI-free content hash of a manifest (resume and cache keys); ``""`` for no manifest."""
    if manifest is None:
        return ""
    return text_digest(json.dumps(manifest.to_dict(), sort_keys=True, ensure_ascii=False))


def engine_name(localizer) -> str:
    """The OCR engine's registry name behind a localizer (``"rapidocr"``), for per-engine counts.

    A pool of localizers (``wrapped``: its first instance) is named after that instance.
    """
    localizer = getattr(localizer, "wrapped", localizer)
    engine = getattr(localizer, "engine", None)
    name = getattr(engine, "name", "") if engine is not None else ""
    return str(name or type(engine if engine is not None else localizer).__name__)


def part_fingerprint(part) -> str:
    """A stable identity of a pluggable part (condition, localizer, engine) for resume keys.

    ``part.fingerprint()`` when it has one (:mod:`clinx.fingerprint`: settings,
    code and version); otherwise the class's fingerprint plus the part's
    ``repr`` (which for :class:`~clinx.localize.PhiLocalizer` names the engine
    and settings) unless that repr is only a memory address. ``None`` gives ``""``.
    """
    if part is None:
        return ""
    fp = getattr(part, "fingerprint", None)
    if callable(fp):
        return str(fp())
    try:
        from clinx.fingerprint import fingerprint_of

        base = str(fingerprint_of(part))
    except ImportError:
        base = f"{type(part).__module__}.{type(part).__qualname__}"
    text = repr(part)
    return base if " at 0x" in text else f"{base}|{text}"


def independent_engine_name(name: str) -> str:
    """The OCR engine that verifies masks built with engine ``name`` (the *other* engine, :func:`clinx.ocr.independent_engine`)."""
    from clinx.errors import ConfigError
    from clinx.ocr import independent_engine

    try:
        return str(independent_engine(name))
    except KeyError:
        raise ConfigError(f"no independent verification engine is known for OCR engine {name!r}; set verify_engine") from None


def independent_verifier(localizer, *, cache: bool = True, **engine_params):
    """A copy of ``localizer`` (same settings: mode, threshold, patterns…) reading with the other OCR engine.

    A localizer without a named engine (a test double) is returned as it is:
    it then verifies itself.
    """
    import copy

    engine = getattr(localizer, "engine", None)
    name = getattr(engine, "name", "") if engine is not None else ""
    if not name:
        return localizer
    from clinx.ocr import get_engine

    verifier = copy.copy(localizer)
    verifier.engine = get_engine(independent_engine_name(str(name)), cache=cache, **engine_params)
    return verifier


def _fail(res: SanitizedItem, exc: BaseException | str, stage: str, manifest: Manifest | None) -> None:
    if isinstance(exc, ItemError) and exc.stage:
        stage = exc.stage
    res.stage = stage or "unknown"
    res.reason = safe_reason(exc, manifest)
    res.released = False
    res.outputs = None


def _mode_used(loc, localizer, manifest: Manifest | None) -> str:
    mode = getattr(loc, "mode_used", None)
    if mode:
        return str(mode)
    mode = str(getattr(localizer, "mode", "") or "manifest")
    # A manifest+patterns localizer with nothing to match runs its patterns only.
    if "patterns" in mode and not manifest:
        return "patterns"
    return mode


def _localize(job: FrameJob, res: SanitizedItem, localizer, needs_mask: bool) -> None:
    if job.masks is not None:
        masks = [np.asarray(m, dtype=bool) for m in job.masks]
        if len(masks) != len(job.frames) or any(m.shape != f.shape[:2] for m, f in zip(masks, job.frames)):
            raise ItemError(job.item, "precomputed masks do not fit the frames", stage="localize")
        res.masks = masks
        return
    if not needs_mask:
        res.masks = [np.zeros(f.shape[:2], bool) for f in job.frames]
        return
    if localizer is None:
        raise ItemError(job.item, "the condition needs a PHI mask but no localizer was given", stage="localize")
    name = engine_name(localizer)
    counts: Counter = Counter()
    words = 0
    masks = []
    for frame in job.frames:
        loc = localizer.locate(frame, job.manifest, item=job.item)
        mask = np.asarray(loc.mask, dtype=bool)
        if mask.shape != frame.shape[:2]:
            raise ItemError(job.item, "localizer returned a mask of the wrong shape", stage="localize")
        masks.append(mask)
        res.localizations.append(loc)
        res.modes.append(_mode_used(loc, localizer, job.manifest))
        counts.update(str(getattr(m, "field", "unknown")) for m in getattr(loc, "matches", ()) or ())
        words += len(getattr(loc, "detections", ()) or ())
    res.masks = masks
    res.reads[name] = dict(sorted(counts.items()))
    res.words[f"localize/{name}"] = words


def _condition(pairs: list[tuple[FrameJob, SanitizedItem]], condition, base_seed: int) -> None:
    images, masks, seeds, owners = [], [], [], []
    for job, res in pairs:
        res.outputs = []
        for i, (f, m) in enumerate(zip(job.frames, res.masks)):
            images.append(f)
            masks.append(m)
            seeds.append(seed_for(job.item, i, base_seed))
            owners.append(res)
    if not images:
        return
    try:
        outs = condition.apply_batch(images, masks, seeds)
        if len(outs) != len(images):
            raise RuntimeError("condition returned the wrong number of images")
        for res, o in zip(owners, outs):
            res.outputs.append(o)
    except Exception:  # noqa: BLE001
        # One bad item must not quarantine its whole batch: retry one by one.
        for job, res in pairs:
            try:
                res.outputs = [
                    condition.apply(f, m, seed=seed_for(job.item, i, base_seed))
                    for i, (f, m) in enumerate(zip(job.frames, res.masks))
                ]
            except Exception as exc:  # noqa: BLE001
                _fail(res, exc, "condition", job.manifest)


def _check(job: FrameJob, res: SanitizedItem, keeps_outside_mask: bool = True) -> None:
    outs = []
    for f, m, o in zip(job.frames, res.masks, res.outputs):
        o = np.asarray(o)
        if o.dtype != np.uint8 or o.shape != f.shape:
            raise ItemError(job.item, "condition returned an image of the wrong shape or type", stage="condition")
        changed = outside_mask_changed(f, m, o) if keeps_outside_mask else 0
        if changed:
            raise ItemError(job.item, f"condition changed {changed} pixels outside the PHI mask", stage="condition")
        outs.append(o)
    res.outputs = outs


def verifier_list(verifier) -> list:
    """``verifier`` as a list of verifiers, one per OCR engine (``None`` → none)."""
    if verifier is None:
        return []
    return list(verifier) if isinstance(verifier, (list, tuple)) else [verifier]


def _verify(job: FrameJob, res: SanitizedItem, verifiers: list) -> None:
    leaked = []
    for verifier in verifiers:
        name = engine_name(verifier)
        residual: Counter = Counter()
        words = 0
        for o in res.outputs:
            loc = verifier.locate(o, job.manifest, item=job.item)
            residual.update(str(getattr(m, "field", "unknown")) for m in getattr(loc, "matches", ()) or ())
            words += len(getattr(loc, "detections", ()) or ())
        res.verification[name] = dict(sorted(residual.items()))
        res.words[f"verify/{name}"] = words
        if residual:
            leaked.append((name, residual))
    if leaked:
        fields = Counter()
        for _, residual in leaked:
            fields.update(residual)
        who = " and ".join(name for name, _ in leaked)
        raise ItemError(
            job.item,
            f"{who} still reads PHI after sanitizing ({sum(fields.values())} match(es) in fields: {', '.join(sorted(fields))})",
            stage="verify",
        )


def _guard(fn: Callable[[], None], job: FrameJob, res: SanitizedItem, stage: str) -> None:
    """Run one stage; any exception fails the item closed instead of propagating."""
    if res.failed:
        return
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - fail closed on anything
        _fail(res, exc, stage, job.manifest)


def sanitize_batch(
    jobs: Sequence[FrameJob],
    condition,
    localizer,
    verifier=None,
    *,
    seed: int,
    each: Callable[[Callable, Iterable], Iterable] | None = None,
) -> list[SanitizedItem]:
    """Sanitize several items; the condition runs batched across all their frames.

    ``localizer`` and ``verifier`` need ``locate(image, manifest, *, item)``
    returning an object with ``mask``, ``matches`` (each with ``field``) and
    ``detections``; ``verifier`` may be a list of verifiers with different
    engines (every one must read nothing); ``verifier=None`` skips
    verification. ``each(fn, jobs)``
    maps the OCR stages (localize, check + verify) over items — the runner
    passes a thread pool's ``map``; the default is sequential. Returns one
    :class:`SanitizedItem` per job, in order; failures are recorded on the
    item, never raised.
    """
    mapper = each or (lambda fn, xs: [fn(x) for x in xs])
    verifiers = verifier_list(verifier)
    needs_mask = getattr(condition, "needs_mask", True)
    # Only the paper-scope post-processing declares False (issue 13).
    keeps_outside = getattr(condition, "keeps_outside_mask", True)
    pairs = [(job, SanitizedItem(item=job.item)) for job in jobs]

    def stage_localize(pair):
        job, res = pair
        _guard(lambda: _localize(job, res, localizer, needs_mask), job, res, "localize")

    list(mapper(stage_localize, pairs))
    ready = [(job, res) for job, res in pairs if not res.failed]
    _condition(ready, condition, int(seed))

    def stage_check_verify(pair):
        job, res = pair
        _guard(lambda: _check(job, res, keeps_outside), job, res, "condition")
        if verifiers:
            _guard(lambda: _verify(job, res, verifiers), job, res, "verify")
        if not res.failed:
            res.released = True

    list(mapper(stage_check_verify, ready))
    return [res for _, res in pairs]


def sanitize_frames(
    frames: list[np.ndarray],
    manifest: Manifest | None,
    condition,
    localizer,
    verifier=None,
    *,
    item: str,
    seed: int,
    masks: list[np.ndarray] | None = None,
) -> SanitizedItem:
    """Sanitize the frames of one item: localize → condition → outside-mask re-check → verify.

    ``manifest`` may be ``None`` (no manifest: a ``manifest+patterns``
    localizer then runs its identifier patterns only; a ``manifest``-mode
    localizer fails the item closed). ``item`` is a PHI-safe label used in
    errors and as the seed's key; ``seed`` is the run's base seed
    (:func:`seed_for` derives each frame's). ``masks`` skips localization
    with precomputed masks (the grid's cache). ``verifier=None`` skips
    verification. Never raises for a per-item failure: see
    :class:`SanitizedItem` (``released``, ``stage``, ``reason``).
    """
    job = FrameJob(list(frames), manifest, item, masks)
    return sanitize_batch([job], condition, localizer, verifier, seed=seed)[0]
