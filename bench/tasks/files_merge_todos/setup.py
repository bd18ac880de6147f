"""Starting state: three small to-do lists."""

from pathlib import Path

LISTS = {
    "monday.txt": ["buy stamps", "call grandma"],
    "tuesday.txt": ["return library books", "pay electricity bill"],
    "wednesday.txt": ["book haircut"],
}


def setup(workspace: Path) -> None:
    (workspace / "todo").mkdir()
    for name, items in LISTS.items():
        (workspace / "todo" / name).write_text("\n".join(items) + "\n")
