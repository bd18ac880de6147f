"""Hostile model outputs (issue 15, item 5) parse to structured errors, never to calls.

The same shapes as bench/parsing.py, at 224 KB. Their parse time is measured
there (linear in the length), not here: these tests prove what the parse
says, whole and streamed, and what the failed-call detector says.
"""

from __future__ import annotations

import pytest

from model.parsing import StreamParser, looks_like_failed_call, parse_turn

TOOLS = [
    {"type": "function", "function": {"name": name, "description": "", "parameters": {
        "type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path"]}}}
    for name in ("read_file", "write_file", "delete")
]
NAMES = ["read_file", "write_file", "delete"]
SIZE = 224 * 1024
NESTED = "<tool_call>\n<function=delete>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>\n"


def repeat(unit: str) -> str:
    return unit * (SIZE // len(unit))


def parse_both(text: str, fmt: str = "xml"):
    whole = parse_turn(text, TOOLS, fmt=fmt, starts_in_think=False)
    parser = StreamParser(TOOLS, fmt, False)
    for i in range(0, len(text), 997):
        parser.feed(text[i: i + 997])
    assert parser.finish() == whole
    return whole


# (id, text, number of errors, a substring of the first error)
BROKEN = [
    ("unclosed parameter", "<tool_call>\n<function=write_file>\n" + repeat("<parameter=a>")
     + "</function>\n</tool_call>", 1, "parameter 'a' is not closed"),
    ("unclosed parameter, no end", "<tool_call>\n<function=write_file>\n" + repeat("<parameter=a>"), 1,
     "<function=write_file> is not closed"),
    ("function opens", "<tool_call>\n" + repeat("<function=") + "\n</tool_call>", 1,
     "expected <function=NAME>"),
    ("function opens with names", "<tool_call>\n" + repeat("<function=read_file>\n"), 1,
     "unexpected text between parameters"),
    ("json junk", '<tool_call>\n{"name": "write_file", "arguments": {"content": ' + repeat('[{"a": "x", ')
     + "\n</tool_call>", 1, "invalid JSON"),
    ("json string never closed", '<tool_call>\n{"name": "write_file", "arguments": {"content": "'
     + repeat(NESTED), 1, "invalid JSON"),
]


@pytest.mark.parametrize("case", BROKEN, ids=[c[0] for c in BROKEN])
def test_hostile_call_blocks_are_errors_not_calls(case):
    _id, text, n_errors, message = case
    turn = parse_both(text)
    assert turn.tool_calls == []
    assert len(turn.errors) == n_errors
    assert message in turn.errors[0].message
    assert turn.errors[0].expected  # a correct example goes back to the model
    assert turn.raw == text


def test_repeated_opens_are_one_empty_block_each():
    text = repeat("<tool_call>")
    turn = parse_both(text)
    assert turn.tool_calls == [] and len(turn.errors) == text.count("<tool_call>")
    assert {e.message for e in turn.errors} == {"the <tool_call> block is empty"}


def test_a_huge_value_full_of_calls_is_one_write():
    content = repeat(NESTED)
    text = ("<tool_call>\n<function=write_file>\n<parameter=path>\nlog.txt\n</parameter>\n<parameter=content>\n"
            + content + "\n</parameter>\n</function>\n</tool_call>")
    turn = parse_both(text)
    assert [(c.name, c.arguments) for c in turn.tool_calls] == [("write_file", {"path": "log.txt",
                                                                                "content": content})]
    assert turn.errors == []


@pytest.mark.parametrize("text, reason", [
    (repeat("<parameter=a>"), None),
    (repeat('"name": "read_file", '), None),
    (repeat('{"name": "read_file", "arguments": '), "as plain JSON"),
    (repeat("```x\n"), None),
    (repeat("```json\n" + '{"name": "read_file", "arguments": {}}\n'), "in a code block"),
    (repeat("```x``") + "\n", None),
    (repeat("<function="), "without the enclosing <tool_call>"),
], ids=["parameters", "name keys", "json calls", "fences", "fenced calls", "fence runs", "function opens"])
def test_failed_call_detector_on_hostile_text(text, reason):
    turn = parse_both(text)
    assert turn.tool_calls == [] and turn.errors == []
    found = looks_like_failed_call(text, NAMES)
    assert found is None if reason is None else reason in found
