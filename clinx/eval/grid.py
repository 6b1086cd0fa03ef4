"""The privacy–utility grid (ClinX §3.4): image conditions × text levels × datasets × models.

For every item the grid evaluates the Cartesian product C_img × L_text
(``raw, ocr, gskip, prism`` × ``l0..l3`` by default), the text-only ablation
(the image left as it is — ``raw`` — and, where the data has it, the clean
image before PHI injection, while the question goes through every level),
and OCR leakage for every image condition plus the leakage-only
``prism_flat`` diagnostic.

Work is content-addressed and cached on disk (:mod:`clinx.eval.store`):

* PHI masks per (image, manifest, masker fingerprint);
* sanitized images per (image, condition fingerprint, mask, base seed,
  verifier fingerprint) — made by the sanitization core that ``clinx
  sanitize`` runs (:func:`clinx.sanitize.core.sanitize_batch`: per-item seeds
  from ``seed_for``, the outside-mask re-check, verification); an item the
  core quarantines is recorded (with its PHI-safe reason) and left out;
* sanitized questions per (question, level, manifest, text fingerprint);
* predictions per (model fingerprint, sanitized image, sanitized question) —
  so the same pixels and words are never answered twice, even across cells
  (e.g. ``raw`` in the grid and in the ablation);
* judge scores per (judge fingerprint, question, reference, prediction);
* OCR reads per (engine fingerprint, image pixels).

Every key also holds ``clinx.__version__``, and every fingerprint covers the
part's resolved settings and a digest of the code that runs it
(:mod:`clinx.fingerprint`): after an edit to a rule table, a matcher or an
engine default the affected entries miss instead of being served stale.

Each batch is written as soon as it is done, so an interrupted run resumes
where it stopped, and a rerun is pure cache reads.

A condition or level that cannot be built (a missing checkpoint, a module not
installed yet) is *reported* in :attr:`GridResult.missing` and left out —
loudly — instead of failing the whole grid; an item whose mask or text
sanitisation fails is left out of the cells that need it and listed in
:attr:`GridResult.failures` (fail closed: it is never scored on unsanitized input).
"""

from __future__ import annotations

import logging
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from clinx import __version__
from clinx.errors import ClinxError, safe_reason
from clinx.fingerprint import code_digest, fingerprint_of, make_fingerprint
from clinx.metrics.utility import score_answer
from clinx.records import Detection, Manifest, Sample, image_digest, iter_chunks, text_digest

from clinx.sanitize.core import FrameJob, manifest_digest, sanitize_batch

from .store import ImageStore, KVStore

log = logging.getLogger(__name__)

#: The paper's four primary image conditions and four text levels.
PRIMARY_CONDITIONS = ("raw", "ocr", "gskip", "prism")
TEXT_LEVELS = ("l0", "l1", "l2", "l3")
#: Pseudo-condition: the clean image before PHI injection (text-only ablation reference).
CLEAN = "clean"
#: Conditions that need no PHI mask.
MASK_FREE = {"raw", CLEAN}


@dataclass
class GridSettings:
    """What the grid evaluates (the Hydra ``grid`` node maps onto this)."""

    conditions: list[str] = field(default_factory=lambda: list(PRIMARY_CONDITIONS))
    levels: list[str] = field(default_factory=lambda: list(TEXT_LEVELS))
    leakage_only: list[str] = field(default_factory=lambda: ["prism_flat"])
    ablation: bool = True
    leakage_engines: list[str] = field(default_factory=lambda: ["rapidocr", "easyocr"])
    leakage: bool = True
    batch_size: int = 32
    judge_batch_size: int = 16
    seed: int = 0

    def image_conditions(self) -> list[str]:
        """Every image condition the grid needs images for (utility, ablation, leakage-only)."""
        out = list(dict.fromkeys(self.conditions))
        if self.ablation:
            out += [c for c in ("raw", CLEAN) if c not in out]
        out += [c for c in self.leakage_only if c not in out]
        return out

    def cells(self) -> list[tuple[str, str, str]]:
        """``(block, condition, level)`` for every utility cell: the grid, then the text-only ablation."""
        cells = [("grid", c, l) for c in self.conditions for l in self.levels]
        if self.ablation:
            cells += [("ablation", c, l) for c in ("raw", CLEAN) for l in self.levels]
        return cells


@dataclass
class GridResult:
    """Everything the reports need, with no PHI in clear.

    ``rows``: one dict per (dataset, model, block, condition, level, item) with
    ``em``, ``f1``, ``yn_em`` (``None`` off yes/no questions) and one
    ``judge/<name>`` score per judge. ``leakage``: ``{dataset: {condition:
    {engine: aggregate}}}``. ``missing``: ``{"condition/<name>" | "level/<name>":
    reason}``. ``failures``: ``[{"dataset", "item", "stage", "problem"}]``.
    ``counts``: model and judge calls and cache hits. ``image_keys``:
    ``{dataset: {condition: {item: key}}}`` into ``images`` for figures.
    """

    rows: list[dict] = field(default_factory=list)
    leakage: dict = field(default_factory=dict)
    missing: dict = field(default_factory=dict)
    failures: list[dict] = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)
    image_keys: dict = field(default_factory=dict)
    images: ImageStore | None = None
    samples: dict = field(default_factory=dict)  # dataset -> list[Sample] (in memory only, never serialised)


# --------------------------------------------------------------------------- pluggable parts


class Masker:
    """Builds PHI masks; :meth:`fingerprint` enters the mask cache key."""

    needs_ocr: bool = False

    def fingerprint(self) -> str:
        """What identifies the masks this masker builds (settings and code)."""
        return make_fingerprint(type(self).__name__, code=(__name__,))

    @property
    def id(self) -> str:
        """Deprecated alias of :meth:`fingerprint`."""
        return self.fingerprint()

    def masks(self, samples: Sequence[Sample]) -> list[np.ndarray | Exception]:
        """One bool mask (or the exception that stopped it) per sample, in order."""
        raise NotImplementedError


class TrueMasker(Masker):
    """The benchmark's ground-truth PHI mask (an oracle localizer: isolates the restoration step)."""

    def fingerprint(self) -> str:
        return "true-mask"

    def masks(self, samples):
        out: list = []
        for s in samples:
            out.append(s.mask.astype(bool) if s.mask is not None else ClinxError("sample has no true mask"))
        return out


class OCRMasker(Masker):
    """The paper's pipeline: OCR -> fuzzy match against the manifest -> dilated PHI-only mask.

    ``localizer`` is a built :class:`clinx.localize.PhiLocalizer` (the eval
    app instantiates the ``localize`` and ``ocr`` config groups); without
    one, keyword arguments are those of ``PhiLocalizer`` (``engine``,
    ``threshold``, ``dilation``, ...). The localizer's fingerprint — engine
    with its resolved settings, matching settings, code — is the mask cache key.
    """

    needs_ocr = True

    def __init__(self, localizer=None, **localizer_params):
        self.localizer_params = dict(localizer_params)
        self._loc = localizer

    def fingerprint(self) -> str:
        return "ocr-mask:" + localizer_fingerprint(self._localizer())

    def _localizer(self):
        if self._loc is None:
            from clinx.localize import PhiLocalizer

            self._loc = PhiLocalizer(**self.localizer_params)
        return self._loc

    def masks(self, samples):
        loc = self._localizer()
        out: list = []
        for s in samples:
            try:
                out.append(np.asarray(loc.locate(s.image, s.manifest, item=s.id).mask, dtype=bool))
            except Exception as exc:  # per item: the batch goes on, the item is failed closed
                out.append(exc)
        return out


class TextSanitizer:
    """``(text, level, manifest) -> sanitized text`` through one :class:`clinx.text.pipeline.TextPipeline` per level.

    ``params`` are ``TextPipeline`` keyword arguments for every level;
    ``pipelines`` maps a level (``"l2"``) to an already built pipeline (the
    eval app instantiates ``text=<level>`` from its config). Pipelines are
    built on first use. :meth:`fingerprint` (per level) enters the text cache key.
    """

    def __init__(self, params: Mapping | None = None, pipelines: Mapping[str, object] | None = None):
        self.params = dict(params or {})
        self._pipes = {str(k).lower(): v for k, v in (pipelines or {}).items()}

    def pipeline(self, level: str):
        """The pipeline of ``level`` (built once)."""
        level = level.lower()
        if level not in self._pipes:
            from clinx.text.pipeline import TextPipeline

            self._pipes[level] = TextPipeline(level.upper(), **self.params)
        return self._pipes[level]

    def fingerprint(self, level: str) -> str:
        """The pipeline's own fingerprint, or its settings, its LLM's identity and the text code."""
        pipe = self.pipeline(level)
        if callable(getattr(pipe, "fingerprint", None)):
            return pipe.fingerprint()
        llm = self.params.get("llm")
        llm_id = fingerprint_of(llm) if llm is not None and not isinstance(llm, Mapping) else llm
        params = {k: v for k, v in self.params.items() if k != "llm"}
        return make_fingerprint(f"text-{level.lower()}", params, llm_id, code=("clinx.text", "clinx.llm"))

    def __call__(self, text: str, level: str, manifest: Manifest) -> str:
        return self.pipeline(level).run(text, manifest).text

    def settings(self) -> dict:
        """What a reader of the tables must know about the text levels: manifest use at L1 and L3's fallback."""
        return {"l1_uses_manifest": bool((self.params.get("l1") or {}).get("use_manifest", True)),
                "l3_fallback": str(self.params.get("fallback", "l2"))}


def localizer_fingerprint(loc) -> str:
    """A localizer's ``fingerprint()``; for one without: its engine's identity, scalar settings and the code."""
    if callable(getattr(loc, "fingerprint", None)):
        return str(loc.fingerprint())
    engine = getattr(loc, "engine", None)
    settings = {k: v for k, v in vars(loc).items() if isinstance(v, (str, int, float, bool, type(None)))}
    return make_fingerprint(type(loc).__qualname__, fingerprint_of(engine) if engine is not None else "", settings,
                            code=("clinx.localize", "clinx.ocr", type(loc).__module__))


def default_text_fn(**params) -> TextSanitizer:
    """A :class:`TextSanitizer` with ``TextPipeline`` keyword arguments ``params`` for every level."""
    return TextSanitizer(params)


def _safe(exc: BaseException) -> str:
    """clinx's one PHI-safe reason (:func:`clinx.errors.safe_reason`): a clinx error's message, else ``unexpected <Type>``."""
    return safe_reason(exc)


class CachedReads:
    """An OCR engine whose reads go through a grid runner's OCR cache (every other attribute is the engine's)."""

    def __init__(self, engine, runner: "GridRunner"):
        self._engine, self._runner = engine, runner

    def __getattr__(self, name):
        return getattr(self._engine, name)

    def fingerprint(self) -> str:
        return fingerprint_of(self._engine)

    def read(self, image: np.ndarray) -> list[Detection]:
        return self._runner.read_pixels(self._engine, image)

    def read_item(self, image: np.ndarray, item: str) -> list[Detection]:
        return self._runner.read_pixels(self._engine, image, read=lambda: self._engine.read_item(image, item))


def _with_cached_reads(localizer, runner: "GridRunner"):
    """A shallow copy of ``localizer`` reading through the runner's OCR cache (as is, when it has no engine)."""
    import copy

    engine = getattr(localizer, "engine", None)
    if engine is None or not callable(getattr(engine, "read", None)):
        return localizer
    out = copy.copy(localizer)
    out.engine = CachedReads(engine, runner)
    return out


def _poly(points):
    return tuple(tuple(p) for p in points) if points else None


# --------------------------------------------------------------------------- the runner


class GridRunner:
    """Run the grid over datasets, models and judges with on-disk caching.

    ``condition_factory(name)`` builds a condition (default
    :func:`clinx.sanitize.conditions.get_condition` with ``condition_params``);
    ``text_fn(text, level, manifest)`` sanitizes a question (default
    :class:`TextSanitizer`); its identity in the text cache key is
    ``text_id`` (a string, or ``level -> str``), else ``text_fn.fingerprint(level)``;
    ``masker`` builds PHI masks (default
    :class:`OCRMasker`); ``ocr_engines`` maps names to OCR engines for the
    leakage attack (default: built from ``settings.leakage_engines``);
    ``verifier`` (a localizer reading with an independent engine, as
    ``clinx sanitize`` verifies) re-reads every sanitized image — an item it
    still reads PHI on is quarantined and left out of that condition's cells,
    exactly as ``clinx sanitize`` would not release it. ``None`` skips verification.

    Sanitized images come from :func:`clinx.sanitize.core.sanitize_batch`
    (the core ``clinx sanitize`` runs), with the cached PHI mask in place of
    localization: same seed function, same outside-mask re-check.
    """

    def __init__(self, settings: GridSettings, cache_dir, *, condition_factory=None, condition_params=None,
                 text_fn=None, text_id: str | Callable[[str], str] | None = None, masker: Masker | None = None,
                 ocr_engines: Mapping[str, object] | None = None, verifier=None, progress: bool = True):
        from pathlib import Path

        self.s = settings
        self.cache_dir = Path(cache_dir)
        self.kv = KVStore(self.cache_dir / "grid.sqlite")
        self.images = ImageStore(self.cache_dir / "images")
        self.condition_params = {k: dict(v) for k, v in (condition_params or {}).items()}
        self._condition_factory = condition_factory
        self._text_fn = text_fn
        self.text_id = text_id
        self.masker = masker or OCRMasker()
        self._ocr_engines = dict(ocr_engines) if ocr_engines is not None else None
        self.verifier = _with_cached_reads(verifier, self) if verifier is not None else None
        self.progress = progress
        self.counts: dict[str, int] = {}
        self._mem: dict[str, np.ndarray] = {}
        self._engine_fps: dict[int, str] = {}
        self._pixel_digests: dict[str, str] = {}

    # ----------------------------------------------------------- helpers
    def _count(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

    def _bar(self, it: Iterable, desc: str, total: int | None = None):
        if not self.progress:
            return it
        from tqdm.auto import tqdm

        return tqdm(it, desc=desc, total=total, file=sys.stderr, leave=False, dynamic_ncols=True)

    def _condition(self, name: str):
        if self._condition_factory is not None:
            return self._condition_factory(name)
        from clinx.sanitize.conditions import get_condition

        return get_condition(name, **self.condition_params.get(name, {}))

    def _text(self):
        if self._text_fn is None:
            self._text_fn = TextSanitizer()
        return self._text_fn

    def _text_id(self, level: str) -> str:
        if callable(self.text_id):
            return str(self.text_id(level))
        if self.text_id is not None:
            return str(self.text_id)
        fp = getattr(self._text(), "fingerprint", None)
        if callable(fp):
            return str(fp(level))
        raise ClinxError("the text function has no fingerprint(level) and no text_id was given: "
                         "its cache entries could go stale")

    def pixels(self, key: str) -> str:
        """The content digest of grid image ``key``'s pixels (raw and clean keys are that digest already)."""
        if key in self._mem:
            return key
        d = self._pixel_digests.get(key) or self.kv.get("pixels", key)
        if d is None:  # written before digests were recorded: digest the stored image once
            d = image_digest(self.image(key))
            self.kv.put_many("pixels", {key: d})
        self._pixel_digests[key] = d
        return d

    def image(self, key: str) -> np.ndarray:
        """A grid image by key (memory first, then the on-disk store)."""
        if key in self._mem:
            return self._mem[key]
        a = self.images.get(key)
        if a is None:
            raise KeyError(f"image {key} is not in the cache")
        return a

    # ----------------------------------------------------------- images
    def _masks(self, dataset: str, samples: Sequence[Sample], result: GridResult) -> dict[str, str]:
        """item id -> mask key for items whose mask exists or could be built."""
        mfp = self.masker.fingerprint()
        keys = {s.id: text_digest("mask", __version__, image_digest(s.image), manifest_digest(s.manifest), mfp)
                for s in samples}
        todo = [s for s in samples if not self.images.has(keys[s.id])]
        self._count("mask_cache_hits", len(samples) - len(todo))
        if todo and isinstance(self.masker, OCRMasker) and not isinstance(getattr(self.masker._localizer(), "engine", None), CachedReads):
            # The mask engine's reads of the raw images also serve the leakage attack by the same engine.
            self.masker._loc = _with_cached_reads(self.masker._localizer(), self)
        for chunk in self._bar(list(iter_chunks(todo, self.s.batch_size)), f"{dataset}: PHI masks"):
            for s, m in zip(chunk, self.masker.masks(chunk)):
                if isinstance(m, BaseException):
                    result.failures.append({"dataset": dataset, "item": s.id, "stage": "mask", "problem": _safe(m)})
                    keys.pop(s.id)
                    continue
                self.images.put(keys[s.id], m)
                self._count("masks_built")
        return keys

    def _images(self, dataset: str, samples: Sequence[Sample], result: GridResult) -> dict[str, dict[str, str]]:
        """condition -> item id -> image key, computing and caching sanitized images."""
        out: dict[str, dict[str, str]] = {}
        conds = self.s.image_conditions()
        need_mask = [c for c in conds if c not in MASK_FREE]
        mask_keys = self._masks(dataset, samples, result) if need_mask else {}
        for s in samples:
            k = image_digest(s.image)
            self._mem[k] = s.image
        for cname in conds:
            if cname == "raw":
                out["raw"] = {s.id: image_digest(s.image) for s in samples}
                continue
            if cname == CLEAN:
                have = [s for s in samples if s.clean_image is not None]
                if not have:
                    result.missing.setdefault(f"condition/{CLEAN}", "the data has no clean images (not a built-in benchmark)")
                    continue
                out[CLEAN] = {}
                for s in have:
                    k = image_digest(s.clean_image)
                    self._mem[k] = s.clean_image
                    out[CLEAN][s.id] = k
                continue
            if f"condition/{cname}" in result.missing:
                continue
            try:
                cond = self._condition(cname)
                # The condition's settings and weights, and the code that applies them.
                fp = fingerprint_of(cond) + code_digest("clinx.sanitize", "clinx.restore")
            except Exception as exc:
                reason = _safe(exc)
                result.missing[f"condition/{cname}"] = reason
                log.warning("image condition %r is NOT evaluated: %s", cname, reason)
                continue
            keys: dict[str, str] = {}
            todo = []
            vfp = localizer_fingerprint(self.verifier) if self.verifier is not None else "unverified"
            for s in samples:
                if s.id not in mask_keys:
                    continue  # mask failed: fail closed
                # The core seeds frame 0 of item s.id from the base seed (seed_for), as clinx sanitize does.
                k = text_digest("img", __version__, image_digest(s.image), fp, mask_keys[s.id], str(self.s.seed), vfp)
                keys[s.id] = k
                if self.images.has(k):
                    continue
                held = self.kv.get("quarantine", k)
                if held is not None:  # quarantined on an earlier run: still left out, for the same reason
                    keys.pop(s.id)
                    result.failures.append({"dataset": dataset, "item": s.id, "stage": f"{held['stage']}/{cname}",
                                            "problem": held["reason"]})
                    self._count("quarantine_cache_hits")
                    continue
                todo.append((s, k))
            self._count("image_cache_hits", len(keys) - len(todo))
            for chunk in self._bar(list(iter_chunks(todo, self.s.batch_size)), f"{dataset}: {cname}"):
                # The one sanitization core (clinx.sanitize.core): the cached mask stands in for
                # localization; condition, outside-mask re-check and verification run as in clinx sanitize.
                jobs = [FrameJob([s.image], s.manifest, s.id, masks=[self.images.get(mask_keys[s.id])]) for s, _ in chunk]
                done = sanitize_batch(jobs, cond, None, self.verifier, seed=self.s.seed)
                held = {}
                pixels = {}
                for (s, k), r in zip(chunk, done):
                    if r.released:
                        self.images.put(k, r.outputs[0])
                        pixels[k] = image_digest(r.outputs[0])
                        self._count("images_built")
                        continue
                    keys.pop(s.id, None)
                    held[k] = {"stage": r.stage, "reason": r.reason}
                    result.failures.append({"dataset": dataset, "item": s.id, "stage": f"{r.stage}/{cname}",
                                            "problem": r.reason})
                    self._count(f"quarantined/{cname}")
                self.kv.put_many("quarantine", held)
                self.kv.put_many("pixels", pixels)
            out[cname] = keys
        return out

    # ----------------------------------------------------------- texts
    def _texts(self, dataset: str, samples: Sequence[Sample], result: GridResult) -> dict[str, dict[str, str]]:
        """level -> item id -> sanitized question."""
        out: dict[str, dict[str, str]] = {}
        for level in self.s.levels:
            if level == "l0":  # L0 keeps the PHI-augmented question (isolates the image side)
                out[level] = {s.id: s.question for s in samples}
                continue
            if f"level/{level}" in result.missing:
                continue
            try:
                tid = self._text_id(level)
                keys = {s.id: text_digest("txt", __version__, level, s.question, manifest_digest(s.manifest), tid)
                        for s in samples}
                have = self.kv.get_many("text", keys.values())
                self._count("text_cache_hits", len(have))
                texts: dict[str, str] = {}
                todo = [s for s in samples if keys[s.id] not in have]
                fn = self._text() if todo else None
            except Exception as exc:
                reason = _safe(exc)
                result.missing[f"level/{level}"] = reason
                log.warning("text level %r is NOT evaluated: %s", level, reason)
                continue
            for chunk in self._bar(list(iter_chunks(todo, 8)), f"{dataset}: text {level}"):
                new = {}
                for s in chunk:
                    try:
                        new[keys[s.id]] = fn(s.question, level, s.manifest)
                    except Exception as exc:
                        result.failures.append({"dataset": dataset, "item": s.id, "stage": f"text/{level}", "problem": _safe(exc)})
                self.kv.put_many("text", new)
                have.update(new)
                self._count("texts_built", len(new))
            for s in samples:
                if keys[s.id] in have:
                    texts[s.id] = have[keys[s.id]]
            out[level] = texts
        return out

    # ----------------------------------------------------------- predictions
    def _predict(self, dataset: str, model, jobs: dict[str, tuple[str, str]]) -> dict[str, str]:
        """pred key -> answer for ``jobs`` (pred key -> (image key, question)), running only cache misses."""
        have = self.kv.get_many("pred", jobs.keys())
        self._count("pred_cache_hits", len(have))
        todo = [k for k in jobs if k not in have]
        for chunk in self._bar(list(iter_chunks(todo, self.s.batch_size)), f"{dataset}: {model.name}"):
            images = [self.image(jobs[k][0]) for k in chunk]
            questions = [jobs[k][1] for k in chunk]
            answers = model.answer(images, questions)
            if len(answers) != len(chunk):
                raise ClinxError(f"model {model.name} returned {len(answers)} answers for {len(chunk)} questions")
            new = {k: str(a) for k, a in zip(chunk, answers)}
            self.kv.put_many("pred", new)  # written per batch: an interrupted run resumes here
            have.update(new)
            self._count("model_calls", len(chunk))
        return have

    def _judge(self, judge, items: dict[str, tuple[str, str, str]]) -> dict[str, float]:
        """judge key -> score for ``items`` (key -> (question, reference, prediction))."""
        have = self.kv.get_many("judge", items.keys())
        self._count("judge_cache_hits", len(have))
        todo = [k for k in items if k not in have]
        for chunk in self._bar(list(iter_chunks(todo, self.s.judge_batch_size)), f"judge {judge.name}"):
            scores = judge.score([items[k] for k in chunk])
            new = {k: float(v) for k, v in zip(chunk, scores)}
            self.kv.put_many("judge", new)
            have.update(new)
            self._count("judge_calls", len(chunk))
        return have

    # ----------------------------------------------------------- leakage
    def _engines(self) -> dict[str, object]:
        if self._ocr_engines is None:
            from clinx.ocr import get_engine

            self._ocr_engines = {}
            for name in self.s.leakage_engines:
                try:
                    self._ocr_engines[name] = get_engine(name)
                except Exception as exc:
                    log.warning("OCR engine %r unavailable for the leakage attack: %s", name, _safe(exc))
        return self._ocr_engines

    def _read(self, engine_name: str, engine, key: str) -> list[Detection]:
        return self.read_pixels(engine, self.image(key))

    def read_pixels(self, engine, image: np.ndarray, read=None) -> list[Detection]:
        """``engine``'s reading of ``image`` from the OCR cache, or read now (``read()``, default ``engine.read``) and cached.

        Keyed by the engine's fingerprint (resolved settings, code) and the
        pixels, not by a name: a changed threshold or engine version reads
        again, and the verifier's reading of a sanitized image serves the
        leakage attack by the same engine.
        """
        efp = self._engine_fps.get(id(engine))
        if efp is None:
            efp = self._engine_fps[id(engine)] = fingerprint_of(engine)
        ck = text_digest("ocr", __version__, efp, image_digest(image))
        hit = self.kv.get("ocr", ck)
        if hit is not None:
            self._count("ocr_cache_hits")
            return [Detection(text=t, box=tuple(b), confidence=c, engine=e, level=lv, polygon=_poly(pg))
                    for t, b, c, e, lv, pg in hit]
        dets = list(read() if read is not None else engine.read(image))
        self.kv.put_many("ocr", {ck: [[d.text, list(map(float, d.box)), float(d.confidence), d.engine, d.level,
                                       [list(map(float, p)) for p in d.polygon] if d.polygon else None] for d in dets]})
        self._count("ocr_reads")
        return dets

    def _leakage(self, dataset: str, samples: Sequence[Sample], image_keys: dict, result: GridResult) -> dict:
        from clinx.metrics.leakage import (OCRView, aggregate_leakage, aggregate_survival, image_fields,
                                           image_leakage, nonphi_survival)

        engines = self._engines()
        if not engines:
            result.missing["leakage"] = "no OCR engine available"
            return {}
        out: dict = {}
        conds = [c for c in self.s.image_conditions() if c != CLEAN and c in image_keys]
        by_id = {s.id: s for s in samples}
        for cname in conds:
            out[cname] = {}
            for ename, engine in engines.items():
                per_image, survival = [], []
                for item, key in self._bar(list(image_keys[cname].items()), f"{dataset}: leakage {cname}/{ename}"):
                    s = by_id[item]
                    if not s.manifest:
                        continue
                    view = OCRView.from_detections(self._read(ename, engine, key))
                    per_image.append(image_leakage(view, s.manifest, image_fields(s)))
                    if s.nonphi_texts:
                        before = OCRView.from_detections(self._read(ename, engine, image_keys["raw"][item])) \
                            if "raw" in image_keys and item in image_keys["raw"] else None
                        if before is not None:
                            survival.append(nonphi_survival(s.nonphi_texts, before, view))
                agg = aggregate_leakage(per_image)
                agg["nonphi"] = aggregate_survival(survival)
                agg["n_missing"] = len(samples) - len(image_keys[cname])
                out[cname][ename] = agg
        return out

    # ----------------------------------------------------------- main
    def run(self, datasets: Mapping[str, Sequence[Sample]], models: Mapping[str, object],
            judges: Mapping[str, object] | None = None) -> GridResult:
        """Evaluate every dataset with every model (and judge); see the module docstring."""
        judges = dict(judges or {})
        result = GridResult(images=self.images)
        t_all = time.perf_counter()
        for dname, samples in datasets.items():
            samples = list(samples)
            result.samples[dname] = samples
            t0 = time.perf_counter()
            image_keys = self._images(dname, samples, result)
            result.image_keys[dname] = image_keys
            result.timings[f"{dname}/images_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            texts = self._texts(dname, samples, result)
            result.timings[f"{dname}/texts_s"] = time.perf_counter() - t0
            cells = [c for c in self.s.cells() if c[1] in image_keys and c[2] in texts]
            for mname, model in models.items():
                t0 = time.perf_counter()
                jobs: dict[str, tuple[str, str]] = {}
                plan: list[tuple[tuple, Sample, str]] = []
                mid = fingerprint_of(model)
                for cell in cells:
                    _, cname, level = cell
                    for s in samples:
                        ik = image_keys[cname].get(s.id)
                        q = texts[level].get(s.id)
                        if ik is None or q is None:
                            continue
                        # Keyed by the pixels, not by how they were made: an edit to the mask or
                        # condition code that leaves the pixels as they were asks the model nothing.
                        pk = text_digest("pred", __version__, mid, self.pixels(ik), q)
                        jobs[pk] = (ik, q)
                        plan.append((cell, s, pk))
                preds = self._predict(dname, model, jobs)
                result.timings[f"{dname}/{mname}/predict_s"] = time.perf_counter() - t0
                judge_keys: dict[str, dict[str, str]] = {}
                for jname, judge in judges.items():
                    t0 = time.perf_counter()
                    jid = fingerprint_of(judge)
                    items: dict[str, tuple[str, str, str]] = {}
                    jk: dict[str, str] = {}
                    for (_, _, level), s, pk in plan:
                        # The judge sees the question without PHI (C.2): the clean question
                        # when the data has it, else the sanitized question of the cell.
                        jq = s.clean_question or texts[level][s.id]
                        k = text_digest("judge", __version__, jid, jq, s.answer, preds[pk])
                        items[k] = (jq, s.answer, preds[pk])
                        jk[f"{pk}|{s.id}|{level}"] = k
                    scores = self._judge(judge, items)
                    judge_keys[jname] = {k: scores[v] for k, v in jk.items()}
                    result.timings[f"{dname}/{mname}/judge/{jname}_s"] = time.perf_counter() - t0
                for (block, cname, level), s, pk in plan:
                    row = {"dataset": dname, "model": mname, "block": block, "condition": cname, "level": level,
                           "item": s.id, "answer_type": s.answer_type,
                           "evidence": bool((s.provenance or {}).get("evidence_under_mask"))}
                    row.update(score_answer(preds[pk], s.answer, s.answer_type))
                    for jname in judges:
                        row[f"judge/{jname}"] = judge_keys[jname][f"{pk}|{s.id}|{level}"]
                    result.rows.append(row)
            if self.s.leakage:
                t0 = time.perf_counter()
                result.leakage[dname] = self._leakage(dname, samples, image_keys, result)
                result.timings[f"{dname}/leakage_s"] = time.perf_counter() - t0
        result.timings["total_s"] = time.perf_counter() - t_all
        result.counts = dict(self.counts)
        result.meta = {
            "datasets": {d: len(s) for d, s in datasets.items()},
            "clinx_version": __version__,
            "models": {m: fingerprint_of(mod) for m, mod in models.items()},
            "judges": {j: fingerprint_of(jd) for j, jd in judges.items()},
            "conditions": list(self.s.conditions),
            "levels": list(self.s.levels),
            "leakage_only": list(self.s.leakage_only),
            "leakage_engines": list(self._ocr_engines or {}) if self.s.leakage else [],
            "mask": self.masker.fingerprint(),
        }
        if callable(getattr(self._text_fn, "settings", None)):
            result.meta["text"] = self._text_fn.settings()
        return result
