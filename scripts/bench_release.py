"""Benchmark ``clinx release`` on a synthetic DICOM archive with PHI burned in and in the headers.

    python scripts/bench_release.py --quick --out benchmarks/results/bench_release_quick.json

The archive is built from the real scans shipped in pydicom / pydicom-data and
scikit-image (clinx's built-in bases): several patients with several studies
each, several modalities, one multi-frame object, one JPEG 2000 lossless
object, one RGB object, a sidecar report per study, and a few corrupt files
(zero bytes, a truncated file, a DICM preamble with garbage). Each image gets
its patient's identifiers burned in as scanners draw them
(:func:`clinx.data.inject.inject_image`); the headers carry the same patient in
DICOM form, plus identifiers in a private tag, a free-text description and a
sequence, and a reference from one series to another.

The release runs through :func:`clinx.release.cli.release_from_config` (the
same path as ``clinx release``) with the local backend at 1 and 2 workers and,
when Ray is installed, on a local Ray instance. Figures (flat, in the JSON):

* ``files_per_s/local/<workers>``, ``files_per_s/ray/<workers>`` — items
  processed per wall second, model loading included (a fresh output folder each);
* ``released``, ``quarantined``, ``failed_reported``, ``failed_planted``;
* ``residual_token_recall/<engine>`` — tokens of the identifiers drawn on the
  released images that each attacker (RapidOCR = mask engine, EasyOCR =
  verifier, Tesseract = independent) reads at their place; ``input_token_recall/<engine>``
  is the same on the inputs (what there was to find);
* ``header_phi_left`` — (file, field) pairs where any manifest value (header
  forms and drawn renderings) is found in any element of a released header,
  sequences and kept private tags included (must be 0);
* ``uid_refs_broken`` — references (ReferencedSOPInstanceUID) that do not
  resolve to a released object whose original they pointed to, plus studies
  or series split or merged by the remap (must be 0);
* ``date_shift_consistent`` — share of patients whose study and birth dates
  all moved by one offset (must be 1.0);
* ``text_released``, ``text_residual`` — sidecar reports and what the re-scan still found.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clinx.records import Manifest  # noqa: E402

#: (built-in source, DICOM modality) of the images; the fundus photograph is the RGB object.
SOURCES = (("chest_xray", "DX"), ("shoulder_mr", "MR"), ("head_ct", "CT"), ("whole_body_nm", "NM"), ("leg_xray", "DX"),
           ("abdomen_mr", "MR"))
UID_ROOT = "1.2.826.0.1.3680043.10.511"


def _base(name: str, size: int) -> np.ndarray:
    from clinx.data.builtin import REAL_SOURCES, decode_source

    src = next(s for s in REAL_SOURCES if s.name == name)
    img = decode_source(src, 0, max_side=size)
    return np.ascontiguousarray(img)


def _dicom_name(display: str) -> str:
    parts = display.split()
    return f"{parts[-1].upper()}^{' '.join(parts[:-1]).upper()}"


def _ymd(iso: str) -> str:
    return iso.replace("-", "")


def _study_manifest(patient: Manifest, study_date: dt.date, accession: str) -> Manifest:
    from clinx.data.fakephi import date_renderings

    fields = {k: patient.fields[k] for k in ("patient_name", "birth_date", "mrn", "hospital_name")}
    fields.update(study_date=study_date.isoformat(), accession=accession)
    rend = {k: tuple(patient.renderings.get(k, ())) for k in fields if k in patient.renderings}
    rend["study_date"] = tuple(date_renderings(study_date))
    rend["accession"] = (accession,)
    return Manifest(fields=fields, renderings=rend)


def _write(path: Path, patient: Manifest, study: dict, series_uid: str, sop_uid: str, modality: str, frames: list[np.ndarray],
           *, rgb: bool, syntax: str | None = None, referenced: str | None = None) -> None:
    from pydicom.dataset import Dataset, FileDataset, FileMetaDataset
    from pydicom.uid import ExplicitVRLittleEndian, SecondaryCaptureImageStorage

    meta = FileMetaDataset()
    meta.MediaStorageSOPClassUID = SecondaryCaptureImageStorage
    meta.MediaStorageSOPInstanceUID = sop_uid
    meta.TransferSyntaxUID = ExplicitVRLittleEndian
    ds = FileDataset(str(path), {}, file_meta=meta, preamble=b"\x00" * 128)
    ds.SOPClassUID, ds.SOPInstanceUID = SecondaryCaptureImageStorage, sop_uid
    ds.StudyInstanceUID, ds.SeriesInstanceUID = study["uid"], series_uid
    ds.FrameOfReferenceUID = study["uid"] + ".0"
    ds.Modality = modality
    ds.PatientName = _dicom_name(patient.fields["patient_name"])
    ds.PatientID = patient.fields["mrn"]
    ds.PatientBirthDate = _ymd(patient.fields["birth_date"])
    ds.OtherPatientIDs = patient.fields["hospital_id"]
    ds.InstitutionName = patient.fields["hospital_name"]
    ds.ReferringPhysicianName = "WELBY^MARCUS"
    ds.StudyDate = ds.SeriesDate = ds.ContentDate = study["date"].strftime("%Y%m%d")
    ds.StudyTime = "093000"
    ds.AccessionNumber = study["accession"]
    ds.StudyDescription = f"{modality} for {patient.fields['patient_name']}"
    ds.PatientComments = "call " + patient.fields["phone"]
    req = Dataset()
    req.AccessionNumber = study["accession"]
    req.RequestedProcedureID = patient.fields["mrn"]
    ds.RequestAttributesSequence = [req]
    ds.private_block(0x0029, "ACME PACS", create=True).add_new(0x01, "LO", patient.fields["patient_name"])
    if referenced:
        ref = Dataset()
        ref.ReferencedSOPClassUID, ref.ReferencedSOPInstanceUID = SecondaryCaptureImageStorage, referenced
        ds.ReferencedImageSequence = [ref]
    ds.BurnedInAnnotation = "YES"
    arr = np.stack(frames) if len(frames) > 1 else frames[0]
    ds.Rows, ds.Columns = frames[0].shape[:2]
    ds.SamplesPerPixel = 3 if rgb else 1
    ds.PhotometricInterpretation = "RGB" if rgb else "MONOCHROME2"
    if rgb:
        ds.PlanarConfiguration = 0
    ds.BitsAllocated, ds.BitsStored, ds.HighBit, ds.PixelRepresentation = 8, 8, 7, 0
    if len(frames) > 1:
        ds.NumberOfFrames = len(frames)
    ds.PixelData = np.ascontiguousarray(arr).tobytes()
    if syntax:
        ds.compress(syntax, generate_instance_uid=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    ds.save_as(str(path), enforce_file_format=True)


def build_archive(root: Path, *, patients: int, studies: int, images: int, size: int, seed: int) -> dict:
    """Write the archive under ``root``; returns the ground truth (PHI — kept in memory only)."""
    from PIL import Image

    from clinx.data.fakephi import make_manifest
    from clinx.data.inject import inject_image

    rng = np.random.default_rng(seed)
    truth: dict = {"files": {}, "corrupt": [], "texts": {}, "patients": {}}
    bases = {name: _base(name, size) for name, _ in SOURCES}
    retina = _base("retina_fundus", size)
    k = 0
    for p in range(patients):
        pm = make_manifest(int(rng.integers(0, 2**31)))
        pid = f"patient{p:02d}"
        truth["patients"][pid] = pm
        first = dt.date.fromisoformat(pm.fields["study_date"])
        for s in range(studies):
            study = {"uid": f"{UID_ROOT}.{seed}.{p}.{s}", "date": first + dt.timedelta(days=97 * s),
                     "accession": f"ACC{int(rng.integers(10**6, 10**7))}"}
            sm = _study_manifest(pm, study["date"], study["accession"])
            folder = root / pid / f"study{s}"
            first_sop = None
            for i in range(images):
                name, modality = SOURCES[k % len(SOURCES)]
                k += 1
                series_uid = f"{study['uid']}.{i + 1}"
                sop = f"{series_uid}.1"
                extra: dict = {}
                rgb, n_frames = False, 1
                if p == 0 and s == 0 and i == 0:
                    n_frames = 3  # the multi-frame object
                if p == 0 and s == 0 and i == 1:
                    extra["syntax"] = "1.2.840.10008.1.2.4.90"  # the compressed object (JPEG 2000 lossless)
                if p == 1 % patients and s == 0 and i == 0:
                    rgb, modality, base = True, "OP", retina  # the RGB object
                else:
                    base = bases[name]
                frames, drawn = [], []
                for f in range(n_frames):
                    img = base if f == 0 else np.ascontiguousarray(np.roll(base, 7 * f, axis=1))
                    inj = inject_image(img, sm, int(rng.integers(0, 2**31)))
                    out = inj.image if rgb else np.asarray(Image.fromarray(inj.image).convert("L"))
                    frames.append(out)
                    drawn.append([(d.text, d.field, tuple(int(v) for v in d.box)) for d in inj.drawn])
                if i > 0 and first_sop:
                    extra["referenced"] = first_sop
                rel = f"{pid}/study{s}/series{i + 1}/img.dcm"
                _write(root / rel, pm, study, series_uid, sop, modality, frames, rgb=rgb, **extra)
                truth["files"][rel] = {"patient": pid, "study": study["uid"], "series": series_uid, "sop": sop,
                                       "referenced": extra.get("referenced"), "drawn": drawn, "manifest": sm,
                                       "study_date": study["date"].strftime("%Y%m%d"), "modality": modality}
                first_sop = first_sop or sop
            rep = folder / "report.txt"
            rep.write_text(f"{modality} study of {pm.fields['patient_name']} (MRN {pm.fields['mrn']}) on "
                           f"{study['date'].strftime('%m/%d/%Y')}. Findings: no acute abnormality. "
                           f"Call {pm.fields['phone']} with questions.\n", encoding="utf-8")
            truth["texts"][rep.relative_to(root).as_posix()] = sm
    bad = root / "bad"
    bad.mkdir()
    (bad / "empty.dcm").write_bytes(b"")
    first = root / next(iter(truth["files"]))
    (bad / "truncated.dcm").write_bytes(first.read_bytes()[:700])
    (bad / "garbage.dcm").write_bytes(b"\x00" * 128 + b"DICM" + bytes(rng.integers(0, 256, 300, dtype=np.uint8)))
    truth["corrupt"] = ["bad/empty.dcm", "bad/truncated.dcm", "bad/garbage.dcm"]
    return truth


def _check_manifest(pm: Manifest, sm: Manifest) -> Manifest:
    """Every value a header check must not find: DICOM forms, drawn renderings, the other identifiers."""
    fields = dict(sm.fields)
    fields.update(dicom_name=_dicom_name(pm.fields["patient_name"]), dicom_birth=_ymd(pm.fields["birth_date"]),
                  dicom_study=_ymd(sm.fields["study_date"]), hospital_id=pm.fields["hospital_id"], phone=pm.fields["phone"])
    rend = {k: tuple(v) for k, v in sm.renderings.items()}
    return Manifest(fields=fields, renderings=rend)


def _attackers():
    from clinx.metrics.attackers import TesseractAttacker, tesseract_available
    from clinx.ocr import get_engine

    out = {"rapidocr": get_engine("rapidocr"), "easyocr": get_engine("easyocr")}
    if tesseract_available():
        out["tesseract"] = TesseractAttacker()
    return out


def evaluate(root: Path, out: Path, truth: dict, attackers: dict) -> dict:
    """The correctness figures of one release (see the module docstring)."""
    import pydicom

    from clinx.data.dicom import read_dicom
    from clinx.metrics.leakage import DrawnValue, drawn_leak
    from clinx.sanitize.header import dicom_header_leaks

    fig: dict = {}
    audit = json.loads((out / "audit.json").read_text())
    fig["released"] = audit["released"]
    fig["quarantined"] = audit["quarantined"]
    fig["failed_reported"] = audit["failed"]
    fig["failed_planted"] = len(truth["corrupt"])
    fig["images_planted"] = len(truth["files"])
    fig["images_released"] = sum(1 for rel in truth["files"] if (out / rel).is_file())
    fig["text_planted"] = len(truth["texts"])
    fig["text_released"] = sum(1 for rel in truth["texts"] if (out / rel).is_file())
    fig["text_residual"] = sum(audit["text"]["residual_by_category"].values())
    fig["transfer_syntax_kept"] = audit["transfer_syntax"].get("kept", 0)
    headers = {}
    leaks = 0
    for rel, t in truth["files"].items():
        p = out / rel
        if not p.is_file():
            continue
        headers[rel] = pydicom.dcmread(p, stop_before_pixels=True)
        leaks += len(dicom_header_leaks(p, _check_manifest(truth["patients"][t["patient"]], t["manifest"])))
    fig["header_phi_left"] = leaks
    # references, studies and series after the remap
    new_sop = {truth["files"][r]["sop"]: h.SOPInstanceUID for r, h in headers.items()}
    broken = 0
    for rel, h in headers.items():
        ref = truth["files"][rel]["referenced"]
        if ref and ref in new_sop:
            got = [x.ReferencedSOPInstanceUID for x in h.get("ReferencedImageSequence", [])]
            broken += int(got != [new_sop[ref]])
    for key in ("study", "series"):
        groups: dict = {}
        for rel, h in headers.items():
            groups.setdefault(truth["files"][rel][key], set()).add(h.StudyInstanceUID if key == "study" else h.SeriesInstanceUID)
        news = [next(iter(v)) for v in groups.values() if len(v) == 1]
        broken += sum(len(v) - 1 for v in groups.values()) + (len(news) - len(set(news)))
    fig["uid_refs_broken"] = broken
    # one date offset per patient (studies and birth date)
    def ordinal(x: str) -> int:
        return dt.date(int(x[:4]), int(x[4:6]), int(x[6:8])).toordinal()

    shifts: dict = {}
    for rel, h in headers.items():
        t = truth["files"][rel]
        pm = truth["patients"][t["patient"]]
        shifts.setdefault(t["patient"], set()).update({ordinal(h.StudyDate) - ordinal(t["study_date"]),
                                                       ordinal(h.PatientBirthDate) - ordinal(_ymd(pm.fields["birth_date"]))})
    fig["date_shift_consistent"] = sum(len(v) == 1 for v in shifts.values()) / len(shifts) if shifts else float("nan")
    # burned-in identifiers left, per attacker, at their drawn places
    for name, engine in attackers.items():
        tot = rec = tot_in = rec_in = 0
        for rel, t in truth["files"].items():
            values = [[DrawnValue(txt, f, True, box) for txt, f, box in frame] for frame in t["drawn"]]
            src = read_dicom(root / rel).frames
            for frame, vals in zip(src, values):
                leak = drawn_leak(vals, engine.read(frame))
                tot_in, rec_in = tot_in + leak.total, rec_in + leak.recovered
            if (out / rel).is_file():
                for frame, vals in zip(read_dicom(out / rel).frames, values):
                    leak = drawn_leak(vals, engine.read(frame))
                    tot, rec = tot + leak.total, rec + leak.recovered
        fig[f"residual_token_recall/{name}"] = round(rec / tot, 4) if tot else float("nan")
        fig[f"residual_tokens/{name}"] = f"{rec}/{tot}"
        fig[f"input_token_recall/{name}"] = round(rec_in / tot_in, 4) if tot_in else float("nan")
    return fig


def run_release(root: Path, out: Path, *, workers: int, backend: str, condition: str, key_dir: Path):
    from clinx.config import compose
    from clinx.release.cli import release_from_config

    cfg = compose("release", [f"input_dir={root}", f"output_dir={out}", f"workers={workers}", f"condition={condition}",
                              f"release.backend={backend}", f"release.key_dir={key_dir}", "progress=false"])
    t0 = time.perf_counter()
    s = release_from_config(cfg, ray_init={"num_cpus": workers} if backend == "ray" else None)
    return s, time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="4 patients x 2 studies x 2 images at 512 px (default 8 x 3 x 3)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--condition", default="prism")
    ap.add_argument("--workers", default="1,2", help="local worker counts to time")
    ap.add_argument("--ray-workers", type=int, default=2, help="Ray actors (0: skip Ray)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    from clinx.provenance import provenance, write_figures

    start = provenance(sys.argv if argv is None else ["bench_release.py", *argv])
    patients, studies, images = (4, 2, 2) if args.quick else (8, 3, 3)
    work = Path(tempfile.mkdtemp(prefix="clinx-bench-release-"))
    fig: dict = {"condition": args.condition, "size": 512}
    try:
        root = work / "archive"
        truth = build_archive(root, patients=patients, studies=studies, images=images, size=512, seed=args.seed)
        fig.update(patients=patients, studies=patients * studies, files=sum(1 for p in root.rglob("*") if p.is_file()))
        runs = [("local", int(w)) for w in str(args.workers).split(",") if w.strip()]
        if args.ray_workers > 0:
            try:
                import ray  # noqa: F401

                runs.append(("ray", args.ray_workers))
            except ImportError:
                fig["ray"] = "not installed"
        releases = {}
        for backend, w in runs:
            out = work / f"release_{backend}_{w}"
            s, wall = run_release(root, out, workers=w, backend=backend, condition=args.condition, key_dir=work / "key")
            fig[f"files_per_s/{backend}/{w}"] = round(s.processed / wall, 4)
            fig[f"wall_s/{backend}/{w}"] = round(wall, 2)
            releases[(backend, w)] = out
            print(f"{backend}/{w}: {s.processed} items in {wall:.1f} s", flush=True)
        first = releases[runs[0]]
        same = all(_tree(first) == _tree(o) for o in releases.values())
        fig["backends_byte_identical"] = same
        fig.update(evaluate(root, first, truth, _attackers()))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for k in sorted(fig):
        print(f"{k:38s} {fig[k]}")
    write_figures(args.out, fig, start=start)
    return 0


def _tree(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in ("progress.jsonl", "audit.jsonl")}


if __name__ == "__main__":
    raise SystemExit(main())
