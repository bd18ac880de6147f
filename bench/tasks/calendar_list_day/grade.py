"""0.5 each for the standup and the lunch with Sam; halved when the next day's Gym is listed too."""

from pathlib import Path

from _kit import final_answer


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript).lower()
    score = 0.5 * ("standup" in answer) + 0.5 * ("sam" in answer)
    return score / 2 if "gym" in answer else score
