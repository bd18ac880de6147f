"""Starting state: a short service contract with two mentions of '30 days'."""

from pathlib import Path

from _kit import make_docx

BLOCKS = [
    ("h1", "Service Agreement"),
    ("p", "This agreement is made between Lena Novak (the Client) and Brightside Cleaning Ltd (the Provider)."),
    ("p", "1. Term. This agreement starts on 1 January 2027 and runs until either party ends it."),
    ("p", "2. Notice. Either party may end this agreement with 30 days' written notice."),
    ("p", "3. Payment. Invoices are due within 30 days of receipt."),
    ("p", "4. Liability. The Provider is insured for damage caused during cleaning."),
]


def setup(workspace: Path) -> None:
    make_docx(workspace / "contract.docx", BLOCKS)
