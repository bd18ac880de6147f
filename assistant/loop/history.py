"""The prompt's history: stored messages -> model messages, output caps, folding.

Folding keeps each step's prompt inside the context: when the rendered prompt
passes ``fold_at`` (default 75%) of the context, the oldest whole turns (an
assistant message with its observations) are marked folded and what they found
goes into the task's structured :class:`Summary`, which is rendered as one user
message right after the goal. The goal and the latest turns always stay. The
fold is deterministic (no model call).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from model.types import Message, ToolCall

from ..state.models import CallRecord, StoredMessage, Summary, Task

__all__ = [
    "to_model_messages",
    "truncate_observation",
    "render_summary",
    "fit_prompt",
    "PATH_KEYS",
]

PATH_KEYS = ("path", "src", "dest", "source", "destination", "file", "filename", "folder")
_MAX_FACTS = 40


def truncate_observation(text: str, limit: int, tool_name: str) -> str:
    """Cut ``text`` to ``limit`` characters with a marker that says how to see more."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = head.rfind("\n")
    if cut > limit * 0.8:
        head = head[:cut]
    return (
        f"{head}\n[... output cut: showed {len(head)} of {len(text)} characters. "
        f"To read the rest, call {tool_name} again for a later part (an offset, "
        "line range or page argument) or with a narrower query.]"
    )


def render_summary(summary: Summary) -> str:
    """The folded-history message shown after the goal (empty if nothing folded)."""
    if not summary.folded_turns:
        return ""
    parts = [f"Progress so far ({summary.folded_turns} earlier steps were folded to save space):"]
    if summary.facts:
        parts.append("Found:\n" + "\n".join(f"- {f}" for f in summary.facts))
    if summary.files_touched:
        parts.append("Files touched: " + ", ".join(summary.files_touched))
    if summary.constraints:
        parts.append("User instructions:\n" + "\n".join(f"- {c}" for c in summary.constraints))
    if summary.open_questions:
        parts.append("Open questions:\n" + "\n".join(f"- {q}" for q in summary.open_questions))
    if summary.notes:
        parts.append("Notes: " + summary.notes)
    return "\n".join(parts)


def _tool_call(d: dict[str, Any]) -> ToolCall:
    return ToolCall(name=d.get("name", ""), arguments=d.get("arguments", {}), raw=d.get("raw", ""), id=d.get("id", ""))


def _to_message(m: StoredMessage) -> Message:
    return Message(
        role=m.role,
        content=m.content,
        reasoning=m.reasoning,
        tool_calls=[_tool_call(c) for c in m.tool_calls],
        name=m.name,
        tool_call_id=m.tool_call_id,
        token_ids=m.token_ids,
    )


def to_model_messages(
    task: Task, stored: Sequence[StoredMessage], system_prompt: str, cache: dict[int, Message] | None = None
) -> list[Message]:
    """System prompt, goal, summary of folded turns, then unfolded history.

    ``cache`` (seq -> Message) lets a caller reuse converted messages across
    steps; stored messages never change once committed (except ``folded``).
    """
    out = [Message(role="system", content=system_prompt)]
    summary_text = render_summary(task.summary)
    for m in stored:
        if m.folded:
            continue
        if cache is None:
            out.append(_to_message(m))
        else:
            msg = cache.get(m.seq)
            if msg is None:
                msg = cache[m.seq] = _to_message(m)
            out.append(msg)
        if m.kind == "goal" and summary_text:
            out.append(Message(role="user", content=summary_text))
    return out


def _units(stored: Sequence[StoredMessage]) -> list[list[StoredMessage]]:
    """Unfolded history after the goal, grouped as [assistant, its observations...]."""
    units: list[list[StoredMessage]] = []
    for m in stored:
        if m.folded or m.kind == "goal":
            continue
        if m.role == "assistant" or not units:
            units.append([m])
        else:
            units[-1].append(m)
    return units


def _short(value: Any, n: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _absorb(summary: Summary, unit: list[StoredMessage], calls: dict[str, CallRecord]) -> None:
    for m in unit:
        if m.role == "user" and m.kind == "note":
            summary.constraints.append(_short(m.content, 200))
        for c in m.tool_calls:
            rec = calls.get(c.get("id", ""))
            if rec is None:
                continue
            args = ", ".join(f"{k}={_short(v, 40)}" for k, v in rec.arguments.items())
            status = " (failed)" if rec.error or rec.status in ("invalid", "denied") else ""
            summary.facts.append(f"{rec.name}({args}){status} -> {_short(rec.result, 160)}")
            for key in PATH_KEYS:
                val = rec.arguments.get(key)
                if isinstance(val, str) and not rec.error and val not in summary.files_touched:
                    summary.files_touched.append(val)
    summary.facts = summary.facts[-_MAX_FACTS:]
    summary.folded_turns += 1


def _fold_oldest(task: Task, stored: Sequence[StoredMessage], by_id: dict[str, CallRecord], keep_units: int) -> list[int]:
    """Fold the oldest whole turn into ``task.summary``; the seqs folded ([] when
    only ``keep_units`` turns are left)."""
    units = _units(stored)
    if len(units) <= keep_units:
        return []
    _absorb(task.summary, units[0], by_id)
    for m in units[0]:
        m.folded = True
    return [m.seq for m in units[0]]


def fit_prompt(
    task: Task,
    stored: Sequence[StoredMessage],
    calls: Sequence[CallRecord],
    render: Callable[[Task, Sequence[StoredMessage]], tuple[list[Message], int]],
    limit: int,
    *,
    keep_units: int = 2,
) -> tuple[list[Message], int, list[int]]:
    """Render the prompt, folding the oldest turns while it is over ``limit`` tokens.

    Args:
        render: ``(task, stored) -> (messages, prompt tokens)``.
        limit: most prompt tokens wanted.

    Returns ``(messages, tokens, folded seqs)`` of the last rendering (which
    may still be over ``limit`` when nothing more can fold). Mutates
    ``task.summary`` and the ``folded`` flags; the caller commits both.
    """
    folded: list[int] = []
    by_id = {c.id: c for c in calls}
    messages, tokens = render(task, stored)
    while tokens > limit:
        seqs = _fold_oldest(task, stored, by_id, keep_units)
        if not seqs:
            break
        folded.extend(seqs)
        messages, tokens = render(task, stored)
    return messages, tokens, folded
