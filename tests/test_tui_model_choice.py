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


async def test_model_screen_lists_models_on_disk_and_uses_one(home, tmp_path, monkeypatch):
    from textual.widgets import DataTable

    from assistant.tui.screens.model import ModelScreen

    fake_home = tmp_path / "user"
    snap = fake_home / ".cache/huggingface/hub/models--acme--tiny-GGUF/snapshots/abc123"
    snap.mkdir(parents=True)
    (snap / "tiny-Q4_K_M.gguf").write_bytes(b"not really a gguf")
    lms = fake_home / ".lmstudio/models/acme/other-GGUF"
    lms.mkdir(parents=True)
    (lms / "other-Q8_0.gguf").write_bytes(b"nope")
    monkeypatch.setenv("HOME", str(fake_home))
    for var in ("HF_HOME", "HF_HUB_CACHE", "XDG_CACHE_HOME", "OLLAMA_MODELS"):
        monkeypatch.delenv(var, raising=False)
    chosen: list[str | None] = []

    def loader_for(config):
        def load():
            chosen.append(app.model_choice)
            return ScriptedChatModel(["Hello."], name=Path(app.model_choice or "first").stem)
        return load

    base = make_app(home, tmp_path, None)
    app = AssistantApp(base.config, loader_for=loader_for, agent_factory=base._agent_factory, store=base.store,
                       workspace=tmp_path)
    async with app.run_test(size=(140, 50)) as pilot:
        await until(pilot, lambda: app.model is not None)
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, ModelScreen) and bool(app.screen.found), tries=1500)
        screen = app.screen
        names = [f.name for f in screen.found]
        assert "acme/tiny-GGUF:tiny-Q4_K_M.gguf" in names and any("other-Q8_0.gguf" in n for n in names)
        bad = names.index("acme/tiny-GGUF:tiny-Q4_K_M.gguf")
        assert screen.found[bad].problem  # a file that is not a GGUF says why
        table = screen.query_one("#found", DataTable)
        table.focus()
        table.move_cursor(row=bad)
        await pilot.press("u")
        await pilot.pause()
        assert app.screen is screen and chosen == [None]  # refused: nothing loads
        usable = [i for i, f in enumerate(screen.found) if not f.problem]
        if not usable:
            pytest.skip("no usable GGUF on this machine (the demo model is not installed)")
        table.move_cursor(row=usable[0])
        await pilot.press("u")
        await until(pilot, lambda: len(chosen) == 2 and app.model is not None and app.model.name != "first")
        assert chosen[1] == str(screen.found[usable[0]].path) and not isinstance(app.screen, ModelScreen)
