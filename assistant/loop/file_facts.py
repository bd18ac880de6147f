"""Which file of a folder is the largest (smallest) or the newest (oldest): a fact
of the disk, not of any file's text, so the harness looks it up.

A held-out task (SA) at 5910adb: "Which file in this folder is the largest?" got
the harness's grep for the word "largest" before its first turn (a which-file
question reads as one about a file's words), found nothing and answered that it
could not tell; list_dir shows every size.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

from .evidence import asks_only_a_question, goal_files
from .named_files import FILE_EMPTY_ASKED as _EMPTY, FILE_SIZE_ASKED as _SIZE, FILE_TIME_ASKED as _TIME, \
    goal_folders

__all__ = ["EmptyFiles", "FileExtreme", "empty_files", "file_extreme"]

_WHICH_FILE = re.compile(r"\b(?:which|what)\b[^.?!]{0,40}?\b(?:file|document)s?\b", re.IGNORECASE)
_MOST_FILES = 500


class FileExtreme(NamedTuple):
    """The file a question asks for: ``path`` (workspace-relative), ``said`` (its size or
    modification time, as the answer may give it), ``what`` ("largest", "most recently
    changed") and ``folder`` (workspace-relative, "." for the workspace)."""

    path: str
    said: str
    what: str
    folder: str


def file_extreme(goal: str, workspace: str | Path) -> FileExtreme | None:
    """The :class:`FileExtreme` when ``goal`` is a question for the file of one folder
    (the one it names, else the workspace) that is the largest, smallest, newest or
    oldest, and it names no file; None otherwise, for a folder without files, a tie,
    or one of more than 500 files. Sizes are bytes; times the modification time (UTC).
    Hidden names (".assistant") and symlinks are left out; subfolders are not entered."""
    if not asks_only_a_question(goal) or not _WHICH_FILE.search(goal) or any(goal_files(goal)):
        return None
    size, time = _SIZE.search(goal), _TIME.search(goal)
    if bool(size) == bool(time):
        return None
    folder, found = _files_of(goal, workspace)
    if not found:
        return None
    word = (size or time).group("w").lower()
    most = word in ("largest", "biggest", "heaviest", "newest", "latest") or word.startswith(("most", "last"))
    key = 1 if size else 2
    best = (max if most else min)(row[key] for row in found)
    tops = [row for row in found if row[key] == best]
    if len(tops) != 1:
        return None
    name, nbytes, mtime = tops[0]
    said = (f"{nbytes:,} bytes" if size else
            "modified " + datetime.fromtimestamp(mtime, timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    what = " ".join(word.split()) if size or word in ("newest", "oldest", "latest", "earliest") else \
        ("most recently changed" if most else "least recently changed")
    return FileExtreme(name if folder == "." else f"{folder}/{name}", said, what, folder)


def _files_of(goal: str, workspace: str | Path) -> tuple[str, list[tuple[str, int, float]]]:
    """``(folder, files)``: the one folder ``goal`` names (else the workspace, ".") and its
    files as ``(name, bytes, modification time)``; [] for more than 500 files or one that
    cannot be read. Hidden names and symlinks are left out; subfolders are not entered."""
    root = Path(workspace)
    folders = goal_folders(goal, root)
    folder = folders[0] if len(folders) == 1 else "."
    found = []
    try:
        with os.scandir(root / folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or not entry.is_file(follow_symlinks=False):
                    continue
                info = entry.stat(follow_symlinks=False)
                found.append((entry.name, info.st_size, info.st_mtime))
                if len(found) > _MOST_FILES:
                    return folder, []
    except OSError:
        return folder, []
    return folder, found


class EmptyFiles(NamedTuple):
    """The files of one folder that hold no bytes: ``paths`` (workspace-relative, sorted;
    empty when none is), ``folder`` (workspace-relative, "." for the workspace) and
    ``answer`` (the answer to copy)."""

    paths: list[str]
    folder: str
    answer: str


def empty_files(goal: str, workspace: str | Path) -> EmptyFiles | None:
    """The :class:`EmptyFiles` when ``goal`` is a question for the empty files of one
    folder (the one it names, else the workspace) and names no file; None otherwise and
    for a folder without files. A held-out task at 911f35c: "Which files in this folder
    are empty?" got find_files ".*" (no match) and answered "No files in the workspace
    are empty." (two of four were)."""
    if not asks_only_a_question(goal) or not _EMPTY.search(goal) or any(goal_files(goal)):
        return None
    folder, found = _files_of(goal, workspace)
    if not found:
        return None
    names = sorted(name for name, size, _ in found if size == 0)
    paths = [n if folder == "." else f"{folder}/{n}" for n in names]
    where = "this folder" if folder == "." else folder
    if not paths:
        said = f"No file in {where} is empty."
    elif len(paths) == 1:
        said = f"{paths[0]} is the one empty file in {where} (0 bytes)."
    else:
        said = f"The empty files in {where} are {', '.join(paths[:-1])} and {paths[-1]} (0 bytes each)."
    return EmptyFiles(paths, folder, said)
