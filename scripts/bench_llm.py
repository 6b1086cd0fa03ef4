#!/usr/bin/env python
"""L3 rewrite benchmark: single-prompt vs multi-agent, side by side with L2.

    python scripts/bench_llm.py [--quick] --out runs/bench_llm.json [--backend openai --base-url URL --model NAME]

Data: held-out PHI-injected questions from the benchmark builder (the same
set and metrics as ``scripts/bench_text.py``: an identifier counts as leaked if
any of its tokens survives). Levels run *blind* (no manifest) — the realistic
case — unless ``--with-manifest``. The LLM cache is off so timings are real.

Figures (flat names):
  * ``rewrite_accept_rate/<strategy>`` — fraction of questions whose L3 output
    is a validated rewrite (LLM text or, for multi-agent, the routed draft);
  * ``rewrite_llm_accept_rate/<strategy>`` — fraction where the LLM's own text
    was accepted; ``rewrite_draft_rate/<strategy>``; ``rewrite_fallback_rate/<strategy>``;
  * ``reject_reason/<strategy>/<reason>`` — how often each validator reason fired;
  * ``phi_recall/L2`` and ``phi_recall/L3/<strategy>`` on the same questions;
  * ``clinical_term_retention/L2`` and ``.../L3/<strategy>`` against the clean question;
  * ``seconds_per_rewrite/<strategy>`` (mean) and ``seconds_per_rewrite_p50/<strategy>``;
  * ``llm_calls_per_rewrite/<strategy>``; multi-agent ``quasi_rules_per_q``,
    ``quasi_llm_per_q``, ``routes/<route>``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from clinx.provenance import write_figures  # noqa: E402


def _bench_text():
    """Reuse bench_text's data and leak metric so both benchmarks count the same way."""
    spec = importlib.util.spec_from_file_location("bench_text", ROOT / "scripts" / "bench_text.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_text"] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    return mod


_TEMPLATES = (
    "{q} The patient is a {age}-year-old {job} from {city}.",
    "For a {age} year old {job} whose {rel} lives in {city}: {q}",
    "{q} (the patient, {age}, works as a {job} in {city})",
)
_RELS = ("wife", "husband", "daughter", "son", "brother", "sister")
_GENERIC = frozenset("the and for from with lives works west east north south new port lake mount fort saint".split())


def quasi_items(items, seed: int):
    """The clean questions with quasi-identifiers added (age, Faker job, Faker city, relative).

    L1/L2 target HIPAA identifiers, not demographics, so this set measures what
    L3 adds. Jobs and cities come from Faker's lists, most of which are *not* in
    the multi-agent rule lexicon, so the LLM's contribution shows.
    Returns ``[(text, clean, phrases)]`` with ``phrases`` the inserted values.
    """
    import random

    from faker import Faker

    fk = Faker("en_US")
    fk.seed_instance(seed)
    rng = random.Random(seed)
    out = []
    for k, it in enumerate(items):
        q = it.clean.strip()
        age, job, city, rel = str(rng.randint(21, 88)), fk.job().split(",")[0].lower(), fk.city(), rng.choice(_RELS)
        tpl = _TEMPLATES[k % len(_TEMPLATES)]
        if tpl.startswith("For"):
            q = q[:1].lower() + q[1:]
        out.append((tpl.format(q=q, age=age, job=job, city=city, rel=rel), it.clean, (age, job, city)))
    return out


def quasi_leaks(rows, outputs) -> tuple[int, int]:
    """(leaked, total) inserted quasi-identifiers: leaked when any of its tokens survives (and was not in the clean text)."""
    import re

    leaked = total = 0
    for (_, clean, phrases), out in zip(rows, outputs):
        out_toks = set(re.findall(r"[a-z0-9]+", out.lower()))
        clean_toks = set(re.findall(r"[a-z0-9]+", clean.lower()))
        for ph in phrases:
            toks = {t for t in re.findall(r"[a-z0-9]+", ph.lower()) if (t.isdigit() or len(t) >= 3) and t not in _GENERIC} - clean_toks
            if not toks:
                continue
            total += 1
            leaked += bool(toks & out_toks)
    return leaked, total


def run_l3(l3, texts, mans):
    res, secs = [], []
    for text, m in zip(texts, mans):
        t0 = time.perf_counter()
        res.append(l3.apply(text, m))
        secs.append(time.perf_counter() - t0)
    return res, secs


def summarise(figures: dict, prefix: str, strat: str, res, secs, outs, inputs) -> None:
    """Accept / draft / fallback rates, reject reasons, timings and routing counts for one strategy on one set."""
    k = len(res)
    srcs = Counter(r.notes.get("source", "fallback") for r in res)
    reasons: Counter = Counter()
    routes: Counter = Counter()
    quasi_rules = quasi_llm = 0
    for r in res:
        for v in r.notes.get("verdicts", []):
            for reason in v["reasons"]:
                reasons[f"{v['source']}:{reason}"] += 1
        for key in ("llm_error", "privacy_error", "semantic_error", "reconstruct_error"):
            if key in r.notes:
                reasons[f"{key}:{r.notes[key]}"] += 1
        p = r.notes.get("privacy", {})
        quasi_rules += p.get("rules_quasi", 0)
        quasi_llm += p.get("llm_kept", 0)
        routes.update(r.notes.get("routes", {}))
    figures[f"{prefix}rewrite_accept_rate/{strat}"] = round((srcs["llm"] + srcs["draft"]) / k, 4)
    figures[f"{prefix}rewrite_llm_accept_rate/{strat}"] = round(srcs["llm"] / k, 4)
    figures[f"{prefix}rewrite_draft_rate/{strat}"] = round(srcs["draft"] / k, 4)
    figures[f"{prefix}rewrite_fallback_rate/{strat}"] = round(srcs["fallback"] / k, 4)
    figures[f"{prefix}changed_vs_L2/{strat}"] = round(sum(o != t for o, t in zip(outs, inputs)) / k, 4)
    figures[f"{prefix}seconds_per_rewrite/{strat}"] = round(statistics.mean(secs), 3)
    figures[f"{prefix}seconds_per_rewrite_p50/{strat}"] = round(statistics.median(secs), 3)
    figures[f"{prefix}llm_calls_per_rewrite/{strat}"] = round(statistics.mean(r.notes.get("llm_calls", 0) for r in res), 2)
    for reason, c in sorted(reasons.items()):
        figures[f"{prefix}reject_reason/{strat}/{reason}"] = c
    if strat == "multi_agent":
        figures[f"{prefix}quasi_rules_per_q"] = round(quasi_rules / k, 3)
        figures[f"{prefix}quasi_llm_per_q"] = round(quasi_llm / k, 3)
        for rt, c in routes.items():
            figures[f"{prefix}routes/{rt}"] = c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="~30 questions")
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=None, help="number of questions (default 30 quick, 100 full)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strategies", default="single,multi_agent")
    ap.add_argument("--with-manifest", action="store_true", help="give L1-L3 the manifest (default: blind)")
    ap.add_argument("--backend", default="llamacpp", choices=["llamacpp", "openai", "transformers"])
    ap.add_argument("--base-url", default=None, help="openai backend: e.g. http://127.0.0.1:8000/v1")
    ap.add_argument("--model", default=None, help="openai: served model name; transformers: local folder")
    args = ap.parse_args(argv)
    from clinx.provenance import provenance

    start = provenance()  # the commit that runs, before anything can change it

    bt = _bench_text()
    from clinx.llm import get_llm
    from clinx.text.clinical import term_retention
    from clinx.text.pipeline import TextPipeline
    from clinx.text.rewrite import make_l3

    n = args.n or (30 if args.quick else 100)
    items = bt.question_items(max(n * 2, 40), args.seed)[:n]
    kw: dict = {"cache": None}
    if args.backend == "openai":
        kw.update(base_url=args.base_url or "http://127.0.0.1:8000/v1", model=args.model or "default")
    elif args.backend == "transformers":
        kw.update(model_path=args.model)
    llm = get_llm(args.backend, **kw)

    mans = [it.manifest if args.with_manifest else None for it in items]
    l2 = TextPipeline("L2")
    l2_res = [l2.run(it.text, m) for it, m in zip(items, mans)]
    l2_out = [r.text for r in l2_res]
    figures: dict = {"config/n": len(items), "config/seed": args.seed, "config/backend": args.backend,
                     "config/model_id": llm.fingerprint(), "config/with_manifest": bool(args.with_manifest)}

    def recall(outs):
        leaks = bt.leak_stats(items, outs)
        leaked, total = sum(v[0] for v in leaks.values()), sum(v[1] for v in leaks.values())
        return 1.0 - leaked / total if total else 1.0, total

    figures["phi_recall/L2"], figures["n_values"] = recall(l2_out)
    figures["clinical_term_retention/L2"] = sum(term_retention(it.clean, o) for it, o in zip(items, l2_out)) / len(items)

    rows = []
    t_all = time.time()
    qrows = quasi_items(items, args.seed)
    q_texts = [r[0] for r in qrows]
    q_l2 = [l2.run(t).text for t in q_texts]
    ql, qt = quasi_leaks(qrows, q_l2)
    figures["quasi/quasi_recall/L2"] = round(1 - ql / qt, 4) if qt else 1.0
    figures["quasi/n_values"] = qt
    figures["quasi/clinical_term_retention/L2"] = round(sum(term_retention(c, o) for (_, c, _), o in zip(qrows, q_l2)) / len(qrows), 4)
    for strat in [s.strip() for s in args.strategies.split(",") if s.strip()]:
        l3 = make_l3(strat, llm=llm)
        # Load the model / contexts once on a question outside the set, so load time is not rewrite time.
        l3.apply("Is there a fracture of the left femur on this x-ray?")
        for prefix, texts, ms in (("", l2_out, mans), ("quasi/", q_l2, [None] * len(q_l2))):
            res, secs = run_l3(l3, texts, ms)
            outs = [r.text for r in res]
            summarise(figures, prefix, strat, res, secs, outs, texts)
            if prefix:
                ql, qt = quasi_leaks(qrows, outs)
                figures[f"quasi/quasi_recall/L3/{strat}"] = round(1 - ql / qt, 4) if qt else 1.0
                figures[f"quasi/clinical_term_retention/L3/{strat}"] = round(sum(term_retention(c, o) for (_, c, _), o in zip(qrows, outs)) / len(qrows), 4)
            else:
                rec, _ = recall(outs)
                figures[f"phi_recall/L3/{strat}"] = round(rec, 4)
                figures[f"clinical_term_retention/L3/{strat}"] = round(sum(term_retention(it.clean, o) for it, o in zip(items, outs)) / len(items), 4)
        rows.append((strat, figures[f"rewrite_accept_rate/{strat}"], figures[f"rewrite_llm_accept_rate/{strat}"], figures[f"phi_recall/L3/{strat}"],
                     figures[f"clinical_term_retention/L3/{strat}"], figures[f"seconds_per_rewrite/{strat}"],
                     figures[f"quasi/rewrite_accept_rate/{strat}"], figures[f"quasi/quasi_recall/L3/{strat}"]))
    figures["config/wall_s"] = round(time.time() - t_all, 1)

    head = f"{'level':<18}{'accept':>8}{'llm_acc':>9}{'recall':>8}{'retain':>8}{'s/rewrite':>11}{'q_accept':>10}{'q_recall':>10}"
    print(head)
    print("-" * len(head))
    print(f"{'L2':<18}{'':>8}{'':>9}{figures['phi_recall/L2']:>8.4f}{figures['clinical_term_retention/L2']:>8.4f}{'':>11}{'':>10}{figures['quasi/quasi_recall/L2']:>10.4f}")
    for strat, acc, lacc, rec, ret, s, qacc, qrec in rows:
        print(f"{'L3/' + strat:<18}{acc:>8.3f}{lacc:>9.3f}{rec:>8.4f}{ret:>8.4f}{s:>11.2f}{qacc:>10.3f}{qrec:>10.4f}")
    for k, v in figures.items():
        if "reject_reason" in k or "routes" in k or "quasi_" in k or "changed" in k or "rate" in k:
            print(f"{k}: {v}")
    out = write_figures(args.out, figures, start=start)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
