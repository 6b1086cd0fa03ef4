"""L2 context enhancer: anchors boost identifier-shaped tokens over the threshold; clinical tokens never."""

import pytest

from clinx.text.context import ContextEnhancer, ContextLevel
from clinx.text.pipeline import deidentify

L2 = ContextLevel(ner=None)  # the context pass alone: the CRF layer's own tests are in test_crf.py


@pytest.mark.parametrize(
    "text,gone,cat",
    [
        ("patient john smith, is the heart enlarged?", ("john", "smith"), "NAME"),
        ("name: ana lopez - any effusion?", ("ana", "lopez"), "NAME"),
        ("Born 1961, is the spine normal?", ("1961",), "DATE"),
        ("Record QX7741 - what modality?", ("QX7741",), "MRN"),
        ("ID 4821: is this a CT?", ("4821",), "ID"),
        ("Patient Okafor asks: any mass?", ("Okafor",), "NAME"),
        ("seen at Riverside, is the liver normal?", ("Riverside",), "HOSPITAL"),
    ],
    ids=["lowercase_name_after_cue", "name_label", "born_year", "record_code", "id_digits", "surname_after_cue", "seen_at_place"],
)
def test_anchor_boosts_identifier_over_threshold(text, gone, cat):
    res = L2.apply(text)  # L2 alone, so the context pass itself is tested
    for g in gone:
        assert g not in res.text
    assert cat in {s.category for s in res.removed}
    assert all(s.level == "L2" and s.source.startswith("context:") for s in res.removed)
    assert deidentify(text, "L2").text == res.text or all(g not in deidentify(text, "L2").text for g in gone)


def test_same_tokens_without_anchor_are_kept():
    # identical shapes, no anchor: base scores stay below the threshold
    assert L2.apply("Riverside views: is the liver normal?").text.startswith("Riverside")
    assert L2.apply("Is the QX7741 protocol a CT?").removed == []


@pytest.mark.parametrize(
    "text",
    ["Patient has 2 lesions, the T2 one at C5-C6 is 5 cm: is it benign?", "Patient ID card shows the left lung: is it clear?",
     "Does the patient have pneumonia in the right lower lobe?", "Patient is a 45-year-old man: is the heart enlarged?"],
    ids=["counts_and_codes", "anchor_then_clinical", "patient_question", "age_under_90"],
)
def test_clinical_tokens_next_to_anchors_survive(text):
    assert L2.apply(text).text == text


def test_anchor_does_not_reach_across_sentences():
    text = "Patient unknown. Riverside views: any mass?"
    assert "Riverside" in L2.apply(text).text


def test_placeholder_neighbour_is_masked():
    # what L1 left next to a placeholder is suspicious ("[NAME] Okafor")
    res = L2.apply("Re: Pavla [NAME] / is there a lesion?")
    assert "Pavla" not in res.text


@pytest.mark.parametrize("text", ["RNs: [NAME] (B1-6), [NAME] (B7-12).", "0137 B11 [NAME] - AF w/ RVR"],
                         ids=["nurses_beds", "patients_bed"])
def test_a_bed_code_beside_a_placeholder_stays(text):
    assert L2.apply(text).text == text


def test_an_id_cue_still_takes_a_code_shaped_like_a_bed():
    assert "B12" not in deidentify("MRN B12 on the label", "L2").text


def test_threshold_controls_masking():
    text = "Patient Okafor asks: any mass?"
    assert ContextEnhancer(threshold=1.01).find(text) == []
    assert ContextEnhancer(threshold=0.6).find(text)


def test_window_limits_anchor_reach():
    text = "Patient is seen for the first time Okafor: any mass?"
    assert ContextEnhancer(window=2).find(text) == []
    assert ContextEnhancer(window=8).find(text)


# --- the shortcuts ContextEnhancer.find takes before _shape_score (class-cache rejects, the token
# memo) give _shape_score's answer: find on a cold cache (no shortcut can fire) equals find on a warm one
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from clinx.text import context as C  # noqa: E402
from clinx.text.evidence import _CLASS_CACHE, classify  # noqa: E402
from clinx.text.lexicons import fold  # noqa: E402

# capitalised, lower-case and numeric tokens, anchors and placeholders: the result may not depend on what the
# process classified before (it did for lower-case words and "B12" while the reject read the cache directly)
_FRAGMENTS = ["CHIEF", "COMPLAINT", "DAILY", "HIGH", "Riverside", "RIVERSIDE", "Okafor", "OKAFOR", "HOPE", "Will", "S/P",
              "PMH", "CAD", "4471", "QX7741", "3/14", "C5-C6", "12345678", "Patient", "MRN", "Dr.", "ID",
              "[NAME]", "[DATE]", "seen at", "lives in", ",", ".", ":", "\n", "Mercy", "Hospital", "STRASSE",
              "[LOCATION]", "high", "school", "braintree", "ruby", "b12", "B12", "okafor", "lasix"]


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(st.sampled_from(_FRAGMENTS), min_size=1, max_size=12))
def test_find_shortcuts_equal_the_full_scoring(parts):
    text = " ".join(parts)
    _CLASS_CACHE.clear()
    C._TOKEN_INFO.clear()
    cold = C.ContextEnhancer().find(text)
    for w in C._TOKEN_RE.findall(text):
        classify(fold(w), w)  # what L1's pass leaves in the cache
    warm = C.ContextEnhancer().find(text)
    assert cold == warm
    assert C.ContextEnhancer().find(text) == warm  # and with the token memo filled


def test_years_keep_reaches_l2_so_a_cued_year_stays():
    """text.years=keep is one setting: L1 keeps bare years and L2 no longer takes a year after a cue."""
    from clinx.text.pipeline import TextPipeline

    note = "Patient was born 1961, S/P MI 1992, admitted 3/14/2019."
    kept = TextPipeline("L2", l1={"years": "keep"}).run(note).text
    removed = TextPipeline("L2", l1={"years": "remove"}).run(note).text
    assert "1961" in kept and "1992" in kept and "3/14" not in kept
    assert "1961" not in removed and "1992" not in removed
    with pytest.raises(ValueError):
        C.ContextEnhancer(years="sometimes")


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(st.sampled_from(_FRAGMENTS + ["Hope's", "OKAFOR'S", "dr.", "born:", "pt", "2019", "0700", "45-year-old", "550x12", "Lasix", "xyzzy"]),
                      min_size=1, max_size=12))
def test_token_memo_skips_only_tokens_that_score_zero(parts):
    """What _token_info decides from a token's text alone holds wherever the token stands.

    A ``skip`` token is one find() would reject in any context (_shape_score gives it 0, or it is
    an anchor or a clinical word), and a token's memoised digit score is _shape_score's in context.
    """
    text = " ".join(parts)
    first, last = C.name_gazetteer()
    for m in C._TOKEN_RE.finditer(text):
        t, low, _, _, skip, digit_score, _ = C._token_info(m.group())[:7]
        for lower_text in (False, True):
            full = C._shape_score(t, low, m.start(), text, first, last, lower_text)
            if digit_score is not None:
                assert digit_score == full  # a token with a digit is scored on its characters alone
            if skip:
                # anchors are context, and a clinical word is never a candidate even with a digit ("b12")
                assert full[0] <= 0.0 or low in C.ANCHORS or low.rstrip(".:") in C.ANCHORS or classify(fold(t)) == "C", t


def test_token_memo_skip_is_not_vacuous():
    # the property above would pass if nothing were skipped; these must be
    info = {w: C._token_info(w)[4] for w in ("CAD", "lasix", "CHIEF", "the", "Patient", "5", "Okafor", "4471", "[NAME]")}
    assert info == {"CAD": True, "lasix": True, "CHIEF": True, "the": True, "Patient": True, "5": False,
                    "Okafor": False, "4471": False, "[NAME]": False}


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(st.sampled_from([".", "?", "!", ";", "\n", " ", "\t", "\u2003", "Dr", "x", "e.g", "a", "Smith", "3"]), max_size=14).map("".join))
def test_sentence_break_regex_equals_plain_form(text):
    """The sentence-break regex, written to start on one character set, finds the plain form's matches."""
    import re

    plain = re.compile(r"[.?!;\n]\s|\n")
    assert [m.span() for m in C._SENT_BREAK_RE.finditer(text)] == [m.span() for m in plain.finditer(text)]
