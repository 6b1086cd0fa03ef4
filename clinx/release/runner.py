"""``clinx release``: a DICOM tree or a folder of images (with sidecar text) in, a verified release out.

The parent process plans, the workers process, the parent writes:

1. **plan** — walk the input tree without following links
   (:func:`clinx.sanitize.inputs.scan_inputs`), give every file its output
   path (same layout; :func:`~clinx.sanitize.inputs.plan_outputs`), read the
   DICOM headers once (modality, and the manifest that sidecar text files in
   the same folder or below are checked against), and key each item by
   (relative path, input sha256, manifest, settings).
2. **resume** — an item whose key has an audit entry, and (when released)
   whose output is still there with the digest the journal recorded, is
   skipped (:class:`clinx.sanitize.journal.Journal`, the same journal
   ``clinx sanitize`` keeps).
3. **process** — :class:`clinx.release.worker.ReleaseWorker` in this process
   (``workers=1``), in a process pool (``workers>1``) or in Ray actors
   (``backend=ray``); models load once per worker.
4. **write** — each released output atomically (temp file + rename, the
   journal's ``writing`` record first), an audit entry per item
   (``audit.jsonl``), a stale output of an earlier run removed when the item
   no longer passes; at the end ``audit.json`` and ``audit.md``
   (:mod:`clinx.release.report`), deterministic, so a resumed run and an
   uninterrupted one give byte-identical releases. The key file
   (``key.json``, mode 0600: per-patient date shifts, patient IDs, UID maps)
   is written only when asked, into the key folder beside — never inside —
   the release.

The input tree is only ever read. ``dry_run`` plans and reports what would
happen without writing anything.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from clinx.atomic import write_text_atomic
from clinx.errors import ConfigError, ItemError, safe_reason
from clinx.records import Manifest, text_digest
from clinx.release.worker import Outcome, ReleaseWorker, Task, WorkerSettings, merge_manifests, unsupported_object

log = logging.getLogger(__name__)

__all__ = ["ReleaseSummary", "ConfigParts", "release_tree", "AUDIT_LOG", "AUDIT_JSON", "AUDIT_MD", "load_secret"]

AUDIT_LOG = "audit.jsonl"
AUDIT_JSON = "audit.json"
AUDIT_MD = "audit.md"
#: Files of the release folder that record a run rather than release data.
STATE_FILES = frozenset({"progress.jsonl", AUDIT_LOG})
TMP_MARK = ".clinx-tmp"
BACKENDS = ("local", "ray")


@dataclass
class ReleaseSummary:
    """What a run did (counts only; the per-item detail is in the audit)."""

    planned: int = 0
    released: int = 0
    quarantined: int = 0
    failed: int = 0
    skipped: int = 0
    not_processed: int = 0
    wall_s: float = 0.0
    dry_run: bool = False
    audit: dict = field(default_factory=dict)
    outputs: dict[str, Path] = field(default_factory=dict)  # rel -> released file (in memory only)

    processed: int = 0

    @property
    def files_per_s(self) -> float:
        """Items processed in this run (not skipped) per wall-clock second."""
        return self.processed / self.wall_s if self.wall_s > 0 else 0.0

    def to_dict(self) -> dict:
        """JSON-ready counts."""
        return {"planned": self.planned, "released": self.released, "quarantined": self.quarantined, "failed": self.failed,
                "skipped_resumed": self.skipped, "processed": self.processed, "not_processed": self.not_processed, "dry_run": self.dry_run,
                "wall_s": round(self.wall_s, 3), "files_per_s": round(self.files_per_s, 3)}

    def table(self) -> str:
        """A few lines for the console."""
        rows = list(self.to_dict().items())
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


class ConfigParts:
    """Picklable factory of a worker's parts from a plain ``release`` config dict (Hydra node as a container).

    Called in each worker: builds the condition, one localizer with its own
    OCR engine, the verifier(s) and the header de-identifier.
    """

    def __init__(self, cfg: dict, secret: str):
        self.cfg = cfg
        self.secret = secret

    def __call__(self):
        from hydra.utils import instantiate
        from omegaconf import OmegaConf

        from clinx.release.header import HeaderDeidentifier
        from clinx.sanitize.cli import localizers_from_config, verifiers_from_config

        cfg = OmegaConf.create(self.cfg)
        condition = instantiate(cfg.condition)
        needs_mask = getattr(condition, "needs_mask", True)
        localizer = localizers_from_config(cfg, 1)[0] if needs_mask or cfg.verify else None
        verifier = None
        if cfg.verify:
            verifier = list(verifiers_from_config(cfg, [localizer], 1)[0])
        header = HeaderDeidentifier(self.secret, keep_private=list(cfg.release.keep_private or []),
                                    shift_days=tuple(cfg.release.shift_days))
        return condition, localizer, verifier, header


def load_secret(key_dir: Path, *, create: bool) -> str:
    """The release secret kept in ``key_dir/secret`` (mode 0600), created on first use when ``create``.

    The secret keys UID remapping, replacement IDs and per-patient date
    shifts: the same secret gives the same release (resume, incremental
    releases of one archive). Whoever holds it can test a guessed original
    UID or ID against the release, so it lives with the key material,
    outside the release folder.
    """
    path = key_dir / "secret"
    if path.is_file():
        text = path.read_text(encoding="utf-8").strip()
        if not text:
            raise ConfigError("the release secret file is empty")
        return text
    if not create:
        return "dry-run-" + "0" * 16
    key_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(key_dir, 0o700)
    value = secrets.token_hex(32)
    write_text_atomic(path, value + "\n", mode=0o600)
    return value


# --------------------------------------------------------------------------- planning


@dataclass
class _Planned:
    task: Task
    out_path: Path | None
    modality: str = ""
    refused: str = ""


def _read_header(path: Path):
    """A header for planning (stop before pixels), or ``None`` when it does not parse (the worker reports why)."""
    import pydicom

    from clinx.data.dicom import quiet_pydicom

    try:
        with quiet_pydicom():
            return pydicom.dcmread(str(path), stop_before_pixels=True, force=True)
    except Exception:  # noqa: BLE001 - a corrupt file is the worker's to report, with a clear reason
        return None


_CLASH = "the output name is a release state file's name"


def _state_clash(out: Path, output_dir: Path) -> bool:
    """Whether ``out`` would overwrite one of the release folder's own files (journal, audit log, audit)."""
    return out.parent == output_dir and out.name in STATE_FILES | {AUDIT_JSON, AUDIT_MD}


def _extra_manifest(manifests, rel: str, label: str) -> Manifest | None:
    """The custodian's manifest for an item (a JSON file or folder); ``None`` for ``dicom`` / ``none`` (DICOM headers are always read)."""
    if manifests is None or manifests.kind in ("dicom", "none"):
        return None
    return manifests.load(rel, None, label=label)


def _dataset_links(input_dir: Path, datasets: list[str], planned_out: dict, output_dir: Path) -> tuple[dict, dict]:
    """For JSONL datasets: the manifest each line gives its image (image rel -> Manifest) and, per JSONL, how its
    image paths change in the release (``scan.jpg`` is released as ``scan.png``). Unreadable lines are left to the worker."""
    from clinx.records import Manifest as _M

    manifests: dict[str, list] = {}
    renames: dict[str, dict[str, str]] = {}
    for rel in datasets:
        folder = (input_dir / rel).parent
        ren: dict[str, str] = {}
        try:
            text = (input_dir / rel).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue
        for line in text.splitlines():
            try:
                obj = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                continue
            image = obj.get("image") if isinstance(obj, dict) else None
            if not isinstance(image, str) or Path(image).is_absolute() or ".." in Path(image).parts:
                continue
            img_rel = (folder / image).relative_to(input_dir).as_posix()
            out = planned_out.get(img_rel)
            if out is not None:
                ren[image] = out.relative_to(output_dir / Path(rel).parent).as_posix()  # relative to the released JSONL
            if isinstance(obj.get("manifest"), dict):
                try:
                    manifests.setdefault(img_rel, []).append(_M.from_dict(obj["manifest"]))
                except (TypeError, ValueError):
                    continue
        renames[rel] = ren
    return {k: merge_manifests(v) for k, v in manifests.items()}, renames


def _plan(input_dir: Path, output_dir: Path, *, log_paths: str, text_suffixes: tuple[str, ...], manifests,
          settings_fp: str) -> tuple[list[_Planned], list[tuple[str, str]]]:
    from clinx.data.guards import file_digest
    from clinx.localize.manifests import manifest_from_dicom
    from clinx.sanitize.core import manifest_digest
    from clinx.sanitize.inputs import item_label, plan_outputs, scan_inputs

    files, skipped = scan_inputs(input_dir)
    unsupported = [rel for rel, reason in skipped if reason.startswith("unsupported file type")]
    texts = [rel for rel in unsupported if Path(rel).suffix.lower() in text_suffixes]
    datasets = [rel for rel in unsupported if Path(rel).suffix.lower() == ".jsonl"]
    skipped = [(rel, reason) for rel, reason in skipped if rel not in set(texts) | set(datasets)]
    planned_out = plan_outputs(files, output_dir, "keep")
    line_manifests, renames = _dataset_links(input_dir, datasets, planned_out, output_dir)
    plans: list[_Planned] = []
    dicom_manifests: list[tuple[str, Manifest]] = []
    for f in files:
        label = item_label(f.rel, log_paths)
        out = planned_out[f.rel]
        refused = "" if out is not None and not _state_clash(out, output_dir) else \
            "the output name collides with another output or a release state file"
        modality = "image"
        try:
            manifest = merge_manifests([_extra_manifest(manifests, f.rel, label), line_manifests.get(f.rel)])
        except ItemError as exc:
            manifest, refused = None, refused or f"manifest: {exc.problem}"
        if f.dicom:
            ds = _read_header(f.path) if f.path.stat().st_size else None
            modality = str(ds.get("Modality", "") or "unknown") if ds is not None else "unreadable"
            if ds is not None and not unsupported_object(ds):
                dicom_manifests.append((f.rel, manifest_from_dicom(ds)))
            kind = "dicom"
        else:
            kind = "image"
        key = text_digest(kind, f.rel, file_digest(f.path), manifest_digest(manifest), settings_fp)
        plans.append(_Planned(Task(kind, f.rel, label, key, path=str(f.path), manifest=manifest), out, modality, refused))
    for rel in texts:
        folder = Path(rel).parent.as_posix()
        near = [m for r, m in dicom_manifests if folder == "." or r.startswith(folder + "/")]
        manifest = merge_manifests(near)
        path = input_dir / rel
        key = text_digest("text", rel, file_digest(path), manifest_digest(manifest), settings_fp)
        task = Task("text", rel, item_label(rel, log_paths), key, path=str(path), manifest=manifest)
        plans.append(_Planned(task, output_dir / rel, "text", _CLASH if _state_clash(output_dir / rel, output_dir) else ""))
    for rel in datasets:
        path = input_dir / rel
        key = text_digest("jsonl", rel, file_digest(path), json.dumps(renames.get(rel, {}), sort_keys=True), settings_fp)
        task = Task("jsonl", rel, item_label(rel, log_paths), key, path=str(path), rename=renames.get(rel, {}))
        plans.append(_Planned(task, output_dir / rel, "dataset", _CLASH if _state_clash(output_dir / rel, output_dir) else ""))
    plans.sort(key=lambda p: p.task.rel)
    return plans, [(item_label(rel, log_paths), reason) for rel, reason in skipped]


# --------------------------------------------------------------------------- backends


_WORKER: ReleaseWorker | None = None


def _init_worker(factory, settings) -> None:
    global _WORKER
    _WORKER = ReleaseWorker(factory, settings)


def _run_task(task: Task) -> Outcome:
    assert _WORKER is not None, "worker not initialised"
    return _WORKER.run(task)


def _local(tasks: list[Task], factory, settings: WorkerSettings, workers: int, mp_context: str) -> Iterator[Outcome]:
    if not tasks:
        return  # nothing to do: no models to load
    if workers <= 1:
        worker = ReleaseWorker(factory, settings)
        for t in tasks:
            yield worker.run(t)
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context(mp_context)
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(factory, settings)) as pool:
        pending = set()
        it = iter(tasks)
        # a bounded window: results are written as they arrive, the queue never holds the whole archive
        for t in it:
            pending.add(pool.submit(_run_task, t))
            if len(pending) >= 4 * workers:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield fut.result()
        for fut in list(pending):
            yield fut.result()


#: Seconds a local Ray head may take to publish its GCS port. Ray's own default (30 s) is too short on a loaded
#: two-core machine, where the head process was seen to take longer and the whole release failed at start.
RAY_HEAD_WAIT_S = 180


def start_local_ray(**init_kwargs) -> None:
    """Start a Ray instance on this machine, giving its head process :data:`RAY_HEAD_WAIT_S` to come up.

    A wait the user set in ``RAY_gcs_server_port_wait_time_s`` is kept.
    """
    import ray

    os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(RAY_HEAD_WAIT_S))
    ray.init(**init_kwargs)


def _ray(tasks: list[Task], factory, settings: WorkerSettings, workers: int, address: str | None,
         ray_init: dict | None) -> Iterator[Outcome]:
    """Ray actors, one per worker (``num_cpus=1`` each), each loading the models once; tasks carry the file bytes."""
    try:
        import ray
        from ray.util import ActorPool
    except ImportError:
        raise ConfigError("release.backend=ray needs Ray: pip install 'clinx[ray]'") from None
    if not tasks:
        return
    started = False
    if not ray.is_initialized():
        kw = dict(ray_init or {})
        kw.setdefault("include_dashboard", False)
        kw.setdefault("log_to_driver", False)
        if address:
            ray.init(address=address, **kw)
        else:
            kw.setdefault("num_cpus", workers)
            start_local_ray(**kw)
        started = True
    try:
        actor_cls = ray.remote(num_cpus=1)(ReleaseWorker)
        actors = [actor_cls.remote(factory, settings) for _ in range(max(1, workers))]
        pool = ActorPool(actors)

        def with_bytes(t: Task) -> Task:
            # a worker on another machine cannot read our disk: ship the input itself
            data = Path(t.path).read_bytes() if t.path else t.data
            return Task(t.kind, t.rel, t.label, t.key, None, data, t.manifest, t.rename)

        yield from pool.map_unordered(lambda a, t: a.run.remote(with_bytes(t)), tasks)
    finally:
        if started:
            ray.shutdown()


# --------------------------------------------------------------------------- run


def _clean_tmp(output_dir: Path) -> None:
    """Remove temp files a killed run of ours left (named ``.<name>.clinx-tmp``); nothing else is touched."""
    for dirpath, _, names in os.walk(output_dir, followlinks=False):
        for n in names:
            if n.startswith(".") and n.endswith(TMP_MARK):
                p = Path(dirpath) / n
                if p.is_file() and not p.is_symlink():
                    p.unlink()


def _outside(path: Path, *folders: Path) -> bool:
    rp = path.resolve()
    for f in folders:
        try:
            rp.relative_to(f.resolve())
            return False
        except ValueError:
            pass
    return True


def check_release_folders(input_dir: Path, output_dir: Path, key_dir: Path | None) -> None:
    """Refuse a layout where the release or the key folder could touch the input, or keys land in the release (:class:`ConfigError`)."""
    from clinx.sanitize.journal import check_output_dir
    from clinx.sanitize.runner import check_folders

    if not Path(input_dir).is_dir():
        raise ConfigError("input_dir does not exist or is not a folder")
    check_folders(Path(input_dir), Path(output_dir))
    check_output_dir(Path(output_dir))
    if key_dir is not None and not _outside(Path(key_dir), Path(input_dir), Path(output_dir)):
        raise ConfigError("the key folder must be outside the input and the release folders")


def release_tree(
    input_dir: str | os.PathLike,
    output_dir: str | os.PathLike,
    factory: Callable,
    *,
    secret_fp: str = "",
    settings_fp: str = "",
    seed: int = 0,
    text_level: str = "L2",
    max_pixels: int = 50_000_000,
    backend: str = "local",
    workers: int = 1,
    mp_context: str = "spawn",
    ray_address: str | None = None,
    ray_init: dict | None = None,
    dry_run: bool = False,
    resume: bool = True,
    key_file: bool = False,
    key_dir: str | os.PathLike | None = None,
    log_paths: str = "hash",
    text_suffixes: Iterable[str] = (".txt",),
    manifest_source=None,
    progress: Callable[[Iterable], Iterable] | None = None,
) -> ReleaseSummary:
    """Release ``input_dir`` into ``output_dir`` (see the module docstring); returns the summary with the audit.

    ``factory()`` returns ``(condition, localizer, verifier, header_deidentifier)``
    and runs in every worker (picklable for ``workers>1`` and Ray).
    ``secret_fp`` and ``settings_fp`` identify the header secret and the
    other settings for resume keys. ``key_file`` keeps per-patient date
    shifts, IDs and UID maps in ``key_dir/key.json`` (0600). Raises
    :class:`~clinx.errors.ConfigError` for an unusable setup; per-item
    problems are in the audit, never raised.
    """
    from clinx.release.report import build_audit, render_markdown
    from clinx.sanitize.inputs import LOG_PATHS
    from clinx.sanitize.journal import Journal, append_jsonl, read_jsonl

    t0 = time.perf_counter()
    input_dir, output_dir = Path(input_dir), Path(output_dir)
    check_release_folders(input_dir, output_dir, key_dir)
    if backend not in BACKENDS:
        raise ConfigError(f"release.backend must be one of {', '.join(BACKENDS)}")
    if log_paths not in LOG_PATHS:
        raise ConfigError(f"log.paths must be one of {', '.join(LOG_PATHS)}")
    if int(workers) < 1:
        raise ConfigError("workers must be at least 1")
    suffixes = tuple(s.lower() for s in text_suffixes)
    fp = text_digest(settings_fp, secret_fp, text_level, str(seed), str(max_pixels))
    plans, skipped = _plan(input_dir, output_dir, log_paths=log_paths, text_suffixes=suffixes, manifests=manifest_source,
                           settings_fp=fp)
    summary = ReleaseSummary(planned=len(plans), not_processed=len(skipped), dry_run=dry_run)

    if dry_run:
        prior = {r.get("key") for r in read_jsonl(output_dir / AUDIT_LOG)} if (output_dir / AUDIT_LOG).is_file() else set()
        would = Counter()
        for p in plans:
            would["skip (already released or recorded)" if p.task.key in prior else f"process {p.task.kind}"] += 1
        summary.audit = {"dry_run": True, "would": dict(sorted(would.items())),
                         "by_modality": dict(sorted(Counter(p.modality for p in plans).items())),
                         "not_processed": dict(sorted(Counter(r for _, r in skipped).items())),
                         "refused": sum(1 for p in plans if p.refused)}
        summary.skipped = would.get("skip (already released or recorded)", 0)
        summary.wall_s = time.perf_counter() - t0
        return summary

    journal = Journal(output_dir, resume=resume).open()
    try:
        _clean_tmp(output_dir)
        records: dict[str, dict] = {}
        for r in read_jsonl(output_dir / AUDIT_LOG):
            if isinstance(r.get("key"), str):
                records[r["key"]] = r
        key_log = None
        if key_file:
            if key_dir is None:
                raise ConfigError("key_file=true needs a key folder (release.key_dir)")
            key_log = _open_key_log(Path(key_dir))
        todo: list[_Planned] = []
        final: dict[str, dict] = {}
        for p in plans:
            prev = records.get(p.task.key) if resume else None
            if prev is not None and (prev.get("status") != "released" or journal.finished(p.task.key) is not None):
                final[p.task.rel] = prev
                summary.skipped += 1
                if prev.get("status") == "released" and p.out_path is not None:
                    summary.outputs[p.task.rel] = p.out_path
                continue
            if p.refused:
                rec = {"key": p.task.key, "item": p.task.label, "kind": p.task.kind, "status": "failed", "stage": "write",
                       "reason": p.refused, "modality": p.modality}
                append_jsonl(output_dir / AUDIT_LOG, rec)
                final[p.task.rel] = rec
                continue
            todo.append(p)
        by_key = {p.task.key: p for p in todo}
        settings = WorkerSettings(seed=int(seed), text_level=text_level, max_pixels=int(max_pixels), keep_key=bool(key_file))
        tasks = [p.task for p in todo]
        stream = (_local(tasks, factory, settings, int(workers), mp_context) if backend == "local"
                  else _ray(tasks, factory, settings, int(workers), ray_address, ray_init))
        for outcome in (progress(stream) if progress else stream):
            p = by_key[outcome.key]
            summary.processed += 1
            final[p.task.rel] = _finish(p, outcome, journal, output_dir, key_log, summary)
        counts = Counter(r.get("status") for r in final.values())
        summary.released, summary.quarantined, summary.failed = counts["released"], counts["quarantined"], counts["failed"]
        audit = build_audit([final[k] for k in sorted(final)], skipped, log_paths=log_paths)
        write_text_atomic(output_dir / AUDIT_JSON, json.dumps(audit, indent=2, sort_keys=True) + "\n")
        write_text_atomic(output_dir / AUDIT_MD, render_markdown(audit))
        if key_log is not None:
            _write_key_file(key_log)
        summary.audit = audit
    finally:
        journal.close()
    summary.wall_s = time.perf_counter() - t0
    return summary


def _finish(p: _Planned, outcome: Outcome, journal, output_dir: Path, key_log: Path | None, summary: ReleaseSummary) -> dict:
    """Write a released output atomically and record the item's audit entry; remove a stale output of an item that no longer passes."""
    import hashlib

    from clinx.sanitize.journal import append_jsonl

    rec = {"key": p.task.key, "item": p.task.label, "kind": p.task.kind, "status": outcome.status, **outcome.record}
    rec.setdefault("modality", p.modality)
    if outcome.status != "released":
        rec.update(stage=outcome.stage, reason=outcome.reason)
    if p.out_path is not None and outcome.status == "released":
        try:
            out = p.out_path
            if (out.exists() or out.is_symlink()) and not journal.owns(out):
                raise ConfigError("a file clinx did not write is at this item's output path; refusing to overwrite it")
            out.parent.mkdir(parents=True, exist_ok=True)
            if _outside(out.parent, output_dir):
                raise ConfigError("the output folder leads out of the release folder (a link); refusing to write there")
            if key_log is not None and outcome.key_material is not None:
                # the key entry first: a release whose key was asked for but not kept cannot be re-identified
                append_jsonl(key_log, {"item": p.task.label, **outcome.key_material})
            digest = hashlib.sha256(outcome.data or b"").hexdigest()  # = file_digest of what lands on disk
            tmp = out.with_name(f".{out.name}{TMP_MARK}")
            with open(tmp, "wb") as fp:
                fp.write(outcome.data or b"")
                fp.flush()
                os.fsync(fp.fileno())
            journal.intend(out, digest, p.task.label)
            os.replace(tmp, out)
            journal.record_done(p.task.key, out, digest, p.task.label, "release")
            rec["output_sha256"] = digest
            summary.outputs[p.task.rel] = out
        except Exception as exc:  # noqa: BLE001 - a write failure quarantines the item, the batch goes on
            rec.update(status="quarantined", stage="write", reason=safe_reason(exc, p.task.manifest))
            rec.pop("output_sha256", None)
    if rec["status"] != "released" and p.out_path is not None:
        try:
            if journal.remove(p.out_path) == "not ours":
                log.warning("%s: a file clinx did not write is at this item's output path; left alone", p.task.label)
        except Exception as exc:  # noqa: BLE001
            rec["stale_output"] = safe_reason(exc)
    append_jsonl(output_dir / AUDIT_LOG, rec)
    if rec["status"] != "released":
        log.warning("%s %s [%s]: %s", rec["status"], p.task.label, rec.get("stage", ""), rec.get("reason", ""))
    return rec


def _open_key_log(key_dir: Path) -> Path:
    """Create the key folder (0700) and its ``key.jsonl`` (0600) before any key material is written."""
    key_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(key_dir, 0o700)
    path = key_dir / "key.jsonl"
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    os.chmod(path, 0o600)
    return path


def _write_key_file(key_log: Path) -> None:
    """``key.json`` (0600) beside ``key.jsonl``: per patient the date shift and new ID, and the UID map — PHI, kept out of the release."""
    from clinx.sanitize.journal import read_jsonl

    patients: dict[str, dict] = {}
    uids: dict[str, str] = {}
    for r in read_jsonl(key_log):
        if r.get("patient") is not None:
            patients[str(r["patient"])] = {"new_patient_id": r.get("new_patient_id", ""), "date_shift_days": r.get("date_shift_days")}
        uids.update(r.get("uids") or {})
    doc = {"patients": dict(sorted(patients.items())), "uids": dict(sorted(uids.items()))}
    write_text_atomic(key_log.with_name("key.json"), json.dumps(doc, indent=1, sort_keys=True) + "\n", mode=0o600)
