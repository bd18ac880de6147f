"""Assemble the tools a task may use: built-ins, plugins, MCP servers, ``ask_human``;
and read secrets for tools (:func:`read_secret`) and for redaction (:func:`redaction_secrets`).

Each source is imported lazily and tolerated when absent or broken: a missing
package or a failing plugin is reported in :attr:`Toolset.problems`, never fatal.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from pydantic import BaseModel, Field

from tools.base import RiskClass, Tool, ToolContext, ToolRegistry, ToolResult

__all__ = [
    "AskHumanParams", "ASK_HUMAN", "Toolset", "build_toolset", "load_tools_file",
    "KNOWN_SECRETS", "read_secret", "secret_names", "redaction_secrets", "seen_secrets",
]


class AskHumanParams(BaseModel):
    question: str = Field(description="One clear question for the user.")
    choices: list[str] = Field(default_factory=list, description="Optional answers to pick from.")


def _ask_human(ctx: ToolContext, params: AskHumanParams) -> ToolResult:
    # The loop intercepts this tool and pauses the task; this body only runs
    # if a caller invokes the tool outside the loop.
    return ToolResult(text="(waiting for the user's answer)", data={"question": params.question})


ASK_HUMAN = Tool(
    name="ask_human",
    description="Ask the user a question and wait for the answer (for decisions or missing information).",
    params=AskHumanParams,
    fn=_ask_human,
    risk=RiskClass.READ,
)

_BUILTIN_SOURCES = (
    ("tools.files", "FILE_TOOLS"),
    ("tools.office", "OFFICE_TOOLS"),
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
            _add_all(reg, tools, problems, module)
    from .loop.toolgroups import USE_TOOLS

    _add_all(reg, [ASK_HUMAN, USE_TOOLS], problems, "core")
    _add_all(reg, extra, problems, "extra")
    if plugins:
        try:
            from plugins.loader import load_plugins

            if plugin_dir is None:
                from . import paths

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


# -- secrets ------------------------------------------------------------------------
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
