"""Fuzz: byte-level damage of a JSONL or CSV input never aborts ``clinx text``, never echoes content, and never touches the input."""

import csv
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omegaconf import OmegaConf

from clinx.config import compose
from clinx.errors import ClinxError
from clinx.text.cli import run

ROWS = [
    "Patient John Smith, DOB 03/14/1961: is the left lung clear?",
    "SSN 123-45-6789, any effusion?",
    "Email j.smith@example.com about the CT?",
    "Is the heart enlarged?",
    "MRN 00482913 left lung clear?",
]
SECRETS = ("Smith", "1961", "6789", "example.com", "00482913")
BASE = compose("text", ["progress=false", "max_line_bytes=200000"])
SETTINGS = settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def damaged(draw, data: bytes) -> bytes:
    """``data`` with bytes flipped, inserted (invalid UTF-8, newlines, brackets, NUL) or cut off."""
    b = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "insert", "brackets", "nest", "long", "truncate"]))
        pos = draw(st.integers(0, max(0, len(b) - 1)))
        if op == "flip" and b:
            b[pos] = draw(st.integers(0, 255))
        elif op == "insert":
            b[pos:pos] = draw(st.sampled_from([b"\xff", b"\xc3", b"\n", b"\x00", b'"', b",", b"\xed\xa0\x80", b"\\ud800"]))
        elif op == "brackets":
            b[pos:pos] = b"[" * draw(st.integers(500, 5000))
        elif op == "nest":  # a whole line nested deeper than Python's recursion limit, short enough to be read
            n = draw(st.integers(20_000, 90_000))
            at = draw(st.sampled_from([0] + [i + 1 for i, c in enumerate(b) if c == 10]))
            b[at:at] = b'{"question": ' + b"[" * n + b"]" * n + b"}\n"
        elif op == "long":
            b[pos:pos] = b"x" * 250_000
        elif op == "truncate":
            del b[pos:]
    return bytes(b)


def _run(src: Path, out: Path, *extra):
    cfg = OmegaConf.merge(BASE, OmegaConf.from_dotlist([f"input={src}", f"output_dir={out}", *extra]))
    return run(cfg)


def _check_outputs(out: Path, summary: dict) -> None:
    assert json.loads((out / "summary.json").read_text())["rows"] == summary["rows"]
    assert summary["ok"] + summary["errors"] == summary["rows"]
    errs = (out / "errors.jsonl").read_text(encoding="utf-8")
    assert len(errs.splitlines()) == summary["errors"]
    for s in SECRETS:  # problems are fixed texts: nothing of the rows is quoted
        assert s not in errs and s not in (out / "summary.json").read_text()


@SETTINGS
@given(data=st.data())
def test_damaged_jsonl(data):
    raw = "".join(json.dumps({"id": i, "question": q}) + "\n" for i, q in enumerate(ROWS)).encode()
    # always one line nested past Python's recursion limit (Hypothesis raises it by a few
    # thousand while a test runs), short enough to be read
    raw += b'{"question": ' + b"[" * 50_000 + b"]" * 50_000 + b"}\n"
    blob = data.draw(damaged(raw))
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "q.jsonl", Path(d) / "out"
        src.write_bytes(blob)
        summary = _run(src, out)
        assert src.read_bytes() == blob
        _check_outputs(out, summary)
        lines = (out / "q.deid.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == summary["ok"]
        for ln in lines:
            json.loads(ln)
            assert "\ufffd" not in ln  # a line that was not UTF-8 is an error, never released "repaired"


@SETTINGS
@given(data=st.data())
def test_damaged_csv(data):
    rows = [["id", "question"]] + [[str(i), q] for i, q in enumerate(ROWS)]
    with tempfile.TemporaryDirectory() as d:
        clean = Path(d) / "clean.csv"
        with clean.open("w", newline="") as f:
            csv.writer(f).writerows(rows)
        header_len = len(b"id,question\r\n")
        body = data.draw(damaged(clean.read_bytes()[header_len:]))
        blob = clean.read_bytes()[:header_len] + body
        src, out = Path(d) / "n.csv", Path(d) / "out"
        src.write_bytes(blob)
        try:
            summary = _run(src, out)
        except ClinxError as e:  # the only setup error a damaged body may cause: none
            raise AssertionError(f"a damaged body stopped the run: {e}") from None
        assert src.read_bytes() == blob
        _check_outputs(out, summary)
        with (out / "n.deid.csv").open(newline="", encoding="utf-8") as f:
            released = list(csv.DictReader(f))
        assert len(released) == summary["ok"]
        assert not any("\ufffd" in v for r in released for v in r.values() if isinstance(v, str))
