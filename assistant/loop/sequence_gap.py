"""Numbers missing from a run: "The receipt numbers in receipts.csv should run from
R-101 to R-112 without gaps. Which receipt number is missing?".

Batch KZ at 6a1c8bc (KZD): the rows were not in number order, and the model answered
R-109, which is there (a safe hand-off; R-107 is missing). The harness reads every code
of the run's form (the same prefix and digits) in the one file the goal names and
lists the numbers of the range the goal gives that no code has; an answer that leaves
one out, or names one that is there, is doubted with the answer to copy.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .evidence import asks_only_a_question, goal_files

__all__ = ["Gaps", "gaps_asked", "gaps_wrong"]

_ASKED = re.compile(r"\bmissing\b|\bgaps?\b|\bskipped\b|\bleft\s+out\b|\bnot\s+(?:there|used|in\s+the\s+file)\b",
                    re.IGNORECASE)
#: "from R-101 to R-112", "between INV-0040 and INV-0052", "from 101 to 112"
_RANGE = re.compile(r"\b(?:from|between)\s+(?P<p1>[A-Za-z]{0,6}[-_/# ]?)(?P<a>\d{1,7})\s+(?:to|and|through|until)\s+"
                    r"(?P<p2>[A-Za-z]{0,6}[-_/# ]?)(?P<b>\d{1,7})\b", re.IGNORECASE)
_MOST = 5000  # the longest run looked at


class Gaps(NamedTuple):
    """The codes of the range missing from ``file`` (as the goal writes them), and
    ``first``/``last`` of the range."""

    missing: list[str]
    first: str
    last: str
    file: str


def gaps_asked(goal: str, workspace: str | Path) -> Gaps | None:
    """The :class:`Gaps` when ``goal`` is a question for what is missing from a run of
    numbered codes it gives (:data:`_RANGE`, one prefix) in the one text or CSV file it
    names; None otherwise, or when the file holds no code of the run."""
    m = _RANGE.search(goal)
    files = [f for f in goal_files(goal)[1] if f.lower().endswith((".csv", ".tsv", ".txt", ".md"))]
    if not m or not _ASKED.search(goal) or len(files) != 1 or not asks_only_a_question(goal):
        return None
    prefix = m.group("p1")
    if m.group("p2").strip() and m.group("p2").casefold() != prefix.casefold():
        return None
    a, b = int(m.group("a")), int(m.group("b"))
    width = len(m.group("a")) if m.group("a").startswith("0") else 0
    if not a < b or b - a > _MOST:
        return None
    try:
        text = (Path(workspace) / files[0]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    form = re.compile(rf"(?<![\w]){re.escape(prefix.strip())}{'[-_/# ]?' if prefix.strip() else ''}(\d{{1,7}})(?!\d)",
                      re.IGNORECASE) if prefix.strip() else re.compile(r"(?<![\w.,-])(\d{1,7})(?![\w.,])")
    seen = {int(x.group(1)) for x in form.finditer(text)}
    if not seen & set(range(a, b + 1)):
        return None
    name = prefix if prefix.strip() else ""

    def code(n: int) -> str:
        return f"{name}{n:0{width}d}" if width else f"{name}{n}"
    return Gaps([code(n) for n in range(a, b + 1) if n not in seen], code(a), code(b), files[0])


def gaps_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks what is missing from a run (:func:`gaps_asked`) and
    ``answer`` leaves a missing code out or names a code of the run that is there ("" otherwise), with
    the answer to copy."""
    found = gaps_asked(goal, workspace)
    if found is None:
        return ""
    digits = {int(d) for d in re.findall(r"\d+", answer)}
    want = {int(re.sub(r"\D", "", c)) for c in found.missing}
    lo, hi = int(re.sub(r"\D", "", found.first)), int(re.sub(r"\D", "", found.last))
    named = {d for d in digits if lo <= d <= hi}
    extra = named - want - ({lo, hi} if {lo, hi} <= named else set())  # the run restated is no code named
    if want <= named and not extra:
        return ""
    if not found.missing:
        copy = f"No number from {found.first} to {found.last} is missing in {found.file}."
    elif len(found.missing) == 1:
        copy = f"{found.missing[0]} is missing."
    else:
        copy = f"{', '.join(found.missing[:-1])} and {found.missing[-1]} are missing."
    return (f"the task asks what is missing from {found.first} to {found.last}, and the answer does not say it; the "
            f"harness read every code of {found.file} and compared them with the run: {answer_to_copy(copy)}")
