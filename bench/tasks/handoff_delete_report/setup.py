"""Starting state: three reports, none clearly 'the old one'."""

from pathlib import Path

from _kit import make_docx


def setup(workspace: Path) -> None:
    for name in ("report-2025-q3.docx", "report-2025-q4.docx", "report-final.docx"):
        make_docx(workspace / "reports" / name, [("p", f"Contents of {name}.")])
