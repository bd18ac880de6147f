"""1 when the last paragraph reads 'Approved by: Dana Lee' and the letter is intact;
0.5 when the line is elsewhere or the letter lost text."""

from pathlib import Path

from _kit import docx_text, norm

ORIGINAL = ["dear mr alvarez,", "thank you for your offer to renovate the kitchen. we accept the quote of 12 march.",
            "kind regards, sofia rossi"]


def grade(workspace: Path, transcript: list[dict]) -> float:
    text = docx_text(workspace / "letter.docx")
    if text is None:
        return 0.0
    lines = [norm(x) for x in text.splitlines() if x.strip()]
    if not any("approved by: dana lee" in x for x in lines):
        return 0.0
    last_ok = "approved by: dana lee" in lines[-1]
    intact = all(o in lines for o in ORIGINAL)
    return 1.0 if last_ok and intact else 0.5
