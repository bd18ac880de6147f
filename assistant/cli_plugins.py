"""``assistant plugins [--json]``: every plugin and MCP server, its tools, state and error.

The rows come from :func:`plugins.report.plugin_report`: plugins are loaded
and MCP servers started the way a task would (same config, same user plugins
folder, built-in tool names reserved), then stopped again.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .infra import paths

__all__ = ["add_commands", "cmd_plugins", "collect_plugins", "format_plugins"]

EXIT_OK = 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Add ``plugins`` to the CLI's subparsers."""
    p = sub.add_parser("plugins", help="list plugins and MCP servers with their tools and state",
                       description="Load every plugin and start every MCP server from the config, then list "
                                   "each with its kind (bundled, entry point, file, mcp), state (started, "
                                   "failed, disabled), tools and start error.")
    p.add_argument("--json", action="store_true", help="print JSON Lines, one object per plugin or server")
    p.set_defaults(func=cmd_plugins)


def collect_plugins(settings: Any, *, start_mcp: bool = True) -> list[Any]:
    """``list[plugins.report.PluginStatus]`` for ``settings`` (an ``assistant.config.Settings``)."""
    from plugins.report import plugin_report

    from .toolset import build_toolset

    builtins = build_toolset(None, plugins=False, mcp=False)
    try:
        reserved = builtins.registry.names()
    finally:
        builtins.close()
    return plugin_report(settings.tool_config(), user_dir=paths.config_dir() / "plugins",
                         reserved_tools=reserved, start_mcp=start_mcp)


def format_plugins(rows: list[dict[str, Any]], indent: str = "  ") -> list[str]:
    """Text lines for ``PluginStatus.as_dict()`` rows: name, kind, state, then the
    tools or the error on the next line."""
    lines = []
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        head = f"{indent}{r['name']:<{width}}  {r['kind']:<11}  {r['state']}"
        if r["state"] == "started":
            tools = ", ".join(r["tools"]) or "no tools"
            head += f", {len(r['tools'])} tool(s): {tools}"
        lines.append(head)
        if r.get("error"):
            lines.append(f"{indent}  error: {r['error']}")
    return lines


def cmd_plugins(args: argparse.Namespace) -> int:
    from .config import load_config

    rows = [s.as_dict() for s in collect_plugins(load_config(None))]
    if args.json:
        for r in rows:
            print(json.dumps(r))
        return EXIT_OK
    print(f"plugins and MCP servers (config: {paths.user_config_file()}, plugin folder: "
          f"{paths.config_dir() / 'plugins'})")
    print("\n".join(format_plugins(rows)) if rows else "  none")
    return EXIT_OK
