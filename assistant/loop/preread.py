"""The files a goal names are read before the model's first turn.

Measured on Qwen2.5-Coder-1.5B over the bench (33 tasks, e167de4): the first
turn was the worst of a task. It planned in prose, called ``list_dir`` on a
workbook, ``read_file`` on a .xlsx, wrote its call inside ``<tools>``, or
edited the file before reading it (27 format errors, most at step 1). A goal
that names an existing file ("the meeting in invite.txt", "page 3 of
q3-report.pdf") needs that file read first in every case, so the harness does
it: one read call per named file, journaled and shown like any call (the UI
shows the card; the call format in the history is the model's own), before
step 1. The calls are step 0 and cost no step of the budget.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model.types import ToolCall

from .finish import goal_files

__all__ = ["PREREAD_STEP", "preread_calls"]

PREREAD_STEP = 0
"""The step number of the harness's reads (before the model's step 1)."""

_MAX_FILES = 3


def preread_calls(goal: str, workspace: str | Path, registered: Any) -> list[ToolCall]:
    """One read call per file ``goal`` names that exists in ``workspace`` (inputs
    first, then outputs that already exist, at most three), with the reader its
    type calls for (``read_file``, ``pdf_read``, ``docx_read``, ``xlsx_read``);
    [] when the goal names none. ``registered(name)`` is true for a callable tool."""
    from tools.files._common import reader_for

    outputs, inputs = goal_files(goal)
    root = Path(workspace)
    calls: list[ToolCall] = []
    seen: set[str] = set()
    for rel in [*inputs, *outputs]:
        path = root / rel
        try:
            ok = path.is_file() and not path.is_symlink() and path.resolve().is_relative_to(root.resolve())
        except OSError:
            ok = False
        name = reader_for(rel)
        if not ok or rel in seen or not registered(name):
            continue
        seen.add(rel)
        calls.append(ToolCall(name=name, arguments={"path": rel}, raw=""))
        if len(calls) == _MAX_FILES:
            break
    return calls
