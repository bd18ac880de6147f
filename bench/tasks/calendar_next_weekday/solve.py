from datetime import datetime, time, timedelta, timezone
from pathlib import Path

from plugins.bundled.calendar.dates import parse_when
from plugins.bundled.calendar.ics import add_event


def solve(workspace: Path):
    start = parse_when("next wednesday 2:30pm", datetime.now(timezone.utc)).dt
    assert start.time() == time(14, 30)
    text, _ = add_event(None, title="Budget review", start=start, end=start + timedelta(minutes=45),
                        attendees=["Ann <ann@example.org>"], description="Bring the Q3 numbers")
    (workspace / "calendar").mkdir(exist_ok=True)
    (workspace / "calendar" / "assistant.ics").write_text(text)
