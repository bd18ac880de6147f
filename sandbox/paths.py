"""Lexical checks of a path string the model gave, before the disk is touched.

Turns ``"docs/./a.txt"``, ``"/abs/root/docs/a.txt"`` into the component list
``["docs", "a.txt"]`` relative to the workspace root, or refuses with a
one-line :class:`SandboxError`. Containment is decided on components (a
separator-aware test), never on string prefixes, so ``/work-evil`` is not
inside ``/work``. Symlinks, link counts and file types are checked later on
the disk (see ``sandbox.workspace``).
"""

from __future__ import annotations

import os
from pathlib import PurePath

from sandbox.errors import SandboxError

__all__ = ["MAX_DEPTH", "MAX_NAME_BYTES", "MAX_PATH_BYTES", "split_path", "short"]

MAX_DEPTH = 64
"""Most components a path below the workspace root may have when something is
created there (write, mkdir, move, copy); walks do not enter deeper folders."""

MAX_NAME_BYTES = 255
"""Longest file or folder name, in UTF-8 bytes (the common filesystem limit)."""
MAX_PATH_BYTES = 4096
"""Longest path string accepted, in UTF-8 bytes (Linux PATH_MAX)."""

_SEPS = {"/", os.sep} | ({os.altsep} if os.altsep else set())


def short(path: str, limit: int = 120) -> str:
    """``path`` made printable on one line and cut to ``limit`` characters;
    quoted when it ends with a dot or has spaces at either end (so ``..``
    stays visible at the end of a sentence)."""
    text = path.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
    text = text.replace("\n", "\\n").replace("\r", "\\r")
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return f"'{text}'" if text.endswith(".") or text != text.strip() else text


def _split(text: str) -> list[str]:
    parts = [text]
    for sep in _SEPS:
        parts = [piece for part in parts for piece in part.split(sep)]
    return parts


def _is_within(path: PurePath, root: PurePath) -> bool:
    """Component-wise containment (``/work-evil`` is not within ``/work``)."""
    return path == root or root in path.parents


def split_path(path: object, roots: tuple[PurePath, ...], internal: frozenset[str]) -> list[str]:
    """The components of ``path`` relative to the workspace root.

    Args:
        path: what the model wrote: relative to the root, or absolute inside it.
        roots: absolute spellings of the root (as given, and fully resolved).
        internal: casefolded names of the app's folders nobody may touch.

    Returns:
        A list of names (no "", "." or ".."); ``[]`` means the root itself.

    Raises:
        SandboxError: not a string, NUL byte, not valid UTF-8, too long, ``~``,
            absolute outside the root, ``..`` above the root, an internal name.
    """
    if not isinstance(path, str):
        raise SandboxError(f"path must be a string, got {type(path).__name__}", "invalid")
    text = path.strip()
    if "\x00" in text:
        raise SandboxError(f"path contains a NUL byte: {short(text)}", "invalid")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise SandboxError(f"path is not valid UTF-8: {short(text)}", "invalid") from None
    if size > MAX_PATH_BYTES:
        raise SandboxError(f"path too long ({size} bytes; limit {MAX_PATH_BYTES})", "too_long")
    if text.startswith("~"):
        raise SandboxError(
            f"'~' (home folder) is not supported: {short(text)}; give a path inside the workspace",
            "escape",
        )
    pure = PurePath(text)
    if pure.is_absolute() or pure.drive or pure.root:
        norm = PurePath(os.path.normpath(text))
        for root in roots:
            if _is_within(norm, root):
                text = norm.relative_to(root).as_posix()
                break
        else:
            raise SandboxError(f"path is outside the workspace: {short(path)}", "escape")
    parts: list[str] = []
    for name in _split(text):
        if name in ("", "."):
            continue
        if name == "..":
            if not parts:
                raise SandboxError(f"path escapes the workspace: {short(path)}", "escape")
            parts.pop()
            continue
        nbytes = len(name.encode("utf-8"))
        if nbytes > MAX_NAME_BYTES:
            raise SandboxError(
                f"name too long ({nbytes} bytes; limit {MAX_NAME_BYTES}): {short(name, 40)}",
                "too_long",
            )
        if name.casefold() in internal:
            raise SandboxError(f"{name} is the assistant's internal folder; it is off limits", "internal")
        parts.append(name)
    return parts
