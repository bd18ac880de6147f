"""Whether the user is free at a time they ask about: a fact of the calendar, read
from the day the calendar plugin's ``calendar_list_events`` listed.

A held-out task at 911f35c: "Am I free on 11 December at 15:00?" got no calendar
tools (no word of the goal named the calendar) and looked for a file of that name;
an answer "yes" or "no" needs the day's events, and a 14:30-16:00 meeting covers
15:00 though no event starts then.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import NamedTuple, Sequence

from ..state.models import CallRecord
from .answer_form import answer_to_copy
from .dates_said import clock_times, dates_in
from .recap import call_to_copy

__all__ = ["FREE_ASKED", "FreeBusy", "availability_wrong", "free_busy"]

#: a question whether someone is free (busy) at a time: "Am I free on 11 December at 15:00?", "Is Dana available ..."
FREE_ASKED = re.compile(r"\b(?:am i|are we|are you|i am|i'm|is \w+)\s+(?P<word>free|available|busy|booked)\b",
                        re.IGNORECASE)
_LISTER = "calendar_list_events"
#: the span a listing covers: "... from Fri 2026-12-11 00:00 to Sat 2026-12-12 00:00 (UTC)"
_SPAN = re.compile(r"\bfrom \w{3} (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) to \w{3} (\d{4}-\d{2}-\d{2} \d{2}:\d{2})")
#: one listed event: "Fri 2026-12-11 14:30-16:00 Project sync", "... 23:00-Sat 2026-12-12 01:00 ...", all day
_TIMED = re.compile(r"^\w{3} (?P<day>\d{4}-\d{2}-\d{2}) (?P<start>\d{2}:\d{2})-(?:\w{3} (?P<end_day>\d{4}-\d{2}-\d{2}) )?"
                    r"(?P<end>\d{2}:\d{2}) (?P<title>.+)$")
_ALL_DAY = re.compile(r"^\w{3} (?P<day>\d{4}-\d{2}-\d{2}) \(all day(?:, (?P<n>\d+) days)?\) (?P<title>.+)$")
#: an answer that says the time is taken
_SAYS_BUSY = re.compile(r"\b(?:not (?:free|available)|busy|booked|occupied|conflict\w*|clash\w*|taken)\b",
                        re.IGNORECASE)
_SAYS_NOT_BUSY = re.compile(r"\bnot (?:busy|booked)\b|\bno (?:events?|meetings?|appointments?|conflicts?)\b",
                            re.IGNORECASE)


class Event(NamedTuple):
    title: str
    start: datetime
    end: datetime
    shown: str


class FreeBusy(NamedTuple):
    """What the calendar says about the asked time: ``when`` (local, naive), the
    events that cover it (``covering``; empty: free) and the call that listed it."""

    when: datetime
    covering: list[Event]
    listing: CallRecord


def _asked(goal: str) -> tuple[str, int, int, int, int] | None:
    """``(date text, month, day, hour, minute)`` of the one date and the one time of
    day a free/busy question gives, or None."""
    if FREE_ASKED.search(goal) is None:
        return None
    dates, times = dates_in(goal), clock_times(goal)
    if len(dates) != 1 or len(times) != 1:
        return None
    # "10:00" as written; "3:00" (no am/pm, before 7) the afternoon's
    readings = sorted(times[0][1])
    hour, minute = readings[0] if readings[0][0] >= 7 else readings[-1]
    d = dates[0]
    return d.text, d.month, d.day, hour, minute


def _events(text: str) -> list[Event]:
    out = []
    for line in text.splitlines():
        line = line.strip()
        m = _TIMED.match(line)
        if m:
            start = datetime.fromisoformat(f"{m['day']} {m['start']}")
            end = datetime.fromisoformat(f"{m['end_day'] or m['day']} {m['end']}")
            out.append(Event(m["title"], start, end, line))
            continue
        m = _ALL_DAY.match(line)
        if m:
            start = datetime.fromisoformat(f"{m['day']} 00:00")
            out.append(Event(m["title"], start, start.replace(hour=23, minute=59) if not m["n"] else
                             datetime.fromordinal(start.toordinal() + int(m["n"])), line))
    return out


def free_busy(goal: str, calls: Sequence[CallRecord]) -> FreeBusy | None:
    """The :class:`FreeBusy` of the time a question asks about ("Am I free on 11
    December at 15:00?") from the newest ``calendar_list_events`` call whose listing
    spans it; None when the goal asks no such question or no listing spans it."""
    asked = _asked(goal)
    if asked is None:
        return None
    _, month, day, hour, minute = asked
    for c in reversed(calls):
        if c.name != _LISTER or c.status != "done" or c.error or not c.result:
            continue
        span = _SPAN.search(c.result)
        if span is None:
            continue
        first, last = (datetime.fromisoformat(x) for x in span.groups())
        for year in (first.year, last.year):
            try:
                when = datetime(year, month, day, hour, minute)
            except ValueError:
                continue
            if first <= when < last:
                covering = [e for e in _events(c.result) if e.start <= when < e.end]
                return FreeBusy(when, covering, c)
    return None


def _time_said(when: datetime) -> str:
    return f"{when:%H:%M} on {when.day} {when:%B}"


def availability_wrong(answer: str, goal: str, calls: Sequence[CallRecord], tool_names: Sequence[str]) -> str:
    """The doubt when ``goal`` asks whether the user is free at a time on a date and
    the answer does not say what the calendar says ("" otherwise): with no listing of
    that day, the listing call to make; with an event covering the time, an answer
    that does not name it; with none, an answer that says the time is taken. Each
    with the answer to copy."""
    asked = _asked(goal)
    if asked is None or _LISTER not in tool_names:
        return ""
    found = free_busy(goal, calls)
    if found is None:
        return (f"the task asks whether you are free at a time on {asked[0]}, and no calendar_list_events call listed "
                f"that day: {call_to_copy(_LISTER, {'start': asked[0]})}, then answer from the events it lists")
    said = _time_said(found.when)
    if found.covering:
        if any(re.search(rf"(?<!\w){re.escape(e.title)}(?!\w)", answer, re.IGNORECASE) for e in found.covering):
            return ""
        e = found.covering[0]
        span = f"from {e.start:%H:%M} to {e.end:%H:%M}" if e.end.date() == e.start.date() else "then"
        return (f"the calendar has {e.title} at {said} ({e.shown}, listed by calendar_list_events at step "
                f"{found.listing.step}), and the answer does not say so; "
                + answer_to_copy(f"No, you are not free at {said}: you have {e.title} {span}."))
    if _SAYS_BUSY.search(answer) and not _SAYS_NOT_BUSY.search(answer):
        return (f"no event on the calendar covers {said} (calendar_list_events at step {found.listing.step}), and "
                f"the answer says that time is taken; " + answer_to_copy(f"Yes, you are free at {said}."))
    return ""
