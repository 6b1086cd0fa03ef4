"""``clinx rag`` / ``clinx-rag``: privacy-preserving retrieval — ingest, query, attack — with a report.

    clinx-rag command=ingest defence=multi_agent          # sanitize the corpus once (cached, resumable), index it
    clinx-rag command=query defence=rules query="Is there a pleural effusion in the report with cardiomegaly?"
    clinx-rag command=attack defences=[naive,multi_agent] attack.n_targeted=50 attack.n_untargeted=50

Every command ingests through the ingestion store (``sanitize.store``: documents already
sanitized by the same sanitizer are read back, so only new or changed ones cost anything) and
builds the dual-track index (Milvus at ``index.uri`` + BM25) from it. The run folder
(``runs/rag/<time>/``) holds ``config_resolved.yaml`` and ``summary.json``; ``attack`` also
writes ``report.md`` (leakage beside utility, one row per defence) and ``figures.json``;
``query`` writes ``answer.json`` (the answer and the ids of the documents it came from — the
payloads are sanitized, the raw text is never returned). Tables and logs hold counts, ids and
scores, never document text. Setup problems are one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from clinx.atomic import write_text_atomic
from clinx.cli_common import finish_run, hydra_main
from clinx.config import run_dir
from clinx.errors import ConfigError

log = logging.getLogger("clinx.rag")

COMMANDS = ("ingest", "query", "attack")


def _ingest(cfg, out_dir: Path) -> dict:
    from clinx.rag.system import build_rag, check_defence, corpus, make_encoder, make_llm, run_ingest

    dfn = check_defence(str(cfg.defence))
    docs = corpus(cfg)
    llm = make_llm(cfg) if dfn in ("single_agent", "multi_agent") else None
    try:
        ing = run_ingest(cfg, docs, dfn, llm)
    finally:
        if llm is not None:
            llm.close()
    ids = [d.id for d in docs]
    rag = build_rag(cfg, ids, [d.raw for d in docs], [ing.payloads[i] for i in ids], make_encoder(cfg), None, dfn)
    n = rag.index.dense.count()
    rag.index.close()
    summary = {"command": "ingest", "defence": dfn, "documents": len(docs), "sanitized_now": ing.computed,
               "ingest_s_per_doc": round(ing.s_per_doc, 3), "l3_accepted_share": ing.accepted_share(),
               "indexed": n, "index_uri": str(cfg.index.uri)}
    table = (f"ingest {dfn}: {len(docs)} documents ({ing.computed} sanitized now, {summary['ingest_s_per_doc']} s/doc "
             f"as recorded), {n} rows indexed")
    return finish_run(summary, out_dir, table)


def _query(cfg, out_dir: Path) -> dict:
    from clinx.rag.system import build_rag, check_defence, corpus, make_encoder, make_llm, run_ingest

    if not cfg.get("query") or not isinstance(cfg.query, str):
        raise ConfigError('command=query needs query="..."')
    dfn = check_defence(str(cfg.defence))
    docs = corpus(cfg)
    llm = make_llm(cfg)
    try:
        ing = run_ingest(cfg, docs, dfn, llm)
        ids = [d.id for d in docs]
        rag = build_rag(cfg, ids, [d.raw for d in docs], [ing.payloads[i] for i in ids], make_encoder(cfg), llm, dfn)
        try:
            ans = rag.ask(cfg.query)
        finally:
            rag.index.close()
    finally:
        llm.close()
    # the answer is model output over sanitized payloads; it stays in the private run folder, not in logs
    write_text_atomic(out_dir / "answer.json", json.dumps({"answer": ans.text, "doc_ids": ans.doc_ids,
                                                           "scores": [h.score for h in ans.hits]}, indent=1), mode=0o600)
    summary = {"command": "query", "defence": dfn, "doc_ids": ans.doc_ids, "retrieve_ms": round(ans.retrieve_ms, 2)}
    return finish_run(summary, out_dir, f"{ans.text}\n\n(from {', '.join(ans.doc_ids)}; defence {dfn})",
                      note=f"answer: {out_dir / 'answer.json'}")


def _attack(cfg, out_dir: Path) -> dict:
    from clinx.rag.experiment import compare
    from clinx.rag.report import markdown
    from clinx.rag.system import check_defence, corpus, make_encoder, make_llm

    defences = [check_defence(str(d)) for d in cfg.defences]
    if not defences:
        raise ConfigError("defences must name at least one defence")
    a = cfg.attack
    bad = [k for k in a.kinds if k not in ("targeted", "untargeted", "synonym", "stepwise")]
    if bad:
        raise ConfigError(f"attack.kinds: unknown kind(s) {bad}")
    docs = corpus(cfg)
    llm = make_llm(cfg)
    try:
        out = compare(cfg, docs, defences, llm, make_encoder(cfg), n_targeted=int(a.n_targeted),
                      n_untargeted=int(a.n_untargeted), n_adaptive=int(a.n_adaptive), n_questions=int(a.n_questions),
                      kinds=list(a.kinds), progress=bool(cfg.sanitize.get("progress", True)))
    finally:
        llm.close()
    fig = out["figures"]
    for dfn, det in out["details"].items():
        for part in ("attack_targeted", "attack_untargeted", "attack_synonym", "attack_stepwise"):
            for k, v in det.get(part, {}).items():
                fig[f"details/{part}/{k}/{dfn}"] = v
        for k, v in det.get("context_all_prompts", {}).items():
            fig[f"details/context_all_prompts/{k}/{dfn}"] = v
    table = markdown(fig, defences)
    write_text_atomic(out_dir / "figures.json", json.dumps(out, indent=1, default=str))
    write_text_atomic(out_dir / "report.md", f"# Privacy-preserving retrieval: extraction attacks\n\n{table}\n")
    return finish_run({"command": "attack", "defences": defences, "figures": fig}, out_dir, table,
                      note=f"report: {out_dir / 'report.md'}")


def run(cfg) -> dict:
    """Run ``cfg.command`` (ingest | query | attack); returns the summary."""
    cmd = str(cfg.get("command"))
    if cmd not in COMMANDS:
        raise ConfigError(f"command must be one of {', '.join(COMMANDS)}, got {cmd!r}")
    out_dir = run_dir()
    return {"ingest": _ingest, "query": _query, "attack": _attack}[cmd](cfg, out_dir)


main = hydra_main("rag", run, log)


if __name__ == "__main__":
    raise SystemExit(main())
