"""Fail-closed batch sanitizer: folders of images / DICOM, or benchmark samples.

For every item: load → manifest → :func:`clinx.sanitize.core.sanitize_batch`
(localize → condition → outside-mask re-check → verify) → atomic write.
The rules that protect users:

* **Fail closed.** Any failure — unreadable input, broken manifest, OCR
  error, a condition that changed pixels outside its mask, verification that
  still reads PHI, a DICOM header that still holds a manifest value — sends
  the item to ``quarantine.jsonl`` (item label, stage, reason) and *nothing*
  for it is written; a stale output clinx released for it in an earlier run
  is removed (a failure to remove it is an error). The batch goes on.
* **Never touch what clinx did not write.** Inputs are only read; output
  folders that are, contain or sit inside the input folder are refused;
  ``output_dir`` must be new, empty or an earlier run's folder (its journal,
  :mod:`clinx.sanitize.journal`); a file clinx did not write is never
  overwritten or deleted.
* **Resume per item.** The journal key is (relative input path, input
  digest, manifest digest, settings fingerprint); an item is skipped only
  when its recorded output is still there, unchanged.
* **No PHI in logs, errors or summaries.** Reasons go through
  :func:`clinx.errors.safe_reason`; items are named by an opaque id unless
  ``log_paths="relative"``; released names can be opaque ids
  (``output_names="hash"``).

Files written in ``output_dir``: the sanitized images (PNG for raster
inputs, DICOM for DICOM inputs), ``progress.jsonl`` (the journal),
``quarantine.jsonl`` (this run's quarantined items), ``inputs_not_processed.jsonl``
(input entries not taken, with reasons) and ``summary.json``.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Sequence

from clinx.atomic import write_text_atomic
from clinx.errors import ClinxError, ConfigError, ItemError, safe_reason, scrub
from clinx.records import Manifest, Sample, iter_chunks, text_digest
from clinx.sanitize.conditions import Condition
from clinx.sanitize.core import FrameJob, SanitizedItem, engine_name, independent_verifier, part_fingerprint, sanitize_batch, seed_for
from clinx.sanitize.header import dicom_header_leaks
from clinx.sanitize.inputs import IMAGE_SUFFIXES, Item, Loaded, file_item, item_label, plan_outputs, sample_item, scan_inputs
from clinx.sanitize.journal import (
    INPUTS_FILE,
    PROGRESS_FILE,
    QUARANTINE_FILE,
    SUMMARY_FILE,
    Journal,
    append_jsonl,
    check_output_dir,
    now,
    read_jsonl,
)
from clinx.sanitize.summary import RunSummary

log = logging.getLogger(__name__)

__all__ = [
    "IMAGE_SUFFIXES",
    "PROGRESS_FILE",
    "QUARANTINE_FILE",
    "SUMMARY_FILE",
    "INPUTS_FILE",
    "RunSummary",
    "Sanitizer",
    "check_folders",
    "read_jsonl",
    "sanitize_folder",
    "sanitize_samples",
    "scrub",
    "seed_for",
]


def _is_within(child: Path, parent: Path) -> bool:
    try:
        child.relative_to(parent)
        return True
    except ValueError:
        return False


def check_folders(input_dir: Path, output_dir: Path) -> None:
    """Refuse folder layouts where outputs could overwrite or be re-read as inputs (:class:`ConfigError`)."""
    i, o = input_dir.resolve(), output_dir.resolve()
    if i == o:
        raise ConfigError("output_dir is the input folder; refusing to overwrite inputs")
    if _is_within(o, i):
        raise ConfigError("output_dir is inside input_dir; outputs would be read back as inputs on a rerun")
    if _is_within(i, o):
        raise ConfigError("input_dir is inside output_dir; outputs could overwrite inputs")


class _Pool:
    """Several independent localizers behind one ``locate``: a thread borrows one instance per call.

    One engine instance is never used by two threads at once; ``engine``,
    ``mode`` and ``fingerprint`` are the first instance's (all share settings).
    """

    def __init__(self, instances: list):
        self.instances = instances
        self.wrapped = instances[0]
        self._free: queue.Queue = queue.Queue()
        for x in instances:
            self._free.put(x)

    def __getattr__(self, name):  # engine, mode, … of the first instance
        if name in ("instances", "_free", "wrapped"):
            raise AttributeError(name)
        return getattr(self.instances[0], name)

    @contextmanager
    def borrow(self):
        x = self._free.get()
        try:
            yield x
        finally:
            self._free.put(x)

    def locate(self, image, manifest, *, item: str = "<image>"):
        with self.borrow() as x:
            return x.locate(image, manifest, item=item)

    def __repr__(self) -> str:
        return repr(self.instances[0])


class Sanitizer:
    """Runs items through the core (localize → condition → check → verify) and writes what passed, failing closed.

    ``localizer`` needs ``locate(image, manifest, *, item) -> Localization``
    (:class:`clinx.localize.PhiLocalizer`); ``verifier`` is a second
    localizer (by default built by the entry points with the *other* OCR
    engine); ``None`` disables verification. ``verifier`` may be one instance,
    a list with one per worker, and each of those a tuple of verifiers with
    different engines (``verify_engine=both``: every one must read nothing).

    Parallelism: pass a *list* of localizers (each with its own engine
    instance) to OCR that many items at once in threads — ONNX Runtime and
    PyTorch release the GIL while they run, so on a 2-core machine two
    single-threaded RapidOCR instances keep both cores busy through the whole
    pipeline. ``verifier`` may be a list of the same length. The condition
    runs in the calling thread, batched across items.
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
            raise ConfigError("at least one localizer is needed")
        # Verifiers: one instance (shared by every worker), or one per worker; an
        # entry may be a tuple of verifiers with different engines (all must read nothing).
        per_worker: list[tuple] = []
        if verifier is not None:
            vers = list(verifier) if isinstance(verifier, list) else [verifier] * len(locs)
            if len(vers) != len(locs):
                raise ConfigError("give as many verifiers as localizers")
            per_worker = [tuple(v) if isinstance(v, tuple) else (v,) for v in vers]
            if len({len(v) for v in per_worker}) != 1:
                raise ConfigError("every worker needs the same verification engines")
        self.workers = len(locs)
        self.loc_pool = _Pool(locs)
        self.ver_pools: list[_Pool] = []
        for k in range(len(per_worker[0]) if per_worker else 0):
            instances = [w[k] for w in per_worker]
            # the same instances that localize also verify: one pool, never two threads on one engine
            same = all(v is l for v, l in zip(instances, locs))
            self.ver_pools.append(self.loc_pool if same else _Pool(instances))
        self.localizer = locs[0]
        self.verifier = per_worker[0] if per_worker else None
        self.loc_engine = engine_name(self.localizer)
        self.ver_engines = [engine_name(p) for p in self.ver_pools]
        self._lock = threading.Lock()
        self.output_dir = Path(output_dir)
        self.batch_size = max(1, int(batch_size))
        self.seed = int(seed)
        self.resume = resume
        self.progress = progress
        self.check_dicom_header = check_dicom_header
        self.cond_fp = part_fingerprint(condition) if hasattr(condition, "fingerprint") else str(getattr(condition, "name", type(condition).__name__))
        self.settings_fp = text_digest(
            self.cond_fp,
            part_fingerprint(self.localizer) if getattr(condition, "needs_mask", True) else "",
            "|".join(part_fingerprint(v) for v in self.verifier) if self.verifier else "noverify",
            str(self.seed),
            str(bool(check_dicom_header)),
        )
        self.journal: Journal | None = None

    # -- quarantine ------------------------------------------------------------
    def _quarantine(self, summary: RunSummary, item: Item, stage: str, problem, manifest: Manifest | None) -> None:
        reason = safe_reason(problem, manifest)
        stage = stage or "unknown"
        rec = {"item": item.id, "stage": stage, "reason": reason, "time": now()}
        with self._lock:
            # A previous run may have released an older version of this item at
            # the same path; leaving it would release something that did not pass now.
            if item.out_path is not None and self.journal is not None:
                try:
                    status = self.journal.remove(item.out_path)
                except ClinxError as exc:
                    status = "failed"
                    rec["stale_output"] = safe_reason(exc)
                    summary.stale_left += 1
                    log.error("%s: %s", item.id, rec["stale_output"])
                if status == "not ours":
                    log.warning("%s: a file clinx did not write is at this item's output path; left alone", item.id)
            append_jsonl(self.output_dir / QUARANTINE_FILE, rec)
            summary.quarantined += 1
            summary.by_reason[f"{stage}: {reason}"] += 1
            summary.by_stage[stage] += 1
            summary.quarantine.append(rec)
        log.warning("quarantined %s [%s]: %s", item.id, stage, reason)

    # -- run -------------------------------------------------------------------
    def run(self, items: Sequence[Item], skipped_inputs: Sequence[tuple[str, str]] = (), total: int | None = None) -> RunSummary:
        """Process ``items`` (``skipped_inputs``: ``(label, reason)`` of input entries not taken, recorded) and return the summary."""
        self.journal = Journal(self.output_dir, resume=self.resume).open()
        try:
            write_text_atomic(self.output_dir / QUARANTINE_FILE, "")  # this run's quarantine only
            summary = RunSummary(condition=self.cond_fp)
            summary.settings = {"localize_engine": self.loc_engine if getattr(self.condition, "needs_mask", True) else None,
                                "verify_engines": self.ver_engines}
            lines = []
            for label, reason in skipped_inputs:
                summary.not_processed[reason] += 1
                lines.append(json.dumps({"item": label, "reason": reason}, ensure_ascii=True))
                log.warning("not processed: %s: %s", label, reason)
            write_text_atomic(self.output_dir / INPUTS_FILE, "".join(x + "\n" for x in lines))
        except BaseException:
            self.journal.close()
            raise
        t0, c0 = time.perf_counter(), time.process_time()
        bar = _progress_bar(len(items) if total is None else total, self.progress, desc=f"sanitize[{self.cond_fp}]")
        pool = ThreadPoolExecutor(self.workers, thread_name_prefix="clinx-ocr") if self.workers > 1 else None

        def each(fn, xs):
            xs = list(xs)
            return list(pool.map(fn, xs)) if pool is not None else [fn(x) for x in xs]

        try:
            # Chunks at least as large as the worker count keep every OCR slot busy.
            for chunk in iter_chunks(items, max(self.batch_size, self.workers)):
                summary.processed += len(chunk)
                prepared = [p for p in each(lambda it: self._prepare(it, summary), chunk) if p is not None]
                bar.update(len(chunk) - len(prepared))
                jobs = [FrameJob(loaded.frames, loaded.manifest, item.id) for item, _, loaded in prepared]
                results = sanitize_batch(jobs, self.condition, self.loc_pool, self.ver_pools or None, seed=self.seed, each=each)
                each(lambda pr: self._finish(*pr[0], pr[1], summary), list(zip(prepared, results)))
                bar.update(len(prepared))
        finally:
            if pool is not None:
                pool.shutdown(wait=True)
            bar.close()
            summary.wall_s = time.perf_counter() - t0
            # CPU seconds of this process (all threads): on a shared machine the
            # wall clock also counts time other processes held the cores.
            summary.cpu_s = time.process_time() - c0
            try:
                write_text_atomic(self.output_dir / SUMMARY_FILE, json.dumps(summary.to_dict(), indent=2))
            finally:
                self.journal.close()
        return summary

    def _prepare(self, item: Item, summary: RunSummary) -> tuple[Item, str, Loaded] | None:
        stage = "read"
        try:
            if item.refused:
                stage = "write"
                raise ItemError(item.id, item.refused, stage="write")
            key = text_digest(item.key_parts(), self.settings_fp)
            with self._lock:
                prev = self.journal.finished(key)
                if prev is not None:
                    summary.skipped += 1
                    summary.outputs[item.rel or item.id] = prev
                    return None
            loaded = item.load()
            return item, key, loaded
        except Exception as exc:  # noqa: BLE001 — fail closed on anything
            self._quarantine(summary, item, getattr(exc, "stage", "") or stage, exc, None)
            return None

    def _finish(self, item: Item, key: str, loaded: Loaded, result: SanitizedItem, summary: RunSummary) -> None:
        with self._lock:
            summary.add_engine_counts(result, self.loc_engine, self.ver_engines)
        if not result.released:
            self._quarantine(summary, item, result.stage, result.reason, loaded.manifest)
            return
        try:
            self._write(item, loaded, result.outputs, key)
        except Exception as exc:  # noqa: BLE001
            self._quarantine(summary, item, "write", exc, loaded.manifest)
            return
        with self._lock:
            summary.sanitized += 1
            summary.frames += len(result.outputs)
            summary.masked_pixels += result.masked_pixels
            summary.outputs[item.rel or item.id] = item.out_path

    def _write(self, item: Item, loaded: Loaded, outputs, key: str) -> str:
        from clinx.data.guards import ensure_not_input, file_digest
        from clinx.data.images import save_image_atomic

        out = item.out_path
        ensure_not_input(out, item.src_path, item=item.id)
        with self._lock:
            if (out.exists() or out.is_symlink()) and not self.journal.owns(out):
                raise ItemError(item.id, "a file clinx did not write is at this item's output path; refusing to overwrite it", stage="write")
        out.parent.mkdir(parents=True, exist_ok=True)
        if not _is_within(out.parent.resolve(), self.output_dir.resolve()):
            # a link placed inside output_dir would send the release (and the deletes) elsewhere
            raise ItemError(item.id, "the output folder leads out of output_dir (a link); refusing to write there", stage="write")
        tmp = out.with_name(f".{out.name}.{os.getpid()}.{threading.get_ident()}.clinx-tmp{out.suffix}")
        try:
            if loaded.dataset is None:
                if len(outputs) != 1:
                    raise ItemError(item.id, "multi-frame raster inputs are not supported", stage="write")
                save_image_atomic(tmp, outputs[0], input_path=item.src_path)
            else:
                from clinx.data.dicom import write_dicom_like
                from clinx.sanitize.header import deidentify_header

                header = deidentify_header(loaded.dataset, loaded.manifest)
                write_dicom_like(header, outputs, tmp, input_path=item.src_path)
                if self.check_dicom_header:
                    leaked = dicom_header_leaks(tmp, loaded.manifest)
                    if leaked:
                        raise ItemError(
                            item.id,
                            f"output DICOM header still holds manifest values (fields: {', '.join(sorted(leaked))})",
                            stage="write",
                        )
            digest = file_digest(tmp)
            with self._lock:
                # Re-checked under the lock: nothing may have appeared at the path meanwhile.
                if (out.exists() or out.is_symlink()) and not self.journal.owns(out):
                    raise ItemError(item.id, "a file clinx did not write is at this item's output path; refusing to overwrite it", stage="write")
                self.journal.intend(out, digest, item.id)
                os.replace(tmp, out)
                self.journal.record_done(key, out, digest, item.id, self.settings_fp)
            return digest
        finally:
            if tmp.exists():
                tmp.unlink()


def _progress_bar(total: int, enabled: bool, desc: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, disable=not enabled, desc=desc, unit="img", leave=False)


# --------------------------------------------------------------------------- entry points


def _verifiers(localizer, verify: bool, verifier):
    """The verifier(s): ``verifier`` if given, else the localizer's settings with the *other* OCR engine (:func:`independent_verifier`)."""
    if not verify:
        return None
    if verifier is not None:
        return verifier
    if isinstance(localizer, (list, tuple)):
        return [independent_verifier(loc, cache=len(localizer) == 1) for loc in localizer]
    return independent_verifier(localizer)


def sanitize_folder(
    input_dir: str | os.PathLike,
    output_dir: str | os.PathLike,
    condition: Condition,
    localizer,
    manifest_source: str | os.PathLike | None = "dicom",
    *,
    verify: bool = True,
    verifier=None,
    batch_size: int = 8,
    seed: int = 0,
    max_pixels: int | None = None,
    resume: bool = True,
    progress: bool = True,
    log_paths: str = "hash",
    output_names: str = "keep",
) -> RunSummary:
    """Sanitize every PNG/JPEG/TIFF/BMP/GIF/WebP/DICOM file under ``input_dir`` into ``output_dir``.

    ``manifest_source`` is ``"dicom"`` (each file's header), ``None`` /
    ``"none"`` (no manifest: identifier patterns only, with a
    ``manifest+patterns`` localizer), a JSON manifest file for all items, or
    a folder of per-item JSON files (see
    :class:`clinx.localize.manifests.ManifestSource`). ``verify`` re-reads
    each output with ``verifier`` — by default the localizer's settings with
    the *other* OCR engine — and quarantines it if any PHI is still matched.
    ``log_paths`` (``hash`` | ``relative``) says how items are named in logs
    and records; ``output_names`` (``keep`` | ``hash``) how released files are
    named. Raises :class:`~clinx.errors.ClinxError` for an unusable setup
    (missing input folder, output folder overlapping the input or holding
    files clinx did not write); per-item problems are quarantined, never
    raised. ``localizer`` (and ``verifier``) may be lists of independent
    instances to OCR several items at once (see :class:`Sanitizer`).
    """
    from clinx.data.images import DEFAULT_MAX_PIXELS
    from clinx.localize.manifests import ManifestSource

    input_dir, output_dir = Path(input_dir), Path(output_dir)
    if not input_dir.is_dir():
        raise ConfigError("input_dir does not exist or is not a folder")
    check_folders(input_dir, output_dir)
    check_output_dir(output_dir)
    item_label("", log_paths)  # validates the policy before any work
    manifests = ManifestSource(manifest_source)
    if manifests.path is not None and _is_within(manifests.path.resolve(), output_dir.resolve()):
        raise ConfigError("the manifest source is inside output_dir; keep manifests (PHI) out of the released folder")
    if manifests.kind == "none":
        modes = {str(getattr(loc, "mode", "")) for loc in (localizer if isinstance(localizer, (list, tuple)) else [localizer])}
        if "manifest" in modes and getattr(condition, "needs_mask", True):
            raise ConfigError("manifest=none needs a localizer mode that works without a manifest (manifest+patterns, patterns or all_text)")
    files, skipped = scan_inputs(input_dir)
    planned = plan_outputs(files, output_dir, output_names)
    mp = DEFAULT_MAX_PIXELS if max_pixels is None else int(max_pixels)
    items = [file_item(f, item_label(f.rel, log_paths), planned[f.rel], manifests, mp) for f in files]
    skipped_labels = [(item_label(rel, log_paths), reason) for rel, reason in skipped]
    runner = Sanitizer(
        condition, localizer, output_dir, verifier=_verifiers(localizer, verify, verifier),
        batch_size=batch_size, seed=seed, resume=resume, progress=progress,
    )
    log.info("sanitizing %d files with %s", len(items), runner.cond_fp)
    return runner.run(items, skipped_labels)


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

    Same fail-closed rules and core as :func:`sanitize_folder`; the manifest
    is each sample's own; items are named by their sample ids.
    ``summary.outputs`` maps sample id → written file.
    """
    output_dir = Path(output_dir)
    check_output_dir(output_dir)
    items = [sample_item(s, output_dir) for s in samples]
    runner = Sanitizer(
        condition, localizer, output_dir, verifier=_verifiers(localizer, verify, verifier),
        batch_size=batch_size, seed=seed, resume=resume, progress=progress,
    )
    return runner.run(items)
