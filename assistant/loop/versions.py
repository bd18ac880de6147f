"""The newest (oldest) version number in a file: "Which is the newest version in
versions.txt?".

Version numbers compare part by part as whole numbers: 1.10.1 is newer than 1.9.2,
though as text (or as a decimal, 1.10 < 1.9) it sorts before it. Batch IZ at 2081e47
(IZG): the model searched the web for the latest version. The harness reads the
version numbers of the one file the goal names, picks the highest (lowest) and doubts an
answer that does not give it, with the answer to copy.
"""

from __future__ import annotations

import re
from pathlib import Path

from .answer_form import answer_to_copy
from .evidence import asks_only_a_question, goal_files

__all__ = ["version_asked", "version_wrong"]

_ASKED = re.compile(r"\b(?:(?P<new>newest|latest|highest|most\s+recent|last)|(?P<old>oldest|lowest|earliest|first))"
                    r"\s+(?:\w+\s+)?(?:versions?|releases?)\b", re.IGNORECASE)
#: "1.10.1", "v2.0", "3.4.0.12": two to four whole numbers joined by dots
_VERSION = re.compile(r"(?<![\w.])v?(\d{1,6}(?:\.\d{1,6}){1,3})(?![\w]|\.\d)", re.IGNORECASE)
_TEXT_FILES = (".txt", ".md", ".csv", ".log", ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg")


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def version_asked(goal: str, workspace: str | Path) -> tuple[str, str, str] | None:
    """``(which, version, file)`` when ``goal`` is a question for the newest (oldest)
    version (:data:`_ASKED`) in the one text file it names that holds at least two
    different version numbers: ``which`` is "newest" or "oldest"; None otherwise."""
    m = _ASKED.search(goal)
    files = [f for f in goal_files(goal)[1] if f.lower().endswith(_TEXT_FILES)] if m else []
    if len(files) != 1 or not asks_only_a_question(goal):
        return None
    try:
        text = (Path(workspace) / files[0]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found = {v.group(1) for v in _VERSION.finditer(text)}
    if len({_key(v) for v in found}) < 2:
        return None
    pick = max(found, key=_key) if m.group("new") else min(found, key=_key)
    return ("newest" if m.group("new") else "oldest"), pick, files[0]


def version_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks for the newest (oldest) version in a file
    (:func:`version_asked`) and ``answer`` does not give it ("" otherwise), with the
    answer to copy."""
    found = version_asked(goal, workspace)
    if found is None:
        return ""
    which, version, name = found
    if any(_key(v.group(1)) == _key(version) for v in _VERSION.finditer(answer)):
        return ""
    return (f"the task asks for the {which} version in {name}, and the answer does not give it; the harness "
            f"compared the version numbers part by part (1.10 is newer than 1.9): "
            f"{answer_to_copy(f'The {which} version in {name} is {version}.')}")
