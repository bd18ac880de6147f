"""Starting state: an empty workspace (the calendar plugin writes calendar/assistant.ics)."""

from pathlib import Path


def setup(workspace: Path) -> None:
    (workspace / "README.txt").write_text("My desk.\n")
