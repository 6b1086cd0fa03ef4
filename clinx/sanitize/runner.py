"""Fail-closed batch sanitizer: folders of images / DICOM, or benchmark samples.

For every item: load → manifest → OCR + manifest match → PHI mask → condition
→ (optional) verify → atomic write. The rules that protect users:

* **Fail closed.** Any failure — unreadable input, empty manifest, OCR error,
  a condition that changed pixels outside its mask, verification that still
  reads PHI, a DICOM header that still holds a manifest value — sends the
  item to ``quarantine.jsonl`` (item id, stage, reason) and *nothing* for it
  is written to the sanitized output; a stale output from an older run of
  the same item is removed. The batch goes on.
* **Never overwrite inputs.** Output folders that are, contain or sit inside
  the input folder are refused up front; every write is re-checked against
  its input file.
* **Resume.** ``progress.jsonl`` records each finished item by a key derived
  from the input's content hash, the condition and the manifest, with its
  output path; a rerun skips those items (re-trying quarantined ones).
* **No PHI in logs, errors or summaries.** Reasons name stages, fields and
  counts. Messages of unexpected exceptions are dropped (only their type is
  kept) because library messages can quote header values; item ids are paths
  relative to the input folder or sample ids.

Files written in ``output_dir``: sanitized images (PNG for raster inputs,
DICOM for DICOM inputs, same relative layout), ``progress.jsonl``,
``quarantine.jsonl`` (this run's quarantined items) and ``summary.json``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from clinx.errors import ClinxError, InputError, ItemError
from clinx.records import Manifest, Sample, iter_chunks, text_digest
from clinx.sanitize.conditions import Condition, outside_mask_changed

log = logging.getLogger(__name__)

#: Raster suffixes picked up by :func:`sanitize_folder` (DICOM is detected by content or suffix).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp")
PROGRESS_FILE = "progress.jsonl"
QUARANTINE_FILE = "quarantine.jsonl"
SUMMARY_FILE = "summary.json"
_STATE_FILES = {PROGRESS_FILE, QUARANTINE_FILE, SUMMARY_FILE}

STAGES = ("read", "manifest", "localize", "condition", "verify", "write")


# --------------------------------------------------------------------------- summary


@dataclass
class RunSummary:
    """What a run did. Counts and reasons only — never PHI."""

    condition: str = ""
    processed: int = 0
    sanitized: int = 0
    skipped: int = 0
    quarantined: int = 0
    by_reason: Counter = field(default_factory=Counter)
    by_stage: Counter = field(default_factory=Counter)
    frames: int = 0
    masked_pixels: int = 0
    wall_s: float = 0.0
    cpu_s: float = 0.0
    outputs: dict[str, Path] = field(default_factory=dict)
    quarantine: list[dict] = field(default_factory=list)

    @property
    def images_per_s(self) -> float:
        done = self.processed - self.skipped
        return done / self.wall_s if self.wall_s > 0 else 0.0

    def to_dict(self) -> dict:
        return {
            "condition": self.condition,
            "processed": self.processed,
            "sanitized": self.sanitized,
            "skipped_resumed": self.skipped,
            "quarantined": self.quarantined,
            "quarantined_by_reason": dict(self.by_reason.most_common()),
            "quarantined_by_stage": dict(self.by_stage.most_common()),
            "frames": self.frames,
            "masked_pixels": self.masked_pixels,
            "wall_s": round(self.wall_s, 3),
            "cpu_s": round(self.cpu_s, 3),
            "images_per_s": round(self.images_per_s, 3),
        }

    def table(self) -> str:
        """A small plain-text table for the console."""
        rows = [
            ("condition", self.condition),
            ("processed", self.processed),
            ("sanitized", self.sanitized),
            ("skipped (resumed)", self.skipped),
            ("quarantined", self.quarantined),
        ]
        rows += [(f"  {reason}", n) for reason, n in self.by_reason.most_common()]
        rows += [("images/s", f"{self.images_per_s:.2f}"), ("wall s", f"{self.wall_s:.1f}")]
        width = max(len(str(k)) for k, _ in rows)
        return "\n".join(f"{str(k):<{width}}  {v}" for k, v in rows)


# --------------------------------------------------------------------------- helpers


def scrub(text: str, manifest: Manifest | None) -> str:
    """Replace any manifest value (or long token of one) in ``text`` by ``[field]``.

    Defence in depth for problem strings that come from other modules: they
    should never quote PHI, but a reason that did would end up in a file.
    """
    if not manifest:
        return text
    out = text
    pairs = sorted(manifest.items(), key=lambda kv: -len(kv[1]))
    for name, value in pairs:
        if value and value in out:
            out = out.replace(value, f"[{name}]")
    lowered = out.lower()
    for name, value in pairs:
        for tok in value.replace("^", " ").split():
            if len(tok) >= 3 and tok.lower() in lowered:
                # case-insensitive replace without regex special-casing
                idx = lowered.find(tok.lower())
                while idx >= 0:
                    out = out[:idx] + f"[{name}]" + out[idx + len(tok) :]
                    lowered = out.lower()
                    idx = lowered.find(tok.lower(), idx + len(name) + 2)
    return out


def seed_for(item: str, frame: int, base_seed: int) -> int:
    """A per-item, per-frame seed: same item, same seed, whatever the batch order."""
    h = hashlib.sha256(f"{base_seed}\x00{item}\x00{frame}".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(h[:4], "little")


def file_digest(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fp:
        while True:
            b = fp.read(chunk)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def manifest_digest(manifest: Manifest) -> str:
    return text_digest(json.dumps(manifest.to_dict(), sort_keys=True, ensure_ascii=False))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _append_jsonl(path: Path, record: dict) -> None:
    # One line per write + fsync: a crash loses at most the line being written,
    # and the reader below skips a torn last line.
    with open(path, "a", encoding="utf-8") as fp:
        fp.write(json.dumps(record, ensure_ascii=True) + "\n")
        fp.flush()
        os.fsync(fp.fileno())


def read_jsonl(path: Path) -> list[dict]:
    """Records of a JSONL state file; a torn (crash-cut) line is skipped."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def _is_within(child: Path, parent: Path) -> bool:
    try:
        child.relative_to(parent)
        return True
    except ValueError:
        return False


def check_folders(input_dir: Path, output_dir: Path) -> None:
    """Refuse folder layouts where outputs could overwrite or be re-read as inputs."""
    i, o = input_dir.resolve(), output_dir.resolve()
    if i == o:
        raise ClinxError("output_dir is the input folder; refusing to overwrite inputs")
    if _is_within(o, i):
        raise ClinxError("output_dir is inside input_dir; outputs would be read back as inputs on a rerun")
    if _is_within(i, o):
        raise ClinxError("input_dir is inside output_dir; outputs could overwrite inputs")


# --------------------------------------------------------------------------- items


@dataclass
class Item:
    """One unit of work: a file or a sample, with its safe id and where it goes."""

    id: str
    out_path: Path
    key_parts: Callable[[], str]
    load: Callable[[], "Loaded"]
    src_path: Path | None = None


@dataclass
class Loaded:
    frames: list[np.ndarray]
    manifest: Manifest
    dataset: object | None = None  # pydicom Dataset for DICOM inputs


@dataclass
class _Prepared:
    item: Item
    loaded: Loaded
    masks: list[np.ndarray]
    outputs: list[np.ndarray] | None = None


class ManifestSource:
    """Where an input file's manifest comes from.

    * ``"dicom"`` — the file's own DICOM header (:func:`clinx.localize.manifests.manifest_from_dicom`);
    * a JSON **file** — either one manifest for every item (``{"fields": {...},
      "renderings": {...}}`` or flat ``{field: value}``), or per-item manifests
      (``{"<relative path or file name>": {...}}``, ``{"items": ...}`` or a list
      of ``{"image": name, ...}``; see :func:`clinx.localize.manifests.manifests_from_json`);
    * a **folder** — one JSON per item at ``<folder>/<relative path>.json`` or
      ``<folder>/<relative path without suffix>.json``.
    """

    def __init__(self, spec: str | os.PathLike):
        self.spec = str(spec)
        self.kind = "dicom" if self.spec == "dicom" else None
        self.path: Path | None = None
        if self.kind is None:
            p = Path(self.spec)
            if p.is_dir():
                self.kind = "dir"
            elif p.is_file():
                self.kind = "file"
            else:
                raise ClinxError("manifest source not found: give 'dicom', a JSON file or a folder of JSON files")
            self.path = p
        # The shared file is parsed once; a broken one quarantines every item with the same reason.
        self._file: Manifest | dict[str, Manifest] | ItemError | None = None
        self._file_digest: str | None = None

    def json_path(self, rel: str) -> Path:
        assert self.path is not None
        if self.kind == "file":
            return self.path
        r = Path(rel)
        for cand in (self.path / (rel + ".json"), self.path / r.with_suffix(".json")):
            if cand.is_file():
                return cand
        raise ItemError(rel, "no manifest JSON for this item in the manifest folder", stage="manifest")

    def digest(self, rel: str) -> str:
        """Identity of this item's manifest for resume keys ('' when it comes from the input itself)."""
        if self.kind == "dicom":
            return ""
        if self.kind == "file":
            if self._file_digest is None:
                self._file_digest = file_digest(self.path)
            return self._file_digest
        try:
            return file_digest(self.json_path(rel))
        except (ItemError, OSError):
            return "missing"

    def load(self, rel: str, dataset=None) -> Manifest:
        if self.kind == "dicom":
            if dataset is None:
                raise ItemError(rel, "manifest=dicom but the input is not a DICOM file; give a JSON manifest", stage="manifest")
            from clinx.localize.manifests import manifest_from_dicom

            return manifest_from_dicom(dataset)
        if self.kind == "dir":
            return load_manifest_json(self.json_path(rel), item=rel)
        if self._file is None:
            try:
                self._file = _parse_shared_manifest(self.path)
            except ItemError as exc:
                self._file = exc
        if isinstance(self._file, ItemError):
            raise ItemError(rel, f"shared manifest file: {self._file.problem}", stage="manifest")
        if isinstance(self._file, Manifest):
            return self._file
        for key in (rel, Path(rel).name, Path(rel).stem):
            if key in self._file:
                return self._file[key]
        raise ItemError(rel, "the per-item manifest file has no entry for this item", stage="manifest")


def _is_per_item(obj) -> bool:
    if isinstance(obj, list):
        return True
    if not isinstance(obj, Mapping) or "fields" in obj:
        return False
    if isinstance(obj.get("items"), (Mapping, list)):
        return True
    return bool(obj) and all(isinstance(v, Mapping) for v in obj.values())


def _parse_shared_manifest(path: Path) -> Manifest | dict[str, Manifest]:
    from clinx.localize.manifests import manifest_from_json, manifests_from_json, read_manifest_file

    obj = read_manifest_file(path, item=path.name)
    if _is_per_item(obj):
        return manifests_from_json(obj, item=path.name)
    return manifest_from_json(obj, item=path.name)


def load_manifest_json(path: Path, *, item: str) -> Manifest:
    """One manifest from a JSON file (:func:`clinx.localize.manifests.manifest_from_json` rules).

    Errors are :class:`~clinx.errors.InputError` naming ``item`` and the
    problem (not UTF-8, malformed, empty fields…), never the content.
    """
    from clinx.localize.manifests import manifest_from_json, read_manifest_file

    obj = read_manifest_file(path, item=item)
    return manifest_from_json(obj, item=item)


def iter_input_files(input_dir: Path) -> list[Path]:
    """Image and DICOM files under ``input_dir`` (recursive, sorted, hidden files skipped)."""
    from clinx.data.images import is_dicom

    files = []
    for p in sorted(input_dir.rglob("*")):
        rel = p.relative_to(input_dir)
        if any(part.startswith(".") for part in rel.parts) or not p.is_file():
            continue
        if p.suffix.lower() in IMAGE_SUFFIXES or is_dicom(p):
            files.append(p)
    return files


def plan_outputs(input_dir: Path, files: Sequence[Path], output_dir: Path) -> dict[Path, Path]:
    """Output path per input: same relative layout, PNG for raster images, DICOM kept as DICOM.

    ``scan.jpg`` → ``scan.png``; when two inputs would land on one output
    (``scan.jpg`` and ``scan.tif``) both keep their full name (``scan.jpg.png``).
    """
    from clinx.data.images import is_dicom

    first: dict[Path, Path] = {}
    for f in files:
        rel = f.relative_to(input_dir)
        if is_dicom(f):
            first[f] = rel if rel.suffix.lower() in (".dcm", ".dicom") else rel.with_name(rel.name + ".dcm")
        else:
            first[f] = rel.with_suffix(".png")
    counts = Counter(first.values())
    out = {}
    for f, rel in first.items():
        if counts[rel] > 1:
            rel = f.relative_to(input_dir)
            rel = rel.with_name(rel.name + ".png")
        out[f] = output_dir / rel
    return out


def _file_item(path: Path, input_dir: Path, out_path: Path, manifests: ManifestSource, max_pixels: int) -> Item:
    from clinx.data.images import is_dicom, load_image

    rel = path.relative_to(input_dir).as_posix()

    def key_parts() -> str:
        return file_digest(path) + ":" + manifests.digest(rel)

    def load() -> Loaded:
        dataset = None
        if is_dicom(path):
            from clinx.data.dicom import read_dicom

            dcm = read_dicom(path, max_pixels=max_pixels, item=rel)
            frames, dataset = list(dcm.frames), dcm.dataset
        else:
            frames = [load_image(path, max_pixels=max_pixels, item=rel)]
        if not frames:
            raise InputError(rel, "no image frames", stage="read")
        try:
            manifest = manifests.load(rel, dataset)
        except ItemError as e:
            e.stage = e.stage or "manifest"
            raise
        return Loaded(frames, manifest, dataset)

    return Item(rel, out_path, key_parts, load, src_path=path)


def _sample_item(sample: Sample, output_dir: Path) -> Item:
    sid = str(sample.id)
    rel = Path(sid)
    if rel.is_absolute() or ".." in rel.parts or not sid:
        raise ClinxError("sample ids must be relative names without '..'")
    out_path = output_dir / (sid + ".png")

    def key_parts() -> str:
        from clinx.records import image_digest

        if sample.image is None:
            return "no-image"
        return image_digest(sample.image) + ":" + manifest_digest(sample.manifest)

    def load() -> Loaded:
        if sample.image is None:
            raise InputError(sid, "sample has no image", stage="read")
        from clinx.records import as_rgb

        try:
            img = as_rgb(np.asarray(sample.image))
        except (TypeError, ValueError) as exc:
            raise InputError(sid, f"sample image is not a uint8 RGB array ({type(exc).__name__})", stage="read") from None
        return Loaded([img], sample.manifest)

    return Item(sid, out_path, key_parts, load)


# --------------------------------------------------------------------------- runner


class Sanitizer:
    """Runs items through localize → condition → verify → write, failing closed.

    ``localizer`` needs ``locate(image, manifest) -> Localization(mask, matches, detections)``
    (:class:`clinx.localize.PhiLocalizer`); ``verifier`` is a second localizer
    (often the same object) used to re-read the output; ``None`` disables
    verification.

    Parallelism: pass a *list* of localizers (each with its own engine
    instance) to OCR that many items at once in threads — ONNX Runtime and
    PyTorch release the GIL while they run, so on a 2-core machine two
    single-threaded RapidOCR instances keep both cores busy through the whole
    pipeline, where one two-threaded instance parallelises only inside the
    networks (measured on a loaded 2-core machine, 20 images at 512²: 0.47 vs
    0.29 images/s wall, 0.58 vs 0.61 CPU s per image).
    ``verifier`` may be a list of the same length. The condition runs in the
    calling thread, batched (restoration networks batch on their own).
    """

    def __init__(
        self,
        condition: Condition,
        localizer,
        output_dir: str | os.PathLike,
        *,
        verifier=None,
        batch_size: int = 8,
        seed: int = 0,
        resume: bool = True,
        progress: bool = True,
        check_dicom_header: bool = True,
    ):
        self.condition = condition
        locs = list(localizer) if isinstance(localizer, (list, tuple)) else [localizer]
        if not locs:
            raise ClinxError("at least one localizer is needed")
        if verifier is None:
            vers: list | None = None
        else:
            vers = list(verifier) if isinstance(verifier, (list, tuple)) else [verifier] * len(locs)
            if len(vers) != len(locs):
                raise ClinxError("give as many verifiers as localizers")
        self.localizer = locs[0]
        self.verifier = vers[0] if vers else None
        # OCR slots: a worker thread borrows one (localizer, verifier) pair at a time.
        self._slots: queue.Queue = queue.Queue()
        for i, loc in enumerate(locs):
            self._slots.put((loc, vers[i] if vers else None))
        self.workers = len(locs)
        self._lock = threading.Lock()
        self.output_dir = Path(output_dir)
        self.batch_size = max(1, int(batch_size))
        self.seed = int(seed)
        self.resume = resume
        self.progress = progress
        self.check_dicom_header = check_dicom_header
        self.needs_mask = getattr(condition, "needs_mask", True)
        fp = getattr(condition, "fingerprint", None)
        self.cond_fp = fp() if callable(fp) else str(getattr(condition, "name", type(condition).__name__))

    @contextmanager
    def _slot(self):
        """Borrow a (localizer, verifier) pair: one engine instance is never used by two threads at once."""
        pair = self._slots.get()
        try:
            yield pair
        finally:
            self._slots.put(pair)

    # -- state files ---------------------------------------------------------
    def _done(self) -> dict[str, dict]:
        if not self.resume:
            return {}
        return {r["key"]: r for r in read_jsonl(self.output_dir / PROGRESS_FILE) if "key" in r}

    def _quarantine(self, summary: RunSummary, item: Item, stage: str, problem: str, manifest: Manifest | None) -> None:
        problem = scrub(problem, manifest)
        stage = stage or "unknown"
        rec = {"item": item.id, "stage": stage, "reason": problem, "time": _now()}
        with self._lock:
            _append_jsonl(self.output_dir / QUARANTINE_FILE, rec)
            summary.quarantined += 1
            summary.by_reason[f"{stage}: {problem}"] += 1
            summary.by_stage[stage] += 1
            summary.quarantine.append(rec)
        log.warning("quarantined %s [%s]: %s", item.id, stage, problem)
        # A previous run may have released an older version of this item at
        # the same path; leaving it would release something that did not pass now.
        try:
            if item.out_path.exists() and _is_within(item.out_path.resolve(), self.output_dir.resolve()):
                if item.src_path is None or not os.path.samefile(item.out_path, item.src_path):
                    item.out_path.unlink()
        except OSError:
            pass

    def _fail(self, summary: RunSummary, item: Item, exc: BaseException, stage: str, manifest: Manifest | None) -> None:
        if isinstance(exc, ItemError):
            self._quarantine(summary, item, exc.stage or stage, exc.problem, manifest)
        elif isinstance(exc, MemoryError):
            self._quarantine(summary, item, stage, "out of memory", manifest)
        else:
            # Library messages may quote header values or text: keep the type only.
            self._quarantine(summary, item, stage, f"unexpected {type(exc).__name__}", manifest)

    # -- run -----------------------------------------------------------------
    def run(self, items: Sequence[Item], total: int | None = None) -> RunSummary:
        self.output_dir.mkdir(parents=True, exist_ok=True)
        (self.output_dir / QUARANTINE_FILE).write_text("")  # this run's quarantine only
        summary = RunSummary(condition=self.cond_fp)
        done = self._done()
        t0, c0 = time.perf_counter(), time.process_time()
        bar = _progress_bar(len(items) if total is None else total, self.progress, desc=f"sanitize[{self.cond_fp}]")
        pool = ThreadPoolExecutor(self.workers, thread_name_prefix="clinx-ocr") if self.workers > 1 else None

        def each(fn, xs):
            return list(pool.map(fn, xs)) if pool is not None else [fn(x) for x in xs]

        try:
            # Chunks at least as large as the worker count keep every OCR slot busy.
            for chunk in iter_chunks(items, max(self.batch_size, self.workers)):
                keys: dict[str, str] = {}
                summary.processed += len(chunk)
                prepared = [p for p in each(lambda it: self._prepare(it, summary, done, keys), chunk) if p is not None]
                bar.update(len(chunk) - len(prepared))
                self._apply(prepared, summary)
                each(lambda p: self._finish(p, summary, keys[p.item.id]), prepared)
                bar.update(len(prepared))
        finally:
            if pool is not None:
                pool.shutdown(wait=True)
            bar.close()
            summary.wall_s = time.perf_counter() - t0
            # CPU seconds of this process (all threads): on a shared machine the
            # wall clock also counts time other processes held the cores.
            summary.cpu_s = time.process_time() - c0
            (self.output_dir / SUMMARY_FILE).write_text(json.dumps(summary.to_dict(), indent=2))
        return summary

    def _prepare(self, item: Item, summary: RunSummary, done: dict, keys: dict) -> _Prepared | None:
        stage = "read"
        manifest = None
        try:
            key = text_digest(item.key_parts(), self.cond_fp, "verify" if self.verifier is not None else "")
            keys[item.id] = key
            prev = done.get(key)
            if prev is not None and (self.output_dir / prev.get("output", "")).is_file():
                with self._lock:
                    summary.skipped += 1
                    summary.outputs[item.id] = self.output_dir / prev["output"]
                return None
            loaded = item.load()
            manifest = loaded.manifest
            stage = "manifest"
            if not manifest:
                raise ItemError(item.id, "manifest has no non-empty fields; cannot tell PHI from other text", stage="manifest")
            stage = "localize"
            masks = []
            for frame in loaded.frames:
                if self.needs_mask:
                    with self._slot() as (localizer, _):
                        loc = localizer.locate(frame, manifest, item=item.id)
                    mask = np.asarray(loc.mask, dtype=bool)
                    if mask.shape != frame.shape[:2]:
                        raise ItemError(item.id, "localizer returned a mask of the wrong shape", stage="localize")
                else:
                    mask = np.zeros(frame.shape[:2], bool)
                masks.append(mask)
            return _Prepared(item, loaded, masks)
        except Exception as exc:  # noqa: BLE001 — fail closed on anything
            self._fail(summary, item, exc, stage, manifest)
            return None

    def _apply(self, prepared: list[_Prepared], summary: RunSummary) -> None:
        images, masks, seeds, owners = [], [], [], []
        for p in prepared:
            for i, (f, m) in enumerate(zip(p.loaded.frames, p.masks)):
                images.append(f)
                masks.append(m)
                seeds.append(seed_for(p.item.id, i, self.seed))
                owners.append(p)
        if not images:
            return
        try:
            outs = self.condition.apply_batch(images, masks, seeds)
            if len(outs) != len(images):
                raise RuntimeError("condition returned the wrong number of images")
            for p in prepared:
                p.outputs = []
            for p, o in zip(owners, outs):
                p.outputs.append(o)
        except Exception:  # noqa: BLE001
            # One bad item must not quarantine its whole batch: retry one by one.
            for p in prepared:
                try:
                    p.outputs = [
                        self.condition.apply(f, m, seed=seed_for(p.item.id, i, self.seed))
                        for i, (f, m) in enumerate(zip(p.loaded.frames, p.masks))
                    ]
                except Exception as exc:  # noqa: BLE001
                    p.outputs = None
                    self._fail(summary, p.item, exc, "condition", p.loaded.manifest)

    def _finish(self, p: _Prepared, summary: RunSummary, key: str) -> None:
        if p.outputs is None:
            return  # quarantined in _apply
        item, manifest = p.item, p.loaded.manifest
        stage = "condition"
        try:
            for f, m, o in zip(p.loaded.frames, p.masks, p.outputs):
                o = np.asarray(o)
                if o.dtype != np.uint8 or o.shape != f.shape:
                    raise ItemError(item.id, "condition returned an image of the wrong shape or type", stage="condition")
                changed = outside_mask_changed(f, m, o)
                if changed:
                    raise ItemError(item.id, f"condition changed {changed} pixels outside the PHI mask", stage="condition")
            if self.verifier is not None:
                stage = "verify"
                fields: Counter = Counter()
                with self._slot() as (_, verifier):
                    for o in p.outputs:
                        for match in verifier.locate(o, manifest, item=item.id).matches:
                            fields[str(getattr(match, "field", "unknown"))] += 1
                if fields:
                    names = ", ".join(sorted(fields))
                    raise ItemError(
                        item.id,
                        f"OCR still reads manifest text after sanitizing ({sum(fields.values())} match(es) in fields: {names})",
                        stage="verify",
                    )
            stage = "write"
            self._write(p)
        except Exception as exc:  # noqa: BLE001
            self._fail(summary, item, exc, stage, manifest)
            return
        rel = item.out_path.relative_to(self.output_dir).as_posix()
        with self._lock:
            _append_jsonl(self.output_dir / PROGRESS_FILE, {"key": key, "item": item.id, "output": rel, "condition": self.cond_fp, "time": _now()})
            summary.sanitized += 1
            summary.frames += len(p.outputs)
            summary.masked_pixels += int(sum(int(m.sum()) for m in p.masks))
            summary.outputs[item.id] = item.out_path

    def _write(self, p: _Prepared) -> None:
        from clinx.data.images import ensure_not_input, save_image_atomic

        out = p.item.out_path
        ensure_not_input(out, p.item.src_path)
        if p.loaded.dataset is None:
            if len(p.outputs) != 1:
                raise ItemError(p.item.id, "multi-frame raster inputs are not supported", stage="write")
            save_image_atomic(out, p.outputs[0], input_path=p.item.src_path)
            return
        from clinx.data.dicom import write_dicom_like
        from clinx.sanitize.header import deidentify_header

        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        try:
            header = deidentify_header(p.loaded.dataset, p.loaded.manifest)
            write_dicom_like(header, p.outputs, tmp, input_path=p.item.src_path)
            if self.check_dicom_header:
                leaked = dicom_header_leaks(tmp, p.loaded.manifest)
                if leaked:
                    raise ItemError(
                        p.item.id,
                        f"output DICOM header still holds manifest values (fields: {', '.join(sorted(leaked))})",
                        stage="write",
                    )
            os.replace(tmp, out)
        finally:
            if tmp.exists():
                tmp.unlink()


def dicom_header_leaks(path: Path, manifest: Manifest) -> set[str]:
    """Manifest fields whose value still appears in a text element of the DICOM header at ``path``."""
    import pydicom

    from clinx.metrics.leakage import compact

    ds = pydicom.dcmread(str(path), stop_before_pixels=True, force=True)
    values = {name: compact(v) for name, v in manifest.items()}
    values = {n: v for n, v in values.items() if len(v) >= 3}
    found: set[str] = set()

    def visit(dataset) -> None:
        for elem in dataset:
            if elem.VR == "SQ":
                for sub in elem.value or []:
                    visit(sub)
                continue
            if elem.VR not in {"PN", "LO", "SH", "LT", "ST", "UT", "DA", "DT", "AE", "CS", "UC", "UN", "IS", "DS", "TM"}:
                continue
            try:
                text = compact(str(elem.value))
            except Exception:  # noqa: BLE001
                continue
            if not text:
                continue
            for name, v in values.items():
                if v in text:
                    found.add(name)

    visit(ds)
    return found


def _progress_bar(total: int, enabled: bool, desc: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=not enabled, desc=desc, unit="img", leave=False)


# --------------------------------------------------------------------------- entry points


def sanitize_folder(
    input_dir: str | os.PathLike,
    output_dir: str | os.PathLike,
    condition: Condition,
    localizer,
    manifest_source: str | os.PathLike = "dicom",
    *,
    verify: bool = True,
    verifier=None,
    batch_size: int = 8,
    seed: int = 0,
    max_pixels: int | None = None,
    resume: bool = True,
    progress: bool = True,
) -> RunSummary:
    """Sanitize every PNG/JPEG/TIFF/BMP/DICOM file under ``input_dir`` into ``output_dir``.

    ``manifest_source`` is ``"dicom"`` (each file's header), a JSON manifest
    file for all items, or a folder of per-item JSON files (see
    :class:`ManifestSource`). ``verify`` re-reads each output with
    ``verifier`` (default: ``localizer``) and quarantines it if any manifest
    text is still matched. Raises :class:`~clinx.errors.ClinxError` for an
    unusable setup (missing input folder, output folder overlapping the
    input); per-item problems are quarantined, never raised. ``localizer``
    (and ``verifier``) may be lists of independent instances to OCR several
    items at once (see :class:`Sanitizer`).
    """
    from clinx.data.images import DEFAULT_MAX_PIXELS

    input_dir, output_dir = Path(input_dir), Path(output_dir)
    if not input_dir.is_dir():
        raise ClinxError("input_dir does not exist or is not a folder")
    check_folders(input_dir, output_dir)
    manifests = ManifestSource(manifest_source)
    if manifests.path is not None and _is_within(manifests.path.resolve(), output_dir.resolve()):
        raise ClinxError("the manifest source is inside output_dir; keep manifests (PHI) out of the released folder")
    files = iter_input_files(input_dir)
    planned = plan_outputs(input_dir, files, output_dir)
    mp = DEFAULT_MAX_PIXELS if max_pixels is None else int(max_pixels)
    items = [_file_item(f, input_dir, planned[f], manifests, mp) for f in files]
    runner = _sanitizer(
        condition, localizer, output_dir, verify, verifier, batch_size=batch_size, seed=seed, resume=resume, progress=progress
    )
    log.info("sanitizing %d files with %s", len(items), runner.cond_fp)
    return runner.run(items)


def _sanitizer(condition: Condition, localizer, output_dir: Path, verify: bool, verifier, **options) -> Sanitizer:
    """The :class:`Sanitizer` behind the public entry points.

    With ``verify`` on and no ``verifier`` given, the localizer re-checks its
    own output; with ``verify`` off nothing re-checks.
    """
    verifier = (verifier if verifier is not None else localizer) if verify else None
    return Sanitizer(condition, localizer, output_dir, verifier=verifier, **options)


def sanitize_samples(
    samples: Iterable[Sample],
    output_dir: str | os.PathLike,
    condition: Condition,
    localizer,
    *,
    verify: bool = False,
    verifier=None,
    batch_size: int = 8,
    seed: int = 0,
    resume: bool = True,
    progress: bool = True,
) -> RunSummary:
    """Sanitize benchmark samples (image + manifest in memory) into ``output_dir/<id>.png``.

    Same fail-closed rules as :func:`sanitize_folder`; the manifest is each
    sample's own. ``summary.outputs`` maps sample id → written file.
    """
    output_dir = Path(output_dir)
    items = [_sample_item(s, output_dir) for s in samples]
    runner = _sanitizer(
        condition, localizer, output_dir, verify, verifier, batch_size=batch_size, seed=seed, resume=resume, progress=progress
    )
    return runner.run(items)
