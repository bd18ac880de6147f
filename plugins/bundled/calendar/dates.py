"""Read dates the way people say them, against a given 'now'.

:func:`parse_when` understands ISO dates (``2026-12-01``, ``2026-12-01 15:00``),
``now``, ``in 3 hours``, ``today`` / ``tonight`` / ``tomorrow`` /
``day after tomorrow``, weekdays (``tuesday``, ``this tuesday``,
``next tuesday``), ``next week``, ``next month``, and anything
``dateutil.parser`` reads (``Dec 3``, ``3 December 2026``), each with an
optional time (``3pm``, ``15:00``, ``at 9``, ``noon``, ``midnight``) before or
after the day.

Weekdays: ``tuesday`` / ``this tuesday`` is the first Tuesday on or after
today; ``next tuesday`` is the first Tuesday after today (so on a Tuesday it
is a week later). A bare weekday with a time that has already passed today
(``friday 10:30`` said on a Friday afternoon) is a week later. Callers echo
the resolved date back to the user (:func:`describe`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timezone, tzinfo
from pathlib import Path
import os

from dateutil import parser as du_parser
from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

__all__ = ["When", "parse_when", "describe", "resolve_zone", "local_zone_name", "conflicts_with_user", "said_weekday"]

_WEEKDAYS = {
    "monday": MO, "mon": MO, "tuesday": TU, "tue": TU, "tues": TU, "wednesday": WE, "wed": WE,
    "thursday": TH, "thu": TH, "thur": TH, "thurs": TH, "friday": FR, "fri": FR,
    "saturday": SA, "sat": SA, "sunday": SU, "sun": SU,
}
_UNITS = {"minute": "minutes", "min": "minutes", "hour": "hours", "hr": "hours", "day": "days",
          "week": "weeks", "month": "months", "year": "years"}
_WORD_TIMES = {"noon": time(12), "midday": time(12), "midnight": time(0), "morning": time(9),
               "afternoon": time(15), "evening": time(18), "tonight": time(20)}
# a time written with UTC after it, as the calendar's own results write them: "2026-12-03 06:53 UTC"
_UTC_TAIL = re.compile(r"(.*\d(?:\s*[ap]\.?m\.?)?)\s*(?:utc|gmt)", re.IGNORECASE)
_CLOCK = re.compile(r"(\d{1,2}:\d{2})(?::\d{2}(?:\.\d+)?)?z?")  # a bare ISO time of day: "14:30:00", "14:30:00z"
_AMPM = re.compile(r"(?:\bat\s+)?\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?=\s|$)")
_HHMM = re.compile(r"(?:\bat\s+)?\b(\d{1,2}):(\d{2})\b")
_AT_H = re.compile(r"\bat\s+(\d{1,2})$")
_IN = re.compile(r"^in\s+(\d+|an?|one)\s+(minute|min|hour|hr|day|week|month|year)s?$")
_WEEKDAY = re.compile(r"^(?:(this|next|coming)\s+)?([a-z]+)$")

HINT = "try 'YYYY-MM-DD HH:MM', 'tomorrow 3pm' or 'next tuesday 15:00'"


@dataclass(frozen=True)
class When:
    """A resolved moment: ``dt`` is aware (in the zone of 'now'); ``has_time`` is
    False when the text named only a day (``dt`` is then that day at 00:00)."""

    dt: datetime
    has_time: bool


def _take_time(s: str) -> tuple[time | None, str]:
    """Find and remove a time of day in ``s``; raises ValueError for 25:00 or 13pm."""
    m = _AMPM.search(s)
    if m:
        h, mi = int(m.group(1)), int(m.group(2) or 0)
        if not 1 <= h <= 12 or mi > 59:
            raise ValueError(f"not a time of day: {m.group(0).strip()!r}")
        h = (h % 12) + (12 if m.group(3) == "p" else 0)
        return time(h, mi), (s[: m.start()] + " " + s[m.end():]).strip()
    for rx in (_HHMM, _AT_H):
        m = rx.search(s)
        if m:
            h = int(m.group(1))
            mi = int(m.group(2)) if rx is _HHMM else 0
            if h > 23 or mi > 59:
                raise ValueError(f"not a time of day: {m.group(0).strip()!r}")
            return time(h, mi), (s[: m.start()] + " " + s[m.end():]).strip()
    words = s.split()
    for i, w in enumerate(words):
        if w in _WORD_TIMES:
            rest = words[:i] + words[i + 1:]
            if w == "tonight":
                rest.insert(i, "today")
            return _WORD_TIMES[w], " ".join(x for x in rest if x not in ("at", "in", "the"))
    return None, s


def _day(s: str, today: date) -> date | None:
    """The day named by ``s`` (no time in it), or None if not a relative form."""
    if s in ("", "today"):
        return today
    if s == "tomorrow":
        return today + relativedelta(days=1)
    if s in ("day after tomorrow", "the day after tomorrow"):
        return today + relativedelta(days=2)
    if s == "yesterday":
        return today - relativedelta(days=1)
    if s == "next week":
        return today + relativedelta(days=1, weekday=MO(+1))
    if s == "next month":
        return today + relativedelta(months=1, day=1)
    m = _WEEKDAY.match(s)
    if m and m.group(2) in _WEEKDAYS:
        wd = _WEEKDAYS[m.group(2)]
        skip = 1 if m.group(1) == "next" else 0
        return today + relativedelta(days=skip, weekday=wd(+1))
    return None


def parse_when(text: str, now: datetime, *, base_day: date | None = None) -> When:
    """Resolve ``text`` against ``now`` (an aware datetime; its zone is used).

    Args:
        text: what the user or model wrote, e.g. "next Tuesday 3pm".
        now: the current moment, aware (``datetime.now(tz)``; tests pass a fixed one).
        base_day: the day a bare time ("4pm") refers to; default ``now``'s day.

    Raises:
        ValueError: the text is not a date; the message suggests accepted forms.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    tz = now.tzinfo
    raw = " ".join(str(text).split())
    if not raw:
        raise ValueError(f"empty date: {HINT}")
    try:
        dt = datetime.fromisoformat(raw)
        # a time after the date: "2026-12-10T10:00", "2026-12-10 10:00", or the basic form "20261210T100000"
        # (calendar_from_invite at 237b37e: read as the date alone, the event saved all day)
        has_time = "t" in raw.lower() or " " in raw or ":" in raw
        return When(dt if dt.tzinfo else dt.replace(tzinfo=tz), has_time)
    except ValueError:
        pass
    utc = _UTC_TAIL.fullmatch(raw)
    if utc:  # calendar_from_invite at b5a954c: Qwen 1.5B passed back "2026-12-03 06:53 UTC" from a result
        w = parse_when(utc.group(1), now.astimezone(timezone.utc), base_day=base_day)
        return When(w.dt.astimezone(tz), w.has_time)
    s = raw.lower().rstrip(".").removeprefix("on ").strip()
    clock = _CLOCK.fullmatch(s)
    if clock:  # calendar_next_weekday at e03cee3: Qwen 1.5B passed end "14:30:00Z", read as no date at all
        s = clock.group(1)
    if s == "now":
        return When(now, True)
    m = _IN.match(s)
    if m:
        n = 1 if m.group(1) in ("a", "an", "one") else int(m.group(1))
        return When(now + relativedelta(**{_UNITS[m.group(2)]: n}), True)
    t, rest = _take_time(s)
    rest = rest.removeprefix("on ").strip()
    today = now.date()
    day = _day(rest, base_day if (base_day is not None and rest == "") else today)
    if day is None:
        default = datetime(today.year, today.month, today.day)
        try:
            parsed = du_parser.parse(rest, default=default)
        except (ValueError, OverflowError):
            # words around a day of the month are skipped: a notes line "Thursday 10 December, 8:40, Dr. Lind"
            # passed whole (a held-out task at 2e1bee7); a text with no number still is no date
            try:
                parsed = du_parser.parse(rest, default=default, fuzzy=True) if re.search(r"\d", rest) else None
            except (ValueError, OverflowError):
                parsed = None
            if parsed is None:
                raise ValueError(f"cannot read the date {raw!r}: {HINT}") from None
        day = parsed.date()
        if t is None and (parsed.hour or parsed.minute):
            t = parsed.time()
    resolved = datetime.combine(day, t or time(0), tzinfo=tz)
    bare = _WEEKDAY.match(rest)
    if (t is not None and day == today and resolved < now and bare and bare.group(1) is None
            and bare.group(2) in _WEEKDAYS):
        resolved = datetime.combine(day + relativedelta(days=7), t, tzinfo=tz)
    return When(resolved, t is not None)


_SAID_DAY = re.compile(r"\b(?:(?:next|this|coming|on)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
                       r"(?:\s+(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?(?![\w:]))?", re.I)
_SAID_LENGTH = re.compile(r"\bfor\s+(\d{1,4}|an?|one)\s*(minutes?|mins?|hours?|hrs?)\b", re.I)
_FULL_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def said_weekday(user_words: list[str]) -> tuple[str, str] | None:
    """(weekday, the user's phrase) when the user's words name exactly one weekday:
    ("wednesday", "next Wednesday at 2:30pm"); None otherwise."""
    days = {m.group(1).lower(): m.group(0) for m in _SAID_DAY.finditer("\n".join(user_words))}
    return next(iter(days.items())) if len(days) == 1 else None


def conflicts_with_user(user_words: list[str], start: datetime, end: datetime, *, start_text: str,
                        timed: bool) -> str:
    """Why a new event contradicts what the user said ("" when it does not).

    Small models work out dates themselves and get them wrong (Qwen2.5-1.5B
    booked "next Wednesday" on a Friday, and "for 45 minutes" as 5 minutes).
    Checked only when the user's words are unambiguous: exactly one weekday
    named (``start`` must fall on it) and one "for N minutes/hours" (a timed
    event must last that long).

    Args:
        user_words: the user's texts in this task (``ToolContext.user_words``).
        start, end: the event as resolved; ``timed`` False for an all-day event.
        start_text: the start as the model passed it (quoted in the message).

    Returns:
        One line naming the contradiction and the argument to pass instead.
    """
    said = said_weekday(user_words)
    if said is not None:
        day, phrase = said
        if _FULL_DAYS[start.weekday()] != day:
            return (f"the user said {phrase!r}, but start {start_text!r} is a {start.strftime('%A')} "
                    f"({start.date().isoformat()}); pass start exactly as the user said it: {phrase!r}")
    minutes = said_minutes(user_words)
    if timed and minutes is not None:
        got = round((end - start).total_seconds() / 60)
        if got != minutes:
            return (f"the user said the event lasts {minutes} minutes, but this one lasts {got}; "
                    f"pass duration_minutes={minutes} and no end")
    return ""


def said_minutes(user_words: list[str]) -> int | None:
    """The event's length in minutes when the user's words give exactly one
    ("for 45 minutes", "for an hour"), else None."""
    lengths = {(m.group(1).lower(), m.group(2).lower()[0]) for m in _SAID_LENGTH.finditer("\n".join(user_words))}
    if len(lengths) != 1:
        return None
    (n, unit), = lengths
    return (1 if n in ("a", "an", "one") else int(n)) * (60 if unit == "h" else 1)


def describe(when: When) -> str:
    """A resolved moment as people read it, with its zone: "Tuesday 2026-12-01
    15:00 Europe/Berlin" (a day without a time: "Tuesday 2026-12-01")."""
    text = when.dt.strftime("%A %Y-%m-%d")
    return f"{text} {when.dt.strftime('%H:%M')} {when.dt.tzinfo}" if when.has_time else text


def local_zone_name() -> str:
    """The machine's IANA time-zone name (``$TZ``, else ``/etc/localtime``), or "UTC"."""
    from zoneinfo import ZoneInfo

    env = os.environ.get("TZ", "").lstrip(":")
    if env:
        try:
            ZoneInfo(env)
            return env
        except (ValueError, KeyError, OSError):
            pass
    try:
        real = str(Path("/etc/localtime").resolve())
        if "zoneinfo/" in real:
            name = real.split("zoneinfo/", 1)[1]
            ZoneInfo(name)
            return name
    except (ValueError, KeyError, OSError):
        pass
    return "UTC"


def resolve_zone(name: str | None) -> tzinfo:
    """``ZoneInfo(name)`` (local zone when empty). Raises ValueError for an unknown name."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    name = (name or "").strip() or local_zone_name()
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r}: use an IANA name like Europe/Berlin") from None
