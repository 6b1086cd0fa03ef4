"""The PHI-injected benchmark: build it, save it, load it, and stream training triples.

One benchmark sample is (x̃, q̃, a, m, z) from the ClinX paper plus what the
metrics and the restoration trainer need: the clean image x, the clean
question, the non-PHI text that must survive, and a PHI-free provenance
(base source, split, seed, which fields went where, boxes).

Everything is a pure function of ``(split, index, seed, size, spec)``:
:func:`build_sample` draws independent random streams for the base, the
question, the manifest, the overlay and the question wrapping, so the same
arguments give bit-identical arrays and a rerun can resume anywhere.

On disk (:func:`save_benchmark`)::

    folder/
      README.md             what is where; manifests/ is (synthetic) PHI
      samples.jsonl         one line per sample: id, question, answer, type, provenance, file names
      images/<id>.png       x̃, the PHI-injected image
      clean/<id>.png        x, the image before injection
      masks/<id>.png        true PHI mask (255 = PHI)
      nonphi_masks/<id>.png non-PHI burned-in text (255 = keep)
      manifests/<id>.json   the synthetic identity z (PHI by contract)
      records/<id>.json     the sample's samples.jsonl line; written last = sample finished

Every file is written atomically (temp file + ``os.replace``); a sample whose
record exists is skipped on a rerun.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from clinx.atomic import write_bytes_atomic
from clinx.data.builtin import SPLITS, BaseSpec, make_base, split_rng
from clinx.data.fakephi import make_manifest
from clinx.data.inject import inject_image, inject_question_detailed
from clinx.data.questions import make_question
from clinx.errors import InputError
from clinx.records import Manifest, Sample

SUBDIRS = ("images", "clean", "masks", "nonphi_masks", "manifests", "records")

README_TEXT = """# clinx PHI-injected benchmark

Built by `clinx build` (clinx.data.benchmark). Every identifier in this folder
is **synthetic** (Faker names, random numbers) — but treat `manifests/` as
**PHI (synthetic)**: it is the identity burned into `images/` and written into
the questions, and tools must handle it like real PHI (never log it). By
design `images/` and the `question` field of `samples.jsonl` carry the same
synthetic PHI; `clean/`, `clean_question` and `provenance` carry none.

- `samples.jsonl` — one line per sample: `id`, `question` (PHI-injected q̃),
  `clean_question`, `answer`, `answer_type` (closed/open), `nonphi_texts`,
  `provenance` (base source, split, seed, facts, fields drawn on the image and
  used in the question, PHI and non-PHI boxes — field names only, no values).
- `images/<id>.png` — x̃, the image with burned-in PHI (RGB, 8 bit).
- `clean/<id>.png` — x, the same image before injection (restoration training only).
- `masks/<id>.png` — true PHI mask, 255 where a PHI glyph changed the pixel.
- `nonphi_masks/<id>.png` — burned-in text that is not PHI (labels, L/R, 5 cm …).
- `manifests/<id>.json` — the synthetic manifest z: `fields` and the exact `renderings`.
- `records/<id>.json` — per-sample copy of the jsonl line (resume marker).
"""


def sample_id(split: str, seed: int, index: int) -> str:
    """PHI-free, sortable sample id."""
    return f"{split}-s{int(seed)}-{int(index):05d}"


def _injection_provenance(iq, inj) -> dict:
    """Where the PHI went in one sample: question slot and fields, image fields and boxes.

    Shared by built-in and dataset samples so both record the same keys.
    """
    return {
        "question_template": iq.template,
        "question_position": iq.position,
        "question_fields": list(iq.fields),
        "image_fields": inj.fields,
        # Boxes are geometry, not PHI: the strings themselves live only in the manifest.
        "phi_boxes": [{"field": d.field, "box": list(d.box), "word_boxes": [list(b) for b in d.word_boxes]} for d in inj.drawn],
        "nonphi_boxes": [{"text": t.text, "kind": t.kind, "box": list(t.box)} for t in inj.nonphi_texts],
        "backing_boxes": [list(b) for b in inj.backings],
        "overlay_style": inj.style,
    }


def build_sample(split: str, index: int, seed: int = 0, size: int = 512, spec: BaseSpec = BaseSpec()) -> Sample:
    """The ``index``-th benchmark sample of ``split``; deterministic in all arguments."""
    base = make_base(split, index, seed, size, spec)
    question = make_question(base.facts, split_rng(split, seed, index, "question"))
    manifest = make_manifest(split_rng(split, seed, index, "manifest"))
    inj = inject_image(base.image, manifest, split_rng(split, seed, index, "overlay"))
    iq = inject_question_detailed(question.text, manifest, split_rng(split, seed, index, "question-phi"))
    provenance = {
        "base_source": base.source,
        "split": split,
        "seed": int(seed),
        "index": int(index),
        "size": int(size),
        "facts": dict(base.facts),
        "base_detail": base.detail,
        "question_family": question.family,
        **_injection_provenance(iq, inj),
    }
    return Sample(
        id=sample_id(split, seed, index),
        image=inj.image,
        question=iq.text,
        answer=question.answer,
        answer_type=question.answer_type,
        manifest=manifest,
        mask=inj.mask,
        provenance=provenance,
        clean_image=base.image,
        clean_question=question.text,
        nonphi_mask=inj.nonphi_mask,
        background=inj.background,
        nonphi_texts=tuple(t.text for t in inj.nonphi_texts),
    )


def build_benchmark(split: str = "test", n: int = 300, seed: int = 0, size: int = 512,
                    spec: BaseSpec = BaseSpec(), evidence_share: float = 0.0) -> list[Sample]:
    """``n`` samples of one split (see :func:`build_sample`).

    ``evidence_share`` of them (drawn per index) are evidence-under-the-mask
    items (:mod:`clinx.data.evidence`); 0 keeps the benchmark as it was.
    """
    from clinx.data.evidence import build_evidence_sample

    out = []
    for i in range(int(n)):
        if evidence_share > 0 and split_rng(split, seed, i, "evidence").random() < evidence_share:
            out.append(build_evidence_sample(split, i, seed, size))
        else:
            out.append(build_sample(split, i, seed, size, spec))
    return out


def read_builtin(root=None, split: str | None = "test", limit: int | None = 300, *, seed: int = 0, size: int = 512,
                 phantom_share: float = 0.3, strict: bool = False, fmt: str = "builtin",
                 evidence_share: float = 0.0) -> list[Sample]:
    """The built-in benchmark behind the same call shape as the dataset readers.

    ``configs/data/builtin.yaml`` instantiates this (partially), so callers
    can treat every data config alike: ``instantiate(cfg.data)(split=..., limit=...)``.
    ``root`` and ``fmt`` are accepted and ignored: the built-in data needs no
    folder, and ``fmt`` only names the format in the config.
    """
    spec = BaseSpec(phantom_share=phantom_share, strict=strict)
    return build_benchmark(split or "test", 300 if limit is None else int(limit), seed, size, spec,
                           evidence_share=float(evidence_share))


def _safe_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "item"


def injected_id(source_id: str, split: str, seed: int, index: int) -> str:
    """Benchmark id of a PHI-injected dataset sample (file-name safe, keeps the source id readable)."""
    return f"{split}-s{int(seed)}-{int(index):05d}-{_safe_id(source_id)}"[:120]


def inject_sample(sample: Sample, split: str, index: int, seed: int = 0, size: int = 512,
                  preset: str = "clinx") -> Sample:
    """PHI-inject one dataset sample (VQA-RAD, SLAKE, …) the way :func:`build_sample` does built-in bases.

    The image is letterboxed to ``size``² (no crop: the question may be about
    anything in it); the question and answer are kept; a fresh synthetic
    manifest is drawn from ``(split, seed, index)``. A manifest the sample
    already carries is ignored: benchmark PHI must be synthetic and known.
    ``preset`` is the overlay style (:data:`clinx.data.inject.PRESETS`); the
    overlay style in the provenance records it with the resolution.
    """
    if sample.image is None:
        raise InputError(sample.id, "sample has no image", "inject")
    from clinx.data.builtin import augment_to_square

    rng = split_rng(split, seed, index, "base")
    clean, _ = augment_to_square(np.ascontiguousarray(sample.image), rng, size, strength=0.0)
    manifest = make_manifest(split_rng(split, seed, index, "manifest"))
    inj = inject_image(clean, manifest, split_rng(split, seed, index, "overlay"), preset=preset)
    iq = inject_question_detailed(sample.question, manifest, split_rng(split, seed, index, "question-phi"))
    provenance = {
        **{k: v for k, v in (sample.provenance or {}).items() if isinstance(v, (str, int, float, bool, type(None), list, dict))},
        "base_source": str((sample.provenance or {}).get("dataset") or sample.id.split("/")[0]),
        "source_id": sample.id,
        "split": split,
        "seed": int(seed),
        "index": int(index),
        "size": int(size),
        "facts": dict((sample.provenance or {}).get("facts") or {}),
        **_injection_provenance(iq, inj),
    }
    return Sample(
        id=injected_id(sample.id, split, seed, index),
        image=inj.image, question=iq.text, answer=sample.answer, answer_type=sample.answer_type,
        manifest=manifest, mask=inj.mask, provenance=provenance, clean_image=clean,
        clean_question=sample.question, nonphi_mask=inj.nonphi_mask, background=inj.background,
        nonphi_texts=tuple(t.text for t in inj.nonphi_texts),
    )


def iter_training_triples(split: str = "train", size: int = 224, seed: int = 0, *, epoch: int = 0,
                          n: int | None = None, spec: BaseSpec = BaseSpec()) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Endless (or ``n``) ``(x̃, mask, x)`` triples for restoration training.

    The base sequence of a split is fixed by ``seed``; the PHI (identity,
    layout, fonts) is drawn fresh for each ``epoch``, so a trainer that bumps
    ``epoch`` every pass never sees the same overlay twice on a base.
    Runs on CPU at a few ms per 224² triple (fonts and decoded sources are cached).
    """
    i = 0
    while n is None or i < n:
        base = make_base(split, i, seed, size, spec)
        rng = split_rng(split, seed, i, f"train-overlay-{int(epoch)}")
        inj = inject_image(base.image, make_manifest(rng), rng)
        yield inj.image, inj.mask, inj.background  # the target keeps backing boxes: the scan under them is unknowable
        i += 1


# ------------------------------------------------------------------ disk ---

def _save_png(path: Path, array: np.ndarray) -> None:
    """Write a PNG atomically (RGB image, or a bool mask as 0/255 grayscale)."""
    import io

    from PIL import Image

    if array.dtype == bool:
        im = Image.fromarray(array.astype(np.uint8) * 255, mode="L")
    else:
        try:  # the shared writer, once the image I/O module provides it
            from clinx.data.images import save_image_atomic
        except ImportError:
            save_image_atomic = None
        if save_image_atomic is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_image_atomic(path, array)
            return
        im = Image.fromarray(array, mode="RGB")
    buf = io.BytesIO()
    im.save(buf, format="PNG", compress_level=1)  # fast; PNG stays lossless
    write_bytes_atomic(path, buf.getvalue())


def _load_png(path: Path, item: str, mask: bool = False) -> np.ndarray:
    from PIL import Image

    if not mask:
        try:
            from clinx.data.images import load_image
        except ImportError:
            load_image = None
        if load_image is not None:
            return load_image(path)
    try:
        with Image.open(path) as im:
            im.load()
            a = np.asarray(im.convert("L" if mask else "RGB"))
    except FileNotFoundError:
        raise InputError(item, f"missing file {path.parent.name}/{path.name}", "load_benchmark") from None
    except Exception as e:
        raise InputError(item, f"unreadable {path.parent.name}/{path.name}: {type(e).__name__}", "load_benchmark") from None
    return a > 127 if mask else a


def _record(sample: Sample) -> dict:
    return {
        "id": sample.id,
        "question": sample.question,
        "clean_question": sample.clean_question,
        "answer": sample.answer,
        "answer_type": sample.answer_type,
        "nonphi_texts": list(sample.nonphi_texts),
        "image": f"images/{sample.id}.png",
        "clean_image": f"clean/{sample.id}.png",
        "mask": f"masks/{sample.id}.png",
        "nonphi_mask": f"nonphi_masks/{sample.id}.png",
        "manifest": f"manifests/{sample.id}.json",
        "provenance": sample.provenance,
    }


def is_saved(folder: str | os.PathLike, sid: str) -> bool:
    """Whether sample ``sid`` is completely on disk (its record is written last)."""
    return (Path(folder) / "records" / f"{sid}.json").is_file()


def save_sample(sample: Sample, folder: str | os.PathLike) -> bool:
    """Write one sample; returns ``False`` (and writes nothing) if it is already saved."""
    folder = Path(folder)
    if is_saved(folder, sample.id):
        return False
    _save_png(folder / "images" / f"{sample.id}.png", sample.image)
    if sample.clean_image is not None:
        _save_png(folder / "clean" / f"{sample.id}.png", sample.clean_image)
    if sample.mask is not None:
        _save_png(folder / "masks" / f"{sample.id}.png", np.asarray(sample.mask, bool))
    if sample.nonphi_mask is not None:
        _save_png(folder / "nonphi_masks" / f"{sample.id}.png", np.asarray(sample.nonphi_mask, bool))
    write_bytes_atomic(folder / "manifests" / f"{sample.id}.json",
                        json.dumps(sample.manifest.to_dict(), ensure_ascii=False, indent=1).encode("utf-8"))
    write_bytes_atomic(folder / "records" / f"{sample.id}.json",
                        json.dumps(_record(sample), ensure_ascii=False).encode("utf-8"))
    return True


def write_index(folder: str | os.PathLike) -> Path:
    """(Re)write ``samples.jsonl`` and ``README.md`` from every finished record, sorted by id."""
    folder = Path(folder)
    recs = sorted((folder / "records").glob("*.json"))
    lines = [p.read_text(encoding="utf-8").strip() for p in recs]
    write_bytes_atomic(folder / "samples.jsonl", ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8"))
    write_bytes_atomic(folder / "README.md", README_TEXT.encode("utf-8"))
    return folder / "samples.jsonl"


def save_benchmark(samples: Iterable[Sample], folder: str | os.PathLike) -> Path:
    """Save samples (skipping those already finished) and write the index; returns ``samples.jsonl``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for s in samples:
        save_sample(s, folder)
    return write_index(folder)


def load_benchmark(folder: str | os.PathLike, split: str | None = None, limit: int | None = None) -> list[Sample]:
    """Read a saved benchmark back into :class:`Sample` objects (optionally one split, first ``limit``).

    A broken line or file raises :class:`InputError` naming the sample id and
    the file — never a manifest value.
    """
    folder = Path(folder)
    index = folder / "samples.jsonl"
    if not index.is_file():
        raise InputError(str(folder.name), "no samples.jsonl (not a clinx benchmark folder?)", "load_benchmark")
    out: list[Sample] = []
    with open(index, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                raise InputError(f"samples.jsonl:{lineno}", "malformed JSON line", "load_benchmark") from None
            sid = rec.get("id", f"samples.jsonl:{lineno}")
            prov = rec.get("provenance") or {}
            if split is not None and prov.get("split") != split:
                continue
            try:
                manifest = Manifest.from_dict(json.loads((folder / rec["manifest"]).read_text(encoding="utf-8")))
            except (OSError, ValueError, TypeError, KeyError):
                raise InputError(sid, "missing or malformed manifest file", "load_benchmark") from None
            out.append(Sample(
                id=sid,
                image=_load_png(folder / rec["image"], sid),
                question=rec.get("question", ""),
                answer=rec.get("answer", ""),
                answer_type=rec.get("answer_type", "open"),
                manifest=manifest,
                mask=_load_png(folder / rec["mask"], sid, mask=True) if rec.get("mask") else None,
                provenance=prov,
                clean_image=_load_png(folder / rec["clean_image"], sid) if rec.get("clean_image") else None,
                clean_question=rec.get("clean_question"),
                nonphi_mask=_load_png(folder / rec["nonphi_mask"], sid, mask=True) if rec.get("nonphi_mask") else None,
                nonphi_texts=tuple(rec.get("nonphi_texts") or ()),
            ))
            if limit is not None and len(out) >= limit:
                break
    return out


def summarize(records: Iterable[dict | Sample]) -> dict:
    """Counts per split, modality, answer type and base source (no PHI)."""
    from collections import Counter

    by = {"split": Counter(), "modality": Counter(), "answer_type": Counter(), "source": Counter()}
    for r in records:
        prov = r.provenance if isinstance(r, Sample) else r.get("provenance", {})
        atype = r.answer_type if isinstance(r, Sample) else r.get("answer_type")
        by["split"][prov.get("split")] += 1
        by["modality"][prov.get("facts", {}).get("modality")] += 1
        by["answer_type"][atype] += 1
        by["source"][prov.get("base_source")] += 1
    return {k: dict(sorted(v.items(), key=lambda kv: str(kv[0]))) for k, v in by.items()}


__all__ = [
    "SPLITS", "BaseSpec", "build_sample", "build_benchmark", "read_builtin", "inject_sample", "injected_id",
    "iter_training_triples", "save_sample",
    "save_benchmark", "load_benchmark", "write_index", "is_saved", "sample_id", "summarize",
]
