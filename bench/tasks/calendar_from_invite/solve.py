from datetime import datetime, timezone
from pathlib import Path

from plugins.bundled.calendar.ics import add_event


def solve(workspace: Path):
    text, _ = add_event(None, title="Budget review", start=datetime(2026, 12, 10, 10, tzinfo=timezone.utc),
                        end=datetime(2026, 12, 10, 11, 30, tzinfo=timezone.utc), location="Room 4B")
    (workspace / "calendar").mkdir(exist_ok=True)
    (workspace / "calendar" / "assistant.ics").write_text(text)
