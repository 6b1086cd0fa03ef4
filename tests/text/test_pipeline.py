"""The level pipeline: cumulative application, audit trail, registry, rescan."""

import subprocess
import sys
from pathlib import Path

import pytest

from clinx.records import Manifest
from clinx.text import TEXT_LEVELS, deidentify, rescan
from clinx.text.base import PLACEHOLDER_RE, RemovedSpan, TextLevel, TextResult, digest_value
from clinx.text.levels import make_level, normalize_level
from clinx.text.pipeline import TextPipeline

ROOT = Path(__file__).resolve().parents[2]
Q = "Patient john smith (MRN 48213377), DOB 03/14/1961: is the left lung clear?"


def test_registry_has_all_levels_and_l3_is_lazy():
    assert TEXT_LEVELS.names() == ["L0", "L1", "L2", "L3"]
    for name in ("L0", "L1", "L2"):
        assert isinstance(make_level(name), TextLevel)
    assert callable(TEXT_LEVELS.get("L3"))
    # registering L3 must not import the rewrite / LLM stack: check in a fresh interpreter
    code = "import sys, clinx.text.levels, clinx.text.pipeline; print('clinx.text.rewrite' in sys.modules, 'llama_cpp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.stdout.split() == ["False", "False"], out.stderr[-500:]


def test_normalize_level():
    assert normalize_level(2) == "L2" and normalize_level("l1") == "L1"
    with pytest.raises(KeyError):
        normalize_level("L9")


def test_l0_is_identity():
    res = deidentify(Q, "L0")
    assert res.text == Q and res.removed == [] and res.level == "L0"


def test_levels_are_cumulative():
    q = Q.replace("1961:", "1961, record QX7741:")
    l1 = deidentify(q, "L1")
    l2 = deidentify(q, "L2")
    # L2 = T2(T1(q)): running L2 alone on the L1 output gives the same text
    assert make_level("L2").apply(l1.text).text == l2.text
    assert [s for s in l2.removed if s.level == "L1"] == l1.removed
    # lower-case names are found at L1 already (lexicons, not capitals, decide)
    assert "john" not in l1.text and "smith" not in l1.text
    assert "QX7741" in l1.text  # a code after a plain word: rules do not fire ...
    assert "QX7741" not in l2.text  # ... context does
    assert "is the left lung clear?" in l2.text


def test_audit_trail_holds_digests_not_values():
    res = deidentify(Q, "L2", salt="k")
    assert res.removed and all(isinstance(s, RemovedSpan) for s in res.removed)
    assert all(s.value is None for s in res.removed)
    dump = str([s.to_dict() for s in res.removed])
    assert "48213377" not in dump and "smith" not in dump
    mrn = next(s for s in res.removed if s.category == "MRN")
    assert mrn.digest == digest_value("48213377", "k") != digest_value("48213377", "other")
    kept = deidentify(Q, "L2", keep_values=True)
    assert {s.value for s in kept.removed} >= {"48213377", "03/14/1961"}


def test_spans_index_their_level_input():
    res = deidentify(Q, "L1")
    for s in res.removed:
        assert Q[s.start : s.end]  # non-empty slice of the original
    text_l1 = res.text
    l2 = deidentify(Q, "L2")
    for s in l2.removed:
        if s.level == "L2":
            assert not PLACEHOLDER_RE.fullmatch(text_l1[s.start : s.end])


@pytest.mark.parametrize("bad", [None, 42, b"bytes", ["a"]], ids=["none", "int", "bytes", "list"])
def test_non_text_raises_type_error(bad):
    with pytest.raises(TypeError, match="expects str"):
        deidentify(bad, "L2")


def test_empty_text():
    for lv in ("L0", "L1", "L2"):
        assert deidentify("", lv).text == ""
    assert rescan("") == []


def test_max_chars_guard():
    with pytest.raises(ValueError, match="max_chars"):
        TextPipeline("L1", max_chars=10).run("x" * 11)


def test_rescan_finds_residue_and_ignores_placeholders():
    m = Manifest(fields={"patient_name": "Jane Roe", "mrn": "48213377"})
    assert rescan("Is [NAME]'s left lung clear? [MRN] [DATE]", m) == []
    found = rescan("Is Roe's left lung clear?", m)
    assert found and all(s.level == "rescan" and s.value is None for s in found)
    assert {s.category for s in rescan("Dr. Alan Turing saw MRN 48213377")} >= {"NAME", "MRN"}
    # context part of the rescan: lower-case name after a cue
    assert rescan("patient jane roe: any effusion?")


def test_result_counts_and_dict():
    res = deidentify(Q, "L2")
    assert sum(res.counts().values()) == len(res.removed)
    d = res.to_dict()
    assert d["level"] == "L2" and d["accepted"] is True and len(d["removed"]) == len(res.removed)


def test_pipeline_passes_params_to_levels():
    q = "Record QX7741: is the left lung clear?"
    assert "QX7741" in TextPipeline("L2", l2={"threshold": 5.0}).run(q).text
    assert "QX7741" not in TextPipeline("L2").run(q).text
    no_manifest = TextPipeline("L1", l1={"use_manifest": False})
    m = Manifest(fields={"other_id": "zz-top"})
    assert "zz-top" in no_manifest.run("is zz-top ok?", m).text
    assert "zz-top" not in TextPipeline("L1").run("is zz-top ok?", m).text


class _Upper:
    """A toy L3 honouring the TextLevel protocol, to check the pipeline contract."""

    name = "L3"

    def apply(self, text, manifest=None):
        return TextResult(text=text.upper(), removed=[], level="L3", accepted=False, notes={"reason": "toy"})


def test_pipeline_chains_a_level_and_collects_notes():
    pipe = TextPipeline("L2")
    pipe.levels.append(_Upper())
    res = pipe.run(Q)
    assert res.text == deidentify(Q, "L2").text.upper()
    assert res.accepted is False and res.notes == {"L3": {"reason": "toy"}}


def test_process_salt_digest_is_the_keyed_blake2b_of_the_value():
    # the cached keyed state (copied per value) must give the digest of keying anew each time
    import hashlib

    from clinx.text import base

    for v in ("48213377", "Jöhn Smith", "\udc80x", ""):
        want = hashlib.blake2b(v.encode("utf-8", "surrogatepass"), key=base._PROCESS_SALT, digest_size=8).hexdigest()
        assert digest_value(v) == want
    assert digest_value("a") != digest_value("b")


NOTE_LF = (
    "PHONE NOTE 3/14 0930\nSpoke w/ daughter Ines Ruiz re: d/c plan, agrees.\nFax to Lakeview Manor 555-0178 ext 31.\n"
    "Pt resting.\n-- kt/rn\n"
)


@pytest.mark.parametrize("ending", ["\r\n", "\r"], ids=["windows", "old_mac"])
def test_a_note_with_other_line_ends_loses_what_it_would_with_line_feeds(ending):
    """Notes exported from Windows end their lines with "\\r\\n": the recognisers read a line's end as "\\n", so a
    signature closing its line ("-- kt/rn") went unread. The same note, line ends apart, loses the same spans, and the
    output keeps the note's own line ends."""
    from clinx.text.pipeline import TextPipeline

    pipe = TextPipeline("L2")
    lf = pipe.run(NOTE_LF)
    other = pipe.run(NOTE_LF.replace("\n", ending))
    assert other.text == lf.text.replace("\n", ending)
    assert "kt" not in other.text and "Ines" not in other.text and "31" not in other.text


WRAPPED = (
    "HPI: 67 y/o woman admitted from home after a fall, seen in the ED by Dr.\n"
    "Okafor who called her daughter Grace Hill at work to say she would be kept\n"
    "overnight for observation and a repeat CT in the morning; pt follows with\n"
    "Dr. Patel at Lakeview Family Medicine in Springfield since 2015 for HTN.\n"
    "PLAN:\n"
    "- telemetry, PT/OT eval\n"
    "- d/c planning with SW\n"
)


def test_a_hard_wrapped_paragraph_reads_as_one_line():
    from clinx.text.pipeline import line_view, soft_wraps

    wraps = soft_wraps(WRAPPED)
    assert [WRAPPED[k - 3 : k] for k in wraps] == ["Dr.", "ept", "ith"]  # the paragraph's three wraps, nothing after
    view = line_view(WRAPPED)
    assert len(view) == len(WRAPPED) and "Dr. Okafor" in view and "PLAN:\n- telemetry" in view


@pytest.mark.parametrize(
    "text",
    ["Pt resting comfortably in bed, call light in reach.\nDaughter at bedside overnight.\nVS stable.\n-- kt/rn\n",
     "PT: OKAFOR, GRACE      MRN 4471209      DOB 3/4/1951\nADM: 3/14/2024 FROM HOME WITH DAUGHTER\n"
     "ATTENDING: DR. PATEL, CARDIOLOGY SERVICE\nALLERGIES: NKDA\n",
     "Assessment and plan for the afternoon visit today:\nContinue current regimen as discussed with the whole team\n"
     "Follow up in two weeks\nReturn precautions reviewed with pt and family at the bedside today\nMD aware\n"],
    ids=["typed_short_lines", "header_fields", "typed_lines_of_varied_width"],
)
def test_typed_lines_are_not_joined(text):
    from clinx.text.pipeline import soft_wraps

    assert soft_wraps(text) == []


WRAPPED_NARROW = (
    "Pt states he stays at Harbor Light\n"
    "Shelter on Wharf St most nights since\n"
    "March; meds filled at Safeway\n"
    "pharmacy on Sandy Blvd. Husband works\n"
    "nights at Lakeland Foods, will call.\n"
)


def test_an_institution_across_a_wrap_is_removed_and_the_wrap_stays():
    out = deidentify(WRAPPED_NARROW, "L2").text
    assert "Shelter" not in out and "Harbor" not in out and "Lakeland" not in out
    assert "since\n" in out and "works\nnights" in out  # (a wrap inside a removed name goes with the name)


NOTE_CAPS = (
    "MEDIC 12 RUN\nDISP 0214 TO BACKSTOP (BAR), 88 CANAL ST, MILLBURY.\nBYSTANDER STATES PT WORKS AT THE CAR WASH ACROSS THE "
    "STREET - SUDSY'S.\nNARCAN 2 MG IN -> RR 14, GCS 14.\nTRANSPORT TO MERCY GENERAL, ETA 0251."
)


@pytest.mark.parametrize("note", [NOTE_LF, NOTE_CAPS], ids=["mixed_case", "capitals"])
def test_no_break_spaces_between_words_lose_what_blanks_would(note):
    """Word processors and web forms write no-break spaces between words; the statistical layer read them as no
    blank ("SUDSY'S" went unread in the capitals note)."""
    pipe = TextPipeline("L2")
    plain = pipe.run(note)
    nbsp = pipe.run(note.replace(" ", "\xa0"))
    assert [(s.start, s.end) for s in nbsp.removed] == [(s.start, s.end) for s in plain.removed]
