"""The conversation: user goals, streamed Markdown answers, collapsible reasoning
and one-line notices, stacked in a scrolling container that follows the end
unless the user scrolled up."""

from __future__ import annotations

from rich.text import Text
from typing import Any

from textual import events
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import AwaitMount, Widget
from textual.scrollbar import ScrollTo, ScrollUp
from textual.widgets import Collapsible, Markdown, Static
from textual.widgets.markdown import MarkdownStream

__all__ = ["Transcript", "UnseenNote", "UserMessage", "AgentResponse", "ReasoningBlock", "NoticeLine"]


class UserMessage(Static):
    """A goal or answer the user typed."""

    DEFAULT_CSS = """
    UserMessage { margin: 1 0 0 0; padding: 0 1; border-left: thick $accent; color: $text; }
    """

    def __init__(self, text: str) -> None:
        super().__init__(Text(text))


class AgentResponse(Markdown):
    """The visible answer of one model turn, streamed.

    ``write(fragment)`` lazily opens ``Markdown.get_stream`` (which batches
    fragments when they come faster than the widget can render) and
    ``finish()`` flushes and closes it. Plain ``Markdown.append`` per token
    falls behind at about 20 appends per second.
    """

    DEFAULT_CSS = """
    AgentResponse { margin: 1 0 0 0; padding: 0 1; }
    """

    def __init__(self, markdown: str = "") -> None:
        super().__init__(markdown)
        self._stream: MarkdownStream | None = None
        self.text_so_far = markdown

    async def write(self, fragment: str) -> None:
        """Append ``fragment`` (Markdown text) to the answer."""
        if not fragment:
            return
        self.text_so_far += fragment
        if self._stream is None:
            self._stream = Markdown.get_stream(self)
        await self._stream.write(fragment)

    async def finish(self) -> None:
        """Flush pending fragments and stop streaming (idempotent)."""
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()


class ReasoningBlock(Collapsible):
    """The model's reasoning for one turn, collapsed by default."""

    DEFAULT_CSS = """
    ReasoningBlock { margin: 1 0 0 0; border: none; padding: 0; background: transparent; }
    ReasoningBlock CollapsibleTitle { width: 1fr; }
    ReasoningBlock Static { color: $text-muted; text-style: italic; }
    """

    def __init__(self, text: str = "") -> None:
        self._reasoning_text = text
        self._reasoning_view = Static(Text(text))
        words = len(text.split())
        super().__init__(self._reasoning_view, title=f"Reasoning ({words} words)" if words else "Reasoning",
                         collapsed=True)

    @property
    def text(self) -> str:
        return self._reasoning_text

    def add(self, fragment: str) -> None:
        """Append a reasoning fragment."""
        self._reasoning_text += fragment
        self._reasoning_view.update(Text(self._reasoning_text))
        self.title = f"Reasoning ({len(self._reasoning_text.split())} words)"


class NoticeLine(Static):
    """A dim one-line note: harness corrections, errors, system messages.

    ``level``: "info", "warning" or "error" (sets a CSS class).
    """

    DEFAULT_CSS = """
    NoticeLine { margin: 1 0 0 0; padding: 0 1; color: $text-muted; }
    NoticeLine.warning { color: $warning; }
    NoticeLine.error { color: $error; text-style: bold; }
    """

    def __init__(self, text: str, level: str = "info") -> None:
        super().__init__(Text(text), classes=level)


class UnseenNote(Static):
    """"New output below" under the transcript; a click jumps there and follows."""

    DEFAULT_CSS = """
    UnseenNote { height: 1; padding: 0 2; color: $warning; text-style: bold; display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("↓ New output below: scroll down or click here to follow", id=id)

    def on_click(self) -> None:
        self.app.query_one(Transcript).follow()


class Transcript(VerticalScroll):
    """The scrolling conversation. It follows the newest entry unless the user
    scrolled up (wheel, keys, scrollbar); scrolling back to the end follows
    again. New output that arrives out of view posts :class:`Transcript.Unseen`.

    Textual's own ``anchor()`` is not used: any programmatic scroll (a focused
    tool card scrolled into view) releases it for good.
    """

    DEFAULT_CSS = """
    Transcript { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    """

    class Unseen(Message):
        """``unseen``: new output is below the visible area (False: all seen)."""

        def __init__(self, unseen: bool) -> None:
            super().__init__()
            self.unseen = unseen

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.following = True
        self._unseen = False

    def new_output(self) -> None:
        """Something was added or grew: follow it, or say it is out of view."""
        if self.following:
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)
        elif not self._unseen:
            self._set_unseen(True)

    def follow(self) -> None:
        """Jump to the end and follow it again."""
        self.following = True
        self._set_unseen(False)
        self.scroll_end(animate=False)

    def _set_unseen(self, unseen: bool) -> None:
        self._unseen = unseen
        self.post_message(self.Unseen(unseen))

    def _user_scrolled_up(self) -> None:
        self.following = False

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if not self.following and new_value >= self.max_scroll_y:
            self.following = True
            self._set_unseen(False)

    # what the user does to scroll up
    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._user_scrolled_up()

    def on_scroll_up(self, event: ScrollUp) -> None:
        self._user_scrolled_up()

    def on_scroll_to(self, event: ScrollTo) -> None:
        self._user_scrolled_up()

    def action_scroll_up(self) -> None:
        self._user_scrolled_up()
        super().action_scroll_up()

    def action_page_up(self) -> None:
        self._user_scrolled_up()
        super().action_page_up()

    def action_scroll_home(self) -> None:
        self._user_scrolled_up()
        super().action_scroll_home()

    def action_scroll_end(self) -> None:
        self.follow()

    def mount(self, *widgets: Widget, **kwargs: Any) -> AwaitMount:
        """Mount entries (as ``Widget.mount``), then follow or flag them."""
        result = super().mount(*widgets, **kwargs)
        self.new_output()
        return result

    async def clear(self) -> None:
        """Remove every entry (for a new task)."""
        await self.remove_children()
        self.following = True
        self._set_unseen(False)
