"""Strict JSON recovered from the ways LLMs actually wrap it."""

import pytest

from clinx.llm.jsonparse import JSONParseError, parse_json, strip_wrappers


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": 1}', {"a": 1}),
        ("  [1, 2, 3]\n", [1, 2, 3]),
        ('```json\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ('Here you go:\n```\n{"a": 2}\n```\nHope it helps!', {"a": 2}),
        ('<think>maybe {"a": 0}? no.</think>\n{"a": 3}', {"a": 3}),
        ('</think>{"a": 4}', {"a": 4}),  # template opened the think block in the prompt
        ('Sure! The answer is {"text": "Is {this} ok?"} -- done.', {"text": "Is {this} ok?"}),
        ('{"a": "brace } and quote \\" inside"}', {"a": 'brace } and quote " inside'}),
        ('{"a": [1, 2,], "b": {"c": 1,},}', {"a": [1, 2], "b": {"c": 1}}),
        ('{"s": "keep , ] this"}', {"s": "keep , ] this"}),
        ('He said "hi" {"a": {"b": {"c": [1, {"d": null}]}}} trailing }', {"a": {"b": {"c": [1, {"d": None}]}}}),
        ("noise {note: {\"a\": 1}} tail", {"a": 1}),  # invalid container, valid inner object
    ],
)
def test_recovers_json(text, expected):
    assert parse_json(text) == expected


def test_expect_skips_values_of_the_wrong_kind():
    assert parse_json('[1] then {"a": 1}', expect=dict) == {"a": 1}
    assert parse_json('[{"a": 1}]', expect=dict) == {"a": 1}
    assert parse_json('{"a": [1]}', expect=list) == [1]


@pytest.mark.parametrize(
    "text",
    ["", "   ", "no json at all", '{"a": 1', "<think>{\"a\": 1}", "{'a': 1}", "[1, 2", '{"a": undefined}'],
)
def test_invalid_raises_clear_error_without_echoing_text(text):
    with pytest.raises(JSONParseError) as ei:
        parse_json(text)
    if len(text.strip()) > 3:
        assert text.strip() not in str(ei.value)


def test_scalars_are_not_objects():
    with pytest.raises(JSONParseError):
        parse_json("42")
    with pytest.raises(JSONParseError):
        parse_json("[1]", expect=dict)


def test_non_text_input():
    with pytest.raises(JSONParseError):
        parse_json(None)  # type: ignore[arg-type]


def test_unclosed_think_is_dropped():
    assert strip_wrappers("<think>never ends") == ""


def test_pathological_input_is_linear_enough():
    # 200k unmatched brackets: must fail cleanly, not hang or blow the stack.
    with pytest.raises(JSONParseError):
        parse_json("{[" * 100_000)
