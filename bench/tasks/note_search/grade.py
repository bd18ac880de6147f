"""0.5 for the name Jonas Berg, 0.5 for the number 0170 555 0199 (any spacing)."""

import re
from pathlib import Path

from _kit import final_answer


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript)
    digits = re.sub(r"\D", "", answer)
    score = 0.5 * ("jonas berg" in answer.lower()) + 0.5 * ("01705550199" in digits)
    return score
