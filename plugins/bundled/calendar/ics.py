"""Read, add and move events in iCalendar (.ics) text with the ``icalendar`` package.

Recurring events (RRULE, minus EXDATE) are expanded with ``dateutil.rrule``.
All-day events (DATE values) are placed at midnight in the listing zone.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from typing import Any
from datetime import date, datetime, timedelta, timezone, tzinfo

from icalendar import Calendar, Event as VEvent, vCalAddress, vText

__all__ = ["CalEvent", "events_between", "add_event", "move_event", "cancel_event", "parse_attendee", "IcsError"]

PRODID = "-//assistant//calendar plugin//EN"
# an e-mail address anywhere in an attendee: "Ann (ann@x.org)", "ann@x.org (Ann)", "Ann - mailto:ann@x.org"
_LOOSE_ADDR = re.compile(r"(?<![^\s(<\[:,;\"'])[^\s()<>\[\],;:\"']+@[^\s()<>\[\],;:\"']+\.[A-Za-z]{2,}")
_ADDR = re.compile(r"^\s*(?:\"?([^\"<]*?)\"?\s*)?<\s*([^<>\s]+@[^<>\s]+)\s*>\s*$")


class IcsError(ValueError):
    """An .ics file cannot be read; the message names the file and is one line."""


@dataclass
class CalEvent:
    """One (occurrence of an) event. ``start``/``end`` are aware datetimes."""

    title: str
    start: datetime
    end: datetime
    all_day: bool = False
    location: str = ""
    attendees: list[str] = field(default_factory=list)
    uid: str = ""
    source: str = ""


def _aware(value: date | datetime, tz: tzinfo) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=tz)
    return datetime(value.year, value.month, value.day, tzinfo=tz)


def _attendee_label(addr: object) -> str:
    params = getattr(addr, "params", {}) or {}
    cn = str(params.get("CN", "") or "")
    email = str(addr)
    email = email[7:] if email.lower().startswith("mailto:") else ""
    if cn and email:
        return f"{cn} <{email}>"
    return cn or email


def _occurrences(ev: VEvent, start: datetime, end: datetime, tz: tzinfo) -> list[tuple[datetime, timedelta]]:
    raw_start = ev.get("dtstart").dt
    all_day = not isinstance(raw_start, datetime)
    s = _aware(raw_start, tz)
    if ev.get("dtend") is not None:
        length = _aware(ev.get("dtend").dt, tz) - s
    elif ev.get("duration") is not None:
        length = ev.get("duration").dt
    else:
        length = timedelta(days=1) if all_day else timedelta(0)
    rule = ev.get("rrule")
    if rule is None:
        return [(s, length)]
    from dateutil.rrule import rrulestr

    text = rule.to_ical().decode()
    if all_day or s.tzinfo is not None:
        text = re.sub(r"UNTIL=(\d{8})(?!T)", r"UNTIL=\1T235959Z", text)
    try:
        rr = rrulestr("RRULE:" + text, dtstart=s)
        starts = rr.between(start - length, end, inc=True)
    except (ValueError, TypeError):
        return [(s, length)]
    excluded: set[datetime] = set()
    exdates = ev.get("exdate")
    for group in exdates if isinstance(exdates, list) else ([exdates] if exdates is not None else []):
        for d in getattr(group, "dts", []):
            excluded.add(_aware(d.dt, tz))
    return [(x, length) for x in starts if x not in excluded]


def events_between(ics_text: str, start: datetime, end: datetime, tz: tzinfo, *,
                   source: str = "") -> list[CalEvent]:
    """Events of ``ics_text`` overlapping ``[start, end)``, sorted by start; cancelled
    ones (STATUS:CANCELLED) are left out.

    Raises:
        IcsError: the text is not iCalendar.
    """
    try:
        cal = Calendar.from_ical(ics_text)
    except Exception as exc:  # noqa: BLE001 - icalendar raises several types
        raise IcsError(f"{source or 'calendar'} is not a valid .ics file: {exc}") from None
    out: list[CalEvent] = []
    for ev in cal.walk("VEVENT"):
        if ev.get("dtstart") is None or str(ev.get("status", "") or "").upper() == "CANCELLED":
            continue  # a cancelled event (calendar_cancel_event) is kept in the file, not listed
        all_day = not isinstance(ev.get("dtstart").dt, datetime)
        raw = ev.get("attendee")
        attendees = [_attendee_label(a) for a in (raw if isinstance(raw, list) else [raw] if raw else [])]
        for s, length in _occurrences(ev, start, end, tz):
            e = s + length
            if s < end and (e > start or (length == timedelta(0) and s >= start)):
                out.append(CalEvent(
                    title=str(ev.get("summary", "") or "(no title)"), start=s, end=e,
                    all_day=all_day, location=str(ev.get("location", "") or ""),
                    attendees=attendees, uid=str(ev.get("uid", "") or ""), source=source,
                ))
    out.sort(key=lambda x: x.start)
    return out


def parse_attendee(text: str) -> vCalAddress:
    """``"Ann <ann@x.org>"``, ``"ann@x.org"``, a name and an address written any other
    way (``"Ann (ann@x.org)"``) or a bare name ``"Ann"`` (stored, as Outlook does, with
    the address ``invalid:nomail``) -> an ATTENDEE value."""
    text = " ".join(text.split())
    if not text:
        raise ValueError("empty attendee")
    m = _ADDR.match(text)
    loose = None if m or ("@" in text and " " not in text) else _LOOSE_ADDR.search(text)
    if m:
        name, email = (m.group(1) or "").strip(), m.group(2)
    elif "@" in text and " " not in text:
        name, email = "", text[7:] if text.lower().startswith("mailto:") else text
    elif loose:  # calendar_next_weekday at 42e28a8: "Ann (ann@example.org)" was stored as a name, no address
        name = re.sub(r"\bmailto\b", "", text[:loose.start()] + " " + text[loose.end():]).strip(" ()<>[]-,:;\"'")
        name, email = " ".join(name.split()), loose.group(0)
    else:
        name, email = text, ""
    addr = vCalAddress(f"mailto:{email}" if email else "invalid:nomail")
    if name:
        addr.params["CN"] = vText(name)
    addr.params["ROLE"] = vText("REQ-PARTICIPANT")
    addr.params["PARTSTAT"] = vText("NEEDS-ACTION")
    return addr


def add_event(ics_text: str | None, *, title: str, start: datetime | date, end: datetime | date,
              attendees: list[str] = (), location: str = "", description: str = "",
              source: str = "") -> tuple[str, str]:
    """Add a VEVENT to ``ics_text`` (a new calendar when None) and return
    ``(new_text, uid)``. ``start``/``end`` are aware datetimes, or dates for an
    all-day event (``end`` exclusive). Existing content is kept as it is.

    Raises:
        IcsError: ``ics_text`` is not iCalendar (nothing is written then).
        ValueError: end not after start, or an empty attendee.
    """
    if end <= start:
        raise ValueError("the event must end after it starts")
    if ics_text and ics_text.strip():
        try:
            cal = Calendar.from_ical(ics_text)
        except Exception as exc:  # noqa: BLE001
            raise IcsError(f"{source or 'calendar'} is not a valid .ics file ({exc}); not changed") from None
    else:
        cal = Calendar()
        cal.add("prodid", PRODID)
        cal.add("version", "2.0")
    ev = VEvent()
    uid = f"{uuid.uuid4()}@assistant"
    ev.add("uid", uid)
    ev.add("dtstamp", datetime.now(timezone.utc))
    ev.add("summary", title)
    ev.add("dtstart", start)
    ev.add("dtend", end)
    if location:
        ev.add("location", location)
    if description:
        ev.add("description", description)
    for a in attendees:
        ev.add("attendee", parse_attendee(a), encode=0)
    cal.add_component(ev)
    if hasattr(cal, "add_missing_timezones"):
        cal.add_missing_timezones()
    return cal.to_ical().decode("utf-8"), uid


def cancel_event(ics_text: str, uid: str, *, source: str = "") -> str:
    """``ics_text`` with the one event whose UID is ``uid`` marked cancelled
    (STATUS:CANCELLED, RFC 5545 3.8.1.11) and its SEQUENCE up by one: it stays in the
    file, so it can be restored, and is no longer listed.

    Raises:
        IcsError: ``ics_text`` is not iCalendar, holds no single event ``uid``, or that
            event repeats (RRULE): one occurrence is not cancelled alone.
    """
    ev, cal = _one_event(ics_text, uid, source)
    if ev.get("rrule") is not None:
        raise IcsError(f"{str(ev.get('summary', '') or 'the event')!r} repeats; cancelling one of its dates is not "
                       "supported, so nothing was changed")
    sequence = int(ev.get("sequence", 0) or 0)
    for key in ("status", "dtstamp", "sequence"):
        if key in ev:
            del ev[key]
    ev.add("status", "CANCELLED")
    ev.add("dtstamp", datetime.now(timezone.utc))
    ev.add("sequence", sequence + 1)
    return cal.to_ical().decode("utf-8")


def _one_event(ics_text: str, uid: str, source: str) -> tuple[Any, Calendar]:
    try:
        cal = Calendar.from_ical(ics_text)
    except Exception as exc:  # noqa: BLE001 - icalendar raises several types
        raise IcsError(f"{source or 'calendar'} is not a valid .ics file ({exc}); not changed") from None
    found = [ev for ev in cal.walk("VEVENT") if str(ev.get("uid", "") or "") == uid]
    if len(found) != 1:
        raise IcsError(f"{source or 'calendar'} holds {len(found)} events with UID {uid}; not changed")
    return found[0], cal


def move_event(ics_text: str, uid: str, *, start: datetime | date, end: datetime | date, source: str = "") -> str:
    """``ics_text`` with the one event whose UID is ``uid`` starting at ``start`` and
    ending at ``end`` (aware datetimes, or dates for an all-day event, ``end``
    exclusive); its SEQUENCE goes up by one (RFC 5545, 3.8.7.4) and everything else
    is kept as it is.

    Raises:
        IcsError: ``ics_text`` is not iCalendar, holds no event ``uid``, or that event
            repeats (RRULE): one occurrence is not moved alone.
        ValueError: end not after start.
    """
    if end <= start:
        raise ValueError("the event must end after it starts")
    ev, cal = _one_event(ics_text, uid, source)
    if ev.get("rrule") is not None:
        raise IcsError(f"{str(ev.get('summary', '') or 'the event')!r} repeats; moving one of its dates is not "
                       "supported, so nothing was changed")
    sequence = int(ev.get("sequence", 0) or 0)
    for key in ("dtstart", "dtend", "duration", "dtstamp", "sequence"):
        if key in ev:
            del ev[key]
    ev.add("dtstart", start)
    ev.add("dtend", end)
    ev.add("dtstamp", datetime.now(timezone.utc))
    ev.add("sequence", sequence + 1)
    return cal.to_ical().decode("utf-8")
