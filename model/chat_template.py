"""Render prompts with the model's own chat template in a sandboxed Jinja.

The environment matches what Hugging Face ``transformers`` gives templates
(``ImmutableSandboxedEnvironment`` with ``trim_blocks`` and ``lstrip_blocks``,
a ``tojson`` filter that keeps non-ASCII text, ``raise_exception`` and
``strftime_now``), plus our template variables ``tools``, ``tool_call_format``,
``enable_thinking``, ``preserve_thinking`` and ``add_generation_prompt``.

Templates that know nothing of tools (the SmolLM2 demo model's is plain
ChatML) still get a working protocol: the tool list and the call format are
added to the system message, past calls are written into the assistant text,
and tool results go back as user turns wrapped in ``<tool_response>``.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from jinja2 import TemplateError as JinjaTemplateError
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

from .call_format import check_format, format_instructions, render_call, tool_signature
from .types import Message

__all__ = ["ChatTemplate", "TemplateError", "CHATML_FALLBACK"]


class TemplateError(Exception):
    """The chat template is missing, does not compile, or raised while rendering.

    The message is one line for the user.
    """


class _Raised(Exception):
    """Raised by the template's own ``raise_exception``."""


def _raise_exception(message: str) -> None:
    raise _Raised(str(message))


def _tojson(value: Any, ensure_ascii: bool = False, indent: int | None = None,
            separators: Any = None, sort_keys: bool = False) -> str:
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _strftime_now(fmt: str) -> str:
    return datetime.now().strftime(fmt)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


# A Hermes/Qwen2.5-style ChatML template, used when a GGUF has no template.
# It honours tools (listed in the system turn), tool_call_format ("json": the
# Hermes {"name", "arguments"} object; "xml": <function=..><parameter=..>),
# reasoning (<think> blocks, kept when preserve_thinking), role "tool"
# (consecutive results grouped in one user turn of <tool_response> blocks) and
# enable_thinking (the generation prompt then opens <think>).
CHATML_FALLBACK = r"""
{%- set fmt = tool_call_format | default('json') -%}
{%- set has_system = messages and messages[0].role == 'system' -%}
{%- if has_system or tools -%}
<|im_start|>system
{% if has_system %}{{ messages[0].content }}{% endif %}
{%- if tools -%}
{% if has_system %}{{ '\n\n' }}{% endif %}# Tools

You may call one or more functions to assist with the user query. The functions are listed in <tools></tools>:
<tools>
{% for tool in tools %}{{ tool | tojson }}
{% endfor %}</tools>

{% if fmt == 'xml' -%}
To call a function, write:
<tool_call>
<function=FUNCTION_NAME>
<parameter=PARAMETER_NAME>
VALUE
</parameter>
</function>
</tool_call>
String values are plain text; other values are JSON.
{%- else -%}
For each function call, return a JSON object with the function name and arguments within <tool_call></tool_call> tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>
{%- endif %}
{%- endif %}
<|im_end|>
{% endif -%}
{%- for message in messages -%}
{%- if message.role == 'system' -%}
{%- if not loop.first %}<|im_start|>system
{{ message.content }}<|im_end|>
{% endif -%}
{%- elif message.role == 'user' -%}
<|im_start|>user
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' -%}
<|im_start|>assistant
{% if message.reasoning_content and preserve_thinking | default(true) %}<think>
{{ message.reasoning_content }}
</think>

{% endif %}{{ message.content }}
{%- for tc in message.tool_calls | default([]) -%}
{%- set call = tc.function if tc.function is defined else tc -%}
{%- if message.content or not loop.first %}{{ '\n' }}{% endif -%}
{%- if fmt == 'xml' -%}
<tool_call>
<function={{ call.name }}>
{% for key, value in call.arguments.items() %}<parameter={{ key }}>
{{ value if value is string else value | tojson }}
</parameter>
{% endfor %}</function>
</tool_call>
{%- else -%}
<tool_call>
{"name": {{ call.name | tojson }}, "arguments": {{ call.arguments | tojson }}}
</tool_call>
{%- endif -%}
{%- endfor %}<|im_end|>
{% elif message.role == 'tool' -%}
{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}<|im_start|>user
{% endif %}<tool_response>
{{ message.content }}
</tool_response>
{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}<|im_end|>
{% else %}{{ '\n' }}{% endif -%}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
<|im_start|>assistant
{% if enable_thinking | default(false) %}<think>
{% endif -%}
{%- endif -%}
"""


class ChatTemplate:
    """A compiled chat template.

    Args:
        source: the Jinja source (a GGUF's ``tokenizer.chat_template``).
        bos_token / eos_token: passed to the template as variables.

    Raises:
        TemplateError: ``source`` is empty or does not compile.
    """

    def __init__(self, source: str | None, *, bos_token: str = "", eos_token: str = "") -> None:
        if not source or not str(source).strip():
            raise TemplateError("the model has no chat template (tokenizer.chat_template is empty); "
                                "use ChatTemplate.chatml_fallback()")
        self.source = str(source)
        self.bos_token = bos_token
        self.eos_token = eos_token
        env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
        env.filters["tojson"] = _tojson
        env.globals["raise_exception"] = _raise_exception
        env.globals["strftime_now"] = _strftime_now
        try:
            self._template = env.from_string(self.source)
        except JinjaTemplateError as exc:
            line = getattr(exc, "lineno", None)
            where = f" (line {line})" if line else ""
            raise TemplateError(f"the chat template does not compile{where}: {_one_line(exc)}") from None
        # What the template handles itself; the rest is done in the messages.
        self.native_tools = re.search(r"\btools\b", self.source) is not None
        self.native_tool_calls = "tool_calls" in self.source
        self.native_tool_role = re.search(r"""['"]tool['"]""", self.source) is not None
        self.native_reasoning = "reasoning_content" in self.source

    @classmethod
    def chatml_fallback(cls) -> "ChatTemplate":
        """The built-in ChatML template (see :data:`CHATML_FALLBACK`) for a GGUF without one."""
        return cls(CHATML_FALLBACK, eos_token="<|im_end|>")

    def render(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]] | None,
        *,
        add_generation_prompt: bool = True,
        enable_thinking: bool = True,
        preserve_thinking: bool = True,
        tool_call_format: str = "xml",
    ) -> str:
        """Render the prompt text.

        Args:
            messages: the history (system first if any).
            tools: OpenAI-style function schemas, or None.
            add_generation_prompt: end with the opening of an assistant turn.
            enable_thinking / preserve_thinking / tool_call_format: template
                variables (see ../shared/DESIGN.md).

        Returns:
            The prompt as text (tokenize it with ``special=True``).

        Raises:
            TemplateError: the template raised (one line, with its message).
            ValueError: ``tool_call_format`` is not "xml" or "json".
        """
        check_format(tool_call_format)
        dicts = self._convert(messages, tools or [], tool_call_format, preserve_thinking)
        try:
            return self._template.render(
                messages=dicts,
                tools=(tools or None) if self.native_tools else None,
                add_generation_prompt=add_generation_prompt,
                enable_thinking=enable_thinking,
                preserve_thinking=preserve_thinking,
                tool_call_format=tool_call_format,
                bos_token=self.bos_token,
                eos_token=self.eos_token,
            )
        except _Raised as exc:
            raise TemplateError(f"the chat template refused the conversation: {_one_line(exc)}") from None
        except Exception as exc:  # noqa: BLE001 - any template failure is one clear line
            raise TemplateError(f"the chat template failed: {type(exc).__name__}: {_one_line(exc)}") from None

    # -- messages -> template dicts --------------------------------------
    def _convert(self, messages: list[Message], tools: list[dict[str, Any]], fmt: str,
                 preserve_thinking: bool) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for m in messages:
            if m.role == "assistant":
                out.append(self._assistant(m, fmt, preserve_thinking))
            elif m.role == "tool":
                if self.native_tool_role:
                    out.append({"role": "tool", "content": m.content, "name": m.name, "tool_call_id": m.tool_call_id})
                else:
                    wrapped = f"<tool_response>\n{m.content}\n</tool_response>"
                    if out and out[-1].get("_tool_group"):
                        out[-1]["content"] += "\n" + wrapped
                    else:
                        out.append({"role": "user", "content": wrapped, "_tool_group": True})
            else:
                out.append({"role": m.role, "content": m.content})
        for d in out:
            d.pop("_tool_group", None)
        if tools and not self.native_tools:
            listing = "\n".join("- " + tool_signature(t) for t in tools)
            block = ("# Tools\n\nYou can call these tools (name(parameters) - description; ? marks optional "
                     f"parameters, =value their default):\n{listing}\n\n{format_instructions(fmt)}")
            if out and out[0]["role"] == "system":
                out[0]["content"] = f"{out[0]['content']}\n\n{block}" if out[0]["content"] else block
            else:
                out.insert(0, {"role": "system", "content": block})
        return out

    def _assistant(self, m: Message, fmt: str, preserve_thinking: bool) -> dict[str, Any]:
        content = m.content
        d: dict[str, Any] = {"role": "assistant"}
        if m.tool_calls and self.native_tool_calls:
            d["tool_calls"] = [
                {"id": tc.id, "type": "function", "function": {"name": tc.name, "arguments": dict(tc.arguments)}}
                for tc in m.tool_calls
            ]
        elif m.tool_calls:
            calls = "\n".join(render_call(tc.name, tc.arguments, fmt) for tc in m.tool_calls)
            content = f"{content}\n{calls}" if content else calls
        if m.reasoning:
            if self.native_reasoning:
                d["reasoning_content"] = m.reasoning
            elif preserve_thinking:
                content = f"<think>\n{m.reasoning}\n</think>\n\n{content}"
        d["content"] = content
        return d
