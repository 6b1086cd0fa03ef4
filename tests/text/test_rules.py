"""L1 recognisers: each identifier form is masked with its typed placeholder; clinical text survives.

Test ids name the *form* of an identifier, never a value (no PHI in test names).
"""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clinx.records import Manifest
from clinx.text.pipeline import deidentify
from clinx.text import rules as R
from clinx.text.rules import RuleLevel, RuleRecognizer

L1 = RuleLevel()

POSITIVE = [
    ("name_cue", "Patient John Smith: is the left lung clear?", "John Smith", "NAME"),
    ("name_title", "Was the scan read by Dr. Alan Turing?", "Alan Turing", "NAME"),
    ("name_title_mrs", "Mrs. Okonkwo asks: is this a fracture?", "Okonkwo", "NAME"),
    ("name_dicom", "PN SMITH^JOHN^A is on the film; is the heart enlarged?", "SMITH^JOHN^A", "NAME"),
    ("name_last_first", "Doe, John - is there an effusion?", "Doe, John", "NAME"),
    ("name_possessive_pair", "Does Maria Garcia's chest x-ray show a fracture?", "Maria Garcia", "NAME"),
    ("name_possessive_single", "Is there a mass on Hernandez's CT?", "Hernandez", "NAME"),
    ("name_possessive_caps", "Is DITMAR AUMANN's scan abnormal?", "DITMAR AUMANN", "NAME"),
    ("name_midsentence_pair", "In the image of Katie Nelson, which lobe has the mass?", "Katie Nelson", "NAME"),
    ("name_caps_gazetteer", "Re: RENEE PAUL / is there a lesion?", "RENEE PAUL", "NAME"),
    ("name_unicode", "Is this an ultrasound for patient Białasik, Piotr?", "Białasik, Piotr", "NAME"),
    ("name_particles", "Study for Nadia van der Heijden: is the aorta dilated?", "Nadia van der Heijden", "NAME"),
    ("date_iso", "Was the 1961-03-14 study normal?", "1961-03-14", "DATE"),
    ("date_us", "DOB 03/14/1961: is the liver enlarged?", "03/14/1961", "DATE"),
    ("date_eu_dotted", "Scan from 14.03.1961, is it normal?", "14.03.1961", "DATE"),
    ("date_dmy_abbrev", "Born 14-Mar-1961, is the spleen enlarged?", "14-Mar-1961", "DATE"),
    ("date_month_day_year", "Seen March 14, 1961: any nodule?", "March 14, 1961", "DATE"),
    ("date_day_month_year", "Seen 14 March 1961: any nodule?", "14 March 1961", "DATE"),
    ("date_compact", "Study date 20230502 - is the brain normal?", "20230502", "DATE"),
    ("date_with_time", "Acquired 2023-05-02T10:30:00, is there edema?", "2023-05-02T10:30:00", "DATE"),
    ("date_two_digit_year", "Seen 3/14/61, is there edema?", "3/14/61", "DATE"),
    ("mrn_cue", "MRN 48213377: is there a pneumothorax?", "48213377", "MRN"),
    ("mrn_words", "Medical record number: A12-3345. Any mass?", "A12-3345", "MRN"),
    ("accession_cue", "Acc ACC2020-699199 - what modality is this?", "ACC2020-699199", "ACCESSION"),
    ("email_country_domain", "Sent to mgagnon@qchexample.ca: any nodule?", "mgagnon@qchexample.ca", "EMAIL"),
    ("phone_paren", "Call (555) 123-4567 with the result: is it benign?", "(555) 123-4567", "PHONE"),
    ("phone_ext", "Phone 262.218.8623x85790, is the kidney normal?", "262.218.8623x85790", "PHONE"),
    ("phone_intl", "Reach +1 492 302 1007 - any effusion?", "+1 492 302 1007", "PHONE"),
    ("fax_cue", "Fax: 5551234567. Any effusion?", "5551234567", "PHONE"),
    ("email", "Send to jane.doe81@example-health.org: is it normal?", "jane.doe81@example-health.org", "EMAIL"),
    ("url", "See https://portal.example.org/p?id=3. Is the lung clear?", "https://portal.example.org/p?id=3", "URL"),
    ("ssn", "SSN 123-45-6789 - is the heart enlarged?", "123-45-6789", "SSN"),
    ("hospital_st", "Was the CT done at St. Mary Hospital?", "St. Mary Hospital", "HOSPITAL"),
    ("hospital_medical_center", "Imaged at Riverside Medical Center: any bleed?", "Riverside Medical Center", "HOSPITAL"),
    ("hospital_clinic", "Seen at Mayo Clinic, is the thyroid enlarged?", "Mayo Clinic", "HOSPITAL"),
    ("hospital_caps", "Seen at WEST BROOK GENERAL HOSPITAL. Any mass?", "WEST BROOK GENERAL HOSPITAL", "HOSPITAL"),
    ("hospital_of", "Transferred from Hospital of the University of Pennsylvania: any bleed?", "Hospital of the University of Pennsylvania", "HOSPITAL"),
    ("hospital_id", "Hospital ID H-88213: is this a CT?", "H-88213", "ID"),
    ("age_over_89", "A 92-year-old man: is there cardiomegaly?", "92", "AGE"),
    ("age_cue", "Patient aged 97, is there an effusion?", "97", "AGE"),
    ("zip_cue", "ZIP 46202. Is the lung clear?", "46202", "ZIP"),
    ("zip_state", "Lives in Indianapolis, IN 46202. Any mass?", "46202", "ZIP"),
    ("long_id", "Study 9876543210 shows what organ?", "9876543210", "ID"),
]


@pytest.mark.parametrize("text,value,cat", [p[1:] for p in POSITIVE], ids=[p[0] for p in POSITIVE])
def test_identifier_is_masked_with_its_category(text, value, cat):
    res = L1.apply(text)
    assert value not in res.text
    assert f"[{cat}]" in res.text
    cats = {s.category for s in res.removed}
    assert cat in cats


CLINICAL = [
    ("yes_no_lung", "Is the left lung clear?"),
    ("measurements", "Is the T2 lesion at C5-C6 larger than 5 cm?"),
    ("counts", "Are there 2 lesions in the right lobe?"),
    ("modality", "What organ is shown in this MRI image?"),
    ("eponym_possessive", "Is Smith's fracture present?"),
    ("eponym_disease", "Does Crohn's disease show on this CT?"),
    ("eponym_cyst", "Is there evidence of Baker cyst in the knee?"),
    ("eponym_syndrome", "Is this Turner syndrome?"),
    ("age_under_90", "Is this 45-year-old's chest normal?"),
    ("ratio", "Is the cardiothoracic ratio above 0.5 on the PA view?"),
    ("blood_pressure", "BP 120/80, is the aorta dilated?"),
    ("vertebra_range", "Is there a fracture at T10-T12 or L4?"),
    ("tnm", "Is this T2N0M0 staging consistent with the CT?"),
    ("percent", "Is the stenosis above 70%?"),
    ("sentence_start", "Which lobe has the mass? Where is the nodule?"),
    ("may_verb", "Is there a lesion that may 2 cm grow?"),
    ("pacing_threshold", "RA lead: imp 494 ohm, thresh 0.75V@0.4ms - is the lead in the atrium?"),
]


@pytest.mark.parametrize("text", [c[1] for c in CLINICAL], ids=[c[0] for c in CLINICAL])
@pytest.mark.parametrize("level", ["L1", "L2"])
def test_clinical_text_survives_untouched(text, level):
    res = deidentify(text, level)
    assert res.text == text
    assert res.removed == []


def test_manifest_values_are_masked_at_l1_even_when_rules_miss_them():
    m = Manifest(fields={"patient_name": "Zq Xw", "other_id": "ab-cd"})
    text = "is zq xw ok and is ab-cd the code?"
    assert RuleLevel(use_manifest=False).apply(text, m).text == text
    out = RuleLevel().apply(text, m)
    assert "zq xw" not in out.text and "ab-cd" not in out.text
    assert {s.source.split(":")[0] for s in out.removed} == {"manifest"}


def test_enabled_restricts_recognisers():
    rec = RuleRecognizer(frozenset({"email"}))
    cands = rec.find("Mail a@b.org on 2023-05-02")
    assert [c.category for c in cands] == ["EMAIL"]


def test_offsets_point_into_the_input_and_placeholders_are_not_rematched():
    text = "Patient John Smith, DOB 03/14/1961: is the lung clear?"
    res = L1.apply(text, None)
    for s in res.removed:
        assert 0 <= s.start < s.end <= len(text)
    again = L1.apply(res.text)
    assert again.text == res.text and again.removed == []


# --------------------------------------------------------------------------- fast paths
# The L1 speed-ups change *how* the rules run, never *what* they find: gates skip
# a pattern only when it cannot match; cue and date patterns tried only where a
# cue word / digit / month word starts give finditer's matches; the step-back
# previous-word lookup equals the regex it replaces. Each is checked against the
# plain full scan on texts built from identifier fragments and odd Unicode.

PROP = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

# fragments that trigger every recogniser family, mixed with noise and odd Unicode
FRAGMENTS = [
    "Patient", "patient", "PT", "Name:", "named", "Dr.", "Mrs.", "MRN", "mrn#", "Acc", "ACC2020-134801", "H-63869",
    "ID", "id:", "SSN", "123-45-6789", "(714) 898-9167", "+1 562 714 4180", "555.123.4567 ext 12", "DOB", "03/14/1961",
    "14.03.1961", "1961-03-14", "14-Mar-1961", "March 14, 1961", "Sept. 3", "3 March", "20230502", "20230502T1030",
    "on 3/14", "seen 12/8", "aged 93", "92-year-old", "95 yo", "CA 94110", "94110-1234", "123 Main Street", "12 Oak Ave",
    "07125133", "4471", "C5-C6", "5 cm", "T2", "john", "Smith", "SMITH", "Doe, John", "Okafor's", "O'Neil", "van der",
    "St. Mary Hospital", "GENERAL HOSPITAL", "Hospital of Ohio", "a.b@x.org", "www.x.com/a.", "http://h.io/x", "x.health",
    "SMITH^JOHN", "is", "the", "left", "lung", "clear", "?", ",", ".", ":", "-", "/", "'", "’", "(", ")", "\n",
    "İ", "ſ", "ı", "K", "٣", "²", "_", "#", "Baker", "cyst", "Crohn's", "disease", "Jr", "MD", "ﬁ",
    # dates as clinicians write them (clinx.text.dates records)
    "7/22", "5/325", "'92", "’09", "3rd", "of", "June", "the", "14th", "1992", "2031", "jan", "MAY", "thurs", "x3",
    # dictation initials and month/day ranges (their gates look for "A/b" and "d/d-d/")
    "XG/ss", "AB/cd", "Ab/c", "3/24-3/30", "7/22 - 7/25", "12/1 -", "- 1/2",
    # pagers after "p", signers' initials before a role or alone on the last line, ages before a lower-case sex letter
    "5/2-5/14/24", "5/2/24-5/14/2024", "p 2290", "p7-1129", "P", "jb", "pmk dpm", "f.a. lcsw", "mw ma", "93 f", "on doac", "key", "BXR7LTQ2", "badge 3317",
    # year ranges, month/year ranges, day-first dates (their gates look for a year and a hyphen or a slash)
    "1985-1989", "2015-16", "1990 – 2001", "1/2023-6/2023", "31/01", "–", "feb", "Nov",
    # national numbers in groups (a digit, a blank and a digit) and health numbers after their names
    "0412 555 018", "02 9555 0147", "01653 555 210", "+44 7700 900123", "+", "PHN:", "Medicare", "2953 71840 1", "OHIP",
    # ages after a relative in parentheses, police departments before their officers
    "husband", "(97)", "MOM (91)", "SPD", "nnpd", "officer", "UNIT",
]

texts = st.lists(st.sampled_from(FRAGMENTS), min_size=0, max_size=14).flatmap(
    lambda parts: st.lists(st.sampled_from(["", " ", "  ", "\t", ", "]), min_size=len(parts), max_size=len(parts)).map(
        lambda seps: "".join(p + s for p, s in zip(parts, seps))
    )
)


@PROP
@given(text=texts)
def test_gates_are_sound(text):
    """A pattern left out of the plan finds nothing on that text."""
    low = text.lower()
    exotic = len(low) != len(text) or "ſ" in text or "ı" in text
    plan, digits = R._plan(text, low, exotic)
    for i, (name, rx, _, _) in enumerate(R._COMPILED):
        if i not in plan:
            assert rx.search(text) is None, name
    if not digits:
        assert R._CUE_RE.search(text) is None


@PROP
@given(text=texts)
def test_start_scans_equal_finditer(text):
    low = text.lower()
    exotic = len(low) != len(text) or "ſ" in text or "ı" in text
    for rx, starts in (
        (R._CUE_RE, R._CUE_START_RE),
        (R._COMPILED[R._NAME_CUE_IDX][1], R._NAME_CUE_START_RE),
        (R._COMPILED[R._DATE_IDX][1], R._DATE_START_RE),
    ):
        got = [m.span() for m in R._starts_matches(text, low, rx, starts, exotic)]
        assert got == [m.span() for m in rx.finditer(text)]


ANCHOR_FRAGMENTS = [
    "on", "ON", "dated", "date", "Exam:", "examinations", "comparison", "x-ray", "xray", "CT", "a.m.", "P.M.", "seen", "from",
    "3/14", "12/8", "7/22", "13/1", "1/31", "12/3/", "4/5.6", "2/2", "AB12-345", "X#12/34", "MRN-12-34-56", "q12-34", "abc",
    "12-34", "a1", "-", "#", "/", ":", " ", "  ", "   ", "\t", "\n", "٣", "_", "x", "Dolores", "dr", "5/325",
    # letter-prefixed identifiers: the first digit up to 6 characters after the start
    "ACC2020134801", "abcde-12345", "MRN#1234567", "Q12345", "12345", "678901", "Ab", "xyz", "2020",
    # ... and after up to three letter groups, 18 characters in
    "PSP-SAK-0041188", "abcde-fghij-klmno-1234567", "-SAK",
]


@PROP
@given(parts=st.lists(st.sampled_from(ANCHOR_FRAGMENTS), max_size=16))
def test_anchored_scans_equal_finditer(parts):
    """The anchor-window scans of month/day-after-cue and letter-prefixed identifiers give finditer's matches."""
    text = "".join(parts)
    assert set(R._ANCHORED) == {R._MD_CUE_IDX, R._PARTS_IDX, R._PREFIXED_IDX}
    for idx, (anchors, reach, firsts, _not_after) in R._ANCHORED.items():
        rx = R._COMPILED[idx][1]
        got = [m.span() for m in R._anchored_matches(text, rx, anchors, reach, firsts)]
        assert got == [m.span() for m in rx.finditer(text)]


def test_anchored_scan_catches_a_removed_shortcut():
    # a reach too short misses the longest cue: the equality test above would fail with it
    rx = R._COMPILED[R._MD_CUE_IDX][1]
    text = "examinations:   3/14"
    assert [m.span() for m in rx.finditer(text)] == [(0, len(text))]
    assert R._anchored_matches(text, rx, R._MD_CUE_ANCHOR_RE, 16, R._MD_CUE_FIRSTS)[0].span() == (0, len(text))
    assert R._anchored_matches(text, rx, R._MD_CUE_ANCHOR_RE, 15, R._MD_CUE_FIRSTS) == []


def test_prefixed_id_scan_catches_a_removed_shortcut():
    # the longest prefix (five letters and a hyphen) puts the first digit 6 characters in:
    # a reach of 5 would miss it, and the equality test above would fail with it
    rx = R._COMPILED[R._PREFIXED_IDX][1]
    text = "abcde-12345"
    assert [m.span() for m in rx.finditer(text)] == [(0, len(text))]
    assert R._anchored_matches(text, rx, R._PARTS_ANCHOR_RE, 6, R._ASCII_LETTERS)[0].span() == (0, len(text))
    assert R._anchored_matches(text, rx, R._PARTS_ANCHOR_RE, 5, R._ASCII_LETTERS) == []


@PROP
@given(parts=st.lists(st.sampled_from(["Jane", "Roe", " ", "  ", ",", ", ", "MD", "M.D", "M.D.", "PhD", "DO", "RN", "NP", "PA-C",
                                       "md", "rn", "np", ".", "\n", "x", "Smith", "MRN"]), max_size=8), data=st.data())
def test_credential_gate_equals_plain_search(parts, data):
    """_drop_credential's last-character gate gives the plain search's answer on any span."""
    text = "".join(parts)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    c = R.Candidate(start, end, "NAME", "rule:x", 0.9)
    m = R._CREDENTIAL_TAIL_RE.search(text, start, end)
    plain = c if m is None or m.end() != end or m.start() <= start else R.Candidate(start, m.start(), "NAME", "rule:x", 0.9)
    assert R._drop_credential(text, c) == plain


def test_credential_last_characters_cover_every_credential():
    # a credential added to the pattern but not to the gate's characters would be skipped silently
    for cred in ("MD", "M.D", "M.D.", "PhD", "DO", "RN", "NP", "PA-C", "md", "rn", "np", "RN."):
        text = f"Jane Roe, {cred}"
        assert R._drop_credential(text, R.Candidate(0, len(text), "NAME", "rule:x", 0.9)).end == len("Jane Roe")


@PROP
@given(text=st.text(alphabet="ab Z_9'’-\t.,é٣²vandr", max_size=60), data=st.data())
def test_prev_word_equals_regex(text, data):
    start = data.draw(st.integers(0, len(text)))
    m = R._PREV_WORD_RE.search(text, max(0, start - 40), start)
    assert R._prev_word(text, start) == (m.span(1) if m else None)


def test_prev_word_long_words():
    for text in ("x" * 45 + " Smith", "a" * 33 + "-b Smith", "9" * 10 + "van  Smith", "van    Smith"):
        start = text.rindex("S")
        m = R._PREV_WORD_RE.search(text, max(0, start - 40), start)
        assert R._prev_word(text, start) == (m.span(1) if m else None)


def test_full_scan_matches_on_fragments():
    # the recogniser with gates equals one that runs every pattern on every text
    rec = R.RuleRecognizer()
    for k in range(len(FRAGMENTS)):
        text = " ".join(FRAGMENTS[k : k + 9])
        spans = {(c.start, c.end, c.source) for c in rec.find(text)}
        for name, rx, _, _ in R._COMPILED:
            for m in rx.finditer(text):
                span = R._validate(name, m, text)
                if span is None:
                    continue
                s, e = span
                if name in ("url", "domain"):
                    while e > s and text[e - 1] in ".,;:!?":
                        e -= 1
                assert any(sp[2] == f"rule:{name}" and sp[1] == e for sp in spans), (name, k)


@PROP
@given(text=st.lists(st.sampled_from(["Ab", "O'", "Mc", "Do", "AB", "-", "'", "’", "s", "S", " ", "x", "É", "ā", "Ł", "9", "_", "ÖZ", "a" * 22, "A" * 21]), max_size=12).map("".join))
def test_name_token_regex_equals_plain_form(text):
    assert [m.span() for m in R._NAME_TOKEN_RE.finditer(text)] == [m.span() for m in R._NAME_TOKEN_RE_PLAIN.finditer(text)]


_WORD_PIECES = ["Ab", "o'", "O’", "-", "'", "’", "s", "S", ".", " ", "\n", "\t", "x", "É", "ß", "9", "_", "dr", "MD", "a-b", "--", "''", "ı", "٣"]


@PROP
@given(text=st.lists(st.sampled_from(_WORD_PIECES), max_size=16).map("".join))
def test_evidence_token_regex_equals_plain_form(text):
    """The evidence pass's word regex (runs of letters) finds the spans of its per-character plain form."""
    from clinx.text import evidence as E

    assert [m.span() for m in E._TOKEN_RE.finditer(text)] == [m.span() for m in E._TOKEN_RE_PLAIN.finditer(text)]


@PROP
@given(text=st.lists(st.sampled_from(_WORD_PIECES + ["PT", "HOPE", "hope", "Okafor", "lasix"]), max_size=16).map("".join))
def test_evidence_tokens_equal_a_per_line_scan(text):
    """tokens() scans the whole text once; it equals scanning line by line with each line's case."""
    from clinx.text import evidence as E

    plain = []
    for lm in E._LINE_RE.finditer(text):
        ls, le = lm.span()
        case = E._line_case(text, ls, le)
        for m in E._TOKEN_RE_PLAIN.finditer(text, ls, le):
            cut, raw, low, cls, dot = E._tok_info(m.group())
            plain.append((m.start(), m.end() - cut, raw, low, cls, case, dot))
    assert [tuple(t) for t in E.tokens(text)] == plain


DATE_START_FRAGMENTS = [
    "3", "14", "2023", "20230502", "1234567", "12345678", "1٣", "٣", "/", "-", ".", " ", "  ", "\n", "of", "st", "nd", "rd", "th",
    "March", "mar", "SEPT", "Sept.", "june", "Jul", "may", "x", "a", "_", "'", ",", "1st", "22nd", "3rd", "14th", "the",
    "ext", "Ext.", "extension", "x4471", "X12", "4-3321", "ml", "ſ", "İ", "ı", "K", "ext 4471", "Ext. 52210", "extension 4-3321",
    "Jan 3", "SEPT. 14th", "Mar\t22", "dec 31", "June 2",
    # numbered roads (numbered_road's start scan)
    "route", "Route 1", "RTE 128", "rte. #9", "Hwy 9", "highway", "Interstate 90", "I-95", "i-", "I-", "-95", "9a", "x/",
]


@PROP
@given(parts=st.lists(st.sampled_from(DATE_START_FRAGMENTS), max_size=14))
def test_date_and_record_start_scans_equal_finditer(parts):
    """The digit/month start scan of DATE_RE and every record's own ``starts`` scan give finditer's matches."""
    text = "".join(parts)
    low = text.lower()
    exotic = len(low) != len(text) or "ſ" in text or "ı" in text
    rx = R._COMPILED[R._DATE_IDX][1]
    assert [m.span() for m in R._starts_matches(text, low, rx, R._DATE_START_RE, exotic)] == [m.span() for m in rx.finditer(text)]
    assert R._STARTS, "no record has a start scan: the loop below would check nothing"
    for i, starts in R._STARTS.items():
        rx = R._COMPILED[i][1]
        got = [m.span() for m in R._starts_matches(text, low, rx, starts, exotic)]
        assert got == [m.span() for m in rx.finditer(text)], R._COMPILED[i][0]


def test_date_start_scan_catches_a_removed_shortcut():
    # an ordinal day ("3rd of June") starts a date: a start scan without the suffix branch misses it
    rx = R._COMPILED[R._DATE_IDX][1]
    text = "3rd of June 2020"
    assert [m.span() for m in rx.finditer(text)] == [(0, len(text))]
    narrow = re.compile(R._DATE_START_RE.pattern.replace(r"|\d?(?:st|nd|rd|th)", ""))
    assert narrow.pattern != R._DATE_START_RE.pattern
    assert [m.span() for m in R._starts_matches(text, text.lower(), rx, narrow, False)] != [(0, len(text))]


# Patterns rewritten for speed (first character first, the look-behind after it) and the plain
# forms they replace: the same matches and the same groups on any text, or the rewrite is wrong.
_NT, _NT_UP = R.NT, R.NT_UP
PLAIN_FORMS = {
    "name_comma": rf"(?<![\w,])(?P<v>{_NT},\s{{0,2}}{_NT}(?:\s{{1,2}}[A-Z]\.?(?![\w]))?)",
    "name_possessive_caps": rf"(?<![\w'])(?P<v>{_NT_UP}(?:\s{{1,3}}{_NT_UP}){{1,2}})['’]s(?![\w])",
    "name_possessive": rf"(?<![\w'])(?P<v>(?:{_NT}\s{{1,3}}){{0,2}}{_NT})['’]s?(?![\w])",
    "date_md_range": r"(?<![\w/.:+-])(?P<a>\d{1,2}/\d{1,2})(?P<ay>/(?:\d{4}|\d\d))?\s?-\s?(?P<b>\d{1,2}/\d{1,2})(?P<by>/(?:\d{4}|\d\d))?(?![\w/%]|[.:-]\d)",
    "phone_seven_spaced": r"(?<![\w/.,-])\d{3}[ .]\d{4}(?![\w/]|[.,]\d)",
    "phone": r"(?<![\w+])(?:(?:\+|00)?\d{1,3}[\s.-]{1,2})?(?:\(\d{3}\)\s{0,2}|\d{3}[\s.-])\d{3}[\s.-]\d{4}"
    r"(?:\s{0,2}(?:[xX]|[eE][xX][tT]\.?|[eE]xtension)\s{0,2}\d{1,6})?(?!\w)",
    "age_over_89": r"(?<![\w.])(?:9\d|1[01]\d)(?=\s{0,2}-?\s{0,2}(?:(?:(?i:years?|yrs?|y/?o|yo[mf]?)|[MF])(?:[\s-]{1,2}(?i:old))?\b|(?i:y\.o\.)))",
    "hospital": r"(?<![\w])(?:(?:St|Mt|Ft)\.?\s{1,3})?(?:[A-Z][A-Za-z'’&.-]{0,30}\s{1,3}(?:(?:of|the|and|&|de|la)\s{1,3}){0,2}){1,5}"
    + R._HOSPITAL_WORDS
    + r"\b(?:\s{1,3}(?:of|for|at)\s{1,3}(?:the\s{1,3})?[A-Z][A-Za-z'.-]{0,30}(?:\s{1,3}[A-Z][A-Za-z'.-]{0,30}){0,3})?",
}
_COMMON_PIECES = [" ", "  ", "\t", "\n", ",", ", ", ".", "-", "'", "’", "_", "x", "9", "٣", "İ", "ı", "ſ", "K", "Ā", "é"]
_REWRITE_PIECES = {
    "names": ["Ab", "O'", "O’", "Mc", "Donald", "SMITH", "O'NEIL", "AB", "ā", "Ł", "É", "ß", "s", "S", "'s", "’s",
              "a" * 21, "A" * 21, "J.", "J", "Doe, John", "Mary Smith's", "JOHN SMITH's", "ANN O'NEIL’s", "Łukasz Bąk’", "Jones'"],
    "numbers": ["3/14", "12/8", "7/22", " - ", "+", ":", "/", "%", "555", "0199", "555 0199", "555.0199", "12", "1", "0", "00",
                "+1", "001", "(", ")", "(555)", "555-", "123", "4567", "x12", "ext", "ext.", "extension", "(555) 123-4567",
                "3/14-3/20", "12/8 - 12/9", "5/2-5/14/24", "5/2/24-5/14/2024", "/24", "/2024", "+1 555 123 4567", "00 1 555 123 4567", "555-123-4567", "0044 555 123 4567", "0012"],
    "ages": ["92", "9", "1", "101", "10", "119", "99", "year", "years", "yr", "yo", "yom", "y/o", "y.o.", "old", "M", "F",
             "-year-old", "YEARS", "Old", "-", "92 years old", "101 yo", "95-year-old", "99M"],
    "hospitals": ["St", "St.", "Mt", "Ft", "Sa", "Mary", "General", "GENERAL", "Hospital", "HOSPITAL", "Hospitals", "Medical",
                  "Center", "Centre", "of", "the", "and", "&", "de", "la", "Clinic", "Health", "System", "Ohio", "For", "at",
                  "for", "Nursing", "Home", "Infirmary", "A", "b", "Z'", "&Co", "a.b", "St. Mary General Hospital",
                  "Mary Hospital", "GENERAL HOSPITAL", "Hospital of Ohio", "Medical Center", "Mt. Sinai", "Ft Worth"],
}
_REWRITE_SEPS = ["", "", " ", "  ", ", ", "\n", "\t", ". "]
_REWRITE_TEXTS = st.sampled_from(sorted(_REWRITE_PIECES)).flatmap(
    lambda family: st.lists(
        st.tuples(st.sampled_from(_REWRITE_PIECES[family] + _COMMON_PIECES), st.sampled_from(_REWRITE_SEPS)), max_size=12
    ).map(lambda parts: "".join(p + sep for p, sep in parts))
)


def _spans(rx, text):
    return [(m.span(), tuple(m.span(g) for g in rx.groupindex)) for m in rx.finditer(text)]


@PROP
@given(text=_REWRITE_TEXTS)
def test_rewritten_patterns_equal_their_plain_forms(text):
    for name, plain in PLAIN_FORMS.items():
        rx = R._COMPILED[R._INDEX[name]][1]
        assert rx.pattern != plain, name
        prx = re.compile(plain, rx.flags)
        assert _spans(rx, text) == _spans(prx, text), name


def test_rewrite_pieces_reach_every_pattern():
    # the property test above proves little if its texts never match: each pattern matches one of its family's pieces
    pieces = [p for family in _REWRITE_PIECES.values() for p in family]
    for name, plain in PLAIN_FORMS.items():
        prx = re.compile(plain, R._COMPILED[R._INDEX[name]][1].flags)
        assert any(prx.search(" " + p + " ") for p in pieces), name


def test_rewritten_patterns_start_on_a_character_set():
    # what the rewrite is for: the compiled pattern opens with a set of characters (the engine's skip)
    for name in PLAIN_FORMS:
        pattern = R._COMPILED[R._INDEX[name]][1].pattern
        assert re.match(r"(?:\(\?P<\w+>)?(?:\[|\\d)", pattern), name


def test_plain_form_check_catches_a_wrong_rewrite():
    # a look-behind dropped from the rewrite changes the matches: the equality test above sees it
    wrong = re.compile(R._COMPILED[R._INDEX["phone_seven_spaced"]][1].pattern.replace(r"(?<![\w/.,-]\d)", ""))
    plain = re.compile(PLAIN_FORMS["phone_seven_spaced"])
    assert _spans(wrong, "x555 0199") != _spans(plain, "x555 0199")


_ASCII_PIECES = ["Ab", "o'", "O'", "-", "'", "s", ".", " ", "\n", "\t", "x", "9", "07", "_", "dr", "MD", "a-b", "--", "''", "#",
                 "[NAME]", "[DATE]", "[", "]", "[AB]", "/", "3/14", "a.b", "C5-C6", "Z" * 30, "a" * 30, "(", ",", "x_", "_y"]


@PROP
@given(text=st.one_of(st.lists(st.sampled_from(_ASCII_PIECES), max_size=16).map("".join), st.text(alphabet=st.characters(max_codepoint=127), max_size=60)))
def test_ascii_token_regexes_equal_the_unicode_ones_on_ascii_text(text):
    """The ASCII fast forms of the evidence and context token regexes give the general forms' tokens on ASCII text."""
    from clinx.text import context as C
    from clinx.text import evidence as E

    assert text.isascii()
    for fast, general in ((E._TOKEN_RE_ASCII, E._TOKEN_RE), (C._TOKEN_RE_ASCII, C._TOKEN_RE)):
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in general.finditer(text)]


def test_ascii_token_regexes_are_not_used_on_other_text():
    # "é" and "’" are word characters to the general forms only: ASCII-only ranges would split these words
    from clinx.text import context as C
    from clinx.text import evidence as E

    assert [t.raw for t in E.tokens("José O’Neil")] == ["José", "O’Neil"]
    assert E._TOKEN_RE_ASCII.findall("José") != E._TOKEN_RE.findall("José")
    assert C._TOKEN_RE_ASCII.findall("José") != C._TOKEN_RE.findall("José")


# Gate scans led by a literal character (a literal is found many times faster than a character set)
# and the plain forms they replace: a hit exactly when the plain form has one.
from clinx.text import dates as D  # noqa: E402

GATE_PLAIN_FORMS = [
    (R._MD_GATE_RE, r"[0-9]/[0-9]{1,2}(?![\w/]|\.\d)"),
    (D._DAY_MONTH_GATE_RE, r"\d-(?:jan|feb|ma[ry]|apr|ju[nl]|aug|sep|oct|nov|dec)"),
]


@PROP
@given(text=st.lists(st.sampled_from(["3", "14", "٣", "/", "-", "jan", "mar", "may", "sep", "x", " ", ".", "5", "/12", "-dec", "/3."]), max_size=12).map("".join))
def test_literal_led_gates_equal_their_plain_forms(text):
    for fast, plain in GATE_PLAIN_FORMS:
        assert (fast.search(text) is None) == (re.search(plain, text) is None), plain
