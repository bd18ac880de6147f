"""Progress of a long step: the phase, prompt tokens read / total, elapsed time,
ETA and the live speed of the phase, in the TUI's status bar and the headless
live line; and the runtime's prefill callback that feeds them."""

from __future__ import annotations

import io
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("textual")

from assistant.events import Finished, StepStarted, TextDelta, ToolCallStarted  # noqa: E402
from assistant.progress import PhaseClock  # noqa: E402
from assistant.tui.widgets import StatusBar  # noqa: E402
from model.scripted import ScriptedChatModel  # noqa: E402
from model.types import ParsedTurn, TurnOutput  # noqa: E402
from test_tui_support import make_app, until  # noqa: E402

SIZE = (120, 24)


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_the_phase_line_reads_progress_elapsed_eta_and_live_speed():
    clock = Clock()
    pc = PhaseClock(now=clock)
    pc.feed(StepStarted(n=1))
    pc.feed(TextDelta("0/4385", kind="prefill"))
    clock.t = 10.0
    pc.feed(TextDelta("1024/4385", kind="prefill"))
    assert pc.line() == "reading the prompt 1,024/4,385 (23%) · 10 s · ETA 33 s · 102.4 tok/s"
    pc.feed(TextDelta("Hel", kind="content"))
    clock.t = 12.0
    pc.feed(TextDelta("lo", kind="content"))
    assert pc.line() == "writing · 2 s · 1.0 tok/s"  # this phase's speed, not the prompt's
    pc.feed(ToolCallStarted(call={"name": "read_file"}, risk="read"))
    clock.t = 75.0
    assert pc.line() == "running a tool read_file · 1 min 03 s"
    pc.feed(Finished(answer="ok"))
    assert pc.line() == ""


def test_a_reused_prompt_prefix_does_not_count_as_speed():
    clock = Clock()
    pc = PhaseClock(now=clock)
    pc.feed(StepStarted(n=2))
    pc.feed(TextDelta("4000/4385", kind="prefill"))  # 4000 tokens came from the cache
    clock.t = 5.0
    pc.feed(TextDelta("4385/4385", kind="prefill"))
    assert pc.line() == "reading the prompt 4,385/4,385 (100%) · 5 s · 77.0 tok/s"


def test_the_headless_live_line_shows_prompt_progress():
    from assistant.cli_output import consume

    class Tty(io.StringIO):
        def isatty(self):
            return True

    events = [StepStarted(n=1), TextDelta("512/1024", kind="prefill"), TextDelta("Hi", kind="content"),
              Finished(answer="Hi", status="finished", task_id="t")]
    out, err = io.StringIO(), Tty()
    assert consume(events, as_json=False, out=out, err=err, secrets={}) == 0
    assert "\r   ... reading the prompt 512/1,024 (50%)" in err.getvalue()
    assert "\r   ... writing (2 characters)" in err.getvalue() and out.getvalue() == "Hi\n"


class PrefillingModel(ScriptedChatModel):
    """Reports prompt progress like the local runtime, then waits to be cancelled.

    ``at_zero`` is set after "0/4385"; the turn goes on to "1024/4385" when
    ``go`` is set, then sets ``reported`` and waits for a cancel or ``stop``."""

    def __init__(self) -> None:
        super().__init__(["never used"], name="slow-model", context_size=10_000_000)
        self.at_zero, self.go, self.reported = threading.Event(), threading.Event(), threading.Event()
        self.stop = threading.Event()

    def complete(self, messages, tools, *, on_delta=None, cancel=None, **kw) -> TurnOutput:
        on_delta("prefill", "0/4385")
        self.at_zero.set()
        self.go.wait(30)
        on_delta("prefill", "1024/4385")
        self.reported.set()
        for _ in range(600):
            if self.stop.is_set() or (cancel is not None and cancel.is_set()):
                break
            self.stop.wait(0.05)
        return TurnOutput(parsed=ParsedTurn(), stop_reason="cancelled")


@pytest.fixture
def pinned(tmp_path, monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("assistant.progress.time", SimpleNamespace(monotonic=clock))
    return clock


def _mid_prefill(model: PrefillingModel, clock: Clock):
    async def run_before(pilot) -> None:
        pilot.app.query_one("#prompt").cursor_blink = False
        await pilot.press(*"summarize the report", "enter")
        await until(pilot, model.at_zero.is_set)
        await until(pilot, lambda: "0/4,385" in pilot.app.query_one(StatusBar).phase)
        clock.t = 10.0
        model.go.set()
        await until(pilot, lambda: "1,024/4,385" in pilot.app.query_one(StatusBar).phase)
        await pilot.pause()

    return run_before


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_status_bar_shows_the_phase_while_the_prompt_is_read(pinned, tmp_path, anyio_backend):
    model = PrefillingModel()
    ws = tmp_path / "ws"
    ws.mkdir()
    app = make_app(tmp_path / "home", ws, model, files_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await _mid_prefill(model, pinned)(pilot)
        text = str(app.query_one(StatusBar).render())
        assert "reading the prompt 1,024/4,385 (23%) · 10 s · ETA 33 s · 102.4 tok/s" in text
        assert "– tok/s" not in text  # no stale figure of an earlier step
        assert "step 1/" in text  # the step in progress, not the steps done
        await pilot.press("escape")
        await until(pilot, lambda: not app.running)
        assert app.query_one(StatusBar).phase == ""


def test_progress_line_mid_prefill(snap_compare, pinned, tmp_path):
    pytest.importorskip("pytest_textual_snapshot")
    model = PrefillingModel()
    ws = tmp_path / "ws"
    ws.mkdir()
    app = make_app(tmp_path / "home", ws, model, files_only=True)
    exit_app = app.exit

    def exit(*args, **kwargs):  # the snapshot is taken: let the turn end so the app can close
        model.go.set()
        model.stop.set()
        return exit_app(*args, **kwargs)

    app.exit = exit
    assert snap_compare(app, terminal_size=SIZE, run_before=_mid_prefill(model, pinned))


def test_runtime_reports_prefill_progress_per_batch():
    pytest.importorskip("llama_cpp")
    from model.runtime import Runtime
    from model.select import demo_model_path

    try:
        path = demo_model_path()
    except Exception as exc:  # noqa: BLE001 - no demo model installed
        pytest.skip(f"demo model unavailable: {exc}")
    rt = Runtime(path, n_ctx=1024, n_threads=2, n_batch=64)
    try:
        prompt = rt.llm.tokenize(("word " * 150).encode(), add_bos=True)
        seen: list[tuple[int, int]] = []
        rt.generate(prompt, max_tokens=1, on_progress=lambda d, t: seen.append((d, t)))
    finally:
        rt.close()
    n = len(prompt)
    assert seen[0] == (0, n) and seen[-1] == (n, n)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) >= n // 64
