"""0.2 title mentions budget, 0.4 start 2026-12-10 10:00, 0.2 end 11:30, 0.2 room 4B named."""

from datetime import datetime
from pathlib import Path

from _kit import calendar_events


def grade(workspace: Path, transcript: list[dict]) -> float:
    best = 0.0
    for ev in calendar_events(workspace):
        score = 0.2 * ("budget" in ev["title"].lower())
        score += 0.4 * (ev["start"] == datetime(2026, 12, 10, 10, 0))
        score += 0.2 * (ev["end"] == datetime(2026, 12, 10, 11, 30))
        score += 0.2 * ("4b" in (ev["location"] + ev["title"] + ev["description"]).lower())
        best = max(best, score)
    return round(best, 3)
