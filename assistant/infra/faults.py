"""Crash points for the kill-and-resume tests (inert unless configured).

``ASSISTANT_FAULT=LABEL:N`` makes the N-th (1-based) :func:`crash_point` call
with that label in this process send SIGKILL to the process itself, so a test
can kill a real run at an exact state boundary without timing. Labels used by
the loop: ``step_start``, ``turn_saved``, ``call_started``, ``call_done``,
``change``.
"""

from __future__ import annotations

import os
import signal

__all__ = ["crash_point"]

_counts: dict[str, int] = {}


def crash_point(label: str) -> None:
    """Kill the process here if ``ASSISTANT_FAULT`` names this label and count."""
    spec = os.environ.get("ASSISTANT_FAULT")
    if not spec:
        return
    want, _, nth = spec.partition(":")
    if want != label:
        return
    _counts[label] = _counts.get(label, 0) + 1
    if _counts[label] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
