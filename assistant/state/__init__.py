"""Durable task state: pydantic models (``models``), the SQLite store (``store``),
the one writer of a task's status (``session.TaskSession``), and what reads the
record back: ``undo`` (revert a task's file changes) and ``export`` (its trajectory
as JSON Lines)."""

from .models import (
    Budgets,
    CallRecord,
    ChangeEntry,
    Pause,
    Plan,
    StoredMessage,
    StuckState,
    Summary,
    Task,
    Usage,
    new_task_id,
)
from .store import SCHEMA_VERSION, Store, StoreError, TaskNotFound

__all__ = [
    "Budgets",
    "CallRecord",
    "ChangeEntry",
    "Pause",
    "Plan",
    "StoredMessage",
    "StuckState",
    "Summary",
    "Task",
    "Usage",
    "new_task_id",
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
    "TaskNotFound",
]
