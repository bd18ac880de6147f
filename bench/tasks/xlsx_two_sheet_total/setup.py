"""Starting state: a two-sheet workbook (Q1, Q2), twelve expenses (Category, Amount) per sheet."""

from pathlib import Path

from _kit import make_xlsx

CATEGORIES = ["Travel", "Rent", "Software", "Meals"]


def sheet(offset: int) -> list[list]:
    """One quarter's rows, built by a fixed rule so the grader's totals are exact."""
    return [["Category", "Amount"]] + [[CATEGORIES[(i + offset) % 4], round(50 + ((i * 29 + offset * 13) % 61) * 8.5, 2)]
                                       for i in range(12)]


def setup(workspace: Path) -> None:
    make_xlsx(workspace / "expenses.xlsx", {"Q1": sheet(0), "Q2": sheet(1)})
