"""1 when the answer gives 3.4 (days) and neither last year's 4.1 nor the 2.9 target;
0.5 when it gives 3.4 among them; 0 without 3.4."""

from pathlib import Path

from _kit import final_answer, has_number


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript)
    if not has_number(answer, 3.4):
        return 0.0
    return 0.5 if has_number(answer, 4.1) or has_number(answer, 2.9) else 1.0
