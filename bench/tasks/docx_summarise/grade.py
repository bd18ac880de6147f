"""summary.docx exists and names the budget, the deadline and the supplier risk;
halved when it is not shorter than the report."""

from pathlib import Path

from _kit import docx_text, norm

PASS_THRESHOLD = 0.75


def grade(workspace: Path, transcript: list[dict]) -> float:
    text = docx_text(workspace / "summary.docx")
    if text is None or not text.strip():
        return 0.0
    t = norm(text).replace(",", "").replace(".000", "000")
    score = 0.25
    score += 0.25 * ("48000" in t or "48k" in t or "48 000" in t)
    score += 0.25 * any(d in t for d in ("30 june", "june 30", "2027-06-30", "30/06/2027", "30.06.2027"))
    score += 0.25 * ("supplier" in t or "payment provider" in t)
    original = docx_text(workspace / "report.docx") or ""
    if len(text) >= len(original):
        score /= 2
    return score
