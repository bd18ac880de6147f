"""Starting state: 40 expenses (Date, Vendor, Category, Amount) over nine vendors on one sheet."""

from pathlib import Path

from _kit import make_xlsx

VENDORS = ["Officeworks", "Lufthansa", "Hilton", "Staples", "Deutsche Bahn", "Adobe", "AWS", "Cafe Mio", "Uber"]
CATEGORY = {"Officeworks": "Supplies", "Staples": "Supplies", "Lufthansa": "Travel", "Hilton": "Travel",
            "Deutsche Bahn": "Travel", "Uber": "Travel", "Adobe": "Software", "AWS": "Software", "Cafe Mio": "Meals"}


def rows() -> list[list]:
    """The expenses, built by a fixed rule so the grader's totals are exact."""
    out = []
    for i in range(40):
        vendor = VENDORS[(i * 4 + i // 3) % 9]
        out.append([f"2026-{i % 6 + 1:02d}-{(i * 3) % 27 + 1:02d}", vendor, CATEGORY[vendor],
                    round(15 + ((i * 71) % 89) * 6.35 + (i % 7) * 0.45, 2)])
    return out


def setup(workspace: Path) -> None:
    make_xlsx(workspace / "spending.xlsx", {"2026": [["Date", "Vendor", "Category", "Amount"], *rows()]})
