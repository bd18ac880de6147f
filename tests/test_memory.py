"""Bundled plugin `memory`: facts in a user-editable Markdown file, in the system prompt under a cap."""

from __future__ import annotations

import pytest

from plugins.api import PluginAPI
from plugins.bundled import memory
from plugins.bundled.memory import parse_facts, render_prompt
from tools.base import ToolContext


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def make(config=None):
    api = PluginAPI("memory", config or {})
    memory.register(api)
    plugin = api.build()
    tools = {t.name: t for t in plugin.tools}

    def call(name, **args):
        t = tools[name]
        return t.invoke(ToolContext(), t.validate(args))

    return call, plugin


def test_add_creates_an_editable_markdown_file_in_the_config_dir(home):
    call, _ = make()
    assert not call("memory_add", fact="Prefers  metric units").error
    text = (home / "config" / "memory.md").read_text()
    assert text.startswith("# Memory") and text.endswith("- Prefers metric units\n")
    assert "already remembered" in call("memory_add", fact="prefers metric units").text
    assert parse_facts((home / "config" / "memory.md").read_text()) == ["Prefers metric units"]


def test_list_includes_facts_the_user_typed_by_hand(home):
    call, _ = make()
    call("memory_add", fact="Lives in Lyon")
    path = home / "config" / "memory.md"
    path.write_text(path.read_text() + "\nSome note of mine, not a fact.\n* Drinks tea, no sugar\n")
    out = call("memory_list")
    assert out.text == "1. Lives in Lyon\n2. Drinks tea, no sugar"


def test_forget_by_number_or_text_keeps_everything_else(home):
    call, _ = make()
    for f in ("Lives in Lyon", "Has a cat named Miso", "Allergic to peanuts"):
        call("memory_add", fact=f)
    path = home / "config" / "memory.md"
    path.write_text(path.read_text() + "\n## My own heading\n")
    assert call("memory_forget", match="2").text == "forgot: Has a cat named Miso"
    assert call("memory_forget", match="PEANUT").text == "forgot: Allergic to peanuts"
    text = path.read_text()
    assert parse_facts(text) == ["Lives in Lyon"]
    assert "## My own heading" in text and text.startswith("# Memory")


def test_forget_with_no_match_changes_nothing(home):
    call, _ = make()
    call("memory_add", fact="Lives in Lyon")
    before = (home / "config" / "memory.md").read_text()
    out = call("memory_forget", match="Paris")
    assert out.error and "memory_list" in out.text
    out = call("memory_forget", match="7")
    assert out.error and "no fact number 7" in out.text
    assert (home / "config" / "memory.md").read_text() == before


def test_system_prompt_carries_the_facts(home):
    call, plugin = make()
    assert plugin.system_prompt(ToolContext()) == ""
    call("memory_add", fact="Name is Ada")
    prompt = plugin.system_prompt(ToolContext())
    assert "- Name is Ada" in prompt and "remember" in prompt


def test_system_prompt_respects_the_size_cap(home):
    call, plugin = make({"max_prompt_chars": 40})
    for i in range(10):
        call("memory_add", fact=f"fact number {i}")
    prompt = plugin.system_prompt(ToolContext())
    shown = [ln for ln in prompt.splitlines() if ln.startswith("- ")]
    assert shown == ["- fact number 0", "- fact number 1"]
    assert sum(len(s) + 1 for s in shown) <= 40
    assert "8 more facts not shown" in prompt


def test_render_prompt_edge_cases():
    assert render_prompt([], 100) == ""
    assert render_prompt(["x"], 0) == ""
    assert render_prompt(["a very long fact indeed"], 5) == ""


def test_configured_path(tmp_path):
    target = tmp_path / "elsewhere" / "facts.md"
    call, _ = make({"path": str(target)})
    call("memory_add", fact="Works nights")
    assert parse_facts(target.read_text()) == ["Works nights"]


def test_bundled_memory_never_writes_into_the_workspace(tmp_path, home):
    from sandbox import Workspace

    root = tmp_path / "ws"
    root.mkdir()
    api = PluginAPI("memory", {})
    memory.register(api)
    t = {x.name: x for x in api.build().tools}["memory_add"]
    t.invoke(ToolContext(workspace=Workspace(root)), t.validate({"fact": "x fact"}))
    assert list(root.iterdir()) == []
    assert (home / "config" / "memory.md").exists()
