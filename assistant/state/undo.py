"""Undo what a task changed in its workspace, from the side-effect journal.

Each journaled :class:`sandbox.ChangeRecord` is reverted newest first with
``sandbox.undo_changes``, which restores the saved bytes from the blob store
and never clobbers a file edited since (it reports it instead). Reverted
entries are marked undone, so undoing twice is a no-op.
"""

from __future__ import annotations

from pathlib import Path

from ..infra.locks import TaskLock
from .store import Store

__all__ = ["undo_task", "undo_plan", "UndoError"]

_NOT_DONE = ("skipped", "could not", "cannot", "kept")


class UndoError(RuntimeError):
    """The undo cannot start (task running elsewhere, workspace gone)."""


_PLAN = {
    "create": "remove {path} (created by the task)",
    "write": "restore the earlier text of {path}",
    "delete": "bring back {path} from the trash",
    "move": "move {dest} back to {path}",
    "copy": "remove the copy {dest}",
    "mkdir": "remove the folder {path} (made by the task)",
}


def undo_plan(store: Store, task_id: str, *, from_step: int | None = None) -> list[str]:
    """What :func:`undo_task` would try, one line per journaled change, newest
    first (``"step 2: restore the earlier text of notes.md"``); reads only, and
    ``[]`` when nothing is left to undo. A file edited since is still skipped by
    the undo itself.

    Raises:
        TaskNotFound: unknown task id.
    """
    task = store.get_task(task_id)
    entries = [e for e in store.changes(task.id) if from_step is None or e.step >= from_step]
    lines = []
    for entry in reversed(entries):
        rec = entry.record
        text = _PLAN.get(str(rec.get("op")), "revert {path}").format(path=rec.get("path"), dest=rec.get("dest"))
        lines.append(f"step {entry.step}: {text}")
    return lines


def undo_task(store: Store, task_id: str, state_dir: Path, *, from_step: int | None = None) -> list[str]:
    """Revert the task's changes (all, or those of steps ``from_step`` and later).

    Args:
        store: the task store.
        task_id: id or unique prefix.
        state_dir: the state folder holding ``blobs/``, ``trash/`` and ``locks/``.
        from_step: rewind to just before this step (1-based); None undoes all.

    Returns:
        One line per change, newest first, saying what was done or why not.

    Raises:
        TaskNotFound: unknown task id.
        UndoError: the task is being run by another process, or its workspace
            folder is gone.
    """
    from sandbox import BlobStore, ChangeRecord, SandboxError, Workspace, undo_changes

    task = store.get_task(task_id)
    lock = TaskLock(Path(state_dir) / "locks", task.id)
    if not lock.acquire():
        raise UndoError(f"task {task.id} is running; stop it before undoing")
    try:
        entries = store.changes(task.id)
        if from_step is not None:
            entries = [e for e in entries if e.step >= from_step]
        if not entries:
            return ["nothing to undo"]
        try:
            ws = Workspace(task.workspace, blobs=BlobStore(Path(state_dir) / "blobs"),
                           trash_dir=Path(state_dir) / "trash" / task.id)
        except SandboxError as exc:
            raise UndoError(str(exc)) from None
        lines: list[str] = []
        done: list[int] = []
        for entry in reversed(entries):
            line = undo_changes(ws, [ChangeRecord.from_dict(entry.record)])[0]
            lines.append(line)
            if not line.startswith(_NOT_DONE):
                done.append(entry.id)
        store.mark_undone(task.id, done)
        return lines
    finally:
        lock.release()
