"""Plugins wired into the app: their system prompts reach the model, their slash commands run in the TUI."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.loop.agent import Agent
from assistant.config import load_config
from assistant.loop.prompt import PLUGIN_HEADING, PLUGIN_PROMPT_CHARS, plugin_prompt
from model.scripted import ScriptedChatModel
from assistant.state.store import Store
from assistant.toolset import build_toolset
from assistant.tui.commands import COMMANDS, plugin_commands, run_plugin_command
from plugins.api import Plugin
from tools.base import ToolContext
from agent_helpers import call


class RecordingModel(ScriptedChatModel):
    """A scripted model that keeps the messages of every call."""

    def __init__(self, outputs: list[str]) -> None:
        super().__init__(outputs)
        self.seen: list[list] = []

    def complete(self, messages, tools, **kw):
        self.seen.append(list(messages))
        return super().complete(messages, tools, **kw)


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


def remember(settings, fact: str) -> None:
    """Add a fact through the memory plugin's own tool, as the agent would."""
    toolset = build_toolset(settings, builtins=False, mcp=False)
    tool = toolset.registry.get("memory_add")
    tool.invoke(ToolContext(config=settings.tool_config()), tool.params(fact=fact))


def run_agent(settings, model, workspace: Path, tmp_path: Path, goal: str = "say hi"):
    toolset = build_toolset(settings, builtins=False, mcp=False)
    agent = Agent(model, toolset.registry, Store(tmp_path / "tasks.db"), settings=settings,
                  state_dir=tmp_path / "state", with_format=True, plugins=toolset.plugins)
    try:
        return list(agent.run(goal, workspace=workspace, approve="all"))
    finally:
        agent.close()
        toolset.close()


def test_toolset_keeps_the_loaded_plugins(assistant_home):
    toolset = build_toolset(load_config(None), builtins=False, mcp=False)
    assert {"notes", "calendar", "memory"} <= {p.name for p in toolset.plugins}
    assert build_toolset(load_config(None), builtins=False, plugins=False, mcp=False).plugins == []


def test_a_remembered_fact_reaches_the_system_prompt_after_the_rules(assistant_home, workspace, tmp_path):
    settings = load_config(None)
    remember(settings, "The user's name is Ada and she prefers metric units")
    model = RecordingModel(["Hello Ada."])
    events = run_agent(settings, model, workspace, tmp_path)
    assert events[-1].status == "finished"
    system = model.seen[0][0]
    assert system.role == "system"
    assert "The user's name is Ada and she prefers metric units" in system.content
    assert system.content.index("Rules:") < system.content.index(PLUGIN_HEADING)
    assert system.content.index(PLUGIN_HEADING) < system.content.index("The user's name is Ada")


def test_the_prompt_stays_the_same_within_a_run_even_when_memory_changes(assistant_home, workspace, tmp_path):
    settings = load_config(None)
    remember(settings, "Works in Lisbon")
    model = RecordingModel([call("memory_add", fact="Drinks green tea"), "Noted."])
    events = run_agent(settings, model, workspace, tmp_path, goal="remember that I drink green tea")
    assert events[-1].status == "finished"
    assert len(model.seen) == 2
    first, second = model.seen[0][0].content, model.seen[1][0].content
    assert first == second  # a stable prefix for the KV cache
    assert "Works in Lisbon" in first and "green tea" not in first
    assert "Drinks green tea" in (assistant_home / "config" / "memory.md").read_text()
    # the next task sees the new fact
    later = RecordingModel(["ok"])
    run_agent(settings, later, workspace, tmp_path)
    assert "Drinks green tea" in later.seen[0][0].content


def test_plugin_text_is_capped_in_total_and_bad_plugins_are_skipped():
    def boom(ctx):
        raise RuntimeError("broken")

    plugins = [Plugin(name="a", system_prompt=lambda ctx: "\n".join(f"- fact number {i}" for i in range(200))),
               Plugin(name="b", system_prompt=boom), Plugin(name="c", system_prompt=lambda ctx: "")]
    text = plugin_prompt(plugins, None)
    assert text.startswith(PLUGIN_HEADING) and len(text) <= PLUGIN_PROMPT_CHARS
    assert text.endswith("…") and "- fact number 0" in text and "broken" not in text
    assert plugin_prompt([Plugin(name="c", system_prompt=lambda ctx: "  ")], None) == ""
    assert plugin_prompt([], None) == ""


def test_plugin_text_is_computed_once_per_context():
    calls = []
    plugin = Plugin(name="a", system_prompt=lambda ctx: calls.append(1) or f"call {len(calls)}")
    ctx = ToolContext()
    assert plugin_prompt([plugin], ctx) == plugin_prompt([plugin], ctx) == PLUGIN_HEADING + "\ncall 1"
    assert len(calls) == 1


# -- slash commands ----------------------------------------------------------------------
def _plugin(name: str, commands: dict, helps: dict | None = None) -> Plugin:
    return Plugin(name=name, slash_commands=commands, slash_help=helps or {})


def test_dispatcher_passes_the_raw_argument_and_returns_the_text():
    seen = []

    def echo(ctx, arg):
        seen.append((ctx, arg))
        return f"echo: {arg}"

    ctx = ToolContext(task_id="t1")
    plugins = [_plugin("p", {"echo": echo}, {"echo": "repeat"})]
    assert run_plugin_command(plugins, '/echo  a "quoted" b  ', ctx) == 'echo: a "quoted" b'
    assert seen == [(ctx, 'a "quoted" b')]
    assert run_plugin_command(plugins, "/ECHO", ctx) == "echo: "
    assert run_plugin_command(plugins, "/nothing here", ctx) is None


def test_dispatcher_reports_a_failing_command_and_builtins_win():
    def bad(ctx, arg):
        raise ValueError("no such\ncalendar")

    plugins = [_plugin("p", {"bad": bad, "help": lambda c, a: "hijack"}),
               _plugin("q", {"bad": lambda c, a: "second"})]
    text = run_plugin_command(plugins, "/bad", ToolContext())
    assert text == "/bad failed (p plugin): ValueError: no such calendar"
    assert "/help" in COMMANDS and "/help" not in plugin_commands(plugins)
    assert plugin_commands(plugins)["/bad"][2] == "p"  # the first plugin keeps the name


@pytest.mark.anyio
async def test_tui_runs_plugin_commands_and_lists_them_in_help(assistant_home, workspace):
    pytest.importorskip("textual")
    from test_tui_support import make_app

    from assistant.tui.widgets import NoticeLine

    remember(load_config(None), "Allergic to peanuts")
    app = make_app(assistant_home, workspace, ScriptedChatModel(["Hello."]))

    def notices() -> list[str]:
        return [str(n.render()) for n in app.query(NoticeLine)]

    async with app.run_test(size=(100, 32)) as pilot:
        for line in ("/help", "/memory", "/notes"):
            await pilot.press(*line)
            await pilot.press("enter")
        for _ in range(200):
            if len(notices()) >= 3:
                break
            await pilot.pause(0.02)
        texts = notices()
    help_text = next(t for t in texts if "/resume" in t)
    assert "Plugin commands:" in help_text and "/memory" in help_text and "[memory]" in help_text
    assert any("Allergic to peanuts" in t and "memory.md" in t for t in texts)
    assert any(t.startswith("no notes yet") for t in texts)  # /notes with no argument lists the notes
