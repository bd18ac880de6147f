"""The tasks screen: every checkpointed task with its status; open, resume,
undo or export the selected one."""

from __future__ import annotations

import time
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from assistant.state import Task

__all__ = ["TasksScreen", "format_age"]

_STATUS_STYLE = {"paused": "bold yellow", "failed": "bold red", "running": "bold cyan",
                 "finished": "green", "stopped": "dim"}


def format_age(seconds: float) -> str:
    """``seconds`` ago as "just now", "5m", "3h" or "2d"."""
    s = max(0.0, seconds)
    if s < 60:
        return "just now"
    if s < 3600:
        return f"{int(s // 60)}m ago"
    if s < 86400:
        return f"{int(s // 3600)}h ago"
    return f"{int(s // 86400)}d ago"


class TasksScreen(Screen[tuple[str, str] | None]):
    """Lists ``tasks`` (most recent first). Dismisses with ``(action, task_id)``
    where action is "open", "resume", "undo" or "export", or None on Esc.

    Args:
        tasks: the tasks to list (``Store.list_tasks()``).
        now: clock in epoch seconds used for the "updated" column.
    """

    BINDINGS = [
        Binding("enter", "pick('open')", "Open", priority=True),
        Binding("r", "pick('resume')", "Resume"),
        Binding("u", "pick('undo')", "Undo changes"),
        Binding("e", "pick('export')", "Export"),
        Binding("escape", "back", "Back"),
    ]

    DEFAULT_CSS = """
    TasksScreen #tasks-title { padding: 0 1; text-style: bold; }
    TasksScreen DataTable { height: 1fr; }
    """

    def __init__(self, tasks: list[Task], *, now: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.tasks = list(tasks)
        self._now = now

    def compose(self) -> ComposeResult:
        yield Static(f"Tasks ({len(self.tasks)})", id="tasks-title")
        yield DataTable(cursor_type="row", zebra_stripes=True, id="tasks-table")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("id", "status", "steps", "updated", "goal")
        now = self._now()
        for t in self.tasks:
            status = t.status + (f" ({t.pause.kind})" if t.status == "paused" and t.pause else "")
            goal = " ".join(t.goal.split())
            table.add_row(
                t.id,
                Text(status, style=_STATUS_STYLE.get(t.status, "")),
                f"{t.usage.steps}/{t.budgets.max_steps}",
                format_age(now - t.updated_at),
                goal if len(goal) <= 60 else goal[:59] + "…",
                key=t.id,
            )
        if not self.tasks:
            self.query_one("#tasks-title", Static).update("No tasks yet. Type a goal on the main screen.")
        table.focus()

    def selected(self) -> str | None:
        """The id of the highlighted task (None when the list is empty)."""
        table = self.query_one(DataTable)
        if not self.tasks or table.cursor_row is None:
            return None
        return self.tasks[table.cursor_row].id

    def action_pick(self, action: str) -> None:
        task_id = self.selected()
        if task_id is not None:
            self.dismiss((action, task_id))

    def action_back(self) -> None:
        self.dismiss(None)
