"""A corpus of model outputs, good and broken, each with its expected parse."""

from __future__ import annotations

import enum
from typing import Optional

import pytest
from pydantic import BaseModel, Field

from model.parsing import parse_turn
from tools.base import Tool


class Mode(str, enum.Enum):
    overwrite = "overwrite"
    append = "append"


class ReadParams(BaseModel):
    path: str
    limit: Optional[int] = None


class WriteParams(BaseModel):
    path: str
    content: str
    mode: Mode = Mode.overwrite


class SearchParams(BaseModel):
    query: str
    max_results: int = 5
    tags: list[str] = Field(default_factory=list)
    exact: bool = False
    options: dict[str, int] = Field(default_factory=dict)
    weight: float = 1.0


def _noop(ctx, params):  # pragma: no cover - never run
    return ""


TOOLS = [
    Tool("read_file", "Read a file.", ReadParams, _noop).schema(),
    Tool("write_file", "Write a file.", WriteParams, _noop).schema(),
    Tool("search", "Search notes.", SearchParams, _noop).schema(),
]


def xml(name: str, **params: str) -> str:
    body = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in params.items())
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


READ_A = xml("read_file", path="a.txt")
READ_A_JSON = '<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>'

# (id, text, starts_in_think, reasoning, content, [(name, args)], [error substrings])
CORPUS = [
    ("plain answer", "The answer is 4.", False, "", "The answer is 4.", [], []),
    ("empty", "", False, "", "", [], []),
    ("whitespace only", "  \n ", False, "", "", [], []),
    ("reasoning then answer", "Let me think.\n</think>\n\nIt is 4.", True, "Let me think.", "It is 4.", [], []),
    ("unclosed reasoning", "Still thinking about it", True, "Still thinking about it", "", [], []),
    ("explicit think block", "<think>\nhmm\n</think>\n\nDone.", False, "hmm", "Done.", [], []),
    ("redundant think tag", "<think>\nhmm\n</think>\nDone.", True, "hmm", "Done.", [], []),
    ("think tag later is content", "Hi <think>x</think>", False, "", "Hi <think>x</think>", [], []),
    ("xml call", READ_A, False, "", "", [("read_file", {"path": "a.txt"})], []),
    ("json call", READ_A_JSON, False, "", "", [("read_file", {"path": "a.txt"})], []),
    ("xml call after reasoning", "I should read it.\n</think>\n\n" + READ_A, True, "I should read it.", "",
     [("read_file", {"path": "a.txt"})], []),
    ("text before and after", "Reading now.\n" + READ_A + "\nThen I answer.", False, "",
     "Reading now.\n\nThen I answer.", [("read_file", {"path": "a.txt"})], []),
    ("three calls", READ_A + "\n" + READ_A_JSON + "\n" + xml("search", query="cats"), False, "", "",
     [("read_file", {"path": "a.txt"}), ("read_file", {"path": "a.txt"}), ("search", {"query": "cats"})], []),
    ("integer coerced", xml("read_file", path="a", limit="10"), False, "", "",
     [("read_file", {"path": "a", "limit": 10})], []),
    ("null for optional int", xml("read_file", path="a", limit="null"), False, "", "",
     [("read_file", {"path": "a", "limit": None})], []),
    ("all types xml", xml("search", query="q", max_results="3", tags='["a", "b"]', exact="true",
                          options='{"x": 1}', weight="0.5"), False, "", "",
     [("search", {"query": "q", "max_results": 3, "tags": ["a", "b"], "exact": True, "options": {"x": 1},
                  "weight": 0.5})], []),
    ("boolean capitalised", xml("search", query="q", exact="True"), False, "", "",
     [("search", {"query": "q", "exact": True})], []),
    ("string stays raw", xml("read_file", path="123"), False, "", "", [("read_file", {"path": "123"})], []),
    ("json string numbers coerced", '<tool_call>\n{"name": "search", "arguments": {"query": "q", '
     '"max_results": "7", "exact": "false"}}\n</tool_call>', False, "", "",
     [("search", {"query": "q", "max_results": 7, "exact": False})], []),
    ("json arguments as string", '<tool_call>\n{"name": "read_file", "arguments": "{\\"path\\": \\"b\\"}"}'
     "\n</tool_call>", False, "", "", [("read_file", {"path": "b"})], []),
    ("json parameters key", '<tool_call>{"name": "read_file", "parameters": {"path": "b"}}</tool_call>',
     False, "", "", [("read_file", {"path": "b"})], []),
    ("json trailing comma", '<tool_call>\n{"name": "read_file", "arguments": {"path": "b",},}\n</tool_call>',
     False, "", "", [("read_file", {"path": "b"})], []),
    ("json single quotes", "<tool_call>\n{'name': 'read_file', 'arguments': {'path': 'b'}}\n</tool_call>",
     False, "", "", [("read_file", {"path": "b"})], []),
    ("integral float to int", '<tool_call>{"name": "search", "arguments": {"query": "q", "max_results": 2.0}}'
     "</tool_call>", False, "", "", [("search", {"query": "q", "max_results": 2})], []),
    ("cjk and emoji values", xml("write_file", path="笔记.txt", content="你好 🌍"), False, "", "",
     [("write_file", {"path": "笔记.txt", "content": "你好 🌍"})], []),
    ("multi-line value", xml("write_file", path="a.md", content="# T\n\nline 2\n  indented\n"), False, "", "",
     [("write_file", {"path": "a.md", "content": "# T\n\nline 2\n  indented\n"})], []),
    ("value with angle brackets", xml("write_file", path="a.html", content="<b>x</b> < y"), False, "", "",
     [("write_file", {"path": "a.html", "content": "<b>x</b> < y"})], []),
    ("enum value", xml("write_file", path="a", content="c", mode="append"), False, "", "",
     [("write_file", {"path": "a", "content": "c", "mode": "append"})], []),
    ("inline xml value", "<tool_call><function=read_file><parameter=path>a.txt</parameter></function>"
     "</tool_call>", False, "", "", [("read_file", {"path": "a.txt"})], []),
    ("call inside closed reasoning is reasoning", "Maybe " + READ_A + " no.\n</think>\n\nHello.", True,
     "Maybe " + READ_A + " no.", "Hello.", [], []),
    ("call ends unclosed reasoning", "I will read.\n" + READ_A, True, "I will read.", "",
     [("read_file", {"path": "a.txt"})], []),
    # broken calls
    ("unknown tool", xml("delete_all", path="x"), False, "", "", [], ["unknown tool 'delete_all'"]),
    ("missing required", xml("write_file", path="a"), False, "", "", [], ["missing required parameter(s): content"]),
    ("bad integer", xml("read_file", path="a", limit="ten"), False, "", "", [], ["'limit' must be integer"]),
    ("bad enum", xml("write_file", path="a", content="c", mode="replace"), False, "", "", [],
     ["'mode' must be one of"]),
    ("bad array json", xml("search", query="q", tags="[a, b"), False, "", "", [], ["'tags' must be array"]),
    ("bad json", "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": }\n</tool_call>", False, "", "",
     [], ["invalid JSON"]),
    ("json string cut off", '<tool_call>\n{"name": "write_file", "arguments": {"path": "a", "content": "I could not '
     'find it in the\n</tool_call>', False, "", "", [], ["cut off inside a string"]),
    ("json without name", '<tool_call>{"arguments": {"path": "a"}}</tool_call>', False, "", "", [],
     ['string "name"']),
    ("unclosed tool_call at end", "Reading.\n<tool_call>\n<function=read_file>\n<parameter=path>\na", False, "",
     "Reading.", [], ["<function=read_file> is not closed"]),
    ("complete call without closing tag", "<tool_call>\n" + '{"name": "read_file", "arguments": {"path": "a"}}',
     False, "", "", [], ["end it with </tool_call>"]),
    ("unclosed parameter", "<tool_call>\n<function=read_file>\n<parameter=path>\na\n</function>\n</tool_call>",
     False, "", "", [], ["not closed"]),
    ("wrong nesting", "<tool_call>\n<parameter=path>\na\n</parameter>\n<function=read_file>\n</function>\n"
     "</tool_call>", False, "", "", [], ["unexpected text before <function=...>"]),
    ("empty call", "<tool_call>\n</tool_call>", False, "", "", [], ["empty"]),
    ("text in call body", "<tool_call>\nplease read a.txt\n</tool_call>", False, "", "", [],
     ["expected a JSON object"]),
    ("call cut by next call", "<tool_call>\n<function=read_file>\n" + READ_A, False, "", "",
     [("read_file", {"path": "a.txt"})], ["not closed"]),
    ("two objects in one call", '<tool_call>\n{"name": "read_file", "arguments": {"path": "a"}}\n'
     '{"name": "read_file", "arguments": {"path": "b"}}\n</tool_call>', False, "", "", [],
     ["one call per <tool_call> block"]),
    ("duplicate parameter", "<tool_call>\n<function=read_file>\n<parameter=path>\na\n</parameter>\n"
     "<parameter=path>\nb\n</parameter>\n</function>\n</tool_call>", False, "", "", [], ["given twice"]),
    ("good and bad in one turn", READ_A + "\n" + xml("nope"), False, "", "", [("read_file", {"path": "a.txt"})],
     ["unknown tool 'nope'"]),
    ("stray closing tag is content", "Done </tool_call>", False, "", "Done </tool_call>", [], []),
]


@pytest.mark.parametrize("case", CORPUS, ids=[c[0] for c in CORPUS])
def test_corpus_parses_as_expected(case):
    _id, text, in_think, reasoning, content, calls, errors = case
    turn = parse_turn(text, TOOLS, fmt="xml", starts_in_think=in_think)
    assert turn.reasoning == reasoning
    assert turn.content == content
    assert [(c.name, c.arguments) for c in turn.tool_calls] == calls
    assert len(turn.errors) == len(errors), turn.errors
    for err, want in zip(turn.errors, errors):
        assert want in err.message
    assert turn.raw == text


def test_corpus_is_large_enough():
    assert len(CORPUS) >= 40


def test_call_raw_text_is_kept_exactly():
    text = "Intro\n" + READ_A + "\noutro"
    turn = parse_turn(text, TOOLS, fmt="xml", starts_in_think=False)
    assert turn.tool_calls[0].raw == READ_A


def test_error_gives_index_and_an_example_in_the_active_format():
    text = READ_A + "\n" + xml("write_file", path="a")
    for fmt in ("xml", "json"):
        turn = parse_turn(text, TOOLS, fmt=fmt, starts_in_think=False)
        err = turn.errors[0]
        assert err.index == 1
        assert err.raw == xml("write_file", path="a")
        example = parse_turn(err.expected, TOOLS, fmt=fmt, starts_in_think=False)
        assert [c.name for c in example.tool_calls] == ["write_file"]
        assert not example.errors
        assert ("<function=write_file>" in err.expected) == (fmt == "xml")


def test_unknown_tool_example_uses_the_closest_tool():
    turn = parse_turn(xml("read_fil", path="a"), TOOLS, fmt="json", starts_in_think=False)
    assert '"name": "read_file"' in turn.errors[0].expected


def test_no_tools_means_every_call_is_an_error_without_example():
    turn = parse_turn(READ_A, [], fmt="xml", starts_in_think=False)
    assert turn.errors and turn.errors[0].expected == ""
    assert "Available tools: (none)" in turn.errors[0].message
