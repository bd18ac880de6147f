"""0.7 for a note containing sunflower42, +0.3 when its title mentions wifi; 0 if the old note was lost."""

from pathlib import Path

from _kit import notes_text


def grade(workspace: Path, transcript: list[dict]) -> float:
    notes = notes_text(workspace)
    if "bread, eggs" not in notes.get("shopping.md", ""):
        return 0.0
    best = 0.0
    for name, text in notes.items():
        if "sunflower42" in text:
            title = (text.splitlines()[0] if text else "") + name
            best = max(best, 0.7 + 0.3 * ("wifi" in title.lower().replace("-", "").replace(" ", "")))
    return best
