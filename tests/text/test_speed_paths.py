"""Speed-ups of the text levels' machinery against the plain forms they replace.

Each fast path here changes *how* L1/L2 run, never *what* they find: it is
compared with its plain form on every annotated note, the benchmark-style
questions and texts built from fragments that trigger every pass.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clinx.text import evidence as E

PROP = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

#: Words that start each pass of evidence._find_names, everyday and clinical words, odd Unicode.
_EVIDENCE_WORDS = [
    "Dr", "dr.", "wife", "son-in-law", "RN", "MD", "pt", "Name:", "with", "w/", "d/w", "st", "St.", "saint", "Mary's",
    "mgh", "MGH", "brigham-women", "harvard", "vanguard", "fall", "river", "Fall River", "pharmacy:", "street", "Ave",
    "fire", "police", "hospital", "medical", "center", "eye", "and", "ear", "at", "from", "to", "in", "near", "via",
    "Cardiology", "n.", "E.", "so.", "boston", "Jamaica", "plain", "lives", "seen", "Okafor", "HOPE", "hope", "will",
    "lasix", "the", "left", "lung", "Smith", "John", "A.", "x", "é", "José", "O’Neil", "ﬁ", "İ", "3rd", "45",
]
_SEPS = ["", " ", "  ", ", ", ". ", "\n", ": ", "-", "'s "]

evidence_texts = st.lists(st.sampled_from(_EVIDENCE_WORDS), max_size=16).flatmap(
    lambda parts: st.lists(st.sampled_from(_SEPS), min_size=len(parts), max_size=len(parts)).map(
        lambda seps: "".join(p + s for p, s in zip(parts, seps))
    )
)


@lru_cache(maxsize=1)
def corpus() -> tuple[str, ...]:
    """Every annotated development note, the benchmark questions (injected and clean) and IU reports."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import bench_text as B

    from clinx.text.notes_eval import load_dev_notes

    q = B.question_items(300)
    texts = [n.text for n in load_dev_notes()] + [it.text for it in q] + [it.clean for it in q]
    texts += [it.text for it in B.iu_items(100)]
    return tuple(texts)


def _trigger_lists_equal(text: str) -> None:
    toks = E.tokens(text)
    lows = [t.low for t in toks]
    assert E._trigger_lists(toks, lows) == E._trigger_lists_plain(toks, lows)


@PROP
@given(text=evidence_texts)
def test_find_names_trigger_lists_equal_their_plain_forms(text):
    """One table lookup per token finds the tokens every pass of _find_names visits, as one scan per pass did."""
    _trigger_lists_equal(text)


def test_find_names_trigger_lists_equal_their_plain_forms_on_the_corpora():
    for text in corpus():
        _trigger_lists_equal(text)
