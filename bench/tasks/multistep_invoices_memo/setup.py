"""Starting state: a three-page PDF, one invoice per page."""

from pathlib import Path

from _kit import make_pdf

INVOICES = [("INV-101", "Lakeside Printing", "1,200.00"), ("INV-102", "Green Office Supplies", "349.50"),
            ("INV-103", "City Courier", "86.25")]


def setup(workspace: Path) -> None:
    make_pdf(workspace / "invoices.pdf", [
        [f"Invoice {num}", f"Supplier: {who}", "Date: 2026-11-15", f"Amount due: {amount} EUR"]
        for num, who, amount in INVOICES
    ])
