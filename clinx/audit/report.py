"""The audit's report: one table row per (target, regime, k, feature), a CSV, and the M plot with intervals.

Reports hold scores and counts only — never a note's text.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Sequence

__all__ = ["rows", "markdown", "write_csv", "plot_m", "flat_figures"]

COLUMNS = ("target", "regime", "k", "feature", "f1", "f1_ci", "m", "m_ci", "precision", "recall", "fmax",
           "members", "synthetic", "eval_size")


def _ci(s: dict) -> str:
    return f"[{s['ci_low']:.3f}, {s['ci_high']:.3f}]"


def rows(results: Sequence[dict]) -> list[dict]:
    """Flat rows, one per result and feature."""
    out = []
    for r in results:
        for feat, sc in r["features"].items():
            out.append({
                "target": r["target"], "regime": r["regime"], "k": "" if r.get("k") is None else r["k"],
                "feature": feat, "f1": round(sc["f1"]["mean"], 4), "f1_ci": _ci(sc["f1"]),
                "m": round(sc["m"]["mean"], 4), "m_ci": _ci(sc["m"]),
                "m_ci_low": round(sc["m"]["ci_low"], 4), "m_ci_high": round(sc["m"]["ci_high"], 4),
                "precision": round(sc["precision"]["mean"], 4), "recall": round(sc["recall"]["mean"], 4),
                "fmax": round(sc["fmax"]["mean"], 4), "members": r["n_members"], "synthetic": r.get("n_synthetic"),
                "eval_size": round(r.get("eval_size", 0.0), 1),
            })
    return out


def markdown(results: Sequence[dict], *, ci: float = 0.95, resamples: int | None = None) -> str:
    """The Markdown table of :func:`rows` with a line saying what the intervals are."""
    rs = rows(results)
    head = "| " + " | ".join(COLUMNS) + " |"
    sep = "|" + "---|" * len(COLUMNS)
    body = ["| " + " | ".join(str(r[c]) for c in COLUMNS) + " |" for r in rs]
    note = (f"\nMeans over {resamples or 'the'} resampled partitions; intervals are the central {ci:.0%} of the "
            "resamples. M = (F1 - Fmax) / (1 - Fmax); Fmax = 2p/(1+p) at member prevalence p.")
    return "\n".join([head, sep, *body]) + "\n" + note


def write_csv(results: Sequence[dict], path: str | Path) -> Path:
    """Write :func:`rows` as CSV."""
    rs = rows(results)
    path = Path(path)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rs[0].keys()) if rs else list(COLUMNS))
        w.writeheader()
        w.writerows(rs)
    return path


def plot_m(results: Sequence[dict], path: str | Path, *, max_m: float | None = None) -> Path:
    """M against k per regime (one panel per feature) with percentile intervals; controls as extra points."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    feats = sorted({f for r in results for f in r["features"]}, key=lambda f: ("max", "top3", "mean").index(f)
                   if f in ("max", "top3", "mean") else 9)
    fig, axes = plt.subplots(1, max(1, len(feats)), figsize=(4.2 * max(1, len(feats)), 3.6), sharey=True, squeeze=False)
    icl = [r for r in results if r["target"] == "icl"]
    others = [r for r in results if r["target"] != "icl"]
    for ax, feat in zip(axes[0], feats):
        for j, regime in enumerate(sorted({r["regime"] for r in icl})):
            rr = sorted((r for r in icl if r["regime"] == regime), key=lambda r: r["k"])
            xs = [r["k"] + (j - 0.5) * 0.12 for r in rr]
            m = [r["features"][feat]["m"] for r in rr]
            ax.errorbar(xs, [s["mean"] for s in m], yerr=[[s["mean"] - s["ci_low"] for s in m],
                        [s["ci_high"] - s["mean"] for s in m]], marker="o", capsize=3, label=regime)
        for i, r in enumerate(others):
            s = r["features"][feat]["m"]
            x = 4 + 0.5 * i
            ax.errorbar([x], [s["mean"]], yerr=[[s["mean"] - s["ci_low"]], [s["ci_high"] - s["mean"]]], marker="s",
                        capsize=3, linestyle="none", label=r["regime"])
        ax.axhline(0.0, color="grey", lw=0.8)
        if max_m is not None:
            ax.axhline(max_m, color="red", lw=0.8, ls="--", label="release threshold")
        ticks = sorted({r["k"] for r in icl})
        ax.set_xticks(ticks + [4 + 0.5 * i for i in range(len(others))])
        ax.set_xticklabels([f"k={t}" for t in ticks] + [r["regime"] for r in others], rotation=30)
        ax.set_title(f"feature: {feat}")
        ax.set_ylabel("M")
    axes[0][-1].legend(fontsize=7, loc="best")
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def flat_figures(results: Sequence[dict]) -> dict[str, float]:
    """Benchmark figures: ``f1/<regime>/k<k>/<feature>``, ``M/…``, ``M_ci_low/…``, ``M_ci_high/…``;
    controls as ``M/<control>/<feature>`` (and their ``f1``/interval keys)."""
    out: dict[str, float] = {}
    for r in results:
        key = f"{r['regime']}/k{r['k']}" if r["target"] == "icl" else str(r["regime"])
        for feat, sc in r["features"].items():
            out[f"f1/{key}/{feat}"] = round(sc["f1"]["mean"], 4)
            out[f"M/{key}/{feat}"] = round(sc["m"]["mean"], 4)
            out[f"M_ci_low/{key}/{feat}"] = round(sc["m"]["ci_low"], 4)
            out[f"M_ci_high/{key}/{feat}"] = round(sc["m"]["ci_high"], 4)
            out[f"median_member/{key}/{feat}"] = round(sc["median_member"], 4)
            out[f"median_nonmember/{key}/{feat}"] = round(sc["median_nonmember"], 4)
        out[f"members/{key}"] = r["n_members"]
        out[f"synthetic/{key}"] = r.get("n_synthetic")
    return out
