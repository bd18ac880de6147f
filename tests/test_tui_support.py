"""Shared helpers for the TUI tests (no tests here): scripted tasks and an app factory."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from assistant.config import Settings
from model.scripted import ScriptedChatModel
from assistant.state import Store
from model.types import ParsedTurn, TurnOutput
from agent_helpers import call


OVERWRITE_SCRIPT = [
    "<think>\nThe file exists; I will replace its text.\n</think>\n" + call("write_file", path="notes.txt", content="new text"),
    "I replaced the text of notes.txt.",
]
DENIED_SCRIPT = [OVERWRITE_SCRIPT[0], "I left notes.txt as it was, as you asked."]  # true after a deny
QUESTION_SCRIPT = [
    call("ask_human", question="Which colour should the title be?"),
    "The title will be **blue**.",
]


class BlockingModel(ScriptedChatModel):
    """A scripted model whose turns wait until cancelled (for Esc tests).

    ``started`` is set when a generation begins.
    """

    def __init__(self) -> None:
        super().__init__(["never used"], name="blocking")
        self.started = threading.Event()

    def complete(self, messages, tools, *, on_delta=None, cancel=None, **kw) -> TurnOutput:
        self.started.set()
        if on_delta is not None:
            on_delta("content", "Working on it")
        if cancel is not None:
            cancel.wait(30)
        return TurnOutput(parsed=ParsedTurn(), stop_reason="cancelled")


def make_app(home: Path, workspace: Path, model: Any, *, now: float | None = None, config: Settings | None = None,
             files_only: bool = False):
    """An AssistantApp over ``model`` with its own store under ``home``
    (``files_only``: just the file tools and ask_human, for stable snapshots)."""
    from assistant.tui.app import AssistantApp
    from assistant.tui.loading import default_agent_factory

    store = Store(home / "state" / "tasks.db")
    config = config or Settings()
    if files_only:
        from tools.files import FILE_TOOLS

        factory = default_agent_factory(config, store, plugins=False, builtins=False, extra_tools=tuple(FILE_TOOLS))
    else:
        factory = default_agent_factory(config, store, plugins=False)
    kw = {"now": (lambda: now)} if now is not None else {}
    return AssistantApp(config, model=model, agent_factory=factory, store=store, workspace=workspace, **kw)


async def until(pilot, condition, tries: int = 400) -> None:
    """Let the app run until ``condition()`` holds (bounded by iterations, not time)."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition never held")
