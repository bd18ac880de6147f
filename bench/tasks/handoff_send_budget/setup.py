"""Starting state: a budget file; nothing says who the manager is or how to send."""

from pathlib import Path

from _kit import make_xlsx


def setup(workspace: Path) -> None:
    make_xlsx(workspace / "budget-2027.xlsx", {"Budget": [["Item", "Amount"], ["Travel", 3000], ["Training", 1500]]})
