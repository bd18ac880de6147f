"""Crash safety: SIGKILL a real `assistant run` at every state boundary and in
the middle of a slow write, resume until done, and compare with an
uninterrupted run. No write may complete twice, the DB must stay intact, and
`assistant undo` must then restore the (empty) workspace.

Kill points are exact: ``ASSISTANT_FAULT=LABEL:N`` makes the process SIGKILL
itself at the N-th crash point with that label (see ``assistant.infra.faults``).
"""

from __future__ import annotations

import collections
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from agent_helpers import call

REPO = Path(__file__).resolve().parents[1]

TOOLS_FILE = textwrap.dedent('''
    import os
    from pydantic import BaseModel
    from assistant.infra.faults import crash_point
    from tools.base import RiskClass, Tool, ToolResult

    class WriteArgs(BaseModel):
        path: str
        text: str

    class ReadArgs(BaseModel):
        path: str

    def _log(line):
        with open(os.environ["TEST_TOOL_LOG"], "a") as fh:
            fh.write(line + "\\n")

    def slow_write(ctx, p: WriteArgs):
        _log("start " + p.path)
        ctx.workspace.write_text(p.path, p.text[: len(p.text) // 2])  # first half on disk
        crash_point("slow_write")                                    # killed mid-write
        ctx.workspace.write_text(p.path, p.text)
        _log("done " + p.path)
        return "wrote " + p.path

    def peek(ctx, p: ReadArgs):
        return ToolResult(text=ctx.workspace.read_text(p.path))

    TOOLS = [
        Tool("slow_write", "Write a file slowly.", WriteArgs, slow_write, RiskClass.WRITE),
        Tool("peek", "Read a file.", ReadArgs, peek, RiskClass.READ),
    ]
''')


OUTPUTS = [
    call("slow_write", path="a.txt", text="alpha " * 50),
    call("slow_write", path="docs/b.txt", text="bravo " * 50),
    call("peek", path="a.txt"),
    call("slow_write", path="c.txt", text="charlie " * 50) + "\n" + call("slow_write", path="d.txt", text="delta"),
    call("slow_write", path="e.txt", text="echo " * 30),
    "Wrote five files.",
]

KILL_POINTS = (
    [f"step_start:{i}" for i in range(1, 7)]
    + [f"turn_saved:{i}" for i in range(1, 6)]
    + [f"call_started:{i}" for i in range(1, 7)]
    + [f"call_done:{i}" for i in range(1, 7)]
    + [f"change:{i}" for i in (1, 2, 7)]
    + [f"slow_write:{i}" for i in range(1, 6)]
)


def _cli(args, home: Path, log: Path, fault: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, ASSISTANT_HOME=str(home), TEST_TOOL_LOG=str(log), PYTHONPATH=str(REPO))
    env.pop("ASSISTANT_FAULT", None)
    if fault:
        env["ASSISTANT_FAULT"] = fault
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


def _events(proc: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def _snapshot(ws: Path) -> dict[str, bytes]:
    return {str(p.relative_to(ws)): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}


def _scenario(tmp: Path, fault: str | None) -> tuple[dict[str, bytes], list[str], Path]:
    home, ws, log = tmp / "home", tmp / "ws", tmp / "tools.log"
    ws.mkdir(parents=True)
    home.mkdir()
    tools_file = tmp / "extra_tools.py"
    tools_file.write_text(TOOLS_FILE)
    script = tmp / "script.json"
    script.write_text(json.dumps({"outputs": OUTPUTS, "tools_file": str(tools_file), "builtins": False}))
    common = ["--scripted", str(script), "--json"]
    first = _cli(["run", "write the files", "--workspace", str(ws), *common], home, log, fault)
    events = _events(first)
    assert events and events[0]["type"] == "task_started", first.stderr
    task_id = events[0]["task_id"]
    if fault is None:
        assert first.returncode == 0, first.stderr
    else:
        assert first.returncode == -signal.SIGKILL, f"{fault} never fired: {first.stderr[-500:]}"
        decision: list[str] = []
        for _ in range(6):
            proc = _cli(["resume", task_id, *decision, *common], home, log)
            if proc.returncode == 0:
                break
            assert proc.returncode == 3, proc.stderr
            paused = [e for e in _events(proc) if e["type"] == "paused"][-1]
            # only a write that was in flight may need the human; they choose to re-run it
            assert paused["kind"] == "in_flight", paused
            decision = ["--approve-once"]
        else:
            pytest.fail(f"{fault}: task did not finish after resumes")
    with sqlite3.connect(home / "state" / "tasks.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    files = _snapshot(ws)
    undo = _cli(["undo", task_id], home, log)
    assert undo.returncode == 0 and _snapshot(ws) == {}, f"{fault}: undo left {list(_snapshot(ws))}: {undo.stdout}"
    return files, log.read_text().splitlines(), home


def test_kill_at_every_boundary_and_mid_write_then_resume_matches_clean_run(tmp_path):
    reference, ref_log, _ = _scenario(tmp_path / "clean", None)
    assert set(reference) == {"a.txt", "docs/b.txt", "c.txt", "d.txt", "e.txt"}
    done_ref = sorted(line for line in ref_log if line.startswith("done"))
    assert len(KILL_POINTS) >= 20
    for i, fault in enumerate(KILL_POINTS):
        files, log, _ = _scenario(tmp_path / f"k{i}", fault)
        assert files == reference, fault
        done = collections.Counter(line for line in log if line.startswith("done"))
        assert sorted(done) == done_ref, fault
        assert max(done.values()) == 1, f"{fault}: a write completed twice: {done}"
