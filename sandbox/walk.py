"""Walking a workspace folder without following symlinks, and glob matching."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import sandbox._fs as _fs
from sandbox.paths import MAX_DEPTH, short

__all__ = ["Entry", "walk_entries", "iter_matching", "glob_to_regex"]


@dataclass(frozen=True)
class Entry:
    """One thing found by :meth:`Workspace.walk`.

    Attributes:
        path: workspace-relative POSIX path.
        kind: "file", "dir", "symlink", "fifo", "socket", "device" or "other".
        size: bytes (files), 0 otherwise.
        mtime: modification time, seconds since the epoch.
        depth: 1 for the direct children of the walked folder.
    """

    path: str
    kind: str
    size: int
    mtime: float
    depth: int


def _valid_name(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes came back as surrogates
        return False
    return True


def walk_entries(
    top: int,
    parts: list[str],
    max_depth: int | None,
    *,
    is_hidden: Callable[[list[str]], bool],
    on_skip: Callable[[str, str], None],
    depth_limit: int = MAX_DEPTH,
) -> Iterator[Entry]:
    """Pre-order entries below the folder open as ``top`` (see :meth:`Workspace.walk`).

    Iterative (an explicit stack holding one open folder per level), so any
    nesting is safe; folders ``depth_limit`` components below the workspace
    root are listed but not entered.

    Args:
        top: a descriptor of folder ``parts``; the walk owns and closes it.
        parts: the folder's components relative to the workspace root.
        max_depth: deepest level listed (1: direct children); None for all.
        is_hidden: True for components the walk must skip (the app's own folders).
        on_skip: told ``("unnamed", printable path)`` for each name that is not
            valid UTF-8 and ``("too_deep", folder)`` for each non-empty folder not entered.
        depth_limit: most components below the root a listed entry may have
            (see ``sandbox.paths.MAX_DEPTH``).
    """
    try:
        stack = [(top, parts, _fs.names_desc(top))]
    except BaseException:
        os.close(top)
        raise
    try:
        while stack:
            fd, base, names = stack[-1]
            if not names:
                stack.pop()
                os.close(fd)
                continue
            name = names.pop()
            if not _valid_name(name):
                on_skip("unnamed", short("/".join(base + [name])))
                continue
            child = base + [name]
            if is_hidden(child):
                continue
            try:
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
            kind = _fs.kind_of(info.st_mode)
            depth = len(child) - len(parts)
            yield Entry("/".join(child), kind, info.st_size if kind == "file" else 0, info.st_mtime, depth)
            if kind != "dir" or (max_depth is not None and depth >= max_depth):
                continue
            try:
                sub = _fs.open_subdir(fd, name)
            except OSError:
                continue  # swapped for a symlink or vanished: not followed
            try:
                inner = _fs.names_desc(sub)
            except OSError:
                os.close(sub)
                continue
            if len(child) >= depth_limit and inner:
                os.close(sub)
                on_skip("too_deep", "/".join(child))
                continue
            stack.append((sub, child, inner))
    finally:
        for fd, _, _ in stack:
            os.close(fd)


def _segment(seg: str) -> str:
    out, i = [], 0
    while i < len(seg):
        c = seg[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = seg.find("]", i + 2)
            if j == -1:
                out.append(re.escape(c))
            else:
                body = seg[i + 1 : j]
                neg = body[:1] in ("!", "^")
                body = body[1:] if neg else body
                out.append("[" + ("^" if neg else "") + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Compile a glob (``*``, ``?``, ``[...]``, ``**`` across folders) into a
    case-insensitive regex matched against a whole relative POSIX path. A
    pattern without "/" matches the file name at any depth."""
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    if "/" not in pattern:
        pattern = "**/" + pattern
    segs = [s for s in pattern.split("/") if s]
    out = []
    for i, seg in enumerate(segs):
        last = i == len(segs) - 1
        if seg == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
        else:
            out.append(_segment(seg) + ("" if last else "/"))
    return re.compile("".join(out) + r"\Z", re.IGNORECASE)


def iter_matching(entries: Iterable[Entry], *, path_prefix: str, pattern: str) -> Iterator[str]:
    """Paths of file entries whose path relative to ``path_prefix`` matches ``pattern``."""
    regex = glob_to_regex(pattern)
    cut = 0 if path_prefix in ("", ".") else len(path_prefix) + 1
    for entry in entries:
        if entry.kind == "file" and regex.match(entry.path[cut:]):
            yield entry.path
