"""Starting state: 24 orders (Order, Customer, Amount); the largest single orders are not the top spenders."""

from pathlib import Path

ORDERS = [
    ("Acme", 412.50), ("Birch", 1280.00), ("Cobalt", 96.40), ("Delta", 730.25), ("Acme", 265.00),
    ("Ember", 1499.99), ("Birch", 318.75), ("Fjord", 842.10), ("Cobalt", 1105.00), ("Delta", 59.90),
    ("Granite", 640.00), ("Acme", 988.30), ("Ember", 120.45), ("Fjord", 377.20), ("Birch", 204.60),
    ("Harbor", 1750.00), ("Granite", 415.35), ("Cobalt", 233.10), ("Delta", 811.00), ("Harbor", 95.25),
    ("Fjord", 530.80), ("Ember", 66.00), ("Acme", 147.85), ("Granite", 702.40),
]


def setup(workspace: Path) -> None:
    lines = ["Order,Customer,Amount"] + [f"O-{1001 + i},{c},{a:.2f}" for i, (c, a) in enumerate(ORDERS)]
    (workspace / "orders.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
