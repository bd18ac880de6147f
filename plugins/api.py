"""The plugin API: what a plugin registers and the object it registers through.

A plugin is a callable ``register(api: PluginAPI) -> None``, found through the
entry-point group ``assistant.plugins`` (the entry-point name is the plugin's
name), in the user plugins folder (``<name>.py`` defining ``register``), or
bundled with the app. ``register`` adds tools (the same typed-function contract
as the built-ins, :class:`tools.base.Tool`), slash commands, a settings model
and a system-prompt contribution. The loader turns what it registered into a
:class:`Plugin`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, TypeVar

from pydantic import BaseModel, ValidationError

from tools.base import Tool, ToolContext

__all__ = [
    "Plugin",
    "PluginAPI",
    "PluginError",
    "SlashCommand",
    "SystemPromptFn",
    "TOOL_NAME_RE",
]

TOOL_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
SLASH_NAME_RE = re.compile(r"^[a-z][a-z0-9_-]*$")

SlashCommand = Callable[[ToolContext, str], str]
"""``fn(ctx, argument) -> text``: runs when the user types ``/name argument``;
the returned text is shown to the user."""

SystemPromptFn = Callable[[ToolContext], str]
"""``fn(ctx) -> text`` appended to the system prompt ("" adds nothing)."""

M = TypeVar("M", bound=BaseModel)


class PluginError(Exception):
    """A plugin registered something invalid; the message is one line."""


@dataclass
class Plugin:
    """A loaded plugin.

    Attributes:
        name: the plugin's name (entry-point name, file stem, or bundled name).
        tools: tools it provides; each has ``source`` set to ``name``.
        slash_commands: ``{"name": fn(ctx, argument) -> str}`` (name without "/").
        settings_model: the pydantic model of its settings block, if any.
        system_prompt: ``fn(ctx) -> str`` contributing to the system prompt, if any.
        slash_help: one-line help per slash command.
        settings: the validated settings instance (``config["plugins"][name]``).
        origin: "bundled", "entry point <module:attr>" or the file path.
    """

    name: str
    tools: list[Tool] = field(default_factory=list)
    slash_commands: dict[str, Callable[..., str]] = field(default_factory=dict)
    settings_model: type[BaseModel] | None = None
    system_prompt: SystemPromptFn | None = None
    slash_help: dict[str, str] = field(default_factory=dict)
    settings: BaseModel | None = None
    origin: str = ""


class PluginAPI:
    """What ``register(api)`` receives.

    Args:
        name: the plugin's name.
        config: this plugin's settings block (``config["plugins"][name]``), a mapping.
        secrets: ``name -> str | None`` used by :meth:`secret`; defaults to the
            keyring (``plugins.secrets.get_secret``).
    """

    def __init__(
        self,
        name: str,
        config: Mapping[str, Any] | None = None,
        *,
        secrets: Callable[[str], str | None] | None = None,
    ) -> None:
        self.name = name
        self.config: Mapping[str, Any] = dict(config or {})
        self._secrets = secrets
        self._plugin = Plugin(name=name)
        self._prompts: list[SystemPromptFn] = []

    def add_tool(self, t: Tool) -> None:
        """Register a tool. Raises :class:`PluginError` for a bad or duplicate name."""
        if not isinstance(t, Tool):
            raise PluginError(f"add_tool expects a tools.base.Tool, got {type(t).__name__}")
        if not TOOL_NAME_RE.match(t.name):
            raise PluginError(f"tool name {t.name!r} must match [a-z][a-z0-9_]*")
        if any(x.name == t.name for x in self._plugin.tools):
            raise PluginError(f"tool {t.name!r} registered twice")
        t.source = self.name
        self._plugin.tools.append(t)

    def add_slash_command(self, name: str, fn: SlashCommand, help: str = "") -> None:
        """Register ``/name``; ``fn(ctx, argument) -> str``. Raises :class:`PluginError`."""
        name = name.lstrip("/")
        if not SLASH_NAME_RE.match(name):
            raise PluginError(f"slash command {name!r} must match [a-z][a-z0-9_-]*")
        if not callable(fn):
            raise PluginError(f"slash command /{name} is not callable")
        self._plugin.slash_commands[name] = fn
        self._plugin.slash_help[name] = help.strip().splitlines()[0] if help.strip() else ""

    def settings(self, model: type[M]) -> M:
        """Validate this plugin's settings block with ``model`` and return the instance.

        The ``enabled`` key is the loader's and is not passed to ``model``.
        Raises :class:`PluginError` naming the bad keys.
        """
        data = {k: v for k, v in self.config.items() if k != "enabled"}
        try:
            inst = model.model_validate(data)
        except ValidationError as exc:
            bad = "; ".join(
                f"{'.'.join(str(p) for p in e.get('loc', ())) or '(settings)'}: {e.get('msg', 'invalid')}"
                for e in exc.errors()[:3]
            )
            raise PluginError(f"bad settings in [plugins.{self.name}]: {bad}") from None
        self._plugin.settings_model = model
        self._plugin.settings = inst
        return inst

    def add_system_prompt(self, fn: SystemPromptFn) -> None:
        """Contribute ``fn(ctx) -> str`` to the system prompt (may be called more than once)."""
        if not callable(fn):
            raise PluginError("add_system_prompt expects a callable fn(ctx) -> str")
        self._prompts.append(fn)

    def secret(self, name: str) -> str | None:
        """Read a secret by name (None when unset). Raises
        ``plugins.secrets.SecretsUnavailable`` when no keyring backend works."""
        if self._secrets is not None:
            return self._secrets(name)
        from plugins.secrets import get_secret

        return get_secret(name)

    def build(self, origin: str = "") -> Plugin:
        """The :class:`Plugin` assembled from what was registered (used by the loader)."""
        plugin = self._plugin
        plugin.origin = origin
        prompts = list(self._prompts)
        if len(prompts) == 1:
            plugin.system_prompt = prompts[0]
        elif prompts:
            plugin.system_prompt = lambda ctx: "\n\n".join(p for p in (f(ctx) for f in prompts) if p)
        return plugin
