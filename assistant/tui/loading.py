"""Building the pieces the app needs: the chat model (slow, run in a worker
thread) and the agent around it."""

from __future__ import annotations

from typing import Any, Callable

from assistant.config import Settings

__all__ = ["default_model_loader", "default_agent_factory", "ModelLoader", "AgentFactory"]

ModelLoader = Callable[..., Any]
"""``(on_progress=None) -> ChatModel``; may raise ``model.types.ModelError`` (one-line message).
``on_progress(fraction)`` (0.0 .. 1.0) is optional: a loader without that parameter is called with none."""

AgentFactory = Callable[[Any], Any]
"""``(chat_model) -> assistant.loop.agent.Agent``."""


def default_model_loader(config: Settings, cli_model: str | None = None) -> ModelLoader:
    """A loader following the model selection order (``--model``, env, config,
    pulled reference model, demo model). The returned callable blocks for as
    long as llama.cpp needs to load the weights; call it from a worker thread.
    """

    def load(on_progress: Callable[[float], None] | None = None) -> Any:
        from assistant.wiring import open_model

        return open_model(config, cli_model, on_load_progress=on_progress)

    return load


def default_agent_factory(config: Settings, store: Any, *, plugins: bool = True, builtins: bool = True,
                          extra_tools: tuple = ()) -> AgentFactory:
    """A factory building an :class:`assistant.loop.agent.Agent` over ``store`` with
    the built-in tools (when ``builtins``), plugins and MCP servers (when
    ``plugins``), ``ask_human`` and ``extra_tools``."""

    def make(model: Any) -> Any:
        from assistant.toolset import build_toolset
        from assistant.wiring import build_agent

        toolset = build_toolset(config, builtins=builtins, plugins=plugins, mcp=plugins, extra=extra_tools)
        return build_agent(config, model, store, toolset)

    return make
