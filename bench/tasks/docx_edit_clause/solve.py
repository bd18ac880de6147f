from pathlib import Path

import docx


def solve(workspace: Path):
    d = docx.Document(str(workspace / "contract.docx"))
    for p in d.paragraphs:
        if p.text.startswith("2. Notice"):
            p.text = p.text.replace("30 days", "60 days")
    d.save(str(workspace / "contract.docx"))
