"""Reports of a grid run: the paper's Tables 1–3, the leakage table, comparisons with noise, figures.

Everything written here is aggregated: counts, means and rates per
condition / level / dataset / model. No question, answer, prediction or
manifest value appears in any table (the per-item CSV holds safe item ids
and 0/1 scores only). The qualitative figure shows image crops of datasets
whose PHI was *injected* (synthetic, Faker-made) — never of data that may
carry real PHI.

Files (in the run folder):

* ``tables.md`` — every table in Markdown (also printed to the console);
* ``table1.csv`` (level × condition), ``table2.csv`` (per dataset),
  ``table3.csv`` (per model), ``ablation.csv`` (text-only ablation),
  ``leakage.csv`` (condition × engine, with ``prism_flat``),
  ``comparisons.csv`` (paired differences with standard errors),
  ``scores.csv`` (per item, scores only);
* ``results.json`` — all of the above plus flat named figures, missing
  parts, failures, cache counts and timings;
* ``privacy_utility.png`` — OCR token recall vs EM per condition and level;
* ``qualitative.png`` — raw / ocr / g-skip / PRISM crops around the PHI.

Units: utility figures (EM, F1, Y/N EM, judges) are percentages as in the
paper's tables; leakage figures (token recall, character overlap) are
fractions in [0, 1], as in ``scripts/bench_leakage.py``.
"""

from __future__ import annotations

import csv
import json
import logging
import math
import os
from collections import OrderedDict
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from clinx.metrics.utility import Mean, aggregate, mean_pct

from .grid import CLEAN, GridResult

log = logging.getLogger(__name__)

LEVEL_LABEL = {"l0": "L0", "l1": "L1", "l2": "L2", "l3": "L3"}
COND_LABEL = {"raw": "raw", "ocr": "ocr", "gskip": "g-skip", "prism": "PRISM", "prism_flat": "PRISM-flat", CLEAN: "clean"}


def _judges(result: GridResult) -> list[str]:
    return list(result.meta.get("judges", {}))


def _metrics(result: GridResult) -> list[str]:
    return ["em", "f1", "yn_em"] + [f"judge/{j}" for j in _judges(result)]


def _metric_label(m: str) -> str:
    return {"em": "EM", "f1": "F1", "yn_em": "Y/N EM"}.get(m, m.split("/", 1)[-1] + "-J")


def _ordered(keys: Iterable[tuple], orders: Sequence[Sequence[str]]) -> list[tuple]:
    """Sort group keys by the configured order of each position (unknown values last, stable)."""
    def rank(k):
        return tuple((orders[i].index(v) if v in orders[i] else len(orders[i]), str(v)) for i, v in enumerate(k))

    return sorted(keys, key=rank)


def evidence_rows(row: dict) -> bool:
    """Row filter: items whose answer depends on pixels the PHI overlay partly covers (:mod:`clinx.data.evidence`)."""
    return bool(row.get("evidence"))


def utility_table(result: GridResult, by: Sequence[str], block: str = "grid",
                  where: Callable[[dict], bool] | None = None) -> list[dict]:
    """Rows ``{by..., metric: Mean, "n": items}`` of one block, grouped by ``by``; ``where`` filters rows."""
    rows = [r for r in result.rows if r["block"] == block and (where is None or where(r))]
    metrics = _metrics(result)
    agg = aggregate(rows, by=by, metrics=metrics)
    orders = {
        "level": result.meta.get("levels", []),
        "condition": result.meta.get("conditions", []) + ["raw", CLEAN],
        "dataset": list(result.meta.get("datasets", {})),
        "model": list(result.meta.get("models", {})),
    }
    out = []
    for key in _ordered(agg, [orders.get(b, []) for b in by]):
        d = dict(zip(by, key))
        d.update(agg[key])
        d["n"] = agg[key]["em"].n
        out.append(d)
    return out


def paired_comparisons(result: GridResult, pairs: Sequence[tuple[str, str]] | None = None,
                       where: Callable[[dict], bool] | None = None) -> list[dict]:
    """Per level, the paired difference ``a - b`` of each metric over the same (dataset, model, item).

    The standard error of a paired difference is the measurement noise to
    quote when saying one condition beats another on the same items.
    ``where`` keeps only some rows (e.g. :func:`evidence_rows`).
    """
    conds = result.meta.get("conditions", [])
    if pairs is None:
        pairs = [(c, "raw") for c in conds if c != "raw"] + [(c, "ocr") for c in conds if c not in ("raw", "ocr")]
    idx: dict[tuple, dict] = {}
    for r in result.rows:
        if r["block"] == "grid" and (where is None or where(r)):
            idx[(r["dataset"], r["model"], r["item"], r["level"], r["condition"])] = r
    out = []
    for level in result.meta.get("levels", []):
        for a, b in pairs:
            keys = [k[:3] for k in idx if k[3] == level and k[4] == a and (k[0], k[1], k[2], level, b) in idx]
            if not keys:
                continue
            row = {"level": level, "a": a, "b": b, "n": len(keys)}
            for m in _metrics(result):
                diffs = []
                for k in keys:
                    va, vb = idx[k + (level, a)].get(m), idx[k + (level, b)].get(m)
                    if va is not None and vb is not None:
                        diffs.append(va - vb)
                row[m] = mean_pct(diffs)
            out.append(row)
    return out


def leakage_table(result: GridResult) -> list[dict]:
    """Rows ``{dataset, condition, engine, token_recall, char_overlap, nonphi_survival, n_images}``."""
    out = []
    for dname, per_cond in result.leakage.items():
        for cname, per_engine in per_cond.items():
            for ename, agg in per_engine.items():
                out.append({
                    "dataset": dname, "condition": cname, "engine": ename,
                    "token_recall": agg.get("token_recall", float("nan")),
                    "char_overlap": agg.get("char_overlap", float("nan")),
                    "nonphi_survival": (agg.get("nonphi") or {}).get("image_rate", float("nan")),
                    "n_images": agg.get("n_images", 0),
                })
    return out


def pooled_leakage(result: GridResult) -> dict[tuple[str, str], dict]:
    """Token recall and character overlap per (condition, engine) pooled over datasets (token-weighted)."""
    acc: dict[tuple[str, str], list[float]] = {}
    for per_cond in result.leakage.values():
        for cname, per_engine in per_cond.items():
            for ename, agg in per_engine.items():
                tot = agg.get("tokens_total", 0) or 0
                a = acc.setdefault((cname, ename), [0.0, 0.0, 0.0, 0.0])
                a[0] += agg.get("token_recall", 0.0) * tot
                a[1] += agg.get("char_overlap", 0.0) * tot
                a[2] += tot
                a[3] += agg.get("n_images", 0)
    return {k: {"token_recall": (v[0] / v[2]) if v[2] else float("nan"),
                "char_overlap": (v[1] / v[2]) if v[2] else float("nan"), "n_images": int(v[3])}
            for k, v in acc.items()}


# --------------------------------------------------------------------------- formatting


def _fmt(v, digits: int = 2) -> str:
    if isinstance(v, Mean):
        return v.fmt(digits)
    if isinstance(v, float):
        return "—" if math.isnan(v) else f"{v:.{digits}f}"
    return str(v)


def _fmt_diff(m: Mean) -> str:
    return "—" if m.n == 0 else f"{m.value:+.2f} ± {m.se:.2f}"


def markdown(headers: Sequence[str], rows: Sequence[Sequence]) -> str:
    """A GitHub Markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _utility_md(rows: Sequence[dict], keys: Sequence[str], metrics: Sequence[str], deltas: Mapping | None = None) -> str:
    headers = [k.capitalize() if k != "level" else "Lvl" for k in keys] + [_metric_label(m) for m in metrics] + ["n"]
    if deltas is not None:
        headers += ["ΔEM vs raw (± SE)"]
    body = []
    for r in rows:
        cells = [LEVEL_LABEL.get(r[k], COND_LABEL.get(r[k], r[k])) for k in keys]
        cells += [_fmt(r[m]) for m in metrics] + [r["n"]]
        if deltas is not None:
            d = deltas.get((r.get("level"), r.get("condition")))
            cells.append(_fmt_diff(d) if d is not None else ("ref." if r.get("condition") == "raw" else "—"))
        body.append(cells)
    return markdown(headers, body)


def leakage_markdown(result: GridResult) -> str:
    pooled = pooled_leakage(result)
    engines = list(dict.fromkeys(e for _, e in pooled))
    conds = list(dict.fromkeys(c for c, _ in pooled))
    headers = ["Cond."] + [f"token recall ({e})" for e in engines] + [f"char overlap ({e})" for e in engines] + ["n"]
    body = []
    for c in conds:
        row = [COND_LABEL.get(c, c)]
        row += [_fmt(pooled.get((c, e), {}).get("token_recall", float("nan")), 4) for e in engines]
        row += [_fmt(pooled.get((c, e), {}).get("char_overlap", float("nan")), 4) for e in engines]
        row.append(max((pooled.get((c, e), {}).get("n_images", 0) for e in engines), default=0))
        body.append(row)
    return markdown(headers, body)


def flat_figures(result: GridResult) -> dict[str, float]:
    """The named figures ``em/<level>/<condition>``, ``f1/…``, ``yn_em/…``, ``judge/<judge>/<level>/<condition>``,
    ``token_recall/<condition>/<engine>``, ``char_overlap/<condition>/<engine>`` (pooled over datasets and models)."""
    figs: dict[str, float] = {}
    for r in utility_table(result, ["level", "condition"]):
        for m in _metrics(result):
            if r[m].n:
                figs[f"{m}/{r['level']}/{r['condition']}"] = round(r[m].value, 4)
                figs[f"se/{m}/{r['level']}/{r['condition']}"] = round(r[m].se, 4)
    for r in utility_table(result, ["level", "condition"], block="ablation"):
        for m in _metrics(result):
            if r[m].n:
                figs[f"ablation/{m}/{r['level']}/{r['condition']}"] = round(r[m].value, 4)
    figs.update(evidence_figures(result))
    for (c, e), v in pooled_leakage(result).items():
        figs[f"token_recall/{c}/{e}"] = round(v["token_recall"], 6)
        figs[f"char_overlap/{c}/{e}"] = round(v["char_overlap"], 6)
    return figs


#: The comparisons the evidence items exist for: restoration against black fill on the same items.
EVIDENCE_PAIRS = (("prism", "ocr"), ("gskip", "ocr"), ("prism_flat", "ocr"))


def _evidence_level(result: GridResult) -> str | None:
    """The level evidence figures are read at: L0 (the question as given isolates the image) if run."""
    levels = result.meta.get("levels", [])
    return "l0" if "l0" in levels else (levels[0] if levels else None)


def evidence_figures(result: GridResult) -> dict[str, float]:
    """``em/evidence/<condition>`` (+ ``se/…``, ``n/evidence``) and ``em_diff/evidence/<a>-ocr`` with ``em_diff_se/…``.

    Read at one text level (:func:`_evidence_level`) so every item counts once.
    Empty when the data has no evidence items.
    """
    level = _evidence_level(result)
    if level is None or not any(evidence_rows(r) for r in result.rows):
        return {}
    figs: dict[str, float] = {}
    for r in utility_table(result, ["level", "condition"], where=evidence_rows):
        if r["level"] == level and r["em"].n:
            figs[f"em/evidence/{r['condition']}"] = round(r["em"].value, 4)
            figs[f"se/em/evidence/{r['condition']}"] = round(r["em"].se, 4)
            figs["n/evidence"] = r["em"].n
    for c in paired_comparisons(result, EVIDENCE_PAIRS, where=evidence_rows):
        if c["level"] == level and c["em"].n:
            figs[f"em_diff/evidence/{c['a']}-{c['b']}"] = round(c["em"].value, 4)
            figs[f"em_diff_se/evidence/{c['a']}-{c['b']}"] = round(c["em"].se, 4)
    return figs


def evidence_markdown(result: GridResult) -> str:
    """The evidence-under-the-mask section: utility per condition and paired differences against black fill."""
    if not any(evidence_rows(r) for r in result.rows):
        return ""
    metrics = _metrics(result)
    parts = ["## Evidence under the mask — items whose answer lies partly under a PHI overlay (%)",
             _utility_md(utility_table(result, ["level", "condition"], where=evidence_rows), ["level", "condition"], metrics)]
    comps = paired_comparisons(result, EVIDENCE_PAIRS, where=evidence_rows)
    if comps:
        body = [[LEVEL_LABEL.get(c["level"], c["level"]), f"{COND_LABEL.get(c['a'], c['a'])} − {COND_LABEL.get(c['b'], c['b'])}"]
                + [_fmt_diff(c[m]) for m in metrics] + [c["n"]] for c in comps]
        parts += ["", "Paired differences on the evidence items (percentage points ± standard error):",
                  markdown(["Lvl", "Comparison"] + [_metric_label(m) for m in metrics] + ["n"], body)]
    return "\n".join(parts)


def _jsonable(obj):
    if isinstance(obj, Mean):
        return obj.to_dict()
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, float) and math.isnan(obj):
        return None
    if isinstance(obj, (np.floating, np.integer)):
        return obj.item()
    return obj


def _write_csv(path: Path, rows: Sequence[dict]) -> None:
    if not rows:
        path.write_text("")
        return
    cols = list(dict.fromkeys(k for r in rows for k in r))
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        header = []
        for c in cols:
            if isinstance(rows[0].get(c), Mean):
                header += [c, f"{c}_se", f"{c}_n"]
            else:
                header.append(c)
        w.writerow(header)
        for r in rows:
            line = []
            for c in cols:
                v = r.get(c)
                if isinstance(v, Mean):
                    line += [_fmt(v, 4) if v.n else "", f"{v.se:.4f}" if v.n else "", v.n]
                else:
                    line.append("" if v is None else v)
            w.writerow(line)


def missing_text(result: GridResult) -> str:
    """A loud paragraph naming every condition / level that was not evaluated and why."""
    if not result.missing:
        return ""
    lines = ["**NOT EVALUATED** (these rows are absent from the tables):"]
    lines += [f"- `{k}`: {v}" for k, v in sorted(result.missing.items())]
    return "\n".join(lines)


def table1_markdown(result: GridResult) -> str:
    """Table 1 (level × condition, pooled) with the paired EM difference against ``raw``."""
    t1 = utility_table(result, ["level", "condition"])
    deltas = {(c["level"], c["a"]): c["em"] for c in paired_comparisons(result) if c["b"] == "raw"}
    return ("## Table 1 — utility by text level × image condition (all datasets and models pooled, %)\n"
            + _utility_md(t1, ["level", "condition"], _metrics(result), deltas) + text_settings_line(result))


def text_settings_line(result: GridResult) -> str:
    """One line under Table 1 saying whether L1 saw the manifest and where a rejected L3 rewrite fell back to."""
    t = result.meta.get("text")
    if not t:
        return ""
    manifest = "L1 masked manifest values too" if t.get("l1_uses_manifest") else "L1/L2 without the manifest (the paper's regex-only L1)"
    fallback = {"l2": "a rejected L3 rewrite falls back to the L2 text",
                "original": "a rejected L3 rewrite falls back to the original question (the paper)"}.get(
        t.get("l3_fallback"), f"L3 fallback: {t.get('l3_fallback')}")
    return f"\n\nText levels: {manifest}; {fallback}."


def render_markdown(result: GridResult, brief: bool = False) -> str:
    """Every table as one Markdown document (what the console prints).

    ``brief`` keeps Table 1, the leakage table and the list of what was not evaluated (``clinx demo``).
    """
    metrics = _metrics(result)
    parts = [
        table1_markdown(result),
        "",
        "## Leakage — OCR attack on the released images (fraction of manifest tokens / characters recovered)",
        leakage_markdown(result),
    ]
    if brief:
        miss = missing_text(result)
        return "\n".join(parts + (["", miss] if miss else [])) + "\n"
    if len(result.meta.get("datasets", {})) > 0:
        parts += ["", "## Table 2 — per dataset (%)",
                  _utility_md(utility_table(result, ["dataset", "level", "condition"]), ["dataset", "level", "condition"], metrics)]
    parts += ["", "## Table 3 — per model (%)",
              _utility_md(utility_table(result, ["model", "level", "condition"]), ["model", "level", "condition"], metrics)]
    abl = utility_table(result, ["level", "condition"], block="ablation")
    if abl:
        parts += ["", "## Text-only ablation — image unchanged (raw) or clean, question through each level (%)",
                  _utility_md(abl, ["level", "condition"], metrics)]
    comps = paired_comparisons(result)
    if comps:
        body = [[LEVEL_LABEL.get(c["level"], c["level"]), f"{COND_LABEL.get(c['a'], c['a'])} − {COND_LABEL.get(c['b'], c['b'])}"]
                + [_fmt_diff(c[m]) for m in metrics] + [c["n"]] for c in comps]
        parts += ["", "## Paired differences on the same items (percentage points ± standard error)",
                  markdown(["Lvl", "Comparison"] + [_metric_label(m) for m in metrics] + ["n"], body)]
    ev = evidence_markdown(result)
    if ev:
        parts += ["", ev]
    miss = missing_text(result)
    if miss:
        parts += ["", miss]
    if result.failures:
        by_stage: dict[str, int] = {}
        for f in result.failures:
            by_stage[f["stage"]] = by_stage.get(f["stage"], 0) + 1
        parts += ["", "Items left out (failed closed): " + ", ".join(f"{k}: {v}" for k, v in sorted(by_stage.items()))]
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------- figures


def scatter_png(result: GridResult, path: Path, engine: str | None = None) -> Path | None:
    """Privacy–utility scatter: x = OCR token recall of the condition, y = EM of (condition, level)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pooled = pooled_leakage(result)
    engines = list(dict.fromkeys(e for _, e in pooled))
    if not engines:
        return None
    engine = engine if engine in engines else engines[0]
    t1 = utility_table(result, ["level", "condition"])
    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=120)
    markers = {"raw": "o", "ocr": "s", "gskip": "^", "prism": "D"}
    levels = result.meta.get("levels", [])
    cmap = plt.get_cmap("viridis", max(2, len(levels)))
    for r in t1:
        lk = pooled.get((r["condition"], engine))
        if lk is None or not r["em"].n:
            continue
        li = levels.index(r["level"]) if r["level"] in levels else 0
        ax.errorbar(100 * lk["token_recall"], r["em"].value, yerr=r["em"].se, fmt=markers.get(r["condition"], "x"),
                    color=cmap(li), capsize=2, ms=6)
    for c, mk in markers.items():
        ax.plot([], [], mk, color="gray", label=COND_LABEL.get(c, c))
    for i, l in enumerate(levels):
        ax.plot([], [], "-", color=cmap(i), label=LEVEL_LABEL.get(l, l))
    ax.set_xlabel(f"OCR token recall, {engine} (%)  ← more private")
    ax.set_ylabel("exact match (%)  ↑ more useful")
    ax.set_title("Privacy–utility by image condition and text level")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2, loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _crop_box(mask: np.ndarray, margin: int = 24, min_side: int = 96) -> tuple[int, int, int, int]:
    """Box around the largest PHI component (dilated so nearby text joins), with context."""
    import cv2

    h, w = mask.shape
    if not mask.any():
        return 0, 0, w, h
    m = cv2.dilate(mask.astype(np.uint8), np.ones((9, 25), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(m)
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, bw, bh = (int(v) for v in stats[i, :4])
    x0, y0, x1, y1 = x - margin, y - margin, x + bw + margin, y + bh + margin
    # Grow to a minimum side so the crop shows image context, not just text.
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    sw, sh = max(x1 - x0, min_side), max(y1 - y0, min_side)
    x0, x1 = int(max(0, cx - sw / 2)), int(min(w, cx + sw / 2))
    y0, y1 = int(max(0, cy - sh / 2)), int(min(h, cy + sh / 2))
    return x0, y0, x1, y1


def qualitative_png(result: GridResult, path: Path, n_items: int = 4,
                    columns: Sequence[str] = ("raw", "ocr", "gskip", "prism")) -> Path | None:
    """Rows = items, columns = conditions, each a crop around the item's largest PHI region.

    Only datasets with injected (synthetic) PHI — items that have a clean image — are shown.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    picked = []
    for dname, samples in result.samples.items():
        keys = result.image_keys.get(dname, {})
        cols = [c for c in columns if c in keys]
        if len(cols) < 2:
            continue
        cands = [s for s in samples if s.clean_image is not None and s.mask is not None and s.mask.any()
                 and all(s.id in keys[c] for c in cols)]
        # Largest PHI area first: the most telling examples.
        cands.sort(key=lambda s: -int(s.mask.sum()))
        picked += [(dname, s, cols) for s in cands[:n_items - len(picked)]]
        if len(picked) >= n_items:
            break
    if not picked:
        return None
    ncols = max(len(c) for _, _, c in picked)
    fig, axes = plt.subplots(len(picked), ncols, figsize=(2.4 * ncols, 2.4 * len(picked)), dpi=110, squeeze=False)
    for r, (dname, s, cols) in enumerate(picked):
        x0, y0, x1, y1 = _crop_box(s.mask)
        for c in range(ncols):
            ax = axes[r][c]
            ax.axis("off")
            if c >= len(cols):
                continue
            img = result.images.get(result.image_keys[dname][cols[c]][s.id]) if cols[c] != "raw" else s.image
            if img is None:
                continue
            ax.imshow(img[y0:y1, x0:x1])
            if r == 0:
                ax.set_title(COND_LABEL.get(cols[c], cols[c]), fontsize=10)
    fig.suptitle("Crops around the injected (synthetic) PHI", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- entry point


def write_report(result: GridResult, out_dir: str | os.PathLike, figures: bool = True) -> dict:
    """Write every table, the JSON and the figures into ``out_dir``; return the JSON document."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t1 = utility_table(result, ["level", "condition"])
    t2 = utility_table(result, ["dataset", "level", "condition"])
    t3 = utility_table(result, ["model", "level", "condition"])
    abl = utility_table(result, ["level", "condition"], block="ablation")
    comps = paired_comparisons(result)
    leak = leakage_table(result)
    md = render_markdown(result)
    (out / "tables.md").write_text(md)
    for name, rows in (("table1", t1), ("table2", t2), ("table3", t3), ("ablation", abl), ("comparisons", comps),
                       ("leakage", leak)):
        _write_csv(out / f"{name}.csv", rows)
    score_cols = ["dataset", "model", "block", "condition", "level", "item", "answer_type"] + _metrics(result)
    _write_csv(out / "scores.csv", [{k: r.get(k) for k in score_cols} for r in result.rows])
    files = {}
    if figures:
        for name, fn in (("privacy_utility.png", scatter_png), ("qualitative.png", qualitative_png)):
            try:
                p = fn(result, out / name)
                if p:
                    files[name] = str(p)
            except Exception as exc:  # a figure must never sink the numbers
                log.warning("could not draw %s: %s", name, type(exc).__name__)
    failures_by_stage: dict[str, int] = {}
    for f in result.failures:
        failures_by_stage[f["stage"]] = failures_by_stage.get(f["stage"], 0) + 1
    doc = OrderedDict(
        figures=flat_figures(result),
        table1=t1, table2=t2, table3=t3, ablation=abl, comparisons=comps, leakage=leak,
        leakage_detail=result.leakage,
        missing=result.missing,
        failures={"by_stage": failures_by_stage, "items": result.failures},
        counts=result.counts, timings=result.timings, meta=result.meta, files=files,
        units={"utility": "percent", "leakage": "fraction"},
    )
    doc = _jsonable(doc)
    tmp = out / ".results.json.tmp"
    tmp.write_text(json.dumps(doc, indent=2))
    os.replace(tmp, out / "results.json")
    return doc
