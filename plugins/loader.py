"""Find, enable and load plugins; a plugin that fails is reported, never fatal.

Sources, in order: bundled plugins (``plugins.bundled``), entry points in the
group ``assistant.plugins`` (entry-point name = plugin name, value = the
``register`` callable), and ``<user_dir>/*.py`` files each defining
``register(api)`` (file stem = plugin name). A later source with the same name
as an earlier one is reported as a failure and skipped.

Enable / disable (the plugin is then not even imported):
``config["plugins"]["disabled"] = ["name", ...]`` or
``config["plugins"]["<name>"]["enabled"] = false``.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from plugins.api import Plugin, PluginAPI

__all__ = ["ENTRY_POINT_GROUP", "LoadReport", "bundled_plugins", "load_plugins", "is_enabled", "one_line"]

ENTRY_POINT_GROUP = "assistant.plugins"

RegisterFn = Callable[[PluginAPI], None]


@dataclass
class LoadReport:
    """The outcome of :func:`load_plugins`.

    Attributes:
        plugins: loaded plugins, in load order.
        failures: ``(name, one-line error)`` for each plugin that could not load.
        disabled: names skipped because config disables them.
        origins: ``{name: origin}`` of every plugin found, loaded or not
            ("bundled", "entry point <module:attr>" or the file path; the first
            source wins when two share a name).
    """

    plugins: list[Plugin] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    origins: dict[str, str] = field(default_factory=dict)

    def tools(self) -> list:
        """All tools of all loaded plugins (``list[tools.base.Tool]``)."""
        return [t for p in self.plugins for t in p.tools]

    def get(self, name: str) -> Plugin | None:
        """The loaded plugin called ``name``, or None."""
        return next((p for p in self.plugins if p.name == name), None)


def one_line(exc: BaseException) -> str:
    """``"Type: message"`` squeezed onto one line (at most 300 characters)."""
    msg = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def _plugins_config(config: Mapping[str, Any]) -> Mapping[str, Any]:
    section = config.get("plugins") if isinstance(config, Mapping) else None
    return section if isinstance(section, Mapping) else {}


def is_enabled(config: Mapping[str, Any], name: str) -> bool:
    """False when ``config`` disables plugin ``name`` (see module docstring)."""
    section = _plugins_config(config)
    if name in (section.get("disabled") or []):
        return False
    block = section.get(name)
    return not (isinstance(block, Mapping) and block.get("enabled") is False)


def _register(
    name: str,
    register: RegisterFn,
    origin: str,
    config: Mapping[str, Any],
    secrets: Callable[[str], str | None] | None,
) -> Plugin:
    block = _plugins_config(config).get(name)
    api = PluginAPI(name, block if isinstance(block, Mapping) else {}, secrets=secrets)
    if not callable(register):
        raise TypeError(f"{origin} does not point to a callable register(api)")
    register(api)
    return api.build(origin)


def _load_file(path: Path) -> RegisterFn:
    module_name = f"assistant_user_plugin_{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    register = getattr(module, "register", None)
    if register is None:
        raise AttributeError(f"{path.name} defines no register(api) function")
    return register


def _candidates(
    user_dir: Path | None, include_bundled: bool, include_entry_points: bool
) -> Iterable[tuple[str, str, Callable[[], RegisterFn]]]:
    """Yield ``(name, origin, get_register)``; importing happens in get_register."""
    if include_bundled:
        from plugins.bundled import BUNDLED

        for name, register in BUNDLED.items():
            yield name, "bundled", (lambda r=register: r)
    try:
        eps = list(metadata.entry_points(group=ENTRY_POINT_GROUP)) if include_entry_points else []
    except Exception:  # noqa: BLE001 - a broken dist must not stop the app
        eps = []
    for ep in eps:
        yield ep.name, f"entry point {ep.value}", ep.load
    if user_dir is not None and Path(user_dir).is_dir():
        for path in sorted(Path(user_dir).glob("*.py")):
            if path.name.startswith("_"):
                continue
            yield path.stem, str(path), (lambda p=path: _load_file(p))


def load_plugins(
    config: Mapping[str, Any] | None = None,
    *,
    user_dir: Path | None = None,
    include_bundled: bool = True,
    entry_points: bool = True,
    reserved_tools: Iterable[str] = (),
    secrets: Callable[[str], str | None] | None = None,
) -> LoadReport:
    """Discover and load every enabled plugin.

    Args:
        config: the app config; only ``config["plugins"]`` is read.
        user_dir: the user plugins folder (``*.py`` files; ``_*.py`` are skipped);
            None or a missing folder adds nothing.
        include_bundled: load the bundled plugins (notes, calendar, memory).
        entry_points: load plugins installed under the ``assistant.plugins`` group.
        reserved_tools: tool names already taken (the built-ins); a plugin
            providing one of them fails to load.
        secrets: passed to each :class:`PluginAPI` (default: the keyring).

    Returns:
        A :class:`LoadReport`. Never raises for a plugin's fault: import errors,
        a missing ``register``, exceptions inside it, bad settings and tool-name
        clashes become ``failures`` and the plugin is left out.
    """
    config = config or {}
    report = LoadReport()
    taken: dict[str, str] = {n: "built-in tools" for n in reserved_tools}
    seen: set[str] = set()
    for name, origin, get_register in _candidates(user_dir, include_bundled, entry_points):
        report.origins.setdefault(name, origin)
        if name in seen:
            report.failures.append((name, f"another plugin is already called {name!r} ({origin} skipped)"))
            continue
        seen.add(name)
        if not is_enabled(config, name):
            report.disabled.append(name)
            continue
        try:
            plugin = _register(name, get_register(), origin, config, secrets)
            clash = next((t.name for t in plugin.tools if t.name in taken), None)
            if clash:
                raise ValueError(f"tool {clash!r} is already provided by {taken[clash]}")
        except BaseException as exc:  # noqa: BLE001 - a plugin never takes the app down
            if isinstance(exc, KeyboardInterrupt):
                raise
            report.failures.append((name, one_line(exc)))
            continue
        for t in plugin.tools:
            taken[t.name] = f"plugin {name!r}"
        report.plugins.append(plugin)
    return report


def bundled_plugins(config: Mapping[str, Any] | None = None) -> list[Plugin]:
    """The bundled plugins (notes, calendar, memory) registered with their
    settings from ``config["plugins"]``; disabled ones are left out.

    Raises:
        PluginError: a bundled plugin's settings block is invalid.
    """
    from plugins.api import PluginError

    report = load_plugins(config or {}, user_dir=None, include_bundled=True, entry_points=False)
    if report.failures:
        name, err = report.failures[0]
        raise PluginError(f"bundled plugin {name}: {err}")
    return report.plugins
