"""F1: the keys of the app, on one screen (Esc, F1 or q closes it)."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["KeysHelpScreen", "KEYS"]

KEYS: list[tuple[str, str]] = [
    ("Enter", "Send the goal, answer or note"),
    ("Alt+Enter / Ctrl+J / Shift+Enter", "New line in the input (Shift+Enter only where the terminal reports it)"),
    ("Up / Down", "Older / newer input (on the first / last line)"),
    ("/", "Commands: type / then Tab to complete; /help lists them"),
    ("@", "Mention a workspace file: @no then Tab completes @notes.md"),
    ("Tab", "Take the highlighted completion (Up/Down choose, Esc closes)"),
    ("Esc", "Stop the running task (it pauses and can be resumed)"),
    ("Ctrl+T", "Tasks: open, resume, undo, export"),
    ("Ctrl+N", "New task (clears the transcript)"),
    ("Ctrl+P", "Command palette"),
    ("F1", "This help"),
    ("F2 / F3", "Model / Settings"),
    ("Approval dialog", "Type a note; y / t / n decide while it is empty (Alt+y/t/n always); Enter does the default"),
    ("Ctrl+Q", "Quit (asks first while a task runs; the task is checkpointed)"),
]
"""(key, what it does), in the order shown."""


class KeysHelpScreen(ModalScreen[None]):
    """The keys table; dismisses with None."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("f1", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    DEFAULT_CSS = """
    KeysHelpScreen { align: center middle; }
    KeysHelpScreen > VerticalScroll { width: 90%; max-width: 110; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        table = Table(title="Keys (Esc closes)", show_header=False, box=None, expand=True, padding=(0, 1))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, doc in KEYS:
            table.add_row(key, doc)
        with VerticalScroll():
            yield Static(table, id="keys-table")

    def action_close(self) -> None:
        self.dismiss(None)
