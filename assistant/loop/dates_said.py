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
from datetime import date, timedelta
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


_CLOCK = re.compile(r"(?<![\d:.])(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*(?:([ap])\.?m\b\.?)?", re.IGNORECASE)


def clock_times(text: str) -> list[tuple[str, frozenset[tuple[int, int]]]]:
    """The times of day written in ``text`` ("8:40", "10:00:00", "3pm", "4:30 p.m."),
    in order: each as written and its readings as (hour 0-23, minute). A time with
    no am/pm before 12:00 may mean either half of the day ("3:00" reads as 3:00
    and 15:00); a bare number ("at 10") is no time here."""
    out = []
    for m in _CLOCK.finditer(text):
        hour, minute, half = int(m.group(1)), int(m.group(2) or 0), (m.group(3) or "").lower()
        if not (m.group(2) or half) or minute > 59 or hour > (12 if half else 23) or (half and not hour):
            continue
        if half:
            readings = {(hour % 12 + (12 if half == "p" else 0), minute)}
        else:
            readings = {(hour, minute)} | ({(hour + 12, minute)} if 1 <= hour < 12 else set())
        out.append((m.group(0).strip(), frozenset(readings)))
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


#: a question for the first or last of several by date: "Which contract ends first?", "the earliest deadline"
_ORDER_ASKED = re.compile(r"\b(?:which|what)\b[^?.!]*?\b(first|earliest|soonest|sooner|last|latest)\b", re.IGNORECASE)
_ENDS = re.compile(r"\b(end(?:s|ing|ed)?|expir\w*|until|due|deadlines?|terminat\w*|runs? out|renew\w*)\b",
                   re.IGNORECASE)
_STARTS = re.compile(r"\b(start\w*|begin\w*|began|commenc\w*|signed)\b", re.IGNORECASE)


def not_the_first_date(goal: str, answer: str, reads: Iterable[tuple[str, str]]) -> str:
    """The doubt when ``goal`` asks which of several ends (starts) first or last and
    the dated answer does not give that date ("" otherwise). ``reads`` are (path, text)
    of the files the task read; each file that gives a dated line counts with one
    date: of the lines that say "ends", "until", "due" ... (for a goal about an end)
    its latest, of those that say "starts" ... its earliest, and for a goal about
    neither, its only date. Two files at least must count. A held-out task at
    a43d469: three contracts read (ending 31 March 2027, 15 January 2027, 30 June
    2027), "Which contract ... ends first" answered with 31 March 2027."""
    asked = _ORDER_ASKED.search(goal)
    said = dates_in(answer)
    if not asked or not said:
        return ""
    first = asked.group(1).lower() in ("first", "earliest", "soonest", "sooner")
    kind = _ENDS if _ENDS.search(goal) else _STARTS if _STARTS.search(goal) else None
    found: dict[str, tuple[date, str]] = {}
    for path, text in reads:
        dated = [(d, line.strip()) for line in text.splitlines() for d in dates_in(line) if d.year]
        marked = [(d, line) for d, line in dated if kind and kind.search(line)] or dated
        days = sorted({(date(d.year, d.month, d.day), line) for d, line in marked if real_day(d)})
        if days and (kind or len({day for day, _ in days}) == 1):
            found[path] = days[-1] if kind is _ENDS else days[0]
    if len(found) < 2:
        return ""
    ordered = sorted(found.items(), key=lambda item: item[1][0], reverse=not first)
    best = ordered[0][1][0]
    if any(d.month == best.month and d.day == best.day and d.year in (None, best.year) for d in said):
        return ""
    verb = (kind.search(goal).group(0).lower() if kind else "comes") + " " + asked.group(1).lower()
    listed = ", ".join(f"{_written(day)} ({path}: \"{line[:70]}\")" for path, (day, line) in ordered[:4])
    word = "end" if kind is _ENDS else "start" if kind is _STARTS else "give"
    return (f"the task asks which {verb}, and the answer gives {said[0].text}; the files read {word} on these dates, "
            f"{'earliest' if first else 'latest'} first: {listed}; check the answer against them")


#: a question for the earliest (latest) date a file mentions: "What is the earliest date mentioned in letter.txt?"
_DATE_OF_FILE = re.compile(r"\b(?:which|what)\b[^?.!]*?\b(earliest|first|oldest|latest|last|most recent|newest)\s+"
                           r"date\b", re.IGNORECASE)


def extreme_date_wrong(goal: str, answer: str, texts: Iterable[tuple[str, str]]) -> str:
    """The doubt when ``goal`` asks for the earliest (latest) date a file mentions and
    the answer does not give it ("" otherwise); ``texts``: (path, text) of the files the
    goal names, as the task read them; two dates with a year at least. Batch FZ at
    7767aeb, FZJ: "What is the earliest date mentioned in letter.txt?" answered with the
    file's modified date from file_info (2 February 2026)."""
    asked = _DATE_OF_FILE.search(goal)
    if not asked:
        return ""
    found = sorted({(date(d.year, d.month, d.day), path, line.strip(), d.text) for path, text in texts
                    for line in text.splitlines() for d in dates_in(line) if d.year and real_day(d)})
    if len({found_day for found_day, _, _, _ in found}) < 2:
        return ""
    word = asked.group(1).lower()
    day, path, line, said = found[0] if word in ("earliest", "first", "oldest") else found[-1]
    if any(d.month == day.month and d.day == day.day and d.year in (None, day.year) for d in dates_in(answer)):
        return ""
    at = max(0, line.find(said))
    quote = line[max(0, at - 50): at + len(said) + 40].strip()
    return (f"the {word} date {path} mentions is {_written(day)} (\"{quote}\"), and the answer does not give it; "
            f"answer with the dates the file itself gives, e.g. the answer to copy: \"The {word} date mentioned in "
            f"{path} is {_written(day)}.\"")


def real_day(d: SaidDate) -> bool:
    """Whether ``d`` is a day of the calendar (a year it does not give read as year 1:
    "30 February" is none)."""
    try:
        date(d.year or 1, d.month, d.day)
    except ValueError:
        return False
    return True


def _written(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


_DAYS_ASKED = re.compile(r"\bhow many (?:calendar )?days\b", re.IGNORECASE)
_FROM_TODAY = re.compile(r"\b(until|till|left|remain\w*|since|ago|from (?:now|today))\b", re.IGNORECASE)
_NOT_A_SUBJECT = {"how", "many", "days", "day", "date", "dates", "are", "there", "between", "the", "and", "from",
                  "until", "till", "left", "since", "ago", "now", "today", "does", "did", "will", "have", "has", "this",
                  "that", "with", "for", "calendar", "remain", "remaining", "is", "in", "of", "to"}


def day_count(goal: str, reads: Iterable[tuple[str, str]], today: date | None = None) -> tuple[int, str] | None:
    """(days, "from <date> (<path>: "<line>") to <date> (...)") when ``goal`` asks how
    many days lie between two dates the files read give (or, for "until", "left",
    "since", between today and one), and its words pick them out; None otherwise.
    The count leaves out the first day (2027-01-11 to 2027-03-26 is 74). A date
    is picked by a line that shares a word of the goal ("start", "end", "report"),
    or, when no line does, every dated line is. A held-out task at a43d469: "How
    many days are there between the start date and the end date in project.md?"
    answered "2 days"."""
    if not _DAYS_ASKED.search(goal):
        return None
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\S+\.\w{2,4}\b", " ", goal))} - _NOT_A_SUBJECT
    dated = [(date(d.year, d.month, d.day), path, re.sub(r"^\s*\d+\t", "", line).strip())
             for path, text in reads for line in text.splitlines() for d in dates_in(line) if d.year and real_day(d)]
    picked = [x for x in dated if words & {w.lower() for w in re.findall(r"[A-Za-z]{3,}", x[2])}] or dated
    days = list(dict.fromkeys(day for day, _, _ in picked))
    today = today or date.today()
    if len(days) > 1 and _FROM_TODAY.search(goal):  # from today to one of them: the one the goal's words pick
        picked = _one_from_today(goal, picked, reads, today)
        days = list(dict.fromkeys(day for day, _, _ in picked))
    if len(days) == 1 and _FROM_TODAY.search(goal):
        ends = [(today, "", ""), next(x for x in picked if x[0] == days[0])]
    elif len(days) == 2:
        ends = [next(x for x in picked if x[0] == day) for day in sorted(days)]
    else:
        return None
    ends.sort(key=lambda x: x[0])
    said = [f"today ({_written(day)})" if not path else f"{_written(day)} ({path}: \"{line[:70]}\")"
            for day, path, line in ends]
    return (ends[1][0] - ends[0][0]).days, f"from {said[0]} to {said[1]}"


def _one_from_today(goal: str, picked: list[tuple[date, str, str]], reads: Iterable[tuple[str, str]],
                    today: date) -> list[tuple[date, str, str]]:
    """Of the dated lines ``picked``, those whose date the goal counts to (from) today: the
    one a start (end) word of the goal stands before in its line ("ends on 31 January
    2027" for "until the contract ends"), else the future ones for "until", "left" (the
    past ones for "since", "ago"); ``picked`` when that leaves none. A held-out task at
    911f35c: "How many days are left until the contract in contract.pdf ends?" got the
    harness's count from the start date to the end date (729), not from today (56)."""
    starts = _STARTS.search(goal)
    ends = _ENDS.search(re.sub(r"\b(?:until|till)\b", " ", goal))
    word = _STARTS if starts and not ends else _ENDS if ends and not starts else None
    kept = picked
    if word is not None:
        near = [x for x in picked for d in dates_in(x[2]) if d.year and real_day(d)
                and date(d.year, d.month, d.day) == x[0] and word.search(x[2][max(0, x[2].find(d.text) - 25):
                                                                              x[2].find(d.text)])]
        kept = near or picked
    if len({day for day, _, _ in kept}) > 1:
        past = re.search(r"\b(?:since|ago)\b", goal, re.IGNORECASE)
        kept = [x for x in kept if (x[0] <= today if past else x[0] >= today)] or kept
    return kept


def day_count_answer(goal: str, reads: Iterable[tuple[str, str]], today: date | None = None) -> str:
    """The answer to a goal asking how many days lie between two dates the files read give
    (:func:`day_count`), as a sentence: "44 days, from 2 March 2026 to 15 April 2026."; ""
    when :func:`day_count` finds no count. A held-out task at 9a1aa10 read project.txt,
    then grepped for "start", "end" and "owner" for eight steps and answered "3 days"."""
    counted = day_count(goal, reads, today)
    if counted is None:
        return ""
    plain = re.sub(r' \([^()]*: "[^"]*"\)', "", counted[1])  # the lines quoted as sources left out
    return f"{counted[0]} days, {plain}."


_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "fourteen": 14, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45,
                "sixty": 60, "ninety": 90}
#: "30 days after the invoice date", "two weeks from today", "14 calendar days following the delivery"
_AFTER = re.compile(r"\b(?P<n>\d{1,3}|" + "|".join(sorted(_COUNT_WORDS, key=len, reverse=True)) + r")\s+"
                    r"(?:calendar\s+)?(?P<unit>days?|weeks?)\s+(?:after|from|following|past|later than)\s+"
                    r"(?P<what>[^.?!,;]+)", re.IGNORECASE)
_TODAY = re.compile(r"^(?:the\s+)?(?:today|now|this\s+day)\b", re.IGNORECASE)


def date_after(goal: str, reads: Iterable[tuple[str, str]], today: date | None = None) \
        -> tuple[date, str, str] | None:
    """(the later date, the goal's words for it, its first date as said) when ``goal``
    asks for the date some days or weeks after a date ("30 days after the invoice
    date", "two weeks from today") and the files read (``reads``: (path, text)) give
    that first date once; None otherwise. The first date is picked by a dated line
    that shares a word of what follows "after" ("Date: 12 November 2026" for "the
    invoice date"), or, when no line does, every dated line is, and they must agree.
    Months are not counted (their lengths differ). A held-out task (RB) at 624b529:
    "When is the invoice in invoice.txt due? Payment is due 30 days after the invoice
    date." answered the invoice's own date."""
    asked = _AFTER.search(goal)
    if not asked:
        return None
    n = asked.group("n").lower()
    days = (int(n) if n.isdigit() else _COUNT_WORDS[n]) * (7 if asked.group("unit").lower().startswith("week") else 1)
    what = asked.group("what").strip()
    said = asked.group(0).strip()
    if _TODAY.match(what):
        today = today or date.today()
        return today + timedelta(days=days), said, f"today ({_written(today)})"
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", what)} - _NOT_A_SUBJECT
    dated = [(date(d.year, d.month, d.day), path, re.sub(r"^\s*\d+\t", "", line).strip())
             for path, text in reads for line in text.splitlines() for d in dates_in(line) if d.year and real_day(d)]
    picked = [x for x in dated if words & {w.lower() for w in re.findall(r"[A-Za-z]{3,}", x[2])}] or dated
    if len({day for day, _, _ in picked}) != 1:
        return None
    day, path, line = picked[0]
    return day + timedelta(days=days), said, f"{_written(day)} ({path}: \"{line[:70]}\")"


def date_after_answer(goal: str, reads: Iterable[tuple[str, str]], today: date | None = None) -> str:
    """The answer to a goal asking for the date some days after a date the files read
    give (:func:`date_after`), as "12 December 2026 (30 days after 12 November 2026)."
    ("" when there is none)."""
    found = date_after(goal, reads, today)
    if found is None:
        return ""
    first = re.sub(r' \([^()]*: "[^"]*"\)$', "", found[2]).replace("today (", "").rstrip(")")
    count = re.match(r"\S+\s+(?:calendar\s+)?\w+", found[1]).group(0)
    return f"{_written(found[0])} ({count} after {first})."


_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
#: a weekday as an answer writes it: "Thursday", or "Thu" right before a date ("Thu 2026-12-24")
_WEEKDAY_SAID = re.compile(r"\b(?:(?P<name>monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|"
                           r"(?-i:(?P<short>Mon|Tue|Wed|Thu|Fri|Sat|Sun))\.?,?(?=\s+\d))\b", re.IGNORECASE)
_WEEKDAY_ASKED = re.compile(r"\b(?:what|which)\s+(?:day\s+of\s+the\s+week|weekday|day)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?](?!\d)|\n|$)")


def weekday_asked(goal: str) -> SaidDate | None:
    """The one dated day (with its year) whose day of the week ``goal`` asks ("What day
    of the week is 24 December 2026?"); None otherwise."""
    asked = [d for d in dates_in(goal) if d.year and real_day(d)]
    return asked[0] if _WEEKDAY_ASKED.search(goal) and len(asked) == 1 else None


def wrong_weekday(goal: str, answer: str) -> str:
    """The doubt when a sentence of ``answer`` gives one dated day (with its year) and,
    within 30 characters of it, a weekday it does not fall on, or, for a goal that asks what day of the week its one
    dated day is, the answer names a weekday but not that one ("" otherwise), with the
    right weekday (the proleptic Gregorian calendar, ``datetime.date.weekday``); for
    such a goal, an answer naming no weekday is doubted with it too. A
    held-out task (QJ) at 5034895: "What day of the week is 24 December 2026?"
    answered "Sunday"; it is a Thursday."""
    def named(text: str) -> list[str]:
        return [m.group(0).strip(".,") for m in _WEEKDAY_SAID.finditer(text)]

    def weekday(d: SaidDate) -> str:
        return _WEEKDAYS[date(d.year or 1, d.month, d.day).weekday()]

    checks = []
    for sentence in _SENTENCE.findall(answer):
        days = [d for d in dates_in(sentence) if d.year and real_day(d)]
        at = sentence.find(days[0].text) if len(days) == 1 else -1
        near = named(sentence[max(0, at - 30):at + len(days[0].text) + 30]) if at >= 0 else []
        if near:  # "24 December 2026 is a Sunday", "Sunday, 24 December 2026", "Tue 2026-12-09"
            checks.append((days[0], near))
    asked = weekday_asked(goal)
    if not checks and asked is not None and named(answer):
        checks.append((asked, named(answer)))
    elif not checks and asked is not None:  # HZI at 4bb2504: the same question, notes.md read and no weekday given
        right = weekday(asked)
        return (f"the task asks what day of the week {asked.text} is, and the answer names no weekday; {asked.text} "
                f"is a {right} (the harness's calendar); the answer to copy: \"{asked.text} is a {right}.\"")
    for day, said in checks:
        right = weekday(day)
        if right.lower()[:3] not in {w.lower()[:3] for w in said}:
            return (f"the answer gives {day.text} as a {said[0]}, and {day.text} is a {right} (the harness's "
                    f"calendar); the answer to copy: \"{day.text} is a {right}.\"")
    return ""
