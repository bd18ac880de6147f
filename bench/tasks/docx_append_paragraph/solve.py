from pathlib import Path

import docx


def solve(workspace: Path):
    d = docx.Document(str(workspace / "letter.docx"))
    d.add_paragraph("Approved by: Dana Lee")
    d.save(str(workspace / "letter.docx"))
