"""Typed events produced by the agent loop (``for event in agent.run(...)``).

Every event is a small dataclass; :func:`event_to_dict` turns one into a plain
JSON object with a ``"type"`` key (the class name in snake case), which is what
``assistant run --json`` prints one per line.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Event",
    "TaskStarted",
    "StepStarted",
    "TextDelta",
    "ReasoningDelta",
    "ToolCallStarted",
    "ToolCallFinished",
    "ApprovalRequested",
    "Notice",
    "Paused",
    "Finished",
    "ErrorEvent",
    "Metrics",
    "PauseKind",
    "event_to_dict",
]

PauseKind = Literal["approval", "question", "budget", "stuck", "in_flight", "cancelled", "error"]


@dataclass
class Event:
    """Base class of all loop events."""


@dataclass
class TaskStarted(Event):
    """The loop begins driving ``task_id`` (``resumed`` when continuing one)."""

    task_id: str
    goal: str
    resumed: bool = False


@dataclass
class StepStarted(Event):
    """Step ``n`` (1-based count of model turns in the task) begins generating."""

    n: int


@dataclass
class TextDelta(Event):
    """A piece of visible assistant text (``kind`` "content" or "tool_call")."""

    text: str
    kind: str = "content"


@dataclass
class ReasoningDelta(Event):
    """A piece of the model's reasoning."""

    text: str


@dataclass
class ToolCallStarted(Event):
    """A call passed validation and policy and is about to run.

    ``call``: ``{"id", "name", "arguments"}``; ``risk``: the risk class value.
    """

    call: dict[str, Any]
    risk: str


@dataclass
class ToolCallFinished(Event):
    """A call ended (or was rejected); ``result`` is what the model sees."""

    call: dict[str, Any]
    result: str
    error: bool = False
    data: dict[str, Any] | None = None


@dataclass
class ApprovalRequested(Event):
    """A call needs the user's approval; ``diff`` previews a file change (or None)."""

    call: dict[str, Any]
    risk: str
    diff: str | None = None


@dataclass
class Notice(Event):
    """A note the harness gave the model (format correction, loop warning)."""

    text: str


@dataclass
class Paused(Event):
    """The task is checkpointed and waits for a human.

    ``choices``: what :meth:`Agent.resume` accepts here, e.g.
    ``["once", "task", "deny"]`` for an approval or ``["extend", "stop"]``.
    """

    reason: str
    kind: PauseKind
    choices: list[str] = field(default_factory=list)
    task_id: str = ""


@dataclass
class Finished(Event):
    """The task ended: ``status`` "finished" (with the answer) or "stopped"."""

    answer: str
    status: str = "finished"
    task_id: str = ""


@dataclass
class ErrorEvent(Event):
    """Something went wrong; the message is one line for the user."""

    message: str


@dataclass
class Metrics(Event):
    """Measurements of the last model turn and the task's running usage."""

    data: dict[str, Any]


def _snake(name: str) -> str:
    name = name.removesuffix("Event") if name != "ErrorEvent" else "Error"
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def event_to_dict(event: Event) -> dict[str, Any]:
    """``{"type": "tool_call_finished", ...fields}`` for JSON Lines output."""
    out = {"type": _snake(type(event).__name__)}
    out.update(dataclasses.asdict(event))
    return out
