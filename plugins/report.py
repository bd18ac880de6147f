"""What is plugged in: every plugin and MCP server, its tools, state and start error.

One :class:`PluginStatus` per plugin (bundled, entry point, user file) and per
configured MCP server. ``assistant plugins``, ``assistant doctor`` and the TUI
show these rows; :func:`plugin_report` builds them from a config, the two
``*_statuses`` functions from what an app has already loaded and started.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from plugins.loader import LoadReport, load_plugins, one_line
from plugins.mcp_config import parse_servers, tool_name

__all__ = ["PluginStatus", "KINDS", "STATES", "plugin_statuses", "mcp_statuses", "plugin_report"]

KINDS = ("bundled", "entry point", "file", "mcp")
"""``PluginStatus.kind``: bundled plugin, installed entry point, user plugin file, MCP server."""

STATES = ("started", "failed", "disabled", "not started")
"""``PluginStatus.state``; "not started" is an MCP server the report did not start."""


@dataclass
class PluginStatus:
    """One plugin or MCP server.

    Attributes:
        name: plugin name, or the MCP server's name in ``mcpServers``.
        kind: one of :data:`KINDS`.
        state: one of :data:`STATES`.
        tools: the tool names the model sees (``mcp__<server>__<tool>`` for MCP).
        error: one line saying why it failed (None unless ``state == "failed"``).
        origin: where it comes from: "bundled", the entry point, the file path,
            or the MCP server's command line.
    """

    name: str
    kind: str
    state: str
    tools: list[str] = field(default_factory=list)
    error: str | None = None
    origin: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-friendly dict of the attributes."""
        return asdict(self)


def _kind(origin: str) -> str:
    if origin == "bundled":
        return "bundled"
    return "entry point" if origin.startswith("entry point") else "file"


def plugin_statuses(report: LoadReport) -> list[PluginStatus]:
    """Rows for the plugins in ``report`` (from :func:`plugins.loader.load_plugins`):
    loaded ones, then failed, then disabled, each in load order."""
    rows = [PluginStatus(p.name, _kind(p.origin), "started", [t.name for t in p.tools], None, p.origin)
            for p in report.plugins]
    for name, error in report.failures:
        origin = report.origins.get(name, "")
        rows.append(PluginStatus(name, _kind(origin), "failed", [], error, origin))
    for name in report.disabled:
        origin = report.origins.get(name, "")
        rows.append(PluginStatus(name, _kind(origin), "disabled", [], None, origin))
    return rows


def _command_line(raw: Any) -> str:
    if not isinstance(raw, Mapping):
        return ""
    args = raw.get("args") if isinstance(raw.get("args"), list) else []
    return " ".join(str(x) for x in [raw.get("command", ""), *args]).strip()


def mcp_statuses(servers: Mapping[str, Any] | None, manager: Any = None) -> list[PluginStatus]:
    """Rows for the configured MCP servers, in config order.

    Args:
        servers: ``{"mcpServers": {...}}`` or the inner mapping (as in config.toml).
        manager: the ``plugins.mcp.MCPManager`` that serves them (None: none was
            made; well-formed servers are then "not started"). It is only read:
            a server it has not started yet is "not started".
    """
    inner = servers.get("mcpServers", servers) if isinstance(servers, Mapping) else {}
    inner = inner if isinstance(inner, Mapping) else {}
    _, malformed = parse_servers(inner)
    failures = dict(getattr(manager, "failures", {}) or {}) if manager is not None else {}
    rows = []
    for name, raw in inner.items():
        name = str(name)
        row = PluginStatus(name, "mcp", "not started", origin=_command_line(raw))
        if isinstance(raw, Mapping) and raw.get("disabled") is True:
            row.state = "disabled"
        elif name in malformed or name in failures:
            row.state, row.error = "failed", malformed.get(name) or failures[name]
        elif manager is not None and manager.running(name):
            row.state = "started"
            row.tools = [tool_name(name, t) for t in manager.server_tools(name)]
        rows.append(row)
    return rows


def plugin_report(
    config: Mapping[str, Any] | None = None,
    *,
    user_dir: Path | None = None,
    reserved_tools: Iterable[str] = (),
    start_mcp: bool = True,
    secrets: Callable[[str], str | None] | None = None,
) -> list[PluginStatus]:
    """Load every plugin and start every MCP server of ``config``, report, stop them.

    Args:
        config: the tool config (``Settings.tool_config()``): ``plugins`` and
            ``mcpServers`` are read.
        user_dir: the user plugins folder (None: none).
        reserved_tools: built-in tool names (a plugin reusing one fails, as in the app).
        start_mcp: start the MCP servers (up to each one's ``startup_timeout``
            seconds); False reports them "not started".
        secrets: secret lookup for plugins and ``${secret:NAME}`` in MCP env
            (default: the OS keyring).

    Returns:
        Plugin rows (see :func:`plugin_statuses`), then MCP rows. Never raises for
        a plugin's or a server's fault: that is a "failed" row with its error.
    """
    config = config or {}
    try:
        rows = plugin_statuses(load_plugins(config, user_dir=user_dir, reserved_tools=reserved_tools,
                                            secrets=secrets))
    except Exception as exc:  # noqa: BLE001 - e.g. a bundled plugin's dependency is not installed
        rows = [PluginStatus("plugins", "bundled", "failed", error=f"the plugin loader failed: {one_line(exc)}")]
    servers = config.get("mcpServers") or {}
    if not start_mcp or not servers:
        return rows + mcp_statuses(servers, None)
    from plugins.mcp import MCPManager

    with MCPManager(servers, secrets=secrets) as manager:
        manager.tools()
        return rows + mcp_statuses(servers, manager)
