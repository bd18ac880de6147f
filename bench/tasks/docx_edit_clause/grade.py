"""0 unless clause 2 says 60 days and no longer 30; then 0.6, +0.2 when clause 3
still says 30 days, +0.2 when the other paragraphs are unchanged."""

from pathlib import Path

from _kit import docx_text, norm

OTHERS = [
    "service agreement",
    "this agreement is made between lena novak (the client) and brightside cleaning ltd (the provider).",
    "1. term. this agreement starts on 1 january 2027 and runs until either party ends it.",
    "4. liability. the provider is insured for damage caused during cleaning.",
]


def grade(workspace: Path, transcript: list[dict]) -> float:
    text = docx_text(workspace / "contract.docx")
    if text is None:
        return 0.0
    lines = [norm(x) for x in text.splitlines() if x.strip()]
    clause2 = next((x for x in lines if x.startswith("2.") or "notice" in x), "")
    if "60 days" not in clause2 or "30 days" in clause2:
        return 0.0
    score = 0.6
    clause3 = next((x for x in lines if x.startswith("3.") or "invoices" in x), "")
    score += 0.2 * ("within 30 days" in clause3)
    score += 0.2 * all(o in lines for o in OTHERS)
    return round(score, 3)
