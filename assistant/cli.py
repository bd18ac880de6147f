"""The ``assistant`` command line.

``assistant`` alone opens the TUI. Headless subcommands: ``run``, ``resume``,
``tasks``, ``undo``, ``export`` (plus ``doctor``/``model`` from
``assistant.cli_model``, ``bench`` from ``assistant.bench_runner`` and ``secret`` from
``plugins.cli`` when present; those set ``func`` on their parsers).
Exit codes: 0 finished, 3 paused for a human, 2 usage error, 1 failure.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence

from .cli_output import EXIT_FAIL, EXIT_OK, EXIT_USAGE, consume

__all__ = ["main", "build_parser"]


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("assistant")
    except Exception:  # noqa: BLE001 - not installed (running from a checkout)
        return "0.1.0"


def _add_common(p: argparse.ArgumentParser, *, model: bool = True) -> None:
    p.add_argument("--json", action="store_true", help="print events as JSON Lines")
    if model:
        p.add_argument("--model", metavar="PATH|NAME", help="GGUF file or name (default: config, pulled, demo)")
    p.add_argument("--scripted", metavar="FILE.json", help=argparse.SUPPRESS)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (subcommands from other packages are added if importable)."""
    from .state.models import APPROVE_MODES

    parser = argparse.ArgumentParser(prog="assistant", description="A local, offline-first personal assistant.")
    parser.add_argument("--version", action="version", version=f"assistant {_version()}")
    # the app's own options (without a COMMAND); own dests so a subcommand's --model never overwrites them
    parser.add_argument("--model", dest="app_model", metavar="PATH|NAME",
                        help="the app's model: GGUF file or name (default: ASSISTANT_MODEL, config, pulled, demo)")
    parser.add_argument("--workspace", dest="app_workspace", metavar="DIR", default=".",
                        help="folder the app's tasks work in (default: .)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser("run", help="run a task headless", description="Run a task until it finishes or pauses.")
    run.add_argument("goal", metavar="GOAL", help="what the task should do")
    run.add_argument("--workspace", metavar="DIR", default=".", help="folder the task works in (default: .)")
    run.add_argument("--max-steps", type=int, metavar="N", help="step budget for this task")
    run.add_argument("--max-tokens", type=int, metavar="N", help="generated-token budget for this task")
    run.add_argument("--max-time", type=float, metavar="SECONDS", help="active-time budget for this task")
    run.add_argument("--approve", choices=APPROVE_MODES,
                     help="what runs without asking (default from config: ask)")
    _add_common(run)

    res = sub.add_parser("resume", help="continue a paused or interrupted task",
                         description="Continue a paused or interrupted task.")
    res.add_argument("task", metavar="TASK", help="task id (or a unique prefix)")
    res.add_argument("--answer", metavar="TEXT", help="answer to the task's question")
    res.add_argument("--note", metavar="TEXT", help="a hint or instruction added before continuing")
    grp = res.add_mutually_exclusive_group()
    grp.add_argument("--approve-once", dest="approval", action="store_const", const="once",
                     help="approve the pending call (or re-run the in-flight one)")
    grp.add_argument("--approve-task", dest="approval", action="store_const", const="task",
                     help="approve it and its risk class for the rest of the task")
    grp.add_argument("--deny", dest="approval", action="store_const", const="deny",
                     help="refuse the pending call, skip the in-flight one, or stop at a budget")
    _add_common(res)

    tasks = sub.add_parser("tasks", help="list recent tasks", description="List recent tasks, newest first.")
    tasks.add_argument("--limit", type=int, default=20, metavar="N", help="how many (default 20)")
    tasks.add_argument("--json", action="store_true", help="print JSON Lines")

    undo = sub.add_parser("undo", help="revert what a task changed", description=(
        "Revert the workspace changes of a task, newest first. Files edited since are left alone."))
    undo.add_argument("task", metavar="TASK", help="task id (or a unique prefix)")
    undo.add_argument("--step", type=int, metavar="N", help="only undo steps N and later")
    undo.add_argument("--json", action="store_true", help="print JSON Lines")

    exp = sub.add_parser("export", help="write a task's trajectory as JSON Lines", description=(
        "Print the trajectory (messages with a loss mask, calls) as JSON Lines."))
    exp.add_argument("task", metavar="TASK", help="task id (or a unique prefix)")
    exp.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")

    for module, fn in (("assistant.cli_model", "add_commands"), ("assistant.cli_plugins", "add_commands"),
                       ("assistant.bench_runner", "add_commands"),
                       ("plugins.cli", "add_secret_commands")):
        try:
            mod = __import__(module, fromlist=[fn])
        except ImportError:
            continue
        getattr(mod, fn)(sub)
    return parser


def _settings(workspace: str | None, overrides: dict[str, Any] | None = None):
    from .config import load_config

    return load_config(workspace, overrides)


def _session(args: argparse.Namespace, settings: Any):
    from .wiring import open_harness

    return open_harness(settings, model_name=getattr(args, "model", None), script=args.scripted)


def _drive(args: argparse.Namespace, settings: Any, action) -> int:
    from model.types import ModelError

    try:
        session = _session(args, settings)
    except (ModelError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    previous = signal.getsignal(signal.SIGINT)

    def on_sigint(signum, frame):  # first Ctrl-C: pause at a safe point; second: default
        session.agent.cancel()
        signal.signal(signal.SIGINT, previous)

    signal.signal(signal.SIGINT, on_sigint)
    try:
        return consume(action(session.agent), as_json=args.json)
    finally:
        signal.signal(signal.SIGINT, previous)
        session.close()


def cmd_run(args: argparse.Namespace) -> int:
    if not args.goal.strip():
        print("error: the goal is empty; say what the task should do", file=sys.stderr)
        return EXIT_USAGE
    workspace = Path(args.workspace).expanduser()
    if not workspace.is_dir():
        print(f"error: workspace folder not found: {workspace}", file=sys.stderr)
        return EXIT_USAGE
    for flag in ("max_steps", "max_tokens", "max_time"):
        value = getattr(args, flag)
        if value is not None and value <= 0:
            print(f"error: --{flag.replace('_', '-')} must be positive", file=sys.stderr)
            return EXIT_USAGE
    settings = _settings(str(workspace))
    return _drive(args, settings, lambda agent: agent.run(
        args.goal, workspace=workspace, max_steps=args.max_steps, max_generated_tokens=args.max_tokens,
        max_wall_s=args.max_time, approve=args.approve))


def cmd_resume(args: argparse.Namespace) -> int:
    from .state.store import TaskNotFound
    from .wiring import open_store

    with open_store() as store:
        try:
            task = store.get_task(args.task)
        except TaskNotFound as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    settings = _settings(task.workspace)
    return _drive(args, settings, lambda agent: agent.resume(
        task.id, approval=args.approval, note=args.note, answer=args.answer))


def cmd_tasks(args: argparse.Namespace) -> int:
    from .infra import paths
    from .infra.locks import is_running
    from .wiring import open_store

    with open_store() as store:
        tasks = store.list_tasks(args.limit)
    for t in tasks:
        if args.json:
            print(json.dumps({"id": t.id, "status": t.status, "goal": t.goal, "workspace": t.workspace,
                              "steps": t.usage.steps, "pause": t.pause.kind if t.pause else None,
                              "updated_at": t.updated_at}, ensure_ascii=False))
        else:
            when = datetime.fromtimestamp(t.updated_at).strftime("%Y-%m-%d %H:%M")
            status = f"{t.status}({t.pause.kind})" if t.pause else t.status
            if t.status == "running" and not is_running(paths.locks_dir(), t.id):
                status = "interrupted"  # resume it: `assistant resume ID`
            from .cli_output import safe_text

            goal = safe_text(" ".join(t.goal.split())[:60])
            print(f"{t.id}  {when}  {status:<18} {t.usage.steps:>3} steps  {goal}")
    if not tasks and not args.json:
        print("no tasks yet; start one with: assistant run \"...\"", file=sys.stderr)
    return EXIT_OK


def cmd_undo(args: argparse.Namespace) -> int:
    from .infra import paths
    from .state.store import TaskNotFound
    from .state.undo import UndoError, undo_task
    from .wiring import open_store

    with open_store() as store:
        try:
            lines = undo_task(store, args.task, paths.state_dir(ensure=True), from_step=args.step)
        except TaskNotFound as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        except UndoError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_FAIL
    for line in lines:
        print(json.dumps({"type": "undo", "message": line}) if args.json else line)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from .state.export import export_lines
    from .state.store import TaskNotFound
    from .wiring import open_store

    with open_store() as store:
        try:
            lines = list(export_lines(store, args.task))
        except TaskNotFound as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    text = "\n".join(lines) + "\n"
    if args.output:
        try:
            Path(args.output).expanduser().write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_FAIL
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _tui(model: str | None = None, workspace: str = ".") -> int:
    folder = Path(workspace).expanduser()
    if not folder.is_dir():
        print(f"error: workspace folder not found: {folder}", file=sys.stderr)
        return EXIT_USAGE
    try:
        settings = _settings(str(folder))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        from assistant.tui.app import run_app
    except ImportError as exc:
        print(f"the terminal UI is not available ({exc}); use `assistant run GOAL`", file=sys.stderr)
        return EXIT_FAIL
    return int(run_app(settings, workspace=folder, model=model) or 0)


_COMMANDS = {"run": cmd_run, "resume": cmd_resume, "tasks": cmd_tasks, "undo": cmd_undo, "export": cmd_export}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        return _tui(args.app_model, args.app_workspace)
    handler = _COMMANDS.get(args.command) or getattr(args, "func", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    from .config import ConfigError
    from .state.store import StoreError

    try:
        return int(handler(args) or 0)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
