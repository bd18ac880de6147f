"""Checks on parsed tool-call arguments before they are journaled.

A parser can hand back values the store cannot write: strings with lone
surrogates (``"\\udcff"`` from a JSON escape) are not UTF-8, and values nested
hundreds of levels deep overflow the JSON serialiser. Such a call never runs:
its arguments are replaced by a storable copy and the model is told which
argument is wrong, as an observation, so the step goes on.
"""

from __future__ import annotations

from typing import Any

from model.types import ToolCall

from ..state.models import CallRecord

__all__ = ["MAX_ARGUMENT_DEPTH", "argument_problem", "storable", "storable_text", "call_record"]

MAX_ARGUMENT_DEPTH = 64
"""Deepest nesting of lists/objects accepted in one argument (real tools use < 5)."""

_TOO_DEEP = "(nested too deep)"


def _valid_text(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def storable_text(s: str) -> str:
    """``s`` with anything that is not UTF-8 (lone surrogates) replaced by ``?``."""
    return s if _valid_text(s) else s.encode("utf-8", "replace").decode("utf-8")


def argument_problem(arguments: dict[str, Any], max_depth: int = MAX_ARGUMENT_DEPTH) -> str | None:
    """What makes ``arguments`` unstorable, as a message for the model, or None.

    Walks iteratively (no recursion, whatever the depth). The message names the
    argument: "argument 'path' is not valid text ..." or "argument 'rows' is
    nested too deep ...".
    """
    for name, value in arguments.items():
        if not isinstance(name, str) or not _valid_text(name):
            return ("an argument name is not valid text (it holds a lone surrogate or other non-UTF-8 "
                    "character); use plain names from the tool's schema")
        stack: list[tuple[Any, int]] = [(value, 1)]
        while stack:
            item, depth = stack.pop()
            if isinstance(item, str):
                if not _valid_text(item):
                    return (f"argument {name!r} is not valid text (it holds a lone surrogate or other "
                            "non-UTF-8 character); write it as plain text and call the tool again")
            elif isinstance(item, (dict, list, tuple)):
                if depth > max_depth:
                    return (f"argument {name!r} is nested too deep (more than {max_depth} levels of lists "
                            "or objects); pass a flatter value and call the tool again")
                children = list(item.items()) if isinstance(item, dict) else [(None, v) for v in item]
                for key, child in children:
                    if key is not None:
                        stack.append((str(key), depth + 1))
                    stack.append((child, depth + 1))
    return None


def storable(value: Any, max_depth: int = MAX_ARGUMENT_DEPTH, _depth: int = 0) -> Any:
    """A copy of ``value`` the store can write: invalid text made valid
    (:func:`storable_text`), nesting past ``max_depth`` replaced by a marker.
    Recursion stops at ``max_depth``, so any input is safe."""
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, (dict, list, tuple)):
        if _depth >= max_depth:
            return _TOO_DEEP
        if isinstance(value, dict):
            return {storable_text(str(k)): storable(v, max_depth, _depth + 1) for k, v in value.items()}
        return [storable(v, max_depth, _depth + 1) for v in value]
    return value


def call_record(call: ToolCall, step_n: int, turn_seq: int, index: int) -> CallRecord:
    """The journal entry of a parsed call; a call whose arguments cannot be
    stored (:func:`argument_problem`) is entered as "invalid", with the reason
    as its result and a storable copy of its arguments."""
    arguments = dict(call.arguments)
    problem = argument_problem(arguments)
    record = CallRecord(id=f"s{step_n}c{index}", step=step_n, turn_seq=turn_seq, index=index,
                        name=storable_text(call.name), arguments=storable(arguments) if problem else arguments,
                        raw=storable_text(call.raw))
    if problem:
        record.status, record.result, record.error = "invalid", f"Call not run: {problem}.", True
    elif call.name == "finish":
        record.status, record.result, record.error = "invalid", (
            "Call not run: finish must be the only call of its turn; read the other results first, then finish."), True
    return record
