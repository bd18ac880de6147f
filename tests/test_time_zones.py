"""A time of day in one city told in another (assistant/loop/time_zones.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from assistant.events import Finished, Notice
from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.time_zones import time_in_other_zone, time_zone_wrong
from tools.files import FILE_TOOLS
from agent_helpers import scripted_agent

WINTER, SUMMER = dt.date(2026, 12, 8), dt.date(2026, 7, 1)


@pytest.mark.parametrize("goal, today, source, target, time, days", [
    ("What time is it in Berlin when it is 10:00 in New York?", WINTER, "New York", "Berlin", "16:00", 0),
    ("I have a call at 10:00 New York time. What time is that in Berlin?", WINTER, "New York", "Berlin", "16:00", 0),
    ("If it is 11pm in Los Angeles, what time is it in Sydney?", WINTER, "Los Angeles", "Sydney", "18:00", 1),
    ("If it is 11pm in Los Angeles, what time is it in Sydney?", SUMMER, "Los Angeles", "Sydney", "16:00", 1),
    ("What is 18:00 Sydney in London time?", WINTER, "Sydney", "London", "07:00", 0),
    ("What time is 9:30 in Tokyo in Munich on 15 July 2026?", WINTER, "Tokyo", "Munich", "02:30", 0),
])
def test_the_time_is_converted_with_the_time_zone_database(goal, today, source, target, time, days):
    found = time_in_other_zone(goal, today)
    assert (found.source, found.target, f"{found.time:%H:%M}", found.days) == (source, target, time, days)


@pytest.mark.parametrize("goal", [
    "What time is it in Berlin?",  # no time to convert
    "How far is Berlin from Paris at 10:00?",  # no time asked
    "What time does the 9:00 train from Paris arrive in Berlin?",  # a time to look up, not to convert
    "What time is it in Berlin when it is 10:00 in Nowhere?",  # one city known
    "Put a 10:00 New York call into my calendar for Berlin.",  # a change
    "What time is 10:00 and 11:00 in New York in Berlin?",  # two times
])
def test_other_goals_are_not_its(goal):
    assert time_in_other_zone(goal, WINTER) is None


def test_an_answer_without_the_converted_time_is_doubted_with_the_answer_to_copy():
    """Batch IZ at 2081e47 (IZC): "14:00" for a 10:00 New York call in Berlin; it is 16:00."""
    goal = "I have a call at 10:00 New York time on 10 December 2026. What time is that in Berlin?"
    doubt = time_zone_wrong(goal, "It is at 14:00 in Berlin.")
    assert 'the answer to copy: "10:00 in New York is 16:00 (4:00 pm) in Berlin."' in doubt
    assert time_zone_wrong(goal, "The call is at 4 pm in Berlin.") == ""
    assert time_zone_wrong(goal, "16:00 in Berlin.") == ""
    today = "Today is Tuesday, 2026-12-08 (time zone UTC)."  # the date line: daylight saving time by today's date
    assert "is 11:00 (11:00 am) the next day in Sydney" in time_zone_wrong(
        "If it is 7pm in New York, what time is it in Sydney?", "9am", [today])
    ev = Evidence(goal=goal, workspace=".", calls=[], tool_names=["finish"], extra_texts=[today])
    assert any("IANA time-zone database" in p for p in finish_problems("It is at 14:00 in Berlin.", ev))


def test_the_converted_time_can_be_copied_and_the_task_finishes(assistant_home, tmp_path):
    goal = "I have a call at 10:00 New York time on 10 December 2026. What time is that in Berlin?"
    right = "10:00 in New York is 16:00 (4:00 pm) in Berlin."
    run = scripted_agent(tmp_path, ["The call is at 14:00 in Berlin.", right], FILE_TOOLS, approve="all",
                         preread=False)
    events = list(run.agent.run(goal, workspace=run.ws))
    run.store.close()
    doubt = next(e.text for e in events if isinstance(e, Notice) and e.text.startswith("Finish check"))
    assert "the harness converted it with the IANA time-zone database for 2026-12-10" in doubt
    assert [e.answer for e in events if isinstance(e, Finished)] == [right]
