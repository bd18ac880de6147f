"""Dates an answer gives, against the dates the task's tool results give.

The number check reads "February 18, 2027" as the numbers 18 and 2027, and a
letter holding "18 December 2026" and "1 February 2027" has both: a date made up
of the parts of two others passed it. A held-out task at 766ab73: "By when do I
have to reply to the job offer in offer.docx?" (the offer says "Please reply by
18 December 2026"; the start date is 1 February 2027) was answered "February 18,
2027", and the task finished. A date is checked whole: its day and month (and
its year, where both sides give one) must be a date of a tool result, the goal,
the user's words, or today.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Iterable, NamedTuple

_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
#: 2026-12-18; 18 December 2026, 18th of Dec; December 18, 2026, Dec 18th
_DATE = re.compile(rf"\b(\d{{4}})-(\d{{2}})-(\d{{2}})\b"
                   rf"|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b(?:,?\s+(\d{{4}})\b)?"
                   rf"|\b{_MONTH}\b\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*[:.]\d)(?:,?\s+(\d{{4}})\b)?", re.IGNORECASE)


class SaidDate(NamedTuple):
    """A date as a text gives it: ``year`` None when it gives none; ``text`` as written."""

    year: int | None
    month: int
    day: int
    text: str


def dates_in(text: str) -> list[SaidDate]:
    """The dates written in ``text`` (ISO, "18 December 2026", "Dec 18, 2026", with or
    without a year), in order; a day outside 1-31 or a month outside 1-12 is none."""
    out = []
    for m in _DATE.finditer(text):
        if m.group(1):
            year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
        elif m.group(4):
            year, month, day = _year(m.group(6)), month_number(m.group(5)), int(m.group(4))
        else:
            year, month, day = _year(m.group(9)), month_number(m.group(7)), int(m.group(8))
        if 1 <= month <= 12 and 1 <= day <= 31:
            out.append(SaidDate(year, month, day, m.group(0).strip()))
    return out


def month_number(name: str) -> int:
    """1-12 for a month's English name or its abbreviation ("March", "mar", "Sept").

    Raises:
        ValueError: ``name`` is no month's name."""
    return _MONTHS.index(name.lower()[:3]) + 1


def _year(text: str | None) -> int | None:
    return int(text) if text else None


def unseen_dates(answer: str, sources: Iterable[str], today: date | None = None) -> list[str]:
    """The dates of ``answer`` (as written) that no text of ``sources`` gives and that
    are not ``today`` (default: the machine's date): same day and month, and the same
    year where both give one. [] when every date of the answer was seen."""
    today = today or date.today()
    seen = [SaidDate(today.year, today.month, today.day, "")]
    seen += [d for text in sources for d in dates_in(text)]
    return [d.text for d in dates_in(answer)
            if not any(d.month == s.month and d.day == s.day and (d.year is None or s.year is None or d.year == s.year)
                       for s in seen)]
