"""The input box: multi-line, with a history and completion.

Enter submits; Shift+Enter, Alt+Enter (what most terminals send as Esc Enter)
and Ctrl+J insert a newline. Up on the first line recalls older entries, Down
on the last line newer ones. A ``/command`` at the start of the input or an
``@path`` word shows a completion menu above the box: Tab or Enter takes the
highlighted entry (Up/Down move, Esc closes, a click takes one).
"""

from __future__ import annotations

import time
from typing import Callable, Iterable

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, TextArea

from ..completion import file_candidates, slash_candidates, word_at

__all__ = ["PromptInput", "PromptArea", "CompletionMenu", "NEWLINE_KEYS"]

NEWLINE_KEYS = ("shift+enter", "alt+enter", "ctrl+j", "shift+\r", "ctrl+enter")
"""Keys that insert a newline instead of submitting (``shift+\r`` is how Textual names
xterm's modifyOtherKeys Shift+Enter, as tmux sends it with ``extended-keys on``)."""

_FILES_TTL_S = 3.0


class CompletionMenu(OptionList):
    """The candidates for the word being typed (never takes the focus)."""

    can_focus = False
    DEFAULT_CSS = """
    CompletionMenu { height: auto; max-height: 8; margin: 0 1; display: none; border: none; }
    """


class PromptInput(TextArea):
    """A :class:`TextArea` that submits on Enter and remembers what was submitted.

    ``value`` is the text (settable, the cursor goes to its end);
    ``remember(text)`` adds an entry to ``entries`` (the input history) (consecutive duplicates kept once).
    ``commands`` gives the slash-command names and ``files`` the workspace's
    files (relative POSIX paths) for completion; both default to none.
    """

    class Submitted(Message):
        """Enter was pressed: ``value`` is the text, ``input`` this widget."""

        def __init__(self, input: "PromptInput", value: str) -> None:
            super().__init__()
            self.input = input
            self.value = value

    DEFAULT_CSS = """
    PromptInput { height: auto; max-height: 10; margin: 0 1; }
    """

    def __init__(self, *, placeholder: str = "", id: str | None = None, max_history: int = 200) -> None:
        super().__init__(placeholder=placeholder, id=id, soft_wrap=True, tab_behavior="focus")
        self.entries: list[str] = []
        self._max_history = max_history
        self._pos = 0
        self.commands: Callable[[], Iterable[str]] = lambda: ()
        self.files: Callable[[], list[str]] = lambda: []
        self._files_cache: tuple[float, list[str]] = (0.0, [])
        self._word: tuple[int, str] = (0, "")
        self.candidates: list[str] = []

    # -- the text ------------------------------------------------------------------
    @property
    def value(self) -> str:
        """The text in the box."""
        return self.text

    @value.setter
    def value(self, text: str) -> None:
        self.load_text(text)
        self.move_cursor(self.document.end)

    def remember(self, text: str) -> None:
        """Add ``text`` to the history and reset the browsing position."""
        text = text.strip()
        if text and (not self.entries or self.entries[-1] != text):
            self.entries.append(text)
            del self.entries[: -self._max_history]
        self._pos = len(self.entries)

    def action_history(self, delta: int) -> None:
        """Move ``delta`` entries through the history (-1 older, +1 newer)."""
        if not self.entries:
            return
        self._pos = max(0, min(len(self.entries), self._pos + delta))
        self.value = self.entries[self._pos] if self._pos < len(self.entries) else ""

    # -- keys ------------------------------------------------------------------------
    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        handled = True
        if key in NEWLINE_KEYS:
            self.insert("\n")
        elif self.candidates and key in ("tab", "enter"):
            self.accept()
        elif self.candidates and key in ("up", "down"):
            menu = self._menu()
            if menu is not None:
                menu.action_cursor_up() if key == "up" else menu.action_cursor_down()
        elif self.candidates and key == "escape":
            self._show([])
        elif key == "enter":
            self.post_message(self.Submitted(self, self.text))
        elif key == "up" and self.cursor_location[0] == 0:
            self.action_history(-1)
        elif key == "down" and self.cursor_location[0] == self.document.line_count - 1:
            self.action_history(1)
        else:
            handled = False
        if handled:
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    # -- completion ----------------------------------------------------------------------
    def _on_text_area_changed(self, event: TextArea.Changed) -> None:
        self.update_candidates()

    def _on_text_area_selection_changed(self, event: TextArea.SelectionChanged) -> None:
        self.update_candidates()

    def update_candidates(self) -> None:
        """Recompute the menu for the word at the cursor."""
        row, col = self.cursor_location
        line = self.document.get_line(row)
        start, word = word_at(line, col)
        self._word = (start, word)
        if word.startswith("/") and row == 0 and start == 0:
            found = slash_candidates(word, self.commands())
        elif word.startswith("@"):
            found = file_candidates(word[1:], self._workspace_files())
            found = [] if found == [word[1:]] else ["@" + f for f in found]
        else:
            found = []
        self._show(found)

    def _workspace_files(self) -> list[str]:
        stamp, files = self._files_cache
        if time.monotonic() - stamp > _FILES_TTL_S:
            files = list(self.files())
            self._files_cache = (time.monotonic(), files)
        return files

    def accept(self, index: int | None = None) -> None:
        """Replace the word at the cursor with candidate ``index`` (default: the
        highlighted one) followed by a space."""
        menu = self._menu()
        if index is None:
            index = (menu.highlighted if menu is not None else None) or 0
        if not self.candidates:
            return
        choice = self.candidates[max(0, min(index, len(self.candidates) - 1))]
        row, col = self.cursor_location
        start, _word = self._word
        self.replace(choice + " ", (row, start), (row, col))
        self._show([])

    def _show(self, found: list[str]) -> None:
        self.candidates = found
        menu = self._menu()
        if menu is None:
            return
        menu.clear_options()
        if found:
            menu.add_options(found)
            menu.highlighted = 0
        menu.display = bool(found)

    def _menu(self) -> CompletionMenu | None:
        parent = self.parent
        menus = parent.query(CompletionMenu) if parent is not None else None
        return menus.first() if menus else None


class PromptArea(Vertical):
    """The completion menu above the input box (the box has id ``prompt_id``)."""

    DEFAULT_CSS = """
    PromptArea { height: auto; }
    """

    def __init__(self, *, placeholder: str = "", prompt_id: str = "prompt", id: str | None = None) -> None:
        super().__init__(id=id)
        self._prompt = PromptInput(placeholder=placeholder, id=prompt_id)

    def compose(self) -> ComposeResult:
        yield CompletionMenu()
        yield self._prompt

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._prompt.accept(event.option_index)
        self._prompt.focus()
