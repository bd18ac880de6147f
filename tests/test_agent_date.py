"""The system prompt says what day it is (date only, so it stays the same all day)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from assistant.config import load_config
from assistant.events import Finished
from assistant.loop.agent import Agent
from assistant.loop.prompt import system_prompt, today_line
from model.scripted import ScriptedChatModel
from assistant.state.store import Store
from tools.base import ToolRegistry

CET = timezone(timedelta(hours=1), "CET")


def test_today_line_names_weekday_date_and_zone():
    assert today_line(datetime(2025, 3, 11, 9, 30, tzinfo=CET)) == \
        "Today is Tuesday, 2025-03-11 (time zone CET, UTC+01:00)."
    assert today_line(datetime(2025, 3, 11, 0, 5, tzinfo=timezone.utc)).startswith("Today is Tuesday, 2025-03-11")


def test_the_system_prompt_is_identical_all_day_and_changes_with_the_date():
    morning = system_prompt("/ws", now=datetime(2025, 3, 11, 0, 1, tzinfo=CET))
    evening = system_prompt("/ws", now=datetime(2025, 3, 11, 23, 59, tzinfo=CET))
    assert morning == evening and "Tuesday, 2025-03-11" in morning
    assert "23:59" not in evening and "00:01" not in morning
    assert system_prompt("/ws", now=datetime(2025, 3, 12, 8, 0, tzinfo=CET)) != morning


class Recorder(ScriptedChatModel):
    def complete(self, messages, tools, **kw):
        self.seen = messages
        return super().complete(messages, tools, **kw)


def test_the_agent_puts_its_clock_s_date_in_the_prompt(assistant_home, tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    store = Store(assistant_home / "t.db")
    model = Recorder(["It is Thursday."])
    agent = Agent(model, ToolRegistry(), store, settings=load_config(), state_dir=tmp_path / "state",
                  now=lambda: datetime(2024, 2, 29, 15, 0, tzinfo=CET))
    events = list(agent.run("what day is it?", workspace=ws))
    assert isinstance(events[-1], Finished)
    assert "Today is Thursday, 2024-02-29 (time zone CET, UTC+01:00)." in model.seen[0].content
    store.close()
