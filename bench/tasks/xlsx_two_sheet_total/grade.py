"""1 when the answer gives the Travel total over both sheets (2,025.50; a breakdown by
quarter may come with it), else 0: a one-quarter figure alone (1,034 or 991.50) fails."""

from pathlib import Path

from _kit import final_answer, has_number

TOTAL = 2025.5


def grade(workspace: Path, transcript: list[dict]) -> float:
    return 1.0 if has_number(final_answer(transcript), TOTAL) else 0.0
