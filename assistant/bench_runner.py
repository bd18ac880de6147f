"""The evaluation suite runner: ``assistant bench run|list``.

A bench task is a folder under ``bench/tasks/`` holding ``prompt.txt`` (the
user's request), ``setup.py`` with ``setup(workspace: Path) -> None`` (creates
the starting files) and ``grade.py`` with ``grade(workspace: Path, transcript:
list[dict]) -> float`` in [0, 1]. ``grade.py`` may set ``PASS_THRESHOLD``
(default 1.0) and ``APPROVE`` (approval mode, default "all"; hand-off tasks use
"ask"). An optional ``solve.py`` with ``solve(workspace)`` is the reference
solution the tests use. Task files may import helpers that sit beside the task
folders (``_kit``): the loader puts the tasks folder on ``sys.path``.

Each run gets a fresh temporary workspace and a fresh ``ASSISTANT_HOME`` (own
config, task DB, calendar data); the model is loaded once and shared. The
transcript a grader sees is the list of loop events as dicts
(:func:`assistant.events.event_to_dict`) without the streaming deltas.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .events import Finished, Metrics, Notice, Paused, ReasoningDelta, TextDelta, event_to_dict

__all__ = ["BenchTask", "RunResult", "load_task", "discover", "run_task", "run_bench", "summarise",
           "format_table", "add_commands", "main", "DEFAULT_TASKS_DIR"]

DEFAULT_TASKS_DIR = Path(__file__).resolve().parents[1] / "bench" / "tasks"


@dataclass
class BenchTask:
    """One loaded task. ``solve`` is None when the folder has no ``solve.py``."""

    name: str
    folder: Path
    prompt: str
    setup: Callable[[Path], None]
    grade: Callable[[Path, list], float]
    solve: Callable[[Path], None] | None = None
    threshold: float = 1.0
    approve: str = "all"


@dataclass
class RunResult:
    """The outcome of one run of one task (what the JSON file holds per run)."""

    task: str
    repeat: int
    grade: float = 0.0
    passed: bool = False
    end: str = ""  # "finished", "paused:<kind>" or "error"
    steps: int = 0
    generated: int = 0
    prompt_tokens: int = 0
    evaluated: int = 0
    reused: int = 0
    wall_s: float = 0.0
    prefill_s: float = 0.0  # seconds reading prompts, summed over the run's turns
    decode_s: float = 0.0  # seconds generating, summed over the run's turns
    format_errors: int = 0
    answer: str = ""
    error: str = ""
    calls: list[str] = field(default_factory=list)
    #: what happened, in order, for reading a run afterwards: ``{"step": n}``, ``{"text": ...}`` (what the
    #: model wrote, per step), ``{"call_text": ...}`` (a call's text that no call event followed: a ``finish``
    #: call's answer, a call refused before it started), ``{"call": {...}}``, ``{"result": ..., "error": bool}``
    #: (first 600 characters), ``{"notice": ...}``, ``{"paused": kind, "reason": ...}``.
    trace: list[dict[str, Any]] = field(default_factory=list)


def _load_module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_task(folder: Path) -> BenchTask:
    """Load the task in ``folder``.

    Raises:
        ValueError: a required file or function is missing (the message names it).
    """
    folder = Path(folder).resolve()
    name = folder.name
    for required in ("prompt.txt", "setup.py", "grade.py"):
        if not (folder / required).is_file():
            raise ValueError(f"bench task {name}: missing {required}")
    root = str(folder.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    setup_mod = _load_module(folder / "setup.py", f"_bench_{name}_setup")
    grade_mod = _load_module(folder / "grade.py", f"_bench_{name}_grade")
    solve_mod = _load_module(folder / "solve.py", f"_bench_{name}_solve") if (folder / "solve.py").is_file() else None
    if not callable(getattr(setup_mod, "setup", None)) or not callable(getattr(grade_mod, "grade", None)):
        raise ValueError(f"bench task {name}: setup.py needs setup(workspace), grade.py needs grade(workspace, transcript)")
    return BenchTask(
        name=name, folder=folder, prompt=(folder / "prompt.txt").read_text(encoding="utf-8").strip(),
        setup=setup_mod.setup, grade=grade_mod.grade, solve=getattr(solve_mod, "solve", None),
        threshold=float(getattr(grade_mod, "PASS_THRESHOLD", 1.0)),
        approve=str(getattr(grade_mod, "APPROVE", "all")),
    )


def discover(tasks_dir: Path = DEFAULT_TASKS_DIR, pattern: str = "*") -> list[BenchTask]:
    """Tasks whose folder name matches ``pattern`` (globs, comma-separated), sorted by name.

    Raises:
        ValueError: ``tasks_dir`` does not exist, or a matching task is broken.
    """
    tasks_dir = Path(tasks_dir)
    if not tasks_dir.is_dir():
        raise ValueError(f"bench tasks folder not found: {tasks_dir}; pass --tasks-dir")
    globs = [g.strip() for g in pattern.split(",") if g.strip()] or ["*"]
    folders = sorted(p for p in tasks_dir.iterdir()
                     if p.is_dir() and (p / "prompt.txt").is_file() and any(fnmatch.fnmatch(p.name, g) for g in globs))
    return [load_task(p) for p in folders]


@contextlib.contextmanager
def _home(path: Path) -> Iterator[None]:
    """Point ``ASSISTANT_HOME`` at ``path`` for the duration (restored after)."""
    old = os.environ.get("ASSISTANT_HOME")
    os.environ["ASSISTANT_HOME"] = str(path)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("ASSISTANT_HOME", None)
        else:
            os.environ["ASSISTANT_HOME"] = old


def bench_overrides(task: BenchTask, max_steps: int | None) -> dict[str, Any]:
    """Settings for a bench run: the task's approval mode, the step budget, and
    the calendar kept inside the workspace (``calendar/``, UTC) so graders see it."""
    return {
        "agent": {"approve": task.approve, "max_steps": max_steps},
        "plugins": {"calendar": {"path": "calendar", "timezone": "UTC"}},
    }


def run_task(task: BenchTask, model: Any, *, repeat: int = 0, max_steps: int | None = None,
             max_wall_s: float | None = None, max_tokens: int | None = None, root: Path | None = None) -> RunResult:
    """Run ``task`` once with ``model`` in a fresh workspace and home; never raises.

    ``root``: the folder whose ``workspace/`` and ``home/`` are emptied and
    rebuilt for this run (default: a new temporary folder). :func:`run_bench`
    keeps one root for all runs so the workspace path, which the system prompt
    names, stays the same and the model can reuse the prompt prefix in its KV cache.
    """
    if root is None:
        with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
            return run_task(task, model, repeat=repeat, max_steps=max_steps, max_wall_s=max_wall_s,
                            max_tokens=max_tokens, root=Path(tmp))
    from .infra import paths
    from .config import load_config
    from .state.store import Store
    from .toolset import build_toolset
    from .wiring import build_agent

    res = RunResult(task=task.name, repeat=repeat)
    ws, home = Path(root) / "workspace", Path(root) / "home"
    for d in (ws, home):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    transcript: list[dict] = []
    with _home(home):
        try:
            task.setup(ws)
            settings = load_config(ws, bench_overrides(task, max_steps))
            toolset = build_toolset(settings, mcp=False, plugin_dir=home / "config" / "plugins")
            store = Store(paths.db_path(ensure=True))
        except Exception as exc:  # noqa: BLE001 - a broken task is a result, not a crash
            res.end, res.error = "error", f"setup failed: {type(exc).__name__}: {exc}"
            return res
        try:
            agent = build_agent(settings, model, store, toolset)
            t0 = time.perf_counter()
            for ev in agent.run(task.prompt, workspace=ws, max_steps=max_steps, max_wall_s=max_wall_s,
                                max_generated_tokens=max_tokens, approve=task.approve):
                _absorb(res, ev)
                if not isinstance(ev, (TextDelta, ReasoningDelta)):
                    transcript.append(event_to_dict(ev))
            res.wall_s = round(time.perf_counter() - t0, 2)
        except Exception as exc:  # noqa: BLE001
            res.end, res.error = "error", f"run failed: {type(exc).__name__}: {exc}"
        finally:
            toolset.close()
            store.close()
        res.end = res.end or ("error" if any(e["type"] == "error" for e in transcript) else "none")
        try:
            res.grade = min(1.0, max(0.0, float(task.grade(ws, transcript))))
        except Exception as exc:  # noqa: BLE001
            res.grade, res.error = 0.0, res.error or f"grader failed: {type(exc).__name__}: {exc}"
    res.passed = res.grade >= task.threshold
    return res


_TRACE_CHARS = 600


def _absorb(res: RunResult, ev: Any) -> None:
    _trace(res, ev)
    if isinstance(ev, Metrics):
        d = ev.data
        res.steps = int(d.get("step", res.steps))
        res.generated += int(d.get("generated", 0))
        res.prompt_tokens += int(d.get("prompt_tokens", 0))
        res.evaluated += int(d.get("evaluated", 0))
        res.reused += int(d.get("reused", 0)) + int(d.get("restored", 0))
        res.prefill_s += float(d.get("prefill_s", 0.0))
        res.decode_s += float(d.get("decode_s", 0.0))
    elif isinstance(ev, Notice) and ev.text.startswith("Format error"):
        res.format_errors += 1
    elif isinstance(ev, Paused):
        res.end = f"paused:{ev.kind}"
        if ev.kind == "stuck" and "failed" in ev.reason and "valid" in ev.reason:
            res.format_errors += 1
    elif isinstance(ev, Finished):
        res.end, res.answer = ev.status, ev.answer
    elif type(ev).__name__ == "ToolCallStarted":
        res.calls.append(str(ev.call.get("name", "")))


def _trace(res: RunResult, ev: Any) -> None:
    trace = res.trace
    if type(ev).__name__ == "StepStarted":
        trace.append({"step": ev.n})
    elif isinstance(ev, TextDelta) and ev.kind in ("content", "tool_call"):
        key = "text" if ev.kind == "content" else "call_text"
        if trace and key in trace[-1]:
            trace[-1][key] += ev.text
        else:
            trace.append({key: ev.text})
    elif type(ev).__name__ == "ToolCallStarted":
        if trace and "call_text" in trace[-1]:
            trace.pop()  # the call itself says it
        trace.append({"call": dict(ev.call)})
    elif type(ev).__name__ == "ToolCallFinished":
        if not (trace and trace[-1].get("call", {}).get("id") == ev.call.get("id")):
            if trace and "call_text" in trace[-1]:
                trace.pop()  # the call itself says it
            trace.append({"call": dict(ev.call), "run": False})  # refused before it ran: show what was asked
        trace.append({"result": ev.result[:_TRACE_CHARS], "error": bool(ev.error)})
    elif isinstance(ev, Notice):
        trace.append({"notice": ev.text[:_TRACE_CHARS]})
    elif isinstance(ev, Paused):
        trace.append({"paused": ev.kind, "reason": ev.reason[:_TRACE_CHARS]})


def run_bench(tasks: list[BenchTask], model_for: Callable[[BenchTask], Any], *, repeat: int = 1,
              max_steps: int | None = None, max_wall_s: float | None = None, max_tokens: int | None = None,
              on_result: Callable[[RunResult], None] | None = None) -> list[RunResult]:
    """Run every task ``repeat`` times, all in one root folder (see :func:`run_task`);
    ``model_for(task)`` gives the model to use."""
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-") as root:
        for task in tasks:
            for k in range(repeat):
                r = run_task(task, model_for(task), repeat=k, max_steps=max_steps, max_wall_s=max_wall_s,
                             max_tokens=max_tokens, root=Path(root))
                results.append(r)
                if on_result is not None:
                    on_result(r)
    return results


def summarise(results: list[RunResult]) -> list[dict[str, Any]]:
    """One row per task: success (mean grade), pass_k (all repeats passed, 0/1),
    mean steps/tokens/wall time, total format errors, stuck and budget pauses."""
    rows = []
    for name in dict.fromkeys(r.task for r in results):
        rs = [r for r in results if r.task == name]
        n = len(rs)
        rows.append({
            "task": name, "runs": n, "success": round(sum(r.grade for r in rs) / n, 3),
            "pass_k": int(all(r.passed for r in rs)), "steps": round(sum(r.steps for r in rs) / n, 1),
            "generated": round(sum(r.generated for r in rs) / n), "evaluated": round(sum(r.evaluated for r in rs) / n),
            "reused": round(sum(r.reused for r in rs) / n), "wall_s": round(sum(r.wall_s for r in rs) / n, 1),
            "format_errors": sum(r.format_errors for r in rs),
            "stuck": sum(r.end == "paused:stuck" for r in rs), "budget": sum(r.end == "paused:budget" for r in rs),
            "errors": sum(bool(r.error) for r in rs),
        })
    return rows


_COLS = [("task", 28), ("success", 7), ("pass_k", 6), ("steps", 5), ("generated", 9), ("evaluated", 9),
         ("reused", 8), ("wall_s", 7), ("format_errors", 7), ("stuck", 5), ("budget", 6)]
_HEAD = {"pass_k": "pass^k", "generated": "gen tok", "evaluated": "prompt ev", "reused": "reused",
         "format_errors": "fmt err", "wall_s": "wall s"}


def format_table(rows: list[dict[str, Any]]) -> str:
    """A fixed-width text table of :func:`summarise` rows plus an ALL line."""
    def line(values: dict[str, Any]) -> str:
        return "  ".join(str(values.get(c, "")).ljust(w) if c == "task" else str(values.get(c, "")).rjust(w)
                         for c, w in _COLS)

    out = [line({c: _HEAD.get(c, c) for c, _ in _COLS})]
    out += [line(r) for r in rows]
    if rows:
        n = len(rows)
        total = {"task": f"ALL ({n} tasks)", "success": round(sum(r["success"] for r in rows) / n, 3),
                 "pass_k": round(sum(r["pass_k"] for r in rows) / n, 3)}
        for c in ("steps", "wall_s"):
            total[c] = round(sum(r[c] for r in rows) / n, 1)
        for c in ("generated", "evaluated", "reused", "format_errors", "stuck", "budget"):
            total[c] = sum(r[c] for r in rows)
        out.append(line(total))
    return "\n".join(out)


# -- CLI ------------------------------------------------------------------------------------
def add_commands(subparsers: Any) -> None:
    """Register ``bench run`` and ``bench list`` on the ``assistant`` subparsers."""
    bench = subparsers.add_parser("bench", help="run the evaluation suite", description=(
        "Run the bench tasks (bench/tasks) against a model and report success, pass^k and costs."))
    sub = bench.add_subparsers(dest="bench_command", metavar="ACTION")
    run = sub.add_parser("run", help="run tasks and write JSON results", description=(
        "Each task runs in a fresh workspace and ASSISTANT_HOME; approvals are automatic except for hand-off tasks."))
    run.add_argument("--model", metavar="PATH|NAME", help="GGUF file or name (default: config, pulled, demo)")
    run.add_argument("--tasks", default="*", metavar="GLOB", help="task names to run, globs, comma-separated (default *)")
    run.add_argument("--repeat", type=int, default=1, metavar="K", help="runs per task for pass^k (default 1)")
    run.add_argument("--output", "-o", metavar="FILE", help="JSON results file (default bench-results-<time>.json)")
    run.add_argument("--max-steps", type=int, default=12, metavar="N", help="step budget per run (default 12)")
    run.add_argument("--max-time", type=float, metavar="SECONDS", help="active-time budget per run")
    run.add_argument("--max-tokens", type=int, metavar="N", help="generated-token budget per run")
    run.add_argument("--tasks-dir", metavar="DIR", default=str(DEFAULT_TASKS_DIR), help="folder of task folders")
    run.add_argument("--scripted", metavar="FILE.json", help=argparse.SUPPRESS)
    run.set_defaults(func=cmd_bench_run)
    ls = sub.add_parser("list", help="list the tasks", description="List the bench tasks and their prompts.")
    ls.add_argument("--tasks", default="*", metavar="GLOB", help="task names, globs, comma-separated")
    ls.add_argument("--tasks-dir", metavar="DIR", default=str(DEFAULT_TASKS_DIR), help="folder of task folders")
    ls.set_defaults(func=cmd_bench_list)
    bench.set_defaults(func=lambda args: (bench.print_help(sys.stderr), 2)[1])


def cmd_bench_list(args: argparse.Namespace) -> int:
    try:
        tasks = discover(Path(args.tasks_dir), args.tasks)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for t in tasks:
        print(f"{t.name:<28} {' '.join(t.prompt.split())[:90]}")
    return 0


def _model_factory(args: argparse.Namespace, cache_dir: Path) -> Callable[[BenchTask], Any]:
    """``task -> model``: one loaded GGUF for all (its prefix KV cache on disk in
    ``cache_dir``, private to this bench session so runs do not depend on earlier
    ones), or a fresh scripted model per task.

    Raises ModelError (model cannot load) or ValueError (bad script)."""
    if args.scripted:
        from model.scripted import ScriptedChatModel

        try:
            scripts = json.loads(Path(args.scripted).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"script {args.scripted}: {exc}") from None
        return lambda task: ScriptedChatModel([str(x) for x in scripts.get(task.name, {}).get("outputs", [])])
    from model.chat import open_chat_model
    from model.select import resolve_model

    from .infra import paths
    from .config import load_config

    settings = load_config(None)
    choice = resolve_model(args.model, None, settings.model.path, paths.data_dir() / "models")
    model = open_chat_model(choice.path, n_ctx=settings.model.n_ctx, cache_dir=cache_dir, grammar=settings.model.grammar,
                            label=choice.label, is_demo=choice.is_demo, n_threads=settings.model.threads)
    return lambda task: model


def cmd_bench_run(args: argparse.Namespace) -> int:
    from model.types import ModelError

    if args.repeat < 1 or args.max_steps < 1 or (args.max_tokens is not None and args.max_tokens < 1):
        print("error: --repeat, --max-steps and --max-tokens must be at least 1", file=sys.stderr)
        return 2
    try:
        tasks = discover(Path(args.tasks_dir), args.tasks)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not tasks:
        print(f"error: no bench task matches {args.tasks!r}; see `assistant bench list`", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-kv-") as kv:
        try:
            model_for = _model_factory(args, Path(kv))
        except (ModelError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return _run_and_report(args, tasks, model_for)


def _run_and_report(args: argparse.Namespace, tasks: list[BenchTask], model_for: Callable[[BenchTask], Any]) -> int:
    output = Path(args.output or f"bench-results-{time.strftime('%Y%m%d-%H%M%S')}.json")
    model_name = "scripted" if args.scripted else getattr(model_for(tasks[0]), "name", args.model or "")

    def progress(r: RunResult) -> None:
        print(f"{r.task} #{r.repeat + 1}: grade {r.grade:.2f} ({r.end}, {r.steps} steps, {r.wall_s:.1f} s)"
              + (f" [{r.error}]" if r.error else ""), file=sys.stderr)

    t0 = time.time()
    done: list[RunResult] = []

    def write(results: list[RunResult]) -> list[dict[str, Any]]:
        rows = summarise(results)
        report = {"model": model_name, "started": t0, "wall_s": round(time.time() - t0, 1), "repeat": args.repeat,
                  "max_steps": args.max_steps, "max_tokens": args.max_tokens, "tasks": rows,
                  "runs": [asdict(r) for r in results]}
        output.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
        return rows

    def on_result(r: RunResult) -> None:
        progress(r)
        done.append(r)
        write(done)  # after every run, so a long bench that is stopped keeps what it measured

    rows = write(run_bench(tasks, model_for, repeat=args.repeat, max_steps=args.max_steps,
                           max_wall_s=args.max_time, max_tokens=args.max_tokens, on_result=on_result))
    print(format_table(rows))
    print(f"results written to {output}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m assistant.bench_runner run ...`` (same as ``assistant bench run ...``)."""
    parser = argparse.ArgumentParser(prog="assistant")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", *(sys.argv[1:] if argv is None else argv)])
    return int(args.func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
