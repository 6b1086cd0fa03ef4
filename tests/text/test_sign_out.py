"""Patients' names in sign-out, handoff and census lists, between the bed and the age and sex (clinx.text.sign_out).
Values are invented; test ids name the form, never a value."""

import pytest

from clinx.text.clinical import CLINICAL_CODE_RE
from clinx.text.pipeline import deidentify
from clinx.text.sign_out import AGE_SEX_RE, find_listed_patients


def _found(line: str) -> list[str]:
    return [line[c.start : c.end] for c in find_listed_patients(line) if c.category == "NAME"]


@pytest.mark.parametrize(
    "line, name",
    [
        ("Bed 17 – J.T., 44F, EtOH w/d, CIWA q4h", "J.T."),
        ("Rm 5 – Bertrand, H. 67M, lithium tox resolved", "Bertrand, H."),
        ("bed 1 - r.t. 45m gsw abd s/p ex lap x2", "r.t."),
        ("8W-05 Mahlangu, S. 23M open tib-fib fx", "Mahlangu, S."),
        ("FT6 — Borowski, Ed 57M, back pain", "Borowski, Ed"),
        ("703 foster kid j.d. 2 yo, failure to thrive", "j.d."),
        ("• 9E-12 Strand 71M MSSA bacteremia, TEE neg", "Strand"),
        ("• MICU-4 Nakamura-Reid 36F neutropenic fever", "Nakamura-Reid"),
        ("- 3W FALL — LOWENTHAL, ROSE 96 Y/O, NO INJURY", "LOWENTHAL, ROSE"),
        ("5S-24 \"Tiny\" Loughlin 48M LLE cellulitis", "\"Tiny\" Loughlin"),
    ],
    ids=["initials-after-bed-dash", "surname-initial", "lower-initials", "unit-bed-label", "surname-given-that-is-an-abbreviation",
         "initials-after-words", "word-surname-after-bed", "hyphenated-after-unit", "caps-surname-given", "nickname"],
)
def test_the_name_between_a_bed_and_the_age_and_sex_is_found(line, name):
    assert _found(line) == [name]


@pytest.mark.parametrize(
    "line",
    [
        "Bed 4: elderly 78F with confusion",
        "HPI: pleasant 45M with cp",
        "bed 3 - obese 45m, sob",
        "Young 45M with cp",
        "walked 45m with rw",
        "HPI: 67 yo M with CHF",
        "Pt is a 45 y/o F",
        "CC: SOB 67M",
        "d/c. 58 yo M w/ EtOH use",  # the end of an abbreviation is no initial
        "Met pt bedside rm 612B. 41F, 2 kids",
        "pt's 3 yo son with neighbour",
    ],
    ids=["adjective-after-bed", "adjective-after-field", "adjective-lower", "word-at-line-start", "distance",
         "age-first", "article", "clinical-word", "abbreviation-dot", "room-letter", "possessive-of-patient"],
)
def test_words_of_a_sentence_before_an_age_are_no_name(line):
    assert _found(line) == []


def test_the_age_and_sex_forms():
    for form in ("44F", "23 M", "45m", "96 Y/O", "2 yo", "61 y.o.", "93 y/o"):
        assert AGE_SEX_RE.fullmatch(form), form
    for other in ("5 mg", "45 min", "120/80", "x3", "2l"):
        assert AGE_SEX_RE.search(other) is None, other


def test_a_sign_out_list_loses_its_names_and_keeps_its_problems():
    note = ("NIGHT SIGN-OUT 3/19\n"
            "Bed 17 – J.T., 44F, EtOH w/d, CIWA q4h\n"
            "• 9E-12 Strand 71M MSSA bacteremia, TEE neg\n"
            "8W-05 Mahlangu, S. 23M open tib-fib fx\n")
    out = deidentify(note, "L2").text
    for value in ("J.T.", "Strand", "Mahlangu", " S. "):
        assert value not in out, out
    for kept in ("CIWA q4h", "MSSA bacteremia", "tib-fib fx", "44F", "71M"):
        assert kept in out, out


def test_gravida_and_para_are_a_clinical_code_not_an_identifier():
    assert CLINICAL_CODE_RE.fullmatch("G3P1011") and CLINICAL_CODE_RE.fullmatch("g1p0")
    out = deidentify("Pt Malia Kekumu, 28 y/o G3P1011 @ 39w2d by 8 wk US", "L2").text
    assert "G3P1011" in out and "Kekumu" not in out


def test_an_age_over_89_in_a_list_item_or_after_a_dash_goes():
    out = deidentify('rm 4 "jojo" castellanos 98 m, end stage dementia', "L2").text
    assert "98" not in out and "castellanos" not in out
    assert "92" not in deidentify("• 705 Mrs. Goldfarb — 92, aspiration PNA, Zosyn day 4.", "L2").text
    assert "92" not in deidentify("Bed 3 - 92F chf", "L2").text


@pytest.mark.parametrize(
    "text", ["6MWT 210 m, nadir SpO2 86%", "no working AC (indoor temp 91 F).", "HR 110 - 100 bpm", "Tmax: 101F overnight",
             "T: 99 F, HR 88"],
    ids=["walk-distance", "temperature", "rate-range", "fever-after-a-field", "spaced-fever-after-a-field"],
)
def test_distances_temperatures_and_rates_are_no_ages(text):
    assert deidentify(text, "L2").text == text


@pytest.mark.parametrize(
    "text, name",
    [("Night: Aisling", "Aisling"), ("NNP off: Hollis (ext 7402) | NNP on: Oyinda", "Oyinda"),
     ("NIGHT: ACKERLEY / DAY TEAM: BOATENG", "ACKERLEY")],
    ids=["word-name-capitalised", "after-a-bar", "caps-before-a-slash"],
)
def test_the_clinician_after_a_shift_label_is_found(text, name):
    from clinx.text.sign_out import find_shift_names

    assert name in [text[c.start : c.end] for c in find_shift_names(text)]


@pytest.mark.parametrize("text", ["Night: stable, no events", "Off: keppra", "Day: 3 of abx", "night: quiet", "On: TBD"],
                         ids=["finding", "drug", "count", "lower-word", "placeholder-value"])
def test_what_a_shift_label_reports_is_no_name(text):
    from clinx.text.sign_out import find_shift_names

    assert find_shift_names(text) == []


def _team_sources(text: str, source: str | None = None) -> list:
    from clinx.text.sign_out import find_team_names

    return [c for c in find_team_names(text, []) if source is None or c.source == source]


def _assert_removed(text: str, names: list[str]) -> None:
    out = deidentify(text, "L2").text.replace("[NAME]", "")
    for name in names:
        assert name not in out


@pytest.mark.parametrize(
    "text, names",
    [
        ("consults pending: ortho (hill), ir (cook), nutrition (page)", ["hill", "cook", "page"]),
        ("Palliative (Hope) following. Port removed by IR (Cook) yesterday.", ["Hope", "Cook"]),
        ("PEDS SIGN-OUT\nDAY TEAM (BROWN) → NIGHT (ARTIE/SUNNY)", ["BROWN", "ARTIE", "SUNNY"]),
        ("teams: A (Nguyen/Fox)  B (Hill/Cook)", ["Fox", "Hill", "Cook"]),
        ("Hgb 7.9 after ORIF 7/20 (ortho Rao), f/u plan", ["Rao"]),
        ("0615 called on-call np (hill) via answering svc", ["hill"]),
    ],
    ids=["services-lower", "services-mixed", "teams-caps-slash", "team-letters", "service-inside", "role-before"],
)
def test_a_surname_in_parentheses_after_a_service_is_found(text, names):
    _assert_removed(text, names)


@pytest.mark.parametrize(
    "text",
    [
        "ambulated 20 ft w pt (physical) and rw",
        "EXERCISING IN ROOM AT NIGHT (SIT-UPS).",
        "baby in NICU (TTN) - ok to visit",
        "Avoid Percocet per pt (nausea); on Tylenol",
        "ortho (hip precautions) reviewed",
        "trials: fluoxetine (gi se), bupropion",
        "Cardiology consult (tele) requested",
    ],
    ids=["word", "hyphenated-words", "abbreviation", "symptom", "two-words", "short", "venue-word"],
)
def test_what_parentheses_after_a_service_say_is_kept(text):
    assert _team_sources(text) == []


@pytest.mark.parametrize(
    "text, names",
    [
        ("date: 3/14   hand-off hill -> cook (cross-cover 1900-0700)", ["hill", "cook"]),
        ("sign-out 12/26 0700 — Gupta → Young\nPod B", ["Young"]),
        ("CHARGE RN: MAY -> LONG   OB: DR OSEI", ["MAY", "LONG"]),
        ("SIGN OUT BROWN -> NAKASHIMA AT 1900", ["BROWN"]),
    ],
    ids=["cue-lower", "beside-a-name", "charge-caps", "sign-out-caps"],
)
def test_both_sides_of_a_hand_off_are_found(text, names):
    _assert_removed(text, names)


@pytest.mark.parametrize(
    "text",
    ["rhythm: afib -> nsr after dilt", "diet: npo -> clears -> regular", "dispo: home -> snf if pt fails",
     "hand-off: iv -> po abx today", "cr 1.2 -> 3.4 overnight"],
    ids=["rhythms", "diets", "dispositions", "routes", "values"],
)
def test_an_arrow_between_words_is_no_hand_off(text):
    assert _team_sources(text, "rule:handoff") == []


@pytest.mark.parametrize(
    "text, names",
    [
        ("0840 no call back, re-paged king x2", ["king"]),
        ("req transfer for ERCP, d/w May, accepted", ["May"]),
        ("if distended or febrile call hill.", ["hill"]),
        ("0149 re-paged rose, also paged ic attending", ["rose"]),
    ],
    ids=["re-paged-count", "discussed-with-comma", "call-at-clause-end", "re-paged-comma"],
)
def test_whom_a_call_log_reached_is_found(text, names):
    _assert_removed(text, names)


@pytest.mark.parametrize(
    "text",
    ["pt to use call bell.", "det. ruiz wants a call before d/c.", "Case Management Call List — unit 4",
     "paged renal re cr 3.4", "d/w family re may need snf", "Will call back. d/w pt, agrees."],
    ids=["call-bell", "call-before", "title-case-heading", "service-paged", "lower-word-in-mixed-case", "patient"],
)
def test_what_a_call_log_calls_is_no_name(text):
    assert _team_sources(text, "rule:called") == []


@pytest.mark.parametrize(
    "text, names",
    [
        ("chief: brown | seniors: pak / arturo | interns: long, fenwick", ["brown", "long"]),
        ("ATTG: HILL | CHIEF: DIAZ-MORENO | NP: ROSE", ["HILL", "ROSE"]),
        ("DAY: PATEL/HOPE → NIGHT: KING   CARDS FELLOW: MAY PGR 2-8810   EP: ROSE", ["HOPE", "MAY", "ROSE"]),
        ("fellow Hadley | attg May | endo RN Sunny", ["May"]),
        ("overnight: cook (ir) to drain collection", ["cook"]),
    ],
    ids=["lower-lists", "caps-bars", "caps-blanks", "bars-without-colons", "overnight"],
)
def test_the_people_of_a_team_list_are_found(text, names):
    _assert_removed(text, names)


@pytest.mark.parametrize(
    "text",
    ["attending: aware, agrees with plan", "EP: normal study", "resident: TBD", "chief: complaint noted | pain",
     "Night: stable, no events"],
    ids=["predicate", "finding", "placeholder-value", "word", "shift-finding"],
)
def test_what_a_team_label_reports_is_no_name(text):
    assert _team_sources(text, "rule:team_list") == []
