"""Layered settings: defaults < user TOML < project ``.assistant.toml`` < env < overrides.

The user file is ``paths.user_config_file()`` (``config.toml`` in the config
dir); the project file is ``.assistant.toml`` at the workspace root. The
environment uses the prefix ``ASSISTANT_`` and ``__`` between nested names
(``ASSISTANT_AGENT__MAX_STEPS=50``). Explicit overrides (from CLI flags) win.
Sections merge key by key, so a project file can change one value of a section.

Example ``config.toml``::

    [model]
    path = "~/models/Nanbeige_Nanbeige4.2-3B-Q4_K_M.gguf"
    n_ctx = 32768

    [agent]
    max_steps = 60
    approve = "edits"
"""

from __future__ import annotations

import contextvars
import tomllib
from pathlib import Path
from typing import Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_settings import BaseSettings, EnvSettingsSource, PydanticBaseSettingsSource, SettingsConfigDict

from .infra import paths
from .state.models import ApproveMode

__all__ = [
    "ConfigError",
    "ModelSettings",
    "AgentSettings",
    "WebSettings",
    "Settings",
    "load_config",
    "PROJECT_FILE",
]

PROJECT_FILE = ".assistant.toml"


class ConfigError(ValueError):
    """A config file or value is invalid; the message is one actionable line."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelSettings(_Section):
    """``[model]``: which model and how to run it."""

    path: str | None = None
    n_ctx: int | None = Field(default=None, ge=512)
    grammar: bool = True
    backend: Literal["local", "openai"] = "local"
    base_url: str | None = None
    model_name: str | None = None
    tool_call_format: Literal["xml", "json"] = "xml"
    thinking: bool = True
    # llama.cpp CPU threads; unset: the cores other processes leave free, re-checked while decoding
    threads: int | None = Field(default=None, ge=1)
    # extra folders where `assistant model list` and the model screen look for *.gguf files
    search_paths: list[str] = Field(default_factory=list)


class AgentSettings(_Section):
    """``[agent]``: task budgets, approval mode and context limits."""

    max_steps: int = Field(default=40, ge=1)
    max_generated_tokens: int = Field(default=100_000, ge=1)
    max_wall_s: float = Field(default=3600.0, gt=0)
    approve: ApproveMode = "ask"
    max_turn_tokens: int = Field(default=4096, ge=64)
    max_observation_chars: int = Field(default=6000, ge=200)
    fold_at: float = Field(default=0.75, gt=0.1, lt=1.0)
    stale_steps: int = Field(default=4, ge=2)
    # "recover": constrain turns only after format errors; "always": every turn must be a
    # tool call or "Final answer: ..." (grammar-enforced; for very small models)
    constrain: Literal["recover", "always"] = "recover"
    # the first turn writes a short plan (update_plan) and every prompt ends with the
    # harness's progress block: plan, calls done, files written, facts found, step n of max.
    # Off by default: on Qwen2.5-Coder-1.5B the plan cost steps (it rewrote its plan at 5 of 7
    # steps of a calendar task, docs/BENCHMARKS.md "Evaluation", 2026-12-01)
    plan: bool = False
    # the files the goal names are read by the harness before the model's first turn
    # (step 0, no step of the budget spent; assistant/loop/preread.py)
    preread: bool = True
    # a question about the goal's CSV/Excel files is answered "done" only when a second query, written by the
    # model in a fresh prompt and run by the harness, gives what the answer gives (assistant/loop/cross_check.py);
    # when they disagree the task is handed to the user with both
    cross_check: bool = True


class WebSettings(BaseModel):
    """``[web]``: web tools (the web tools read the rest of the keys)."""

    model_config = ConfigDict(extra="allow")
    enabled: bool = True


class PluginSettings(BaseModel):
    """``[plugins]``: which plugins load (the loader reads the keys)."""

    model_config = ConfigDict(extra="allow")


_LAYERS: contextvars.ContextVar[tuple[dict, ...]] = contextvars.ContextVar("_LAYERS", default=())


class _DictSource(PydanticBaseSettingsSource):
    """A settings source holding one already-parsed layer."""

    def __init__(self, settings_cls: type[BaseSettings], data: dict[str, Any]) -> None:
        super().__init__(settings_cls)
        self._data = data

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self._data.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return self._data


class _EnvSource(EnvSettingsSource):
    """The ``ASSISTANT_*`` environment, except that ``ASSISTANT_MODEL`` alone is
    the model choice (a path or name, read by ``model.select.resolve_model``),
    not the ``[model]`` section; ``ASSISTANT_MODEL__PATH`` and the other nested
    names still set the section's keys."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        value, key, is_complex = super().get_field_value(field, field_name)
        if field_name == "model":
            value = None  # the nested ASSISTANT_MODEL__* variables are gathered in prepare_field_value
        return value, key, is_complex


class Settings(BaseSettings):
    """All settings. Build with :func:`load_config` rather than directly."""

    model_config = SettingsConfigDict(
        env_prefix="ASSISTANT_",
        env_nested_delimiter="__",
        extra="ignore",
        populate_by_name=True,
    )

    model: ModelSettings = Field(default_factory=ModelSettings)
    agent: AgentSettings = Field(default_factory=AgentSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    plugins: PluginSettings = Field(default_factory=PluginSettings)
    mcp_servers: dict[str, Any] = Field(default_factory=dict, alias="mcpServers")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        files = tuple(_DictSource(settings_cls, layer) for layer in reversed(_LAYERS.get()))
        return (init_settings, _EnvSource(settings_cls), *files)

    def tool_config(self) -> dict[str, Any]:
        """The read-only mapping given to tools (``ToolContext.config``)."""
        return {
            "web": self.web.model_dump(),
            "plugins": self.plugins.model_dump(),
            "mcpServers": dict(self.mcp_servers),
        }


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path}: {exc}. Fix the TOML syntax.") from None
    except OSError as exc:
        raise ConfigError(f"config file {path}: cannot read ({exc.strerror}).") from None


def _deep_merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def load_config(
    workspace: Path | str | None = None,
    overrides: Mapping[str, Any] | None = None,
    *,
    user_file: Path | None = None,
) -> Settings:
    """Read the layered settings.

    Args:
        workspace: folder whose ``.assistant.toml`` applies (None: no project file).
        overrides: nested mapping that wins over everything (e.g.
            ``{"agent": {"max_steps": 5}}``); None values are dropped.
        user_file: the user TOML (default ``paths.user_config_file()``).

    Raises:
        ConfigError: a file is not valid TOML or a value is invalid; the
            message names the key and the file or variable to fix.
    """
    layers = [_read_toml(Path(user_file) if user_file else paths.user_config_file())]
    if workspace is not None:
        layers.append(project_layer(_read_toml(Path(workspace) / PROJECT_FILE)))
    init = _drop_none(dict(overrides or {}))
    token = _LAYERS.set(tuple(layers))
    try:
        return Settings(**init)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err.get("loc", ()))
        env = "ASSISTANT_" + "__".join(str(x).upper() for x in err.get("loc", ()))
        raise ConfigError(
            f"config: {loc}: {err.get('msg', 'invalid')} "
            f"(check config.toml, {PROJECT_FILE} or {env})."
        ) from None
    finally:
        _LAYERS.reset(token)


# A workspace can come from anywhere (a shared folder, a download): its project
# file may tune the task, but not start programs, send data off the machine,
# widen network access or lower the approval mode. Those keys are only read from
# the user's own config, the environment and the command line.
PROJECT_FORBIDDEN: dict[str, tuple[str, ...] | None] = {
    "mcpServers": None,
    "plugins": None,
    "model": ("backend", "base_url", "model_name", "path"),
    "agent": ("approve",),
    "web": ("allow_private", "allow_any_url", "search_engine", "brave_base_url", "proxy"),
}


def project_layer(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` from a workspace's ``.assistant.toml`` without the keys in
    :data:`PROJECT_FORBIDDEN` (whole sections when the value is None)."""
    out: dict[str, Any] = {}
    for section, value in data.items():
        banned = PROJECT_FORBIDDEN.get(section, ())
        if banned is None:
            continue
        if isinstance(value, dict) and banned:
            value = {k: v for k, v in value.items() if k not in banned}
        out[section] = value
    return out


def _drop_none(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            value = _drop_none(value)
        if value is not None:
            out[key] = value
    return out
