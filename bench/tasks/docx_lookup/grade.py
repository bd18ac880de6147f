"""1 when the answer gives 1,450 and not the deposit (2,900); 0.5 when it gives both."""

from pathlib import Path

from _kit import final_answer, has_number


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript)
    if not has_number(answer, 1450):
        return 0.0
    return 0.5 if has_number(answer, 2900) else 1.0
