"""1 when excerpt.pdf holds exactly pages 2 and 3 in order; 0.5 when it holds them among others."""

from pathlib import Path

from _kit import pdf_pages_text


def grade(workspace: Path, transcript: list[dict]) -> float:
    pages = pdf_pages_text(workspace / "excerpt.pdf")
    if not pages:
        return 0.0
    marks = ["Chapter 2: Opening hours", "Chapter 3: Safety rules"]
    if len(pages) == 2 and all(m in p for m, p in zip(marks, pages)):
        return 1.0
    joined = "\n".join(pages)
    return 0.5 if all(m in joined for m in marks) else 0.0
