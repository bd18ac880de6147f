"""Printing loop events for the headless CLI: JSON Lines or human text.

Human mode: the final answer goes to stdout; progress (steps, tool calls,
results, notices, pauses) goes to stderr, so ``assistant run ... > out.txt``
captures only the answer.
"""

from __future__ import annotations

import json
import sys
from typing import Iterable, TextIO

from .events import (
    ApprovalRequested,
    ErrorEvent,
    Event,
    Finished,
    Notice,
    Paused,
    ReasoningDelta,
    StepStarted,
    TaskStarted,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    event_to_dict,
)

__all__ = ["consume", "EXIT_OK", "EXIT_FAIL", "EXIT_USAGE", "EXIT_PAUSED"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_PAUSED = 0, 1, 2, 3


def _one_line(text: str, n: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _human(event: Event, out: TextIO, err: TextIO, state: dict) -> None:
    if isinstance(event, TaskStarted):
        verb = "resuming" if event.resumed else "task"
        print(f"{verb} {event.task_id}: {_one_line(event.goal, 100)}", file=err)
    elif isinstance(event, StepStarted):
        state["streamed"] = False
        print(f"-- step {event.n}", file=err)
    elif isinstance(event, TextDelta) and event.kind == "content":
        state["streamed"] = True
        state.setdefault("text", []).append(event.text)
    elif isinstance(event, ReasoningDelta):
        pass
    elif isinstance(event, ToolCallStarted):
        args = json.dumps(event.call.get("arguments", {}), ensure_ascii=False)
        print(f"   > {event.call.get('name')} {_one_line(args, 160)} [{event.risk}]", file=err)
    elif isinstance(event, ToolCallFinished):
        mark = "x" if event.error else "ok"
        print(f"   {mark} {_one_line(event.result)}", file=err)
    elif isinstance(event, ApprovalRequested):
        if event.diff:
            print(event.diff, file=err)
    elif isinstance(event, Notice):
        print(f"   ! {_one_line(event.text)}", file=err)
    elif isinstance(event, Paused):
        print(f"paused ({event.kind}): {event.reason}", file=err)
        hint = {
            "approval": "--approve-once, --approve-task or --deny",
            "in_flight": "--approve-once (re-run) or --deny (skip)",
            "question": '--answer "..."',
        }.get(event.kind, "(nothing, to continue) or --deny to stop")
        print(f"resume with: assistant resume {event.task_id} {hint}", file=err)
    elif isinstance(event, Finished):
        if event.status == "finished":
            print(event.answer, file=out)
        else:
            print(f"{event.status}: {event.answer}", file=err)
    elif isinstance(event, ErrorEvent):
        print(f"error: {event.message}", file=err)


def consume(events: Iterable[Event], *, as_json: bool, out: TextIO | None = None,
            err: TextIO | None = None) -> int:
    """Print every event and return the exit code: 0 finished or stopped,
    3 paused, 1 error without a pause."""
    out = out or sys.stdout
    err = err or sys.stderr
    code = EXIT_FAIL
    state: dict = {}
    for event in events:
        if as_json:
            out.write(json.dumps(event_to_dict(event), ensure_ascii=False, default=str) + "\n")
            out.flush()
        else:
            _human(event, out, err, state)
            err.flush()
        if isinstance(event, Finished):
            code = EXIT_OK
        elif isinstance(event, Paused):
            code = EXIT_PAUSED
        elif isinstance(event, ErrorEvent) and code != EXIT_PAUSED:
            code = EXIT_FAIL
    return code
