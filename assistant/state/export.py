"""Export a task's trajectory as JSON Lines (for review and fine-tuning).

Lines, in order: one ``{"type": "task", ...}`` header, then one
``{"type": "message", ...}`` per message (folded ones included, flagged), then
one ``{"type": "call", ...}`` per tool call. Each message has ``loss``: 1 for an
assistant turn to learn from, 0 for every other message and for assistant
turns that failed (malformed or refused calls, bad arguments, calls that
returned an error): those stay in context but are not to be learned from.

Secret values (the ones config refers to, see
:func:`assistant.infra.secret_cache.redaction_secrets`) are replaced by ``[secret:NAME]``
in every string, so an export never carries a key a tool happened to see.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Mapping

from .models import CallRecord, StoredMessage
from .store import Store

__all__ = ["export_lines", "turn_failed", "scrub", "task_secrets"]


def scrub(value: Any, secrets: Mapping[str, str]) -> Any:
    """``value`` (JSON-like: dicts, lists, strings, numbers) with every secret
    value in every string replaced (``plugins.secrets.redact``); a copy."""
    if not secrets:
        return value
    if isinstance(value, str):
        from plugins.secrets import redact

        return redact(value, secrets)
    if isinstance(value, Mapping):
        return {k: scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(v, secrets) for v in value]
    return value


def task_secrets(workspace: str | None) -> dict[str, str]:
    """``{name: value}`` of the secrets the config for ``workspace`` refers to
    (empty without a keyring backend; a broken config falls back to none)."""
    from ..config import ConfigError, load_config
    from ..infra.secret_cache import redaction_secrets

    try:
        settings = load_config(workspace)
    except (ConfigError, OSError):
        settings = None
    return redaction_secrets(settings)


def turn_failed(message: StoredMessage, calls: dict[str, CallRecord], bad_turns: set[int]) -> bool:
    """True when the assistant ``message`` was a format error or any of its calls failed."""
    if message.kind == "format_error" or message.seq in bad_turns:
        return True
    for c in message.tool_calls:
        rec = calls.get(c.get("id", ""))
        if rec is not None and (rec.error or rec.status in ("invalid", "denied", "interrupted")):
            return True
    return False


def export_lines(store: Store, task_id: str, *, secrets: Mapping[str, str] | None = None) -> Iterator[str]:
    """JSON Lines of the task's trajectory, secrets redacted.

    Args:
        store: the task store.
        task_id: id or unique prefix.
        secrets: ``{name: value}`` to redact (default: :func:`task_secrets` for
            the task's workspace).

    Raises:
        TaskNotFound: no such task.
    """
    task = store.get_task(task_id)
    if secrets is None:
        secrets = task_secrets(task.workspace)
    messages = store.messages(task.id)
    calls = store.calls(task.id)
    by_id = {c.id: c for c in calls}
    # a parse error after a turn marks that turn failed
    bad: set[int] = set()
    last_turn = None
    for m in messages:
        if m.role == "assistant":
            last_turn = m.seq
        elif m.kind == "format_error" and last_turn is not None:
            bad.add(last_turn)
    header = task.model_dump(include={"id", "goal", "workspace", "status", "answer", "model", "budgets", "usage"})
    yield json.dumps(scrub({"type": "task", **header}, secrets), ensure_ascii=False)
    for m in messages:
        loss = int(m.role == "assistant" and not turn_failed(m, by_id, bad))
        row = m.model_dump(exclude={"token_ids"} if not m.token_ids else set())
        yield json.dumps(scrub({"type": "message", "loss": loss, **row}, secrets), ensure_ascii=False)
    for c in calls:
        yield json.dumps(scrub({"type": "call", **c.model_dump()}, secrets), ensure_ascii=False)
