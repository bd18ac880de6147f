"""A time of day in one city, told in another: "What time is it in Berlin when it is
10:00 in New York?".

A small model converts time zones from memory and gets the offset or the daylight
saving time wrong (batch IZ at 2081e47, IZC: a 10:00 New York call given as 14:00 in
Berlin; it is 16:00). The harness converts it with the IANA time-zone database
(:mod:`zoneinfo`) on the date the goal gives, else today, and doubts an answer that
does not give that time, with the answer to copy.

Cities are the IANA database's own ("America/New_York" is New York), plus a few large
cities it files under another name (:data:`_ALSO`). A goal with other than two such
cities, or other than one time of day, is not this module's: "" and None, never a guess.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import NamedTuple, Sequence

from .answer_form import answer_to_copy
from .dates_said import clock_times, dates_in
from .evidence import asks_only_a_question

__all__ = ["Conversion", "time_in_other_zone", "time_zone_wrong", "converted_time_text"]

#: large cities the IANA database files under another city of the same zone (the database's own choice of name)
_ALSO = {"san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles", "washington": "America/New_York",
         "boston": "America/New_York", "miami": "America/New_York", "atlanta": "America/New_York",
         "dallas": "America/Chicago", "houston": "America/Chicago", "munich": "Europe/Berlin",
         "frankfurt": "Europe/Berlin", "hamburg": "Europe/Berlin", "milan": "Europe/Rome", "barcelona": "Europe/Madrid",
         "geneva": "Europe/Zurich", "beijing": "Asia/Shanghai", "mumbai": "Asia/Kolkata", "delhi": "Asia/Kolkata",
         "new delhi": "Asia/Kolkata", "bangalore": "Asia/Kolkata", "osaka": "Asia/Tokyo", "montreal": "America/Toronto"}
#: the goal asks a time told in another zone: "what time is it (that) in Berlin", "in London time", "... when it is
#: 10:00 in New York", "convert"; not "what time does the 9:00 train from Paris arrive in Berlin" (a time to look up)
_ASKS_TIME = re.compile(r"\bwhat\s+time\s+(?:is|will\s+it\s+be|would\s+it\s+be)\s+(?:it|that|this)\s+(?:then\s+)?in\b"
                        r"|\bin\s+[A-Z][\w]+(?:\s+[A-Z]\w+)?\s+time\b|\bconvert\b|\bwhen\s+it\s+is\s+\d"
                        r"|\bwhat\s+(?:time\s+)?is\s+\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\b\.?)?\s+(?:in\s+)?[A-Z]",
                        re.IGNORECASE)
_TODAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


class Conversion(NamedTuple):
    """``said`` (the time as the goal wrote it), ``source`` and ``target`` (the cities as
    written), ``time`` (the time in the target city), ``days`` (-1, 0 or 1: the target's
    day against the source's) and ``day`` (the date the conversion is for)."""

    said: str
    source: str
    target: str
    time: dt.time
    days: int
    day: dt.date


@functools.lru_cache(maxsize=1)
def _cities() -> dict[str, str]:
    """Each city of the IANA database, lower case with spaces ("new york") -> its zone key."""
    import zoneinfo

    out = {}
    for key in zoneinfo.available_timezones():
        parts = key.split("/")
        if len(parts) >= 2 and parts[0] not in ("Etc", "SystemV", "US", "Canada", "Brazil", "Chile", "Mexico"):
            out[parts[-1].replace("_", " ").casefold()] = key
    out.update(_ALSO)
    return out


@functools.lru_cache(maxsize=1)
def _city_pattern() -> re.Pattern[str]:
    names = sorted(_cities(), key=len, reverse=True)  # the longest name first at a place: "New York", not "York"
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])", re.IGNORECASE)


def _cities_in(goal: str) -> list[tuple[int, int, str, str]]:
    """``(start, end, as written, zone key)`` of each city ``goal`` names."""
    cities = _cities()
    return [(m.start(), m.end(), m.group(0), cities[m.group(0).casefold()]) for m in _city_pattern().finditer(goal)
            if m.group(0)[0].isupper()]  # a city's name is written with a capital: not "nice", "mobile"


def _today(texts: Sequence[str]) -> dt.date:
    for t in texts:
        m = _TODAY.search(t)
        if m:
            try:
                return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            except ValueError:
                continue
    return dt.date.today()


def time_in_other_zone(goal: str, today: dt.date) -> Conversion | None:
    """The :class:`Conversion` when ``goal`` is a question that names one time of day and
    two cities in different zones: the time is the nearer city's (written next to it:
    "10:00 in New York", "a 9am London call"), asked in the other city, on the one date
    the goal gives (else ``today``). None otherwise."""
    import zoneinfo

    if not asks_only_a_question(goal) or not _ASKS_TIME.search(goal):
        return None
    times = clock_times(goal)
    found = _cities_in(goal)
    if len(times) != 1 or len({key for *_, key in found}) != 2:
        return None
    said, readings = times[0]
    at = goal.find(said)
    hour, minute = min(readings)  # as written: "10:00" is 10:00, "3pm" is 15:00 (one reading)
    if len(readings) > 1 and re.search(r"\b(?:p\.?m|evening|afternoon|tonight)\b", goal[at:at + 40], re.IGNORECASE):
        hour, minute = max(readings)
    near = sorted(found, key=lambda c: min(abs(c[0] - (at + len(said))), abs(at - c[1])))
    source = near[0]
    other = next(c for c in near if c[3] != source[3])
    if min(abs(other[0] - (at + len(said))), abs(at - other[1])) == min(abs(source[0] - (at + len(said))),
                                                                         abs(at - source[1])):
        return None  # as near to both: which city's time it is is not said
    dates = dates_in(goal)
    day = today
    if len(dates) == 1:
        try:
            day = dt.date(dates[0].year or today.year, dates[0].month, dates[0].day)
        except ValueError:
            return None
    start = dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zoneinfo.ZoneInfo(source[3]))
    there = start.astimezone(zoneinfo.ZoneInfo(other[3]))
    return Conversion(said, source[2], other[2], there.time(), (there.date() - day).days, day)


def time_zone_wrong(goal: str, answer: str, texts: Sequence[str] = ()) -> str:
    """The doubt when ``goal`` asks a time of day in another city's time zone
    (:func:`time_in_other_zone`, today read from ``texts``: the prompt's date line) and
    ``answer`` gives no time, or not that one ("" otherwise), with the answer to copy."""
    found = time_in_other_zone(goal, _today(texts))
    if found is None:
        return ""
    want = (found.time.hour, found.time.minute)
    if any(want in readings for _, readings in clock_times(answer)):
        return ""
    when = {1: " the next day", -1: " the day before"}.get(found.days, "")
    twelve = found.time.strftime("%I:%M %p").lstrip("0").lower()
    copy = f"{found.said} in {found.source} is {found.time:%H:%M} ({twelve}){when} in {found.target}."
    return (f"the task asks what {found.said} in {found.source} is in {found.target}, and the answer does not give "
            f"that time; the harness converted it with the IANA time-zone database for {found.day.isoformat()}: "
            f"{answer_to_copy(copy)}")


def converted_time_text(goal: str, texts: Sequence[str] = ()) -> str:
    """The converted time of :func:`time_in_other_zone` as a source of the answer's
    numbers ("16:00 4:00 pm"), "" when the goal asks none: the harness worked it out."""
    found = time_in_other_zone(goal, _today(texts))
    return f"{found.time:%H:%M} {found.time.strftime('%I:%M %p').lstrip('0').lower()}" if found else ""
