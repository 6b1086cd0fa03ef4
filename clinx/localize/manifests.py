"""Manifests of known identifiers from JSON files or DICOM headers.

A manifest says *what* is PHI in an item; the matcher then finds *where*.
Errors name the file and the field names involved, never a value.

JSON shapes accepted by :func:`manifest_from_json`:

* flat: ``{"patient_name": "DOE^JOHN", "mrn": "00482913"}``
* structured: ``{"fields": {...}, "renderings": {"birth_date": ["03/14/1961"]}}``
* a list value is read as one value drawn in several ways
  (``{"other_id": ["A1", "A1-X"]}``: the first is the value, all are renderings).

Per-item files for :func:`manifests_from_json` map image names to such
objects (``{"img1.png": {...}, ...}`` or ``{"items": {...}}``), or are a list
of objects that carry the image name under ``image``/``image_name``/``file``.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Mapping

from clinx.errors import InputError, ItemError
from clinx.records import Manifest

from .normalize import date_renderings, name_parts, name_variants

_IMAGE_KEYS = ("image", "image_name", "img_name", "file", "filename", "path")
_MAX_JSON_BYTES = 64 * 1024 * 1024
#: Deepest nesting a manifest document may have: per-item file > item > fields > value list is 4.
_MAX_DEPTH = 16
#: Zero-padded widths rendered for an ID given as a JSON number (its leading zeros were lost).
_ID_PAD_WIDTHS = range(6, 13)

log = logging.getLogger(__name__)


# -------------------------------------------------------------------- JSON
def read_manifest_file(path: Path, *, item: str | None = None) -> Any:
    """Parse a manifest JSON file (UTF-8, BOM allowed, at most 64 MiB).

    Errors are :class:`~clinx.errors.InputError` (``stage="manifest"``) naming
    ``item`` (default: the file name) and the problem, never the content.
    """
    label = item or path.name
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(label, f"cannot read manifest file ({type(exc).__name__})", stage="manifest") from None
    if size > _MAX_JSON_BYTES:
        raise InputError(label, f"manifest file is too large ({size} bytes)", stage="manifest")
    raw = path.read_bytes()
    if not raw.strip():
        raise InputError(label, f"manifest file is empty ({size} bytes)", stage="manifest")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(label, f"manifest is not UTF-8 text (bad byte at offset {exc.start})", stage="manifest") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        # exc.msg is the parser's description only; the document is not quoted.
        raise InputError(label, f"malformed JSON manifest: {exc.msg} at line {exc.lineno} column {exc.colno}", stage="manifest") from None
    except RecursionError:
        raise InputError(label, "manifest JSON is nested too deeply", stage="manifest") from None
    if _depth_exceeds(obj, _MAX_DEPTH):
        # Deep documents that json could still parse would hit the recursion
        # limit later, in code that walks them; refuse them here, clearly.
        raise InputError(label, f"manifest JSON is nested more than {_MAX_DEPTH} levels deep", stage="manifest")
    return obj


def _depth_exceeds(obj: Any, limit: int) -> bool:
    """Whether ``obj`` nests lists/objects deeper than ``limit`` (iterative: no recursion on hostile input)."""
    stack = [(obj, 1)]
    while stack:
        cur, d = stack.pop()
        if isinstance(cur, Mapping):
            kids = list(cur.values())
        elif isinstance(cur, list):
            kids = cur
        else:
            continue
        if d > limit:
            return True
        stack.extend((k, d + 1) for k in kids if isinstance(k, (Mapping, list)))
    return False


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float)) and not isinstance(v, bool)


def _padded(v: int) -> list[str]:
    """``v`` zero-padded to the usual ID widths (only widths longer than ``v`` itself)."""
    digits = str(v)
    return [digits.zfill(w) for w in _ID_PAD_WIDTHS if w > len(digits)]


def _parse_manifest_obj(obj: Any, label: str) -> Manifest:
    if not isinstance(obj, Mapping):
        raise InputError(label, f"manifest must be a JSON object, got {type(obj).__name__}", stage="manifest")
    if "fields" in obj:
        fields_obj = obj["fields"]
        if not isinstance(fields_obj, Mapping):
            raise InputError(label, f"manifest 'fields' must be an object, got {type(fields_obj).__name__}", stage="manifest")
        rend_obj = obj.get("renderings") or {}
        if not isinstance(rend_obj, Mapping):
            raise InputError(label, "manifest 'renderings' must be an object of lists", stage="manifest")
    else:
        fields_obj, rend_obj = obj, {}
    fields: dict[str, str] = {}
    renderings: dict[str, list[str]] = {}
    bad: list[str] = []
    numeric: list[str] = []
    for k, v in fields_obj.items():
        if v is None:
            continue
        if isinstance(v, float) and v.is_integer():
            v = int(v)  # 482913.0 from a spreadsheet export is the ID 482913
        if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            # A JSON number lost any leading zeros the ID had (00482913 -> 482913),
            # but the burned-in text still shows them: match the padded forms too.
            fields[str(k)] = str(v)
            renderings.setdefault(str(k), []).extend(_padded(v))
            numeric.append(str(k))
        elif _scalar(v):
            fields[str(k)] = str(v)
        elif isinstance(v, list) and all(_scalar(x) or x is None for x in v):
            vals = [str(x) for x in v if x is not None and str(x).strip()]
            if vals:
                fields[str(k)] = vals[0]
                renderings.setdefault(str(k), []).extend(vals)
        else:
            bad.append(str(k))
    for k, v in rend_obj.items():
        if isinstance(v, list) and all(_scalar(x) or x is None for x in v):
            renderings.setdefault(str(k), []).extend(str(x) for x in v if x is not None)
        elif _scalar(v):
            renderings.setdefault(str(k), []).append(str(v))
        else:
            bad.append(f"renderings.{k}")
    if numeric:
        # Field names only: the label may hold an image name from a per-item file.
        log.warning(
            "manifest field(s) %s given as JSON numbers; identifiers should be strings (leading zeros are lost) — "
            "zero-padded forms are matched as well",
            ", ".join(sorted(numeric)),
        )
    if bad:
        raise InputError(label, f"manifest fields with unsupported values (need text, a number or a list of them): {', '.join(sorted(bad))}", stage="manifest")
    # A rendering without a canonical value still identifies PHI: promote the first.
    for k, vals in renderings.items():
        if k not in fields and any(s.strip() for s in vals):
            fields[k] = next(s for s in vals if s.strip())
    m = Manifest(fields=fields, renderings={k: tuple(v) for k, v in renderings.items()})
    if not m:
        names = sorted(set(map(str, fields_obj.keys())) | set(map(str, rend_obj.keys())))
        listed = ", ".join(names) if names else "none"
        raise InputError(label, f"manifest has no non-empty fields (fields present: {listed}); cannot tell PHI from other text", stage="manifest")
    return m


def manifest_from_json(path_or_obj: str | os.PathLike | Mapping, *, item: str | None = None) -> Manifest:
    """A :class:`Manifest` from a JSON file path or an already-parsed object.

    Raises :class:`~clinx.errors.InputError` (``stage="manifest"``) for an
    unreadable, empty, non-UTF-8 or malformed file, a non-object document,
    unsupported value types, and a manifest whose fields are all empty or
    missing — naming the file (or ``item``) and field names, never values.
    """
    if isinstance(path_or_obj, Mapping):
        return _parse_manifest_obj(path_or_obj, item or "<manifest>")
    path = Path(path_or_obj)
    return _parse_manifest_obj(read_manifest_file(path), item or path.name)


def manifests_from_json(path_or_obj: str | os.PathLike | Mapping | list, *, item: str | None = None) -> dict[str, Manifest]:
    """Per-image manifests from one JSON file: ``{image name: Manifest}``.

    Every entry is validated like :func:`manifest_from_json`; the first bad
    entry raises :class:`~clinx.errors.InputError` naming the file and the
    image key (image names are file names, not PHI).
    """
    if isinstance(path_or_obj, (Mapping, list)):
        obj, label = path_or_obj, item or "<manifests>"
    else:
        path = Path(path_or_obj)
        obj, label = read_manifest_file(path), item or path.name
    entries: list[tuple[str, Any]] = []
    if isinstance(obj, Mapping):
        inner = obj.get("items", obj) if isinstance(obj.get("items"), (Mapping, list)) else obj
        if isinstance(inner, list):
            obj = inner
        else:
            entries = [(str(k), v) for k, v in inner.items()]
    if isinstance(obj, list):
        for i, e in enumerate(obj):
            if not isinstance(e, Mapping):
                raise InputError(label, f"entry {i} is not a JSON object", stage="manifest")
            key = next((str(e[k]) for k in _IMAGE_KEYS if k in e and _scalar(e[k])), None)
            if key is None:
                raise InputError(label, f"entry {i} names no image (expected one of: {', '.join(_IMAGE_KEYS)})", stage="manifest")
            body = {k: v for k, v in e.items() if k not in _IMAGE_KEYS}
            if "manifest" in body and isinstance(body["manifest"], Mapping):
                body = body["manifest"]
            entries.append((key, body))
    elif not isinstance(obj, Mapping):
        raise InputError(label, f"per-item manifests must be a JSON object or list, got {type(obj).__name__}", stage="manifest")
    if not entries:
        raise InputError(label, "per-item manifest file lists no images", stage="manifest")
    return {k: _parse_manifest_obj(v, f"{label}:{k}") for k, v in entries}


# ------------------------------------------------------------------- DICOM
#: DICOM keyword -> manifest field for single-valued text / ID attributes.
_DICOM_TEXT = {
    "PatientID": "mrn",
    "InstitutionName": "hospital_name",
    "AccessionNumber": "accession",
}
#: DICOM date keyword -> manifest field; rendered in all common forms.
_DICOM_DATES = {
    "PatientBirthDate": "birth_date",
    "StudyDate": "study_date",
    "SeriesDate": "series_date",
    "AcquisitionDate": "acquisition_date",
    "ContentDate": "content_date",
}


def _pn_fields(prefix: str, pn: Any, fields: dict, renderings: dict) -> None:
    """A DICOM person name as a full-name field plus one field per component."""
    text = str(pn or "").split("=")[0].strip()  # alphabetic group only; ideographic groups follow '='
    if not text.strip("^ "):
        return
    fields[prefix] = text
    renderings[prefix] = list(name_variants(text))
    parts = name_parts(text)
    names = ("family_name", "given_name", "middle_name")
    for label, part in zip(names, parts):
        if part.strip():
            fields[f"{prefix}_{label}"] = part.strip()


def _str_values(v: Any) -> list[str]:
    if v is None:
        return []
    if isinstance(v, (list, tuple)) or type(v).__name__ == "MultiValue":
        return [str(x).strip() for x in v if str(x).strip()]
    s = str(v).strip()
    return [s] if s else []


def manifest_from_dicom(dataset) -> Manifest:
    """Identifiers from a DICOM header (a ``pydicom.Dataset``).

    Fields: ``patient_name`` (as stored, with renderings in both name orders)
    and ``patient_name_family_name`` / ``_given_name`` / ``_middle_name``;
    ``physician_name`` likewise from ReferringPhysicianName; ``mrn``
    (PatientID), ``birth_date``, ``study_date``, ``series_date``,
    ``acquisition_date``, ``content_date`` (each ``YYYYMMDD`` value also
    rendered as ISO, US, EU, ``14-Mar-1961``, ``Mar 14, 1961``…),
    ``hospital_name`` (InstitutionName), ``accession`` (AccessionNumber),
    and ``other_id``, ``other_id_2``… from OtherPatientIDs and
    OtherPatientIDsSequence. Empty attributes are skipped; the result may be
    empty — :class:`~clinx.localize.localizer.PhiLocalizer` then fails closed.
    """
    fields: dict[str, str] = {}
    renderings: dict[str, list[str]] = {}
    get = dataset.get
    _pn_fields("patient_name", get("PatientName"), fields, renderings)
    _pn_fields("physician_name", get("ReferringPhysicianName"), fields, renderings)
    for kw, name in _DICOM_TEXT.items():
        vals = _str_values(get(kw))
        if vals:
            fields[name] = vals[0]
    for kw, name in _DICOM_DATES.items():
        vals = _str_values(get(kw))
        if vals:
            fields[name] = vals[0]
            rend = list(date_renderings(vals[0]))
            if rend:
                renderings[name] = rend
    others: list[str] = []
    others.extend(_str_values(get("OtherPatientIDs")))
    seq = get("OtherPatientIDsSequence")
    for entry in seq or ():
        others.extend(_str_values(entry.get("PatientID")))
    seen: list[str] = []
    for v in others:
        if v not in seen and v != fields.get("mrn"):
            seen.append(v)
    for i, v in enumerate(seen):
        fields["other_id" if i == 0 else f"other_id_{i + 1}"] = v
    return Manifest(fields=fields, renderings={k: tuple(v) for k, v in renderings.items()})


# ------------------------------------------------------------ manifest sources
#: ``manifest=`` values that mean "no manifest" (a manifest+patterns localizer runs patterns only).
NO_MANIFEST = ("none", "null", "")


def load_manifest_json(path: Path, *, item: str) -> Manifest:
    """One manifest from a JSON file (:func:`manifest_from_json` rules), errors naming ``item``, never the content."""
    return _parse_manifest_obj(read_manifest_file(path, item=item), item)


def _is_per_item(obj: Any) -> bool:
    if isinstance(obj, list):
        return True
    if not isinstance(obj, Mapping) or "fields" in obj:
        return False
    if isinstance(obj.get("items"), (Mapping, list)):
        return True
    return bool(obj) and all(isinstance(v, Mapping) for v in obj.values())


def _parse_shared(path: Path) -> Manifest | dict[str, Manifest]:
    # The file is labelled "manifest file", not by its name: the user chose
    # the name, but a per-item file may be named after a patient.
    obj = read_manifest_file(path, item="manifest file")
    if _is_per_item(obj):
        return manifests_from_json(obj, item="manifest file")
    return manifest_from_json(obj, item="manifest file")


class ManifestSource:
    """Where an input file's manifest comes from.

    * ``"dicom"`` — the file's own DICOM header (:func:`manifest_from_dicom`);
    * ``None`` / ``"none"`` — no manifest: :meth:`load` returns ``None`` (a
      ``manifest+patterns`` localizer then runs its identifier patterns only);
    * a JSON **file** — either one manifest for every item (``{"fields": {...},
      "renderings": {...}}`` or flat ``{field: value}``), or per-item manifests
      (``{"<relative path or file name>": {...}}``, ``{"items": ...}`` or a list
      of ``{"image": name, ...}``; see :func:`manifests_from_json`);
    * a **folder** — one JSON per item at ``<folder>/<relative path>.json`` or
      ``<folder>/<relative path without suffix>.json``.

    Raises :class:`~clinx.errors.ConfigError` for a spec that is none of these.
    Per-item problems (:meth:`load`) are :class:`~clinx.errors.ItemError`
    labelled with the caller's ``label``.
    """

    def __init__(self, spec: str | os.PathLike | None):
        from clinx.errors import ConfigError

        self.spec = "none" if spec is None else str(spec)
        self.path: Path | None = None
        if self.spec.strip().lower() in NO_MANIFEST:
            self.kind = "none"
        elif self.spec == "dicom":
            self.kind = "dicom"
        else:
            p = Path(self.spec)
            if p.is_dir():
                self.kind = "dir"
            elif p.is_file():
                self.kind = "file"
            else:
                raise ConfigError("manifest source not found: give 'dicom', 'none', a JSON file or a folder of JSON files")
            self.path = p
        # The shared file is parsed once; a broken one quarantines every item with the same reason.
        self._file: Manifest | dict[str, Manifest] | ItemError | None = None
        self._file_digest: str | None = None

    def _json_path(self, rel: str, label: str) -> Path:
        assert self.path is not None
        if self.kind == "file":
            return self.path
        r = Path(rel)
        for cand in (self.path / (rel + ".json"), self.path / r.with_suffix(".json")):
            if cand.is_file():
                return cand
        raise ItemError(label, "no manifest JSON for this item in the manifest folder", stage="manifest")

    def digest(self, rel: str) -> str:
        """Identity of this item's manifest file for resume keys (``""`` when it comes from the input itself or there is none)."""
        from clinx.data.guards import file_digest

        if self.kind in ("dicom", "none"):
            return ""
        if self.kind == "file":
            if self._file_digest is None:
                self._file_digest = file_digest(self.path)
            return self._file_digest
        try:
            return file_digest(self._json_path(rel, rel))
        except (ItemError, OSError):
            return "missing"

    def load(self, rel: str, dataset=None, *, label: str | None = None) -> Manifest | None:
        """The manifest of the input at relative path ``rel`` (``dataset``: its pydicom header, if DICOM).

        ``label`` names the item in errors (default ``rel``). Returns ``None``
        for ``kind == "none"``.
        """
        label = rel if label is None else label
        if self.kind == "none":
            return None
        if self.kind == "dicom":
            if dataset is None:
                raise ItemError(label, "manifest=dicom but the input is not a DICOM file; give a JSON manifest", stage="manifest")
            return manifest_from_dicom(dataset)
        if self.kind == "dir":
            return load_manifest_json(self._json_path(rel, label), item=label)
        if self._file is None:
            try:
                self._file = _parse_shared(self.path)
            except ItemError as exc:
                self._file = exc
        if isinstance(self._file, ItemError):
            raise ItemError(label, f"shared manifest file: {self._file.problem}", stage="manifest")
        if isinstance(self._file, Manifest):
            return self._file
        for key in (rel, Path(rel).name, Path(rel).stem):
            if key in self._file:
                return self._file[key]
        raise ItemError(label, "the per-item manifest file has no entry for this item", stage="manifest")
