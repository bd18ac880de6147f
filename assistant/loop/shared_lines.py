"""The lines two text lists share, or one has and the other lacks: "Which names are in
both team_a.txt and team_b.txt?", "Which guests of list_a.txt are not on list_b.txt?".

Batch HZ at 4bb2504 (HZD): the model grepped for one name it saw in both files,
answered "Cleo" and was called done; Anna is on both lists too. The harness reads the
two files itself and compares their lines (a list marker, spaces and letter case
aside), so the answer is checked against every item, not the ones the model looked at.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, NamedTuple

from .answer_form import answer_to_copy
from .evidence import asks_only_a_question

__all__ = ["SharedLines", "shared_lines", "shared_lines_wrong"]

_FILE = r"([\w./-]+\.(?:txt|md))"
#: "in both A and B", "on both A and B", "appear in A and in B", "common to A and B"
_BOTH = re.compile(rf"\b(?:(?:in|on)\s+both\s+{_FILE}\s+and\s+{_FILE}|(?:common\s+to|shared\s+by)\s+{_FILE}\s+and\s+"
                   rf"{_FILE}|(?:in|on)\s+{_FILE}\s+and\s+(?:also\s+)?(?:in|on)\s+{_FILE})\b", re.IGNORECASE)
#: "in A but not in B", "on A and not on B", "in A that are missing from B"
_ONLY = re.compile(rf"\b(?:in|on|of)\s+{_FILE}\b(?:[^.?!]|\.(?=\w)){{0,40}}?\b(?:but|and|that|which|who)?\s*"
                   rf"(?:(?:are|is)\s+)?(?:not\s+(?:in|on)|missing\s+from|absent\s+from|left\s+out\s+of)\s+{_FILE}\b",
                   re.IGNORECASE)
_MARKER = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)]|\[[ xX]\])\s+")
_MOST_ITEMS = 200


class SharedLines(NamedTuple):
    """What :func:`shared_lines` found: ``items`` (the lines asked for, as the first file
    gives them), ``others`` (the files' other lines), ``asked`` ("in both team_a.txt and
    team_b.txt") and ``answer`` (one to copy)."""

    items: list[str]
    others: list[str]
    asked: str
    answer: str


def _items(path: Path) -> list[str] | None:
    """The list items of text file ``path``: each non-empty line, a list marker off,
    headings left out; None when it cannot be read or is too long for a list."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    items = [_MARKER.sub("", ln).strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    return items if 0 < len(items) <= _MOST_ITEMS else None


def shared_lines(goal: str, workspace: str | Path) -> SharedLines | None:
    """The :class:`SharedLines` when ``goal`` is a question for the lines two text files
    (.txt, .md) of the workspace both hold (:data:`_BOTH`) or the first holds and the
    second does not (:data:`_ONLY`), lines compared with spaces and letter case aside;
    None otherwise, or when a file cannot be read as a list."""
    if not asks_only_a_question(goal):
        return None
    both, only = _BOTH.search(goal), _ONLY.search(goal)
    m = both or only
    if m is None:
        return None
    first, second = [f for f in m.groups() if f]
    a, b = _items(Path(workspace) / first), _items(Path(workspace) / second)
    if a is None or b is None:
        return None
    key = {_key(x) for x in b}
    items = _unique(x for x in a if (_key(x) in key) == bool(both))
    taken = {_key(x) for x in items}
    others = _unique(x for x in (*a, *b) if _key(x) not in taken)
    asked = f"in both {first} and {second}" if both else f"in {first} and not in {second}"
    listed = ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)
    answer = f"{listed} {'are' if len(items) > 1 else 'is'} {asked}." if items else f"None: no line is {asked}."
    return SharedLines(items, others, asked, answer)


def _key(item: str) -> str:
    return " ".join(item.split()).lower()


def _unique(items: Iterable[str]) -> list[str]:
    """``items`` in order, each the first time its :func:`_key` comes."""
    seen: dict[str, str] = {}
    for x in items:
        seen.setdefault(_key(x), x)
    return list(seen.values())


def _named(item: str, answer: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(item)}(?![\w-])", answer, re.IGNORECASE) is not None


def shared_lines_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks for the lines two text files share (or one lacks),
    :func:`shared_lines`, and ``answer`` leaves one out or names a line that is not one
    ("" otherwise), with the answer to copy."""
    found = shared_lines(goal, workspace)
    if found is None or not found.items and not found.others:
        return ""
    missing = [x for x in found.items if not _named(x, answer)]
    extra = [x for x in found.others if _named(x, answer) and not any(_named(x, i) for i in found.items)]
    if not missing and not extra:
        return ""
    what = (f"leaves out {', '.join(map(repr, missing[:5]))}" if missing else "") + \
        (" and " if missing and extra else "") + (f"names {', '.join(map(repr, extra[:5]))}, which "
                                                  f"{'is' if len(extra) == 1 else 'are'} not" if extra else "")
    return (f"the task asks for the lines {found.asked}, and the answer {what}; the harness compared every line of "
            f"the two files, {answer_to_copy(found.answer)}")
