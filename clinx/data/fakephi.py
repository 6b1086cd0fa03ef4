"""Synthetic PHI manifests (ClinX paper, Appendix B.1): one shared identity per sample.

Every value is fake — Faker names and places, random digits — but formatted
the way identifiers look on real studies, so OCR and the text de-identifier
face realistic strings. ``renderings`` lists each surface form a value may be
drawn or written in (dates in five styles, names as ``First Last``,
``LAST^FIRST`` like a DICOM PN, ``Last, First``); injection picks from exactly
these strings, so every drawn string is in the manifest and matchers can use
them all.
"""

from __future__ import annotations

import datetime as _dt
import functools

import numpy as np

from clinx.records import Manifest

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

#: Fields this generator fills, in drawing order.
GENERATED_FIELDS = (
    "patient_name", "birth_date", "study_date", "mrn", "accession",
    "hospital_name", "hospital_id", "phone", "email",
)


@functools.lru_cache(maxsize=1)
def _faker():
    # Building a Faker is ~20 ms; reseeding the cached one per sample is ~free.
    from faker import Faker

    return Faker("en_US")


def as_rng(rng_or_seed) -> np.random.Generator:
    """Accept a ``Generator`` or an int seed."""
    if isinstance(rng_or_seed, np.random.Generator):
        return rng_or_seed
    return np.random.default_rng(rng_or_seed)


def date_renderings(d: _dt.date) -> tuple[str, ...]:
    """ISO first (the canonical form), then US, DICOM-ish, European and DICOM DA styles."""
    return (
        d.isoformat(),
        d.strftime("%m/%d/%Y"),
        f"{d.day:02d}-{_MONTHS[d.month - 1]}-{d.year}",
        d.strftime("%d.%m.%Y"),
        d.strftime("%Y%m%d"),
    )


def _date_between(rng: np.random.Generator, start: _dt.date, end: _dt.date) -> _dt.date:
    return start + _dt.timedelta(days=int(rng.integers(0, (end - start).days + 1)))


def _digits(rng: np.random.Generator, n: int) -> str:
    return "".join(str(int(d)) for d in rng.integers(0, 10, n))


def _hospital(rng: np.random.Generator, fk) -> str:
    last, city = fk.last_name(), fk.city()
    patterns = (
        f"St. {fk.first_name()} Hospital",
        f"{city} General Hospital",
        f"{last} Memorial Hospital",
        f"{city} Medical Center",
        f"{city} University Hospital",
        f"Mount {last} Clinic",
    )
    return patterns[int(rng.integers(len(patterns)))]


def make_manifest(rng_or_seed) -> Manifest:
    """A fresh synthetic identity: name, DOB, study date, MRN, accession, hospital, phone, email.

    Deterministic in the generator state (or seed). Values are PHI by
    contract even though synthetic: callers log ``manifest.describe()``.
    """
    rng = as_rng(rng_or_seed)
    fk = _faker()
    fk.seed_instance(int(rng.integers(0, 2**62)))

    female = rng.random() < 0.5
    first = fk.first_name_female() if female else fk.first_name_male()
    last = fk.last_name()
    name = f"{first} {last}"
    dob = _date_between(rng, _dt.date(1930, 1, 1), _dt.date(2012, 12, 31))
    study = _date_between(rng, _dt.date(2015, 1, 1), _dt.date(2025, 12, 31))
    mrn = _digits(rng, 8)
    accession = f"ACC{study.year}-{_digits(rng, 6)}"
    hospital = _hospital(rng, fk)
    hospital_id = f"H-{_digits(rng, 5)}"
    area, exch, line = int(rng.integers(201, 990)), int(rng.integers(201, 999)), _digits(rng, 4)
    phones = (f"({area}) {exch}-{line}", f"{area}-{exch}-{line}", f"+1 {area} {exch} {line}")
    domain = fk.free_email_domain() if rng.random() < 0.5 else (
        "".join(ch for ch in hospital.lower().split()[0] if ch.isalpha()) + "-health.org")
    email = f"{first.lower()}.{last.lower()}{int(rng.integers(1, 99))}@{domain}"

    fields = {
        "patient_name": name,
        "birth_date": dob.isoformat(),
        "study_date": study.isoformat(),
        "mrn": mrn,
        "accession": accession,
        "hospital_name": hospital,
        "hospital_id": hospital_id,
        "phone": phones[0],
        "email": email,
    }
    renderings = {
        "patient_name": (name, f"{last.upper()}^{first.upper()}", f"{last}, {first}", name.upper()),
        "birth_date": date_renderings(dob),
        "study_date": date_renderings(study),
        "mrn": (mrn,),
        "accession": (accession,),
        "hospital_name": (hospital, hospital.upper()),
        "hospital_id": (hospital_id,),
        "phone": phones,
        "email": (email,),
    }
    return Manifest(fields=fields, renderings=renderings)
