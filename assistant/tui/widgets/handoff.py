"""The hand-off panel: why the task waits for a human and what they can answer."""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.markup import escape
from textual.message import Message
from textual.widgets import Button, Static

__all__ = ["HandOffPanel", "CHOICE_LABELS", "TITLES"]

TITLES = {
    "question": "The assistant asks you",
    "budget": "Budget reached",
    "stuck": "The assistant seems stuck",
    "in_flight": "A change was in flight when the app stopped",
    "cancelled": "Stopped by you",
    "error": "The task hit an error",
    "approval": "Approval needed",
}

CHOICE_LABELS = {
    "once": "Approve once",
    "task": "Approve for this task",
    "deny": "Deny",
    "extend": "Extend budget",
    "stop": "Stop task",
    "continue": "Continue",
    "retry": "Retry",
}

_KIND_LABELS = {"in_flight": {"once": "Run it again", "deny": "Skip it"}}


def _reason_for_people(kind: str, reason: str) -> str:
    """The pause reason as shown: a doubled full stop (a quoted result that ended
    in one) becomes one; the stop panel says what the choices do instead of
    repeating its title."""
    if kind == "cancelled" and reason.strip().lower() in ("stopped by the user", "stopped by you"):
        return "Continue picks up where it stopped; Stop task ends it."
    return re.sub(r"(?<!\.)\.\.(?!\.)", ".", reason)


class HandOffPanel(Vertical):
    """Shown above the input while a task is paused for a human.

    Clicking a choice posts :class:`HandOffPanel.Chosen`; a free-text answer is
    typed in the main input (the placeholder says so).
    """

    DEFAULT_CSS = """
    HandOffPanel { height: auto; border: round $warning; padding: 0 1; margin: 0 1; }
    HandOffPanel #handoff-title { text-style: bold; color: $warning; }
    HandOffPanel Horizontal { height: auto; }
    HandOffPanel Button { margin: 0 1 0 0; min-width: 10; }
    """

    class Chosen(Message):
        """The user clicked ``choice`` (one of the pause's choices)."""

        def __init__(self, choice: str) -> None:
            super().__init__()
            self.choice = choice

    def __init__(self, kind: str, reason: str, choices: list[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.kind = kind
        self.reason = reason
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        yield Static(TITLES.get(self.kind, "Paused"), id="handoff-title")
        yield Static(Text(_reason_for_people(self.kind, self.reason)), id="handoff-reason")
        if self.kind == "question":
            yield Static(Text("Type your answer below and press Enter.", style="italic"))
        if self.choices:
            with Horizontal():
                for i, choice in enumerate(self.choices):
                    label = _KIND_LABELS.get(self.kind, {}).get(choice) or CHOICE_LABELS.get(choice, choice)
                    yield Button(escape(label), name=choice, id=f"choice-{i}")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Chosen(event.button.name or ""))
