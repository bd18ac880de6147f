"""What the input box completes and what ``@file`` mentions mean for a goal.

Pure functions over text and the workspace (no widgets): the word being typed
at the cursor, slash-command and workspace-file candidates for it, and the
goal text the agent gets for a line that mentions files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterable

__all__ = ["word_at", "slash_candidates", "list_files", "file_candidates", "mentioned_files", "goal_with_mentions"]

_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".mypy_cache", ".pytest_cache"}
_MENTION = re.compile(r"(?:^|(?<=\s))@(\S+)")


def word_at(text: str, cursor: int) -> tuple[int, str]:
    """The word that ends at offset ``cursor`` of ``text``: ``(start offset, word)``
    (``""`` when the cursor follows a space). A word runs back to the last
    whitespace.

    >>> word_at("see @no", 7)
    (4, '@no')
    """
    start = cursor
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return start, text[start:cursor]


def slash_candidates(word: str, names: Iterable[str]) -> list[str]:
    """Command ``names`` (``"/help"``, ...) that start with ``word`` (case-insensitive),
    in the given order; none for the exact, only match."""
    found = [n for n in names if n.lower().startswith(word.lower())]
    return [] if found == [word] else found


def list_files(workspace: Path, *, limit: int = 5000) -> list[str]:
    """Workspace-relative POSIX paths of the files under ``workspace``, sorted,
    at most ``limit`` (hidden folders and tool caches such as ``.git`` or
    ``node_modules`` skipped; unreadable folders skipped)."""
    root = Path(workspace)
    out: list[str] = []
    for folder, dirs, files in os.walk(root, onerror=lambda _e: None):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        rel = Path(folder).relative_to(root)
        for name in sorted(files):
            out.append((rel / name).as_posix())
            if len(out) >= limit:
                return sorted(out)
    return sorted(out)


def file_candidates(query: str, files: Iterable[str], *, limit: int = 8) -> list[str]:
    """``files`` matching ``query`` (the text after ``@``), best first: paths
    starting with it, then file names starting with it, then paths containing it
    (case-insensitive); at most ``limit``.

    >>> file_candidates("no", ["a/notes.md", "notes.md", "enotes.txt"])
    ['notes.md', 'a/notes.md', 'enotes.txt']
    """
    q = query.lower()
    ranked: list[tuple[int, str]] = []
    for path in files:
        p = path.lower()
        if p.startswith(q):
            rank = 0
        elif p.rsplit("/", 1)[-1].startswith(q):
            rank = 1
        elif q in p:
            rank = 2
        else:
            continue
        ranked.append((rank, path))
    ranked.sort(key=lambda rp: (rp[0], rp[1].count("/"), rp[1]))
    return [p for _, p in ranked[:limit]]


def mentioned_files(text: str, workspace: Path) -> list[str]:
    """The ``@path`` mentions in ``text`` that name a file inside ``workspace``,
    workspace-relative, in order, each once (trailing ``.,;:!?)`` dropped;
    mentions that leave the workspace or name nothing are ignored)."""
    root = Path(workspace).resolve()
    found: list[str] = []
    for match in _MENTION.finditer(text):
        name = match.group(1).rstrip(".,;:!?)")
        try:
            path = (root / name).resolve()
            rel = path.relative_to(root).as_posix()
        except (OSError, ValueError):
            continue
        if path.is_file() and rel not in found:
            found.append(rel)
    return found


def goal_with_mentions(text: str, workspace: Path) -> str:
    """``text`` as the agent's goal: unchanged, or followed by a line
    ``Files mentioned: a.md, b/c.txt`` naming the files its ``@`` mentions point at
    (the tools read them by these workspace-relative paths)."""
    files = mentioned_files(text, workspace)
    return f"{text}\n\nFiles mentioned: {', '.join(files)}" if files else text
