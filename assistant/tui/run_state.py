"""Where the app stands with its task: one value instead of seven flags.

The app holds one :class:`RunState`; every change of phase goes through its
methods, so "is something running, queued, paused, quitting?" has one answer.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterator

from assistant.events import Event, Paused

__all__ = ["Phase", "RunState", "MakeEvents"]

MakeEvents = Callable[[], Iterator[Event]]
"""``() -> iterator of loop events`` (``agent.run(...)`` or ``agent.resume(...)``)."""


class Phase(Enum):
    """What the app's task loop is doing."""

    IDLE = "idle"        # no loop running (a task may still be paused: see ``RunState.pause``)
    QUEUED = "queued"    # a run waits for the model to finish loading
    RUNNING = "running"  # a worker thread iterates the loop's events


@dataclass
class RunState:
    """The app's run state.

    Attributes:
        phase: see :class:`Phase`.
        task_id: the task on screen (None: none yet).
        pause: the pause the task waits in (None: not paused).
        queued: the run to start when the model is ready (only in ``QUEUED``).
        after_run: what to do once the running loop has ended (e.g. a resume
            asked for while the previous run was still unwinding).
        quit_pending: the user asked to quit; exit when the loop has ended.
        cancel: set to ask the running loop to stop (read by the worker thread).
    """

    phase: Phase = Phase.IDLE
    task_id: str | None = None
    pause: Paused | None = None
    queued: MakeEvents | None = None
    after_run: Callable[[], None] | None = None
    quit_pending: bool = False
    cancel: threading.Event = field(default_factory=threading.Event)

    @property
    def running(self) -> bool:
        """True while a loop's worker runs."""
        return self.phase is Phase.RUNNING

    def queue(self, make_events: MakeEvents) -> None:
        """Keep ``make_events`` until the model is ready."""
        self.phase, self.queued = Phase.QUEUED, make_events

    def take_queued(self) -> MakeEvents | None:
        """The queued run (now forgotten), or None."""
        make, self.queued = self.queued, None
        if self.phase is Phase.QUEUED:
            self.phase = Phase.IDLE
        return make

    def start(self) -> None:
        """A loop's worker starts: clear any earlier cancel request."""
        self.phase = Phase.RUNNING
        self.cancel.clear()

    def end(self) -> Callable[[], None] | None:
        """The loop ended; returns (and forgets) the action waiting for that."""
        self.phase = Phase.IDLE
        action, self.after_run = self.after_run, None
        return action

    def forget_task(self) -> None:
        """No task on screen any more (``/new``, a new goal)."""
        self.task_id, self.pause = None, None
