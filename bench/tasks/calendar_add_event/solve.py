from datetime import datetime, timezone
from pathlib import Path

from plugins.bundled.calendar.ics import add_event


def solve(workspace: Path):
    text, _ = add_event(None, title="Dentist appointment", start=datetime(2026, 12, 3, 15, tzinfo=timezone.utc),
                        end=datetime(2026, 12, 3, 15, 45, tzinfo=timezone.utc))
    (workspace / "calendar").mkdir(exist_ok=True)
    (workspace / "calendar" / "assistant.ics").write_text(text)
