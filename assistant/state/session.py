"""The in-memory view of one task while the loop drives it.

A :class:`TaskSession` holds the task row, its messages and its call journal,
and writes every change through :meth:`commit` (one store transaction), so
memory and disk never disagree by more than the change being made.
"""

from __future__ import annotations

import textwrap

import time
from typing import Callable, Iterable

from ..events import Finished, Paused
from .models import CallRecord, ChangeEntry, Pause, StoredMessage, Task
from .store import Store

__all__ = ["TaskSession", "progress_summary"]


class TaskSession:
    """Task + history + journal, loaded from ``store`` for one drive of the loop.

    Active time is accounted into ``task.usage.wall_s`` at each commit.
    """

    def __init__(self, store: Store, task: Task, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.task = task
        self.messages: list[StoredMessage] = store.messages(task.id)
        self.calls: list[CallRecord] = store.calls(task.id)
        self.model_messages: dict = {}  # seq -> model.types.Message, reused across steps
        self._clock = clock
        self._t0 = clock()
        self._wall0 = task.usage.wall_s

    # -- reading ------------------------------------------------------------
    def next_seq(self) -> int:
        return self.messages[-1].seq + 1 if self.messages else 0

    def call(self, call_id: str) -> CallRecord | None:
        return next((c for c in self.calls if c.id == call_id), None)

    def pending_calls(self) -> list[CallRecord]:
        """Calls not yet final, in journal order."""
        return [c for c in self.calls if not c.final]

    def wall_s(self) -> float:
        return self._wall0 + (self._clock() - self._t0)

    # -- writing ------------------------------------------------------------
    def new_message(self, role: str, content: str = "", *, kind: str = "turn", **kw) -> StoredMessage:
        """A message with the next seq (not saved until committed)."""
        seq = self.next_seq()
        return StoredMessage(seq=seq, step=self.task.usage.steps, role=role, kind=kind, content=content, **kw)

    def commit(
        self,
        *,
        messages: Iterable[StoredMessage] = (),
        calls: Iterable[CallRecord] = (),
        changes: Iterable[ChangeEntry] = (),
        fold: Iterable[int] = (),
        durable: bool = False,
    ) -> None:
        """Write the task row plus the given rows in one transaction (fsynced
        when ``durable``), then mirror them in memory."""
        messages, calls, changes, fold = list(messages), list(calls), list(changes), list(fold)
        self.task.usage.wall_s = round(self.wall_s(), 3)
        self.store.commit(self.task, messages=messages, calls=calls, changes=changes, fold=fold, durable=durable)
        self.messages.extend(messages)
        for call in calls:
            for i, old in enumerate(self.calls):
                if old.id == call.id:
                    self.calls[i] = call
                    break
            else:
                self.calls.append(call)

    # -- state transitions (the only code that writes task.status / task.pause) --
    def pause(self, kind: str, reason: str, choices: list[str], *, call_id: str = "", budget: str = "",
              messages: Iterable[StoredMessage] = (), calls: Iterable[CallRecord] = ()) -> Paused:
        """Checkpoint the task as paused (with ``messages`` and ``calls`` in the
        same transaction) and return the event to emit.

        ``kind`` is one of the :class:`assistant.state.models.Pause` kinds."""
        self.task.status = "paused"
        self.task.pause = Pause(kind=kind, reason=reason, choices=choices, call_id=call_id, budget=budget)
        self.commit(messages=messages, calls=calls)
        return Paused(reason=reason, kind=kind, choices=choices, task_id=self.task.id)

    def mark_paused(self) -> None:
        """Mark the task paused in memory only: the store itself failed, so
        nothing more can be saved (the stored row keeps its last state)."""
        self.task.status = "paused"

    def finish(self, answer: str, *, messages: Iterable[StoredMessage] = ()) -> Finished:
        """Checkpoint the task as finished with ``answer``; returns the event to emit."""
        self.task.status, self.task.answer, self.task.pause = "finished", answer, None
        self.commit(messages=messages)
        return Finished(answer=answer, status="finished", task_id=self.task.id)

    def stop(self) -> Finished:
        """Checkpoint the task as stopped by the user; returns the event (its
        answer says what was done so far)."""
        self.task.status, self.task.pause = "stopped", None
        self.commit()
        return Finished(answer=f"Stopped. {progress_summary(self)}", status="stopped", task_id=self.task.id)

    def resume(self, *, messages: Iterable[StoredMessage] = (), calls: Iterable[CallRecord] = ()) -> None:
        """Checkpoint the task as running again (its pause resolved), with the
        resolution's ``messages`` and ``calls`` in the same transaction."""
        self.task.status, self.task.pause = "running", None
        self.commit(messages=messages, calls=calls)


def progress_summary(session: TaskSession) -> str:
    """One or two lines on what the task did so far (for budget pauses)."""
    calls = [c for c in session.calls if c.final]
    failed = sum(1 for c in calls if c.error or c.status in ("invalid", "denied"))
    files = session.task.summary.files_touched
    parts = [f"{session.task.usage.steps} steps, {len(calls)} tool calls ({failed} failed)"]
    if files:
        shown = ", ".join(files[:8]) + (" …" if len(files) > 8 else "")
        parts.append(f"files changed: {shown}")
    if calls:  # cut at a word, said with an ellipsis (not "... Fix this with ." mid-sentence)
        last = textwrap.shorten(calls[-1].result or "", 120, placeholder=" …").rstrip(".")
        parts.append(f"last: {calls[-1].name} -> {last}")
    text = "; ".join(parts)
    return text if text.endswith("…") else text + "."
