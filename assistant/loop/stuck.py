"""Stuck detection over the tool-call journal.

Four signals, checked on the calls since the detector was last reset:

1. the same call (name + arguments) three times in a row;
2. two calls alternating A-B-A-B-A-B over six calls;
3. three failing calls in a row;
4. ``stale`` calls in a row whose observations add nothing new (each result
   text was already seen earlier in the window).

The loop answers the first detection with one corrective observation to the
model; if a signal fires again it pauses the task for the human.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Iterator, Sequence

from ..state.models import CallRecord

if TYPE_CHECKING:  # pragma: no cover
    from ..events import Event
    from ..state.session import TaskSession

__all__ = ["detect", "signature", "corrective_note", "check_stuck", "check_budget"]


def signature(call: CallRecord) -> str:
    """``name`` + canonical JSON of the arguments."""
    return call.name + json.dumps(call.arguments, sort_keys=True, ensure_ascii=False, default=str)


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()


def detect(calls: Sequence[CallRecord], *, stale: int = 4) -> str | None:
    """The reason the agent looks stuck, one line, or None.

    Args:
        calls: finished calls in journal order (only those since the last reset).
        stale: how many no-new-information calls in a row count as stuck.
    """
    calls = [c for c in calls if c.final]
    if len(calls) >= 3:
        sigs = {signature(c) for c in calls[-3:]}
        if len(sigs) == 1:
            return f"the same call ({calls[-1].name}) was repeated 3 times with the same arguments"
    if len(calls) >= 6:
        s = [signature(c) for c in calls[-6:]]
        if s[0] != s[1] and s[0::2] == [s[0]] * 3 and s[1::2] == [s[1]] * 3:
            return f"calls alternate between {calls[-2].name} and {calls[-1].name} without progress"
    if len(calls) >= 3 and all(c.error or c.status in ("invalid", "denied") for c in calls[-3:]):
        return "3 tool calls in a row failed"
    if len(calls) > stale:
        seen: set[str] = set()
        fresh = []
        for c in calls:
            d = _digest(c.result)
            fresh.append(d not in seen)
            seen.add(d)
        if not any(fresh[-stale:]):
            return f"the last {stale} tool results added nothing new"
    return None


def corrective_note(reason: str) -> str:
    """The one corrective observation given to the model before pausing."""
    return (
        f"Loop check: {reason}. Repeating will not help. Change approach: use "
        "different arguments or another tool, give your final answer if you have "
        "it, or call ask_human if you need the user."
    )


def check_stuck(sess: "TaskSession", stale_steps: int) -> Iterator["Event"]:
    """Before a step: warn once when the journal since the last check looks stuck, pause the second time.

    A generator for ``yield from``: it yields the notice or the pause event and
    returns True when the task paused. A warning is forgotten after 6 calm steps.
    """
    from ..events import Notice

    task = sess.task
    st = task.stuck
    reason = detect(sess.calls[st.since:], stale=stale_steps)
    if reason is None:
        if st.warned and task.usage.steps - st.warned_step >= 6:
            st.warned = ""
        return False
    st.since = len(sess.calls)
    if not st.warned:
        st.warned, st.warned_step = reason, task.usage.steps
        note = sess.new_message("user", corrective_note(reason), kind="corrective")
        sess.commit(messages=[note])
        yield Notice(note.content)
        return False
    yield sess.pause("stuck", f"The agent seems stuck: {reason}. Add a hint (note) and continue, or stop.",
                     ["continue", "stop"])
    return True


def check_budget(sess: "TaskSession") -> Iterator["Event"]:
    """Before a step: pause when the step, token or time budget is spent (``yield from``; returns True then)."""
    from ..state.session import progress_summary

    b, u = sess.task.budgets, sess.task.usage
    if u.steps >= b.max_steps:
        which, text = "steps", f"step budget reached ({u.steps} of {b.max_steps} steps)"
    elif u.generated_tokens >= b.max_generated_tokens:
        which, text = "tokens", f"token budget reached ({u.generated_tokens} of {b.max_generated_tokens} tokens)"
    elif sess.wall_s() >= b.max_wall_s:
        which, text = "time", f"time budget reached ({sess.wall_s():.0f} of {b.max_wall_s:.0f} s)"
    else:
        return False
    refused = _last_answer_refused(sess)
    yield sess.pause("budget", f"{text}. Progress: {progress_summary(sess)}{refused} Extend the budget or stop?",
                     ["extend", "stop"], budget=which)
    return True


def _last_answer_refused(sess: "TaskSession") -> str:
    """' Its last answer was not accepted: <doubt>; <doubt>.' when the finish check
    refused the model's last turn (no turn was left to fix it; a loop check's note may
    follow the refusal), else "". A budget pause after a refused answer said only
    "step budget reached"."""
    from .finish import FINISH_CHECK_PREFIX

    last = None
    for m in reversed(sess.messages):
        if m.role == "assistant":
            break
        if m.role in ("user", "tool") and m.content.startswith(FINISH_CHECK_PREFIX):
            last = m
            break
    if last is None:
        return ""
    doubts = [ln[2:].strip() for ln in last.content.splitlines() if ln.startswith("- ")]
    if not doubts:
        return ""
    return f" Its last answer was not accepted: {'; '.join(d[:200] for d in doubts[:3])}."
