"""Counting the items of a list kept in one cell: "Which recipe in recipes.csv needs
the most ingredients, and how many does it need?" (the ingredients column holds
"flour;eggs;milk").

Batch KZ at 6a1c8bc (KZC): the model answered with the recipe that takes the most
minutes ("40 minutes"), and a second query ranking by minutes agreed. SQL counts such
items only with a string split, which a small model does not write. The harness
counts them itself: where the goal names a column of the one CSV file it names whose
cells are lists (most of them hold the same separator, ";" or "|" or ","), and asks for
the row with the most (fewest) of them, it finds that row and its count and doubts an
answer that does not give both, with the answer to copy.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .evidence import asks_only_a_question, goal_files

__all__ = ["ListCount", "list_count_asked", "list_count_wrong", "list_count_text"]

_MOST = re.compile(r"\b(?:(?P<most>most|largest\s+number\s+of|highest\s+number\s+of)|(?P<least>fewest|least|"
                   r"smallest\s+number\s+of|lowest\s+number\s+of))\s+(?P<what>[a-z]+)", re.IGNORECASE)
_SEPARATORS = (";", "|", ",")


class ListCount(NamedTuple):
    """The row named ``name`` (its first cell) holds the most (``which``) items of
    ``column``: ``count`` of them; ``ties``: other rows with as many."""

    name: str
    column: str
    count: int
    which: str
    ties: tuple[str, ...]


def _same_word(a: str, b: str) -> bool:
    a, b = a.casefold(), b.casefold()
    return a == b or a.rstrip("s") == b.rstrip("s")


def list_count_asked(goal: str, workspace: str | Path) -> ListCount | None:
    """The :class:`ListCount` when ``goal`` is a question for the row of the one CSV file
    it names with the most (fewest) items of a column it names (:data:`_MOST`) whose
    cells are lists; None otherwise (no such column, a tie for first, or a file that
    cannot be read)."""
    m = _MOST.search(goal)
    tables = [f for f in goal_files(goal)[1] if f.lower().endswith(".csv")] if m else []
    if len(tables) != 1 or not asks_only_a_question(goal):
        return None
    try:
        rows = [r for r in csv.reader(io.StringIO((Path(workspace) / tables[0]).read_text(encoding="utf-8")))
                if any(c.strip() for c in r)]
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if len(rows) < 3 or any(len(r) != len(rows[0]) for r in rows):
        return None
    col = next((i for i, h in enumerate(rows[0]) if i and _same_word(h.strip(), m.group("what"))), None)
    if col is None:
        return None
    cells = [r[col] for r in rows[1:]]
    sep = next((s for s in _SEPARATORS if sum(s in c for c in cells) * 2 > len(cells)), None)
    if sep is None:
        return None
    counts = [(len([p for p in c.split(sep) if p.strip()]), r[0].strip()) for c, r in zip(cells, rows[1:])]
    best = max(n for n, _ in counts) if m.group("most") else min(n for n, _ in counts)
    top = [name for n, name in counts if n == best]
    which = "most" if m.group("most") else "fewest"
    return ListCount(top[0], rows[0][col].strip(), best, which, tuple(top[1:]))


def list_count_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks which row has the most (fewest) items of a list
    column (:func:`list_count_asked`) and ``answer`` does not name that row (every row
    tied for it) or, where the goal asks how many, not its count ("" otherwise), with
    the answer to copy."""
    found = list_count_asked(goal, workspace)
    if found is None:
        return ""
    names = [found.name, *found.ties]
    named = all(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", answer, re.IGNORECASE) for n in names)
    counted = re.search(rf"(?<![\d.]){found.count}(?!\d|\.\d)", answer) or not re.search(r"\bhow\s+many\b", goal,
                                                                                        re.IGNORECASE)
    if named and counted:
        return ""
    who = " and ".join(names)
    copy = f"{who} {'has' if len(names) == 1 else 'have'} the {found.which} {found.column}: {found.count}."
    return (f"the task asks which row has the {found.which} {found.column}, and the answer does not give "
            f"{'it' if not named else 'how many'}; the harness counted the items of each {found.column} cell: "
            f"{answer_to_copy(copy)}")


def list_count_text(goal: str, workspace: str | Path) -> str:
    """The count of :func:`list_count_asked` as a source of the answer's numbers ("7"),
    "" when the goal asks none: the harness counted it."""
    found = list_count_asked(goal, workspace)
    return str(found.count) if found else ""
