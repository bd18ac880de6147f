"""The conversation: user goals, streamed Markdown answers, collapsible reasoning
and one-line notices, stacked in a scrolling container that follows the end."""

from __future__ import annotations

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Collapsible, Markdown, Static
from textual.widgets.markdown import MarkdownStream

__all__ = ["Transcript", "UserMessage", "AgentResponse", "ReasoningBlock", "NoticeLine"]


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


class Transcript(VerticalScroll):
    """The scrolling conversation; stays anchored to the newest entry."""

    DEFAULT_CSS = """
    Transcript { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    """

    def on_mount(self) -> None:
        self.anchor()

    async def clear(self) -> None:
        """Remove every entry (for a new task)."""
        await self.remove_children()
