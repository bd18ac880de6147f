"""Plain data types shared by the runtime, the chat protocol and the agent.

These are the seams between packages: ``model`` produces them, ``assistant``
consumes them. They are dataclasses with JSON-friendly fields so the agent can
checkpoint them as plain JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Protocol

__all__ = [
    "ToolCall",
    "ParseError",
    "ParsedTurn",
    "Message",
    "SamplingParams",
    "GenerationMetrics",
    "GenerationResult",
    "TurnOutput",
    "DeltaCallback",
    "ChatModel",
    "ModelError",
    "union_of_tools",
]

Role = Literal["system", "user", "assistant", "tool"]
StopReason = Literal["stop", "eos", "length", "repetition", "cancelled", "error"]


class ModelError(Exception):
    """A model could not be loaded or run; the message is one line for the user."""


@dataclass
class ToolCall:
    """One tool call parsed from a model turn.

    Attributes:
        name: tool name as the model wrote it.
        arguments: decoded arguments (a mapping; values coerced by the tool schema).
        raw: the exact text of the call (``<tool_call>...</tool_call>``) as generated.
        id: a stable id within the task (assigned by the agent; "" until then).
    """

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    raw: str = ""
    id: str = ""


@dataclass
class ParseError:
    """A malformed tool call, described for the model to correct itself.

    Attributes:
        index: 0-based position of the call within the turn.
        raw: the offending text (possibly truncated).
        message: what is wrong, one or two lines.
        expected: an example of a correct call in the active format.
    """

    index: int
    raw: str
    message: str
    expected: str = ""


@dataclass
class ParsedTurn:
    """A model turn split into its parts.

    Attributes:
        reasoning: text inside ``<think>...</think>`` (without the tags).
        content: visible text with tool calls removed (stripped).
        tool_calls: well-formed calls, in order.
        errors: malformed calls, in order.
        raw: the full generated text.
    """

    reasoning: str = ""
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    errors: list[ParseError] = field(default_factory=list)
    raw: str = ""


@dataclass
class Message:
    """One chat message in the task history.

    Attributes:
        role: "system", "user", "assistant" or "tool".
        content: visible text (for "tool": the observation text).
        reasoning: the assistant's reasoning, kept when ``preserve_thinking``.
        tool_calls: calls made by an assistant turn.
        name: for role "tool", the tool that produced the observation.
        tool_call_id: for role "tool", the id of the call it answers.
        token_ids: for assistant turns, the token ids actually generated (so the
            KV cache prefix is reused instead of a re-rendering).
    """

    role: Role
    content: str = ""
    reasoning: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    name: str = ""
    tool_call_id: str = ""
    token_ids: list[int] = field(default_factory=list)


@dataclass
class SamplingParams:
    """Sampling settings. Defaults follow the Nanbeige4.2 model card
    (temperature 0.6, top_p 0.95, top_k 20)."""

    temperature: float = 0.6
    top_p: float = 0.95
    top_k: int = 20
    min_p: float = 0.0
    repeat_penalty: float = 1.0
    seed: int | None = None


@dataclass
class GenerationMetrics:
    """Measurements of one generate call.

    Attributes:
        prompt_tokens: tokens in the prompt.
        evaluated: prompt tokens actually run through the model (prefill).
        reused: prompt tokens already in the KV cache (prefix reuse).
        restored: prompt tokens whose KV state was loaded from disk.
        generated: tokens decoded.
        reasoning_tokens: of ``generated``, tokens inside the reasoning block.
        prefill_s / decode_s: seconds spent in prefill / decode.
        ttft_s: seconds from the call to the first generated token.
    """

    prompt_tokens: int = 0
    evaluated: int = 0
    reused: int = 0
    restored: int = 0
    generated: int = 0
    reasoning_tokens: int = 0
    prefill_s: float = 0.0
    decode_s: float = 0.0
    ttft_s: float = 0.0

    @property
    def prefill_tps(self) -> float:
        """Prefill speed in tokens per second (0 when nothing was evaluated)."""
        return self.evaluated / self.prefill_s if self.prefill_s > 0 and self.evaluated else 0.0

    @property
    def decode_tps(self) -> float:
        """Decode speed in tokens per second."""
        return self.generated / self.decode_s if self.decode_s > 0 and self.generated else 0.0

    def as_dict(self) -> dict[str, float]:
        d = dict(self.__dict__)
        d["prefill_tps"] = round(self.prefill_tps, 2)
        d["decode_tps"] = round(self.decode_tps, 2)
        return d


@dataclass
class GenerationResult:
    """What :meth:`model.runtime.Runtime.generate` returns.

    Attributes:
        text: decoded generated text (stop string excluded).
        token_ids: generated token ids (what is now in the KV cache after the prompt).
        stop_reason: "stop" (stop string), "eos", "length", "repetition" (the
            output looped), "cancelled" or "error".
        metrics: measurements.
    """

    text: str
    token_ids: list[int]
    stop_reason: StopReason
    metrics: GenerationMetrics


DeltaCallback = Callable[[str, str], None]
"""``on_delta(kind, text)`` with kind "reasoning", "content" or "tool_call" (local models also send
"prefill" with text "DONE/TOTAL": prompt tokens read so far)."""


@dataclass
class TurnOutput:
    """One assistant turn produced by a :class:`ChatModel`.

    Attributes:
        parsed: the turn split into reasoning, content, calls and parse errors.
        token_ids: generated token ids (kept in the assistant :class:`Message`).
        stop_reason: as in :class:`GenerationResult`.
        metrics: measurements of the call.
    """

    parsed: ParsedTurn
    token_ids: list[int] = field(default_factory=list)
    stop_reason: StopReason = "stop"
    metrics: GenerationMetrics = field(default_factory=GenerationMetrics)


def union_of_tools(*lists: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """The schemas of ``lists`` in order, each tool name once (first wins)."""
    seen: set[str] = set()
    out = []
    for schemas in lists:
        for s in schemas or []:
            name = str((s.get("function") or s).get("name", ""))
            if name not in seen:
                seen.add(name)
                out.append(s)
    return out


class ChatModel(Protocol):
    """What the agent loop needs from a model: one assistant turn at a time.

    Implemented by ``model.chat.LocalChatModel`` (llama.cpp in-process), by the
    remote engine backend, and by a scripted model in tests.
    """

    name: str
    context_size: int
    teaches_call_format: bool
    """True when the model's own chat template teaches the tool-call format
    (natively or through ``model.chat_template``'s tool block), so the agent
    leaves the format instructions out of its system prompt."""

    def complete(
        self,
        messages: list[Message],
        tools: list[dict[str, Any]],
        *,
        on_delta: DeltaCallback | None = None,
        cancel: Any = None,
        force: str | None = None,
        max_tokens: int | None = None,
        call_tools: list[dict[str, Any]] | None = None,
        vary: bool = False,
    ) -> TurnOutput:
        """Generate the next assistant turn.

        Args:
            messages: the history (system first).
            tools: OpenAI-style function schemas.
            on_delta: streaming callback.
            cancel: a ``threading.Event``; when set, generation stops with
                stop_reason "cancelled".
            force: None for free generation; "tool_call_or_final" to constrain
                the turn to open with a tool call or an explicit final answer
                ("Final answer: ..."); "tool_call" to constrain it to a tool call.
            max_tokens: cap on generated tokens.
            call_tools: the schemas a call may use this turn when they differ
                from ``tools`` (None: ``tools``). ``tools`` are rendered in the
                prompt; ``call_tools`` drive the grammar, so tools whose schemas
                reached the model later in the history (loaded mid-task) can be
                called without changing the prompt's beginning, and a tool can
                be left out of one turn. Calls of any tool in either list parse.
            vary: sample this turn's call with the turn's own sampling, not
                the profile's near-greedy ``action_sampling``: after a call
                failed the same way twice, greedy decoding writes it a third
                time (calendar_next_weekday at 31f8af8, ``constrain = "always"``:
                the same refused start four times). Engines without action
                sampling ignore it.

        Raises:
            ModelError: the model cannot run at all (not for bad output).
        """
        ...

    def count_tokens(self, messages: list[Message], tools: list[dict[str, Any]]) -> int:
        """Tokens the rendered prompt would take."""
        ...
