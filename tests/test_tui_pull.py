"""Downloading a model from the TUI (``/pull NAME`` and the model screen's Download box)
against the local hub server of ``test_pull`` (127.0.0.1, no internet)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from textual.widgets import Button, Input, ProgressBar, Static

from model.scripted import ScriptedChatModel
from assistant.tui.screens import ModelScreen
from model.loopcheck import LoopCheck
from test_pull import FakeHub, hub  # noqa: F401 - the hub fixture
from test_tui_support import make_app

pytestmark = [pytest.mark.anyio, pytest.mark.timeout(60)]

REPO = "someone/Model-GGUF"
DATA = b"GGUF" + b"tui-pull" * 40_000  # ~320 KB: several progress updates


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hub: FakeHub):  # noqa: F811
    home = tmp_path / "home"
    monkeypatch.setenv("ASSISTANT_HOME", str(home))
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    # the model screen's health check loads llama.cpp; not what these tests are about
    monkeypatch.setattr("model.loopcheck.verify_loops", lambda *a, **k: LoopCheck(passed=True, max_abs_err={1: 0.0}, loops_differ=True, seconds=0.0))
    ws = tmp_path / "ws"
    ws.mkdir()
    return make_app(home, ws, ScriptedChatModel(["Hello."]))


async def _finish_pull(app, pilot) -> str:
    await app.workers.wait_for_complete([w for w in app.workers if w.group == "pull"])
    await pilot.pause()
    return str(app.screen.query_one("#pull-status", Static).render())


async def test_pull_command_downloads_with_a_progress_bar(app, hub: FakeHub, tmp_path: Path,  # noqa: F811
                                                          monkeypatch: pytest.MonkeyPatch):
    hub.add(REPO, {"model-Q4_K_M.gguf": DATA})
    seen: list[tuple[float | None, float]] = []  # the bar's (total, progress) after each update
    original = ModelScreen._pull_progress

    def spy(self: ModelScreen, done: int, total: int | None) -> None:
        original(self, done, total)
        bar = self.query_one("#pull-progress", ProgressBar)
        seen.append((bar.total, bar.progress))

    monkeypatch.setattr(ModelScreen, "_pull_progress", spy)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*f"/pull {REPO}", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ModelScreen)
        bar = screen.query_one("#pull-progress", ProgressBar)
        text = await _finish_pull(app, pilot)
        assert bar.display and (bar.total, bar.progress) == (len(DATA), len(DATA))
        assert not screen.query_one("#pull-button", Button).disabled

    path = tmp_path / "home" / "data" / "models" / "someone__Model-GGUF" / "model-Q4_K_M.gguf"
    assert path.read_bytes() == DATA
    assert "pulled" in text and str(path) in text and "Restart" in text
    assert hashlib.sha256(DATA).hexdigest()[:12] in text
    assert seen[-1] == (len(DATA), len(DATA)) and seen[0][1] < len(DATA)


async def test_pull_error_is_one_line_and_the_button_comes_back(app, hub: FakeHub):  # noqa: F811
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"/pull someone/Missing-GGUF", "enter")
        await pilot.pause()
        text = await _finish_pull(app, pilot)
        assert not app.screen.query_one("#pull-progress", ProgressBar).display
        assert not app.screen.query_one("#pull-button", Button).disabled

    assert "someone/Missing-GGUF: not found" in text and "\n" not in text.strip()


async def test_download_box_on_the_model_screen(app, hub: FakeHub, tmp_path: Path):  # noqa: F811
    hub.add(REPO, {"model-Q4_K_M.gguf": DATA})
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"/model", "enter")
        await pilot.pause()
        assert str(app.screen.query_one("#pull-status", Static).render()) == ""
        app.screen.query_one("#pull-name", Input).value = REPO
        await pilot.click("#pull-button")
        text = await _finish_pull(app, pilot)

        assert "pulled" in text
        app.screen.query_one("#pull-name", Input).value = REPO  # again: nothing to download
        await pilot.click("#pull-button")
        again = await _finish_pull(app, pilot)

    assert again.startswith("already present") and len(hub.gets("/blobs/")) == 1


async def test_pull_without_a_name_explains_usage(app):
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"/pull", "enter")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]
        assert any("Usage: /pull NAME" in str(n.message) for n in app._notifications)
