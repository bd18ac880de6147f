"""One process drives a task at a time: an advisory lock file per task.

The lock is ``fcntl.flock`` on ``<locks dir>/<task id>.lock``; the OS drops it
when the process dies (even by SIGKILL), so a crashed run never blocks its
resume. On platforms without ``fcntl`` locking is skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["TaskLock", "is_running"]

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class TaskLock:
    """Non-blocking exclusive lock for ``task_id`` in folder ``folder``."""

    def __init__(self, folder: Path, task_id: str) -> None:
        self.path = Path(folder) / f"{task_id}.lock"
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; False when another process holds it."""
        if fcntl is None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        """Drop the lock (no-op when not held)."""
        if self._fd is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = None


def is_running(folder: Path, task_id: str) -> bool:
    """True when some process holds ``task_id``'s lock now (its run is live).
    A task whose status says "running" but whose lock is free was interrupted
    (a crash, a kill, a power cut) and can be resumed."""
    if fcntl is None:
        return True
    lock = TaskLock(folder, task_id)
    if not lock.path.exists():
        return False
    if lock.acquire():
        lock.release()
        return False
    return True
