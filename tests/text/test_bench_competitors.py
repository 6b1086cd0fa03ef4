"""The competitor harness of scripts/bench_text.py: Philter (philter-ucsf, installed by scripts/install.sh) runs on
Python 3.11+ once its mid-expression global regex flags are moved to the front, with spaCy's packaged tagger in
place of NLTK's downloaded one. Values are invented."""

import re
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import bench_text as B  # noqa: E402


@pytest.mark.parametrize(
    "pattern,expected",
    [
        (r"abc(?i)def", r"(?i)abcdef"),
        (r"(?i)abc", r"(?i)abc"),
        (r"a(?x)b(?i)c", r"(?ix)abc"),
        (r"(?i:abc)def", r"(?i:abc)def"),
        (r"plain", r"plain"),
    ],
    ids=["mid_expression", "already_first", "two_flags", "scoped_flag_stays", "no_flags"],
)
def test_hoist_inline_flags(pattern, expected):
    assert B.hoist_inline_flags(pattern) == expected
    re.compile(B.hoist_inline_flags(pattern))


def test_every_philter_pattern_compiles_once_hoisted():
    import importlib.util

    root = Path(list(importlib.util.find_spec("philter_ucsf").submodule_search_locations)[0])
    files = sorted((root / "filters").glob("regex*/**/*.txt"))
    assert len(files) > 20
    for f in files:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # Philter's own "possible nested set" patterns
            re.compile(B.hoist_inline_flags(f.read_text().strip()))


def test_spacy_pos_tag_gives_penn_tags_per_word():
    tags = B._spacy_pos_tag(["Patient", "seen", "by", "Dr", "Okafor", "today"])
    assert [w for w, _ in tags] == ["Patient", "seen", "by", "Dr", "Okafor", "today"]
    assert tags[1][1].startswith("VB") and tags[2][1] == "IN" and tags[4][1] == "NNP"


def test_philter_runs_and_masks_a_name():
    from clinx.text.notes_eval import Note

    text = "Pt seen by Dr. Okafor on 3/14/2019 at Lakeside General Hospital. Call 617-555-0148."
    note = Note(id="c1", text=text, spans=((15, 21, "NAME"),))
    (mask,) = B._philter_runner()([note])
    assert len(mask) == len(text)
    assert all(mask[i] for i in range(15, 21))
    assert not any(mask[i] for i in range(0, 3))  # "Pt" stays
