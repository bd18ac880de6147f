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


def test_a_json_call_with_its_name_under_function_is_salvaged():
    """calendar_list_day at 412fd36: Qwen 1.5B answered with {"function": "finish", "arguments": {"answer": ...}}
    twice, each refused as call markup in an answer (the right events in the first), then ran out of steps."""
    from model.parsing_failed import looks_like_failed_call, salvage_json_calls

    text = ('{\n"function": "finish",\n"arguments": {\n    "answer": "Mon 2026-12-07 09:00-09:15 Team standup"\n}\n}')
    assert looks_like_failed_call(text, ["finish", "read_file"]) is not None
    calls, prose = salvage_json_calls(text, ["finish", "read_file"])
    assert calls[0][:2] == ("finish", {"answer": "Mon 2026-12-07 09:00-09:15 Team standup"}) and prose == ""
    # a "function" that is no tool, or both keys at once, is not a call
    assert salvage_json_calls('{"function": "sum", "arguments": {"x": 1}}', ["finish"])[0] == []
    assert salvage_json_calls('{"name": "finish", "function": "read_file", "arguments": {}}',
                              ["finish", "read_file"])[0] == []


def test_the_arguments_of_an_offered_call_without_its_name_are_that_call():
    from model.parsing_failed import nameless_call

    offer = [("csv_write", {"path": "top3.csv", "rows": [["Customer", "Total"], ["Harbor", 1845.25]]})]
    text = '{"arguments": {"rows": [["Customer", "Total"], ["Harbor", 1845.25]], "header": true, "path": "top3.csv"}}'
    assert nameless_call(text, offer) == ("csv_write", {"rows": [["Customer", "Total"], ["Harbor", 1845.25]],
                                                        "path": "top3.csv"}, text)
    assert nameless_call('```json\n{"path": "top3.csv", "rows": []}\n```', offer)[0] == "csv_write"  # bare, fenced
    assert nameless_call('{"path": "other.csv", "rows": []}', offer) is None  # not the offer's path
    assert nameless_call('{"name": "csv_write", "path": "top3.csv"}', offer) is None  # named: not nameless
    assert nameless_call(text, []) is None  # nothing offered
    assert nameless_call("The top customer is Harbor (1845.25), saved to top3.csv.", offer) is None
