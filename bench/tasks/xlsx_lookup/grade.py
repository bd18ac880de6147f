"""0.5 for naming Food (and not Travel), 0.5 for its total 591."""

from pathlib import Path

from _kit import final_answer, has_number


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript)
    low = answer.lower()
    score = 0.5 * ("food" in low and "travel" not in low)
    score += 0.5 * has_number(answer, 591)
    return score
