"""Everyone under a person in an org chart, directly or indirectly: "How many people in
org.csv work under Maria, directly or indirectly?".

Batch JZ at 02d32bb (JZG): the model counted Maria's direct reports (2) with
``WHERE manager = 'Maria'``, the second query ran the same filter and agreed, and the
task finished; five people work under her. The harness follows the manager column of
the CSV file down every level itself and checks the answer against that.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .evidence import _numbers, asks_only_a_question, goal_files
from .shared_lines import _named

__all__ = ["Reports", "reports_under", "reports_wrong"]

#: "work under Maria", "report to Maria", "are below Maria"
_UNDER = re.compile(r"\b(?:works?|reports?|reporting|are|is|sits?|falls?)\s+(?:under|below|beneath|to)\s+"
                    r"(?P<who>[A-Z][\w'-]+)")
#: the chain asked for, not only the direct reports
_EVERY_LEVEL = re.compile(r"\bindirect(?:ly)?\b|\b(?:at\s+)?(?:all|any|every)\s+levels?\b|"
                          r"\banywhere\s+(?:below|under)\b", re.IGNORECASE)
_HOW_MANY = re.compile(r"\bhow\s+many\b", re.IGNORECASE)
#: a column naming each row's manager
_MANAGER = re.compile(r"manager|boss|supervisor|reports?[ _]?to|lead|parent|head", re.IGNORECASE)
_PERSON = re.compile(r"^(?:name|employee|person|staff|who|member)$", re.IGNORECASE)
_MOST_ROWS = 2000


class Reports(NamedTuple):
    """What :func:`reports_under` found: ``who`` (as the file spells it), ``direct`` and
    ``everyone`` (the names under them, in file order), ``file`` and ``column`` (the
    manager column followed)."""

    who: str
    direct: list[str]
    everyone: list[str]
    file: str
    column: str


def reports_under(goal: str, workspace: str | Path) -> Reports | None:
    """The :class:`Reports` when ``goal`` is a question for the people under a person it
    names, directly or indirectly (:data:`_UNDER`, :data:`_EVERY_LEVEL`), and one CSV file
    it names has a person column (a "name"-like header, else the first) and one manager
    column whose cells are names of that column; None otherwise, or when the person is
    not in the file."""
    m = _UNDER.search(goal)
    if not m or not _EVERY_LEVEL.search(goal) or not asks_only_a_question(goal):
        return None
    tables = [f for f in goal_files(goal)[1] if f.lower().endswith(".csv")]
    if len(tables) != 1:
        return None
    try:
        rows = [r for r in csv.reader(io.StringIO((Path(workspace) / tables[0]).read_text(encoding="utf-8"))) if r]
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if len(rows) < 3 or len(rows) > _MOST_ROWS:
        return None
    header = [h.strip() for h in rows[0]]
    people = [i for i, h in enumerate(header) if _PERSON.match(h)] or [0]
    bosses = [i for i, h in enumerate(header) if _MANAGER.search(h) and i != people[0]]
    if len(bosses) != 1:
        return None
    at, up = people[0], bosses[0]
    names = {r[at].strip().lower(): r[at].strip() for r in rows[1:] if at < len(r) and r[at].strip()}
    who = names.get(m.group("who").lower())
    if who is None:
        return None
    under: dict[str, list[str]] = {}
    for r in rows[1:]:
        if max(at, up) < len(r) and r[at].strip() and r[up].strip():
            under.setdefault(r[up].strip().lower(), []).append(r[at].strip())
    found, todo = [], [who.lower()]
    while todo:
        for name in under.get(todo.pop(0), []):
            if name not in found and name.lower() != who.lower():
                found.append(name)
                todo.append(name.lower())
    order = [r[at].strip() for r in rows[1:] if at < len(r)]
    everyone = sorted(found, key=order.index)
    return Reports(who, under.get(who.lower(), []), everyone, tables[0], header[up])


def reports_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks how many (or who) work under a person directly or
    indirectly (:func:`reports_under`) and ``answer`` gives another count (leaves a name
    out), with the answer to copy; "" otherwise, and when only direct reports exist."""
    found = reports_under(goal, workspace)
    if found is None or len(found.everyone) == len(found.direct):
        return ""
    n, names = len(found.everyone), ", ".join(found.everyone)
    if _HOW_MANY.search(goal):
        if str(n) in _numbers(answer):
            return ""
        wrong = "gives another count"
    elif all(_named(x, answer) for x in found.everyone):
        return ""
    else:
        wrong = "leaves out " + ", ".join(repr(x) for x in found.everyone if not _named(x, answer))[:200]
    copy = f"{n} people work under {found.who}, directly or indirectly: {names}."
    return (f"the task asks for everyone under {found.who} at every level, and the answer {wrong}; the harness "
            f"followed the {found.column} column of {found.file} down every level ({len(found.direct)} directly, "
            f"{n} in all), {answer_to_copy(copy)}")
