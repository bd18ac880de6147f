from pathlib import Path

from pypdf import PdfReader, PdfWriter


def solve(workspace: Path):
    reader = PdfReader(str(workspace / "handbook.pdf"))
    writer = PdfWriter()
    for i in (1, 2):
        writer.add_page(reader.pages[i])
    with open(workspace / "excerpt.pdf", "wb") as fh:
        writer.write(fh)
