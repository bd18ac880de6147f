"""Bundled plugin `notes`: add, search, list Markdown notes."""

from __future__ import annotations

import pytest

from plugins.api import PluginAPI
from plugins.bundled import notes
from sandbox import Workspace
from tools.base import ToolContext


def make_tools(config=None):
    api = PluginAPI("notes", config or {})
    notes.register(api)
    plugin = api.build()
    return {t.name: t for t in plugin.tools}, plugin


def call(tools, ctx, name, **args):
    t = tools[name]
    return t.invoke(ctx, t.validate(args))


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    changes = []
    w = Workspace(root, on_change=changes.append)
    w.changes = changes
    return w


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_add_writes_a_markdown_note_through_the_workspace(ws):
    tools, _ = make_tools()
    out = call(tools, ToolContext(workspace=ws), "note_add", title="Trip to Oslo!", body="Book the ferry.")
    assert not out.error, out.text
    assert (ws.root / "notes" / "trip-to-oslo.md").read_text() == "# Trip to Oslo!\n\nBook the ferry.\n"
    assert ws.changes, "the write must go through the workspace (journaled for undo)"


def test_adding_to_an_existing_title_appends_and_keeps_the_old_text(ws):
    tools, _ = make_tools()
    ctx = ToolContext(workspace=ws)
    call(tools, ctx, "note_add", title="Groceries", body="- milk")
    out = call(tools, ctx, "note_add", title="groceries", body="- eggs")
    assert "appended" in out.text
    text = (ws.root / "notes" / "groceries.md").read_text()
    assert text.startswith("# Groceries\n\n- milk\n") and text.rstrip().endswith("- eggs")
    assert "\n## " in text


def test_search_needs_every_word_and_returns_matching_lines(ws):
    tools, _ = make_tools()
    ctx = ToolContext(workspace=ws)
    call(tools, ctx, "note_add", title="Garden", body="Plant tomatoes in May.\nWater the roses.")
    call(tools, ctx, "note_add", title="Kitchen", body="Tomatoes soup recipe.")
    out = call(tools, ctx, "note_search", query="tomatoes may")
    assert out.text == "garden.md: Plant tomatoes in May."
    out = call(tools, ctx, "note_search", query="TOMATOES")
    assert sorted(out.text.splitlines()) == ["garden.md: Plant tomatoes in May.", "kitchen.md: Tomatoes soup recipe."]
    assert "no notes match" in call(tools, ctx, "note_search", query="zucchini").text
    assert "no notes match" in call(tools, ctx, "note_search", query="zucchini pumpkin").text


def test_a_search_no_note_fully_matches_shows_the_lines_with_most_of_its_words(ws):
    """note_search at 21c8a9e: Qwen 1.5B searched "name:plumber phone:1234567890", was told no note matches, and
    never read the note "Plumber: Jonas Berg, phone 0170 555 0199"."""
    tools, _ = make_tools()
    ctx = ToolContext(workspace=ws)
    call(tools, ctx, "note_add", title="House", body="Plumber: Jonas Berg, phone 0170 555 0199\nSpare key: Lena.")
    call(tools, ctx, "note_add", title="Car", body="Mechanic phone 0170 555 0100.")
    out = call(tools, ctx, "note_search", query="name:plumber phone:1234567890")
    assert out.text.splitlines() == ["house.md: Plumber: Jonas Berg, phone 0170 555 0199",
                                     "car.md: Mechanic phone 0170 555 0100.",
                                     "(the closest lines: each holds some of the words of 'name:plumber "
                                     "phone:1234567890', none all of them)"]
    assert out.data == {"matches": 0, "partial": 2, "best": 1}  # the plumber's line holds two of the words


def test_list_shows_titles_and_empty_folder_says_so(ws):
    tools, _ = make_tools()
    ctx = ToolContext(workspace=ws)
    assert "no notes yet" in call(tools, ctx, "note_list").text
    call(tools, ctx, "note_add", title="B note", body="x")
    call(tools, ctx, "note_add", title="A note", body="y")
    assert call(tools, ctx, "note_list").text == "a-note.md: A note\nb-note.md: B note"


def test_title_cannot_escape_the_notes_folder(ws):
    tools, _ = make_tools()
    call(tools, ToolContext(workspace=ws), "note_add", title="../../etc/passwd", body="x")
    assert [p.name for p in (ws.root / "notes").iterdir()] == ["etc-passwd.md"]


def test_configured_folder_outside_the_workspace(ws, tmp_path):
    outside = tmp_path / "my-notes"
    tools, _ = make_tools({"dir": str(outside)})
    call(tools, ToolContext(workspace=ws), "note_add", title="Idea", body="text")
    assert (outside / "idea.md").read_text() == "# Idea\n\ntext\n"
    assert not (ws.root / "notes").exists()


def test_without_a_workspace_notes_go_to_the_data_dir(home):
    tools, _ = make_tools()
    call(tools, ToolContext(), "note_add", title="Loose", body="text")
    assert (home / "data" / "notes" / "loose.md").exists()


def test_slash_command_lists_or_searches(ws):
    tools, plugin = make_tools()
    ctx = ToolContext(workspace=ws)
    call(tools, ctx, "note_add", title="Garden", body="roses")
    assert plugin.slash_commands["notes"](ctx, "") == "garden.md: Garden"
    assert plugin.slash_commands["notes"](ctx, "roses") == "garden.md: roses"
