"""Telling a final answer from a failed attempt at a tool call."""

from __future__ import annotations

import pytest

from model.parsing import format_instructions, looks_like_failed_call, parse_turn

NAMES = ["read_file", "write_file", "search"]

FAILED = [
    ('{"name": "read_file", "arguments": {"path": "a.txt"}}', "plain JSON"),
    ("I'll use this:\n```json\n{\"name\": \"search\", \"arguments\": {\"query\": \"x\"}}\n```", "code block"),
    ("<function=read_file>\n<parameter=path>\na\n</parameter>\n</function>", "<function=...> without"),
    ("<tools>\n[{\"name\": \"read_file\"}]\n</tools>", "<tools> list"),
    ("<tool_call>\nread the file\n</tool_call>", "could not be read"),
    ("Done </tool_call>", "could not be read"),
    ("<read_file path=\"a.txt\"/>", "<read_file> tag"),
    ("read_file(path='a.txt')", "as code"),
    ("```python\nsearch('cats')\n```", "as code"),
    ("{'name': 'write_file', 'parameters': {'path': 'a'}}", "plain JSON"),
]

ANSWERS = [
    "The file a.txt contains your notes about cats.",
    "I read the file with read_file and it says hello.",
    "Here is JSON you asked for:\n```json\n{\"name\": \"Ada\", \"age\": 36}\n```",
    "Use `<b>` for bold in HTML.",
    "",
]


@pytest.mark.parametrize("text,reason", FAILED)
def test_failed_attempts_are_recognised(text, reason):
    got = looks_like_failed_call(text, NAMES)
    assert got is not None and reason in got


@pytest.mark.parametrize("text", ANSWERS)
def test_genuine_answers_are_not_flagged(text):
    assert looks_like_failed_call(text, NAMES) is None


def test_unknown_names_in_json_are_not_calls():
    assert looks_like_failed_call('{"name": "weather", "arguments": {}}', NAMES) is None


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_format_instructions_describe_the_format(fmt):
    text = format_instructions(fmt)
    assert "<tool_call>" in text and "</tool_call>" in text
    assert ("<function=" in text) == (fmt == "xml")
    assert ('"arguments"' in text) == (fmt == "json")


def test_format_instructions_reject_unknown_format():
    with pytest.raises(ValueError, match="use 'xml' or 'json'"):
        format_instructions("yaml")


def test_example_call_parses_back():
    from model.parsing import example_call
    from test_parsing_corpus import TOOLS

    for fmt in ("xml", "json"):
        for tool in TOOLS:
            turn = parse_turn(example_call(tool, fmt), TOOLS, fmt=fmt, starts_in_think=False)
            assert [c.name for c in turn.tool_calls] == [tool["function"]["name"]], turn.errors
