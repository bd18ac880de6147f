"""1 when the final answer names appt-0412.txt and no other file of the archive."""

from pathlib import Path

from _kit import final_answer

OTHERS = ["taxes.txt", "car.txt", "recipes.txt", "travel.txt", "insurance.txt", "garden.txt"]


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript).lower()
    if "appt-0412.txt" not in answer:
        return 0.0
    return 0.5 if any(o in answer for o in OTHERS) else 1.0
