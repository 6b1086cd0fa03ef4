"""The one PHI-safe error policy (clinx.errors.safe_reason) and log-record escaping."""

import logging

from clinx.errors import ConfigError, EscapingFilter, InputError, escape_text, safe_reason
from clinx.records import Manifest

M = Manifest(fields={"patient_name": "QUIXBY^ZELDARINE", "mrn": "MRN8675309"})


def test_library_messages_are_dropped_clinx_messages_kept():
    assert safe_reason(ValueError("Invalid value for VR PN: 'QUIXBY^ZELDARINE'")) == "unexpected ValueError"
    assert safe_reason(MemoryError()) == "out of memory"
    assert safe_reason(InputError("item-1", "image is too small (1x1 pixels)", stage="read")) == "image is too small (1x1 pixels)"
    assert safe_reason(ConfigError("workers must be an integer")) == "workers must be an integer"


def test_manifest_values_and_their_tokens_are_scrubbed_case_insensitively():
    text = safe_reason("engine read QUIXBY^ZELDARINE, zeldarine and MRN8675309", M)
    assert text == "engine read [patient_name], [patient_name] and [mrn]"


def test_control_characters_are_escaped_and_length_is_bounded():
    text = safe_reason("a\nb\rc\u2028d\u202ee" + os_surrogate() + "x" * 1000)
    assert "\n" not in text and "\r" not in text and "\u2028" not in text and "\u202e" not in text
    assert "\\x0a" in text and "\\u2028" in text and "\\udcff" in text
    assert len(text) <= 300
    text.encode("utf-8")  # no lone surrogate survives


def os_surrogate() -> str:
    import os

    return os.fsdecode(b"\xff")


def test_escaping_filter_keeps_every_record_on_one_line(caplog):
    logger = logging.getLogger("clinx.test_escape")
    caplog.handler.addFilter(EscapingFilter())
    try:
        logger.warning("item %s failed", "x\n[INFO] all items sanitized OK")
    finally:
        caplog.handler.filters.clear()
    assert len(caplog.text.strip().splitlines()) == 1 and "\\x0a[INFO]" in caplog.text
    assert escape_text("plain é 名") == "plain é 名"
