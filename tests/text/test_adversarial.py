"""Hostile input: 1 MB strings, ReDoS-shaped punctuation and Unicode, empty and non-text input;
and the property that an identifier inserted in a question never survives L1.

The one timed assertion in this suite lives here, as the issue asks: every level
must finish a 1 MB pathological string well inside a generous linear-time bound.
"""

import datetime as dt
import time

import pytest
from faker import Faker
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clinx.records import Manifest
from clinx.text.manifest_scan import surviving_tokens
from clinx.text.pipeline import TextPipeline, deidentify, rescan

MB = 1_000_000
#: Generous: linear scans take a few seconds for 1 MB on a loaded 2-core box;
#: a quadratic regex would take hours.
BOUND_S = 20.0

#: Regex-hostile shapes at the full 1 MB: long runs that a backtracking pattern
#: would rescan from every position.
PATHOLOGICAL = {
    "letters": "a" * MB,
    "digits": "1" * MB,
    "dash_digits": "1-" * (MB // 2),
    "dots": "a." * (MB // 2),
    "at_signs": "a@" * (MB // 2),
    "carets": "A^" * (MB // 2),
    "punctuation": "!?.,;:-/#()'\"[]" * (MB // 15),
    "unicode": "Ł\u0301ä\U0001f4a5\u200bİ" * (MB // 6),
    "url_no_end": "http://" + "a" * MB,
}
#: Identifier-dense text (every few characters a match): linear too, but each
#: match costs a span object, so a quarter megabyte keeps the suite quick.
DENSE = {
    "apostrophes": "John's " * (MB // 28),
    "commas": "Doe, " * (MB // 20),
    "caps_words": "SMITH " * (MB // 24),
    "placeholders_and_names": "[NAME] John Smith 12345678 " * (MB // 108),
    "cue_spam": "MRN patient: Dr. " * (MB // 68),
}

_PIPES = {}


def _pipe(level):
    if level not in _PIPES:
        _PIPES[level] = TextPipeline(level)
    return _PIPES[level]


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL) + sorted(DENSE))
def test_pathological_input_is_linear(name):
    text = PATHOLOGICAL.get(name) or DENSE[name]
    man = Manifest(fields={"patient_name": "John Smith", "mrn": "12345678"})
    t0 = time.process_time()
    res = _pipe("L2").run(text, man)  # L2 runs L1 first: rules, manifest scan and context
    elapsed = time.process_time() - t0
    assert elapsed < BOUND_S, f"{name}: {elapsed:.1f}s for {len(text)} characters"
    assert isinstance(res.text, str)


@pytest.mark.parametrize("name", ["punctuation", "unicode"])
def test_rescan_is_linear(name):
    t0 = time.process_time()
    rescan(PATHOLOGICAL[name], Manifest(fields={"patient_name": "John Smith"}))
    assert time.process_time() - t0 < BOUND_S


def test_empty_and_whitespace():
    for lv in ("L0", "L1", "L2"):
        assert deidentify("", lv).text == ""
        assert deidentify("   \n\t", lv).text == "   \n\t"


@pytest.mark.parametrize("bad", [None, 3.5, {"q": "x"}, b"abc"], ids=["none", "float", "dict", "bytes"])
def test_non_text_is_a_type_error(bad):
    with pytest.raises(TypeError):
        deidentify(bad, "L1")
    with pytest.raises(TypeError):
        rescan(bad)


# ----------------------------------------------------------------------------- property tests

_FK = Faker("en_US")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _person(seed: int) -> tuple[str, str]:
    _FK.seed_instance(seed)
    return _FK.first_name(), _FK.last_name()


NAME_FORMS = (
    lambda f, l: f"{f} {l}",
    lambda f, l: f"{l}, {f}",
    lambda f, l: f"{l.upper()}^{f.upper()}",
    lambda f, l: f"{f.upper()} {l.upper()}",
    lambda f, l: f"Dr. {f} {l}",
    lambda f, l: f"Mrs. {l}",
)
NAME_TEMPLATES = (
    "Patient {x}: is the left lung clear?",
    "Is there a fracture on the film of {x}?",
    "{x} - does the CT show a mass?",
    "Does the MRI for {x} show an infarct?",
    "Re: {x} / is the heart enlarged?",
    "Is the liver enlarged in {x}'s ultrasound?",
)

DATE_FORMS = (
    lambda d: d.isoformat(),
    lambda d: d.strftime("%m/%d/%Y"),
    lambda d: f"{d.month}/{d.day}/{d.year % 100:02d}",
    lambda d: d.strftime("%d.%m.%Y"),
    lambda d: f"{d.day:02d}-{_MONTHS[d.month - 1][:3]}-{d.year}",
    lambda d: f"{_MONTHS[d.month - 1]} {d.day}, {d.year}",
    lambda d: f"{d.day} {_MONTHS[d.month - 1]} {d.year}",
    lambda d: f"{_MONTHS[d.month - 1][:3]} {d.day}, {d.year}",
    lambda d: d.strftime("%Y%m%d"),
    lambda d: d.strftime("%Y-%m-%d %H:%M"),
    lambda d: d.strftime("%m/%d/%Y %I:%M %p"),
)
DATE_TEMPLATES = (
    "{x}: is the left lung clear?",
    "Was the study on {x} normal?",
    "Is there edema (scan {x})?",
    "DOB {x}, is the liver enlarged?",
    "Compared with {x}, is the nodule larger?",
)
ID_TEMPLATES = (
    "MRN {x}: is the left lung clear?",
    "Is there a mass (record {x})?",
    "{x} - is the heart enlarged?",
    "For patient #{x}, is there edema?",
    "Is the aorta dilated? Accession {x}.",
)
CONTACT_TEMPLATES = (
    "Call {x}: is the left lung clear?",
    "Is the heart enlarged? Results to {x}.",
    "Contact {x} - any effusion?",
)

PROP = settings(max_examples=int(__import__("os").environ.get("CLINX_PROP_EXAMPLES", 120)), deadline=None, derandomize=not __import__("os").environ.get("CLINX_PROP_RANDOM"), suppress_health_check=[HealthCheck.too_slow])
L1 = TextPipeline("L1")


def _assert_gone(value: str, template: str) -> None:
    text = template.format(x=value)
    out = L1.run(text).text
    clean = template.replace("{x}", " ")
    left = surviving_tokens(value, out, ignore_text=clean)
    # report the form, not the value: test output must not carry identifiers
    assert not left, f"{len(left)} token(s) of an identifier survived L1 in template {template!r}"


@PROP
@given(seed=st.integers(0, 2**31 - 1), form=st.sampled_from(range(len(NAME_FORMS))), tmpl=st.sampled_from(NAME_TEMPLATES))
def test_names_never_survive_l1(seed, form, tmpl):
    f, l = _person(seed)
    _assert_gone(NAME_FORMS[form](f, l), tmpl)


@PROP
@given(d=st.datetimes(min_value=dt.datetime(1920, 1, 1), max_value=dt.datetime(2035, 12, 31)),
       form=st.sampled_from(range(len(DATE_FORMS))), tmpl=st.sampled_from(DATE_TEMPLATES))
def test_dates_never_survive_l1(d, form, tmpl):
    _assert_gone(DATE_FORMS[form](d), tmpl)


@PROP
@given(x=st.one_of(st.from_regex(r"[0-9]{6,10}", fullmatch=True), st.from_regex(r"[A-Z]{1,3}[0-9]{5,8}", fullmatch=True),
                   st.from_regex(r"ACC20[0-9]{2}-[0-9]{6}", fullmatch=True), st.from_regex(r"[0-9]{2,3}-[0-9]{3}-[0-9]{3}", fullmatch=True)),
       tmpl=st.sampled_from(ID_TEMPLATES))
def test_record_numbers_never_survive_l1(x, tmpl):
    _assert_gone(x, tmpl)


@PROP
@given(seed=st.integers(0, 2**31 - 1), kind=st.sampled_from(["phone", "email"]), tmpl=st.sampled_from(CONTACT_TEMPLATES))
def test_phones_and_emails_never_survive_l1(seed, kind, tmpl):
    _FK.seed_instance(seed)
    _assert_gone(_FK.phone_number() if kind == "phone" else _FK.email(), tmpl)
