"""Starting state: a four-page quarterly report; revenue figures appear on pages 1-3."""

from pathlib import Path

from _kit import make_pdf

PAGES = [
    ["Q3 Report - Northwind Bakery Co-op", "Prepared for members, October 2026.",
     "Last quarter (Q2) total revenue: 6.10 million EUR."],
    ["Regional results", "Europe revenue: 2.40 million EUR.", "Online shop revenue: 1.15 million EUR."],
    ["Financial summary", "Q3 total revenue: 7.85 million EUR.", "Operating costs: 6.92 million EUR."],
    ["Outlook", "We expect a stable Q4 with new shops in two towns."],
]


def setup(workspace: Path) -> None:
    make_pdf(workspace / "q3-report.pdf", PAGES)
