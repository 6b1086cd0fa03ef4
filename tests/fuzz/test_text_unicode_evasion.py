"""Fuzz: Unicode evasion of every recogniser category never lets an identifier through that the plain form would not.

Hypothesis inserts zero-width / format characters, swaps characters for their
TR39 confusables (and digits for digits of other scripts) and writes values in
full-width or mathematical forms, inside each category's identifiers. The
property: if L2 removes the identifier written plainly, it removes it evaded
too, and the words around it are released unchanged.
"""

import string
from datetime import date

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from clinx.text.evasion import ZERO_WIDTH, _lookalikes
from clinx.text.manifest_scan import surviving_tokens
from clinx.text.pipeline import TextPipeline, rescan
from clinx.text.unicode import fold

PIPE = TextPipeline("L2")
LOOKALIKES = _lookalikes()
SCRIPT_ZEROS = (0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0xFF10, 0x1D7CE, 0x1D7EC)
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

NAMES = ("John Smith", "Mary Johnson", "James Brown", "Linda Garcia", "Robert Miller", "Maria Rodriguez",
         "David Wilson", "Susan Moore", "Michael Taylor", "Karen Anderson")


@st.composite
def evaded(draw, value: str) -> str:
    """``value`` with look-alikes, invisible characters and/or full-width forms drawn into it (at least one change)."""
    out = []
    full = draw(st.booleans())
    for c in value:
        r = draw(st.integers(0, 5))
        if r == 0 and c.isdigit():
            c = chr(draw(st.sampled_from(SCRIPT_ZEROS)) + int(c))
        elif r == 0 and c in LOOKALIKES:
            c = draw(st.sampled_from(LOOKALIKES[c]))
        elif full and "!" <= c <= "~":
            c = chr(ord(c) - 0x21 + 0xFF01)
        out.append(c)
        if draw(st.integers(0, 3)) == 0:
            out.append(draw(st.sampled_from(ZERO_WIDTH)))
    s = "".join(out).rstrip("".join(ZERO_WIDTH))
    if s.isascii():  # make sure something was evaded
        s = s[0] + "\u200b" + s[1:]
    return s


def check(template: str, value: str, data) -> None:
    plain = template.format(value)
    assume(not surviving_tokens(value, PIPE.run(plain).text, ignore_text=template.format(" ")))
    hidden = data.draw(evaded(value))
    text = template.format(hidden)
    out = PIPE.run(text).text
    assert not surviving_tokens(value, out, ignore_text=template.format(" ")), (template, ascii(hidden), ascii(out))
    pre, post = template.split("{}")
    assert out.startswith(pre[: max(0, len(pre) - 1)]) and out.endswith(post[1:])  # the words around stay
    assert not [s for s in rescan(out) if s.category != "NAME" or "[" not in out[s.start : s.end]]


@SETTINGS
@given(value=st.sampled_from(NAMES), template=st.sampled_from(["Patient {}, is the lung clear?", "Is {}'s left lung clear?"]), data=st.data())
def test_names(value, template, data):
    check(template, value, data)


@SETTINGS
@given(user=st.text(string.ascii_lowercase, min_size=3, max_size=8), host=st.sampled_from(["gmail", "example", "hospital"]),
       tld=st.sampled_from(["com", "org", "net"]), data=st.data())
def test_emails(user, host, tld, data):
    check("Email {} about the effusion?", f"j.{user}@{host}.{tld}", data)


@SETTINGS
@given(a=st.integers(100, 899), b=st.integers(10, 99), c=st.integers(1000, 9999), data=st.data())
def test_ssns(a, b, c, data):
    check("SSN {} effusion?", f"{a}-{b}-{c}", data)


@SETTINGS
@given(a=st.integers(201, 989), b=st.integers(200, 999), c=st.integers(1000, 9999), data=st.data())
def test_phones(a, b, c, data):
    check("Call {} about the CT?", f"({a}) {b}-{c}", data)


@SETTINGS
@given(n=st.integers(0, 99_999_999), data=st.data())
def test_mrns(n, data):
    check("MRN {} left lung clear?", f"{n:08d}", data)


@SETTINGS
@given(d=st.dates(min_value=date(1900, 1, 1), max_value=date(2030, 12, 31)), iso=st.booleans(), data=st.data())
def test_dates(d, iso, data):
    check("Scan from {}, is the heart enlarged?", d.isoformat() if iso else f"{d.month:02d}/{d.day:02d}/{d.year}", data)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(text=st.text(string.printable, max_size=40), data=st.data())
def test_fold_maps_every_span_back_to_the_characters_that_made_it(text, data):
    hidden = []
    for c in text:
        hidden.append(c)
        if data.draw(st.integers(0, 3)) == 0:
            hidden.append(data.draw(st.sampled_from(ZERO_WIDTH)))
    original = "".join(hidden)
    view = fold(original)
    assert view.text == text
    if text:
        a = data.draw(st.integers(0, len(text) - 1))
        b = data.draw(st.integers(a + 1, len(text)))
        s, e = view.span_back(a, b)
        assert fold(original[s:e]).text == text[a:b]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(text=st.text(max_size=60), casefold=st.booleans())
def test_fold_of_any_text_is_well_formed(text, casefold):
    view = fold(text, casefold=casefold)
    if view.identity:
        assert view.text == (text.lower() if casefold and text.isascii() else text)
        return
    idx = view.index
    assert len(idx) == len(view.text)
    assert all(0 <= i < len(text) for i in idx) and idx == sorted(idx)
    for a in range(len(view.text)):
        s, e = view.span_back(a, a + 1)
        assert 0 <= s < e <= len(text)
    # the pipeline replaces spans of any text without raising
    PIPE.run(text)
