"""The comparison the issue asks for: every defence attacked and asked the utility questions in one run.

Every defence's corpus is ingested first (cached), and indexed dual-track over the raw text
with that defence's payloads. The attack prompts (:mod:`clinx.rag.attack`) then go to all
defences in rounds of ``chunk`` prompts, so that a run stopped by its time budget
(``budget_s``, counted from the start, ingestion included) has put the same prompts to every
defence; the utility questions are asked before the attack, so a budget never cuts them.
Retrieval recall@K is measured for the dual-track index over the raw text (``raw``) and for an
index built over the multi-agent payloads themselves (``sanitized``, the single-track design
the paper argues against; the first non-naive defence's payloads when multi_agent is not run).
"""

from __future__ import annotations

import logging
import statistics
import time
from typing import Any, Sequence

from clinx.rag.attack import (AttackPrompt, AttackResult, run_attack, score_attack, stepwise_prompts, synonym_prompts,
                              targeted_prompts, untargeted_prompts)
from clinx.rag.corpus import utility_questions
from clinx.rag.metrics import bleu1, recall_at_k, rouge_l
from clinx.rag.system import build_rag, run_ingest

log = logging.getLogger(__name__)

__all__ = ["compare", "interleave"]


def interleave(a: Sequence[AttackPrompt], b: Sequence[AttackPrompt]) -> list[AttackPrompt]:
    """``a[0], b[0], a[1], b[1], …`` then the rest: any prefix holds both kinds in equal share."""
    out: list[AttackPrompt] = []
    for i in range(max(len(a), len(b))):
        out += ([a[i]] if i < len(a) else []) + ([b[i]] if i < len(b) else [])
    return out


def compare(cfg, docs: Sequence[Any], defences: Sequence[str], llm: Any, encoder: Any, *,
            n_targeted: int, n_untargeted: int, n_adaptive: int, n_questions: int, kinds: Sequence[str],
            max_tokens: int | None = None, progress: bool = True, chunk: int = 10,
            budget_s: float | None = None, max_prompts: int | None = None) -> dict:
    """Flat figures (see ``scripts/bench_rag.py``) plus ``details`` per defence; no text, counts only."""
    a = cfg.attack
    seed = int(a.seed)
    rn, rt = int(a.repeat_n), float(a.rouge_threshold)
    by_id = {d.id: d for d in docs}
    ids = [d.id for d in docs]
    raws = [d.raw for d in docs]
    tgt = targeted_prompts(docs, n_targeted, seed) if "targeted" in kinds else []
    unt = untargeted_prompts(n_untargeted, seed) if "untargeted" in kinds else []
    prompts = interleave(tgt, unt)
    adaptive = []
    if "synonym" in kinds and n_adaptive:
        adaptive += synonym_prompts(docs, n_adaptive, seed)
    if "stepwise" in kinds and n_adaptive:
        adaptive += stepwise_prompts(docs, n_adaptive, seed)
    questions = utility_questions(docs, n_questions, seed)
    t_start = time.perf_counter()

    fig: dict[str, Any] = {}
    details: dict[str, dict] = {d: {} for d in defences}
    payloads_of: dict[str, dict[str, str]] = {}
    rags = {}
    try:
        for dfn in defences:
            ing = run_ingest(cfg, docs, dfn, llm)
            payloads_of[dfn] = ing.payloads
            fig[f"ingest_s_per_doc/{dfn}"] = round(ing.s_per_doc, 3)
            details[dfn]["ingest"] = {"documents": len(docs), "sanitized_now": ing.computed,
                                      "l3_accepted_share": ing.accepted_share(),
                                      "payload_equals_raw": sum(ing.payloads[i] == by_id[i].raw for i in ids)}
            rags[dfn] = build_rag(cfg, ids, raws, [ing.payloads[i] for i in ids], encoder, llm, dfn, max_tokens)
        ingest_s = time.perf_counter() - t_start

        def over_budget() -> bool:
            return budget_s is not None and time.perf_counter() - t_start > budget_s

        query_ms: list[float] = []
        for dfn in defences:
            answers = [rags[dfn].ask(q.question) for q in questions]
            query_ms += [x.retrieve_ms for x in answers]
            if questions:
                fig[f"bleu1/{dfn}"] = round(statistics.fmean(bleu1(x.text, q.reference) for x, q in zip(answers, questions)), 4)
                fig[f"rougeL/{dfn}"] = round(statistics.fmean(rouge_l(x.text, q.reference) for x, q in zip(answers, questions)), 4)
                if "recall_at_3/raw" not in fig:  # the same dual-track index for every defence: retrieval is identical
                    fig["recall_at_3/raw"] = round(recall_at_k([x.doc_ids for x in answers], [q.doc_id for q in questions], 3), 4)
        # attack rounds: every defence gets the same prompts before the next round starts
        results: dict[str, list] = {d: [] for d in defences}
        done = 0
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(prompts) * len(defences), desc="attack", unit="prompt")
        limit = len(prompts) if max_prompts is None else min(len(prompts), int(max_prompts))
        while done < limit and not over_budget():
            part = prompts[done : min(done + int(chunk), limit)]
            for dfn in defences:
                results[dfn] += run_attack(rags[dfn], part)
                if bar:
                    bar.update(len(part))
            done += len(part)
        if bar:
            bar.close()
        for dfn in defences:
            res = results[dfn]
            det = details[dfn]
            det["attack_all"] = score_attack(res, by_id, repeat_n=rn, rouge_threshold=rt)
            for kind in ("targeted", "untargeted"):
                det[f"attack_{kind}"] = score_attack([r for r in res if r.prompt.kind == kind], by_id,
                                                     repeat_n=rn, rouge_threshold=rt)
            fig[f"target_info/{dfn}"] = det["attack_targeted"]["target_info"]
            fig[f"repeat_prompt/{dfn}"] = det["attack_all"]["repeat_prompt"]
            fig[f"rouge_prompt/{dfn}"] = det["attack_all"]["rouge_prompt"]
        # context leakage over every prompt (retrieval only, no generation): what an obedient model would repeat
        for dfn in defences:
            rag = rags[dfn]
            ctx = []
            for p in prompts:
                hits = rag.index.retrieve(p.queries[0])
                query_ms.append(rag.index.last_ms)
                ctx.append(AttackResult(p, [], [h.doc_id for h in hits], [rag.generator.context([h.payload for h in hits])]))
            s = score_attack(ctx, by_id, repeat_n=rn, rouge_threshold=rt)
            s_t = score_attack([r for r in ctx if r.prompt.kind == "targeted"], by_id, repeat_n=rn, rouge_threshold=rt)
            details[dfn]["context_all_prompts"] = {"context_repeat_prompt": s["context_repeat_prompt"],
                                                   "context_rouge_prompt": s["context_rouge_prompt"],
                                                   "context_target_info": s_t["context_target_info"],
                                                   "prompts": s["prompts"]}
        for kind in ("synonym", "stepwise"):
            sub = [p for p in adaptive if p.kind == kind]
            for dfn in defences:
                if sub and not over_budget():
                    details[dfn][f"attack_{kind}"] = score_attack(run_attack(rags[dfn], sub), by_id, repeat_n=rn,
                                                                  rouge_threshold=rt)
    finally:
        for r in rags.values():
            r.index.close()
    # single-track comparison: index the sanitized text itself
    san = "multi_agent" if "multi_agent" in payloads_of else next((d for d in defences if d != "naive"), None)
    if san is not None and questions:
        texts = [payloads_of[san][i] for i in ids]
        rag = build_rag(cfg, ids, texts, texts, encoder, llm, f"sanitized_{san}", max_tokens)
        try:
            got = [[h.doc_id for h in rag.index.retrieve(q.question)] for q in questions]
        finally:
            rag.index.close()
        fig["recall_at_3/sanitized"] = round(recall_at_k(got, [q.doc_id for q in questions], 3), 4)
        fig["config/sanitized_index_defence"] = san
    fig["query_ms_p50"] = round(statistics.median(query_ms), 2) if query_ms else None
    fig["config/prompts_targeted"] = len(tgt)
    fig["config/prompts_untargeted"] = len(unt)
    fig["config/prompts_generated_per_defence"] = done
    fig["config/prompts_adaptive"] = len(adaptive)
    fig["config/questions"] = len(questions)
    fig["ingest_wall_s"] = round(ingest_s, 1)
    return {"figures": fig, "details": details}
