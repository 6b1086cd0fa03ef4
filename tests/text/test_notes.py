"""De-identification of real-style clinical notes: evidence, not capitals, decides.

The cases are those the issue reported (capitalised clinical words taken for
names, lower-case names, hospitals, towns and short dates left behind), the
overlay words H2's image re-scan must leave alone, the ``years`` setting, the
recogniser records and the annotated development notes. Test ids name the
*form*, never a value.
"""

import json
import re

import pytest

from clinx.text.base import TextResult
from clinx.text.dates import strip_year
from clinx.text.notes_eval import Note, blind_notes_path, dev_notes_path, load_dev_notes, load_i2b2_xml, removed_mask, score_notes
from clinx.text.pipeline import TextPipeline, deidentify, rescan
from clinx.text.recognizers import Recognizer
from clinx.text.rules import RuleLevel, RuleRecognizer

L2 = TextPipeline("L2")


def _out(text: str) -> str:
    return L2.run(text).text


# ----------------------------------------------------------------------------- clinical words stay


@pytest.mark.parametrize(
    "text",
    [
        "PMH: CAD, S/P MI, NIDDM, HTN",
        "CHIEF COMPLAINT: MENTAL STATUS CHANGES",
        "MEDS: COUMADIN 2.5 MG QD, LASIX 40 MG BID, LEVOTHYROXINE 75 MCG",
        "i&o 1200/900. a&ox3, vss. foley d/c'd, ambulated in hall",
        "EXAM: LETHARGIC BUT AROUSABLE, ORIENTED X1. IRREG IRREG. CRACKLES AT BASES BILAT.",
        "PTT 62, INR 1.1, Hct 38; heparin gtt, ASA 325 mg, Plavix 300 mg load",
        "DESCRIPTION: PT PLACED SUPINE, PREPPED AND DRAPED. HASSON TECHNIQUE AT UMBILICUS.",
        "F/U IN PULM CLINIC IN 1 WEEK.",
        "pt resting in bed, c/o 4/10 incisional pain, percocet 5/325 mg 1 tab given",
        "BP 120/80 HR 72, Na 135, K 4.1, carbidopa/levodopa 25/100 TID, DELIRIUM 2/2 UTI",
        "ORIENTED, STRENGTH 5/5 BLE. MoCA 19/30.",
        "seen at 14:30, oxycodone 5 mg q6h prn x3 days, repeat in 2 weeks",
        "Foley catheter placed; Hasson technique; Crohn's disease; Baker cyst",
    ],
    ids=[
        "pmh_abbreviations", "caps_header", "caps_meds", "lower_nursing_abbrevs", "caps_exam", "labs_and_drugs",
        "caps_op_note", "service_clinic", "pain_scale_and_dose", "vitals_labs_ratio", "strength_and_score",
        "times_and_durations", "eponyms",
    ],
)
def test_clinical_text_survives_l2(text):
    assert _out(text) == text


def test_reported_pmh_line_keeps_its_abbreviations_and_loses_the_year():
    out = _out("PMH: CAD, S/P MI 1992")
    assert out == "PMH: CAD, S/P MI [DATE]"


# ----------------------------------------------------------------------------- identifiers go, in any case


@pytest.mark.parametrize(
    "text,gone",
    [
        ("plan d/w dr hunter, d/c tomorrow", ["hunter"]),
        ("attending dr. o'halloran agrees", ["halloran"]),
        ("Lives with wife Hope who is HCP", ["Hope"]),
        ("son bill will pick pt up", ["bill"]),
        ("Cath in AM with Dr. Mark Feldstein.", ["Mark", "Feldstein"]),
        ("DISCUSSED WITH DAUGHTER GRACE MCALLISTER", ["GRACE", "MCALLISTER"]),
        ("ATTENDING: WILL BRENNAN, MD", ["WILL", "BRENNAN"]),
        ("d/w dr nakamura (cards fellow) and attending dr goldberg", ["nakamura", "goldberg"]),
        ("RN Tamika called for hypotension", ["Tamika"]),
        ("Thomas Whitfield, MD, FACC", ["Thomas", "Whitfield"]),
        ("PATIENT: RODRIGUEZ, CARMEN   MRN: 7734021", ["RODRIGUEZ", "CARMEN", "7734021"]),
        ("pcp dr lindqvist to f/u in 1 wk", ["lindqvist"]),
    ],
    ids=[
        "lower_after_dr", "lower_apostrophe_after_dr", "ambiguous_after_wife", "ambiguous_after_son",
        "ambiguous_given_after_title", "caps_after_relation", "caps_after_label", "lower_two_doctors", "after_role",
        "before_credential", "caps_last_comma_first", "lower_rare_surname",
    ],
)
def test_names_found_on_evidence(text, gone):
    out = _out(text)
    for g in gone:
        assert g not in out


@pytest.mark.parametrize(
    "text,kept",
    [
        ("no hope of recovery per family", "hope"),
        ("Mark the site before surgery", "Mark"),
        ("pt will follow up", "will"),
        ("may need repeat CT", "may"),
        ("grace period for insurance", "grace"),
    ],
    ids=["hope_word", "mark_verb", "will_verb", "may_verb", "grace_word"],
)
def test_ambiguous_names_without_evidence_are_kept(text, kept):
    assert kept in _out(text)


@pytest.mark.parametrize(
    "text,gone",
    [
        ("Transferred from Metrowest Medical Center for cath.", ["Metrowest"]),
        ("TREATED FOR UTI AT SOUTH SHORE HOSPITAL WITH CIPRO", ["SOUTH", "SHORE"]),
        ("pci to lad at beth israel, c/b shock", ["beth", "israel"]),
        ("Transferred from MWMC for cath.", ["MWMC"]),
        ("f/u at BMC fracture clinic", ["BMC"]),
        ("lives in somerville with partner", ["somerville"]),
        ("presents from Framingham with chest pressure", ["Framingham"]),
        ("FROM QUINCY BROUGHT IN BY DAUGHTER", ["QUINCY"]),
        ("Mailed to 22 Wendell St, Cambridge", ["Wendell", "Cambridge"]),
        ("Admitted to St. Vincent's for pneumonia.", ["Vincent", "'s"]),
        ("Echo done at Lowell General Hospital, Chelmsford.", ["Lowell", "Chelmsford"]),
    ],
    ids=["medical_center", "caps_hospital", "lower_hospital_after_at", "acronym_after_from", "acronym_after_at",
         "lower_town_after_lives_in", "town_after_from", "caps_town", "street_and_town", "saint_possessive",
         "town_after_institution"],
)
def test_institutions_and_places(text, gone):
    out = _out(text)
    for g in gone:
        assert g not in out


@pytest.mark.parametrize(
    "text,gone",
    [
        ("s/p pci to lad 7/22 at the cath lab", "7/22"),
        ("S/P CVA '09 WITH RESIDUAL L HEMIPARESIS", "'09"),
        ("Admission note 7/22/05", "7/22/05"),
        ("f/u on a lesion seen on Jan 3rd", "Jan 3rd"),
        ("nursing note june 3rd", "june 3rd"),
        ("Date of procedure: 3rd of June 2022", "3rd of June 2022"),
        ("She was last seen on the 14th of last month", "14th"),
        ("hospitalized in March 2018", "March 2018"),
        ("recheck inr thurs", "thurs"),
        ("I will see her again in November.", "November"),
        ("PULM CLINIC MAY 3.", "MAY 3"),
        ("bed 14, adm 3/3 w/ l mca stroke", "3/3"),
        ("plan d/c 3/4 if ag closed", "3/4"),
        ("adm 19/11 w/ delirium ?uti", "19/11"),
        ("SANG IN CHOIR UNTIL 2012. LIKES GOSPEL", "2012"),
        ("MRI 2023: L MESIAL TEMPORAL SCLEROSIS.", "2023"),
        ("2 admissions this yr (Jan, Mar) for aspiration PNA.", "Mar"),
        ("PLAVIX 75 (STOPPED ON HIS OWN ~JAN).", "JAN"),
        ("for bp, ran out may. no known stroke", "may"),
        ("Last DXA in 2016: T-score -3.1", "2016"),
        ("PSH: cataracts OU 2015/2016, R TKA", "2015"),
        ("HFpEF (EF 60%, echo May '23), hypothyroid", "May"),
        ("dementia dx fall 2021, bell's palsy", "fall"),
        ("UBW 70 kg in fall '23", "fall"),
        ("wound care f/u 4/4\npt: seen", "4/4"),
        ("bell's palsy, onset 1/2 (dx at ed).", "1/2"),
    ],
    ids=["month_day", "apostrophe_year", "short_year", "month_ordinal", "lower_month_ordinal", "ordinal_of_month",
         "the_ordinal", "month_year", "weekday_abbrev", "month_alone", "caps_month_day", "equal_halves_after_adm",
         "after_discharge_short", "day_first_after_adm", "year_ending_a_span", "study_year_before_findings",
         "months_listed_together", "approximate_month", "may_closing_its_clause_after_out", "year_before_colon_after_in",
         "two_years_with_a_slash", "may_before_apostrophe_year", "fall_after_dx", "fall_before_apostrophe_year",
         "equal_halves_after_follow_up", "half_after_onset"],
)
def test_dates_as_clinicians_write_them(text, gone):
    assert gone not in _out(text)


@pytest.mark.parametrize("text", ["NPO until 2100 tonight", "hold heparin until 2000", "2030: pt resting, no distress",
                                  "we may stop the drip", "ran out of meds", "ratio 2019/2015 taken", "onset 1/2 hour ago"],
                         ids=["round_clock_ending_a_span", "round_clock_after_until", "time_stamped_entry", "may_the_verb",
                              "out_of", "later_year_first", "half_an_hour_after_onset"])
def test_clock_times_stay(text):
    assert _out(text) == text


def test_a_fall_in_a_year_keeps_its_word():
    assert _out("s/p fall 2019 with hip fx") == "s/p fall [DATE] with hip fx"


def test_ages_over_89_in_capitals():
    assert _out("91 YO F FROM HOME") == "[AGE] YO F FROM HOME"
    assert "45" in _out("45 YO F FROM HOME")


# ----------------------------------------------------------------------------- years setting


def test_years_keep_leaves_every_year_in_place():
    keep = TextPipeline("L1", l1={"years": "keep"})
    assert keep.run("S/P MI 1992, CVA '09").text == "S/P MI 1992, CVA '09"
    out = keep.run("DOB 03/14/1961 and seen March 14, 1961").text
    assert out.count("1961") == 2 and "03/14" not in out and "March 14" not in out
    remove = TextPipeline("L1")
    assert "1992" not in remove.run("S/P MI 1992").text and "1961" not in remove.run("DOB 03/14/1961").text
    with pytest.raises(ValueError):
        RuleRecognizer(years="sometimes")


def test_strip_year_forms():
    t = "03/14/1961"
    assert strip_year(t, 0, len(t)) == (0, 5)
    t = "1961-03-14"
    assert strip_year(t, 0, len(t)) == (5, 10)
    assert strip_year("'92", 0, 3) is None


# ----------------------------------------------------------------------------- overlay text (image re-scan)

OVERLAY_PHI = [
    ("dotted_date", "07.16.1953"), ("dmy_caps_month", "16-JUL-1953"), ("compact_date", "20190304"), ("short_date", "3/4/19"),
    ("mrn", "MRN: 0048213377"), ("accession", "Acc: E12834471"), ("id", "ID 4471092"), ("phone", "(617) 555-0199"),
    ("email", "jdoe@example.org"), ("name_label", "Name: DOE"), ("pt_label", "Pt: SMITH"), ("dr", "Dr. Okafor"),
    ("ref", "Ref: Kowalski"), ("dicom_name", "DOE^JOHN"), ("dob_label", "DOB: 07/16/1953"),
]
OVERLAY_CLEAN = [
    "L", "R", "LT", "RT", "LA6", "PORTABLE", "AP", "PA", "SUPINE", "ERECT", "Semi-Upright", "Name:", "DOB:", "MRN:",
    "5 cm", "10 mm", "120 kVp", "2.5 mAs", "kV 80", "CHEST", "CT", "MR", "PORTABLE AP SUPINE", "CHEST PA ERECT",
    "L SEMI-UPRIGHT", "W: 400 L: 40", "FOV 36 cm",
]


@pytest.mark.parametrize("text", [t for _, t in OVERLAY_PHI], ids=[k for k, _ in OVERLAY_PHI])
def test_overlay_identifiers_are_found_by_rescan(text):
    hits = rescan(text)
    assert hits
    covered = set()
    for h in hits:
        covered.update(range(h.start, h.end))
    # the value itself (the digits or the name after a label) is covered
    value = re.sub(r"^(?:MRN|Acc|ID|Name|Pt|Dr\.|Ref|DOB):?\s*", "", text)
    start = text.index(value)
    assert any(ch.isalnum() and k + start in covered for k, ch in enumerate(value))


@pytest.mark.parametrize("text", OVERLAY_CLEAN)
def test_overlay_scanner_words_are_not_flagged(text):
    assert rescan(text) == []


# ----------------------------------------------------------------------------- records


def test_a_recogniser_is_one_record():
    rec = Recognizer("bed_no", r"\bbed\s(?P<v>\d{1,3}[A-Z])\b", "ID", 0.9, context=("room", "in"), needs_context=True)
    m = rec.compiled.search("in bed 12B now")
    assert rec.check(m, "in bed 12B now") == (7, 10)
    m = rec.compiled.search("the bed 12B now")
    assert rec.check(m, "the bed 12B now") is None
    lex = Recognizer("ward_word", None, "LOCATION", lexicon=frozenset({"ellison"}))
    assert lex.compiled is None
    with pytest.raises(ValueError):
        Recognizer("neither", None, "ID")


# ----------------------------------------------------------------------------- development notes and scoring


def test_dev_notes_file_is_well_formed():
    lines = dev_notes_path().read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 60
    notes = load_dev_notes()
    assert {n.split for n in notes} == {"tune", "heldout"}
    assert {n.style for n in notes} >= {"caps", "lower", "telegraphic", "mixed"}
    for d in map(json.loads, lines):
        for s, e, cat in d["spans"]:
            assert 0 <= s < e <= len(d["text"]) and d["text"][s:e].strip() == d["text"][s:e]


def test_blind_notes_are_their_own_set():
    # written by an agent that never saw the code: a set apart, never in the tuning file
    blind = load_dev_notes(path=blind_notes_path())
    assert len(blind) >= 20 and {n.split for n in blind} == {"blind"}
    assert {n.style for n in blind} == {"caps", "lower", "telegraphic", "mixed"}
    assert not {n.id for n in blind} & {n.id for n in load_dev_notes()}
    assert not {n.text for n in blind} & {n.text for n in load_dev_notes()}
    for n in blind:
        assert all(0 <= s < e <= len(n.text) and n.text[s:e].strip() == n.text[s:e] for s, e, _ in n.spans)
        assert list(n.spans) == sorted(n.spans)


def test_dev_notes_scores_hold():
    # a regression guard on the tuning split (the held-out split is reported, never asserted on)
    notes = load_dev_notes("tune")
    masks = [removed_mask(n.text, L2.run(n.text)) for n in notes]
    sc = score_notes(notes, masks)
    assert sc.recall >= 0.9 and sc.precision >= 0.85 and sc.retention >= 0.97


def test_removed_mask_maps_l2_spans_through_l1_placeholders():
    text = "Patient john smith, record QX7741."
    res = deidentify(text, "L2", keep_values=True)
    mask = removed_mask(text, res)
    removed = "".join(ch for ch, m in zip(text, mask) if m)
    assert "QX7741" in removed and "john" in removed and "record" not in removed
    assert removed_mask("abc", TextResult("abc")) == [False, False, False]


def test_scoring_counts_a_half_removed_name_as_a_miss():
    note = Note("x", "Dr Ann Lee saw pt", ((3, 10, "NAME"),))
    half = [k in range(3, 6) for k in range(len(note.text))]
    full = [k in range(3, 10) for k in range(len(note.text))]
    over = [k in range(0, 10) for k in range(len(note.text))]
    assert score_notes([note], [half], term_finder=lambda t: []).recall == 0.0
    assert score_notes([note], [full], term_finder=lambda t: []).recall == 1.0
    sc = score_notes([note], [over], term_finder=lambda t: [])
    assert sc.recall == 1.0 and sc.precision == pytest.approx(6 / 8)


def test_i2b2_xml_reader(tmp_path):
    p = tmp_path / "n.xml"
    p.write_text(
        "<?xml version='1.0' encoding='utf8'?>\n<deIdi2b2><TEXT><![CDATA[Seen 2069-04-07 by Tavares, age 45, age 93]]></TEXT><TAGS>"
        '<DATE TYPE="DATE" start="5" end="15" text="2069-04-07" />'
        '<NAME TYPE="DOCTOR" start="19" end="26" text="Tavares" />'
        '<AGE TYPE="AGE" start="32" end="34" text="45" />'
        '<AGE TYPE="AGE" start="40" end="42" text="93" />'
        "</TAGS></deIdi2b2>",
        encoding="utf-8",
    )
    note = load_i2b2_xml(p)
    assert note.spans == ((5, 15, "DATE"), (19, 26, "NAME"), (40, 42, "AGE"))  # ages under 90 are no identifiers
    assert note.text[19:26] == "Tavares"


def test_the_stored_formats_keep_the_gold_spans_on_their_text():
    from clinx.text.notes_eval import Note, hard_wrapped, with_crlf

    note = Note("f1", "Seen by Dr. John Smith today\nat Mercy Hospital, Springfield, for a fall at home.\nok",
                ((12, 22, "NAME"), (32, 47, "HOSPITAL"), (49, 60, "LOCATION")))
    crlf = with_crlf(note)
    assert crlf.text.count("\r\n") == 2
    assert [crlf.text[a:b] for a, b, _ in crlf.spans] == [note.text[a:b] for a, b, _ in note.spans]
    wrapped = hard_wrapped(note, 20)
    assert len(wrapped.text) == len(note.text) and wrapped.spans == note.spans
    assert all(len(line) <= 20 for line in wrapped.text.split("\n"))
    assert [wrapped.text[a:b].replace("\n", " ") for a, b, _ in wrapped.spans] == [note.text[a:b] for a, b, _ in note.spans]
    assert "John\nSmith" in hard_wrapped(note, 16).text  # (a name may run across a wrap)
