"""Streaming parse: any split of a text gives the same turn as parsing it whole."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from model.parsing import StreamParser, parse_turn
from test_parsing_corpus import CORPUS, READ_A, READ_A_JSON, TOOLS

PIECES = ["<think>", "</think>", "<tool_call>", "</tool_call>", "\n", " ", "hello", "你好", "<", "</",
          "<too", "</thi", READ_A, READ_A_JSON, "<function=read_file>", "<parameter=path>", "a.txt",
          "</parameter>", "</function>", '{"name": "search", "arguments": {"query": "x"}}',
          "<parameter=query>", '{"name": "search", "arguments": {"query": "', '"}}', "{", "}", "'", '"', "\\"]


def _stream(text: str, cuts: list[int], in_think: bool, fmt: str = "xml"):
    parser = StreamParser(TOOLS, fmt, in_think)
    deltas = []
    prev = 0
    for cut in sorted(set(c % (len(text) + 1) for c in cuts)) + [len(text)]:
        deltas += parser.feed(text[prev:cut])
        prev = cut
    deltas += parser.flush()
    return parser.finish(), deltas


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14), st.lists(st.integers(0, 10_000), max_size=8),
       st.booleans())
def test_any_split_equals_whole_parse(parts, cuts, in_think):
    text = "".join(parts)
    whole = parse_turn(text, TOOLS, fmt="xml", starts_in_think=in_think)
    streamed, deltas = _stream(text, cuts, in_think)
    assert streamed == whole
    reasoning = "".join(t for k, t in deltas if k == "reasoning")
    content = "".join(t for k, t in deltas if k == "content")
    assert reasoning.strip() == whole.reasoning
    assert content.strip() == whole.content
    calls = [t for k, t in deltas if k == "tool_call"]
    assert len(calls) == len(whole.tool_calls) + len(whole.errors)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(CORPUS), st.lists(st.integers(0, 10_000), max_size=6))
def test_corpus_streamed_equals_whole(case, cuts):
    text, in_think = case[1], case[2]
    streamed, _ = _stream(text, cuts, in_think)
    assert streamed == parse_turn(text, TOOLS, fmt="xml", starts_in_think=in_think)


def test_partial_tag_is_held_back_until_decided():
    parser = StreamParser(TOOLS, "xml", False)
    assert parser.feed("Sure. <too") == [("content", "Sure. ")]
    assert parser.feed("l_call>\n<function=read_file>") == []
    out = parser.feed("\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call> ok")
    assert out == [("tool_call", READ_A), ("content", " ok")]
    assert parser.finish().tool_calls[0].arguments == {"path": "a.txt"}


def test_held_back_text_that_is_not_a_tag_comes_out():
    parser = StreamParser(TOOLS, "xml", False)
    assert parser.feed("a <to") == [("content", "a ")]
    assert parser.feed("p") == [("content", "<top")]


def test_reasoning_streams_before_the_close_tag():
    parser = StreamParser(TOOLS, "xml", True)
    assert parser.feed("\nfirst ") == [("reasoning", "first ")]
    assert parser.feed("second</th") == [("reasoning", "second")]
    assert parser.feed("ink>\n\nAnswer") == [("content", "Answer")]
    turn = parser.finish()
    assert (turn.reasoning, turn.content) == ("first second", "Answer")


def test_call_in_open_reasoning_waits_for_the_close_or_the_end():
    parser = StreamParser(TOOLS, "xml", True)
    assert parser.feed("plan " + READ_A) == [("reasoning", "plan ")]
    assert parser.flush() == [("tool_call", READ_A)]
    assert parser.finish().tool_calls[0].name == "read_file"


def test_malformed_call_is_streamed_as_its_raw_text():
    parser = StreamParser(TOOLS, "xml", False)
    out = parser.feed("<tool_call>\nbroken\n</tool_call>")
    assert out == [("tool_call", "<tool_call>\nbroken\n</tool_call>")]
    assert parser.finish().errors[0].index == 0
