"""Loading, reloading and switching the app's model, and building its agent
(mixed into :class:`assistant.tui.app.AssistantApp`).

The model loads in a thread worker (group "model") while the loading bar shows;
``ModelLoaded`` / ``ModelLoadFailed`` come back as messages. A task queued
before the model was ready starts when it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.widgets import Static

from assistant.config import Settings

from .loading import default_agent_factory
from .messages import ModelLoaded, ModelLoadFailed
from .widgets import NoticeLine, StatusBar, Transcript

if TYPE_CHECKING:  # pragma: no cover
    from .app import AssistantApp

__all__ = ["ModelMixin"]


class ModelMixin:
    """The model half of the app: each method types ``self`` as the app."""

    @work(thread=True, exclusive=True, group="model", exit_on_error=False)
    def _load_model(self: "AssistantApp") -> None:
        import inspect

        shown = [-1]

        def on_progress(fraction: float) -> None:  # llama.cpp's load callback, on this worker thread
            percent = int(fraction * 100)
            if percent != shown[0]:
                shown[0] = percent
                self.call_from_thread(self._show_load_progress, percent)

        loader = self._model_loader
        try:
            takes = "on_progress" in inspect.signature(loader).parameters
        except (TypeError, ValueError):
            takes = False
        try:
            model = loader(on_progress=on_progress) if takes else loader()
        except Exception as exc:  # noqa: BLE001 - shown to the user, never a crash
            self.post_message(ModelLoadFailed(str(exc) or type(exc).__name__))
            return
        self.post_message(ModelLoaded(model))

    def _show_load_progress(self: "AssistantApp", percent: int) -> None:
        """The loading bar at ``percent`` of the weights loaded (a real figure, not a spinner)."""
        from textual.widgets import ProgressBar

        self.query_one("#loading-bar", ProgressBar).update(total=100, progress=percent)
        self.query_one("#loading-label", Static).update(f"Loading model… {percent}%")

    def on_model_loaded(self: "AssistantApp", message: ModelLoaded) -> None:
        self._model_ready(message.model)

    def _model_ready(self: "AssistantApp", model: Any) -> None:
        self.model = model
        self.query_one("#loading").display = False
        self.query_one(StatusBar).set_model(model)
        if self.handler is not None:
            self.handler.context_size = int(getattr(model, "context_size", 0) or 0) or None
        start = self.run_state.take_queued()
        if start is not None:
            self._drive_with(start)

    def use_model(self: "AssistantApp", path: str, name: str = "") -> None:
        """Run ``path`` (a GGUF) for the rest of this session, as ``--model`` would
        (the model screen's "use this"); the current model is unloaded first."""
        self.model_choice = path
        self.query_one(Transcript).mount(NoticeLine(
            f"Loading {name or path}. To keep it, set model.path = \"{path}\" in config.toml."))
        self.reload_model(self.config)

    def reload_model(self: "AssistantApp", config: Settings) -> None:
        """Drop the current model and load the one ``config`` selects, with the
        loading bar; a running task finishes its run first."""
        if self.running:
            earlier = self.run_state.after_run

            def later() -> None:
                if earlier is not None:
                    earlier()
                self.reload_model(config)

            self.run_state.after_run = later
            self.notify("The model reloads when the running task has stopped.")
            return
        old, self.model, self.agent = self.model, None, None
        close = getattr(getattr(old, "runtime", None), "close", None)
        if callable(close):
            close()  # free its memory before the next one loads
        self._model_loader = self._loader_for(config)
        self.query_one(StatusBar).model_name = ""
        self.query_one("#loading-label", Static).update("Loading model…")
        self.query_one("#loading-bar").display = True
        self.query_one("#loading").display = True
        self._load_model()

    async def on_model_load_failed(self: "AssistantApp", message: ModelLoadFailed) -> None:
        self.query_one("#loading-label", Static).update(f"Model not loaded: {message.message}")
        self.query_one("#loading-bar").display = False
        await self.query_one(Transcript).mount(
            NoticeLine(f"Model not loaded: {message.message}. Use /model to see details.", "error"))

    def ensure_agent(self: "AssistantApp") -> Any:
        """The agent (built on first use; needs the model)."""
        if self.agent is None:
            factory = self._agent_factory or default_agent_factory(self.config, self.store)
            self.agent = factory(self.model)
        return self.agent
