"""What is for the model stays with the model: untrusted-content markers, format
corrections, and the wording of the pause panels."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from textual.app import App, ComposeResult  # noqa: E402

from assistant.tui.handler import FORMAT_ERROR_SUMMARY  # noqa: E402
from assistant.tui.widgets import HandOffPanel, NoticeLine, ToolCallCard  # noqa: E402
from model.scripted import ScriptedChatModel  # noqa: E402
from test_tui_support import make_app, until  # noqa: E402
from tools.untrusted import fence, new_marker  # noqa: E402

pytestmark = pytest.mark.anyio


class Holder(App):
    def __init__(self, *widgets) -> None:
        super().__init__()
        self.widgets = widgets

    def compose(self) -> ComposeResult:
        yield from self.widgets


async def test_tool_cards_hide_the_untrusted_markers():
    result = fence("Meeting at 10.\nBring the report.", new_marker(), "notes.txt")
    assert "<<UNTRUSTED" in result
    card = ToolCallCard({"id": "c1", "name": "read_file", "arguments": {"path": "notes.txt"}}, "read")
    async with Holder(card).run_test() as pilot:
        card.finish(result)
        await pilot.pause()
        shown = str(card._result_view.render())
        assert "Meeting at 10.\nBring the report." in shown
        assert "UNTRUSTED" not in shown and "not from the user" not in shown
        assert "Meeting at 10." in str(card.title) and "UNTRUSTED" not in str(card.title)
    assert card.result == result  # what the model saw is kept as it was


async def test_a_format_error_shows_a_human_summary(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    ws = tmp_path / "ws"
    ws.mkdir()
    script = ["<tool_call>\n<function=read_file>\n<parameter=nope>", "All done."]
    app = make_app(tmp_path / "home", ws, ScriptedChatModel(script))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(*"do it", "enter")
        await until(pilot, lambda: app.query_one("#status").status == "finished")
        notes = [str(n.render()) for n in app.query(NoticeLine)]
    assert FORMAT_ERROR_SUMMARY in notes
    assert not any("Format error" in n for n in notes)


@pytest.mark.parametrize(("kind", "reason", "shown", "hidden"), [
    ("cancelled", "stopped by the user", "Continue picks up where it stopped", "stopped by the user"),
    ("budget", "step budget reached (3). Progress: deleted a.txt (moved to the trash; undo can restore it).. "
     "Extend the budget or stop?", "restore it). Extend", "restore it).."),
])
async def test_pause_panel_wording(kind, reason, shown, hidden):
    panel = HandOffPanel(kind, reason, ["continue", "stop"])
    async with Holder(panel).run_test() as pilot:
        await pilot.pause()
        text = str(panel.query_one("#handoff-reason").render())
    assert shown in text and hidden not in text



async def test_plugins_command_lists_plugins_with_state_and_tools(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    ws = tmp_path / "ws"
    ws.mkdir()
    app = make_app(tmp_path / "home", ws, ScriptedChatModel(["Hello."]))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*"/plugins", "enter")
        await until(pilot, lambda: any("Plugins and MCP servers:" in str(n.render()) for n in app.query(NoticeLine)))
        text = [str(n.render()) for n in app.query(NoticeLine) if "Plugins and MCP servers:" in str(n.render())][0]
    assert "calendar" in text and "started" in text  # a bundled plugin, its state and its tools
