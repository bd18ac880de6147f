"""Export a task's trajectory as JSON Lines (for review and fine-tuning).

Lines, in order: one ``{"type": "task", ...}`` header, then one
``{"type": "message", ...}`` per message (folded ones included, flagged), then
one ``{"type": "call", ...}`` per tool call. Each message has ``loss``: 1 for an
assistant turn to learn from, 0 for every other message and for assistant
turns that failed (malformed or refused calls, bad arguments, calls that
returned an error): those stay in context but are not to be learned from.
"""

from __future__ import annotations

import json
from typing import Iterator

from .state.models import CallRecord, StoredMessage
from .state.store import Store

__all__ = ["export_lines", "turn_failed"]


def turn_failed(message: StoredMessage, calls: dict[str, CallRecord], bad_turns: set[int]) -> bool:
    """True when the assistant ``message`` was a format error or any of its calls failed."""
    if message.kind == "format_error" or message.seq in bad_turns:
        return True
    for c in message.tool_calls:
        rec = calls.get(c.get("id", ""))
        if rec is not None and (rec.error or rec.status in ("invalid", "denied", "interrupted")):
            return True
    return False


def export_lines(store: Store, task_id: str) -> Iterator[str]:
    """JSON Lines of the task's trajectory. Raises ``TaskNotFound``."""
    task = store.get_task(task_id)
    messages = store.messages(task.id)
    calls = store.calls(task.id)
    by_id = {c.id: c for c in calls}
    # a parse error after a turn marks that turn failed
    bad: set[int] = set()
    last_turn = None
    for m in messages:
        if m.role == "assistant":
            last_turn = m.seq
        elif m.kind == "format_error" and last_turn is not None:
            bad.add(last_turn)
    header = task.model_dump(include={"id", "goal", "workspace", "status", "answer", "model", "budgets", "usage"})
    yield json.dumps({"type": "task", **header}, ensure_ascii=False)
    for m in messages:
        loss = int(m.role == "assistant" and not turn_failed(m, by_id, bad))
        row = m.model_dump(exclude={"token_ids"} if not m.token_ids else set())
        yield json.dumps({"type": "message", "loss": loss, **row}, ensure_ascii=False)
    for c in calls:
        yield json.dumps({"type": "call", **c.model_dump()}, ensure_ascii=False)
