"""Rebuild the transcript of a stored task (after a restart, or from the tasks screen)."""

from __future__ import annotations

from typing import Any

from assistant.events import ApprovalRequested, Paused

from .handler import FORMAT_ERROR_SUMMARY
from .widgets import AgentResponse, NoticeLine, ReasoningBlock, ToolCallCard, Transcript, UserMessage

__all__ = ["replay_task"]


async def replay_task(app: Any, task_id: str) -> None:
    """Mount the history of ``task_id`` into the app's transcript and restore its
    pause (hand-off panel; approval modal for a pending approval).

    Errors (unknown id) are shown as a notice, never raised.
    """
    transcript = app.query_one(Transcript)
    try:
        task = app.store.get_task(task_id)
    except Exception as exc:  # noqa: BLE001 - TaskNotFound and DB errors are one line
        await transcript.mount(NoticeLine(str(exc), "error"))
        return
    calls = {c.id: c for c in app.store.calls(task.id)}
    widgets: list[Any] = []
    cards: dict[str, ToolCallCard] = {}
    for m in app.store.messages(task.id):
        if m.role == "user" and m.kind in ("goal", "note"):
            widgets.append(UserMessage(m.content))
        elif m.role == "assistant":
            if m.reasoning:
                widgets.append(ReasoningBlock(m.reasoning))
            if m.content and m.kind != "format_error":
                widgets.append(AgentResponse(m.content))
            for c in m.tool_calls:
                rec = calls.get(c.get("id", ""))
                card = ToolCallCard({k: c.get(k) for k in ("id", "name", "arguments")}, rec.risk if rec else "",
                                    status="waiting" if rec and not rec.final else "done")
                if rec is not None and rec.final:
                    card.finish(rec.result, rec.error)
                widgets.append(card)
                cards[card.call_id] = card
        elif m.kind == "format_error":
            widgets.append(NoticeLine(FORMAT_ERROR_SUMMARY, "info"))
        elif m.kind == "corrective":
            widgets.append(NoticeLine(m.content.splitlines()[0] if m.content else m.kind, "warning"))
    if widgets:
        await transcript.mount_all(widgets)
    app.task_id = task.id
    if app.handler is not None:
        app.handler.task_id = task.id
        app.handler.cards = cards
    status = app.query_one("#status")
    status.step, status.max_steps = task.usage.steps, task.budgets.max_steps
    status.status = task.status + (f": {task.pause.kind}" if task.status == "paused" and task.pause else "")
    if task.status == "finished" and not any(isinstance(w, AgentResponse) for w in widgets[-1:]):
        await transcript.mount(AgentResponse(task.answer))
    if task.status == "paused" and task.pause is not None:
        p = task.pause
        if p.kind == "approval" and p.call_id in calls and app.handler is not None:
            rec = calls[p.call_id]
            app.handler.pending_approval = ApprovalRequested(call=rec.brief(), risk=rec.risk, diff=None)
        app._on_paused(Paused(reason=p.reason, kind=p.kind, choices=list(p.choices), task_id=task.id))
