"""Turns agent-loop events into transcript widgets (one handler for all events,
the mistral-vibe pattern). Runs on the app's thread only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assistant.events import (
    ApprovalRequested,
    ErrorEvent,
    Event,
    Finished,
    Metrics,
    Notice,
    Paused,
    ReasoningDelta,
    StepStarted,
    TaskStarted,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
)
from assistant.progress import PhaseClock

from .widgets import AgentResponse, NoticeLine, ReasoningBlock, StatusBar, ToolCallCard, Transcript

if TYPE_CHECKING:  # pragma: no cover
    from textual.widget import Widget

__all__ = ["EventHandler", "FORMAT_ERROR_SUMMARY"]

FORMAT_ERROR_SUMMARY = "The model's reply was malformed; it was asked to try again."


class EventHandler:
    """Applies events to a :class:`Transcript` and a :class:`StatusBar`.

    Args:
        transcript: where entries are mounted.
        status: the status bar to update.
        context_size: the model's context in tokens (for the "ctx %" figure).
        on_paused / on_finished / on_started: callbacks ``(event) -> None`` the
            app uses to show the hand-off, the approval modal and to track the task.

    Attributes:
        pending_approval: the last :class:`ApprovalRequested` not yet answered.
        cards: tool-call cards by call id.
        clock: the running task's phase and its figures (shown in the status bar).
    """

    def __init__(self, transcript: Transcript, status: StatusBar, *, context_size: int | None = None,
                 on_paused: Any = None, on_finished: Any = None, on_started: Any = None) -> None:
        self.transcript = transcript
        self.status = status
        self.context_size = context_size
        self.on_paused = on_paused
        self.on_finished = on_finished
        self.on_started = on_started
        self.pending_approval: ApprovalRequested | None = None
        self.cards: dict[str, ToolCallCard] = {}
        self.task_id: str | None = None
        self._response: AgentResponse | None = None
        self._reasoning: ReasoningBlock | None = None
        self.clock = PhaseClock()

    def show_phase(self) -> None:
        """Put the clock's line in the status bar (also called each second by the app)."""
        self.status.phase = self.clock.line()

    async def _mount(self, widget: "Widget") -> None:
        await self.transcript.mount(widget)

    async def close_turn(self) -> None:
        """Flush the streaming answer and forget the current turn's widgets."""
        if self._response is not None:
            await self._response.finish()
        self._response = None
        self._reasoning = None

    async def _card(self, call: dict[str, Any], risk: str = "") -> ToolCallCard:
        call_id = str(call.get("id", ""))
        card = self.cards.get(call_id) if call_id else None
        if card is None:
            await self.close_turn()
            card = ToolCallCard(call, risk)
            if call_id:
                self.cards[call_id] = card
            await self._mount(card)
        return card

    async def handle(self, event: Event) -> None:
        """Apply one event (unknown event types are ignored)."""
        self.clock.feed(event)
        await self._apply(event)
        if isinstance(event, (TextDelta, ReasoningDelta, ToolCallFinished)):
            self.transcript.new_output()  # an entry grew: follow it (mounts follow by themselves)
        self.show_phase()

    async def _apply(self, event: Event) -> None:
        if isinstance(event, TextDelta):
            if event.kind == "tool_call":
                self.status.status = "writing a tool call…"
            if event.kind != "content" or not event.text:
                return
            if self._response is None:
                self._response = AgentResponse()
                await self._mount(self._response)
            await self._response.write(event.text)
        elif isinstance(event, ReasoningDelta):
            if self._reasoning is None:
                self._reasoning = ReasoningBlock()
                await self._mount(self._reasoning)
            self._reasoning.add(event.text)
        elif isinstance(event, StepStarted):
            await self.close_turn()
            self.status.status = "running"
            self.status.step = event.n  # the step in progress ("step 0/40" while the first one ran)
        elif isinstance(event, ToolCallStarted):
            card = await self._card(event.call, event.risk)
            card.risk = event.risk
            card.set_status("running")
        elif isinstance(event, ToolCallFinished):
            card = await self._card(event.call)
            card.finish(event.result, event.error)
        elif isinstance(event, ApprovalRequested):
            card = await self._card(event.call, event.risk)
            card.risk = event.risk
            card.set_status("waiting")
            self.pending_approval = event
        elif isinstance(event, Metrics):
            self.status.update_metrics(event.data, self.context_size)
        elif isinstance(event, Notice):
            await self.close_turn()
            if event.text.startswith("Format error"):  # the correction is for the model; the user gets a summary
                await self._mount(NoticeLine(FORMAT_ERROR_SUMMARY, "info"))
            else:
                await self._mount(NoticeLine(event.text, "warning"))
        elif isinstance(event, ErrorEvent):
            await self.close_turn()
            await self._mount(NoticeLine(event.message, "error"))
        elif isinstance(event, TaskStarted):
            self.status.status = "running"
            if event.resumed and event.task_id != self.task_id:
                goal = " ".join(event.goal.split())
                await self._mount(NoticeLine(f"Resumed task {event.task_id}: {goal[:120]}"
                                             + ("…" if len(goal) > 120 else "")))
            if event.task_id != self.task_id:
                self.cards.clear()
            self.task_id = event.task_id
            if self.on_started:
                self.on_started(event)
        elif isinstance(event, Paused):
            await self.close_turn()
            self.status.status = f"paused: {event.kind}"
            if event.kind != "approval":
                self.pending_approval = None
            if self.on_paused:
                self.on_paused(event)
        elif isinstance(event, Finished):
            streamed = self._response is not None and self._response.text_so_far.strip()
            await self.close_turn()
            if event.answer and not streamed:
                await self._mount(AgentResponse(event.answer))
            self.status.status = event.status
            self.pending_approval = None
            if self.on_finished:
                self.on_finished(event)
