"""The approval modal: what a call would do (arguments, unified diff) and the
choice to approve it once, approve its risk class for the task, or deny it with
a note to the model.

The note field has the focus and takes every printable key: the decision keys
y / t / n decide only while the note is empty (Alt+y / Alt+t / Alt+n always),
so typing a note never approves or denies by accident. Enter in the note field
does what the hint under it says: approve once while the note is empty, deny
with the note once there is one."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich.syntax import Syntax
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

__all__ = ["ApprovalScreen", "ApprovalDecision", "NoteInput", "DECISION_KEYS"]

DECISION_KEYS = {"y": "once", "t": "task", "n": "deny"}
"""Keys that decide while the note is empty (with Alt: at any time)."""

_HINT_EMPTY = "Enter or y: approve once · t: approve for this task · n: deny · Esc: later"
_HINT_NOTE = "Enter: deny with this note · Alt+y: approve once · Alt+t: for this task · Esc: later"


@dataclass
class ApprovalDecision:
    """The user's answer: ``choice`` "once" | "task" | "deny"; ``note`` for the model ("" none)."""

    choice: str
    note: str = ""


class NoteInput(Input):
    """The note field: every printable key is text, except a decision key
    (:data:`DECISION_KEYS`) typed while the field is empty, which posts
    :class:`NoteInput.Decided` instead."""

    class Decided(Message):
        """A decision key was typed in the empty note field (``choice``: "once" | "task" | "deny")."""

        def __init__(self, choice: str) -> None:
            super().__init__()
            self.choice = choice

    async def _on_key(self, event: events.Key) -> None:
        choice = DECISION_KEYS.get(event.character or "") if not self.value else None
        if choice is not None:
            event.stop()
            event.prevent_default()
            self.post_message(self.Decided(choice))  # prevent_default: Input's own handler is skipped


class ApprovalScreen(ModalScreen[ApprovalDecision | None]):
    """Asks the user about one call. Dismisses with an :class:`ApprovalDecision`,
    or None when closed with Esc (the task stays paused; ``/approve`` reopens).

    Args:
        call: ``{"id", "name", "arguments"}``.
        risk: the risk class value ("write", "destructive", "exec", ...).
        diff: unified diff of the change (None: no preview available).
        reason: the pause reason, shown under the title.
        detail: what the call would remove or change, in words (a delete's
            file, size and first lines; None: nothing to add).
    """

    BINDINGS = [
        Binding("y", "decide('once')", "Approve once"),
        Binding("t", "decide('task')", "Approve for task"),
        Binding("n", "decide('deny')", "Deny"),
        Binding("alt+y", "decide('once')", "Approve once", show=False),
        Binding("alt+t", "decide('task')", "Approve for task", show=False),
        Binding("alt+n", "decide('deny')", "Deny", show=False),
        Binding("escape", "close", "Later"),
    ]

    DEFAULT_CSS = """
    ApprovalScreen { align: center middle; }
    ApprovalScreen > Vertical { width: 90%; max-width: 110; height: auto; max-height: 90%;
        border: thick $warning; background: $surface; padding: 0 1; }
    ApprovalScreen #approval-title { text-style: bold; color: $warning; }
    ApprovalScreen #approval-diff { height: auto; max-height: 18; border: round $primary; }
    ApprovalScreen #approval-args { color: $text-muted; }
    ApprovalScreen #approval-detail { border: round $error; max-height: 10; }
    ApprovalScreen Horizontal { height: auto; margin-top: 1; }
    ApprovalScreen Button { margin-right: 1; }
    ApprovalScreen Input { margin-top: 1; }
    ApprovalScreen #approval-hint { color: $text-muted; }
    """

    def __init__(self, call: dict[str, Any], risk: str, diff: str | None = None, reason: str = "",
                 detail: str | None = None) -> None:
        super().__init__()
        self.call = call
        self.risk = risk
        self.diff = diff
        self.reason = reason
        self.detail = detail

    def compose(self) -> ComposeResult:
        name = self.call.get("name", "?")
        with Vertical():
            yield Static(f"Approve {name}? ({self.risk})", id="approval-title")
            if self.reason:
                yield Static(Text(self.reason))
            args = {k: v for k, v in (self.call.get("arguments") or {}).items()
                    if not (self.diff and k in ("content", "new_text", "old_text"))}
            if args:
                yield Static(Text(json.dumps(args, ensure_ascii=False, indent=1)[:800]), id="approval-args")
            if self.detail:
                yield Static(Text(self.detail), id="approval-detail")
            if self.diff:
                with VerticalScroll(id="approval-diff"):
                    yield Static(Syntax(self.diff, "diff", theme="ansi_dark", word_wrap=True))
            elif self.diff == "":
                yield Static(Text("(the change would leave the file as it is)", style="italic"))
            yield NoteInput(placeholder="Note to the model if you deny (optional)", id="approval-note")
            yield Static(_HINT_EMPTY, id="approval-hint")
            with Horizontal():
                yield Button("Approve once (y)", variant="success", id="once")
                yield Button("Approve for this task (t)", variant="primary", id="task")
                yield Button("Deny (n)", variant="error", id="deny")

    def on_mount(self) -> None:
        self.query_one("#approval-note", NoteInput).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_one("#approval-hint", Static).update(_HINT_NOTE if event.value.strip() else _HINT_EMPTY)

    def on_note_input_decided(self, event: NoteInput.Decided) -> None:
        event.stop()
        self.action_decide(event.choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_decide(event.button.id or "deny")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the note field: the default the hint shows."""
        event.stop()
        self.action_decide("deny" if event.value.strip() else "once")

    def action_decide(self, choice: str) -> None:
        """Dismiss with ``choice`` and the typed note."""
        note = self.query_one("#approval-note", Input).value.strip()
        self.dismiss(ApprovalDecision(choice, note))

    def action_close(self) -> None:
        self.dismiss(None)
