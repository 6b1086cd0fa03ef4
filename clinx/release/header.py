"""DICOM header de-identification for a release: dicognito plus what the PS3.15 basic profile adds.

Why dicognito (0.19.0) and not ``deid``: both install on pydicom 3, but
dicognito derives every replacement from a keyed hash of the original value
(``Anonymizer(seed=...)``), so the same secret gives the same new UID, patient
ID and name in every worker process, on every machine and on every rerun —
UID references between objects keep resolving across an archive without any
shared state, and a resumed run writes byte-identical files. ``deid`` works
from recipes whose default blanks UIDs and removes dates; consistent remapping
and per-patient shifts would need custom functions sharing a map between
processes.

What :class:`HeaderDeidentifier` does, in order, on a copy of the header:

1. private tags removed unless their private creator is allow-listed;
2. dicognito with the release secret: names (PN) and IDs replaced, UIDs
   remapped (class and transfer syntax UIDs kept), addresses, institution
   and station replaced, a few identifying attributes removed — and dates
   and times shifted by **one offset per patient**: dicognito's single
   archive-wide offset is replaced by a whole-day offset derived from
   HMAC(secret, original PatientID), so all studies and series of a patient
   keep their intervals and times of day;
3. the free-text and patient-characteristic attributes the basic profile
   removes (descriptions, comments, age, size, weight…) are removed;
   ``PatientSex`` is emptied;
4. any remaining text element that still contains a manifest value is
   emptied (:func:`clinx.sanitize.header.scrub_manifest_values`);
5. ``PatientIdentityRemoved=YES``, ``LongitudinalTemporalInformationModified=MODIFIED``,
   ``DeidentificationMethod`` and ``DeidentificationMethodCodeSequence``
   (DCM 113100 basic profile, 113107 modified dates, and 113101 clean pixel
   data when the pixels were sanitized and verified); ``BurnedInAnnotation``
   is set by the pixel writer to ``NO`` only for verified pixels.

It returns the actions per attribute (keyword and action, never values) and,
for the optional key file only, the patient's date shift and UID map.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections import Counter
from dataclasses import dataclass, field

from clinx.records import Manifest

__all__ = ["HeaderDeidentifier", "HeaderResult", "BASIC_PROFILE_REMOVE", "date_shift_days", "patient_key"]

#: Attributes the basic profile removes (action X) that dicognito leaves in place.
BASIC_PROFILE_REMOVE = (
    "StudyDescription",
    "SeriesDescription",
    "PerformedProcedureStepDescription",
    "RequestedProcedureDescription",
    "ProtocolName",
    "ImageComments",
    "PatientComments",
    "AdditionalPatientHistory",
    "AdmittingDiagnosesDescription",
    "ReasonForStudy",
    "RequestAttributesSequence",
    "ContentSequence",
    "AcquisitionComments",
    "DerivationDescription",
    "PatientAge",
    "PatientSize",
    "PatientWeight",
    "EthnicGroup",
    "Occupation",
    "MedicalAlerts",
    "Allergies",
    "SmokingStatus",
    "PregnancyStatus",
    "PatientState",
    "OtherPatientNames",
    "PatientBirthName",
    "PatientMotherBirthName",
    "PatientAddress",
    "ReferringPhysicianAddress",
    "ReferringPhysicianTelephoneNumbers",
    "InstitutionAddress",
    "InstitutionalDepartmentName",
    "OtherPatientIDsSequence",
    "IssuerOfPatientID",
    "PatientBirthTime",
)
#: Type-2 attributes the basic profile empties (action Z).
BASIC_PROFILE_EMPTY = ("PatientSex",)

#: CID 7050 de-identification method codes (DCM coding scheme).
_CODE_BASIC = ("113100", "Basic Application Confidentiality Profile")
_CODE_CLEAN_PIXELS = ("113101", "Clean Pixel Data Option")
_CODE_MODIFIED_DATES = ("113107", "Retain Longitudinal Temporal Information Modified Dates Option")

_TIME_VRS = {"DA", "DT", "TM"}


def patient_key(dataset) -> str:
    """What identifies a patient for the date shift: PatientID, else PatientName, else ``""`` (one shared shift)."""
    for kw in ("PatientID", "PatientName"):
        v = str(dataset.get(kw, "") or "").strip()
        if v:
            return f"{kw}:{v}"
    return ""


def date_shift_days(secret: str, key: str, lo: int = 62, hi: int = 730) -> int:
    """The patient's date shift in days, in ``[-hi, -lo]``: HMAC-SHA256(secret, key), so every worker derives the same one."""
    if not 0 <= lo <= hi:
        raise ValueError("need 0 <= min shift <= max shift")
    h = hmac.new(secret.encode("utf-8"), b"date-shift\x00" + key.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
    return -(lo + int.from_bytes(h[:8], "big") % (hi - lo + 1))


@dataclass
class HeaderResult:
    """A de-identified header and what was done to it.

    ``actions`` counts ``(attribute, action)`` pairs — action one of
    ``removed``, ``replaced``, ``emptied``, ``uid_remapped``, ``date_shifted``,
    ``added``; attributes are keywords, ``private`` or hex tags. ``shift_days``
    and ``uid_map`` (original → new) are key-file material: never logged.
    """

    dataset: object
    actions: Counter = field(default_factory=Counter)
    shift_days: int = 0
    patient: str = ""
    new_patient_id: str = ""
    uid_map: dict[str, str] = field(default_factory=dict)


def _flatten(ds, prefix=()) -> dict:
    """``{path: (keyword, VR, value)}`` for every element (sequences descended, pixel data skipped)."""
    out = {}
    stack = [(ds, prefix)]
    while stack:
        d, pre = stack.pop()
        for elem in d:
            if elem.tag.group == 0x7FE0:
                continue
            path = (*pre, int(elem.tag))
            if elem.tag.is_private:
                name = "private"
            else:
                name = elem.keyword or f"{int(elem.tag):08X}"
            if elem.VR == "SQ":
                out[path] = (name, "SQ", len(elem.value or []))
                for i, item in enumerate(elem.value or []):
                    stack.append((item, (*path, i)))
            else:
                try:
                    value = elem.value
                    value = list(value) if type(value).__name__ == "MultiValue" else value
                    value = str(value) if not isinstance(value, (bytes, bytearray)) else bytes(value)
                except Exception:  # noqa: BLE001 - an undecodable value still counts as present
                    value = "<undecodable>"
                out[path] = (name, elem.VR, value)
    return out


def _diff(before: dict, after: dict) -> tuple[Counter, dict[str, str]]:
    actions: Counter = Counter()
    uid_map: dict[str, str] = {}
    for path, (name, vr, value) in before.items():
        if path not in after:
            # an element inside a removed sequence is counted with its sequence only
            if not any(path[:k] in before and path[:k] not in after for k in range(1, len(path))):
                actions[(name, "removed")] += 1
            continue
        _, vr2, value2 = after[path]
        if value2 == value or vr == "SQ":
            continue
        if vr == "UI":
            actions[(name, "uid_remapped")] += 1
            if isinstance(value, str) and isinstance(value2, str) and "[" not in value:
                uid_map[value] = value2
        elif vr in _TIME_VRS and value2 not in ("", "None"):
            actions[(name, "date_shifted")] += 1
        elif value2 in ("", "None", b""):
            actions[(name, "emptied")] += 1
        else:
            actions[(name, "replaced")] += 1
    for path, (name, _, _) in after.items():
        if path not in before and not any(path[:k] in after and path[:k] not in before for k in range(1, len(path))):
            actions[(name, "added")] += 1
    return actions, uid_map


def _remove_private(ds, keep: frozenset[str]) -> None:
    """Remove private elements (recursively) unless their block's private creator is in ``keep``."""
    stack = [ds]
    while stack:
        d = stack.pop()
        for elem in list(d):
            tag = elem.tag
            if tag.is_private:
                if tag.element < 0x0010:  # group length / reserved
                    del d[tag]
                    continue
                if 0x0010 <= tag.element <= 0x00FF:
                    creator = str(elem.value or "").strip()
                else:
                    owner = d.get((tag.group, tag.element >> 8))
                    creator = str(owner.value or "").strip() if owner is not None else ""
                if creator not in keep:
                    del d[tag]
                    continue
            if elem.VR == "SQ":
                stack.extend(elem.value or [])


class HeaderDeidentifier:
    """Callable: ``deid(dataset, manifest, pixels_cleaned=True) -> HeaderResult`` (see the module docstring).

    ``secret`` keys every replacement (UIDs, IDs, names, date shifts): the
    same secret gives the same release. ``keep_private`` lists private
    creator strings whose tags are kept (allow list; the manifest scrub and
    the leak check still apply to them). ``shift_days`` bounds the
    per-patient shift ``(min, max)`` in days back.
    """

    def __init__(self, secret: str, *, keep_private=(), shift_days: tuple[int, int] = (62, 730)):
        if not secret:
            raise ValueError("a release secret is needed (it keys UID remapping and date shifts)")
        import dicognito

        self.secret = str(secret)
        self.keep_private = frozenset(str(x) for x in keep_private or ())
        self.shift_days = (int(shift_days[0]), int(shift_days[1]))
        date_shift_days(self.secret, "", *self.shift_days)  # validates the bounds now
        self.library = f"dicognito {dicognito.__version__}"

    def fingerprint(self) -> str:
        """Settings identity for resume keys (the secret only as a digest)."""
        return hashlib.sha256(
            "\x00".join([hashlib.sha256(self.secret.encode()).hexdigest(), ",".join(sorted(self.keep_private)),
                         str(self.shift_days), self.library]).encode()
        ).hexdigest()[:16]

    def __call__(self, dataset, manifest: Manifest | None = None, *, pixels_cleaned: bool = True) -> HeaderResult:
        from dicognito.anonymizer import Anonymizer
        from dicognito.datetimeanonymizer import DateTimeAnonymizer

        from clinx.data.dicom import quiet_pydicom
        from clinx.sanitize.header import remove_and_empty, scrub_manifest_values

        with quiet_pydicom():
            ds = copy.deepcopy(dataset)
            before = _flatten(ds)
            key = patient_key(ds)
            days = date_shift_days(self.secret, key, *self.shift_days)
            _remove_private(ds, self.keep_private)
            anonymizer = Anonymizer(seed=self.secret)
            # handlers added later run first: the per-patient shift replaces dicognito's archive-wide one
            anonymizer.add_element_handler(DateTimeAnonymizer(days * 24))
            anonymizer.anonymize(ds)
            remove_and_empty(ds, BASIC_PROFILE_REMOVE, BASIC_PROFILE_EMPTY)
            scrub_manifest_values(ds, manifest)
            ds.PatientIdentityRemoved = "YES"
            ds.LongitudinalTemporalInformationModified = "MODIFIED"
            ds.DeidentificationMethod = ["clinx release", self.library]
            codes = [_CODE_BASIC, _CODE_MODIFIED_DATES] + ([_CODE_CLEAN_PIXELS] if pixels_cleaned else [])
            ds.DeidentificationMethodCodeSequence = [_code_item(v, m) for v, m in codes]
            actions, uid_map = _diff(before, _flatten(ds))
        return HeaderResult(ds, actions, days, key, str(ds.get("PatientID", "") or ""), uid_map)


def _code_item(value: str, meaning: str):
    from pydicom.dataset import Dataset

    item = Dataset()
    item.CodeValue = value
    item.CodingSchemeDesignator = "DCM"
    item.CodeMeaning = meaning
    return item
