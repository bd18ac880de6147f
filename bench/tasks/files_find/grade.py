"""1 when the final answer names appt-0412.txt and no other file of the archive, and does not say
it could not tell which file it is (at 0cfab8b: "appt-0412.txt does not mention passport ... it is not
possible to determine which file" passed); 0.5 when it names others too or says so."""

import re
from pathlib import Path

from _kit import final_answer

OTHERS = ["taxes.txt", "car.txt", "recipes.txt", "travel.txt", "insurance.txt", "garden.txt"]
UNSURE = re.compile(r"\bnot (possible|able) to (determine|tell|say)|\b(can ?not|can't|could ?not|couldn't|unable to) "
                    r"(determine|tell|find)\b|\bdoes ?n[o']t mention\b", re.IGNORECASE)


def grade(workspace: Path, transcript: list[dict]) -> float:
    answer = final_answer(transcript).lower()
    if "appt-0412.txt" not in answer:
        return 0.0
    return 0.5 if any(o in answer for o in OTHERS) or UNSURE.search(answer) else 1.0
