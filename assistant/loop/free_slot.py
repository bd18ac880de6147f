"""The first free stretch of a day in a schedule file: "When is my first free hour
between 9:00 and 17:00 on 10 December, going by schedule.csv?".

Batch JZ at 02d32bb (JZI): the model answered "from 10:30 to 12:45" (a client call sits
in between; the first free hour starts at 14:00), the second query took the first
meeting's start and agreed, and the task finished. The harness reads the day's
meetings from the CSV file itself, merges them and finds the first gap long enough
inside the hours the goal gives.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .dates_said import clock_times, dates_in
from .evidence import asks_only_a_question, goal_files

__all__ = ["FreeSlot", "first_free_slot", "free_slot_wrong", "schedule_rows", "clock_minutes"]

#: "first free hour", "first free 30 minutes", "earliest free slot of 45 minutes", "next free hour"
_SLOT_ASKED = re.compile(r"\b(?:first|earliest|next)\s+(?:free|open|empty|available)\s+(?:(?P<hour>hour)|(?P<n>\d{1,3})"
                         r"\s*(?:minutes?|mins?)|(?:slot|gap|time|stretch)\s+of\s+(?P<n2>\d{1,3})\s*(?:minutes?|mins?)"
                         r"|(?:slot|gap|time|stretch)\s+of\s+(?:an?\s+|one\s+)hour)", re.IGNORECASE)
_HHMM = re.compile(r"^\s*(\d{1,2})[:.](\d{2})(?::\d{2})?\s*$")
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


class FreeSlot(NamedTuple):
    """What :func:`first_free_slot` found: the ``day`` ("2026-12-10" as the file gives
    it), the gap's ``start`` and ``end`` ("14:00", "15:10"; None start when the day has
    no such gap), the ``window`` ("09:00", "17:00") and the ``minutes`` asked."""

    day: str
    start: str | None
    end: str | None
    window: tuple[str, str]
    minutes: int


def clock_minutes(text: str) -> int | None:
    """Minutes since midnight of a cell "HH:MM" (or "HH.MM", "HH:MM:SS"); None for another text."""
    m = _HHMM.match(text)
    return int(m.group(1)) * 60 + int(m.group(2)) if m and int(m.group(1)) < 24 and int(m.group(2)) < 60 else None


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def schedule_rows(path: Path) -> tuple[list[dict[str, str]], str | None, str, str] | None:
    """``(rows, date column, start column, end column)`` of the CSV file at ``path``
    when it has a start and an end column (a "date"/"day" column too, else None for
    it); None when it cannot be read or has no such columns."""
    try:
        rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if not rows or rows[0] is None:
        return None
    header = {k.strip().lower(): k for k in rows[0] if k}
    day_key = next((header[k] for k in header if k in ("date", "day")), None)
    start_key = next((header[k] for k in header if k in ("start", "from", "begin", "start_time", "starts")), None)
    end_key = next((header[k] for k in header if k in ("end", "to", "until", "end_time", "ends", "finish")), None)
    return (rows, day_key, start_key, end_key) if start_key and end_key else None


def first_free_slot(goal: str, workspace: str | Path) -> FreeSlot | None:
    """The :class:`FreeSlot` when ``goal`` is a question for the first free stretch of a
    length (:data:`_SLOT_ASKED`) on one date it gives, between two times of day it gives,
    and the one CSV file it names has a date column, a start and an end column
    (HH:MM); the day's meetings are merged and the first gap at least that long found.
    None otherwise, or when no row is on that date."""
    m = _SLOT_ASKED.search(goal)
    if not m or not asks_only_a_question(goal):
        return None
    length = 60 if m.group("hour") or not (m.group("n") or m.group("n2")) else int(m.group("n") or m.group("n2"))
    dates, times = dates_in(goal), clock_times(goal)
    tables = [f for f in goal_files(goal)[1] if f.lower().endswith(".csv")]
    if len(dates) != 1 or len(times) != 2 or len(tables) != 1:
        return None
    # "between 9:00 and 17:00": the morning reading of the first, the first reading after it of the second
    lo = min(h * 60 + mi for h, mi in times[0][1])
    hi = min((h * 60 + mi for h, mi in times[1][1] if h * 60 + mi > lo), default=None)
    if hi is None:
        return None
    found = schedule_rows(Path(workspace) / tables[0])
    if found is None or not found[1]:
        return None
    rows, day_key, start_key, end_key = found
    want = dates[0]
    busy, day_text = [], ""
    for r in rows:
        d = _ISO_DAY.search(r.get(day_key) or "")
        if not d or (int(d.group(2)), int(d.group(3))) != (want.month, want.day) or (
                want.year and int(d.group(1)) != want.year):
            continue
        s, e = clock_minutes(r.get(start_key) or ""), clock_minutes(r.get(end_key) or "")
        if s is None or e is None or e <= s:
            return None  # a row the harness cannot read: not its to judge
        busy.append((s, e))
        day_text = d.group(0)
    if not busy:
        return None
    at, window = lo, (_hhmm(lo), _hhmm(hi))
    for s, e in [*sorted(busy), (hi, hi)]:
        if min(s, hi) - at >= length:
            return FreeSlot(day_text, _hhmm(at), _hhmm(min(s, hi)), window, length)
        at = max(at, e)
        if at >= hi:
            break
    return FreeSlot(day_text, None, None, window, length)


def free_slot_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks for the first free stretch of a day
    (:func:`first_free_slot`) and the first time of day ``answer`` gives is not where that
    gap starts (or the answer gives a time where the day has no such gap), with the
    answer to copy; "" otherwise."""
    found = first_free_slot(goal, workspace)
    if found is None:
        return ""
    said = clock_times(answer)
    length = "hour" if found.minutes == 60 else f"{found.minutes} minutes"
    if found.start is None:
        if not said:
            return ""
        copy = f"There is no free {length} on {found.day} between {found.window[0]} and {found.window[1]}."
    else:
        h, mi = map(int, found.start.split(":"))
        if said and (h, mi) in said[0][1]:
            return ""
        copy = f"Your first free {length} on {found.day} starts at {found.start} (free until {found.end})."
    return (f"the task asks for the first free {length}, and the answer does not give it; the harness merged the "
            f"meetings of {found.day} in the file between {found.window[0]} and {found.window[1]}: "
            f"{answer_to_copy(copy)}")
