"""Reciprocal Rank Fusion against rankings computed by hand."""

import pytest

from clinx.rag.fusion import rrf


def test_rrf_matches_a_hand_computed_ranking():
    dense = ["a", "b", "c", "d"]
    sparse = ["c", "a", "e"]
    # k = 60: a = 1/61 + 1/62, c = 1/63 + 1/61, b = 1/62, e = 1/63, d = 1/64
    want = [("a", 1 / 61 + 1 / 62), ("c", 1 / 63 + 1 / 61), ("b", 1 / 62), ("e", 1 / 63), ("d", 1 / 64)]
    got = rrf([dense, sparse], k=60)
    assert [d for d, _ in got] == [d for d, _ in want]
    for (_, s), (_, w) in zip(got, want):
        assert s == pytest.approx(w)


def test_top_k_and_a_document_missing_from_one_list():
    # "x" is only in the sparse list: it gets that list's term and nothing from the dense one,
    # and no document that neither list returned ever appears (no padding)
    got = rrf([["a", "b"], ["x"]], k=0, top_k=3)
    assert got == [("a", 1.0), ("x", 1.0), ("b", 0.5)]  # tie a / x broken by best rank, then first appearance
    assert rrf([["a", "b"], []], top_k=5) == [("a", 1 / 61), ("b", 1 / 62)]
    assert rrf([[], []], top_k=3) == []


def test_small_k_lets_a_top_rank_dominate_and_large_k_rewards_agreement():
    lists = [["a", "b", "c"], ["c", "b", "a"], ["b", "x", "y"]]
    assert rrf(lists, k=0, top_k=1)[0][0] == "b"  # 1/2 + 1/2 + 1 beats a's and c's 1 + 1/3
    assert rrf([["a", "b"], ["b", "c"]], k=60, top_k=1)[0][0] == "b"


def test_duplicates_within_a_list_count_once_and_negative_k_is_refused():
    assert rrf([["a", "a", "b"]], k=60) == [("a", 1 / 61), ("b", 1 / 63)]
    with pytest.raises(ValueError):
        rrf([["a"]], k=-1)
