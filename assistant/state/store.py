"""SQLite task store: WAL mode, one transaction per state change, plain JSON rows.

Tables (schema version in ``PRAGMA user_version``):

- ``tasks(id, status, updated_at, json)``: the :class:`Task` row.
- ``messages(task_id, seq, folded, json)``: history, append-only except the
  ``folded`` flag.
- ``calls(task_id, id, json)``: the tool-call journal (upserted as the call moves
  from planned to started to done).
- ``changes(id, task_id, call_id, step, undone, json)``: the side-effect journal.

:meth:`Store.commit` writes any mix of these in one transaction, so the state
on disk always matches a point between two actions. One lock serialises use of
the connection across threads (the TUI runs the loop in a worker thread).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Iterable

from .models import CallRecord, ChangeEntry, StoredMessage, Task

__all__ = ["Store", "StoreError", "TaskNotFound", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        updated_at REAL NOT NULL,
        json TEXT NOT NULL
    );
    CREATE TABLE messages (
        task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        folded INTEGER NOT NULL DEFAULT 0,
        json TEXT NOT NULL,
        PRIMARY KEY (task_id, seq)
    );
    CREATE TABLE calls (
        task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        ord INTEGER NOT NULL,
        json TEXT NOT NULL,
        PRIMARY KEY (task_id, id)
    );
    CREATE TABLE changes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        step INTEGER NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        json TEXT NOT NULL
    );
    CREATE INDEX changes_task ON changes(task_id, id);
    CREATE INDEX tasks_updated ON tasks(updated_at);
    """,
}


class StoreError(RuntimeError):
    """The state DB cannot be opened or is from an incompatible version."""


class TaskNotFound(KeyError):
    """No task matches the id (or the prefix is ambiguous); str() is one line."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "task not found"


def _dumps(model) -> str:
    return model.model_dump_json()


class Store:
    """The task store at ``path`` (created and migrated on open).

    Raises:
        StoreError: the file is not a usable SQLite DB, or its schema is newer
            than this program knows.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=30
            )
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"state DB {self.path}: {exc}") from None

    # -- schema -------------------------------------------------------------
    def _migrate(self) -> None:
        with self._lock:
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"state DB {self.path} has schema v{version}, newer than this "
                    f"program's v{SCHEMA_VERSION}; upgrade assistant."
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                self._conn.execute("BEGIN IMMEDIATE")
                try:
                    for stmt in _MIGRATIONS[target].split(";"):
                        if stmt.strip():
                            self._conn.execute(stmt)
                    self._conn.execute(f"PRAGMA user_version={target}")
                    self._conn.execute("COMMIT")
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise

    @property
    def schema_version(self) -> int:
        with self._lock:
            return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def close(self) -> None:
        """Close the connection (the store is unusable afterwards)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writes -------------------------------------------------------------
    def commit(
        self,
        task: Task,
        *,
        messages: Iterable[StoredMessage] = (),
        calls: Iterable[CallRecord] = (),
        changes: Iterable[ChangeEntry] = (),
        fold: Iterable[int] = (),
        durable: bool = False,
    ) -> None:
        """Write one state change in a single transaction: the task row
        (``updated_at`` refreshed), new messages, upserted calls, new change
        entries, and the ``folded`` flag for message seqs in ``fold``.

        Every commit survives a killed process (WAL). ``durable=True`` also
        fsyncs it before returning, so it survives a power cut: the loop uses
        it for the "started" record of a call that changes things, which must
        be on disk before the change is.
        """
        task.updated_at = time.time()
        with self._lock:
            c = self._conn
            if durable:
                c.execute("PRAGMA synchronous=FULL")
            try:
                self._write(task, messages, calls, changes, fold)
            finally:
                if durable:
                    c.execute("PRAGMA synchronous=NORMAL")

    def _write(self, task: Task, messages, calls, changes, fold) -> None:
        with self._lock:
            c = self._conn
            c.execute("BEGIN IMMEDIATE")
            try:
                c.execute(
                    "INSERT INTO tasks(id, status, updated_at, json) VALUES (?,?,?,?) "
                    "ON CONFLICT(id) DO UPDATE SET status=excluded.status, "
                    "updated_at=excluded.updated_at, json=excluded.json",
                    (task.id, task.status, task.updated_at, _dumps(task)),
                )
                for m in messages:
                    c.execute(
                        "INSERT INTO messages(task_id, seq, folded, json) VALUES (?,?,?,?)",
                        (task.id, m.seq, int(m.folded), _dumps(m)),
                    )
                for call in calls:
                    c.execute(
                        "INSERT INTO calls(task_id, id, ord, json) VALUES (?,?,"
                        "(SELECT COALESCE(MAX(ord), 0) + 1 FROM calls WHERE task_id=?),?) "
                        "ON CONFLICT(task_id, id) DO UPDATE SET json=excluded.json",
                        (task.id, call.id, task.id, _dumps(call)),
                    )
                for ch in changes:
                    cur = c.execute(
                        "INSERT INTO changes(task_id, call_id, step, undone, json) VALUES (?,?,?,?,?)",
                        (task.id, ch.call_id, ch.step, int(ch.undone), json.dumps(ch.record)),
                    )
                    ch.id = int(cur.lastrowid)
                for seq in fold:
                    row = c.execute(
                        "SELECT json FROM messages WHERE task_id=? AND seq=?", (task.id, seq)
                    ).fetchone()
                    if row:
                        m = StoredMessage.model_validate_json(row[0])
                        m.folded = True
                        c.execute(
                            "UPDATE messages SET folded=1, json=? WHERE task_id=? AND seq=?",
                            (_dumps(m), task.id, seq),
                        )
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise

    def mark_undone(self, task_id: str, change_ids: Iterable[int]) -> None:
        """Flag change entries as undone (one transaction)."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for cid in change_ids:
                    self._conn.execute(
                        "UPDATE changes SET undone=1 WHERE task_id=? AND id=?", (task_id, cid)
                    )
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    # -- reads --------------------------------------------------------------
    def get_task(self, task_id: str) -> Task:
        """The task whose id is ``task_id`` or starts with it (unique prefix).

        Raises:
            TaskNotFound: no match, or the prefix matches several tasks.
        """
        with self._lock:
            rows = self._conn.execute(
                "SELECT json FROM tasks WHERE id=? UNION ALL "
                "SELECT json FROM tasks WHERE id LIKE ? ESCAPE '\\' AND id<>? LIMIT 3",
                (task_id, _like_prefix(task_id), task_id),
            ).fetchall()
        if not rows or not task_id:
            raise TaskNotFound(f"no task {task_id!r}; run `assistant tasks` to list them")
        exact = Task.model_validate_json(rows[0][0])
        if exact.id == task_id or len(rows) == 1:
            return exact
        raise TaskNotFound(f"task id {task_id!r} is ambiguous; type more characters")

    def list_tasks(self, limit: int = 50) -> list[Task]:
        """Most recently updated tasks first."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT json FROM tasks ORDER BY updated_at DESC LIMIT ?", (limit,)
            ).fetchall()
        return [Task.model_validate_json(r[0]) for r in rows]

    def messages(self, task_id: str, *, include_folded: bool = True) -> list[StoredMessage]:
        """The task's messages in order."""
        sql = "SELECT json FROM messages WHERE task_id=?"
        if not include_folded:
            sql += " AND folded=0"
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY seq", (task_id,)).fetchall()
        return [StoredMessage.model_validate_json(r[0]) for r in rows]

    def calls(self, task_id: str) -> list[CallRecord]:
        """The task's tool calls in the order they were first journaled."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT json FROM calls WHERE task_id=? ORDER BY ord", (task_id,)
            ).fetchall()
        return [CallRecord.model_validate_json(r[0]) for r in rows]

    def changes(self, task_id: str, *, include_undone: bool = False) -> list[ChangeEntry]:
        """Journaled workspace changes, oldest first."""
        sql = "SELECT id, call_id, step, undone, json FROM changes WHERE task_id=?"
        if not include_undone:
            sql += " AND undone=0"
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY id", (task_id,)).fetchall()
        return [
            ChangeEntry(id=r[0], call_id=r[1], step=r[2], undone=bool(r[3]), record=json.loads(r[4]))
            for r in rows
        ]

    def integrity_check(self) -> str:
        """``PRAGMA integrity_check`` result ("ok" when healthy)."""
        with self._lock:
            return str(self._conn.execute("PRAGMA integrity_check").fetchone()[0])


def _like_prefix(prefix: str) -> str:
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
