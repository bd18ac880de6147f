"""Durable task state: pydantic models and the SQLite store."""

from .models import (
    Budgets,
    CallRecord,
    ChangeEntry,
    Pause,
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
