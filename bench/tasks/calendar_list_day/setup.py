"""Starting state: a calendar with two events on 2026-12-07 and one the day after."""

from datetime import datetime, timezone
from pathlib import Path

from plugins.bundled.calendar.ics import add_event

EVENTS = [
    ("Team standup", datetime(2026, 12, 7, 9, 0), datetime(2026, 12, 7, 9, 15)),
    ("Lunch with Sam", datetime(2026, 12, 7, 12, 30), datetime(2026, 12, 7, 13, 30)),
    ("Gym", datetime(2026, 12, 8, 18, 0), datetime(2026, 12, 8, 19, 0)),
]


def setup(workspace: Path) -> None:
    text = None
    for title, start, end in EVENTS:
        text, _ = add_event(text, title=title, start=start.replace(tzinfo=timezone.utc),
                            end=end.replace(tzinfo=timezone.utc))
    (workspace / "calendar").mkdir()
    (workspace / "calendar" / "assistant.ics").write_text(text)
