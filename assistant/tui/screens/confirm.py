"""A yes/no question over the app (undo, quitting mid-task): a title, what
would happen (one line each), and y / Enter for yes, n / Esc for no."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

__all__ = ["ConfirmScreen"]


class ConfirmScreen(ModalScreen[bool]):
    """Dismisses with True (yes) or False (no, Esc).

    Args:
        title: the question, e.g. "Undo task 3f2a…?".
        lines: what yes would do, shown one per line (at most ``max_lines``,
            then "… and N more").
        yes: the yes button's label; no: the no button's label.
    """

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("enter", "answer(True)", "Yes", show=False),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 80%; max-width: 100; height: auto; max-height: 80%;
        border: thick $warning; background: $surface; padding: 0 1; }
    ConfirmScreen #confirm-title { text-style: bold; color: $warning; }
    ConfirmScreen #confirm-lines { height: auto; max-height: 16; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 1; }
    """

    def __init__(self, title: str, lines: list[str], *, yes: str = "Yes (y)", no: str = "No (n)",
                 max_lines: int = 30) -> None:
        super().__init__()
        self.title_text = title
        shown = lines[:max_lines]
        if len(lines) > max_lines:
            shown.append(f"… and {len(lines) - max_lines} more")
        self.lines = shown
        self.labels = (yes, no)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text), id="confirm-title")
            if self.lines:
                with VerticalScroll(id="confirm-lines"):
                    yield Static(Text("\n".join(self.lines)))
            with Horizontal():
                yield Button(self.labels[0], variant="warning", id="yes")
                yield Button(self.labels[1], id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
