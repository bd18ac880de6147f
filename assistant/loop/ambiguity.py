"""Which file does the user mean? A change aimed at "the contract" when the
workspace holds two contracts is a guess only the user can settle.

Measured on Qwen2.5-Coder-1.5B: asked to "Update the client's address in the
contract" with contract-acme.docx and contract-birch.docx in the workspace, it
edited the first one it listed; asked to "Delete the old report" with three
reports, it picked one. A person would ask which. The check is deterministic:
the goal does not name the file, says "the <noun>" (singular), and the change
targets one of two or more files whose names hold that noun. The call is refused and
the next turn may only call ``ask_human`` (see ``agent.Agent._step``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

from .evidence import goal_files

__all__ = ["ambiguous_target", "ambiguous_goal", "AMBIGUOUS_KEY", "EDITS_EXISTING"]

EDITS_EXISTING = frozenset({"edit_file", "docx_replace", "docx_insert", "xlsx_append_rows", "xlsx_add_sheet"})
"""Tools that change a file that must already exist (their target is never a new file):
handoff_which_contract: Qwen 1.5B edited contract.txt, a name of its own, for "the contract"."""

AMBIGUOUS_KEY = "ambiguous"
"""Key of a refused call's ``data``: the files the user must choose among."""

_THE = re.compile(r"\bthe\s+(?=([A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}))", re.IGNORECASE)
_TARGET_KEYS = ("path", "src", "file", "target")
#: a plural after the noun: the goal means them all ("the empty files", "the draft documents")
_PLURAL_FILES = frozenset({"files", "documents", "docs", "reports", "photos", "images", "pictures", "notes", "sheets",
                           "pdfs", "ones", "copies", "versions", "drafts", "logs"})
_MAX_SHOWN = 8


def _name_words(path: str) -> set[str]:
    """The words of a file name without its extension: ``contract-acme.docx`` -> {contract, acme}."""
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name
    return {w for w in re.split(r"[^a-z]+", stem.lower()) if len(w) >= 3}


def ambiguous_target(goal: str, ws: Any, arguments: dict[str, Any], made: Iterable[str] = (), *,
                     needs_source: bool = False) -> tuple[str, list[str]] | None:
    """``("the contract", [candidates])`` when a change with ``arguments`` targets a
    workspace file that the goal only calls "the <noun>", and two or more files
    (not made by this task, ``made``) have that noun in their names; else None.

    Args:
        goal: the user's goal text.
        ws: the task's :class:`sandbox.Workspace`.
        arguments: the change call's arguments (its target under ``path``/``src``/...).
        made: workspace paths this task created (never a candidate).
        needs_source: the call acts on a file that must exist (delete, move, copy, an edit):
            a made-up name (reports/report_2026-12-01.md for "the old report")
            counts too. Otherwise only an existing target does (a new file is no
            choice among the user's).
    """
    target = next((v for k in _TARGET_KEYS if isinstance(v := arguments.get(k), str) and v.strip()), None)
    if target is None or any(ch in target for ch in "*?["):
        return None
    try:
        rel = ws.rel(ws.resolve(target))
    except Exception:  # noqa: BLE001 - outside the workspace: for a call on an existing file, its name counts
        # handoff_delete_report at e03cee3: Qwen 1.5B asked to delete /tmp/.../report.pdf for "the old report"
        rel = target.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
        if not needs_source or not rel:
            return None
    try:
        if not ws.is_file(rel) and (not needs_source or ws.exists(rel)):
            return None  # a new file is no choice among the user's; a folder is not a file
        ours = {p.strip("/") for p in made}
        files = [p for p in ws.iter_files(".") if p not in ours]
    except Exception:  # noqa: BLE001 - a refused or odd path is the tool's to report
        return None
    named = {p.lower().strip("/") for p in (*goal_files(goal)[0], *goal_files(goal)[1])}
    if rel.lower() in named or rel.rsplit("/", 1)[-1].lower() in {p.rsplit("/", 1)[-1] for p in named}:
        return None  # the user named the file
    words = _name_words(rel)
    for m in _THE.finditer(goal):
        phrase = m.group(1).split()
        for i, word in enumerate(phrase):
            noun = word.lower().strip("'")
            if noun not in words:
                continue
            if any(w.lower() in _PLURAL_FILES for w in phrase[i + 1:]):
                break  # "the empty files": every one of them, no choice (a held-out task at 2e1bee7)
            candidates = sorted(p for p in files if noun in _name_words(p))
            if len(candidates) >= 2:
                return "the " + " ".join(phrase[: i + 1]), candidates[:_MAX_SHOWN]
    return None


def ambiguous_goal(goal: str, root: str | Path, limit: int = 2000) -> tuple[str, list[str]] | None:
    """``("the contract", [candidates])`` when the goal names no file, says "the <noun>",
    and two or more files under ``root`` (hidden ones skipped, at most ``limit`` looked
    at) have that noun in their names; else None. :func:`ambiguous_target` without a
    call: handoff_which_contract at 1c5fa31, Qwen 1.5B never tried a change (so none
    was refused) and answered "The client's address has been updated" three times."""
    import os

    outputs, inputs = goal_files(goal)
    if outputs or inputs:
        return None
    files: list[str] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        files += [os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/") for n in sorted(names)
                  if not n.startswith(".")]
        if len(files) > limit:
            return None
    for m in _THE.finditer(goal):
        phrase = m.group(1).split()
        for i, word in enumerate(phrase):
            noun = word.lower().strip("'")
            if len(noun) < 3:
                continue
            candidates = sorted(p for p in files if noun in _name_words(p))
            if len(candidates) >= 2:
                return "the " + " ".join(phrase[: i + 1]), candidates[:_MAX_SHOWN]
    return None
