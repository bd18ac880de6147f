"""Assemble the tools a task may use: built-ins, the core tools (``tools.core``),
plugins and MCP servers.

Each source is imported lazily and tolerated when absent or broken: a missing
package or a failing plugin is reported in :attr:`Toolset.problems`, never fatal.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from tools.base import Tool, ToolRegistry
from tools.core import CORE_TOOLS

__all__ = ["Toolset", "build_toolset", "load_tools_file"]


_BUILTIN_SOURCES = (
    ("tools.files", "FILE_TOOLS"),
    ("tools.office", "OFFICE_TOOLS"),
    ("tools.tables", "TABLE_TOOLS"),
    ("tools.web", "WEB_TOOLS"),
)


@dataclass
class Toolset:
    """The registry plus what could not be loaded and what needs closing.

    Attributes:
        registry: every tool a task may call.
        problems: one line per source that could not be loaded.
        mcp: the started ``plugins.mcp.MCPManager`` (None without MCP servers).
        plugins: the loaded ``plugins.api.Plugin`` objects, in load order (their
            system prompts and slash commands are used by the agent and the TUI).
    """

    registry: ToolRegistry
    problems: list[str] = field(default_factory=list)
    mcp: Any = None
    plugins: list[Any] = field(default_factory=list)

    def close(self) -> None:
        """Stop MCP servers, if any were started."""
        if self.mcp is not None:
            try:
                self.mcp.close()
            except Exception:  # noqa: BLE001 - best effort on shutdown
                pass
            self.mcp = None


def _runs_here(tool: Tool) -> bool:
    """False for a built-in tool this machine cannot run, so the model is never offered it:
    ``xlsx_recalc`` without LibreOffice (xlsx_total at 3797c71: Qwen 1.5B called it three
    times after the =SUM was saved, each time told it cannot run here, and ran out of steps)."""
    if tool.name == "xlsx_recalc":
        from tools.office.recalc import find_soffice

        return find_soffice() is not None
    return True


def _add_all(reg: ToolRegistry, tools: Iterable[Tool], problems: list[str], origin: str) -> None:
    for t in tools:
        try:
            reg.add(t)
        except ValueError as exc:
            problems.append(f"{origin}: {exc}")


def build_toolset(
    config: Any = None,
    *,
    builtins: bool = True,
    plugins: bool = True,
    mcp: bool = True,
    plugin_dir: Path | None = None,
    extra: Iterable[Tool] = (),
) -> Toolset:
    """Build the tools for a task.

    Args:
        config: a :class:`assistant.config.Settings` (or None for defaults).
        builtins: add ``tools.files``, ``tools.office`` and ``tools.web`` tools.
        plugins: load plugins (bundled, entry points, ``plugin_dir``).
        mcp: start configured MCP servers and add their tools.
        plugin_dir: user plugin folder (default ``config_dir()/plugins``).
        extra: more tools (tests, scripted runs).
    """
    reg = ToolRegistry()
    problems: list[str] = []
    loaded: list[Any] = []
    tool_config = config.tool_config() if config is not None else {}
    if builtins:
        for module, attr in _BUILTIN_SOURCES:
            try:
                tools = getattr(importlib.import_module(module), attr)
            except Exception as exc:  # noqa: BLE001 - a missing part is reported, not fatal
                problems.append(f"{module}: not available ({type(exc).__name__}: {exc})")
                continue
            _add_all(reg, [t for t in tools if _runs_here(t)], problems, module)
    _add_all(reg, CORE_TOOLS, problems, "core")
    _add_all(reg, extra, problems, "extra")
    if plugins:
        try:
            from plugins.loader import load_plugins

            if plugin_dir is None:
                from .infra import paths

                plugin_dir = paths.config_dir() / "plugins"
            report = load_plugins(tool_config, user_dir=plugin_dir, reserved_tools=reg.names())
            _add_all(reg, report.tools(), problems, "plugins")
            loaded = list(report.plugins)
            problems.extend(f"plugin {n}: {e}" for n, e in report.failures)
        except Exception as exc:  # noqa: BLE001
            problems.append(f"plugins: not available ({type(exc).__name__}: {exc})")
    manager = None
    if mcp and tool_config.get("mcpServers"):
        try:
            from plugins.mcp import MCPManager

            manager = MCPManager(tool_config["mcpServers"])
            _add_all(reg, manager.tools(), problems, "mcp")
            problems.extend(f"mcp {n}: {e}" for n, e in getattr(manager, "failures", {}).items())
        except Exception as exc:  # noqa: BLE001
            problems.append(f"mcp: {type(exc).__name__}: {exc}")
    return Toolset(registry=reg, problems=problems, mcp=manager, plugins=loaded)


def load_tools_file(path: Path | str) -> list[Tool]:
    """Tools from a Python file defining ``TOOLS = [...]`` (scripted test runs).

    Raises:
        ValueError: the file cannot be imported or has no ``TOOLS`` list.
    """
    import importlib.util

    path = Path(path)
    spec = importlib.util.spec_from_file_location(f"_assistant_extra_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot import tools file {path}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001
        raise ValueError(f"tools file {path}: {type(exc).__name__}: {exc}") from None
    tools = getattr(module, "TOOLS", None)
    if not isinstance(tools, list):
        raise ValueError(f"tools file {path} has no TOOLS list")
    return tools
