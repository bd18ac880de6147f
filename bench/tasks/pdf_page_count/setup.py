"""Starting state: a six-page user guide."""

from pathlib import Path

from _kit import make_pdf


def setup(workspace: Path) -> None:
    pages = [["Solar Lamp X2 User Guide", "Read all instructions before use."]]
    pages += [[f"Section {i}", "Charge the lamp in direct sunlight for eight hours."] for i in range(2, 7)]
    make_pdf(workspace / "manual.pdf", pages)
