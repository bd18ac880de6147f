"""Starting state: a five-page handbook, one chapter per page."""

from pathlib import Path

from _kit import make_pdf

CHAPTERS = ["Welcome", "Opening hours", "Safety rules", "Booking rooms", "Contacts"]


def setup(workspace: Path) -> None:
    make_pdf(workspace / "handbook.pdf",
             [[f"Chapter {i}: {title}", f"This is page {i} of the member handbook."] for i, title in enumerate(CHAPTERS, 1)])
