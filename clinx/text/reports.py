"""Indiana University chest X-ray reports with synthetic PHI in the ``XXXX`` slots.

``torchxrayvision`` ships the Open-i IU collection as ``data/NLMCXR_reports.tgz``
(3,955 XML reports, CC BY-NC-ND). Its de-identification replaced identifiers
with ``XXXX`` — but also many ordinary words ("no XXXX of effusion"), so not
every ``XXXX`` held PHI. This module fills only the slots whose context says
what stood there, with seeded Faker values, and leaves the others as they are:

* ``XXXX-year-old`` -> an age (PHI only above 89, as HIPAA Safe Harbor says);
* ``Dr. XXXX [XXXX]`` -> a physician name;
* in the COMPARISON section, ``XXXX, XXXX`` / a lone ``XXXX`` -> a date
  (``XXXX at XXXX p.m.`` -> a date and time);
* ``XXXX/XXXX`` -> a month/day date.

:func:`inject_report` returns the report with PHI, its manifest, and the clean
text (PHI slots as typed placeholders) used to measure clinical-term retention.
Everything here is synthetic PHI on public reports; nothing is fetched.
"""

from __future__ import annotations

import datetime as _dt
import functools
import re
import html
import json
import os
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np

from clinx.records import Manifest

SECTIONS: tuple[str, ...] = ("COMPARISON", "INDICATION", "FINDINGS", "IMPRESSION")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")


@dataclass(frozen=True)
class Report:
    """One IU report: its id (``CXR<n>``) and section texts, in :data:`SECTIONS` order."""

    id: str
    sections: dict[str, str]

    @property
    def text(self) -> str:
        return "\n".join(f"{k}: {v}" for k, v in self.sections.items() if v)


@dataclass(frozen=True)
class InjectedReport:
    """A report with synthetic PHI: ``text`` (with PHI), ``manifest``, ``clean_text`` (placeholders)."""

    id: str
    text: str
    manifest: Manifest
    clean_text: str
    slots: dict[str, int] = field(default_factory=dict)  # field name -> slots filled (no values)


def reports_archive() -> Path:
    """Path of ``NLMCXR_reports.tgz`` inside the installed ``torchxrayvision`` package."""
    try:
        from importlib.resources import files

        p = Path(str(files("torchxrayvision") / "data" / "NLMCXR_reports.tgz"))
    except ModuleNotFoundError as e:
        raise FileNotFoundError("torchxrayvision is not installed; it ships the IU reports (pip install torchxrayvision)") from e
    if not p.is_file():
        raise FileNotFoundError(f"IU reports archive not found at {p}")
    return p


_UID_RE = re.compile(rb'<uId\s+id="([^"]{1,40})"')
_ABSTRACT_RE = re.compile(rb'<AbstractText\s+Label="([A-Za-z]{1,20})"\s*>([^<]{0,20000})</AbstractText>')


def _parse(xml_bytes: bytes, name: str) -> Report | None:
    # The files are flat and regular; two regexes are ~200x faster than a DOM
    # parse of 3,955 whitespace-heavy documents and need no XML entity handling
    # beyond unescaping the text.
    m = _UID_RE.search(xml_bytes)
    rid = m.group(1).decode("ascii", "replace") if m else Path(name).stem
    secs: dict[str, str] = {}
    for label, body in _ABSTRACT_RE.findall(xml_bytes):
        lab = label.decode("ascii").upper()
        if lab in SECTIONS:
            secs[lab] = " ".join(html.unescape(body.decode("utf-8", "replace")).split())
    if not any(secs.values()):
        return None
    return Report(rid, {k: secs.get(k, "") for k in SECTIONS})


def _cache_file(path: Path) -> Path:
    st = path.stat()
    root = Path(os.environ.get("CLINX_CACHE") or Path.home() / ".cache" / "clinx")
    return root / "iu_reports" / f"{st.st_size}_{int(st.st_mtime)}.json"


@functools.lru_cache(maxsize=2)
def _load_all(path: str) -> tuple[Report, ...]:
    p = Path(path)
    cache = _cache_file(p)
    try:
        data = json.loads(cache.read_text())
        return tuple(Report(d["id"], d["sections"]) for d in data)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no or unreadable cache: parse the archive
    out: list[Report] = []
    with tarfile.open(p, "r:gz") as tar:
        for member in tar:
            if not member.isfile() or not member.name.endswith(".xml"):
                continue
            f = tar.extractfile(member)
            if f is None:
                continue
            rep = _parse(f.read(), member.name)
            if rep is not None:
                out.append(rep)
    # numeric order (CXR1, CXR2, ...) so a limit/seed picks the same reports everywhere
    out.sort(key=lambda r: int(re.sub(r"\D", "", r.id) or 0))
    try:  # parsed sections cached beside other clinx caches; atomic so readers never see half a file
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps([{"id": r.id, "sections": r.sections} for r in out]))
        os.replace(tmp, cache)
    except OSError:
        pass
    return tuple(out)


def load_reports(limit: int | None = None, *, path: str | Path | None = None, require_slots: bool = False) -> list[Report]:
    """Parse the IU reports (cached per process).

    ``require_slots`` keeps only reports with at least one PHI slot that
    :func:`inject_report` would fill.
    """
    reps = _load_all(str(path or reports_archive()))
    if require_slots:
        reps = tuple(r for r in reps if _has_slot(r))
    return list(reps[: limit if limit is not None else None])


# ----------------------------------------------------------------------------- slot filling

_AGE_RE = re.compile(r"\bXXXX(?=-year-old)")
_DR_RE = re.compile(r"\b(Dr\.?\s{1,3})XXXX(?:\s{1,3}XXXX)?\b")
_MD_RE = re.compile(r"(?<![\w/])XXXX/XXXX(?![\w/])")
_CMP_DATE_TIME_RE = re.compile(r"(?<![\w-])XXXX\s{1,3}at\s{1,3}XXXX(\s{0,2}[ap]\.m\.)", re.I)
_CMP_DATE_PAIR_RE = re.compile(r"(?<![\w-])XXXX,\s{0,3}XXXX(?![\w-])")
_CMP_DATE_ONE_RE = re.compile(r"(?<![\w-])XXXX(?![\w-])")


def _has_slot(rep: Report) -> bool:
    s = rep.text
    return bool(_AGE_RE.search(s) or _DR_RE.search(s) or _MD_RE.search(s) or "XXXX" in rep.sections.get("COMPARISON", ""))


def _date(rng: np.random.Generator, start=_dt.date(2005, 1, 1), end=_dt.date(2014, 12, 31)) -> _dt.date:
    return start + _dt.timedelta(days=int(rng.integers(0, (end - start).days + 1)))


def _render_date(d: _dt.date, rng: np.random.Generator) -> str:
    forms = (
        f"{_MONTHS[d.month - 1]} {d.day}, {d.year}",
        d.strftime("%m/%d/%Y"),
        f"{d.day:02d}-{_MONTHS[d.month - 1][:3]}-{d.year}",
        d.isoformat(),
        f"{d.day} {_MONTHS[d.month - 1]} {d.year}",
    )
    return forms[int(rng.integers(len(forms)))]


class _Filler:
    """Collects manifest values while substituting slots, one report at a time."""

    def __init__(self, rng: np.random.Generator):
        from faker import Faker

        self.rng = rng
        self.fk = Faker("en_US")
        self.fk.seed_instance(int(rng.integers(0, 2**62)))
        self.fields: dict[str, str] = {}
        self.slots: dict[str, int] = {}

    def add(self, prefix: str, value: str) -> str:
        k = 1
        while f"{prefix}_{k}" in self.fields:
            k += 1
        self.fields[f"{prefix}_{k}"] = value
        self.slots[prefix] = self.slots.get(prefix, 0) + 1
        return value

    def age(self, m: re.Match) -> tuple[str, str]:
        # ages skew old in chest imaging; ~15% above 89 so the AGE rule is exercised
        a = int(self.rng.integers(90, 103)) if self.rng.random() < 0.15 else int(self.rng.integers(18, 90))
        if a > 89:
            self.add("age", str(a))
            return str(a), "[AGE]"
        return str(a), str(a)  # not PHI: the clean text keeps it too

    def doctor(self, m: re.Match) -> tuple[str, str]:
        name = f"{self.fk.first_name()} {self.fk.last_name()}" if "XXXX XXXX" in m.group(0) else self.fk.last_name()
        self.add("physician_name", name)
        return m.group(1) + name, m.group(1) + "[NAME]"

    def month_day(self, m: re.Match) -> tuple[str, str]:
        d = _date(self.rng)
        v = f"{d.month}/{d.day}"
        self.add("event_date", v)
        return v, "[DATE]"

    def comparison_date(self, m: re.Match) -> tuple[str, str]:
        v = _render_date(_date(self.rng), self.rng)
        self.add("comparison_date", v)
        return v, "[DATE]"

    def comparison_date_time(self, m: re.Match) -> tuple[str, str]:
        d = _date(self.rng)
        h, mi = int(self.rng.integers(1, 13)), int(self.rng.integers(0, 60))
        v = f"{d.strftime('%m/%d/%Y')} at {h}:{mi:02d}{m.group(1)}"
        self.add("comparison_date", v)
        return v, "[DATE]"


def _sub2(rx: re.Pattern, phi: str, clean: str, fn) -> tuple[str, str]:
    # Slots are located in the PHI text; the clean text has the same slots at
    # the same relative places, so substitute both with one pass each, in step.
    matches = list(rx.finditer(phi))
    cmatches = list(rx.finditer(clean))
    if len(matches) != len(cmatches):  # cannot happen with the patterns above; be safe
        return phi, clean
    pieces = [fn(m) for m in matches]
    out_p, out_c, pp, pc = [], [], 0, 0
    for m, cm, (a, b) in zip(matches, cmatches, pieces):
        out_p.append(phi[pp : m.start()] + a)
        out_c.append(clean[pc : cm.start()] + b)
        pp, pc = m.end(), cm.end()
    out_p.append(phi[pp:])
    out_c.append(clean[pc:])
    return "".join(out_p), "".join(out_c)


def inject_report(report: Report, rng: np.random.Generator | int) -> InjectedReport:
    """Fill the PHI slots of ``report`` with synthetic values; deterministic in ``rng``."""
    rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    fill = _Filler(rng)
    phi_secs: dict[str, str] = {}
    clean_secs: dict[str, str] = {}
    for name, sec in report.sections.items():
        p, c = sec, sec
        p, c = _sub2(_AGE_RE, p, c, fill.age)
        p, c = _sub2(_DR_RE, p, c, fill.doctor)
        p, c = _sub2(_MD_RE, p, c, fill.month_day)
        if name == "COMPARISON":
            p, c = _sub2(_CMP_DATE_TIME_RE, p, c, fill.comparison_date_time)
            p, c = _sub2(_CMP_DATE_PAIR_RE, p, c, fill.comparison_date)
            p, c = _sub2(_CMP_DATE_ONE_RE, p, c, fill.comparison_date)
        phi_secs[name], clean_secs[name] = p, c
    text = "\n".join(f"{k}: {v}" for k, v in phi_secs.items() if v)
    clean = "\n".join(f"{k}: {v}" for k, v in clean_secs.items() if v)
    return InjectedReport(report.id, text, Manifest(fields=fill.fields), clean, dict(fill.slots))


def iu_benchmark(n: int | None = 200, seed: int = 0, *, path: str | Path | None = None) -> list[InjectedReport]:
    """``n`` reports that have PHI slots, each injected with its own seeded generator."""
    reps = load_reports(None, path=path, require_slots=True)
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(reps))[: n if n is not None else None]
    return [inject_report(reps[int(i)], np.random.default_rng([seed, int(i)])) for i in order]


def iter_injected(n: int | None = None, seed: int = 0) -> Iterator[tuple[str, Manifest, str]]:
    """``(text_with_phi, manifest, clean_text)`` triples, the shape the benchmark consumes."""
    for r in iu_benchmark(n, seed):
        yield r.text, r.manifest, r.clean_text
