"""The share of the four regions whose exact total the answer gives next to the region's name."""

from pathlib import Path

from _kit import final_answer, has_number

TOTALS = {"north": 1837.35, "south": 2136.6, "east": 2155.5, "west": 2174.4}


def grade(workspace: Path, transcript: list[dict]) -> float:
    lines = [line.lower() for line in final_answer(transcript).splitlines()]
    ok = 0
    for region, total in TOTALS.items():
        ok += any(region in line and has_number(line, total) for line in lines)
    return ok / len(TOTALS)
