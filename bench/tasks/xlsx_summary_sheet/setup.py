"""Starting state: three monthly sheets of (Category, Amount)."""

from pathlib import Path

from _kit import make_xlsx

MONTHS = {
    "Jan": [["Rent", 900], ["Food", 320], ["Transport", 85]],
    "Feb": [["Rent", 900], ["Food", 298], ["Transport", 85], ["Gifts", 60]],
    "Mar": [["Rent", 900], ["Food", 341], ["Transport", 92]],
}


def setup(workspace: Path) -> None:
    make_xlsx(workspace / "budget.xlsx", {m: [["Category", "Amount"], *rows] for m, rows in MONTHS.items()})
