"""Build the pieces of a run from settings: store, model, tools, agent.

Shared by the headless CLI and the TUI so both run tasks the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model.types import ChatModel

from .infra import paths
from .loop.agent import Agent
from .config import Settings
from .state.store import Store
from .infra.secret_cache import read_secret, redaction_secrets
from .toolset import Toolset, build_toolset, load_tools_file

__all__ = ["open_store", "open_model", "open_scripted", "build_agent", "Harness", "open_harness"]


def open_store() -> Store:
    """The task store at ``paths.db_path()`` (created on first use)."""
    return Store(paths.db_path(ensure=True))


def open_model(settings: Settings, cli_value: str | None = None, *, on_load_progress: Any = None) -> Any:
    """Resolve and load the chat model (``--model`` > env > config > pulled > demo).

    ``on_load_progress(fraction)`` is called while a local model's weights load (0.0 .. 1.0).

    Raises:
        model.types.ModelError: the model cannot be found or loaded.
    """
    from model.chat import open_chat_model
    from model.select import resolve_model

    if settings.model.backend == "openai":
        return open_remote_model(settings, cli_value)
    choice = resolve_model(cli_value, None, settings.model.path, paths.data_dir() / "models")
    return open_chat_model(
        choice.path, n_ctx=settings.model.n_ctx, cache_dir=paths.cache_dir(ensure=True) / "kv",
        grammar=settings.model.grammar, label=choice.label, is_demo=choice.is_demo,
        n_threads=settings.model.threads, on_load_progress=on_load_progress,
    )


def open_remote_model(settings: Settings, cli_value: str | None = None) -> Any:
    """A :class:`model.remote.RemoteChatModel` for ``model.backend = "openai"``.

    The API key is read from the keyring (secret ``openai_api_key``; none is
    fine for local servers). A local GGUF (``--model`` or ``model.path``), when
    given, supplies the chat template.

    Raises:
        model.types.ModelError: no base URL configured.
    """
    from model.remote import RemoteChatModel
    from model.types import ModelError

    if not settings.model.base_url:
        raise ModelError("model.backend is 'openai' but model.base_url is not set (e.g. http://127.0.0.1:8080/v1)")
    key = read_secret("openai_api_key")  # None without a keyring: servers without keys still work
    template = None
    local = cli_value or settings.model.path
    if local:
        from pathlib import Path as _P

        from model.chat_template import ChatTemplate, TemplateError
        from model.gguf_facts import GGUFError, read_facts

        if _P(local).is_file():
            try:
                template = ChatTemplate(read_facts(local).chat_template)
            except (GGUFError, TemplateError):
                template = None
    return RemoteChatModel(settings.model.base_url, model_name=settings.model.model_name, api_key=key,
                           template=template, context_size=settings.model.n_ctx)


def open_scripted(script_path: str | Path) -> tuple[Any, list, bool]:
    """A scripted model from a script file (tests); returns (model, extra tools,
    load built-in tools?). Raises ``ValueError`` for a bad script."""
    from model.scripted import ScriptedChatModel, load_script

    data = load_script(script_path)
    model = ScriptedChatModel(
        [str(x) for x in data["outputs"]], fmt=data.get("fmt", "xml"),
        starts_in_think=bool(data.get("starts_in_think", False)),
        context_size=int(data.get("context_size", 32768)),
    )
    extra = load_tools_file(data["tools_file"]) if data.get("tools_file") else []
    return model, extra, bool(data.get("builtins", True))


def build_agent(settings: Settings, model: ChatModel, store: Store, toolset: Toolset) -> Agent:
    """The one way the app builds an :class:`Agent` (CLI and TUI): the
    toolset's tools and plugins, keyring secrets, the state folder, and the
    call-format instructions only when the model does not teach them itself
    (``model.teaches_call_format``)."""
    return Agent(model, toolset.registry, store, settings=settings, state_dir=paths.state_dir(ensure=True),
                 with_format=not getattr(model, "teaches_call_format", False), secrets=read_secret,
                 plugins=toolset.plugins)


@dataclass
class Harness:
    """An agent with everything it holds open (store, tools, MCP servers);
    :meth:`close` releases them. Not to be confused with the loop's
    :class:`assistant.state.session.TaskSession` (one task being driven)."""

    agent: Agent
    store: Store
    toolset: Toolset

    def close(self) -> None:
        self.agent.close()
        self.toolset.close()
        self.store.close()


def open_harness(settings: Settings, *, model_name: str | None = None, script: str | None = None,
                 store: Store | None = None) -> Harness:
    """Open store, model and tools and build an :class:`Agent`.

    Raises:
        ModelError: the model cannot be loaded. ValueError: a bad script.
        StoreError: the state DB cannot be opened.
    """
    if script:
        model, extra, builtins = open_scripted(script)
        toolset = build_toolset(settings, builtins=builtins, plugins=False, mcp=False, extra=extra)
    else:
        model = open_model(settings, model_name)
        toolset = build_toolset(settings)
    store = store or open_store()
    redaction_secrets(settings)  # read the config's secrets now, so this process's output can redact them
    return Harness(agent=build_agent(settings, model, store, toolset), store=store, toolset=toolset)
