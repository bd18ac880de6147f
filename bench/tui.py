"""Benchmark (not a test) of the TUI: time to first frame without a model load,
and the longest stall of the event loop while an answer streams at 50 tok/s.

Run: ``.venv/bin/python bench/tui.py [--seconds 5] [--tps 50]``; prints one JSON
object. Headless (Textual's test driver), so terminal I/O is not included.

- ``first_frame_s``: from constructing the app to its ``Ready`` event (the first
  frame has been displayed), with a model loader that never finishes: proves
  the model load does not block the first frame. Target < 1 s.
- ``max_stall_ms``: the largest lateness of a 10 ms timer while the agent loop
  streams ``tps`` tokens/s of Markdown (with code fences) for ``seconds``,
  i.e. the longest the UI could not react. ``p99_stall_ms`` likewise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.config import Settings  # noqa: E402
from model.scripted import ScriptedChatModel  # noqa: E402
from model.types import GenerationMetrics, ParsedTurn, TurnOutput  # noqa: E402

WORDS = ("The quick brown fox jumps over the lazy dog and then writes some `code` "
         "with **bold** words, a list:\n\n- one\n- two\n\n```python\nprint('hi')\n```\n\n").split(" ")


class StreamingModel(ScriptedChatModel):
    """Streams ``n`` tokens (words) at ``tps`` tokens/s, then answers."""

    def __init__(self, n: int, tps: float) -> None:
        super().__init__(["unused"], name="bench")
        self.n, self.tps = n, tps

    def complete(self, messages, tools, *, on_delta=None, cancel=None, force=None, max_tokens=None) -> TurnOutput:
        parts, t0 = [], time.perf_counter()
        for i in range(self.n):
            piece = WORDS[i % len(WORDS)] + " "
            parts.append(piece)
            if on_delta is not None:
                on_delta("content", piece)
            delay = t0 + (i + 1) / self.tps - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        text = "".join(parts).strip()
        return TurnOutput(parsed=ParsedTurn(content=text, raw=text), token_ids=list(range(self.n)),
                          metrics=GenerationMetrics(generated=self.n, decode_s=self.n / self.tps))


async def first_frame(home: Path) -> float:
    from assistant.tui.app import AssistantApp

    never = threading.Event()
    ready = asyncio.Event()

    class Timed(AssistantApp):
        def on_ready(self) -> None:
            ready.set()

    t0 = time.perf_counter()
    app = Timed(Settings(), model_loader=lambda: never.wait(60), workspace=home)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await ready.wait()
            elapsed = time.perf_counter() - t0
            never.set()
            await pilot.pause()
    finally:
        never.set()
    return elapsed


async def streaming_stall(home: Path, seconds: float, tps: float) -> dict[str, float]:
    from assistant.state import Store
    from assistant.tui.app import AssistantApp
    from assistant.tui.loading import default_agent_factory

    store = Store(home / "state" / "tasks.db")
    config = Settings()
    model = StreamingModel(int(seconds * tps), tps)
    app = AssistantApp(config, model=model, agent_factory=default_agent_factory(config, store, plugins=False),
                       store=store, workspace=home)
    gaps: list[float] = []
    last = [0.0]

    def tick() -> None:
        now = time.perf_counter()
        if last[0]:
            gaps.append(now - last[0] - 0.01)
        last[0] = now

    async with app.run_test(size=(100, 30)) as pilot:
        app.set_interval(0.01, tick)
        await pilot.press(*"stream please", "enter")
        while app.query_one("#status").status != "finished":
            await pilot.pause(0.05)
    gaps.sort()
    return {"max_stall_ms": round(max(gaps) * 1000, 1) if gaps else 0.0,
            "p99_stall_ms": round(gaps[int(len(gaps) * 0.99)] * 1000, 1) if gaps else 0.0,
            "ticks": len(gaps)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="how long to stream")
    ap.add_argument("--tps", type=float, default=50.0, help="tokens per second")
    args = ap.parse_args()
    home = Path(tempfile.mkdtemp(prefix="tui-bench-"))
    os.environ["ASSISTANT_HOME"] = str(home)
    result = {"first_frame_s": round(asyncio.run(first_frame(home)), 3)}
    result.update(asyncio.run(streaming_stall(home, args.seconds, args.tps)))
    result.update({"tps": args.tps, "seconds": args.seconds})
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
