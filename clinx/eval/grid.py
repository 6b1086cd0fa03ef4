"""The privacy–utility grid (ClinX §3.4): image conditions × text levels × datasets × models.

For every item the grid evaluates the Cartesian product C_img × L_text
(``raw, ocr, gskip, prism`` × ``l0..l3`` by default), the text-only ablation
(the image left as it is — ``raw`` — and, where the data has it, the clean
image before PHI injection, while the question goes through every level),
and OCR leakage for every image condition plus the leakage-only
``prism_flat`` diagnostic.

Work is content-addressed and cached on disk (:mod:`clinx.eval.store`):

* PHI masks per (image, manifest, localizer);
* sanitized images per (image, condition fingerprint, mask, per-item seed);
* sanitized questions per (question, level, manifest, text settings);
* predictions per (model id, sanitized image, sanitized question) — so the
  same pixels and words are never answered twice, even across cells
  (e.g. ``raw`` in the grid and in the ablation);
* judge scores per (judge id, question, reference, prediction);
* OCR reads per (engine, image).

Each batch is written as soon as it is done, so an interrupted run resumes
where it stopped, and a rerun is pure cache reads.

A condition or level that cannot be built (a missing checkpoint, a module not
installed yet) is *reported* in :attr:`GridResult.missing` and left out —
loudly — instead of failing the whole grid; an item whose mask or text
sanitisation fails is left out of the cells that need it and listed in
:attr:`GridResult.failures` (fail closed: it is never scored on unsanitized input).
"""

from __future__ import annotations

import itertools
import json
import logging
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from clinx.errors import ClinxError
from clinx.metrics.utility import score_answer
from clinx.records import Detection, Manifest, Sample, image_digest, iter_chunks, text_digest

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


def manifest_digest(manifest: Manifest) -> str:
    """A PHI-free content hash of a manifest (cache keys only)."""
    return text_digest(json.dumps(manifest.to_dict(), sort_keys=True))


def item_seed(item_id: str, seed: int) -> int:
    """A stable per-item seed for stochastic conditions (PRISM grain / jitter)."""
    return int(text_digest(str(seed), item_id)[:8], 16)


# --------------------------------------------------------------------------- pluggable parts


class Masker:
    """Builds PHI masks; ``id`` enters the mask cache key."""

    id: str = "masker"
    needs_ocr: bool = False

    def masks(self, samples: Sequence[Sample]) -> list[np.ndarray | Exception]:
        raise NotImplementedError


class TrueMasker(Masker):
    """The benchmark's ground-truth PHI mask (an oracle localizer: isolates the restoration step)."""

    id = "true-mask"

    def masks(self, samples):
        out: list = []
        for s in samples:
            out.append(s.mask.astype(bool) if s.mask is not None else ClinxError("sample has no true mask"))
        return out


class OCRMasker(Masker):
    """The paper's pipeline: OCR -> fuzzy match against the manifest -> dilated PHI-only mask.

    Keyword arguments are those of :class:`clinx.localize.PhiLocalizer`
    (``engine``, ``engine_params``, ``threshold``, ``dilation``, ...); they all
    enter the mask cache key.
    """

    needs_ocr = True

    def __init__(self, **localizer_params):
        self.localizer_params = dict(localizer_params)
        self.id = "ocr-mask:" + json.dumps(self.localizer_params, sort_keys=True, default=str)
        self._loc = None

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


def default_text_fn(**params) -> Callable[[str, str, Manifest], str]:
    """``(text, level, manifest) -> sanitized text`` through :func:`clinx.text.pipeline.deidentify`."""
    from clinx.text.pipeline import deidentify

    def fn(text: str, level: str, manifest: Manifest) -> str:
        return deidentify(text, level, manifest, **params).text

    return fn


def _safe(exc: BaseException) -> str:
    """An error description for reports: the type and the message of clinx errors (which never carry PHI)."""
    if isinstance(exc, ClinxError) or isinstance(exc, (KeyError, ImportError, ModuleNotFoundError, FileNotFoundError)):
        return f"{type(exc).__name__}: {exc}"[:300]
    return type(exc).__name__


# --------------------------------------------------------------------------- the runner


class GridRunner:
    """Run the grid over datasets, models and judges with on-disk caching.

    ``condition_factory(name)`` builds a condition (default
    :func:`clinx.sanitize.conditions.get_condition` with ``condition_params``);
    ``text_fn(text, level, manifest)`` sanitizes a question (default
    :func:`default_text_fn`); ``masker`` builds PHI masks (default
    :class:`OCRMasker`); ``ocr_engines`` maps names to OCR engines for the
    leakage attack (default: built from ``settings.leakage_engines``).
    """

    def __init__(self, settings: GridSettings, cache_dir, *, condition_factory=None, condition_params=None,
                 text_fn=None, text_id: str = "default", masker: Masker | None = None,
                 ocr_engines: Mapping[str, object] | None = None, progress: bool = True):
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
        self.progress = progress
        self.counts: dict[str, int] = {}
        self._mem: dict[str, np.ndarray] = {}

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
            self._text_fn = default_text_fn()
        return self._text_fn

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
        keys = {s.id: text_digest("mask", image_digest(s.image), manifest_digest(s.manifest), self.masker.id)
                for s in samples}
        todo = [s for s in samples if not self.images.has(keys[s.id])]
        self._count("mask_cache_hits", len(samples) - len(todo))
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
                fp = cond.fingerprint() if hasattr(cond, "fingerprint") else cname
            except Exception as exc:
                reason = _safe(exc)
                result.missing[f"condition/{cname}"] = reason
                log.warning("image condition %r is NOT evaluated: %s", cname, reason)
                continue
            keys: dict[str, str] = {}
            todo = []
            for s in samples:
                if s.id not in mask_keys:
                    continue  # mask failed: fail closed
                seed = item_seed(s.id, self.s.seed)
                k = text_digest("img", image_digest(s.image), fp, mask_keys[s.id], str(seed))
                keys[s.id] = k
                if not self.images.has(k):
                    todo.append((s, k, seed))
            self._count("image_cache_hits", len(keys) - len(todo))
            for chunk in self._bar(list(iter_chunks(todo, self.s.batch_size)), f"{dataset}: {cname}"):
                ims = [s.image for s, _, _ in chunk]
                masks = [self.images.get(mask_keys[s.id]) for s, _, _ in chunk]
                seeds = [seed for _, _, seed in chunk]
                try:
                    outs = cond.apply_batch(ims, masks, seeds)
                except Exception:
                    # One bad item must not sink the batch: retry item by item.
                    outs = []
                    for s, im, m, sd in zip([c[0] for c in chunk], ims, masks, seeds):
                        try:
                            outs.append(cond.apply(im, m, seed=sd))
                        except Exception as exc:
                            outs.append(exc)
                            result.failures.append({"dataset": dataset, "item": s.id, "stage": f"condition/{cname}",
                                                    "problem": _safe(exc)})
                for (s, k, _), o in zip(chunk, outs):
                    if isinstance(o, BaseException):
                        keys.pop(s.id, None)
                        continue
                    self.images.put(k, o)
                    self._count("images_built")
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
            keys = {s.id: text_digest("txt", level, s.question, manifest_digest(s.manifest), self.text_id)
                    for s in samples}
            have = self.kv.get_many("text", keys.values())
            self._count("text_cache_hits", len(have))
            texts: dict[str, str] = {}
            todo = [s for s in samples if keys[s.id] not in have]
            try:
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
        ck = text_digest("ocr", engine_name, key)
        hit = self.kv.get("ocr", ck)
        if hit is not None:
            self._count("ocr_cache_hits")
            return [Detection(text=t, box=tuple(b), confidence=c) for t, b, c in hit]
        dets = list(engine.read(self.image(key)))
        self.kv.put_many("ocr", {ck: [[d.text, list(map(float, d.box)), float(d.confidence)] for d in dets]})
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
                mid = model.model_id
                for cell in cells:
                    _, cname, level = cell
                    for s in samples:
                        ik = image_keys[cname].get(s.id)
                        q = texts[level].get(s.id)
                        if ik is None or q is None:
                            continue
                        pk = text_digest("pred", mid, ik, q)
                        jobs[pk] = (ik, q)
                        plan.append((cell, s, pk))
                preds = self._predict(dname, model, jobs)
                result.timings[f"{dname}/{mname}/predict_s"] = time.perf_counter() - t0
                judge_keys: dict[str, dict[str, str]] = {}
                for jname, judge in judges.items():
                    t0 = time.perf_counter()
                    items: dict[str, tuple[str, str, str]] = {}
                    jk: dict[str, str] = {}
                    for (_, _, level), s, pk in plan:
                        # The judge sees the question without PHI (C.2): the clean question
                        # when the data has it, else the sanitized question of the cell.
                        jq = s.clean_question or texts[level][s.id]
                        k = text_digest("judge", judge.judge_id, jq, s.answer, preds[pk])
                        items[k] = (jq, s.answer, preds[pk])
                        jk[f"{pk}|{s.id}|{level}"] = k
                    scores = self._judge(judge, items)
                    judge_keys[jname] = {k: scores[v] for k, v in jk.items()}
                    result.timings[f"{dname}/{mname}/judge/{jname}_s"] = time.perf_counter() - t0
                for (block, cname, level), s, pk in plan:
                    row = {"dataset": dname, "model": mname, "block": block, "condition": cname, "level": level,
                           "item": s.id, "answer_type": s.answer_type}
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
            "models": {m: getattr(mod, "model_id", m) for m, mod in models.items()},
            "judges": {j: getattr(jd, "judge_id", j) for j, jd in judges.items()},
            "conditions": list(self.s.conditions),
            "levels": list(self.s.levels),
            "leakage_only": list(self.s.leakage_only),
            "leakage_engines": list(self._ocr_engines or {}) if self.s.leakage else [],
            "mask": self.masker.id,
        }
        return result
