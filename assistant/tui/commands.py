"""Slash commands and the command palette (every command is in both).

Besides the built-in commands, each loaded plugin's slash commands run as
``/name argument`` (``plugin.slash_commands[name](ctx, argument) -> text``,
the text shown in the transcript); a built-in command of the same name wins.
"""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from textual.app import SystemCommand

from assistant.infra import paths

from .widgets import NoticeLine, StatusBar, Transcript

if TYPE_CHECKING:  # pragma: no cover
    from textual.screen import Screen

    from .app import AssistantApp

__all__ = ["CommandsMixin", "COMMANDS", "plugin_commands", "run_plugin_command"]

COMMANDS: dict[str, str] = {
    "/new": "Start a new task (clears the transcript)",
    "/tasks": "List tasks: open, resume, undo, export",
    "/resume": "Resume the current task, or /resume ID",
    "/undo": "Undo the changes of the current task, or /undo ID",
    "/approve": "Show the pending approval again",
    "/model": "Model facts, memory plan and health",
    "/pull": "Download a model, e.g. /pull nanbeige4.2-3b",
    "/settings": "Show and edit the settings (for this session)",
    "/limits": "Budgets and usage of the current task",
    "/plugins": "Plugins and MCP servers: state, tools, start errors",
    "/workspace": "Show the folder tasks work in, or /workspace DIR to change it",
    "/help": "List the commands and keys",
}


def plugin_commands(plugins: Iterable[Any]) -> dict[str, tuple[Callable[..., str], str, str]]:
    """``{"/name": (fn, help, plugin name)}`` for the slash commands of ``plugins``
    (``plugins.api.Plugin`` objects, in load order; built-in names and names an
    earlier plugin took are skipped)."""
    found: dict[str, tuple[Callable[..., str], str, str]] = {}
    for plugin in plugins:
        helps = getattr(plugin, "slash_help", {}) or {}
        for name, fn in (getattr(plugin, "slash_commands", {}) or {}).items():
            key = "/" + name
            if key not in COMMANDS and key not in found:
                found[key] = (fn, helps.get(name, ""), getattr(plugin, "name", ""))
    return found


def run_plugin_command(plugins: Iterable[Any], line: str, ctx: Any) -> str | None:
    """Run ``line`` (``/name argument``) as a plugin slash command.

    Returns the command's text, or None when no plugin has ``/name``. The
    argument is the rest of the line as typed (stripped). A command that
    raises returns a one-line ``"/name failed: ..."`` (never raises).
    """
    head, _, argument = line.strip().partition(" ")
    entry = plugin_commands(plugins).get(head.lower())
    if entry is None:
        return None
    fn, _help, owner = entry
    try:
        text = fn(ctx, argument.strip())
    except Exception as exc:  # noqa: BLE001 - a plugin's command never takes the app down
        msg = " ".join(str(exc).split())[:300]
        return f"{head} failed ({owner} plugin): {type(exc).__name__}: {msg}" if msg else \
            f"{head} failed ({owner} plugin): {type(exc).__name__}"
    return str(text) if text is not None else ""


class CommandsMixin:
    """Slash-command handlers for :class:`assistant.tui.app.AssistantApp`.

    Only the app mixes this in: each method types ``self`` as the app, so the
    attributes it uses (``run_state``, ``store``, ``handler``, ...) are checked.
    """

    def slash_plugins(self: "AssistantApp") -> list[Any]:
        """The plugins whose slash commands are offered: the agent's, else loaded
        once from the config (failures are skipped; shown by ``doctor``)."""
        agent_plugins = getattr(self.agent, "plugins", None) if self.agent is not None else None
        if agent_plugins:
            return list(agent_plugins)
        cached = self._slash_plugins
        if cached is None:
            try:
                from plugins.loader import load_plugins

                cached = load_plugins(self.config.tool_config(), user_dir=paths.config_dir() / "plugins").plugins
            except Exception:  # noqa: BLE001 - no plugins then
                cached = []
            self._slash_plugins = cached
        return list(cached)

    def _plugin_context(self: "AssistantApp") -> Any:
        from assistant.infra.secret_cache import read_secret
        from tools.base import ToolContext

        ctx = ToolContext(task_id=self.task_id or "", config=self.config.tool_config(), secrets=read_secret)
        try:
            from sandbox import Workspace

            ctx.workspace = Workspace(self.workspace)
        except Exception:  # noqa: BLE001 - commands then use the user's folders
            ctx.workspace = None
        return ctx

    async def run_command(self: "AssistantApp", line: str) -> None:
        """Run one ``/command args`` line (built-in, else a plugin's); unknown
        commands get a hint."""
        try:
            parts = shlex.split(line)
        except ValueError:
            parts = line.split()
        if not parts:
            return
        name, args = parts[0].lower(), parts[1:]
        handler = getattr(self, "cmd_" + name.lstrip("/"), None)
        if name not in COMMANDS or handler is None:
            plugins = self.slash_plugins()
            if name in plugin_commands(plugins):
                ctx = self._plugin_context()
                text = await asyncio.to_thread(run_plugin_command, plugins, line, ctx)
                await self.say(text or f"{name}: (no output)")
                return
            self.notify(f"Unknown command {name}. Type /help for the list.", severity="warning")
            return
        result = handler(*args[:1])
        if hasattr(result, "__await__"):
            await result

    async def say(self: "AssistantApp", text: str, level: str = "info") -> None:
        """Put a notice line in the transcript."""
        await self.query_one(Transcript).mount(NoticeLine(text, level))

    # -- commands ----------------------------------------------------------------
    async def cmd_help(self: "AssistantApp") -> None:
        lines = [f"{name:<10} {doc}" for name, doc in COMMANDS.items()]
        extra = plugin_commands(self.slash_plugins())
        if extra:
            lines += ["", "Plugin commands:"]
            lines += [f"{name:<10} {doc or '(no help)'} [{owner}]" for name, (_, doc, owner) in extra.items()]
        lines += ["", "Enter sends · Shift+Enter, Alt+Enter or Ctrl+J: new line · @file mentions a file · "
                  "Tab completes · F1 all keys", "Esc stops the running task · Ctrl+T tasks · Ctrl+N new · "
                  "Ctrl+P command palette · Ctrl+Q quit"]
        await self.say("\n".join(lines))

    async def cmd_new(self: "AssistantApp") -> None:
        if self.running:
            self.notify("A task is running. Press Esc to stop it first.", severity="warning")
            return
        self.run_state.forget_task()
        self._clear_handoff()
        if self.handler is not None:
            self.handler.cards.clear()
            self.handler.task_id = None
        await self.query_one(Transcript).clear()
        self.query_one(StatusBar).status = "idle"
        self.query_one(StatusBar).step = 0

    def cmd_tasks(self: "AssistantApp") -> None:
        from .screens.tasks import TasksScreen

        self.push_screen(TasksScreen(self.store.list_tasks(), now=self.now), self._tasks_done)

    async def cmd_resume(self: "AssistantApp", task_id: str | None = None) -> None:
        if self.running:
            self.notify("A task is running already.", severity="warning")
            return
        if task_id is not None:
            from assistant.state.store import TaskNotFound

            try:
                task_id = self.store.get_task(task_id).id  # a unique prefix becomes the id
            except TaskNotFound as exc:  # one line; the task on screen stays as it is
                await self.say(str(exc), "error")
                return
        if task_id is None and self.pause is not None and self.pause.kind == "approval":
            self.action_approve()
            return
        if task_id is None and self.task_id is None:
            paused = [t for t in self.store.list_tasks() if t.status in ("paused", "running")]
            if not paused:
                self.notify("No paused task. Pick one with /tasks.", severity="warning")
                return
            task_id = paused[0].id
        self.resume_task(task_id)

    async def cmd_undo(self: "AssistantApp", task_id: str | None = None) -> None:
        task_id = task_id or self.task_id
        if not task_id:
            self.notify("No task to undo. Use /undo ID or /tasks.", severity="warning")
            return
        if self.running:
            self.notify("Stop the task (Esc) before undoing its changes.", severity="warning")
            return
        from assistant.state.undo import undo_plan

        from .screens.confirm import ConfirmScreen

        try:
            plan = undo_plan(self.store, task_id)
        except Exception as exc:  # noqa: BLE001 - shown as one line
            await self.say(f"Undo failed: {exc}", "error")
            return
        if not plan:
            await self.say(f"Task {task_id}: nothing to undo.")
            return

        async def done(yes: bool | None) -> None:
            if yes:
                await self._undo_now(task_id)

        self.push_screen(ConfirmScreen(f"Undo {len(plan)} change{'s' if len(plan) != 1 else ''} of task {task_id}?",
                                       plan, yes="Undo (y)", no="Keep (n)"), done)

    async def _undo_now(self: "AssistantApp", task_id: str) -> None:
        from assistant.state.undo import undo_task

        try:
            lines = undo_task(self.store, task_id, paths.state_dir(ensure=True))
        except Exception as exc:  # noqa: BLE001 - shown as one line
            await self.say(f"Undo failed: {exc}", "error")
            return
        await self.say(f"Undo of task {task_id}:\n" + "\n".join(lines))

    def cmd_approve(self: "AssistantApp") -> None:
        self.action_approve()

    def cmd_model(self: "AssistantApp") -> None:
        from .screens.model import ModelScreen

        self.push_screen(ModelScreen(self.model))

    def cmd_pull(self: "AssistantApp", name: str | None = None) -> None:
        from .screens.model import ModelScreen

        if not name:
            self.notify("Usage: /pull NAME (e.g. /pull nanbeige4.2-3b, or owner/repo[:QUANT])", severity="warning")
            return
        self.push_screen(ModelScreen(self.model, pull=name))

    def cmd_settings(self: "AssistantApp") -> None:
        from .screens.settings import SettingsScreen

        def done(config: Any) -> None:
            if config is None:
                return
            old, self.config = self.config, config
            self.query_one(StatusBar).max_steps = config.agent.max_steps
            if not self.running:
                self.agent = None  # rebuilt with the new settings for the next run
            if config.model != old.model:
                self.call_later(self._model_settings_changed, old.model, config)

        self.push_screen(SettingsScreen(self.config), done)

    async def _model_settings_changed(self: "AssistantApp", old: Any, config: Any) -> None:
        """``[model]`` changed in the settings screen: reload the model, or say
        why the change does not apply (``--model`` / ``ASSISTANT_MODEL`` win over
        ``model.path``)."""
        import os

        winner = ("--model" if self.model_choice else
                  "ASSISTANT_MODEL" if os.environ.get("ASSISTANT_MODEL") else None)
        only_path = old.model_copy(update={"path": config.model.path}) == config.model
        if winner and only_path:
            await self.say(f"model.path changed, but {winner} chooses the model: restart the app "
                           f"without {winner} to use {config.model.path or 'the default'}.", "warning")
            return
        await self.say("Model settings changed: reloading the model.")
        self.reload_model(config)

    async def cmd_plugins(self: "AssistantApp") -> None:
        """List every plugin and MCP server with its state and tools (as ``assistant plugins``)."""
        from assistant.cli_plugins import collect_plugins, format_plugins

        await self.say("Checking plugins and MCP servers…")
        try:
            rows = [s.as_dict() for s in await asyncio.to_thread(collect_plugins, self.config)]
        except Exception as exc:  # noqa: BLE001 - one line, never a crash
            await self.say(f"/plugins failed: {type(exc).__name__}: {exc}", "error")
            return
        lines = format_plugins(rows) if rows else ["  none"]
        await self.say("Plugins and MCP servers:\n" + "\n".join(lines))

    async def cmd_workspace(self: "AssistantApp", folder: str | None = None) -> None:
        if folder is None:
            await self.say(f"Workspace: {self.workspace}")
            return
        if self.running:
            self.notify("Stop the task (Esc) before changing the workspace.", severity="warning")
            return
        path = (self.workspace / Path(folder).expanduser()).resolve()
        if not path.is_dir():
            await self.say(f"/workspace: no folder {path}", "error")
            return
        self.workspace = path
        self.query_one(StatusBar).workspace = path.name or str(path)
        await self.say(f"Workspace: {path} (new tasks work here; its .assistant.toml applies after a restart)")

    async def cmd_limits(self: "AssistantApp") -> None:
        if not self.task_id:
            a = self.config.agent
            await self.say(f"Limits for new tasks: {a.max_steps} steps, {a.max_generated_tokens} tokens, "
                           f"{a.max_wall_s:.0f} s; approve mode {a.approve}.")
            return
        t = self.store.get_task(self.task_id)
        b, u = t.budgets, t.usage
        await self.say(f"Task {t.id}: steps {u.steps}/{b.max_steps}, tokens {u.generated_tokens}/"
                       f"{b.max_generated_tokens}, time {u.wall_s:.0f}/{b.max_wall_s:.0f} s, "
                       f"tool calls {u.tool_calls}; approve mode {t.approve}.")

    # -- key bindings ------------------------------------------------------------------
    def action_tasks(self: "AssistantApp") -> None:
        if self.screen is self.screen_stack[0]:  # not on top of another screen
            self.cmd_tasks()

    async def action_new_task(self: "AssistantApp") -> None:
        if self.screen is self.screen_stack[0]:
            await self.cmd_new()

    def action_keys_help(self: "AssistantApp") -> None:
        """F1: the keys help screen (once)."""
        from .screens.keys import KeysHelpScreen

        if not isinstance(self.screen, KeysHelpScreen):
            self.push_screen(KeysHelpScreen())

    def action_model_screen(self: "AssistantApp") -> None:
        self.cmd_model()

    def action_settings(self: "AssistantApp") -> None:
        self.cmd_settings()

    # -- tasks screen results ----------------------------------------------------------
    async def _tasks_done(self: "AssistantApp", picked: tuple[str, str] | None) -> None:
        if picked is None:
            return
        action, task_id = picked
        if action == "undo":
            await self.cmd_undo(task_id)
        elif action == "export":
            await self._export(task_id)
        else:
            await self.open_task(task_id)
            if action == "resume" and self.pause is None:
                self.resume_task(task_id)  # an interrupted run continues; a pause shows its hand-off

    async def _export(self: "AssistantApp", task_id: str) -> None:
        from assistant.state.export import export_lines

        out = paths.state_dir(ensure=True) / "exports" / f"{task_id}.jsonl"
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text("\n".join(export_lines(self.store, task_id)) + "\n", encoding="utf-8")
        except Exception as exc:  # noqa: BLE001
            await self.say(f"Export failed: {exc}", "error")
            return
        await self.say(f"Exported task {task_id} to {out}")

    async def open_task(self: "AssistantApp", task_id: str) -> None:
        """Show a stored task's history; a paused one shows its hand-off."""
        from .replay import replay_task

        if self.running:
            self.notify("A task is running. Press Esc to stop it first.", severity="warning")
            return
        await self.query_one(Transcript).clear()
        await replay_task(self, task_id)

    # -- command palette ---------------------------------------------------------------
    def get_system_commands(self: "AssistantApp", screen: "Screen") -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)  # type: ignore[misc]
        for name, doc in COMMANDS.items():
            yield SystemCommand(name, doc, lambda n=name: self.call_later(self.run_command, n))
        for name, (_, doc, owner) in plugin_commands(self.slash_plugins()).items():
            yield SystemCommand(name, f"{doc or name} ({owner} plugin)",
                                lambda n=name: self.call_later(self.run_command, n))
