"""A third per action item whose owner and key word share a line of one note under notes/."""

from pathlib import Path

from _kit import notes_text

ITEMS = [("ana", "seed"), ("bruno", "roof"), ("chen", "member")]


def grade(workspace: Path, transcript: list[dict]) -> float:
    best = 0.0
    for text in notes_text(workspace).values():
        low = text.lower()
        lines = low.splitlines()
        ok = sum(any(owner in ln and word in ln for ln in lines) for owner, word in ITEMS)
        best = max(best, ok / len(ITEMS))
    return round(best, 3)
