"""Starting state: two contracts with two different clients."""

from pathlib import Path

from _kit import make_docx


def setup(workspace: Path) -> None:
    make_docx(workspace / "contract-acme.docx", [("p", "Client: Acme Ltd, 4 Mill Lane."), ("p", "Term: 12 months.")])
    make_docx(workspace / "contract-birch.docx", [("p", "Client: Birch & Co, 9 Station Road."), ("p", "Term: 6 months.")])
