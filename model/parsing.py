"""Split a model turn into reasoning, visible text and tool calls, streaming or at once.

Rules (one state machine serves both :func:`parse_turn` and
:class:`StreamParser`, so a stream and a whole text always agree):

- Reasoning: when the prompt opened ``<think>`` (``starts_in_think``) the
  output starts inside the reasoning and ``</think>`` closes it. Otherwise a
  turn that *begins* with ``<think>`` (after whitespace) opens it. A
  ``<tool_call>`` inside reasoning that is closed later by ``</think>`` stays
  reasoning (a drafted call is not run); when the reasoning is never closed, a
  ``<tool_call>`` ends it (small models forget ``</think>``).
- Calls: each ``<tool_call>`` block in the visible text, in either format
  (see :mod:`model.call_format`), decoded by
  :func:`model.parsing_calls.decode_call`. Where a block ends is decided by
  its structure (:mod:`model.parsing_scan`): call markup inside a parameter
  value or a JSON string is data of that call, never a call of its own. A
  block cut short by the next ``<tool_call>`` (outside any value) or by the
  end of the turn is decoded as far as it goes and reported as a
  :class:`ParseError`.
- Linear time: every search moves forward through the text (a shared
  :class:`model.parsing_scan.TagFinder`), whole or streamed.
- Nothing is dropped: the tags ``<think>``/``</think>`` are the only text not
  kept in a field, and :attr:`ParsedTurn.raw` holds the whole output.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from .call_format import example_call, format_instructions
from .parsing_calls import decode_call
from .parsing_failed import looks_like_failed_call
from .parsing_scan import OPEN, BlockScanner, TagFinder
from .types import ParsedTurn, ParseError, ToolCall

__all__ = [
    "parse_turn",
    "StreamParser",
    "looks_like_failed_call",
    "format_instructions",
    "example_call",
]

Kind = Literal["reasoning", "content", "tool_call"]

THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"
_WS = re.compile(r"\s*")


def _partial_tail(text: str, *tags: str) -> int:
    """Length of the longest suffix of ``text`` that is a proper prefix of a tag."""
    best = 0
    for tag in tags:
        for n in range(min(len(tag) - 1, len(text)), best, -1):
            if text.endswith(tag[:n]):
                best = n
                break
    return best


class StreamParser:
    """Incremental parser of one assistant turn.

    ``feed(delta)`` returns the newly decided pieces as ``(kind, text)`` with
    kind "reasoning", "content" or "tool_call" (the raw block, sent once it is
    complete, also when malformed). Text that may still turn out to be a tag
    (``"<too"``) or an undecided call is held back until the next feed;
    :meth:`flush` releases it at the end of generation. Leading whitespace of
    the reasoning and of the content is not sent.

    :meth:`finish` returns the same :class:`ParsedTurn` as :func:`parse_turn`
    on the concatenated deltas, however the text was split.

    Args:
        tools: tool schemas (OpenAI style) to check calls against.
        fmt: active call format, "xml" or "json" (for error examples).
        starts_in_think: the prompt ended inside ``<think>``.
    """

    def __init__(self, tools: list[dict[str, Any]] | None, fmt: str, starts_in_think: bool) -> None:
        self.tools = list(tools or [])
        self.fmt = fmt
        self.buf = ""
        self.pos = 0
        self.mode: Literal["reasoning", "content"] = "reasoning" if starts_in_think else "content"
        self.started = {"reasoning": False, "content": False}
        self.reasoning: list[str] = []
        self.content: list[str] = []
        self.calls: list[ToolCall] = []
        self.errors: list[ParseError] = []
        self.n_calls = 0
        self._finder = TagFinder()
        self._scanner: BlockScanner | None = None  # the call block being read
        self._nesting = True  # see model.parsing_scan: False after a value fell back to rule 1
        self._checked = False  # the start of the turn was checked for a <think> tag
        self._flushed = False
        self._out: list[tuple[Kind, str]] = []

    # -- public -----------------------------------------------------------
    def feed(self, delta: str) -> list[tuple[Kind, str]]:
        """Add generated text; return the pieces decided by it (maybe none)."""
        if self._flushed:
            raise RuntimeError("StreamParser.feed after flush/finish")
        buf, self.buf = self.buf, ""  # sole reference: CPython appends in place, not by copying
        buf += delta
        self.buf = buf
        self._advance(final=False)
        return self._take()

    def flush(self) -> list[tuple[Kind, str]]:
        """End of generation: decide and return everything still held back."""
        if not self._flushed:
            self._advance(final=True)
            self._flushed = True
        return self._take()

    def finish(self) -> ParsedTurn:
        """The parsed turn (calls :meth:`flush` first if needed)."""
        self.flush()
        return ParsedTurn(
            reasoning="".join(self.reasoning).strip(),
            content="".join(self.content).strip(),
            tool_calls=list(self.calls),
            errors=list(self.errors),
            raw=self.buf,
        )

    # -- machinery ----------------------------------------------------------
    def _take(self) -> list[tuple[Kind, str]]:
        out, self._out = self._out, []
        merged: list[tuple[Kind, str]] = []
        for kind, text in out:
            if merged and merged[-1][0] == kind and kind != "tool_call":
                merged[-1] = (kind, merged[-1][1] + text)
            else:
                merged.append((kind, text))
        return merged

    def _emit(self, kind: Literal["reasoning", "content"], text: str) -> None:
        if not text:
            return
        (self.reasoning if kind == "reasoning" else self.content).append(text)
        if not self.started[kind]:
            text = text.lstrip()
            if not text:
                return
            self.started[kind] = True
        self._out.append((kind, text))

    def _call(self, scanner: BlockScanner) -> None:
        scan = scanner.scan
        raw = self.buf[scan.start:scan.end]
        result = decode_call(raw, self.tools, self.fmt, self.n_calls, scan=scan)
        self.n_calls += 1
        (self.calls if isinstance(result, ToolCall) else self.errors).append(result)
        self._out.append(("tool_call", raw))
        self.pos = scan.end
        self._nesting = self._nesting and not scanner.fell_back
        self._scanner = None

    def _advance(self, final: bool) -> None:
        while self.pos < len(self.buf):
            step = self._reasoning_step(final) if self.mode == "reasoning" else self._content_step(final)
            if not step:
                return

    def _leading_tag(self, tag: str, final: bool) -> bool | None:
        """At the start of a mode: True if ``tag`` comes next (consumed), None to wait."""
        buf = self.buf
        i = _WS.match(buf, self.pos).end()
        if buf.startswith(tag, i):
            self.pos = i + len(tag)
            return True
        if not final and len(buf) - i < len(tag) and tag.startswith(buf[i:]):
            return None
        return False

    def _reasoning_step(self, final: bool) -> bool:
        buf, pos = self.buf, self.pos
        if not self._checked:  # a redundant opening tag at the start
            lead = self._leading_tag(THINK_OPEN, final)
            if lead is None:
                return False
            self._checked = True
            if lead:
                return True
        close = self._finder.find(buf, THINK_CLOSE, pos)
        call = self._finder.find(buf, OPEN, pos)
        if close >= 0:  # everything up to </think> is reasoning, drafted calls too
            self._emit("reasoning", buf[pos:close])
            self.pos = close + len(THINK_CLOSE)
            self.mode = "content"
            return True
        if call >= 0:  # unclosed so far: reasoning up to the call is certain
            self._emit("reasoning", buf[pos:call])
            self.pos = call
            if final:
                self.mode = "content"
                return True
            return False
        keep = 0 if final else _partial_tail(buf[pos:], THINK_CLOSE, OPEN)
        self._emit("reasoning", buf[pos: len(buf) - keep])
        self.pos = len(buf) - keep
        return False

    def _content_step(self, final: bool) -> bool:
        buf, pos = self.buf, self.pos
        if not self._checked:  # a turn that opens its own reasoning
            lead = self._leading_tag(THINK_OPEN, final)
            if lead is None:
                return False
            self._checked = True
            if lead:
                self.mode = "reasoning"
                return True
        if buf.startswith(OPEN, pos):
            if self._scanner is None:
                self._scanner = BlockScanner(pos, self._finder, self._nesting)
            if not self._scanner.advance(buf, final):
                return False
            self._call(self._scanner)
            return True
        call = self._finder.find(buf, OPEN, pos)
        if call >= 0:
            self._emit("content", buf[pos:call])
            self.pos = call
            return True
        keep = 0 if final else _partial_tail(buf[pos:], OPEN)
        self._emit("content", buf[pos: len(buf) - keep])
        self.pos = len(buf) - keep
        return False


def parse_turn(text: str, tools: list[dict[str, Any]] | None, *, fmt: str, starts_in_think: bool) -> ParsedTurn:
    """Parse a whole generated turn.

    Args:
        text: the generated text (stop string excluded).
        tools: tool schemas the calls are checked against.
        fmt: the active call format, "xml" or "json"; calls in either format
            are accepted, ``ParseError.expected`` is written in this one.
        starts_in_think: the prompt ended inside ``<think>``.

    Returns:
        A :class:`ParsedTurn`; malformed calls are in ``errors`` (index, what is
        wrong, a correct example). Never raises.
    """
    parser = StreamParser(tools, fmt, starts_in_think)
    parser.feed(text)
    return parser.finish()
