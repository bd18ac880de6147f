"""What a hand-off answer means for ``Agent.resume``, and diff previews for
approvals re-shown after a restart."""

from __future__ import annotations

from typing import Any

__all__ = ["resolution_for", "preview_for", "removal_preview"]


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


def _size(n: int) -> str:
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.1f} KB" if n < 1024 ** 2 else f"{n / 1024 ** 2:.1f} MB"


def removal_preview(workspace: Any, call: dict[str, Any], *, first_lines: int = 5, max_files: int = 100_000) -> str | None:
    """What a ``delete`` call would remove from ``workspace`` (a folder path):
    for a file its name, size and first lines; for a folder its file count and
    total size. None for other tools, or a path outside the workspace.

    >>> removal_preview("/tmp", {"name": "read_file", "arguments": {}}) is None
    True
    """
    from pathlib import Path

    if call.get("name") != "delete":
        return None
    name = str((call.get("arguments") or {}).get("path", ""))
    try:
        root = Path(workspace).resolve()
        target = (root / name).resolve()
        target.relative_to(root)
    except (OSError, ValueError, TypeError):
        return None
    if target.is_dir():
        files = [p for i, p in enumerate(target.rglob("*")) if i < max_files and p.is_file()]
        total = sum(p.stat().st_size for p in files if not p.is_symlink())
        return f"Removes the folder {name}/: {len(files)} file{'s' if len(files) != 1 else ''}, {_size(total)}."
    if not target.is_file():
        return f"{name} does not exist."
    size = target.stat().st_size
    try:
        with target.open("rb") as fh:
            head = fh.read(4096)
        if b"\0" in head:
            lines = ["(binary file)"]
        else:
            lines = head.decode("utf-8", errors="replace").splitlines()[:first_lines]
    except OSError:
        lines = []
    text = f"Removes the file {name} ({_size(size)})"
    return text + (":\n" + "\n".join("  " + line[:100] for line in lines) if lines else ".")
