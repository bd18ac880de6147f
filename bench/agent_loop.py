"""Benchmark (not a test): agent-loop overhead per step and DB growth per 100 steps.

Runs one task of ``--steps`` turns on a scripted model (each turn one tool
call, alternating a file write and a file read through the real sandbox), then
reports wall time per step minus the time spent inside the model and inside
the tools (sandbox writes fsync; that is tool time, reported apart), and how much
the state DB (+ WAL, checkpointed) grew per 100 steps.

    .venv/bin/python bench/agent_loop.py --steps 200
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import BaseModel  # noqa: E402

from assistant.loop.agent import Agent  # noqa: E402
from assistant.config import load_config  # noqa: E402
from model.scripted import ScriptedChatModel  # noqa: E402
from assistant.state import Store  # noqa: E402
from tools.base import RiskClass, Tool, ToolRegistry  # noqa: E402


class Args(BaseModel):
    path: str
    text: str = ""


TOOL_S = [0.0]


def _timed(fn):
    def run(ctx, p):
        t = time.perf_counter()
        try:
            return fn(ctx, p)
        finally:
            TOOL_S[0] += time.perf_counter() - t
    return run


@_timed
def _write(ctx, p: Args) -> str:
    ctx.workspace.write_text(p.path, p.text)
    return f"wrote {p.path}"


@_timed
def _read(ctx, p: Args) -> str:
    return ctx.workspace.read_text(p.path)


class TimedModel(ScriptedChatModel):
    """Scripted model that records the seconds spent inside ``complete``."""

    model_s = 0.0

    def complete(self, *a, **kw):  # noqa: D102
        t = time.perf_counter()
        try:
            return super().complete(*a, **kw)
        finally:
            self.model_s += time.perf_counter() - t


def call(name: str, **args) -> str:
    params = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in args.items())
    return f"<tool_call>\n<function={name}>\n{params}</function>\n</tool_call>"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    opts = ap.parse_args()
    n = opts.steps
    outputs = []
    for i in range(n - 1):
        f = f"f{i // 2 % 20}.txt"
        outputs.append(call("note", path=f, text=f"line {i} " * 20) if i % 2 == 0 else call("peek", path=f))
    outputs.append("done")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        ws = tmp / "ws"
        ws.mkdir()
        db = tmp / "tasks.db"
        store = Store(db)
        model = TimedModel(outputs, context_size=1_000_000)
        reg = ToolRegistry([Tool("note", "Write.", Args, _write, RiskClass.WRITE),
                            Tool("peek", "Read.", Args, _read, RiskClass.READ)])
        settings = load_config(overrides={"agent": {"max_steps": n + 1, "stale_steps": 1000}})
        agent = Agent(model, reg, store, settings=settings, state_dir=tmp / "state")
        empty = db.stat().st_size
        t0 = time.perf_counter()
        events = list(agent.run("bench", workspace=ws))
        total = time.perf_counter() - t0
        store.close()
        with sqlite3.connect(db) as c:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.stat().st_size
    kind = type(events[-1]).__name__
    result = {
        "steps": n,
        "ended_with": kind,
        "loop_overhead_ms_per_step": round((total - model.model_s - TOOL_S[0]) / n * 1000, 2),
        "model_ms_per_step": round(model.model_s / n * 1000, 2),
        "tool_ms_per_step": round(TOOL_S[0] / n * 1000, 2),
        "db_growth_kib_per_100_steps": round((size - empty) / 1024 / n * 100, 1),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
