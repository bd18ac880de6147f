"""Dates the model never computes: the calendar tools take times as the user
said them, resolve them against an injected 'now', and echo the resolved
weekday, date, time and zone in their result."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from plugins.api import PluginAPI
from plugins.bundled.calendar import make_register
from plugins.bundled.calendar.dates import When, describe, parse_when
from tools.base import ToolContext

BERLIN = ZoneInfo("Europe/Berlin")
THURSDAY = datetime(2026, 11, 26, 10, 0, tzinfo=BERLIN)
FRIDAY_AFTERNOON = datetime(2026, 11, 27, 14, 0, tzinfo=BERLIN)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.mark.parametrize("text, now, expected", [
    ("next tuesday 3pm", THURSDAY, datetime(2026, 12, 1, 15, 0)),
    ("tomorrow at 9", THURSDAY, datetime(2026, 11, 27, 9, 0)),
    ("friday 10:30", THURSDAY, datetime(2026, 11, 27, 10, 30)),
    ("Friday 10:30", datetime(2026, 11, 27, 9, 0, tzinfo=BERLIN), datetime(2026, 11, 27, 10, 30)),
    # said on a Friday afternoon, "friday 10:30" is the coming Friday, not this morning
    ("friday 10:30", FRIDAY_AFTERNOON, datetime(2026, 12, 4, 10, 30)),
    ("this friday 10:30", FRIDAY_AFTERNOON, datetime(2026, 11, 27, 10, 30)),
    ("today 9am", FRIDAY_AFTERNOON, datetime(2026, 11, 27, 9, 0)),
    ("next tuesday 3pm", datetime(2026, 12, 1, 8, 0, tzinfo=BERLIN), datetime(2026, 12, 8, 15, 0)),
])
def test_phrases_resolve_against_the_injected_now(text, now, expected):
    w = parse_when(text, now)
    assert w.dt == expected.replace(tzinfo=BERLIN) and w.has_time


def test_describe_gives_weekday_date_time_and_zone():
    assert describe(When(datetime(2026, 12, 1, 15, 0, tzinfo=BERLIN), True)) == "Tuesday 2026-12-01 15:00 Europe/Berlin"
    assert describe(When(datetime(2026, 12, 1, tzinfo=BERLIN), False)) == "Tuesday 2026-12-01"


def tools(now):
    api = PluginAPI("calendar", {"timezone": "Europe/Berlin"})
    make_register(lambda tz: now.astimezone(tz))(api)
    return {t.name: t for t in api.build().tools}


def call(tool, **args):
    return tool.invoke(ToolContext(), tool.validate(args))


def test_descriptions_say_to_pass_times_as_the_user_said_them():
    found = tools(THURSDAY)
    for name in ("calendar_add_event", "calendar_list_events"):
        assert "as the user said them" in found[name].description
    add = found["calendar_add_event"].parameters_schema()["properties"]
    assert add["start"]["description"].startswith("as the user said it, e.g. 'next tuesday 3pm'.")


def test_add_event_echoes_the_resolved_date():
    out = call(tools(THURSDAY)["calendar_add_event"], title="Sync with Ann", start="next tuesday 3pm",
               duration_minutes=30)
    assert not out.error, out.text
    lines = out.text.splitlines()
    assert lines[0].startswith("Added: Tue 2026-12-01 15:00-15:30 Sync with Ann (Europe/Berlin)")
    assert lines[1] == ("Date check: 'next tuesday 3pm' is Tuesday 2026-12-01 15:00 Europe/Berlin "
                        "(now is Thursday 2026-11-26 10:00 Europe/Berlin).")


def test_add_event_echoes_start_and_end():
    out = call(tools(THURSDAY)["calendar_add_event"], title="Review", start="tomorrow at 9", end="10:30")
    assert "'tomorrow at 9' is Friday 2026-11-27 09:00 Europe/Berlin, end '10:30' is Friday 2026-11-27 10:30" in out.text
