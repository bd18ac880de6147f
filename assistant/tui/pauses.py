"""What a hand-off answer means for ``Agent.resume``, and diff previews for
approvals re-shown after a restart."""

from __future__ import annotations

from typing import Any

__all__ = ["resolution_for", "preview_for"]


def resolution_for(kind: str, *, choice: str | None = None, text: str | None = None) -> dict[str, Any]:
    """Keyword arguments for ``Agent.resume`` from a pause ``kind`` and the
    user's ``choice`` (a button) or typed ``text``.

    - question: the choice or text is the answer.
    - approval / in_flight: the choice is the decision, text a note.
    - budget, stuck, error, cancelled: "stop" stops the task; anything else
      continues (a budget is extended), with the text as a note to the model.

    >>> resolution_for("question", text="blue")
    {'answer': 'blue'}
    >>> resolution_for("budget", choice="extend")
    {'approval': 'extend'}
    """
    text = (text or "").strip() or None
    if kind == "question":
        return {"answer": choice if choice is not None else (text or "")}
    if kind in ("approval", "in_flight"):
        out: dict[str, Any] = {"approval": choice or "deny"}
    else:
        out = {"approval": "deny" if choice == "stop" else (choice or "continue")}
    if text:
        out["note"] = text
    return out


def preview_for(store: Any, task_id: str | None, call: dict[str, Any]) -> str | None:
    """The unified diff ``call`` would make in its task's workspace, or None
    when there is no preview (other tools, unreadable files, missing task)."""
    if not task_id:
        return None
    try:
        from sandbox import Workspace
        from tools.files import preview_diff

        task = store.get_task(task_id)
        return preview_diff(Workspace(task.workspace), str(call.get("name", "")), call.get("arguments") or {})
    except Exception:  # noqa: BLE001 - a preview is optional
        return None
