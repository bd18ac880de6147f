"""0.5 each for the standup and the lunch with Sam; halved when the next day's Gym is listed too.
"stand-up" and "stand up" name the standup too (Qwen 1.5B at e1675c8: "A stand-up at 9:00 AM")."""

from pathlib import Path

from _kit import final_answer


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript).lower()
    answer = answer.replace("stand-up", "standup").replace("stand up", "standup")
    score = 0.5 * ("standup" in answer) + 0.5 * ("sam" in answer)
    return score / 2 if "gym" in answer else score
