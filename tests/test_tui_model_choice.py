"""Which model the app runs: ``assistant --model/--workspace``, ``ASSISTANT_MODEL``,
and a ``[model]`` change in the settings screen (reload, or why not)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual")

from assistant import cli  # noqa: E402
from assistant.config import load_config  # noqa: E402
from model.scripted import ScriptedChatModel  # noqa: E402
from assistant.tui.app import AssistantApp  # noqa: E402
from assistant.tui.screens.settings import settings_rows  # noqa: E402
from assistant.tui.widgets import NoticeLine, StatusBar  # noqa: E402
from test_tui_support import make_app, until  # noqa: E402

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ASSISTANT_MODEL", raising=False)
    return tmp_path / "home"


@pytest.fixture
def launched(monkeypatch) -> list[dict]:
    """Calls of ``run_app`` (the app itself is not started)."""
    calls: list[dict] = []

    def fake_run_app(config=None, *, workspace=None, model=None):
        calls.append({"config": config, "workspace": workspace, "model": model})
        return 0

    monkeypatch.setattr("assistant.tui.app.run_app", fake_run_app)
    return calls


def test_the_app_takes_model_and_workspace(home, tmp_path, launched):
    ws = tmp_path / "ws"
    ws.mkdir()
    assert cli.main(["--model", "tiny.gguf", "--workspace", str(ws)]) == 0
    [call] = launched
    assert call["model"] == "tiny.gguf" and Path(call["workspace"]) == ws


def test_a_subcommand_keeps_its_own_model_option(home):
    args = cli.build_parser().parse_args(["--model", "app.gguf", "run", "a goal", "--model", "run.gguf"])
    assert args.model == "run.gguf" and args.app_model == "app.gguf"


def test_a_missing_workspace_is_a_usage_error(home, tmp_path, launched, capsys):
    assert cli.main(["--workspace", str(tmp_path / "nope")]) == 2
    assert not launched and "workspace folder not found" in capsys.readouterr().err


def test_assistant_model_in_the_environment_chooses_the_model(home, tmp_path, monkeypatch, launched):
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setenv("ASSISTANT_MODEL", str(gguf))
    monkeypatch.setenv("ASSISTANT_MODEL__N_CTX", "4096")  # the nested form still sets [model] keys
    assert cli.main([]) == 0  # was: "error parsing value for field model from source EnvSettingsSource"
    config = launched[0]["config"]
    assert config.model.n_ctx == 4096 and config.model.path is None
    opened: list[str] = []
    monkeypatch.setattr("model.chat.open_chat_model", lambda path, **kw: opened.append(str(path)) or "model")
    from assistant.wiring import open_model

    assert open_model(load_config(None)) == "model" and opened == [str(gguf)]


async def _edit_setting(pilot, app, key: str, value: str) -> None:
    await pilot.press("f3")
    await pilot.pause()
    keys = [k for k, _, _ in settings_rows(app.config)]
    app.screen.query_one("DataTable").move_cursor(row=keys.index(key))
    await pilot.press("enter")
    await pilot.pause()
    app.screen.query_one("#edit-value").value = value
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("escape")
    await pilot.pause()


async def test_changing_model_path_in_settings_reloads_the_model(home, tmp_path):
    loaded: list[str | None] = []

    def loader_for(config):
        def load():
            loaded.append(config.model.path)
            return ScriptedChatModel(["Hello."], name=Path(config.model.path or "first").stem)
        return load

    base = make_app(home, tmp_path, None)
    app = AssistantApp(base.config, loader_for=loader_for, agent_factory=base._agent_factory, store=base.store,
                       workspace=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        bar = app.query_one(StatusBar)
        await until(pilot, lambda: bar.model_name == "first")
        await _edit_setting(pilot, app, "model.path", str(tmp_path / "second.gguf"))
        await until(pilot, lambda: bar.model_name == "second")
        assert loaded == [None, str(tmp_path / "second.gguf")] and app.model.name == "second"


async def test_model_path_change_under_model_option_says_a_restart_is_needed(home, tmp_path):
    loads: list[int] = []

    def loader_for(config):
        return lambda: loads.append(1) or ScriptedChatModel(["Hello."], name="chosen")

    base = make_app(home, tmp_path, None)
    app = AssistantApp(base.config, loader_for=loader_for, model_choice="chosen.gguf",
                       agent_factory=base._agent_factory, store=base.store, workspace=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.model is not None)
        await _edit_setting(pilot, app, "model.path", "/elsewhere/other.gguf")
        await until(pilot, lambda: bool(app.query(NoticeLine)))
        text = str(app.query(NoticeLine).last().render())
        assert "--model chooses the model" in text and "restart" in text
        assert loads == [1]
