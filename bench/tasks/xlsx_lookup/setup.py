"""Starting state: ten purchases; Travel has the largest single item, Food the largest total."""

from pathlib import Path

from _kit import make_xlsx

ROWS = [
    ["Food", 120], ["Travel", 410], ["Food", 95], ["Books", 38], ["Food", 142],
    ["Travel", 60], ["Food", 133], ["Books", 22], ["Food", 101], ["Home", 250],
]


def setup(workspace: Path) -> None:
    make_xlsx(workspace / "spending.xlsx", {"Spending": [["Category", "Amount"], *ROWS]})
