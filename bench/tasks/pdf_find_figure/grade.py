"""1 when the answer gives 7.85 (million) and none of the other revenue figures; 0.5 with others."""

from pathlib import Path

from _kit import final_answer, has_number


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript)
    if not (has_number(answer, 7.85) or has_number(answer, 7850000)):
        return 0.0
    others = any(has_number(answer, x) for x in (6.10, 2.40, 1.15))
    return 0.5 if others else 1.0
