"""Starting state: eight expenses (Date, Item, Amount) on sheet Expenses."""

from pathlib import Path

from _kit import make_xlsx

ROWS = [
    ["2026-11-02", "Groceries", 84.20], ["2026-11-03", "Bus pass", 49.00], ["2026-11-07", "Pharmacy", 12.35],
    ["2026-11-10", "Groceries", 61.80], ["2026-11-14", "Cinema", 24.00], ["2026-11-18", "Electricity", 73.15],
    ["2026-11-22", "Groceries", 55.40], ["2026-11-27", "Gift", 30.00],
]


def setup(workspace: Path) -> None:
    make_xlsx(workspace / "expenses.xlsx", {"Expenses": [["Date", "Item", "Amount"], *ROWS]})
