"""Applying the user's decision when a paused or interrupted task resumes.

Pauses and their accepted decisions:

- ``approval``: "once" (run this call), "task" (and allow its risk class for
  the rest of the task), "deny" (refuse; the model is told).
- ``question`` (``ask_human``): an ``answer`` (or a ``note``) becomes the result.
- ``in_flight`` (a non-read call was running at a crash): "once" re-runs it,
  "deny" skips it and tells the model its effects may be partial.
- ``budget``, ``stuck``, ``error``, ``cancelled``: "deny"/"stop" stops the
  task; anything else continues (an exhausted budget is extended by its size).

Without a needed decision the pause is shown again and nothing changes.
"""

from __future__ import annotations

from typing import Generator, Iterator

from ..events import ApprovalRequested, ErrorEvent, Event, Finished, Paused, ToolCallFinished
from ..state.models import CallRecord, Pause
from ..state.session import TaskSession
from .calls import APPROVAL_CHOICES, IN_FLIGHT_CHOICES

__all__ = ["apply_resume"]


def _repeat(sess: TaskSession) -> Iterator[Event]:
    p = sess.task.pause
    assert p is not None
    if p.kind == "approval":
        call = sess.call(p.call_id)
        if call is not None:
            yield ApprovalRequested(call=call.brief(), risk=call.risk, diff=None)
    yield Paused(reason=p.reason, kind=p.kind, choices=list(p.choices), task_id=sess.task.id)


def apply_resume(sess: TaskSession, *, approval: str | None = None, note: str | None = None,
                 answer: str | None = None) -> Generator[Event, None, bool]:
    """Resolve the task's pause with the user's decision. Returns True when the
    loop should go on, False when the task stays paused or has ended."""
    task = sess.task
    if task.status == "finished":
        yield Finished(answer=task.answer, status="finished", task_id=task.id)
        return False
    if task.status in ("stopped", "failed"):
        yield ErrorEvent(f"task {task.id} is {task.status}; start a new task to continue the work")
        return False
    if approval == "stop":
        approval = "deny"
    messages, calls, events = [], [], []
    pause = task.pause
    if pause is not None and pause.kind in _CALL_PAUSES:
        decided = yield from _decide_call(sess, approval=approval, note=note, answer=answer)
        if decided is None:
            return False
        call, note = decided
        if call.final:
            task.usage.tool_calls += 1
            obs = sess.new_message("tool", call.result, kind="observation", name=call.name, tool_call_id=call.id)
            obs.step = call.step
            messages.append(obs)
            events.append(ToolCallFinished(call=call.brief(), result=call.result, error=call.error))
        calls.append(call)
    elif pause is not None:
        if approval == "deny":
            yield sess.stop()
            return False
        _lift(sess, pause)
    if note:
        m = sess.new_message("user", note, kind="note")
        if messages:
            m.seq = messages[-1].seq + 1
        messages.append(m)
    sess.resume(messages=messages, calls=calls)
    yield from events
    return True


_CALL_PAUSES = ("approval", "question", "in_flight")


def _decide_call(sess: TaskSession, *, approval: str | None, note: str | None,
                 answer: str | None) -> Generator[Event, None, tuple[CallRecord, str | None] | None]:
    """Apply the decision to the paused call (approval, question or in-flight pause).

    Returns ``(call, note)``: the call now answered, denied, interrupted or
    planned to run, and the note still to add as a user message (None when it
    went into the call's result). Returns None, after saying why, when the
    pause stays: no decision given, a decision this pause does not accept, or
    the call missing from the journal."""
    task, pause = sess.task, sess.task.pause
    assert pause is not None
    call = sess.call(pause.call_id)
    if call is None:
        yield ErrorEvent(f"task {task.id}: the paused call {pause.call_id} is missing from the journal")
        return None
    choices = APPROVAL_CHOICES if pause.kind == "approval" else IN_FLIGHT_CHOICES
    if pause.kind == "question":
        answer = answer if answer is not None else note
        if answer is None:
            yield from _repeat(sess)
            return None
        call.status, call.result, call.error = "done", f"The user answered: {answer}", False
        return call, None
    if approval is None:
        yield from _repeat(sess)
        return None
    if approval not in choices:
        yield ErrorEvent(f"this pause accepts {', '.join(choices)}, not {approval!r}")
        return None
    if approval == "deny":
        if pause.kind == "approval":
            text = "The user denied this call; do not retry it."
            call.status = "denied"
        else:
            text = ("This call was interrupted by a stop and was not re-run; its effects may be partial. "
                    "Check the files involved before continuing.")
            call.status = "interrupted"
        if note:
            text += f" The user says: {note}"
            note = None
        call.result, call.error = text, True
        return call, note
    call.status, call.approved = "planned", True
    if approval == "task" and call.risk and call.risk not in task.grants:
        task.grants.append(call.risk)
    return call, note


def _lift(sess: TaskSession, pause: Pause) -> None:
    """Going on after a budget, stuck, error or cancel pause: an exhausted budget
    grows by its size; a stuck task forgets the calls and format errors so far."""
    task = sess.task
    b, u = task.budgets, task.usage
    if pause.kind == "budget":
        if pause.budget == "steps":
            b.max_steps = max(b.max_steps, u.steps) + b.max_steps
        elif pause.budget == "tokens":
            b.max_generated_tokens = max(b.max_generated_tokens, u.generated_tokens) + b.max_generated_tokens
        elif pause.budget == "time":
            b.max_wall_s = max(b.max_wall_s, u.wall_s) + b.max_wall_s
    if pause.kind == "stuck":
        task.stuck.since, task.stuck.warned = len(sess.calls), ""
        task.format_errors = 0
