"""A "Budget review" event: 0.2 for the title, +0.5 when it starts next Wednesday 14:30
(UTC, the bench's zone; "next Wednesday" is the first Wednesday after the day of the
run, the calendar tool's reading), +0.1 ending 15:15, +0.1 Ann invited, +0.1 the note.
The run's day is the grading day or the day before (a run that crossed midnight)."""

from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path

from _kit import calendar_events

WEDNESDAY = 2


def next_wednesday(today: date) -> date:
    """The first Wednesday strictly after ``today``."""
    return today + timedelta(days=(WEDNESDAY - today.weekday() - 1) % 7 + 1)


def unfold(ics: str) -> str:
    """iCalendar text with folded lines joined (RFC 5545 3.1: a line break plus one space or tab)."""
    return ics.replace("\r\n ", "").replace("\r\n\t", "").replace("\n ", "").replace("\n\t", "")


def grade(workspace: Path, transcript: list[dict]) -> float:
    today = datetime.now(timezone.utc).date()
    starts = {datetime.combine(next_wednesday(d), time(14, 30)) for d in (today, today - timedelta(days=1))}
    invited = any("mailto:ann@example.org" in unfold(f.read_text(encoding="utf-8", errors="replace")).lower()
                  for f in (workspace / "calendar").glob("*.ics")) if (workspace / "calendar").is_dir() else False
    best = 0.0
    for ev in calendar_events(workspace):
        if "budget review" not in ev["title"].lower():
            continue
        score = 0.2
        if ev["start"] in starts:
            score += 0.5
            score += 0.1 * (ev["end"] == ev["start"] + timedelta(minutes=45))
        score += 0.1 * invited
        score += 0.1 * ("q3 numbers" in ev["description"].lower())
        best = max(best, score)
    return round(best, 3)
