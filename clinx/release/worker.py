"""One release item, start to finish, in whichever process runs it: the part that scales out.

A :class:`ReleaseWorker` is built once per worker process (or Ray actor): it
loads the condition, the OCR localizer and the verifier(s) through a
picklable factory, then turns :class:`Task` s into :class:`Outcome` s:

* **DICOM** — decode (:func:`clinx.data.dicom.read_dicom`) → manifest from the
  header (plus any manifest the custodian gave) → pixels through the one
  sanitization core (:func:`clinx.sanitize.core.sanitize_frames`: localize →
  condition → outside-mask check → the other OCR engine verifies) → header
  through :class:`~clinx.release.header.HeaderDeidentifier` → encoded in the
  original transfer syntax when that loses nothing → **re-read** with pydicom:
  the decoded frames must equal the verified ones, and no manifest value may
  be left in any header element (sequences included).
* **image** (PNG, JPEG…) — the same core, written as PNG and re-read.
* **text** (sidecar reports, questions) — :func:`clinx.text.pipeline.deidentify`
  at the release level with the manifest of the DICOM objects beside it, then
  :func:`clinx.text.pipeline.rescan` (L1 + L2 + manifest): anything found → quarantine.

The worker writes nothing into the release: it returns the output bytes and a
PHI-free audit record, and the parent (:mod:`clinx.release.runner`) does the
atomic writes, so a Ray worker on another machine needs no shared disk.
Failures never raise: an input problem is ``failed`` (stage ``read``), a
processing or verification problem ``quarantined``; reasons are PHI-safe.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from clinx.errors import InputError, ItemError, safe_reason
from clinx.records import Manifest

__all__ = ["Task", "Outcome", "WorkerSettings", "ReleaseWorker", "merge_manifests", "unsupported_object"]

#: SOP classes that hold no image to sanitize (name fragments of pydicom's UID names) and why they are not released.
_NON_IMAGE_CLASSES = (
    ("Encapsulated PDF", "encapsulated PDF document (may hold PHI in free text; not released)"),
    ("Encapsulated CDA", "encapsulated CDA document (not released)"),
    ("SR Storage", "structured report (free-text content items; not released)"),
    ("Key Object Selection", "key object selection document (not released)"),
    ("Presentation State", "presentation state (may carry text annotations; not released)"),
)


@dataclass
class Task:
    """One unit of release work. ``path`` for workers that share the disk; ``data`` (the file's bytes) otherwise."""

    kind: str  # "dicom" | "image" | "text"
    rel: str
    label: str
    key: str
    path: str | None = None
    data: bytes | None = None
    manifest: Manifest | None = None
    rename: dict[str, str] | None = None  # jsonl: image path in a line -> the released image's path


@dataclass
class Outcome:
    """What a worker made of a task: ``status`` released | quarantined | failed, the output bytes, the audit record.

    ``record`` holds counts by field and action, modality, transfer syntax —
    never values. ``key_material`` (date shift, patient ID and UID maps) is
    filled only when the release keeps a key file; it holds PHI.
    """

    label: str
    key: str
    rel: str
    kind: str
    status: str
    stage: str = ""
    reason: str = ""
    data: bytes | None = None
    record: dict = field(default_factory=dict)
    key_material: dict | None = None


@dataclass(frozen=True)
class WorkerSettings:
    """Plain, picklable settings of a worker (the parts themselves come from the factory)."""

    seed: int = 0
    text_level: str = "L2"
    max_pixels: int = 50_000_000
    keep_key: bool = False


def merge_manifests(manifests) -> Manifest | None:
    """One manifest holding every value of ``manifests`` (``None`` entries skipped); a field seen with another value gets ``_2``, ``_3``…"""
    fields: dict[str, str] = {}
    rend: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for m in manifests:
        if not m:
            continue
        for name, value in m.fields.items():
            if not value or value in seen:
                continue
            seen.add(value)
            new, k = name, 1
            while new in fields:
                k += 1
                new = f"{name}_{k}"
            fields[new] = value
            if name in m.renderings:
                rend[new] = tuple(m.renderings[name])
    return Manifest(fields=fields, renderings=rend) if fields else None


def unsupported_object(dataset) -> str:
    """The reason a DICOM object is not an image clinx can release (``""`` when it is one)."""
    from pydicom.uid import UID

    sop = str(dataset.get("SOPClassUID", "") or "")
    try:
        name = UID(sop).name if sop else ""
    except Exception:  # noqa: BLE001 - a malformed UID names nothing
        name = ""
    for fragment, reason in _NON_IMAGE_CLASSES:
        if fragment in name:
            return reason
    return ""


#: Dataset fields de-identified as text (others, such as ``id`` or ``answer_type``, are kept as they are).
_DATASET_TEXT = ("question", "answer", "report", "caption", "text", "findings", "impression")


def _header_reason(path: Path) -> str:
    """:func:`unsupported_object` of the header at ``path`` (``""`` when it does not parse or is an image)."""
    import pydicom

    from clinx.data.dicom import quiet_pydicom

    try:
        with quiet_pydicom():
            return unsupported_object(pydicom.dcmread(str(path), stop_before_pixels=True, force=True))
    except Exception:  # noqa: BLE001 - the reader's own reason stands
        return ""


def _counts(counter) -> dict:
    return {str(k): int(v) for k, v in sorted(counter.items())}


def _actions(actions: Counter) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for (name, action), n in sorted(actions.items()):
        out.setdefault(name, {})[action] = int(n)
    return out


class ReleaseWorker:
    """Builds the parts once (``factory() -> (condition, localizer, verifier, header_deidentifier)``) and runs tasks.

    ``factory`` must be picklable (a module-level function or a
    :class:`clinx.release.runner.ConfigParts`): it is called in the worker
    process, so models load once per worker, never per item.
    """

    def __init__(self, factory: Callable, settings: WorkerSettings):
        self.condition, self.localizer, self.verifier, self.header = factory()
        self.settings = settings

    def run(self, task: Task) -> Outcome:
        """Process one task; never raises for a per-item problem."""
        out = Outcome(task.label, task.key, task.rel, task.kind, "failed")
        tmpdir = None
        try:
            path = task.path
            if task.data is not None:
                tmpdir = tempfile.mkdtemp(prefix="clinx-release-")
                path = os.path.join(tmpdir, "input" + Path(task.rel).suffix)
                with open(path, "wb") as fp:
                    fp.write(task.data)
            if task.kind == "dicom":
                self._dicom(task, Path(path), out)
            elif task.kind == "image":
                self._image(task, Path(path), out)
            elif task.kind == "text":
                self._text(task, Path(path), out)
            elif task.kind == "jsonl":
                self._jsonl(task, Path(path), out)
            else:
                raise ItemError(task.label, f"unknown task kind {task.kind!r}", stage="read")
        except InputError as exc:
            out.status, out.stage, out.reason = "failed", exc.stage or "read", safe_reason(exc, task.manifest)
        except Exception as exc:  # noqa: BLE001 - fail closed on anything
            out.status, out.stage, out.reason = "quarantined", getattr(exc, "stage", "") or "unknown", safe_reason(exc, task.manifest)
        finally:
            if tmpdir is not None:
                for p in Path(tmpdir).iterdir():
                    p.unlink()
                os.rmdir(tmpdir)
        if out.status != "released":
            out.data = None
            out.key_material = None
        return out

    # -- pixels ------------------------------------------------------------------
    def _sanitize(self, task: Task, frames, manifest: Manifest | None, out: Outcome):
        from clinx.sanitize.core import sanitize_frames

        res = sanitize_frames(frames, manifest, self.condition, self.localizer, self.verifier,
                              item=task.label, seed=self.settings.seed)
        out.record["pixel_reads_by_field"] = {e: _counts(c) for e, c in sorted(res.reads.items())}
        out.record["pixel_residual_by_field"] = {e: _counts(c) for e, c in sorted(res.verification.items())}
        out.record["masked_pixels"] = res.masked_pixels
        out.record["frames"] = len(frames)
        if not res.released:
            raise ItemError(task.label, res.reason, stage=res.stage or "unknown")
        if self.verifier is None:
            out.record["pixels_verified"] = False
        else:
            out.record["pixels_verified"] = True
        return res.outputs

    def _dicom(self, task: Task, path: Path, out: Outcome) -> None:
        from clinx.data.dicom import dicom_like_bytes, read_dicom
        from clinx.localize.manifests import manifest_from_dicom

        try:
            dcm = read_dicom(path, max_pixels=self.settings.max_pixels, item=task.label)
        except InputError:
            # an SR or an encapsulated PDF fails as "no pixel data"; say what the object is
            why = _header_reason(path)
            if why:
                raise InputError(task.label, why, stage="read") from None
            raise
        ds = dcm.dataset
        out.record.update(modality=str(ds.get("Modality", "") or "unknown"), transfer_syntax_in=dcm.transfer_syntax,
                          photometric_in=dcm.photometric, multi_frame=dcm.n_frames > 1)
        why = unsupported_object(ds)
        if why:
            raise InputError(task.label, why, stage="read")
        manifest = merge_manifests([manifest_from_dicom(ds), task.manifest])
        outputs = self._sanitize(task, dcm.frames, manifest, out)
        header = self.header(ds, manifest, pixels_cleaned=out.record.get("pixels_verified", False))
        data, syntax, note = dicom_like_bytes(header.dataset, outputs, sop_instance_uid=str(header.dataset.SOPInstanceUID),
                                              transfer_syntax=dcm.transfer_syntax)
        out.record.update(transfer_syntax_out=syntax, header_actions=_actions(header.actions))
        if note:
            out.record["transfer_syntax_note"] = note
        self._reread_dicom(task, data, outputs, manifest, out)
        out.data, out.status = data, "released"
        if self.settings.keep_key:
            out.key_material = {"patient": header.patient, "new_patient_id": header.new_patient_id,
                                "date_shift_days": header.shift_days, "uids": header.uid_map}

    def _reread_dicom(self, task: Task, data: bytes, outputs, manifest, out: Outcome) -> None:
        """Re-read the encoded output with pydicom: frames identical to the verified ones, no manifest value in the header."""
        from clinx.data.dicom import read_dicom
        from clinx.sanitize.header import dicom_header_leaks

        with tempfile.TemporaryDirectory(prefix="clinx-reread-") as d:
            p = Path(d) / "out.dcm"
            p.write_bytes(data)
            try:
                back = read_dicom(p, max_pixels=self.settings.max_pixels, item=task.label)
            except InputError as exc:
                raise ItemError(task.label, f"the written DICOM does not read back: {exc.problem}", stage="write") from None
            if len(back.frames) != len(outputs) or any(not np.array_equal(a, b) for a, b in zip(back.frames, outputs)):
                raise ItemError(task.label, "the written DICOM decodes to other pixels than the verified ones", stage="write")
            leaked = dicom_header_leaks(p, manifest)
            if leaked:
                raise ItemError(task.label, f"output header still holds manifest values (fields: {', '.join(sorted(leaked))})",
                                stage="write")
        out.record["reread"] = "ok"

    def _image(self, task: Task, path: Path, out: Outcome) -> None:
        from PIL import Image

        from clinx.data.images import load_image, load_image_bytes

        img = load_image(path, max_pixels=self.settings.max_pixels, item=task.label)
        out.record.update(modality="image")
        outputs = self._sanitize(task, [img], task.manifest, out)
        buf = io.BytesIO()
        Image.fromarray(outputs[0]).save(buf, format="PNG")
        data = buf.getvalue()
        back = load_image_bytes(data, item=task.label)
        if not np.array_equal(back, outputs[0]):
            raise ItemError(task.label, "the written PNG decodes to other pixels than the verified ones", stage="write")
        out.record["reread"] = "ok"
        out.data, out.status = data, "released"

    # -- text --------------------------------------------------------------------
    def _read_text(self, task: Task, path: Path) -> str:
        from clinx.data.guards import check_file

        check_file(path, task.label)
        try:
            return path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InputError(task.label, f"text is not UTF-8 (bad byte at offset {exc.start})", stage="read") from None

    def _clean(self, text: str, manifest: Manifest | None, removed: Counter, residual: Counter) -> str:
        """``text`` at the release level, then re-scanned; returns the cleaned text (``residual`` counts what is left)."""
        from clinx.text.pipeline import deidentify, rescan

        res = deidentify(text, self.settings.text_level, manifest)
        removed.update(res.counts())
        residual.update(s.category for s in rescan(res.text, manifest))
        return res.text

    def _jsonl(self, task: Task, path: Path, out: Outcome) -> None:
        """A dataset's JSONL (``image``, ``question``, ``answer``[, ``manifest``]): text fields de-identified with each
        line's manifest, the manifest itself dropped, image paths pointed at the released images."""
        import json

        from clinx.records import Manifest as _M

        out.record.update(modality="dataset")
        removed, residual, lines = Counter(), Counter(), []
        for n, line in enumerate(self._read_text(task, path).splitlines(), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                raise InputError(task.label, f"line {n} is not JSON", stage="read") from None
            if not isinstance(obj, dict):
                raise InputError(task.label, f"line {n} is not a JSON object", stage="read")
            try:
                own = _M.from_dict(obj["manifest"]) if isinstance(obj.get("manifest"), dict) else None
            except (TypeError, ValueError):
                raise InputError(task.label, f"line {n}: unusable manifest", stage="read") from None
            manifest = merge_manifests([own, task.manifest])
            new = {}
            for k, v in obj.items():
                if k == "manifest":
                    continue  # the manifest is PHI: never released
                if k in _DATASET_TEXT and isinstance(v, str):
                    before = sum(residual.values())
                    v = self._clean(v, manifest, removed, residual)
                    if sum(residual.values()) > before:
                        raise ItemError(task.label, f"line {n}, field {k}: the re-scan still finds identifiers", stage="verify")
                elif k == "image" and isinstance(v, str):
                    v = (task.rename or {}).get(v, v)
                new[k] = v
            lines.append(json.dumps(new, ensure_ascii=False))
        out.record["text_removed_by_category"] = _counts(removed)
        out.record["text_residual_by_category"] = _counts(residual)
        out.record["dataset_lines"] = len(lines)
        out.data, out.status = ("\n".join(lines) + "\n").encode("utf-8"), "released"

    def _text(self, task: Task, path: Path, out: Outcome) -> None:
        text = self._read_text(task, path)
        out.record.update(modality="text", text_manifest=bool(task.manifest))
        removed, residual = Counter(), Counter()
        cleaned = self._clean(text, task.manifest, removed, residual)
        out.record["text_removed_by_category"] = _counts(removed)
        out.record["text_residual_by_category"] = _counts(residual)
        if residual:
            raise ItemError(task.label, f"the re-scan still finds {sum(residual.values())} identifier(s) "
                            f"({', '.join(sorted(residual))})", stage="verify")
        out.data, out.status = cleaned.encode("utf-8"), "released"
