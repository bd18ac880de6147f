from pathlib import Path

from _kit import make_docx


def solve(workspace: Path):
    make_docx(workspace / "summary.docx", [
        ("h1", "Summary"),
        ("bullet", "Budget: EUR 48,000 (19,500 spent)."),
        ("bullet", "Deadline: 30 June 2027."),
        ("bullet", "Main risk: supplier delay (payment provider contract)."),
    ])
