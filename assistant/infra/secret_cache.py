"""Secrets this process read: :func:`read_secret` for tools and the remote engine,
:func:`redaction_secrets` for redacting output.

The keyring itself is ``plugins.secrets``; this module adds the process-wide
cache of every value read, so anything this process prints or exports can be
redacted (``cli_output``, ``state.export``, observations in ``loop.calls``).
"""

from __future__ import annotations

import threading
from typing import Any, Mapping

__all__ = ["KNOWN_SECRETS", "read_secret", "secret_names", "redaction_secrets", "seen_secrets"]

KNOWN_SECRETS = ("openai_api_key", "brave_api_key")
"""Secret names the app itself reads (remote engine key, Brave search key)."""

_SEEN: dict[str, str] = {}
_SEEN_LOCK = threading.Lock()


def read_secret(name: str) -> str | None:
    """The secret ``name`` from the keyring, or None when it is unset, the name is
    invalid or no keyring backend works (never raises). Every value read is
    remembered for :func:`seen_secrets`, so output of this process can be redacted."""
    try:
        from plugins.secrets import get_secret

        value = get_secret(name)
    except Exception:  # noqa: BLE001 - no backend, bad name, locked keyring: treated as unset
        return None
    if value:
        with _SEEN_LOCK:
            _SEEN[name] = value
    return value


def seen_secrets() -> dict[str, str]:
    """``{name: value}`` of every secret :func:`read_secret` returned in this process."""
    with _SEEN_LOCK:
        return dict(_SEEN)


def _config_mapping(config: Any) -> Mapping[str, Any]:
    if config is None:
        return {}
    if hasattr(config, "tool_config"):
        return config.tool_config()
    return config if isinstance(config, Mapping) else {}


def _refs(value: Any, out: list[str]) -> None:
    from plugins.mcp_config import SECRET_REF

    if isinstance(value, str):
        out.extend(m.group(1) for m in SECRET_REF.finditer(value))
    elif isinstance(value, Mapping):
        for v in value.values():
            _refs(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _refs(v, out)


def secret_names(config: Any = None) -> list[str]:
    """Names of the secrets ``config`` refers to: :data:`KNOWN_SECRETS` plus every
    ``${secret:NAME}`` in ``mcpServers`` and ``plugins`` (sorted, no repeats).

    ``config`` is a :class:`assistant.config.Settings`, its ``tool_config()``
    mapping, or None."""
    cfg = _config_mapping(config)
    names: list[str] = list(KNOWN_SECRETS)
    _refs(cfg.get("mcpServers") or {}, names)
    _refs(cfg.get("plugins") or {}, names)
    return sorted(set(names))


def redaction_secrets(config: Any = None) -> dict[str, str]:
    """``{name: value}`` to pass to ``plugins.secrets.redact``: the secrets named by
    :func:`secret_names` that are set, plus those already read in this process.
    Empty when no keyring backend works (never raises)."""
    for name in secret_names(config):
        read_secret(name)
    return seen_secrets()
