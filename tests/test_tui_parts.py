"""Unit tests of the TUI's pieces: pause resolutions, card text, status bar,
input history, slash commands and the command palette."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from model.scripted import ScriptedChatModel
from assistant.tui.commands import COMMANDS
from assistant.tui.pauses import preview_for, resolution_for
from assistant.tui.screens import ModelScreen, SettingsScreen
from assistant.tui.screens.model import model_rows
from assistant.tui.screens.settings import apply_setting, settings_rows
from assistant.tui.screens.tasks import format_age
from assistant.tui.widgets import NoticeLine, StatusBar, key_arguments, summarize_result
from model.types import GenerationMetrics
from test_tui_support import make_app

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("kind", "choice", "text", "expected"),
    [
        ("question", None, "blue", {"answer": "blue"}),
        ("question", "red", None, {"answer": "red"}),
        ("approval", "task", None, {"approval": "task"}),
        ("approval", "deny", "use a copy", {"approval": "deny", "note": "use a copy"}),
        ("in_flight", "once", None, {"approval": "once"}),
        ("budget", "extend", None, {"approval": "extend"}),
        ("budget", "stop", None, {"approval": "deny"}),
        ("stuck", None, "try grep first", {"approval": "continue", "note": "try grep first"}),
        ("cancelled", "continue", "  ", {"approval": "continue"}),
    ],
)
def test_resolution_for_maps_answers_to_resume_arguments(kind, choice, text, expected):
    assert resolution_for(kind, choice=choice, text=text) == expected


def test_key_arguments_prefer_paths_and_skip_file_bodies():
    args = {"content": "x" * 500, "path": "a/b.txt", "mode": "w", "overwrite": True}
    assert key_arguments(args) == "path=a/b.txt mode=w"
    assert key_arguments({"query": "q " * 40}).endswith("…")


def test_summarize_result_takes_the_first_line():
    assert summarize_result("\n\nwrote 3 lines\nmore") == "wrote 3 lines"
    assert summarize_result("") == "(empty)"


def test_format_age():
    assert [format_age(s) for s in (5, 300, 7200, 200000)] == ["just now", "5m ago", "2h ago", "2d ago"]


def test_status_bar_labels_the_demo_model_and_shows_speed_and_context():
    bar = StatusBar()
    model = SimpleNamespace(name="SmolLM2-135M-Instruct", is_demo=True, facts=SimpleNamespace(num_loops=1))
    bar.set_model(model)
    bar.update_metrics({"decode_tps": 42.44, "prompt_tokens": 1024, "step": 3}, context_size=4096)
    bar.max_steps, bar.status = 40, "running"
    text = str(bar.render())
    assert text == "SmolLM2-135M-Instruct [demo model] · loops 1 · 42.4 tok/s · ctx 25% · step 3/40 · running"


def test_status_bar_shows_loops_of_a_looped_model_without_demo_tag():
    bar = StatusBar()
    bar.set_model(SimpleNamespace(name="Nanbeige4.2-3B", is_demo=False, facts=SimpleNamespace(num_loops=2)))
    assert str(bar.render()).startswith("Nanbeige4.2-3B · loops 2 ·")


def test_model_rows_reads_facts_and_metrics():
    metrics = GenerationMetrics(prompt_tokens=100, evaluated=20, reused=80, generated=10, prefill_s=0.5, decode_s=1.0)
    model = SimpleNamespace(name="m", is_demo=False, context_size=8192, last_metrics=metrics,
                            facts=SimpleNamespace(num_loops=2, kv_layers=44, file_size=2 * 2**30))
    rows = dict(model_rows(model))
    assert rows["num loops"] == "2" and rows["kv layers"] == "44" and rows["file size"] == "2.00 GiB"
    assert "decode 10.0 tok/s" in rows["last turn"] and "reused 80 of 100" in rows["last turn"]
    assert model_rows(None) == [("model", "not loaded")]


def test_settings_rows_cover_every_section_with_env_names():
    from assistant.config import Settings

    keys = {k for k, _, _ in settings_rows(Settings())}
    assert {"agent.max_steps", "agent.approve", "model.path", "web.enabled"} <= keys


def test_preview_for_missing_task_is_none(tmp_path):
    from assistant.state import Store

    with Store(tmp_path / "t.db") as store:
        assert preview_for(store, "nope", {"name": "write_file", "arguments": {}}) is None
        assert preview_for(store, None, {"name": "write_file"}) is None


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    ws = tmp_path / "ws"
    ws.mkdir()
    return make_app(tmp_path / "home", ws, ScriptedChatModel(["Hello."]))


async def test_every_slash_command_is_in_the_command_palette(app):
    async with app.run_test(size=(100, 30)):
        titles = {c.title for c in app.get_system_commands(app.screen)}
    assert set(COMMANDS) <= titles


async def test_help_lists_the_commands(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"/help", "enter")
        await pilot.pause()
        text = str(app.query(NoticeLine).last().render())
    assert all(name in text for name in COMMANDS)


async def test_model_and_settings_screens_open_and_close(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"/model", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ModelScreen)
        await pilot.press("escape")
        await pilot.press("f3")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]


async def test_limits_reports_the_defaults_before_a_task(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"/limits", "enter")
        await pilot.pause()
        assert "40 steps" in str(app.query(NoticeLine).last().render())


def test_apply_setting_validates_like_the_config_file():
    from assistant.config import ConfigError, Settings

    base = Settings()
    changed = apply_setting(base, "agent.max_steps", "7")
    assert changed.agent.max_steps == 7 and base.agent.max_steps == 40
    assert apply_setting(base, "model.grammar", "no").model.grammar is False
    assert apply_setting(base, "model.path", "").model.path is None
    with pytest.raises(ConfigError, match="agent.max_steps"):
        apply_setting(base, "agent.max_steps", "0")
    with pytest.raises(ConfigError, match="agent.approve"):
        apply_setting(base, "agent.approve", "sometimes")
    with pytest.raises(ConfigError, match="unknown setting"):
        apply_setting(base, "agent.nope", "1")


async def test_settings_edit_applies_to_new_tasks(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        keys = [k for k, _, _ in settings_rows(app.config)]
        app.screen.query_one("DataTable").move_cursor(row=keys.index("agent.max_steps"))
        await pilot.press("enter")
        await pilot.pause()
        app.screen.query_one("#edit-value").value = "5"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.config.agent.max_steps == 5
        assert app.query_one(StatusBar).max_steps == 5


async def test_model_screen_runs_the_loop_check(app):
    from textual.widgets import Static

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"/model", "enter")
        for _ in range(50):  # the check runs in a thread worker
            await pilot.pause(0.1)
            text = str(app.screen.query_one("#doctor", Static).render())
            if "looped models" in text:
                break
    assert "looped models: ok" in text
