"""Starting state: a three-paragraph letter."""

from pathlib import Path

from _kit import make_docx

BLOCKS = [
    ("p", "Dear Mr Alvarez,"),
    ("p", "Thank you for your offer to renovate the kitchen. We accept the quote of 12 March."),
    ("p", "Kind regards, Sofia Rossi"),
]


def setup(workspace: Path) -> None:
    make_docx(workspace / "letter.docx", BLOCKS)
