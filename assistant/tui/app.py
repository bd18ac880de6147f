"""The Textual app: a transcript, an input, a status bar, and the agent loop
running in a thread worker that posts every event as a message.

Nothing here blocks the event loop: the model loads in a thread worker (with a
progress bar) and each task run is one exclusive thread worker iterating the
agent's events. Esc cancels the current generation and leaves the task paused;
quitting mid-task cancels, waits for the checkpoint, then exits, so the task is
resumable from the tasks screen or ``assistant resume``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, ProgressBar, Static

from assistant.config import Settings
from assistant.events import Paused

from .commands import COMMANDS, CommandsMixin, plugin_commands
from .completion import goal_with_mentions, list_files
from .handler import EventHandler
from .loading import AgentFactory, ModelLoader, default_model_loader
from .messages import AgentEvent, RunEnded
from .model_mixin import ModelMixin
from .pauses import removal_preview, resolution_for
from .run_state import MakeEvents, Phase, RunState
from .screens.approval import ApprovalDecision, ApprovalScreen
from .widgets import HandOffPanel, NoticeLine, PromptArea, PromptInput, StatusBar, Transcript, UnseenNote, UserMessage

__all__ = ["AssistantApp", "run_app"]

_IDLE_HINT = "Type a goal and press Enter · /help for commands"


class AssistantApp(CommandsMixin, ModelMixin, App[int]):
    """The assistant's TUI.

    Args:
        config: settings (default: ``load_config()`` for the current folder).
        model: an already loaded chat model (tests inject a scripted one); when
            None, ``model_loader`` runs in a thread worker after the first frame.
        model_loader: ``() -> ChatModel`` (default: the model selection order).
        loader_for: ``(settings) -> model_loader``, used to reload the model when
            the settings screen changes ``[model]`` (default: the selection order
            with ``model_choice``).
        model_choice: the ``--model`` value the app was started with (None: none).
        agent_factory: ``(model) -> Agent`` (default: built-in tools over ``store``).
        store: the task store (default: the state DB under ``paths.state_dir()``).
        workspace: the folder tasks work in (default: the current directory).
        now: epoch-seconds clock for the tasks screen (tests pin it).
    """

    TITLE = "assistant"
    CSS_PATH = str(Path(__file__).with_name("app.tcss"))
    BINDINGS = [
        Binding("escape", "cancel_task", "Stop", id="cancel"),
        Binding("ctrl+t", "tasks", "Tasks", id="tasks", priority=True),
        Binding("ctrl+n", "new_task", "New", id="new", priority=True),
        Binding("f2", "model_screen", "Model", id="model"),
        Binding("f3", "settings", "Settings", id="settings"),
        Binding("f1", "keys_help", "Keys", id="keys"),
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True),
    ]

    def __init__(self, config: Settings | None = None, *, model: Any = None, model_loader: ModelLoader | None = None,
                 loader_for: Callable[[Settings], ModelLoader] | None = None, model_choice: str | None = None,
                 agent_factory: AgentFactory | None = None, store: Any = None, workspace: Path | str | None = None,
                 now: Callable[[], float] = time.time) -> None:
        super().__init__()
        if config is None:
            from assistant.config import load_config

            config = load_config(Path.cwd())
        self.config = config
        self.model = model
        self.model_choice = model_choice
        self._loader_for = loader_for or (lambda settings: default_model_loader(settings, self.model_choice))
        self._model_loader = model_loader or self._loader_for(config)
        self._store = store
        self._agent_factory = agent_factory
        self.agent: Any = None
        self.workspace = Path(workspace or Path.cwd()).resolve()
        self.now = now
        self.run_state = RunState()
        self.handler: EventHandler | None = None
        self._slash_plugins: list[Any] | None = None  # loaded on first use (commands.py)
        self._model_warned: set[str] = set()  # tasks already told they run on another model

    # -- the run state, read and written through one value ------------------------
    @property
    def running(self) -> bool:
        """True while a loop's worker runs (``run_state.phase`` is RUNNING)."""
        return self.run_state.running

    @property
    def task_id(self) -> str | None:
        """The task on screen (None: none yet)."""
        return self.run_state.task_id

    @task_id.setter
    def task_id(self, value: str | None) -> None:
        self.run_state.task_id = value

    @property
    def pause(self) -> Paused | None:
        """The pause the task on screen waits in (None: not paused)."""
        return self.run_state.pause

    @pause.setter
    def pause(self, value: Paused | None) -> None:
        self.run_state.pause = value

    # -- layout ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Transcript(id="transcript")
        yield UnseenNote(id="unseen")
        with Horizontal(id="loading"):
            yield Static("Loading model…", id="loading-label")
            yield ProgressBar(total=None, show_eta=False, id="loading-bar")
        yield Vertical(id="handoff-area")
        yield PromptArea(placeholder=_IDLE_HINT, prompt_id="prompt")
        yield StatusBar(id="status")
        yield Footer()

    @property
    def store(self) -> Any:
        """The task store (opened on first use)."""
        if self._store is None:
            from assistant.wiring import open_store

            self._store = open_store()
        return self._store

    def on_mount(self) -> None:
        transcript = self.query_one(Transcript)
        status = self.query_one(StatusBar)
        self.handler = EventHandler(transcript, status, on_paused=self._on_paused,
                                    on_finished=self._on_finished, on_started=self._on_started)
        status.max_steps = self.config.agent.max_steps
        status.workspace = self.workspace.name or str(self.workspace)
        self.set_interval(1.0, self._tick)
        prompt = self.query_one(PromptInput)
        prompt.commands = lambda: [*COMMANDS, *plugin_commands(self.slash_plugins())]
        prompt.files = lambda: list_files(self.workspace)
        prompt.focus()
        self.call_after_refresh(self._greet)
        if self.model is not None:
            self._model_ready(self.model)
        else:
            self._load_model()

    def _tick(self) -> None:
        """Each second while a task runs: refresh the phase's elapsed time and ETA."""
        if self.running and self.handler is not None:
            self.handler.show_phase()

    async def _greet(self) -> None:
        """After the first frame: point at tasks left paused by an earlier session."""
        try:
            waiting = [t for t in self.store.list_tasks() if t.status in ("paused", "running")]
        except Exception as exc:  # noqa: BLE001 - a broken DB is reported, not fatal
            await self.query_one(Transcript).mount(NoticeLine(f"Task store unavailable: {exc}", "error"))
            return
        if waiting and self.task_id is None and self.run_state.phase is Phase.IDLE:
            t = waiting[0]
            more = f" and {len(waiting) - 1} more" if len(waiting) > 1 else ""
            await self.query_one(Transcript).mount(NoticeLine(
                f"Task {t.id} ({' '.join(t.goal.split())[:50]}){more} waits for you: "
                "/resume continues it, /tasks lists all."))

    # -- running the loop ------------------------------------------------------------
    def _drive_with(self, make_events: MakeEvents) -> None:
        if self.model is None:
            self.run_state.queue(make_events)
            self.query_one(StatusBar).status = "waiting for model"
            return
        self.run_state.start()
        self._clear_handoff()
        self.query_one(StatusBar).status = "running"
        self.query_one(PromptInput).placeholder = "Working… Esc stops"
        self._drive(make_events)

    @work(thread=True, exclusive=True, group="agent", exit_on_error=False)
    def _drive(self, make_events: MakeEvents) -> None:
        """Iterate the loop's events in this thread; post each to the app."""
        try:
            for event in make_events():
                self.post_message(AgentEvent(event))
                if self.run_state.cancel.is_set() and self.agent is not None:
                    self.agent.cancel()  # a cancel asked for before the loop had started
        except Exception as exc:  # noqa: BLE001 - the loop should not raise; report if it does
            self.post_message(RunEnded(f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(RunEnded())

    def on_transcript_unseen(self, message: Transcript.Unseen) -> None:
        self.query_one(UnseenNote).display = message.unseen

    async def on_agent_event(self, message: AgentEvent) -> None:
        if self.handler is not None:
            await self.handler.handle(message.event)

    async def on_run_ended(self, message: RunEnded) -> None:
        after_run = self.run_state.end()
        if message.error:
            await self.query_one(Transcript).mount(NoticeLine(f"The task loop failed: {message.error}", "error"))
            self.query_one(StatusBar).status = "error"
        if self.pause is None:
            self.query_one(PromptInput).placeholder = _IDLE_HINT
        if self.run_state.quit_pending:
            self.exit(0)
            return
        if after_run is not None:
            after_run()

    def start_task(self, goal: str) -> None:
        """Show ``goal`` and start a new task for it in the workspace."""
        self.run_state.forget_task()
        self.query_one(Transcript).mount(UserMessage(goal))
        workspace = self.workspace
        goal = goal_with_mentions(goal, workspace)  # "Files mentioned: ..." for the @file words
        self._drive_with(lambda: self.ensure_agent().run(goal, workspace=workspace))

    def resume_task(self, task_id: str | None = None, **resolution: Any) -> None:
        """Resume ``task_id`` (default: the current task) with a decision
        (``approval``, ``note``, ``answer``: see ``Agent.resume``)."""
        task_id = task_id or self.task_id
        if not task_id:
            self.notify("No task to resume. Type a goal, or pick one with /tasks.", severity="warning")
            return
        if self.running:  # the previous run is still unwinding: act when it has ended
            self.run_state.after_run = lambda: self.resume_task(task_id, **resolution)
            return
        self.task_id = task_id
        self.pause = None
        self._drive_with(lambda: self.ensure_agent().resume(task_id, **resolution))

    # -- pauses and hand-off -------------------------------------------------------------
    def _on_started(self, event: Any) -> None:
        self.task_id = event.task_id
        try:
            task = self.store.get_task(event.task_id)
        except Exception:  # noqa: BLE001 - a custom agent may use another store
            return
        bar = self.query_one(StatusBar)
        bar.max_steps, bar.step = task.budgets.max_steps, task.usage.steps
        current = str(getattr(self.model, "name", "") or "")
        if event.resumed and task.model and current and task.model != current and task.id not in self._model_warned:
            self._model_warned.add(task.id)
            self.query_one(Transcript).mount(NoticeLine(
                f"This task was started with {task.model}; it continues with {current}.", "warning"))

    def _on_finished(self, event: Any) -> None:
        self.pause = None
        self._clear_handoff()

    def _on_paused(self, event: Paused) -> None:
        self.pause = event
        self.task_id = event.task_id or self.task_id
        self._show_handoff(event)
        if event.kind == "approval":
            self.action_approve()

    def _show_handoff(self, event: Paused) -> None:
        self._clear_handoff()
        self.query_one("#handoff-area").mount(HandOffPanel(event.kind, event.reason, event.choices))
        prompt = self.query_one(PromptInput)
        prompt.placeholder = ("Type your answer and press Enter" if event.kind == "question"
                              else "Type a note and press Enter to continue, or pick a choice above")

    def _clear_handoff(self) -> None:
        self.query_one("#handoff-area").remove_children()

    def on_hand_off_panel_chosen(self, message: HandOffPanel.Chosen) -> None:
        if self.pause is None:
            return
        if self.pause.kind == "approval" and message.choice == "deny":
            self.action_approve()  # the modal collects an optional note
            return
        self.resume_task(self.pause.task_id or None, **resolution_for(self.pause.kind, choice=message.choice))

    def action_approve(self) -> None:
        """Open the approval modal for the pending call (``/approve``)."""
        pending = self.handler.pending_approval if self.handler else None
        if self.pause is None or self.pause.kind != "approval" or pending is None:
            self.notify("Nothing waits for approval.", severity="information")
            return
        diff = pending.diff
        if diff is None:
            from .pauses import preview_for

            diff = preview_for(self.store, self.pause.task_id or self.task_id, pending.call)
        detail = removal_preview(self.workspace, pending.call)
        self.push_screen(ApprovalScreen(pending.call, pending.risk, diff, self.pause.reason, detail),
                         self._approval_done)

    def _approval_done(self, decision: ApprovalDecision | None) -> None:
        if decision is None or self.pause is None:
            return
        self.resume_task(self.pause.task_id or None, approval=decision.choice, note=decision.note or None)

    # -- input ---------------------------------------------------------------------------
    async def on_prompt_input_submitted(self, event: PromptInput.Submitted) -> None:
        text = event.value.strip()
        if not text:
            return
        if self.running and not text.startswith("/"):  # keep the text for when the task has stopped
            self.notify("A task is running. Press Esc to stop it first.", severity="warning")
            return
        event.input.value = ""
        event.input.remember(text)
        if text.startswith("/"):
            await self.run_command(text)
        elif self.pause is not None and self.pause.kind != "approval":
            await self.query_one(Transcript).mount(UserMessage(text))
            self.resume_task(self.pause.task_id or None, **resolution_for(self.pause.kind, text=text))
        elif self.pause is not None:
            self.action_approve()
        else:
            self.start_task(text)

    def on_key(self, event: events.Key) -> None:
        """Typing goes to the input whenever no dialog is open: a printable key
        that reached the app (the focus is on a tool card, a panel button or
        nothing) focuses the input and is typed there."""
        if not event.is_printable or len(self.screen_stack) > 1 or event.character is None:
            return
        prompt = self.query_one(PromptInput)
        if self.focused is prompt or not prompt.display:
            return
        event.stop()
        event.prevent_default()
        prompt.focus()
        prompt.insert(event.character)

    # -- actions ---------------------------------------------------------------------------
    def action_cancel_task(self) -> None:
        """Esc: stop the current generation; the task pauses and can be resumed.
        A task still waiting for the model is dropped."""
        if self.run_state.take_queued() is not None:
            self.query_one(StatusBar).status = "idle"
        elif self.running:
            self._request_cancel()
            self.query_one(StatusBar).status = "stopping…"

    def _request_cancel(self) -> None:
        self.run_state.cancel.set()
        if self.agent is not None:
            self.agent.cancel()

    async def action_quit(self) -> None:
        """Quit; while a task runs, ask first (Ctrl+Q again or y: yes), then
        cancel it and wait for its checkpoint (a Ctrl+Q after that quits at once)."""
        from .screens.confirm import ConfirmScreen

        if isinstance(self.screen, ConfirmScreen) and self.screen.id == "quit-confirm":
            self.screen.dismiss(True)
        elif self.running and not self.run_state.quit_pending:
            screen = ConfirmScreen("A task is running. Quit?", [
                "The task stops at once and is checkpointed either way:",
                "/resume (or `assistant resume`) continues it later."], yes="Quit (y)", no="Keep working (n)")
            screen.id = "quit-confirm"
            self.push_screen(screen, self._quit_confirmed)
        else:
            self.exit(0)

    def _quit_confirmed(self, yes: bool | None) -> None:
        if not yes:
            return
        if not self.running:
            self.exit(0)
            return
        self.run_state.quit_pending = True
        self._request_cancel()
        self.notify("Stopping the task so it can be resumed… (Ctrl+Q again quits now)")


def run_app(config: Settings | None = None, *, workspace: Path | str | None = None, model: str | None = None) -> int:
    """Run the TUI until the user quits. Returns the process exit code (0).

    Args:
        config: settings (default: layered config for the current folder).
        workspace: the task folder (default: current directory).
        model: a ``--model`` value (path, name or "demo"), else the selection order.
    """
    if config is None:
        from assistant.config import load_config

        config = load_config(workspace or Path.cwd())
    from .terminal_keys import teach_parser

    teach_parser()  # Alt+Enter (ESC CR) inserts a newline instead of submitting
    app = AssistantApp(config, model_choice=model, workspace=workspace)
    result = app.run()
    return int(result or 0)
