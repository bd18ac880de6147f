"""0.5 for the page count (6, in digits or words), 0.5 for the title."""

import re
from pathlib import Path

from _kit import final_answer, norm


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = norm(final_answer(transcript))
    score = 0.5 * bool(re.search(r"\b(6|six)\b", answer))
    score += 0.5 * ("solar lamp x2 user guide" in answer)
    return score
