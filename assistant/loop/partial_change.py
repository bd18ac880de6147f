"""A change asked of every cell of a column, made to some of them: "Change every amount
in payments.csv to a plain number ...", one of six amounts changed and the task called
done ("the file already had plain numbers").

The harness does not know every rewrite a goal can ask for, but it can see a change
left half done without knowing it: the cells of the column that changed had a form
("1.234,50 €" is digits, a dot, digits, a comma, digits and a euro sign), and a cell of
the same form that did not change was missed. Batch KZ at 6a1c8bc (KZG): "2.075,10 €"
and "12.000,00 €" were left as they were beside the changed "1234.50"; batch GZ at
833d98d (GZG) trimmed one name of three the same way.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from .evidence import Evidence, _MUST_CHANGE, asks_only_a_question, goal_files
from .named_files import _csv_column, original_text

__all__ = ["cell_form", "column_partly_changed"]

_EVERY = re.compile(r"\b(?:every|each|all(?:\s+the)?)\b", re.IGNORECASE)
#: a change limited to some rows: "every price above 10", "each amount where ...", "all rows of 2025"
_SOME = re.compile(r"\b(?:above|over|below|under|more\s+than|less\s+than|greater|smaller|where|whose|if|when|unless|"
                   r"except|only|that\s+(?:are|is|have|has)|which\s+(?:are|is|have|has)|between|from\s+\d|"
                   r"in\s+\d{4})\b", re.IGNORECASE)


def cell_form(cell: str) -> str:
    """The form of a cell: each run of letters as "a", each run of digits as "9", the
    rest as it is ("1.234,50 €" -> "9.9,9 €", " Anna " -> " a ")."""
    return re.sub(r"\d+", "9", re.sub(r"[^\W\d_]+", "a", cell))


def _rows(text: str) -> list[list[str]] | None:
    try:
        rows = [r for r in csv.reader(io.StringIO(text)) if r]
    except csv.Error:
        return None
    return rows or None


def column_partly_changed(ev: Evidence) -> str:
    """The doubt when the goal asks a change of every cell of one column of the one CSV
    file it names, in place and for no condition (:data:`_EVERY`, not :data:`_SOME`),
    this task changed some of those cells, and a cell it left had the form of a changed
    one before the change (and not the form of any changed one after it) ("" otherwise,
    and when the rows or the header differ: other checks see those)."""
    outputs, inputs = goal_files(ev.goal)
    files = [f for f in inputs if f.lower().endswith(".csv")]
    if outputs or len(files) != 1 or not _EVERY.search(ev.goal) or _SOME.search(ev.goal) \
            or asks_only_a_question(ev.goal) or not _MUST_CHANGE.search(ev.goal):
        return ""
    rel = files[0]
    before = original_text(rel, ev.calls)
    try:
        now = (Path(ev.workspace) / rel).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    old, new = _rows(before + "\n") if before is not None else None, _rows(now)
    if old is None or new is None or len(old) != len(new) or old[0] != new[0] or len(old) < 3:
        return ""
    at = _csv_column(ev.goal, old[0])
    if at is None or any(len(r) <= at for r in old[1:] + new[1:]):
        return ""
    pairs = [(a[at], b[at]) for a, b in zip(old[1:], new[1:])]
    changed = [(a, b) for a, b in pairs if a != b]
    if not changed or len(changed) == len(pairs):
        return ""
    was, became = {cell_form(a) for a, _ in changed}, {cell_form(b) for _, b in changed}
    left = [a for a, b in pairs if a == b and cell_form(a) in was and cell_form(a) not in became]
    if not left:
        return ""
    shown, verb = ", ".join(repr(c) for c in left[:4]), "is" if len(left) == 1 else "are"
    return (f"the task asks every {old[0][at]} of {rel} changed, and {len(left)} of them {verb} as before though "
            f"written like the ones changed ({shown}); change every one, then check the whole file")
