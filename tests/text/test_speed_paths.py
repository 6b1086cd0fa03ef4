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


def _trigger_lists_plain(toks: list, lows: list) -> tuple[list[int], ...]:
    """evidence._trigger_lists as one scan per pass (the form it replaced)."""
    place_first = E._place_first()
    triggers = E._extra_triggers()
    return (
        [i for i, w in enumerate(lows) if w in E._CUE_WORDS],
        [i for i, w in enumerate(lows) if w in ("st", "saint")],
        E._hospital_starts(lows, E.hospitals()),
        [i for i, w in enumerate(lows) if w in triggers],
        [i for i, w in enumerate(lows) if w in E._TOWN_TRIGGERS],
        [i for i, w in enumerate(lows) if w in E._HEAD_START],
        [i for i, w in enumerate(lows) if w in E._VENUE_WORDS],
        [k for k, t in enumerate(toks) if t.cls is not E.C and t.cls is not E.W],
        [k for k, t in enumerate(toks) if not (t.cls == E.W and t.low not in place_first or t.cls == E.C)],
        [k for k, t in enumerate(toks) if t.cls == E.W and t.low in E._frequent_places()],
    )


def _trigger_lists_equal(text: str) -> None:
    toks = E.tokens(text)
    lows = [t.low for t in toks]
    assert E._trigger_lists(toks, lows) == _trigger_lists_plain(toks, lows)


@PROP
@given(text=evidence_texts)
def test_find_names_trigger_lists_equal_their_plain_forms(text):
    """One table lookup per token finds the tokens every pass of _find_names visits, as one scan per pass did."""
    _trigger_lists_equal(text)


def test_find_names_trigger_lists_equal_their_plain_forms_on_the_corpora():
    for text in corpus():
        _trigger_lists_equal(text)


# ---- evidence helpers: a character test before a regex call, str.strip for a per-character generator


def _joined_plain(text, a, b, comma=True):
    g = E._gap(text, a, b)
    if g == "":
        return a.dot
    if a.dot and not (len(a.raw) == 1 or a.low in E.TITLES or a.low in ("st", "mt", "ft")):
        return False
    if "\n" in g or len(g) > 4:
        return False
    if "," in g and not comma:
        return False
    return all(ch in " \t,." for ch in g) and g.count(",") <= 1


def _state_after_plain(text, t):
    m = E._STATE_AFTER_RE.match(text, t.e)
    return bool(m) and (m.group(1) or m.group(2) or m.group(3)).lower() in E.US_STATES


def _helpers_equal(text: str) -> None:
    toks = E.tokens(text)
    for a, b in zip(toks, toks[1:]):
        for comma in (True, False):
            assert E._joined(text, a, b, comma) == _joined_plain(text, a, b, comma)
    for t in toks:
        assert E._state_after(text, t) == _state_after_plain(text, t)


_GAP_PIECES = ["Lowell", "MA", "ma", "Ma", "Dr", "J", "st", "Okafor", ",", ", ", " ,", ",,", ".", ". ", " ", "  ", "\t", "\n", "-", "'", ";",
               ", MA 01852", "Boston, NH", "x,YZ", "Reno,NV", "Reno,  NV.", "Troy,\tNY"]


@PROP
@given(text=st.lists(st.sampled_from(_GAP_PIECES), max_size=16).map("".join))
def test_evidence_helpers_equal_their_plain_forms(text):
    _helpers_equal(text)


def test_evidence_helpers_equal_their_plain_forms_on_the_corpora():
    for text in corpus():
        _helpers_equal(text)


# ---- rules: the anchor-window scans, with the characters after which no match starts

_ANCHOR_PIECES = [
    "ACC2020-134801", "AB12-345", "ab12-34/56", "MRN#1234567", "Q12345", "12345", "678901", "Ab", "xyz", "2020", "abcde-12345",
    "x", "É", "_", "-", "#", "/", " ", "  ", ".", ",", "on", "seen", "3/14", "12/8", "a.m.", "Acc", "(", ")", "9",
    # a cue glued to a word before it: "p.m." has no word boundary before it, "on" has one
    "xp.m. 3/14", "xa.m.: 12/8", "xon 3/14", "xAB12345", "9AB12-345", "_Q12345",
]


@PROP
@given(text=st.lists(st.sampled_from(_ANCHOR_PIECES), max_size=16).map("".join))
def test_anchored_table_scans_equal_finditer(text):
    """Every entry of rules._ANCHORED, with the arguments find() passes, gives finditer's matches."""
    from clinx.text import rules as R

    for idx, args in R._ANCHORED.items():
        rx = R._COMPILED[idx][1]
        assert [m.span() for m in R._anchored_matches(text, rx, *args)] == [m.span() for m in rx.finditer(text)], R._COMPILED[idx][0]


def test_anchored_table_scans_equal_finditer_on_the_corpora():
    from clinx.text import rules as R

    for text in corpus():
        for idx, args in R._ANCHORED.items():
            rx = R._COMPILED[idx][1]
            assert [m.span() for m in R._anchored_matches(text, rx, *args)] == [m.span() for m in rx.finditer(text)]


# ---- context: sentence breaks looked for no further back than the longest abbreviation

_BREAK_PIECES = ["Dr", "dr", "approx", "approxi", "hypertension", "A", "b", "e.g", "i.e", "St", "vs", "No", "5", "é", "ß", "ǅ",
                 ".", ". ", ".\n", "? ", "! ", "; ", "\n", " ", "\t", ",", "_", "x" * 7, "Jr"]


def _sentence_breaks_plain(text: str) -> list[int]:
    """context._sentence_breaks walking back over the whole word before each dot (the form it replaced)."""
    from clinx.text import context as C

    out = []
    for m in C._SENT_BREAK_RE.finditer(text):
        i = m.start()
        if text[i] == ".":
            j = i
            while j > 0 and text[j - 1].isalpha():
                j -= 1
            word = text[j:i].lower()
            if word in C._ABBREV or len(word) == 1:
                continue
        out.append(m.end())
    return out


@PROP
@given(text=st.lists(st.sampled_from(_BREAK_PIECES), max_size=20).map("".join))
def test_sentence_breaks_equal_their_plain_form(text):
    from clinx.text import context as C

    assert C._sentence_breaks(text) == _sentence_breaks_plain(text)


def test_sentence_breaks_equal_their_plain_form_on_the_corpora():
    from clinx.text import context as C
    from clinx.text.pipeline import TextPipeline

    l1 = TextPipeline("L1")
    for text in corpus():
        assert C._sentence_breaks(text) == _sentence_breaks_plain(text)
        out = l1.run(text).text  # what L2 reads: L1's output
        assert C._sentence_breaks(out) == _sentence_breaks_plain(out)


def test_token_info_extras_are_what_they_stand_for():
    """The length and "special" fields kept with a context token equal what find() used to compute per token."""
    from clinx.text import context as C

    for text in corpus()[:400]:
        for m in C._TOKEN_RE.finditer(text):
            info = C._token_info(m.group())
            assert info[7] == len(info[0])
            assert info[8] == bool(info[2] or info[3] or info[6])


# ---- evidence token regexes with possessive repetitions against their greedy forms

_WORD_PIECES = ["Ab", "o'", "O’", "-", "'", "’", "s", "S", ".", " ", "\n", "\t", "x", "É", "ß", "9", "_", "dr", "MD", "a-b", "--", "''",
                "ı", "٣", "²", "PT", "hope", "Okafor"]
_GREEDY_TOKEN_RE = r"[^\W\d_]+(?:['’-][^\W\d_]+)*\.?"
_GREEDY_TOKEN_RE_ASCII = r"[A-Za-z]+(?:['-][A-Za-z]+)*\.?"


def _token_regexes_equal(text: str) -> None:
    import re

    for fast, greedy in ((E._TOKEN_RE, _GREEDY_TOKEN_RE), (E._TOKEN_RE_ASCII, _GREEDY_TOKEN_RE_ASCII)):
        assert fast.pattern != greedy
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in re.finditer(greedy, text)]


@PROP
@given(text=st.lists(st.sampled_from(_WORD_PIECES + ["'-", "-'", "a'", "’b", "O'Neil's", "x-.", "-a-", "a--b"]), max_size=20).map("".join))
def test_possessive_token_regexes_equal_their_greedy_forms(text):
    _token_regexes_equal(text)


def test_possessive_token_regexes_equal_their_greedy_forms_on_the_corpora():
    for text in corpus():
        _token_regexes_equal(text)


_STATE_WORDS = ["puerto", "rico", "Puerto", "RICO", "el", "salvador", "x", "_", "-", "İ", "ſ", "north", "carolina", "xnorth", "_el", "and"]
state_texts = st.lists(st.sampled_from(_STATE_WORDS), max_size=10).flatmap(
    lambda parts: st.lists(st.sampled_from(["", " ", "  ", "\t", ", ", "-"]), min_size=len(parts), max_size=len(parts)).map(
        lambda seps: "".join(p + s for p, s in zip(parts, seps))
    )
)


@PROP
@given(state_texts)
def test_multiword_state_scan_equals_the_case_insensitive_pattern(text):
    assert E.multiword_state_spans(text) == [m.span() for m in E._MULTIWORD_STATES_RE.finditer(text)]


def test_multiword_state_scan_equals_the_case_insensitive_pattern_on_the_corpora():
    for text in corpus() + ("anorth carolina", "_puerto rico", "xel salvador", "NORTH\tCAROLINA-x", "in Puerto Rico, El Salvador and new hampshire"):
        assert E.multiword_state_spans(text) == [m.span() for m in E._MULTIWORD_STATES_RE.finditer(text)]


from clinx.text import institutions as I  # noqa: E402


def _before_units_plain(text: str) -> list:
    """institutions.find_institutions_before_units reading every word of the note (the form it replaced)."""
    from clinx.text.base import Candidate

    out: list[Candidate] = []
    words = list(I._UNIT_WORD.finditer(text))
    lows = [m.group().lower().replace("’", "'") for m in words]
    line_cases: dict[int, bool] = {}

    def distinctive(k: int) -> bool:
        # (the word test is the module's own: this plain form differs only in reading every word of the note)
        return I._distinctive_before_unit(text, words[k], lows[k], line_cases)

    for j, w in enumerate(lows):
        need = I.UNIT_AFTER.get(w)
        if need is None or j == 0:
            continue
        if need and (j + 1 >= len(lows) or lows[j + 1] not in need or text[words[j].end() : words[j + 1].start()] != " "):
            continue
        last = words[j + 1] if need else words[j]
        if text[last.end() : last.end() + 1] in ("-", "/"):
            continue  # "heme-positive", "gi/gu": a compound, no unit
        # one or two distinctive words right before the unit word, joined by one blank
        k = j
        while k > 0 and j - k < 2 and text[words[k - 1].end() : words[k].start()] == " " and distinctive(k - 1):
            k -= 1
        if k == j:
            continue
        if k > 0 and lows[k - 1] in ("st", "st.", "saint") and text[words[k - 1].end() : words[k].start()] in (" ", ". "):
            k -= 1  # "ST. MARY'S WOUND CLINIC"
        gap = text[words[k - 1].end() : words[k].start()] if k > 0 else ""
        before = text[: words[k].start()].rstrip(" \t")
        opened = not before or before[-1] in I._UNIT_OPENERS and (before[-1] != "-" or before[-2:-1].isspace()) \
            or k > 0 and lows[k - 1] in I._UNIT_CUES and gap.strip(" \t") in ("", "@")
        if not opened and not (before.endswith("@") or before[-2:].lower() == "w/"):
            continue
        s, e = words[k].start(), words[j - 1].end()
        out.append(Candidate(s, e, "HOSPITAL", "rule:institution_before_unit", 0.85))
    return out


_UNIT_TEXT_WORDS = ["at", "from", "sentinel", "Mercy", "LAKESIDE", "main", "ortho", "ED", "cath", "lab", "pharmacist", "w/",
                    "heme", "-positive", "the", "St.", "MARY'S", "wound", "clinic", "x", "İ", "neonatal", "ICU", "@", "(", "called"]
unit_texts = st.lists(st.sampled_from(_UNIT_TEXT_WORDS), max_size=14).flatmap(
    lambda parts: st.lists(st.sampled_from(["", " ", "  ", ", ", ". ", "\n", ": ", "-", "/"]), min_size=len(parts), max_size=len(parts)).map(
        lambda seps: "".join(p + s for p, s in zip(parts, seps))
    )
)


def _spans(cands) -> list:
    return [(c.start, c.end, c.category) for c in cands]


@PROP
@given(unit_texts)
def test_institutions_before_units_equal_their_plain_form(text):
    assert _spans(I.find_institutions_before_units(text)) == _spans(_before_units_plain(text))


def test_institutions_before_units_equal_their_plain_form_on_the_corpora():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    lines = [json.loads(x)["text"] for f in sorted((root / "benchmarks" / "data").glob("probe_*_lines.jsonl"))
             for x in f.read_text(encoding="utf-8").splitlines() if x.strip()]
    extra = ("at sentinel heme-positive stools", "from Sentinel gi/gu", "ED", "  ED", "LAKESIDE\nCATH LAB", "x" * 300 + " sentinel ortho",
             "ST. MARY'S WOUND CLINIC", "w/ wellspring ENT", "@ pioneer ED")
    for text in corpus() + tuple(lines) + extra:
        assert _spans(I.find_institutions_before_units(text)) == _spans(_before_units_plain(text)), text[:80]


def test_capital_run_precheck_changes_no_result(monkeypatch):
    """The cheap look beside an anchor (:func:`institutions._capital_beside`) skips only anchors whose run is empty:
    on every anchor of the corpus the run is the same with the look forced true."""
    from clinx.text.rules import RuleRecognizer

    rec = RuleRecognizer()
    anchors = []
    for text in corpus()[:300]:
        anchors.extend((text, c.start, c.end, c.category) for c in rec.find(text) if c.category in I.ANCHOR_CATEGORIES)
    fast = [I._capital_run(t, s, e, place=cat != "HOSPITAL") for t, s, e, cat in anchors]
    monkeypatch.setattr(I, "_capital_beside", lambda text, s, e: True)
    plain = [I._capital_run(t, s, e, place=cat != "HOSPITAL") for t, s, e, cat in anchors]
    assert fast == plain
    assert any(c is not None for c in fast)  # the corpus reaches the run at all


def test_capitalised_institutions_read_only_lines_with_a_capitalised_head():
    """The finder reads only the lines a capitalised head stands in; reading every line finds the same."""
    for text in corpus()[:300]:
        got = I.find_capitalised_institutions(text)
        # the plain form: every line, the head test left to the run's own closing
        plain = []
        heads = I._capital_heads()
        pos = 0
        for line in text.split("\n"):
            base, pos = pos, pos + len(line) + 1
            if len(line) < 8 or E._line_case(line, 0, len(line)) != "mixed":
                continue
            run = []
            for m in [*I._CAPITAL_WORD.finditer(line), None]:
                if m is not None and run and I._ONE_OR_TWO_BLANKS.fullmatch(line, run[-1].end(), m.start()) is None \
                        and line[run[-1].end() : m.start()] not in (" & ", "-"):
                    I._close_capital_run(line, base, run, plain)
                    run = []
                if m is None:
                    I._close_capital_run(line, base, run, plain)
                else:
                    run.append(m)
        assert got == plain
        assert heads
