"""What the running task is doing now, as one line: the phase, prompt-reading
progress, elapsed time, an ETA, and the live speed of the current phase.

``PhaseClock`` is fed the loop's events (:meth:`PhaseClock.feed`) and read by
the TUI's status bar and the headless run's live line; it is pure (the clock is
passed in, or ``progress.time`` is pinned), so tests pin it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from assistant.events import (
    ApprovalRequested,
    Event,
    Finished,
    Paused,
    ReasoningDelta,
    StepStarted,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
)

__all__ = ["PhaseClock", "parse_prefill"]


def parse_prefill(text: str) -> tuple[int, int] | None:
    """``"DONE/TOTAL"`` (a ``prefill`` delta's text) as two ints, or None."""
    done, _, total = text.partition("/")
    try:
        return int(done), int(total)
    except ValueError:
        return None


def _monotonic() -> float:
    return time.monotonic()  # looked up at call time (tests pin ``progress.time``)


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds:02d} s"


@dataclass
class PhaseClock:
    """The current phase of a task and its figures.

    Phases: "" (none), "reading the prompt", "thinking", "writing", "running
    a tool" (the TUI shows "loading model" with its own bar). Speeds are tokens per second of this phase only:
    prompt tokens read for "reading the prompt" (tokens reused from the cache
    are not counted), streamed pieces (about one token each) for "writing".
    """

    now: Callable[[], float] = _monotonic
    phase: str = ""
    detail: str = ""
    started: float = 0.0
    done: int = 0
    total: int = 0
    _first_done: int | None = None
    _first_at: float = 0.0
    _pieces: int = field(default=0)

    def begin(self, phase: str, detail: str = "") -> None:
        """Enter ``phase`` (``detail``: e.g. the tool's name); resets the figures."""
        self.phase, self.detail, self.started = phase, detail, self.now()
        self.done = self.total = self._pieces = 0
        self._first_done = None

    def prefill(self, done: int, total: int) -> None:
        """``done`` of ``total`` prompt tokens are read."""
        if self.phase != "reading the prompt":
            self.begin("reading the prompt")
        if self._first_done is None:
            self._first_done, self._first_at = done, self.now()
        self.done, self.total = done, total

    def piece(self, phase: str = "writing") -> None:
        """One streamed piece (about one token) of ``phase`` ("writing" or "thinking")."""
        if self.phase != phase:
            self.begin(phase)
        self._pieces += 1

    def feed(self, event: Event) -> None:
        """Follow one loop event: a step starts reading its prompt, ``prefill``
        deltas ("DONE/TOTAL") report it, other deltas write, a call runs a tool;
        a finished call, pause or end stops the clock."""
        if isinstance(event, StepStarted):
            self.begin("reading the prompt")
        elif isinstance(event, TextDelta) and event.kind == "prefill":
            progress = parse_prefill(event.text)
            if progress is not None:
                self.prefill(*progress)
        elif isinstance(event, TextDelta):
            self.piece("writing")
        elif isinstance(event, ReasoningDelta):
            self.piece("thinking")
        elif isinstance(event, ToolCallStarted):
            self.begin("running a tool", str(event.call.get("name", "")))
        elif isinstance(event, (ToolCallFinished, Paused, Finished, ApprovalRequested)):
            self.stop()

    def stop(self) -> None:
        """No phase (the task paused or finished)."""
        self.phase, self.detail = "", ""

    @property
    def rate(self) -> float:
        """Tokens per second of the current phase (0.0: not measured yet)."""
        if self.phase == "reading the prompt" and self._first_done is not None:
            spent = self.now() - self._first_at
            return (self.done - self._first_done) / spent if spent > 0 else 0.0
        if self.phase in ("writing", "thinking"):
            spent = self.now() - self.started
            return self._pieces / spent if spent > 0 else 0.0
        return 0.0

    def line(self) -> str:
        """E.g. ``reading the prompt 1,024/4,385 (23%) · 12 s · ETA 40 s · 85.3 tok/s``."""
        if not self.phase:
            return ""
        parts = [self.phase + (f" {self.detail}" if self.detail else "")]
        if self.phase == "reading the prompt" and self.total:
            parts[0] += f" {self.done:,}/{self.total:,} ({100 * self.done // self.total}%)"
        parts.append(_duration(self.now() - self.started))
        rate = self.rate
        if self.phase == "reading the prompt" and rate > 0 and self.done < self.total:
            parts.append("ETA " + _duration((self.total - self.done) / rate))
        if rate > 0:
            parts.append(f"{rate:.1f} tok/s")
        return " · ".join(parts)
