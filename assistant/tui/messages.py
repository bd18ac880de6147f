"""Textual messages posted from worker threads to the app.

Workers never touch widgets; they end every unit of work with one of these
messages and the app reacts in its handlers (the harlequin pattern).
"""

from __future__ import annotations

from typing import Any

from textual.message import Message

from assistant.events import Event

__all__ = ["AgentEvent", "RunEnded", "ModelLoaded", "ModelLoadFailed"]


class AgentEvent(Message):
    """One event of the agent loop (``event``), in the order the loop yielded it."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event


class RunEnded(Message):
    """The loop iterator is exhausted (finished, paused or failed).

    ``error``: a one-line message when the loop itself raised, else "".
    """

    def __init__(self, error: str = "") -> None:
        super().__init__()
        self.error = error


class ModelLoaded(Message):
    """The chat model is ready (``model`` implements ``model.types.ChatModel``)."""

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.model = model


class ModelLoadFailed(Message):
    """Loading the model failed; ``message`` is one actionable line."""

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

