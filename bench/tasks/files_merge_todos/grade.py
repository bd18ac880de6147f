"""Share of the five items found in todo/all.txt; 0 if the sources were lost."""

from pathlib import Path

from _kit import norm

ITEMS = ["buy stamps", "call grandma", "return library books", "pay electricity bill", "book haircut"]


def grade(workspace: Path, transcript: list[dict]) -> float:
    target = workspace / "todo" / "all.txt"
    if not target.is_file():
        return 0.0
    if not all((workspace / "todo" / n).is_file() for n in ("monday.txt", "tuesday.txt", "wednesday.txt")):
        return 0.0
    text = norm(target.read_text(errors="replace"))
    return sum(i in text for i in ITEMS) / len(ITEMS)
