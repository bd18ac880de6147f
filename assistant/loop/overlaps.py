"""Meetings of a schedule file that overlap: "Which two meetings in schedule.csv
overlap?".

Batch IZ at 2081e47 (IZE): the model asked the user for the meetings' times, which
were in the file. Small models compare start and end times pair by pair badly; the
harness reads the rows (a start and an end column, HH:MM, and a date column where
there is one), finds every pair that overlaps on the same day (one starts before the
other ends; back to back is no overlap) and doubts an answer that leaves a meeting of
such a pair out, or names overlaps where none are, with the answer to copy.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .evidence import asks_only_a_question, goal_files
from .free_slot import clock_minutes, schedule_rows

__all__ = ["Overlaps", "overlapping", "overlaps_wrong"]

_ASKED = re.compile(r"\boverlap\w*|\bclash\w*|\bdouble[- ]booked\b|\bconflict\w*", re.IGNORECASE)
_NAME_COLUMNS = ("title", "meeting", "event", "name", "subject", "what", "description")


class Overlaps(NamedTuple):
    """``pairs`` (the names of two meetings that overlap, in file order), ``table`` (the
    file) and ``answer`` (the sentence that gives them)."""

    pairs: list[tuple[str, str]]
    table: str
    answer: str


def overlapping(goal: str, workspace: str | Path) -> Overlaps | None:
    """The :class:`Overlaps` when ``goal`` is a question for the meetings that overlap
    (:data:`_ASKED`) in the one CSV file it names, which has a start and an end column
    (HH:MM) and a name column (:data:`_NAME_COLUMNS`, else the first other column);
    None otherwise, or when a row's times cannot be read."""
    if not _ASKED.search(goal) or not asks_only_a_question(goal):
        return None
    tables = [f for f in goal_files(goal)[1] if f.lower().endswith(".csv")]
    found = schedule_rows(Path(workspace) / tables[0]) if len(tables) == 1 else None
    if found is None:
        return None
    rows, day_key, start_key, end_key = found
    header = {k.strip().lower(): k for k in rows[0] if k}
    name_key = next((header[k] for k in _NAME_COLUMNS if k in header), None) or next(
        (k for k in rows[0] if k and k not in (day_key, start_key, end_key)), None)
    if name_key is None:
        return None
    meetings = []
    for r in rows:
        s, e = clock_minutes(r.get(start_key) or ""), clock_minutes(r.get(end_key) or "")
        name = " ".join((r.get(name_key) or "").split())
        if s is None or e is None or e <= s or not name:
            return None  # a row the harness cannot read: not its to judge
        meetings.append((name, (r.get(day_key) or "").strip() if day_key else "", s, e))
    pairs = [(a[0], b[0]) for i, a in enumerate(meetings) for b in meetings[i + 1:]
             if a[1] == b[1] and a[2] < b[3] and b[2] < a[3]]
    if pairs:
        said = "; ".join(f"{a} and {b}" for a, b in pairs)
        answer = f"{'These meetings overlap' if len(pairs) > 1 else 'These two meetings overlap'}: {said}."
    else:
        answer = f"No two meetings in {tables[0]} overlap."
    return Overlaps(pairs, tables[0], answer)


def _named(name: str, answer: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", answer, re.IGNORECASE) is not None


def overlaps_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks which meetings overlap (:func:`overlapping`) and
    ``answer`` leaves out a meeting of an overlapping pair, or says none overlap when
    some do, or names an overlap when none is ("" otherwise), with the answer to copy."""
    found = overlapping(goal, workspace)
    if found is None:
        return ""
    none_said = re.search(r"\b(?:no|none|not\s+any|do(?:es)?\s+not|don't|doesn't)\b", answer, re.IGNORECASE)
    if found.pairs:
        missing = [n for pair in found.pairs for n in pair if not _named(n, answer)]
        if not missing and not (none_said and re.search(r"\bno\s+(?:two\s+)?meetings?\s+overlap", answer, re.I)):
            return ""
        named = [n for pair in found.pairs for n in pair if _named(n, answer)]
        what = f"leaves out {missing[0]!r}" if missing and (named or not none_said) else "says none overlap"
    else:
        if none_said or not re.search(r"\boverlap|\bclash|\bconflict", answer, re.IGNORECASE):
            return ""
        what = "names an overlap"
    return (f"the task asks which meetings of {found.table} overlap, and the answer {what}; the harness compared "
            f"the start and end of every two meetings on the same day: {answer_to_copy(found.answer)}")
