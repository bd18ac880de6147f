"""A scripted :class:`model.types.ChatModel` that replays raw outputs (for tests).

Each ``complete`` call returns the next text from ``outputs`` parsed exactly as
a real turn would be (``model.parsing.parse_turn``). The position is the larger
of the number of calls made and the number of assistant turns already in the
history, so a task resumed in a new process continues the script where the
stored history left off. Tokens are counted as ``len(text) // 4``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from model.types import GenerationMetrics, Message, ModelError, ParsedTurn, TurnOutput, union_of_tools

__all__ = ["ScriptedChatModel", "load_script"]


class ScriptedChatModel:
    """Replays ``outputs`` (raw model texts, malformed ones included).

    Args:
        outputs: the texts of successive assistant turns.
        fmt: tool-call format the parser reports errors in ("xml" | "json").
        starts_in_think: the texts start inside ``<think>`` (no opening tag).
        context_size: the context the loop plans for, in tokens.
        parser: ``(text, tools, fmt=, starts_in_think=) -> ParsedTurn``;
            default ``model.parsing.parse_turn``.
        end: the stop reason of a turn that is not cut at ``max_tokens``: "stop" (a
            stop string) or "eos" (the model's end token, how a llama.cpp turn of
            Qwen2.5 ends).

    ``complete`` raises :class:`ModelError` when the script is exhausted.
    ``calls`` records ``(force, max_tokens)`` of every non-cancelled call and
    ``grammar_tools`` the tool names a call could use in it (``call_tools``; their
    schemas in ``grammar_schemas``),
    ``prompts`` the messages of each.
    """

    teaches_call_format = False  # no template: the agent's system prompt must teach the format

    def __init__(
        self,
        outputs: list[str],
        *,
        fmt: str = "xml",
        starts_in_think: bool = False,
        context_size: int = 32768,
        name: str = "scripted",
        parser: Callable[..., ParsedTurn] | None = None,
        end: str = "stop",
    ) -> None:
        self.outputs = list(outputs)
        self.fmt = fmt
        self.starts_in_think = starts_in_think
        self.context_size = context_size
        self.name = name
        self._parser = parser
        self.end = end
        self.calls: list[tuple[str | None, int | None]] = []
        self.grammar_tools: list[list[str]] = []
        self.grammar_schemas: list[list[dict[str, Any]]] = []  # per turn: the schemas of ``grammar_tools``
        self.varied: list[bool] = []  # per turn: sampled with the turn's own sampling (``vary``)
        self.prompts: list[list[Message]] = []

    def _parse(self, text: str, tools: list[dict[str, Any]]) -> ParsedTurn:
        parser = self._parser
        if parser is None:
            from model.parsing import parse_turn as parser
        return parser(text, tools, fmt=self.fmt, starts_in_think=self.starts_in_think)

    def complete(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]],
        *,
        on_delta: Any = None,
        cancel: Any = None,
        force: str | None = None,
        max_tokens: int | None = None,
        call_tools: list[dict[str, Any]] | None = None,
        vary: bool = False,
    ) -> TurnOutput:
        if cancel is not None and cancel.is_set():
            return TurnOutput(parsed=ParsedTurn(), stop_reason="cancelled")
        index = max(len(self.calls), sum(1 for m in messages if m.role == "assistant" and not _harness_turn(m)))
        self.calls.append((force, max_tokens))
        self.varied.append(vary)
        self.prompts.append(list(messages))
        grammar_tools = tools if call_tools is None else call_tools
        self.grammar_tools.append([str((t.get("function") or t).get("name", "")) for t in grammar_tools])
        self.grammar_schemas.append(list(grammar_tools))
        if index >= len(self.outputs):
            raise ModelError(f"scripted model has no output #{index + 1} (script has {len(self.outputs)})")
        text = self.outputs[index]
        stop = self.end
        if max_tokens is not None and len(text) // 4 > max_tokens:
            text, stop = text[: max_tokens * 4], "length"
        parsed = self._parse(text, union_of_tools(tools, grammar_tools))
        if on_delta is not None:
            if parsed.reasoning:
                on_delta("reasoning", parsed.reasoning)
            if parsed.content:
                on_delta("content", parsed.content)
            for call in parsed.tool_calls:
                on_delta("tool_call", call.raw)
        n = max(1, len(text) // 4)
        prompt = self.count_tokens(messages, tools)
        metrics = GenerationMetrics(prompt_tokens=prompt, evaluated=prompt, generated=n)
        return TurnOutput(parsed=parsed, token_ids=list(range(n)), stop_reason=stop, metrics=metrics)

    def count_tokens(self, messages: list[Message], tools: list[dict[str, Any]]) -> int:
        chars = sum(len(m.content) + len(m.reasoning) + sum(len(c.raw) for c in m.tool_calls) for m in messages)
        chars += len(json.dumps(tools)) if tools else 0
        return chars // 4


def _harness_turn(m: Message) -> bool:
    """An assistant turn the harness wrote, not the model: the reads of step 0
    (``assistant.loop.preread``, call ids ``s0c<i>``). It takes no output of the script."""
    return bool(m.tool_calls) and all(c.id.startswith("s0c") for c in m.tool_calls)


def load_script(path: Path | str) -> dict[str, Any]:
    """Read a script file: ``{"outputs": [...], "fmt": "xml", "starts_in_think":
    false, "context_size": 32768, "tools_file": "/path/extra_tools.py"}``.

    Raises:
        ValueError: not valid JSON or no ``outputs`` list (one-line message).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"script {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("outputs"), list):
        raise ValueError(f"script {path}: needs an object with an 'outputs' list")
    return data
