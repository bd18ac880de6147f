"""The input box: one line, with a history browsed by Up / Down."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input

__all__ = ["PromptInput"]


class PromptInput(Input):
    """An :class:`Input` that remembers what was submitted.

    Up recalls older entries, Down newer ones (and finally an empty line).
    ``remember(text)`` adds an entry; consecutive duplicates are kept once.
    """

    BINDINGS = [
        Binding("up", "history(-1)", "Older", show=False),
        Binding("down", "history(1)", "Newer", show=False),
    ]

    DEFAULT_CSS = """
    PromptInput { margin: 0 1; }
    """

    def __init__(self, *, placeholder: str = "", id: str | None = None, max_history: int = 200) -> None:
        super().__init__(placeholder=placeholder, id=id, select_on_focus=False)  # typing refocuses it (app.on_key)
        self.history: list[str] = []
        self._max_history = max_history
        self._pos = 0

    def remember(self, text: str) -> None:
        """Add ``text`` to the history and reset the browsing position."""
        text = text.strip()
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
            del self.history[: -self._max_history]
        self._pos = len(self.history)

    def action_history(self, delta: int) -> None:
        """Move ``delta`` entries through the history (-1 older, +1 newer)."""
        if not self.history:
            return
        self._pos = max(0, min(len(self.history), self._pos + delta))
        self.value = self.history[self._pos] if self._pos < len(self.history) else ""
        self.cursor_position = len(self.value)
