"""DICOM header de-identification for sanitized DICOM outputs.

:func:`clinx.data.dicom.write_dicom_like` keeps the source header as it is,
so a DICOM whose pixels were cleaned would still carry the patient's name in
``PatientName``. Before writing, the runner passes the header through
:func:`deidentify_header`: the identifying attributes of the DICOM PS3.15
Annex E *Basic Application Level Confidentiality Profile* that clinx's
manifests cover (names, IDs, dates, institution, physicians, accession) are
emptied or removed, private tags are dropped, and any other text element that
still contains a manifest value is emptied. The runner then re-reads the
written file and quarantines it if a manifest value survives anywhere
(:func:`dicom_header_leaks`), so this function is the
best effort and the check is the guarantee.
"""

from __future__ import annotations

import copy
from pathlib import Path

from clinx.records import Manifest

#: Type-2 attributes (must be present, may be empty) of the basic profile: emptied.
EMPTY_KEYWORDS = (
    "PatientName",
    "PatientID",
    "PatientBirthDate",
    "PatientSex",
    "StudyDate",
    "StudyTime",
    "ReferringPhysicianName",
    "AccessionNumber",
    "StudyID",
)
#: Type-3 identifying attributes: removed.
REMOVE_KEYWORDS = (
    "OtherPatientIDs",
    "OtherPatientIDsSequence",
    "OtherPatientNames",
    "PatientBirthName",
    "PatientMotherBirthName",
    "PatientAddress",
    "PatientTelephoneNumbers",
    "PatientAge",
    "PatientBirthTime",
    "MedicalRecordLocator",
    "InstitutionName",
    "InstitutionAddress",
    "InstitutionalDepartmentName",
    "ReferringPhysicianAddress",
    "ReferringPhysicianTelephoneNumbers",
    "PerformingPhysicianName",
    "NameOfPhysiciansReadingStudy",
    "OperatorsName",
    "PhysiciansOfRecord",
    "RequestingPhysician",
    "SeriesDate",
    "AcquisitionDate",
    "ContentDate",
    "AcquisitionDateTime",
    "SeriesTime",
    "AcquisitionTime",
    "ContentTime",
    "StationName",
    "DeviceSerialNumber",
    "StudyDescription",
    "SeriesDescription",
    "AdditionalPatientHistory",
    "PatientComments",
    "ImageComments",
    "RequestAttributesSequence",
)
_TEXT_VRS = {"PN", "LO", "SH", "LT", "ST", "UT", "DA", "DT", "TM", "AE", "CS", "UC"}
#: Value representations the leak check reads back (text, numbers as text, unknown).
_CHECK_VRS = _TEXT_VRS | {"UN", "IS", "DS"}


def deidentify_header(dataset, manifest: Manifest | None = None):
    """A de-identified deep copy of a pydicom ``Dataset`` (pixels untouched).

    Sets ``PatientIdentityRemoved = YES`` and records the method in
    ``DeidentificationMethod``.
    """
    ds = copy.deepcopy(dataset)
    ds.remove_private_tags()
    remove_and_empty(ds, REMOVE_KEYWORDS, EMPTY_KEYWORDS)
    scrub_manifest_values(ds, manifest)
    ds.PatientIdentityRemoved = "YES"
    ds.DeidentificationMethod = "clinx: PS3.15 basic profile subset + manifest scrub"
    return ds


def remove_and_empty(ds, remove, empty) -> None:
    """In place: delete the ``remove`` attributes and blank the ``empty`` ones (profile actions X and Z)."""
    for kw in remove:
        if kw in ds:
            delattr(ds, kw)
    for kw in empty:
        if kw in ds:
            setattr(ds, kw, "")


def scrub_manifest_values(ds, manifest: Manifest | None) -> list[str]:
    """Empty, in place, every text element (sequences included) that still contains a manifest value.

    Returns the keywords (or hex tags) of the elements emptied — names, never
    values. Values shorter than 3 characters are ignored (they would match
    everywhere). The file meta group is left alone.
    """
    from clinx.metrics.leakage import compact

    values = [compact(v) for _, v in (manifest.items() if manifest else [])]
    values = [v for v in values if len(v) >= 3]
    emptied: list[str] = []
    if not values:
        return emptied
    stack = [ds]
    while stack:  # iterative: a crafted file could nest sequences deeply
        d = stack.pop()
        for elem in list(d):
            if elem.VR == "SQ":
                stack.extend(elem.value or [])
            elif elem.VR in _TEXT_VRS and elem.tag.group != 0x0002:
                text = compact(str(elem.value))
                if text and any(v in text for v in values):
                    elem.value = ""
                    emptied.append(elem.keyword or f"{int(elem.tag):08X}")
    return emptied


def dicom_header_leaks(path: Path, manifest: Manifest | None) -> set[str]:
    """Manifest fields whose value still appears in a text element of the DICOM header at ``path``."""
    import pydicom

    from clinx.data.dicom import quiet_pydicom
    from clinx.metrics.leakage import compact

    if not manifest:
        return set()
    with quiet_pydicom():
        ds = pydicom.dcmread(str(path), stop_before_pixels=True, force=True)
    values = {name: compact(v) for name, v in manifest.items()}
    values = {n: v for n, v in values.items() if len(v) >= 3}
    found: set[str] = set()
    stack = [ds]
    while stack:  # iterative: a crafted file could nest sequences deeply
        dataset = stack.pop()
        for elem in dataset:
            if elem.VR == "SQ":
                stack.extend(elem.value or [])
                continue
            if elem.VR not in _CHECK_VRS:
                continue
            try:
                text = compact(str(elem.value))
            except Exception:  # noqa: BLE001 - an undecodable value cannot hold a manifest string we could see
                continue
            if not text:
                continue
            for name, v in values.items():
                if v in text:
                    found.add(name)
    return found
