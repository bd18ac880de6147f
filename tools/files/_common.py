"""Shared helpers of the file tools: the workspace from the context, errors
with a next step, sizes and diffs."""

from __future__ import annotations

import contextlib
import re
import difflib
from typing import Iterator

from sandbox import SandboxError, Workspace
from tools.base import ToolContext, ToolError

__all__ = ["workspace_of", "sandboxed", "human_size", "unified_diff", "DIFF_MAX_LINES", "OFFICE_HINT",
           "office_hint", "document_hint", "reader_for", "DOCUMENT_TOOLS"]

DIFF_MAX_LINES = 400
"""Longest diff (in lines) kept in a result; the rest is summarised."""

OFFICE_HINT = "Use the office tools for PDF, Word (.docx) and Excel (.xlsx) files, or file_info."

DOCUMENT_TOOLS: dict[str, tuple[str, str, str]] = {
    ".pdf": ("pdf_read", "", "pdf"),
    ".docx": ("docx_read", "docx_replace and docx_insert change it", "word"),
    ".xlsx": ("xlsx_read", "xlsx_write changes it", "excel"),
    ".xlsm": ("xlsx_read", "xlsx_write changes it", "excel"),
}
"""Document suffix -> ``(reader tool, "tools that change it" or "", tool group to load)``."""


def reader_for(path: str) -> str:
    """The tool that reads ``path``'s contents: its document reader (``pdf_read``,
    ``docx_read``, ``xlsx_read``) by suffix, else ``read_file``."""
    import os

    found = DOCUMENT_TOOLS.get(os.path.splitext(str(path))[1].lower())
    return found[0] if found else "read_file"


def office_hint(path: str) -> str:
    """The tool that reads ``path`` when it is a document (``pdf_read``, ``docx_read``,
    ``xlsx_read``), with the tool group to load; :data:`OFFICE_HINT` otherwise."""
    import os

    found = DOCUMENT_TOOLS.get(os.path.splitext(str(path))[1].lower())
    if not found:
        return OFFICE_HINT
    tool, _, group = found
    return f"Use {tool} for this file (if it is not in your tools, call use_tools with groups [\"{group}\"] first)."


_CREATORS = {".docx": "docx_create makes it (path, and blocks: its headings and paragraphs)",
             ".xlsx": "xlsx_write makes it (path, and rows: a list of rows, the first one the header)"}


def document_hint(path: str, *, exists: bool = True) -> str:
    """The tools that read and change ``path`` when it is a document (with the
    group to load), or, when it does not exist yet (``exists`` False), the tool that
    makes it; :data:`OFFICE_HINT` otherwise. multistep_invoices_memo at 462ec82: told
    that "xlsx_read reads it, xlsx_write changes it" about an invoices.xlsx to be
    made, Qwen 1.5B called xlsx_info on it."""
    import os

    suffix = os.path.splitext(str(path))[1].lower()
    found = DOCUMENT_TOOLS.get(suffix)
    if not found:
        return OFFICE_HINT
    reader, editors, group = found
    tools = f"{reader} reads it" + (f", {editors}" if editors else "")
    if not exists and suffix in _CREATORS:
        tools = _CREATORS[suffix]
    return f"It is a document: {tools} (if it is not in your tools, call use_tools with groups [\"{group}\"] first)."


_HINTS = {
    "not_found": "Use list_dir or find_files to see what exists.",
    # files_rename_pattern at 462ec82: the example "notes/todo.txt" was taken for a file to write
    "escape": "Give the path relative to the workspace, as list_dir shows it.",
    "symlink": "Symlinks are never followed; use the real path inside the workspace.",
    "hardlink": ("Hard-linked files cannot be read, written or copied here; ask the user to make it an "
                 "independent file (e.g. cp FILE FILE.new && mv FILE.new FILE in a terminal)."),
    "special": "Only regular files and folders can be used.",
    "internal": "Pick a path outside the assistant's own folder.",
    "too_long": "Use a shorter name.",
    "exists": "Choose another name, or pass overwrite=true to replace it.",
    "is_dir": "That is a folder; use list_dir to see inside it.",
    "not_dir": "A file is in the way; check the path with list_dir.",
    "too_large": "It is over the size limit; ask the user for a smaller file or a specific part.",
    "binary": OFFICE_HINT,
}


def workspace_of(ctx: ToolContext) -> Workspace:
    """The task's workspace, or ToolError when the context has none."""
    ws = getattr(ctx, "workspace", None)
    if ws is None:
        raise ToolError("no workspace is open for this task; the user must choose a workspace folder.")
    return ws


@contextlib.contextmanager
def sandboxed() -> Iterator[None]:
    """Turn a SandboxError into a ToolError that says what to do next."""
    try:
        yield
    except SandboxError as exc:
        hint = _HINTS.get(exc.code, "")
        message = str(exc)
        if exc.code == "not_found" and any(ch in message for ch in "*?["):
            # Qwen 1.5B copied "todo/*.txt" to combine files, got "not found" and gave up
            hint = ("Paths are never wildcards here: name one file (find_files lists the files a pattern matches); "
                    "combine_files joins files (todo/*.txt) into one, move takes a wildcard src.")  # paths ending in "." come quoted (sandbox.paths.short): keep them whole
        if exc.code == "binary":  # name the tools for that document (handoff_which_contract: edit_file on a .docx)
            m = re.match(r"'?(.+?)'? is not a text file", message)
            hint = document_hint(m.group(1)) if m else hint
        if not message.endswith("."):
            message += "."
        raise ToolError(f"{message} {hint}".strip()) from None


def human_size(n: int) -> str:
    """``1536 -> "1.5 KB"`` (powers of 1024, one decimal above bytes)."""
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{int(size)} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"  # pragma: no cover


def unified_diff(path: str, old: str, new: str, *, context: int = 3) -> str:
    """A unified diff of two texts (``a/path`` -> ``b/path``), capped at
    :data:`DIFF_MAX_LINES` lines; "" when they are equal."""
    lines = list(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"a/{path}",
            tofile=f"b/{path}",
            n=context,
        )
    )
    out = [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines]
    if len(out) > DIFF_MAX_LINES:
        out = out[:DIFF_MAX_LINES] + [f"... diff cut: {len(out) - DIFF_MAX_LINES} more lines\n"]
    return "".join(out)
