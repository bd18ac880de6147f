"""SVG snapshots (pytest-textual-snapshot) of the main screen, the approval
modal with a diff, a paused task and the tasks screen.

Pinned for stability: terminal size, TZ=UTC, NO_COLOR, task ids, the store's
clock, the tasks screen's clock, the input cursor (no blink), the tool set
(file tools only) and the context size (so "ctx %" is 0). Update with ``--snapshot-update`` after a
deliberate UI change and review the SVG diff.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.widgets import Input

pytest.importorskip("pytest_textual_snapshot")

from model.scripted import ScriptedChatModel  # noqa: E402
from assistant.tui.screens import ApprovalScreen, TasksScreen  # noqa: E402
from assistant.tui.widgets import StatusBar  # noqa: E402
from test_tui_support import OVERWRITE_SCRIPT, QUESTION_SCRIPT, call, make_app, until  # noqa: E402

SIZE = (100, 30)
T0 = 1_767_225_600.0  # 2026-01-01 00:00:00 UTC

MAIN_SCRIPT = [
    "<think>\nI should write the list first.\n</think>\n"
    + call("write_file", path="todo.md", content="- buy milk\n- call Ana\n"),
    "I wrote **todo.md** with two items:\n\n```markdown\n- buy milk\n- call Ana\n```\n\nAnything else?",
]


def scripted(outputs: list[str]) -> ScriptedChatModel:
    """A scripted model with a context so large that "ctx %" stays 0 whatever
    the tool schemas weigh (they change as tools evolve)."""
    return ScriptedChatModel(outputs, context_size=10_000_000)


@pytest.fixture(autouse=True)
def pinned(tmp_path, monkeypatch):
    """Pin everything that could differ between runs."""
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    ids = (f"task{n:04d}" for n in itertools.count(1))
    monkeypatch.setattr("assistant.loop.agent.new_task_id", lambda: next(ids))
    monkeypatch.setattr("assistant.state.store.time", SimpleNamespace(time=lambda: T0))


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("old text\nkept line\n", encoding="utf-8")
    return ws


def goal(text: str, done):
    async def run_before(pilot) -> None:
        pilot.app.query_one("#prompt").cursor_blink = False  # a blinking cursor differs run to run
        await pilot.press(*text, "enter")
        await until(pilot, lambda: done(pilot.app))
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    return run_before


def test_main_screen_after_a_finished_task(snap_compare, tmp_path, workspace):
    app = make_app(tmp_path / "home", workspace, scripted(MAIN_SCRIPT), files_only=True)
    done = goal("make a todo list", lambda a: a.query_one(StatusBar).status == "finished")
    assert snap_compare(app, terminal_size=SIZE, run_before=done)


def test_approval_modal_shows_the_diff(snap_compare, tmp_path, workspace):
    script = [OVERWRITE_SCRIPT[0].replace("new text", "new text\nkept line\n"), OVERWRITE_SCRIPT[1]]
    app = make_app(tmp_path / "home", workspace, scripted(script), files_only=True)
    done = goal("tidy notes", lambda a: isinstance(a.screen, ApprovalScreen))
    assert snap_compare(app, terminal_size=SIZE, run_before=done)


def test_task_paused_for_a_question(snap_compare, tmp_path, workspace):
    app = make_app(tmp_path / "home", workspace, scripted(QUESTION_SCRIPT), files_only=True)
    done = goal("make a title", lambda a: a.pause is not None and not a.running)
    assert snap_compare(app, terminal_size=SIZE, run_before=done)


def test_tasks_screen(snap_compare, tmp_path, workspace):
    app = make_app(tmp_path / "home", workspace, scripted(QUESTION_SCRIPT), now=T0 + 300, files_only=True)

    async def run_before(pilot) -> None:
        await goal("make a title", lambda a: a.pause is not None and not a.running)(pilot)
        await pilot.press("ctrl+t")
        await until(pilot, lambda: isinstance(pilot.app.screen, TasksScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_approval_modal_with_a_note_typed(snap_compare, tmp_path, workspace):
    app = make_app(tmp_path / "home", workspace, scripted(OVERWRITE_SCRIPT), files_only=True)

    async def run_before(pilot) -> None:
        await goal("tidy notes", lambda a: isinstance(a.screen, ApprovalScreen))(pilot)
        await pilot.press(*"Keep the old text.")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_model_screen_lists_found_models(snap_compare, tmp_path, workspace, monkeypatch):
    from assistant.tui.screens.model import ModelScreen

    user = tmp_path / "user"
    snap = user / ".cache/huggingface/hub/models--acme--tiny-GGUF/snapshots/abc123"
    snap.mkdir(parents=True)
    (snap / "tiny-Q4_K_M.gguf").write_bytes(b"not really a gguf")
    (user / ".lmstudio/models/acme/other-GGUF").mkdir(parents=True)
    (user / ".lmstudio/models/acme/other-GGUF/other-Q8_0.gguf").write_bytes(b"nope")
    monkeypatch.setenv("HOME", str(user))
    for var in ("HF_HOME", "HF_HUB_CACHE", "XDG_CACHE_HOME", "OLLAMA_MODELS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(ModelScreen, "_check", lambda self: None)  # the health check's lines vary by machine
    monkeypatch.setattr("model.discover._demo", lambda: iter(()))  # whether the demo package is installed varies
    app = make_app(tmp_path / "home", workspace, scripted(["Hello."]), files_only=True)

    async def run_before(pilot) -> None:
        await pilot.press("f2")
        await until(pilot, lambda: isinstance(pilot.app.screen, ModelScreen) and bool(pilot.app.screen.found))
        await pilot.pause()

    assert snap_compare(app, terminal_size=(110, 40), run_before=run_before)


def test_delete_approval_shows_the_file(snap_compare, tmp_path, workspace):
    app = make_app(tmp_path / "home", workspace, scripted([call("delete", path="notes.txt"), "Deleted."]),
                   files_only=True)
    done = goal("remove the notes", lambda a: isinstance(a.screen, ApprovalScreen))
    assert snap_compare(app, terminal_size=SIZE, run_before=done)


def test_f1_keys_help_over_a_multi_line_input(snap_compare, tmp_path, workspace):
    app = make_app(tmp_path / "home", workspace, scripted(["Done."]), files_only=True)

    async def run_before(pilot) -> None:
        pilot.app.query_one("#prompt").cursor_blink = False
        await pilot.press(*"first line", "ctrl+j", *"see @no")
        await pilot.pause()
        await pilot.press("f1")
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "KeysHelpScreen")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
