"""Starting state: a three-page review; the answer (3.4 days) sits on page 2 among
last year's figure (4.1), the target (2.9) and other numbers."""

from pathlib import Path

from _kit import make_pdf

PAGES = [
    ["Logistics review 2026", "Prepared by the operations team, November 2026.",
     "Last year the average delivery time was 4.1 days across 18,200 orders."],
    ["Delivery performance", "Orders shipped this year: 21,450.",
     "Average delivery time this year: 3.4 days.", "Late deliveries: 6.2 percent of orders."],
    ["Targets for 2027", "Bring the average delivery time down to 2.9 days.", "Open a second warehouse in Leeds."],
]


def setup(workspace: Path) -> None:
    make_pdf(workspace / "logistics-review.pdf", PAGES)
