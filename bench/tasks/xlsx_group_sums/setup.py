"""Starting state: twelve sales (Region, Rep, Amount) over four regions."""

from pathlib import Path

from _kit import make_xlsx

ROWS = [
    ["North", "Ana", 1200], ["South", "Ben", 950], ["East", "Chloe", 700], ["West", "Dev", 1320],
    ["North", "Eva", 430], ["South", "Finn", 610], ["East", "Gus", 880], ["West", "Hana", 275],
    ["North", "Ana", 515], ["East", "Chloe", 340], ["South", "Ben", 1105], ["West", "Dev", 690],
]


def setup(workspace: Path) -> None:
    make_xlsx(workspace / "sales.xlsx", {"Sales": [["Region", "Rep", "Amount"], *ROWS]})
