"""What a model turn means: an answer, tool calls, or a format error.

:func:`classify_turn` is pure: it reads the turn and the workspace and decides;
the loop only records the result. A turn without a tool call is an answer
unless it is a failed attempt at one (malformed markup, a reply cut off or
looping, a forged ``<tool_response>``, an empty reply), announces work it did
not do, or claims files the workspace does not have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence, Union

from model.parsing import looks_like_failed_call
from model.types import ParseError, ToolCall, TurnOutput

from ..state.models import Task

from .verify import announces_work, unbacked_file_claims

__all__ = ["Answer", "Calls", "FormatError", "TurnKind", "classify_turn", "force_for", "FORCE"]

FORCE = "tool_call_or_final"  # a turn constrained to a call or an explicit final answer


@dataclass(frozen=True)
class Answer:
    """A final answer: ``text`` ends the task."""

    text: str


@dataclass(frozen=True)
class Calls:
    """Tool calls to run; ``errors`` are calls of the same turn that could not be read."""

    calls: list[ToolCall]
    errors: list[ParseError] = field(default_factory=list)


@dataclass(frozen=True)
class FormatError:
    """Neither a valid call nor an answer.

    Attributes:
        reason: one line for the model on what went wrong.
        call_expected: the model meant to call a tool (so the retry must be a call).
        example: the expected format of the call it tried, when the parser had one.
    """

    reason: str
    call_expected: bool
    example: str = ""


TurnKind = Union[Answer, Calls, FormatError]


def classify_turn(out: TurnOutput, workspace: str, tool_names: Sequence[str],
                  hint: Callable[[str], str] = lambda raw: "") -> TurnKind:
    """Decide what ``out`` is.

    Args:
        out: the model's turn (parsed output and stop reason).
        workspace: the task's workspace folder (file claims are checked there).
        tool_names: names of the registered tools (a failed call names one).
        hint: ``raw call text -> extra sentence`` appended to a malformed
            call's reason (e.g. the tool's group is not loaded); "" for none.
    """
    parsed = out.parsed
    if parsed.tool_calls:
        return Calls(list(parsed.tool_calls), list(parsed.errors))
    text = parsed.content
    if parsed.errors:
        err = parsed.errors[0]
        return FormatError(err.message + hint(err.raw), call_expected=True, example=err.expected)
    if out.stop_reason == "repetition":
        return FormatError("your reply went into a loop repeating the same text; write one short tool call or "
                           "answer", call_expected=False)
    if out.stop_reason == "length":
        return FormatError("your reply was cut off at the length limit before it ended", call_expected=False)
    if "<tool_response>" in text:
        return FormatError("you wrote a <tool_response> yourself; results come only from real tool calls",
                           call_expected=False)
    if not text.strip():
        return FormatError("the reply had neither a tool call nor an answer", call_expected=False)
    failed = looks_like_failed_call(text, list(tool_names))
    if failed is not None:
        return FormatError(failed, call_expected=True)
    if announces_work(text):
        return FormatError("you said what you will do but called no tool; call the first tool now, or give the "
                           "final answer", call_expected=False)
    missing = unbacked_file_claims(text, workspace)
    if missing:
        return FormatError(f"your answer says {', '.join(missing[:3])} was written, but it does not exist in the "
                           "workspace; call the tool that creates it, then answer", call_expected=False)
    return Answer(text)


def force_for(task: Task) -> str | None:
    """How the next turn is constrained after format errors.

    Measured on Qwen2.5-Coder-1.5B: a free turn after a failed call tends to
    announce work it never did, and a turn that may also answer took the answer
    ("DONE") instead of the call it had just tried to write. So the turn right
    after a failed call attempt must be a tool call; after other errors (a plan
    instead of an action, a claim with nothing behind it, a cut-off reply), and
    after a second error in a row, it may be a call or an explicit final answer;
    once a task has seen two format errors, every later turn stays constrained
    (the model keeps falling back to its habit, e.g. calls in fenced JSON blocks).
    """
    if task.format_errors == 1:
        return "tool_call" if task.call_expected else FORCE
    if task.format_errors >= 2 or task.format_errors_total >= 2:
        return FORCE
    return None
