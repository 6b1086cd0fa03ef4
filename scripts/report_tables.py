#!/usr/bin/env python3
"""Render the README's measured tables from the committed benchmark JSONs in ``benchmarks/results/``.

    python scripts/report_tables.py                 # print every table whose JSON exists
    python scripts/report_tables.py --table demo    # one table
    python scripts/report_tables.py --write-readme  # replace README sections between markers

A README table this script owns sits between ``<!-- table:NAME -->`` and
``<!-- /table:NAME -->``; ``--write-readme`` replaces only what lies between
the two markers, leaving the rest of the README as it is. Each table ends with
a line naming its JSON and the git commit, machine load and date recorded in
it (``clinx.provenance``), so every figure can be traced to the run that
produced it. A table whose JSON is missing is reported and left unchanged.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

COND = {"raw": "raw", "ocr": "ocr", "blackout": "blackout", "gskip": "g-skip", "prism": "PRISM", "prism_flat": "PRISM-flat"}
ENGINE = {"rapidocr": "RapidOCR", "easyocr": "EasyOCR"}
LEVEL = {"l0": "L0", "l1": "L1", "l2": "L2", "l3": "L3"}


def _md(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _f(v, fmt: str = "{:.1f}") -> str:
    return "—" if v is None else fmt.format(v)


def source_line(name: str, fig: dict) -> str:
    """``*source: benchmarks/results/<file> — commit abc1234, load 2.1 on 2 CPUs, 2026-12-01*``.

    Reads the provenance in any of the three shapes the benches write: ``provenance/*`` keys
    (``clinx.provenance``), a ``_meta`` dict (bench_leakage) or ``config/*`` keys (bench_text).
    """
    meta = fig.get("_meta") or {}
    commit = fig.get("provenance/git_commit") or meta.get("git_commit") or fig.get("config/git_commit") or fig.get("git_commit") or "unknown"
    dirty = " (uncommitted edits)" if (fig.get("provenance/git_dirty") or meta.get("git_dirty")) else ""
    if "provenance/load_avg_1m" in fig:
        load = f"load {fig.get('provenance/load_avg_1m')} (15 min: {fig.get('provenance/load_avg_15m')})"
    else:
        la = meta.get("loadavg") or fig.get("config/loadavg") or [fig.get("load_average_1min")]
        load = f"load {la[0]}" if la and la[0] is not None else "load not recorded"
    cpus = fig.get("provenance/cpu_count") or meta.get("cpu_count") or fig.get("cpu_count") or 2
    when = str(fig.get("provenance/utc", ""))[:10]
    when = f", {when}" if when else ""
    return f"*source: `benchmarks/results/{name}` — commit {str(commit)[:10]}{dirty}, {load} on {cpus} CPUs{when}*"


# ---------------------------------------------------------------------------- tables


def _conditions(fig: dict, prefix: str, index: int = 2) -> list[str]:
    """Conditions named at position ``index`` of ``prefix<a>/<b>`` keys, in the paper's order."""
    found = {k.split("/")[index] for k in fig if k.startswith(prefix) and k.count("/") == 2}
    return [c for c in COND if c in found] + sorted(found - set(COND))


def table_demo(fig: dict) -> str:
    """Table 1 of ``clinx demo`` (``bench_eval.py``): EM, F1, yes/no EM and judge per level and condition; OCR attack."""
    conds = _conditions(fig, "em/")
    levels = sorted({k.split("/")[1] for k in fig if k.startswith("em/") and k.count("/") == 2})
    judges = sorted({k.split("/")[1] for k in fig if k.startswith("judge/") and k.count("/") == 3})
    rows = []
    for lv in levels:
        for c in conds:
            if f"em/{lv}/{c}" not in fig:
                continue
            row = [LEVEL.get(lv, lv), COND.get(c, c), _f(fig.get(f"em/{lv}/{c}")), _f(fig.get(f"f1/{lv}/{c}")),
                   _f(fig.get(f"yn_em/{lv}/{c}"))]
            row += [_f(fig.get(f"judge/{j}/{lv}/{c}")) for j in judges]
            d, se = fig.get(f"diff/em/{lv}/{c}-raw"), fig.get(f"diff_se/em/{lv}/{c}-raw")
            row.append("—" if d is None else f"{d:+.1f} ± {se:.1f}")
            rows.append(row)
    head = ["Lvl", "Condition", "EM", "F1", "Y/N EM"] + [f"{j} judge" for j in judges] + ["ΔEM vs raw (± SE)"]
    out = [_md(head, rows), ""]
    lconds = _conditions(fig, "token_recall/", 1)
    engines = sorted({k.split("/")[2] for k in fig if k.startswith("token_recall/") and k.count("/") == 2})
    out.append(_md(["OCR attack (token recall)"] + [COND.get(c, c) for c in lconds],
                   [[ENGINE.get(e, e)] + [_f(fig.get(f"token_recall/{c}/{e}"), "{:.3f}") for c in lconds] for e in engines]))
    if any(f"released/{c}" in fig for c in lconds):  # leakage is measured on what the verifier released
        out[-1] += "\n| released / quarantined | " + " | ".join(
            f"{fig.get(f'released/{c}', '—')} / {fig.get(f'quarantined/{c}', 0)}" for c in lconds) + " |"
    out += ["", f"{fig.get('n_items')} items; cold {fig.get('wall_s', 0):.0f} s wall, cached rerun "
            f"{fig.get('wall_s_cached', 0):.0f} s."]
    return "\n".join(out)


def table_restore(fig: dict) -> str:
    """Masked PSNR ± SE, paired difference from Telea, win rate, SSIM and speed per method and mask (``bench_restore.py``)."""
    out = []
    for sfx, label in (("", "glyph mask"), ("_boxes", "OCR word boxes")):
        methods = sorted({k.split("/")[1] for k in fig if k.startswith(f"psnr_mask{sfx}/")},
                         key=lambda m: -fig[f"psnr_mask{sfx}/{m}"])
        if not methods:
            continue
        rows = []
        for m in methods:
            d, se, med = (fig.get(f"psnr_diff_vs_telea{x}{sfx}/{m}") for x in ("", "_se", "_median"))
            delta = "—" if d is None else f"{d:+.2f} ± {se:.2f}" + ("" if med is None else f" (median {med:+.2f})")
            wins = fig.get(f"win_rate_vs_telea{sfx}/{m}")
            rows.append([m, _f(fig[f"psnr_mask{sfx}/{m}"], "{:.2f}") + f" ± {fig.get(f'psnr_mask_se{sfx}/{m}', float('nan')):.2f}",
                         delta, "—" if wins is None else f"{wins:.0%}", _f(fig.get(f"ssim_mask{sfx}/{m}"), "{:.3f}"),
                         _f(fig.get(f"ms_per_image{sfx}/{m}"), "{:.0f}")])
        out.append(f"*{label}:*\n\n" + _md(["method", "masked PSNR (dB) ± SE", "Δ vs Telea ± SE", "beats Telea on",
                                             "masked SSIM", "ms / image"], rows))
    return "\n\n".join(out)


def table_leakage(fig: dict) -> str:
    """Token recall per condition and attacker, released fraction when recorded (``bench_leakage.py``)."""
    conds = _conditions(fig, "token_recall/", 1)
    engines = sorted({k.split("/")[2] for k in fig if k.startswith("token_recall/") and k.count("/") == 2})
    head = ["condition"] + [f"token recall {ENGINE.get(e, e)}" for e in engines]
    has_released = any(f"released_fraction/{c}" in fig for c in conds)
    if has_released:
        head.append("released")
    rows = []
    for c in conds:
        row = [COND.get(c, c)]
        for e in engines:
            v, se = fig.get(f"token_recall/{c}/{e}"), fig.get(f"token_recall_se/{c}/{e}")
            row.append(_f(v, "{:.3f}") + (f" ± {se:.3f}" if se is not None else ""))
        if has_released:
            row.append(_f(fig.get(f"released_fraction/{c}"), "{:.3f}"))
        rows.append(row)
    return _md(head, rows)


def table_leakage_native(fig: dict) -> str:
    """Drawn-identifier recall per condition and attacker role on the native held-out split (``bench_leakage.py``).

    Columns are labelled by the attacker's role: the engine that built the masks, the verifier,
    and the independent attacker (the headline). Released fraction and non-PHI survival stand beside them.
    """
    meta = fig.get("_meta") or {}
    roles = {e: a.get("role", "") for e, a in (meta.get("attackers") or {}).items()}
    order = sorted(roles, key=lambda e: {"independent": 0, "verifier": 1, "mask engine": 2}.get(roles[e], 3))
    conds = [c for c in meta.get("conditions", []) if f"released_fraction/{c}" in fig]

    def rec(key: str) -> str:
        v, se, hi = fig.get(key), fig.get(key.replace("/", "_se/", 1)), fig.get(key.replace("/", "_upper95/", 1))
        if v is None:
            return "—"
        if v == 0 and hi is not None:
            return f"0 (≤ {hi:.3f})"
        return f"{v:.3f}" + (f" ± {se:.3f}" if se else "")

    head = ["condition", "released"] + [f"{ENGINE.get(e, e)} ({roles[e]})" for e in order]
    head += [f"unlisted, {ENGINE.get(order[0], order[0])}", "non-PHI read (texts / images)"]
    ink = any(f"nonphi_ink_kept/{c}" in fig for c in conds)
    if ink:  # attacker-free: pixels of the non-PHI text left alone
        head.append("non-PHI pixels kept (boxes / images)")
    rows = []
    for c in conds:
        row = [COND.get(c, c), f"{fig[f'released_fraction/{c}']:.3f} ({fig.get(f'n_released/{c}')}/{fig.get(f'n_released/{c}', 0) + fig.get(f'n_quarantined/{c}', 0)})"]
        row += [rec(f"token_recall/{c}/{e}") for e in order]
        row.append(rec(f"token_recall_unlisted/{c}/{order[0]}"))
        row.append(f"{_f(fig.get(f'nonphi_survival_text/{c}'), '{:.3f}')} / {_f(fig.get(f'nonphi_survival/{c}'), '{:.3f}')}")
        if ink:
            row.append(f"{_f(fig.get(f'nonphi_ink_kept_boxes/{c}'), '{:.3f}')} / {_f(fig.get(f'nonphi_ink_kept/{c}'), '{:.3f}')}")
        rows.append(row)
    n = fig.get("n_images")
    sizes = meta.get("image_sides_px") or []
    speed = ", ".join(f"`{k}` {v}" for k, v in fig.items() if k.startswith("images_per_s/"))
    note = (
        f"\n\n{n} held-out images (sides {sizes[0]}–{sizes[-1]} px), {meta.get('images_with_unlisted_identifier')} with an identifier "
        f"the manifest does not list; masks by {meta.get('mask_engine')}, verification by {meta.get('verifier')}. "
        f"± is a cluster-bootstrap SE over images; `0 (≤ x)` is the 95 % upper bound when nothing was read. Speed: {speed}."
        if sizes
        else ""
    )
    return _md(head, rows) + note


def table_text(fig: dict) -> str:
    """Span-level recall / precision on hand-annotated notes, question recall, speed (``bench_text.py``)."""
    rows = []
    for split, label in (("notes_tune", "notes, tuning split"), ("notes_heldout", "notes, held-out split (never tuned on)"), ("notes", "notes, all"),
                         ("notes_blind", "notes written blind to the code (never tuned on)"),
                         ("notes_blind_wrap60", "the same, hard-wrapped at 60 characters"),
                         ("notes_blind_crlf", "the same, with Windows line ends"),
                         ("notes_philter", "i2b2 samples in philter-ucsf (misses and false removals read, 2026-12-02/04/05, twice on 05)")):
        for sys_ in ("L1", "L2-rules", "L2", "L2+minilm", "L2+spacy", "presidio", "philter"):
            r, p = fig.get(f"recall/{split}/{sys_}"), fig.get(f"precision/{split}/{sys_}")
            if r is None:
                continue
            ret = fig.get(f"retention/{split}/{sys_}")
            se_r, se_p = fig.get(f"se/recall/{split}/{sys_}"), fig.get(f"se/precision/{split}/{sys_}")
            rows.append([label, sys_, _f(r, "{:.3f}") + (f" ± {se_r:.3f}" if se_r is not None else ""),
                         _f(p, "{:.3f}") + (f" ± {se_p:.3f}" if se_p is not None else ""), _f(ret, "{:.3f}") if ret is not None else "—"])
    for q, label in (("", "injected questions"), ("questions_ood/", "questions, names from other locales"), ("iu/", "IU X-ray reports, PHI in XXXX slots")):
        for lvl in ("L1", "L2"):
            r, p = fig.get(f"{q}phi_recall/{lvl}"), fig.get(f"{q}phi_precision/{lvl}")
            if r is not None:
                rows.append([label, lvl, _f(r, "{:.3f}"), _f(p, "{:.3f}"), _f(fig.get(f"{q}clinical_term_retention/{lvl}"), "{:.3f}")])
    out = _md(["data", "system", "recall", "precision", "clinical terms kept"], rows)
    speed = [f"`{k}` {fig[k]:,.0f}" for k in fig if k.startswith(("notes_per_s", "questions_per_s/L1", "questions_per_s/L2")) and isinstance(fig[k], (int, float))]
    ev = [f"`{k}` {fig[k]:.3f}" for k in ("recall/evasion/L1", "recall/evasion/L2") if k in fig]
    if speed:
        cost = [f"`{k}` {fig[k]:.2f}" for k in fig if k.startswith("cost_ratio/") and isinstance(fig[k], (int, float))]
        out += f"\n\nThroughput, one core ({fig.get('notes_mean_chars', 0):.0f}-character notes; `_1kb` scales to 1 KB): " + ", ".join(speed + cost) + "."
        cal = fig.get("config/calibration_us_sum_range_1e5")
        if cal:  # the same fixed Python loop on every run: how fast the machine was, to compare runs
            out += f" Calibration loop: {cal:,.0f} µs (1,460 µs on the quiet machine of earlier runs; speeds scale inversely)."
    if ev:
        out += f" Unicode evasion ({fig.get('n_identifiers')} identifiers): " + ", ".join(ev) + "."
    return out


def table_ocr(fig: dict) -> str:
    """CPU seconds per image by engine and image side, and the estimate with verification (``bench_ocr.py``)."""
    sizes = sorted({int(k.rsplit("/", 1)[1]) for k in fig if k.startswith("native_cpu_s/")})
    rows = []
    for key, label in (("native_cpu_s/rapidocr", "RapidOCR, CPU s"), ("native_cpu_s/easyocr", "EasyOCR, CPU s"),
                       ("native_cpu_s/ocr_verify", "mask (RapidOCR) + verify (EasyOCR), CPU s"),
                       ("images_per_s_est/native_verify_2cores", "images/s on 2 cores, with verification (2 ÷ CPU s)"),
                       ("native_phi_masked/rapidocr", "PHI tokens masked, RapidOCR"), ("native_unlisted_masked/rapidocr", "unlisted PHI masked, RapidOCR"),
                       ("native_nonphi_kept/rapidocr", "non-PHI texts kept, RapidOCR")):
        rows.append([label] + [_f(fig.get(f"{key}/{s}"), "{:.2f}") for s in sizes])
    return _md(["per image"] + [f"{s}²" for s in sizes], rows)


def table_train(fig: dict) -> str:
    """Seconds per G+D step and images/s per generator (``bench_train.py``)."""
    rows = []
    for k in sorted(fig):
        if k.startswith("images_per_s/"):
            _, dev, arch = k.split("/")
            rows.append([arch, dev, _f(fig[k], "{:.2f}"), _f(fig.get(f"cpu_s_per_step/{arch}"), "{:.2f}")])
    return _md(["generator", "device", "images/s", "CPU-s / step"], rows)


#: README table name -> (JSON file in benchmarks/results/, renderer)
TABLES: dict[str, tuple[str, Callable[[dict], str]]] = {
    "demo": ("bench_eval.json", table_demo),
    "leakage": ("bench_leakage_quick.json", table_leakage_native),
    "text": ("bench_text.json", table_text),
    "ocr": ("bench_ocr.json", table_ocr),
    "restore": ("bench_restore_native.json", table_restore),
    "train": ("bench_train.json", table_train),
}


#: Side runs whose competitor rows join a table (competitors install apart from clinx; see bench_text.py).
EXTRA: dict[str, str] = {"text": "bench_text_competitors.json"}


def render(name: str, results: Path = RESULTS) -> str | None:
    """The Markdown of table ``name`` with its source line, or ``None`` when its JSON is not there."""
    file, fn = TABLES[name]
    path = results / file
    if not path.is_file():
        return None
    fig = json.loads(path.read_text())
    sources = [source_line(file, fig)]
    extra = results / EXTRA.get(name, "-")
    if extra.is_file():  # only the competitors' figures come from the side run
        side = json.loads(extra.read_text())
        fig.update({k: v for k, v in side.items() if k.split("/")[-1] in ("presidio", "philter")})
        sources.append(source_line(extra.name, side) + " (competitor rows)")
    return fn(fig) + "\n\n" + "  \n".join(sources)


def replace_sections(text: str, tables: dict[str, str]) -> tuple[str, list[str]]:
    """``text`` with the body between ``<!-- table:NAME -->`` and ``<!-- /table:NAME -->`` replaced; names replaced."""
    done = []
    for name, body in tables.items():
        pat = re.compile(rf"(<!-- table:{re.escape(name)} -->\n).*?(\n<!-- /table:{re.escape(name)} -->)", re.S)
        text, n = pat.subn(lambda m: m.group(1) + body + m.group(2), text)
        if n:
            done.append(name)
    return text, done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", action="append", choices=sorted(TABLES), help="only these tables (repeatable)")
    ap.add_argument("--results", type=Path, default=RESULTS)
    ap.add_argument("--write-readme", action="store_true", help="rewrite README.md sections between table markers")
    ap.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = ap.parse_args(argv)
    rendered = {}
    for name in args.table or list(TABLES):
        body = render(name, args.results)
        if body is None:
            print(f"[{name}: {TABLES[name][0]} not in {args.results} — left as it is]", file=sys.stderr)
            continue
        rendered[name] = body
        print(f"<!-- table:{name} -->\n{body}\n<!-- /table:{name} -->\n")
    if args.write_readme:
        text, done = replace_sections(args.readme.read_text(), rendered)
        args.readme.write_text(text)
        print(f"README: replaced {', '.join(done) or 'nothing'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
