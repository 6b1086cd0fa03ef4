"""Reciprocal Rank Fusion: RRF(i) = Σ_lists 1 / (k + rank_list(i)), ranks from 1.

A document absent from a list contributes nothing from that list — it is neither given
a default rank nor padded in (Cormack et al., 2009; the privacy-preserving RAG paper's
eq. 4 with k = 60). Ties are broken by the best single rank, then by first appearance,
so the order is deterministic.
"""

from __future__ import annotations

from typing import Hashable, Sequence

__all__ = ["rrf"]


def rrf(rankings: Sequence[Sequence[Hashable]], k: float = 60.0, top_k: int | None = None) -> list[tuple[Hashable, float]]:
    """Fuse ranked lists of ids (best first) into ``[(id, score)]``, best first, at most ``top_k``.

    An id repeated within one list counts at its first (best) rank only.
    """
    if k < 0:
        raise ValueError("k must be >= 0")
    score: dict[Hashable, float] = {}
    best: dict[Hashable, int] = {}
    first: dict[Hashable, int] = {}
    order = 0
    for ranking in rankings:
        seen: set = set()
        for rank, doc in enumerate(ranking, 1):
            if doc in seen:
                continue
            seen.add(doc)
            score[doc] = score.get(doc, 0.0) + 1.0 / (k + rank)
            best[doc] = min(best.get(doc, rank), rank)
            if doc not in first:
                first[doc] = order
                order += 1
    fused = sorted(score, key=lambda d: (-score[d], best[d], first[d]))
    if top_k is not None:
        fused = fused[: int(top_k)]
    return [(d, score[d]) for d in fused]
