"""The ``mcpServers`` configuration: validation and tool naming.

Shape (the common one used by MCP clients)::

    {"mcpServers": {NAME: {"command": str, "args": [str], "env": {str: str},
                           "cwd": str, "approve": "ask" | "auto",
                           "timeout": seconds, "startup_timeout": seconds,
                           "disabled": bool}}}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["SECRET_REF", "MCPConfigError", "ServerConfig", "parse_servers", "tool_name"]

SECRET_REF = re.compile(r"\$\{secret:([A-Za-z0-9_.\-]+)\}")


class MCPConfigError(ValueError):
    """A server entry in ``mcpServers`` is malformed; the message is one line."""


@dataclass
class ServerConfig:
    """One validated ``mcpServers`` entry (timeouts in seconds)."""

    name: str
    command: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] | None = None
    cwd: str | None = None
    approve: str = "ask"
    timeout: float = 60.0
    startup_timeout: float = 30.0


def _sanitise(text: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", text.lower())


def tool_name(server: str, tool: str) -> str:
    """``mcp__<server>__<tool>`` with every character outside ``[a-z0-9_]`` made ``_``."""
    return f"mcp__{_sanitise(server)}__{_sanitise(tool)}"


def _entry(name: str, raw: Any) -> ServerConfig:
    if not isinstance(raw, Mapping):
        raise MCPConfigError(f"mcpServers.{name} must be a table with at least 'command'")
    command = raw.get("command")
    if not isinstance(command, str) or not command.strip():
        raise MCPConfigError(f"mcpServers.{name}.command is missing (only stdio servers are supported)")
    args = raw.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise MCPConfigError(f"mcpServers.{name}.args must be a list of strings")
    env = raw.get("env")
    if env is not None and (
        not isinstance(env, Mapping) or not all(isinstance(v, str) for v in env.values())
    ):
        raise MCPConfigError(f"mcpServers.{name}.env must map names to strings")
    approve = raw.get("approve", "ask")
    if approve not in ("ask", "auto"):
        raise MCPConfigError(f"mcpServers.{name}.approve must be 'ask' or 'auto', not {approve!r}")
    try:
        timeout = float(raw.get("timeout", 60.0))
        startup = float(raw.get("startup_timeout", 30.0))
    except (TypeError, ValueError):
        raise MCPConfigError(f"mcpServers.{name}.timeout must be a number of seconds") from None
    if timeout <= 0 or startup <= 0:
        raise MCPConfigError(f"mcpServers.{name} timeouts must be positive")
    cwd = raw.get("cwd")
    return ServerConfig(name, command, list(args), dict(env) if env is not None else None,
                        str(cwd) if cwd else None, approve, timeout, startup)


def parse_servers(servers: Mapping[str, Any]) -> tuple[list[ServerConfig], dict[str, str]]:
    """Validate ``{"mcpServers": {...}}`` (or the inner mapping).

    Returns ``(configs, failures)``; entries with ``"disabled": true`` are skipped,
    malformed ones land in ``failures`` as ``{name: one-line error}``.
    """
    inner = servers.get("mcpServers", servers) if isinstance(servers, Mapping) else {}
    configs, failures = [], {}
    for name, raw in (inner or {}).items():
        if isinstance(raw, Mapping) and raw.get("disabled") is True:
            continue
        try:
            configs.append(_entry(str(name), raw))
        except MCPConfigError as exc:
            failures[str(name)] = str(exc)
    return configs, failures
