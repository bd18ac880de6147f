"""Task state as pydantic models, stored as plain JSON (never pickled).

A :class:`Task` row holds the small, often-updated part (status, budgets,
usage, pause, summary). Messages, tool calls and side effects are their own
append/upsert rows (see :mod:`assistant.state.store`). Every model forbids
unknown fields, so a record from an incompatible version fails loudly instead
of coming back half-read.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from ..events import PauseKind

__all__ = [
    "ApproveMode",
    "APPROVE_MODES",
    "TaskStatus",
    "CallStatus",
    "MessageKind",
    "Budgets",
    "Usage",
    "Summary",
    "Plan",
    "Pause",
    "StuckState",
    "Task",
    "StoredMessage",
    "CallRecord",
    "ChangeEntry",
    "new_task_id",
]

ApproveMode = Literal["ask", "edits", "all", "none"]
"""What runs without asking; ``assistant.loop.policy`` says what each mode allows."""
APPROVE_MODES: tuple[str, ...] = get_args(ApproveMode)

TaskStatus = Literal["running", "paused", "finished", "stopped", "failed"]
CallStatus = Literal[
    "planned",  # parsed, not yet validated / approved
    "awaiting_approval",
    "awaiting_answer",  # ask_human waiting for the user
    "started",  # journaled as running; if found on load, it was in flight
    "done",
    "error",  # ran and returned an error result
    "invalid",  # unknown tool or bad arguments (never ran)
    "denied",  # refused by policy or by the user
    "interrupted",  # in flight at a crash; the user chose not to re-run it
]
MessageKind = Literal[
    "goal", "turn", "observation", "format_error", "note", "corrective", "answer", "summary"
]
FINAL_CALL_STATES = ("done", "error", "invalid", "denied", "interrupted")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Budgets(_Model):
    """Limits of one task: model turns, generated tokens, active seconds."""

    max_steps: int
    max_generated_tokens: int
    max_wall_s: float


class Usage(_Model):
    """What the task has spent so far."""

    steps: int = 0
    generated_tokens: int = 0
    prompt_tokens: int = 0
    wall_s: float = 0.0
    tool_calls: int = 0


class Summary(_Model):
    """A structured, deterministic summary; older turns fold into it."""

    goal: str = ""
    facts: list[str] = Field(default_factory=list)
    constraints: list[str] = Field(default_factory=list)
    files_touched: list[str] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    folded_turns: int = 0
    notes: str = ""  # optional model-written summary


class Pause(_Model):
    """Why a task waits for a human and what it accepts to go on."""

    kind: PauseKind
    reason: str
    choices: list[str] = Field(default_factory=list)
    call_id: str = ""
    budget: str = ""  # for kind "budget": "steps" | "tokens" | "time"


class StuckState(_Model):
    """Stuck detector memory: calls before ``since`` are ignored; ``warned`` is
    the reason of a corrective note already given (at step ``warned_step``)."""

    since: int = 0
    warned: str = ""
    warned_step: int = 0


class Plan(_Model):
    """The plan the harness holds for a task (``assistant.loop.plan``): 1-5
    short steps written by the model's ``update_plan`` call, shown after the
    history at every step. ``step`` is the model turn that wrote it (1 = the
    first turn); ``revisions`` counts rewrites after the first."""

    steps: list[str] = Field(default_factory=list)
    step: int = 0
    revisions: int = 0


class Task(_Model):
    """One task: a goal worked on in a workspace until finished or stopped."""

    id: str
    goal: str
    workspace: str
    status: TaskStatus = "running"
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)
    budgets: Budgets
    usage: Usage = Field(default_factory=Usage)
    approve: ApproveMode = "ask"
    grants: list[str] = Field(default_factory=list)  # risk classes approved for the task
    pause: Pause | None = None
    summary: Summary = Field(default_factory=Summary)
    answer: str = ""
    format_errors: int = 0
    format_errors_total: int = 0  # over the whole task; from 2 on, every turn is constrained
    call_expected: bool = False  # the last format error was a failed attempt at a tool call
    stuck: StuckState = Field(default_factory=StuckState)
    marker: str = ""  # fence token for untrusted content
    model: str = ""  # label of the model that ran it
    tool_groups: list[str] = Field(default_factory=list)  # tool groups shown from the start (toolgroups.py)
    plan: Plan | None = None  # None: no plan written yet (rows of older versions have none)


class StoredMessage(_Model):
    """One message of the task history (``seq`` orders them within the task)."""

    seq: int
    step: int = 0
    role: Literal["system", "user", "assistant", "tool"]
    kind: MessageKind = "turn"
    content: str = ""
    reasoning: str = ""
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)
    name: str = ""
    tool_call_id: str = ""
    token_ids: list[int] = Field(default_factory=list)
    folded: bool = False


class CallRecord(_Model):
    """The journal entry of one tool call."""

    id: str
    step: int
    turn_seq: int  # seq of the assistant message that made the call
    index: int = 0
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw: str = ""
    risk: str = ""
    status: CallStatus = "planned"
    approved: bool = False
    result: str = ""
    error: bool = False
    data: dict[str, Any] | None = None

    @property
    def final(self) -> bool:
        return self.status in FINAL_CALL_STATES

    def brief(self) -> dict[str, Any]:
        """``{"id", "name", "arguments"}`` for events."""
        return {"id": self.id, "name": self.name, "arguments": self.arguments}


class ChangeEntry(_Model):
    """One journaled workspace change (``record`` is a ``ChangeRecord.to_dict()``)."""

    id: int = 0
    call_id: str
    step: int
    record: dict[str, Any]
    undone: bool = False


def new_task_id() -> str:
    """A short random id (8 hex chars); users may type a unique prefix."""
    return secrets.token_hex(4)
