"""Starting state: 36 sales (Date, Region, Product, Amount with cents) over four regions."""

from pathlib import Path

REGIONS = ["North", "South", "East", "West"]
PRODUCTS = ["Bread", "Cake", "Coffee"]


def rows() -> list[tuple[str, str, str, float]]:
    """The sales, built by a fixed rule so the totals below are exact."""
    return [(f"2026-{i % 3 + 7:02d}-{(i * 5) % 28 + 1:02d}", REGIONS[(i * 7) % 4], PRODUCTS[(i * 5) % 3],
             round(40 + ((i * 37) % 113) * 3.15, 2)) for i in range(36)]


def setup(workspace: Path) -> None:
    lines = ["Date,Region,Product,Amount"] + [f"{d},{r},{p},{a:.2f}" for d, r, p, a in rows()]
    (workspace / "sales.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
