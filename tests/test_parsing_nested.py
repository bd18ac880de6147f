"""Call markup inside an argument is data: a nested call never runs (issue 15, item 2).

Every case goes through the path the agent uses: the model's output text is
parsed (whole with ``parse_turn`` and streamed with ``StreamParser``, split at
every position) into the turn's list of calls.
"""

from __future__ import annotations

import json

import pytest

from model.parsing import StreamParser, parse_turn
from model.parsing_scan import scan_block
from test_parsing_corpus import TOOLS, xml

DELETE_TOOL = {"type": "function", "function": {"name": "delete", "description": "Delete a file.", "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}
ALL = TOOLS + [DELETE_TOOL]

NESTED_XML = xml("delete", path="a.txt")
NESTED_JSON = '<tool_call>\n{"name": "delete", "arguments": {"path": "a.txt"}}\n</tool_call>'


def calls_of(text: str, fmt: str = "xml", in_think: bool = False):
    """The calls parsed from ``text``, checked equal whole and streamed at every split."""
    whole = parse_turn(text, ALL, fmt=fmt, starts_in_think=in_think)
    for cut in range(len(text) + 1):
        parser = StreamParser(ALL, fmt, in_think)
        streamed = parser.feed(text[:cut]) + parser.feed(text[cut:]) + parser.flush()
        assert parser.finish() == whole, cut
        assert len([t for k, t in streamed if k == "tool_call"]) == len(whole.tool_calls) + len(whole.errors)
    return [(c.name, c.arguments) for c in whole.tool_calls], whole


@pytest.mark.parametrize("nested", [NESTED_XML, NESTED_JSON], ids=["xml-inside", "json-inside"])
def test_xml_write_holding_a_whole_call_writes_it_as_text(nested):
    content = f"Notes on the format:\n{nested}\nend of notes"
    calls, turn = calls_of(xml("write_file", path="notes.md", content=content))
    assert calls == [("write_file", {"path": "notes.md", "content": content})]
    assert not turn.errors


@pytest.mark.parametrize("nested", [NESTED_XML, NESTED_JSON], ids=["xml-inside", "json-inside"])
def test_json_write_holding_a_whole_call_writes_it_as_text(nested):
    content = f"before </tool_call>\n{nested}\n<tool_call> after"
    text = "<tool_call>\n" + json.dumps({"name": "write_file", "arguments": {"path": "n.md", "content": content}}) \
        + "\n</tool_call>"
    for fmt in ("json", "xml"):
        calls, turn = calls_of(text, fmt)
        assert calls == [("write_file", {"path": "n.md", "content": content})]
        assert not turn.errors


def test_nested_call_in_a_value_that_is_the_last_parameter_and_more_calls_follow():
    content = f"{NESTED_XML}\n{NESTED_XML}"
    text = xml("write_file", path="a.md", content=content) + "\n" + xml("read_file", path="a.md")
    calls, _ = calls_of(text)
    assert calls == [("write_file", {"path": "a.md", "content": content}), ("read_file", {"path": "a.md"})]


def test_nested_call_in_a_value_followed_by_another_parameter():
    text = ("<tool_call>\n<function=write_file>\n<parameter=content>\n" + NESTED_XML
            + "\n</parameter>\n<parameter=path>\nx.md\n</parameter>\n</function>\n</tool_call>")
    calls, _ = calls_of(text)
    assert calls == [("write_file", {"content": NESTED_XML, "path": "x.md"})]


def test_parameter_close_inside_a_value_is_data_when_no_parameter_or_function_follows():
    content = "a </parameter> b\n</parameter>\nstill text </function> c"
    calls, _ = calls_of(xml("write_file", path="p.xml", content=content))
    assert calls == [("write_file", {"path": "p.xml", "content": content})]


def test_unmatched_tool_call_mention_in_a_value_still_parses():
    # rule 2 cannot be met (the <tool_call> is never closed): rule 1 alone ends the value
    content = "Wrap calls in a <tool_call> tag."
    calls, turn = calls_of(xml("write_file", path="h.md", content=content) + "\n" + xml("read_file", path="h.md"))
    assert calls == [("write_file", {"path": "h.md", "content": content}), ("read_file", {"path": "h.md"})]
    assert not turn.errors


def test_call_close_sequence_outside_a_nested_call_ends_the_value():
    # The documented limit: </parameter> + </function> + </tool_call> is how a call ends.
    text = ("<tool_call>\n<function=write_file>\n<parameter=path>\nx\n</parameter>\n<parameter=content>\n"
            "one\n</parameter>\n</function>\n</tool_call>\ntwo\n</parameter>\n</function>\n</tool_call>")
    calls, turn = calls_of(text)
    assert calls == [("write_file", {"path": "x", "content": "one"})]
    assert "two" in turn.content


def test_json_string_that_never_ends_swallows_the_rest_of_the_turn():
    text = ('<tool_call>\n{"name": "write_file", "arguments": {"path": "a", "content": "open\n</tool_call>\n'
            + NESTED_XML + "\nmore")
    calls, turn = calls_of(text)
    assert calls == []
    assert len(turn.errors) == 1 and turn.errors[0].raw == text


def test_xml_value_that_never_ends_swallows_the_rest_of_the_turn():
    text = "<tool_call>\n<function=write_file>\n<parameter=content>\nx\n</tool_call>\n" + NESTED_JSON + "\nbye"
    calls, turn = calls_of(text)
    assert calls == []
    assert len(turn.errors) == 1 and turn.errors[0].raw == text and "not closed" in turn.errors[0].message


def test_value_closed_only_inside_a_nested_call_keeps_the_nested_call_as_data():
    # the outer value's only </parameter> is the nested call's: rule 1 alone ends it there,
    # so the outer call swallows the nested one (a write missing its path), and nothing runs
    text = "<tool_call>\n<function=write_file>\n<parameter=content>\nx\n</tool_call>\n" + NESTED_XML
    calls, turn = calls_of(text)
    assert calls == []
    assert len(turn.errors) == 1 and turn.errors[0].raw == text


def test_json_braces_inside_strings_do_not_count():
    content = 'if (x) { return "}"; } <tool_call> ]]'
    text = "<tool_call>\n" + json.dumps({"name": "write_file", "arguments": {"path": "c.js", "content": content}}) \
        + "\n</tool_call>"
    calls, _ = calls_of(text, "json")
    assert calls == [("write_file", {"path": "c.js", "content": content})]


def test_single_quoted_json_with_markup_in_strings():
    text = "<tool_call>\n{'name': 'write_file', 'arguments': {'path': 'q', 'content': '</tool_call><tool_call>'}}" \
           "\n</tool_call>"
    calls, _ = calls_of(text, "json")
    assert calls == [("write_file", {"path": "q", "content": "</tool_call><tool_call>"})]


def test_scan_block_reads_values_and_the_block_end():
    text = xml("write_file", path="a", content=NESTED_XML) + " tail"
    scan = scan_block(text)
    assert text[scan.start:scan.end] == xml("write_file", path="a", content=NESTED_XML)
    assert scan.closed and scan.name == "write_file" and scan.problem is None
    assert scan.params == [("path", "a"), ("content", NESTED_XML)]
