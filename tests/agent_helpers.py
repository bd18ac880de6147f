"""Helpers shared by the agent-loop tests: model output that calls a tool, and an
agent driven by a scripted model (like vibe's FakeBackend)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, NamedTuple

from assistant.config import load_config
from assistant.loop.agent import Agent
from assistant.state.store import Store
from model.scripted import ScriptedChatModel
from tools.base import Tool, ToolRegistry


def call(name: str, **args: Any) -> str:
    """A tool call as the model writes it in the default xml format."""
    params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in args.items())
    return f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>"


class ScriptedRun(NamedTuple):
    """What :func:`scripted_agent` built: run ``agent.run(goal, workspace=ws)``."""

    agent: Agent
    model: ScriptedChatModel
    ws: Path
    store: Store


def scripted_agent(tmp_path: Path, outputs: list[str] | ScriptedChatModel, tools: Iterable[Tool] | None = None,
                   *, db: Path | None = None, **agent_settings: Any) -> ScriptedRun:
    """An :class:`Agent` whose model replays ``outputs`` (or is the given scripted model).

    The workspace is a new ``tmp_path / "ws"``; the store is ``db`` (default
    ``tmp_path / "t.db"``); the state folder is ``tmp_path / "state"``; tools are the
    file tools unless given; ``agent_settings`` are ``[agent]`` config overrides
    (e.g. ``approve="all"``). The caller closes ``store``.
    """
    if tools is None:
        from tools.files import FILE_TOOLS

        tools = FILE_TOOLS
    ws = tmp_path / "ws"
    ws.mkdir()
    store = Store(db or tmp_path / "t.db")
    model = outputs if isinstance(outputs, ScriptedChatModel) else ScriptedChatModel(list(outputs))
    agent = Agent(model, ToolRegistry(list(tools)), store, settings=load_config(overrides={"agent": agent_settings}),
                  state_dir=tmp_path / "state")
    return ScriptedRun(agent, model, ws, store)



def workbook(path: Path, sheets: dict[str, list[list[Any]]]) -> None:
    """Write an .xlsx at ``path`` with one sheet per key, in order (the bench kit's ``make_xlsx``)."""
    import sys

    from assistant.bench_runner import DEFAULT_TASKS_DIR

    if str(DEFAULT_TASKS_DIR) not in sys.path:
        sys.path.insert(0, str(DEFAULT_TASKS_DIR))
    from _kit import make_xlsx

    make_xlsx(path, sheets)
