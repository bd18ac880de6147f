"""Printing loop events for the headless CLI: JSON Lines or human text.

Human mode: the final answer goes to stdout; progress (steps, tool calls,
results, notices, pauses) goes to stderr, so ``assistant run ... > out.txt``
captures only the answer.

Either way, secret values (those read in this process through
:func:`assistant.infra.secret_cache.read_secret`, which ``wiring.open_harness`` primes with
the secrets the config refers to) are replaced by ``[secret:NAME]``.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Callable, Iterable, Mapping, TextIO

from .events import (
    ApprovalRequested,
    ErrorEvent,
    Event,
    Finished,
    Notice,
    Paused,
    ReasoningDelta,
    StepStarted,
    TaskStarted,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    event_to_dict,
)
from .progress import PhaseClock

__all__ = ["consume", "EXIT_OK", "EXIT_FAIL", "EXIT_USAGE", "EXIT_PAUSED"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_PAUSED = 0, 1, 2, 3


def _one_line(text: str, n: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _progress(event: Event, err: TextIO, state: dict) -> bool:
    """On a terminal, show a live line of what the step is doing (a step can take
    minutes on a CPU): reading the prompt (tokens done/total, elapsed, ETA, tok/s),
    then thinking or writing (characters, elapsed, live tok/s). Returns True when
    ``event`` was a delta it counted."""
    raw = getattr(err, "stream", err)  # our own text: written past the control-character filter
    live = state.setdefault("live", bool(getattr(raw, "isatty", lambda: False)()))
    clock = state.setdefault("clock", PhaseClock())
    clock.feed(event)
    if isinstance(event, (TextDelta, ReasoningDelta)):
        if not (isinstance(event, TextDelta) and event.kind == "prefill"):
            state["chars"] = state.get("chars", 0) + len(event.text)
            clock.detail = f"({state['chars']} characters)"
        if live:
            raw.write(f"\r   ... {clock.line()}\033[K")
            raw.flush()
            state["line_open"] = True
        return True
    if state.pop("line_open", False):
        raw.write("\r\033[K")  # clear the progress line
    state["chars"] = 0
    return False


def _human(event: Event, out: TextIO, err: TextIO, state: dict) -> None:
    _progress(event, err, state)
    if isinstance(event, TaskStarted):
        verb = "resuming" if event.resumed else "task"
        print(f"{verb} {event.task_id}: {_one_line(event.goal, 100)}", file=err)
    elif isinstance(event, StepStarted):
        state["streamed"] = False
        print(f"-- step {event.n}", file=err)
    elif isinstance(event, TextDelta) and event.kind == "content":
        state["streamed"] = True
        state.setdefault("text", []).append(event.text)
    elif isinstance(event, ReasoningDelta):
        pass
    elif isinstance(event, ToolCallStarted):
        args = json.dumps(event.call.get("arguments", {}), ensure_ascii=False)
        print(f"   > {event.call.get('name')} {_one_line(args, 160)} [{event.risk}]", file=err)
    elif isinstance(event, ToolCallFinished):
        mark = "x" if event.error else "ok"
        print(f"   {mark} {_one_line(event.result)}", file=err)
    elif isinstance(event, ApprovalRequested):
        if event.diff:
            print(event.diff, file=err)
    elif isinstance(event, Notice):
        print(f"   ! {_one_line(event.text)}", file=err)
    elif isinstance(event, Paused):
        print(f"paused ({event.kind}): {event.reason}", file=err)
        hint = {
            "approval": "--approve-once, --approve-task or --deny",
            "in_flight": "--approve-once (re-run) or --deny (skip)",
            "question": '--answer "..."',
        }.get(event.kind, "(nothing, to continue) or --deny to stop")
        print(f"resume with: assistant resume {event.task_id} {hint}", file=err)
    elif isinstance(event, Finished):
        if event.status == "finished":
            print(event.answer, file=out)
        else:
            print(f"{event.status}: {event.answer}", file=err)
    elif isinstance(event, ErrorEvent):
        print(f"error: {event.message}", file=err)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x9b]")


def safe_text(text: str) -> str:
    """``text`` with terminal control characters (ESC and the like) shown as
    ``^[``-style escapes: file names, documents and model output must not be
    able to clear or repaint the user's terminal. Newlines and tabs are kept."""
    return _CONTROL.sub(lambda m: "^" + chr((ord(m.group()) + 64) % 128) if ord(m.group()) < 128 else "^?", text)


class _Redacting:
    """A text stream wrapper that redacts secrets and neutralises terminal control
    characters in everything written (JSON output has none: json.dumps escapes them)."""

    def __init__(self, stream: TextIO, secrets: Callable[[], Mapping[str, str]]) -> None:
        self.stream, self.secrets = stream, secrets

    def write(self, text: str) -> int:
        from plugins.secrets import redact

        return self.stream.write(safe_text(redact(text, self.secrets())))

    def flush(self) -> None:
        self.stream.flush()


def consume(events: Iterable[Event], *, as_json: bool, out: TextIO | None = None,
            err: TextIO | None = None,
            secrets: Mapping[str, str] | Callable[[], Mapping[str, str]] | None = None) -> int:
    """Print every event and return the exit code: 0 finished or stopped,
    3 paused, 1 error without a pause.

    ``secrets``: ``{name: value}`` to redact from the output, or a function
    returning it (called per write); default
    :func:`assistant.infra.secret_cache.seen_secrets`."""
    from .state.export import scrub
    from .infra.secret_cache import seen_secrets

    if secrets is None:
        current: Callable[[], Mapping[str, str]] = seen_secrets
    elif callable(secrets):
        current = secrets
    else:
        fixed = dict(secrets)

        def current() -> Mapping[str, str]:
            return fixed
    out = _Redacting(out or sys.stdout, current)  # type: ignore[assignment]
    err = _Redacting(err or sys.stderr, current)  # type: ignore[assignment]
    code = EXIT_FAIL
    state: dict = {}
    for event in events:
        if as_json:
            row = scrub(event_to_dict(event), current())
            out.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
            out.flush()
        else:
            _human(event, out, err, state)
            err.flush()
        if isinstance(event, Finished):
            code = EXIT_OK
        elif isinstance(event, Paused):
            code = EXIT_PAUSED
        elif isinstance(event, ErrorEvent) and code != EXIT_PAUSED:
            code = EXIT_FAIL
    return code
