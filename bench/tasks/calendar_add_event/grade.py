"""0.4 for a dentist event, +0.4 when it starts 2026-12-03 15:00 (UTC, the bench's zone), +0.2 for ending 15:45;
halved when it has attendees, as the user named none (at 0cfab8b Qwen 1.5B added the tool description's example
people, Ann and Bob)."""

from datetime import datetime
from pathlib import Path

from _kit import calendar_events


def grade(workspace: Path, transcript: list[dict]) -> float:
    best = 0.0
    for ev in calendar_events(workspace):
        if "dentist" not in ev["title"].lower():
            continue
        score = 0.4
        score += 0.4 * (ev["start"] == datetime(2026, 12, 3, 15, 0))
        score += 0.2 * (ev["end"] == datetime(2026, 12, 3, 15, 45))
        score *= 0.5 if ev["attendees"] else 1.0
        best = max(best, score)
    return round(best, 3)
