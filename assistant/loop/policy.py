"""Approval policy: for a call's risk class and the task's mode, allow, ask or deny.

Modes (``--approve``):

=========  ====  =====  ===========  =======  ====
mode       read  write  destructive  network  exec
=========  ====  =====  ===========  =======  ====
ask        auto  auto   ask          auto     ask
edits      auto  auto   auto         auto     ask
all        auto  auto   auto         auto     auto
none       auto  deny   deny         auto     deny
=========  ====  =====  ===========  =======  ====

``write`` creates or edits workspace files and is undoable, so it never asks;
``destructive`` (overwrite, delete, move) is undoable too but asks in the
default mode. ``network`` runs without asking because the web tools only reach
URLs the user wrote or a search returned (see ``tools.web``). ``none`` is
read-only: anything that would change the workspace or run a program is
refused instead of asked. A risk class the user approved "for this task"
(``grants``) is automatic from then on.
"""

from __future__ import annotations

from typing import Iterable, Literal

from tools.base import RiskClass

from ..state.models import APPROVE_MODES

__all__ = ["Decision", "decide"]

Decision = Literal["allow", "ask", "deny"]

_TABLE: dict[str, dict[RiskClass, Decision]] = {
    "ask": {
        RiskClass.READ: "allow",
        RiskClass.WRITE: "allow",
        RiskClass.DESTRUCTIVE: "ask",
        RiskClass.NETWORK: "allow",
        RiskClass.EXEC: "ask",
    },
    "edits": {
        RiskClass.READ: "allow",
        RiskClass.WRITE: "allow",
        RiskClass.DESTRUCTIVE: "allow",
        RiskClass.NETWORK: "allow",
        RiskClass.EXEC: "ask",
    },
    "all": {r: "allow" for r in RiskClass},
    "none": {
        RiskClass.READ: "allow",
        RiskClass.WRITE: "deny",
        RiskClass.DESTRUCTIVE: "deny",
        RiskClass.NETWORK: "allow",
        RiskClass.EXEC: "deny",
    },
}


def decide(
    mode: str, risk: RiskClass | str, *, grants: Iterable[str] = (), approved: bool = False
) -> Decision:
    """The decision for one call.

    Args:
        mode: "ask", "edits", "all" or "none".
        risk: the call's risk class.
        grants: risk class values approved for the whole task.
        approved: the user approved this very call.

    Raises:
        ValueError: unknown mode.
    """
    if mode not in _TABLE:
        raise ValueError(f"unknown approve mode {mode!r}; use one of {', '.join(APPROVE_MODES)}")
    risk = RiskClass(risk)
    base = _TABLE[mode][risk]
    if base == "deny":
        return "deny"
    if base == "ask" and (approved or risk.value in set(grants)):
        return "allow"
    return base
