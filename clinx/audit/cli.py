"""``clinx audit`` / ``clinx-audit``: membership-disclosure audit with a report in the run folder.

    clinx-audit                                            # ICL generator grid on the IU reports + both controls
    clinx-audit targets=[planted,independent]              # controls only (no LLM)
    clinx-audit targets=[external] external.real=real.jsonl external.synthetic=synth.jsonl
    clinx-audit targets=[rewrite] rewrite.level=L3                   # clinx's own L3 rewrites vs their originals

The run folder (``runs/audit/<time>/``) holds ``config_resolved.yaml``,
``results.json`` (every score's mean and interval, sizes, the decision per
audited corpus), ``tables.md`` / ``results.csv`` (one row per target, regime,
k and feature), ``m_plot.png`` (M with intervals) and, with
``write_texts=true``, ``synthetic_<regime>_k<k>.jsonl`` (each generated note
with the ids of the records that were in its prompt — the membership ground
truth). Tables and logs hold scores and counts, never note text. Setup
problems (a missing file, a bad value) are one line on stderr and exit 2.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from clinx.atomic import write_text_atomic
from clinx.cli_common import finish_run, hydra_main
from clinx.config import run_dir
from clinx.errors import ConfigError

log = logging.getLogger("clinx.audit")

TARGETS = ("icl", "external", "planted", "independent", "rewrite")


def _encoder(cfg):
    from clinx.embed import SentenceEncoder

    e = cfg.embedding
    return SentenceEncoder(e.get("model_path") or None, cache_dir=e.get("cache") or None, batch_size=int(e.batch_size))


def _corpus(cfg) -> tuple[list[str], list[str]]:
    from clinx.audit.corpora import iu_notes, read_jsonl

    c = cfg.corpus
    if c.source == "iu":
        return iu_notes(int(c.min_chars), c.get("limit"))
    if c.source == "jsonl":
        if not c.get("path"):
            raise ConfigError("corpus.source=jsonl needs corpus.path")
        ids, texts, _ = read_jsonl(c.path, c.text_field)
        keep = [(i, t) for i, t in zip(ids, texts) if len(t) >= int(c.min_chars)]
        return [i for i, _ in keep], [t for _, t in keep]
    raise ConfigError(f"corpus.source must be iu or jsonl, got {c.source!r}")


def _rewrite(cfg, encoder, settings) -> dict:
    """The ``rewrite`` target: clinx text levels on the built-in PHI-injected questions."""
    from clinx.audit.corpora import benchmark_questions
    from clinx.audit.experiment import rewriter, run_rewrite

    w = cfg.rewrite
    _, questions = benchmark_questions(int(w.n_questions), int(w.seed))
    level = str(w.level).upper()
    llm = _llm(cfg) if level == "L3" else None
    try:
        return run_rewrite(questions, rewriter(level, str(w.strategy), llm), encoder, settings,
                           n_members=int(w.n_members), label=f"rewrite_{level}", seed=int(w.seed))
    finally:
        if llm is not None:
            llm.close()


def _llm(cfg):
    """The configured LLM; a llama.cpp backend gets ``generator.llm_threads`` threads."""
    from hydra.utils import instantiate

    extra = {}
    if "n_threads" in cfg.llm and cfg.generator.get("llm_threads"):
        extra["n_threads"] = int(cfg.generator.llm_threads)
    return instantiate(cfg.llm, _convert_="all", **extra)


def _decision_line(r: dict) -> str:
    d = r["decision"]
    what = r["regime"] if r.get("k") is None else f"{r['regime']} k={r['k']}"
    value = "undefined" if d["worst_value"] is None else f"{d['worst_value']:.3f}"
    verdict = "release" if d["release"] else "do not release"
    if r.get("problem"):
        return f"- {what}: {verdict} (not auditable: {r['problem']})"
    return f"- {what}: {verdict} (worst feature {d['worst_feature']}: M {d['statistic']} {value}, max {d['max_m']})"


def run(cfg) -> dict:
    """Run the configured audit targets and write the report; returns the summary."""
    from omegaconf import OmegaConf

    from clinx.audit.core import AttackSettings, decide
    from clinx.audit.experiment import run_control, run_external, run_icl
    from clinx.audit.generate import ICLGenerator
    from clinx.audit.partition import split_population
    from clinx.audit.report import markdown, plot_m, write_csv

    targets = list(cfg.targets)
    bad = [t for t in targets if t not in TARGETS]
    if bad or not targets:
        raise ConfigError(f"targets must be a non-empty list of {', '.join(TARGETS)}; got {bad or targets}")
    try:
        settings = AttackSettings.from_config(OmegaConf.to_container(cfg.attack, resolve=True))
        from clinx.audit.features import FEATURES

        for f in settings.features:
            FEATURES.get(f)
        if not 0 < settings.prior < 1:
            raise ValueError(f"attack.prior must be in (0, 1), got {settings.prior}")
    except (ValueError, KeyError, TypeError) as e:
        raise ConfigError(str(e)) from None
    out_dir = run_dir()
    encoder = _encoder(cfg)
    results: list[dict] = []
    texts: list[str] | None = None
    ids: list[str] | None = None
    if any(t in targets for t in ("icl", "planted", "independent")):
        ids, texts = _corpus(cfg)
        log.info("real corpus: %d notes", len(texts))
    if "icl" in targets:
        g = cfg.generator
        split = split_population(len(texts), float(cfg.population.pool_fraction), int(cfg.population.seed))
        llm = _llm(cfg)
        gen = ICLGenerator(llm, system=g.system, instruction=g.instruction, topics=list(g.topics),
                           max_tokens=int(g.max_tokens), temperature=float(g.temperature), top_p=float(g.top_p),
                           seed=int(g.seed))
        try:
            res, gens = run_icl(texts, split, gen, encoder, settings, regimes=list(g.regimes),
                                shots=[int(k) for k in g.shots], n_synthetic=int(g.n_synthetic),
                                static_reuse=None if g.static_reuse is None else int(g.static_reuse),
                                seed=int(g.seed))
        finally:
            llm.close()
        results += res
        if cfg.get("write_texts", True):
            for label, gl in gens.items():
                lines = "".join(json.dumps(x.to_dict(ids), ensure_ascii=False) + "\n" for x in gl)
                write_text_atomic(out_dir / f"synthetic_{label.replace('/', '_')}.jsonl", lines, mode=0o600)
    if "external" in targets:
        from clinx.audit.corpora import read_jsonl

        e = cfg.external
        if not e.get("real") or not e.get("synthetic"):
            raise ConfigError("targets=[external] needs external.real and external.synthetic (JSONL files)")
        _, real_texts, member = read_jsonl(e.real, e.text_field, e.member_field)
        _, synth_texts, _ = read_jsonl(e.synthetic, e.text_field)
        if member.sum() < 2:
            raise ConfigError("external.real must flag at least two members")
        results.append(run_external(real_texts, member, synth_texts, encoder, settings))
    for kind in ("planted", "independent"):
        if kind in targets:
            c = cfg.controls
            results.append(run_control(kind, texts, encoder, settings, n_members=int(c.n_members),
                                       n_outsiders=int(c.n_outsiders), verbatim_fraction=float(c.verbatim_fraction),
                                       seed=int(c.seed)))
    if "rewrite" in targets:
        results.append(_rewrite(cfg, encoder, settings))
    d = cfg.decision
    for r in results:
        r["decision"] = decide(r, max_m=float(d.max_m), statistic=str(d.statistic))
    write_text_atomic(out_dir / "results.json", json.dumps(results, indent=2, default=float))
    table = markdown(results, ci=settings.ci, resamples=settings.resamples)
    decisions = "\n".join(_decision_line(r) for r in results)
    write_text_atomic(out_dir / "tables.md", f"# Membership-disclosure audit\n\n{table}\n\n## Decision\n\n{decisions}\n")
    write_csv(results, out_dir / "results.csv")
    plot_m(results, out_dir / "m_plot.png", max_m=float(d.max_m))
    summary = {"targets": targets, "embedding": encoder.model_id, "embedded": encoder.encoded,
               "results": [{"target": r["target"], "regime": r["regime"], "k": r.get("k"), "members": r["n_members"],
                            "synthetic": r.get("n_synthetic"), "decision": r["decision"]} for r in results]}
    return finish_run(summary, out_dir, table + "\n\n" + decisions, note=f"report: {Path(out_dir) / 'tables.md'}")


main = hydra_main("audit", run, log)


if __name__ == "__main__":
    raise SystemExit(main())
