"""The model screen: what model runs, its facts (layers, loops, KV layers,
context), the memory plan, the last turn's speed, and a health check."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

__all__ = ["ModelScreen", "model_rows"]

_FACT_KEYS = ("architecture", "quantization", "block_count", "num_loops", "kv_layers", "head_count",
              "head_count_kv", "head_dim", "embedding_length", "context_length", "vocab_size")


def model_rows(model: Any) -> list[tuple[str, str]]:
    """``(label, value)`` rows describing ``model`` (any ChatModel; fields it
    lacks are left out). Sizes in GiB, speeds in tokens/s."""
    if model is None:
        return [("model", "not loaded")]
    rows = [("model", str(getattr(model, "name", "?"))),
            ("demo model", "yes" if getattr(model, "is_demo", False) else "no"),
            ("context in use", f"{getattr(model, 'context_size', '?')} tokens")]
    facts = getattr(model, "facts", None)
    if facts is not None:
        for key in _FACT_KEYS:
            if hasattr(facts, key):
                rows.append((key.replace("_", " "), str(getattr(facts, key))))
        size = getattr(facts, "file_size", 0)
        if size:
            rows.append(("file size", f"{size / 2**30:.2f} GiB"))
    metrics = getattr(model, "last_metrics", None)
    if metrics is not None:
        rows.append(("last turn", f"prefill {metrics.prefill_tps:.1f} tok/s, decode {metrics.decode_tps:.1f} tok/s, "
                                  f"reused {metrics.reused} of {metrics.prompt_tokens} prompt tokens"))
    return rows


def _memory_plan(model: Any) -> str:
    facts = getattr(model, "facts", None)
    if facts is None:
        return "no memory plan (not a local GGUF model)"
    try:
        from model.memory import plan_memory

        return plan_memory(facts, requested_ctx=int(model.context_size)).summary()
    except Exception as exc:  # noqa: BLE001 - informational only
        return f"memory plan unavailable: {exc}"


class ModelScreen(Screen[None]):
    """Facts and health of ``model`` (None while it is still loading)."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    DEFAULT_CSS = """
    ModelScreen VerticalScroll { padding: 1 2; }
    ModelScreen .section { text-style: bold; margin-top: 1; }
    """

    def __init__(self, model: Any) -> None:
        super().__init__()
        self.model = model

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold")
        table.add_column()
        for label, value in model_rows(self.model):
            table.add_row(label, value)
        with VerticalScroll():
            yield Static("Model", classes="section")
            yield Static(table)
            yield Static("Memory plan", classes="section")
            yield Static(Text(_memory_plan(self.model) if self.model is not None else "(model not loaded)"))
            yield Static("Health", classes="section")
            yield Static("checking…", id="doctor")
        yield Footer()

    def on_mount(self) -> None:
        self._check()

    @work(thread=True, exclusive=True, group="doctor", exit_on_error=False)
    def _check(self) -> None:
        lines = []
        try:
            from assistant.paths import db_path
            from assistant.state import Store

            with Store(db_path(ensure=True)) as store:
                lines.append(f"task store: {store.integrity_check()}")
        except Exception as exc:  # noqa: BLE001
            lines.append(f"task store: {exc}")
        try:
            import llama_cpp

            lines.append(f"llama-cpp-python {llama_cpp.__version__}")
        except Exception as exc:  # noqa: BLE001
            lines.append(f"llama-cpp-python: not importable ({type(exc).__name__})")
        from model.loopcheck import verify_loops

        loop = verify_loops()  # the same check as `assistant doctor` (tiny looped models vs NumPy)
        if loop.passed:
            worst = max(loop.max_abs_err.values())
            lines.append(f"looped models: ok (llama.cpp matches the NumPy reference for 1-3 loops, "
                         f"max error {worst:.1e}, {loop.seconds:.2f} s)")
        else:
            lines.append(f"looped models: FAILED {loop.error or loop.max_abs_err}")
        self.app.call_from_thread(self._show, "\n".join(lines))

    def _show(self, text: str) -> None:
        self.query_one("#doctor", Static).update(Text(text))
