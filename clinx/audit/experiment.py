"""Audit targets end to end: the ICL generator grid, an external corpus, and the two controls.

One function per target, each returning result dicts of the same shape
(``target``, ``regime``, ``k``, and :func:`clinx.audit.core.audit_embeddings`'s
output), so ``clinx-audit`` and ``scripts/bench_audit.py`` share every step.
"""

from __future__ import annotations

import logging
from typing import Callable, Sequence

import numpy as np

from clinx.audit.core import AttackSettings, audit_embeddings
from clinx.audit.corpora import independent_corpus, planted_corpus
from clinx.audit.generate import ICLGenerator, membership, plan_prompts
from clinx.audit.partition import PopulationSplit

__all__ = ["run_icl", "run_external", "run_control", "run_rewrite", "rewriter", "CONTROLS"]

log = logging.getLogger(__name__)

CONTROLS = ("planted", "independent")


def run_icl(texts: Sequence[str], split: PopulationSplit, generator: ICLGenerator, encoder, settings: AttackSettings, *,
            regimes: Sequence[str], shots: Sequence[int], n_synthetic: int, static_reuse: int | None,
            seed: int = 0) -> tuple[list[dict], dict[str, list]]:
    """Generate and audit every (regime, k); returns the results and the generations per ``"<regime>/k<k>"``."""
    real = encoder.encode(list(texts))
    population = np.r_[split.pool, split.holdout]
    results: list[dict] = []
    generations: dict[str, list] = {}
    for regime in regimes:
        for k in shots:
            label = f"{regime}/k{k}"
            plans = plan_prompts(split.pool, n_synthetic, int(k), regime, static_reuse=static_reuse, seed=seed)
            gens = generator.generate(texts, plans, label=label)
            gens = [g for g in gens if g.text.strip()]  # an empty answer is not a note
            if not gens:
                raise RuntimeError(f"{label}: the generator produced no text")
            member = membership([g.exemplars for g in gens], len(texts))
            synth = encoder.encode([g.text for g in gens])
            res = audit_embeddings(real, synth, member, population, settings)
            res.update(target="icl", regime=regime, k=int(k), n_prompts=len({g.exemplars for g in gens}))
            results.append(res)
            generations[label] = gens
            log.info("audited %s: %d members, %d synthetic notes", label, res["n_members"], res["n_synthetic"])
    return results, generations


def run_external(real_texts: Sequence[str], member: np.ndarray, synthetic_texts: Sequence[str], encoder,
                 settings: AttackSettings) -> dict:
    """Audit a synthetic corpus made elsewhere, given the real corpus with its membership flags."""
    real = encoder.encode(list(real_texts))
    synth = encoder.encode(list(synthetic_texts))
    res = audit_embeddings(real, synth, np.asarray(member, bool), np.arange(len(real_texts)), settings)
    res.update(target="external", regime="external", k=None)
    return res


def run_control(kind: str, texts: Sequence[str], encoder, settings: AttackSettings, *, n_members: int,
                n_outsiders: int, verbatim_fraction: float = 0.5, seed: int = 0) -> dict:
    """The ``planted`` or ``independent`` control on ``texts``.

    A seeded permutation sets ``n_outsiders`` records apart (outside the
    audited population) and makes the first ``n_members`` of the rest the
    members. ``planted``: the synthetic corpus is a copy of every member
    (verbatim or :func:`~clinx.audit.corpora.near_copy`) among the outsiders'
    texts. ``independent``: the outsiders' texts alone — unrelated to any
    member, so an attack can do no better than chance.
    """
    if kind not in CONTROLS:
        raise ValueError(f"control must be one of {CONTROLS}, got {kind!r}")
    order = np.random.default_rng([int(seed), 0xC0]).permutation(len(texts))
    if n_outsiders + n_members >= len(texts):
        raise ValueError("the corpus is too small for the control's outsiders and members")
    outsiders, population = order[:n_outsiders], order[n_outsiders:]
    members = population[:n_members]
    member = np.zeros(len(texts), bool)
    member[members] = True
    if kind == "planted":
        synth_texts = planted_corpus(texts, members, outsiders, verbatim_fraction=verbatim_fraction, seed=seed)
    else:
        synth_texts = independent_corpus(texts, outsiders)
    real = encoder.encode(list(texts))
    synth = encoder.encode(synth_texts)
    res = audit_embeddings(real, synth, member, population, settings)
    res.update(target="control", regime=kind, k=None)
    return res


def run_rewrite(texts: Sequence[str], rewrite: Callable[[str], str], encoder, settings: AttackSettings, *,
                n_members: int, label: str, seed: int = 0) -> dict:
    """Audit released rewrites (e.g. clinx's L2 or L3 output) against the original texts.

    A seeded draw of ``n_members`` texts is rewritten by ``rewrite`` and
    released; the other texts are never released (non-members). The question
    the audit answers: does the released rewrite show which originals were in
    the release? One rewrite per member, so the threat is a copy, not reuse.
    """
    if not 2 <= n_members < len(texts):
        raise ValueError("n_members must be at least 2 and smaller than the corpus")
    order = np.random.default_rng([int(seed), 0x3E]).permutation(len(texts))
    members = order[:n_members]
    member = np.zeros(len(texts), bool)
    member[members] = True
    released = [rewrite(texts[int(i)]) for i in members]
    real = encoder.encode(list(texts))
    synth = encoder.encode(released)
    res = audit_embeddings(real, synth, member, np.arange(len(texts)), settings)
    res.update(target="rewrite", regime=label, k=None)
    return res


def rewriter(level: str, strategy: str | None = None, llm=None):
    """``text -> released text`` through clinx's own text pipeline at ``level`` (L1..L3)."""
    from clinx.text.pipeline import TextPipeline

    pipe = TextPipeline(level, strategy=strategy if level.upper() == "L3" else None,
                        llm=llm if level.upper() == "L3" else None)
    return lambda text: pipe.run(text).text
