"""The model screen: what model runs, its facts (layers, loops, KV layers,
context), the memory plan, the last turn's speed, a health check, the GGUF
models already on this machine (``model.discover``: pulled, config folders, the
Hugging Face cache, LM Studio, Ollama) with a "use this" action, and a download
box (``model.pull.pull_model`` in a thread worker, with a progress bar)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Input, ProgressBar, Static

from assistant.infra import paths

__all__ = ["ModelScreen", "model_rows", "pull_done_text", "found_row"]

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


def found_row(found: Any) -> tuple[str, ...]:
    """A found model (``model.discover.FoundModel``) as table cells: name,
    source, architecture, loops, quantization, size (GiB), memory (fits or the problem)."""
    d = found.as_dict()
    size = f"{d['size'] / 2**30:.2f} GiB" if d.get("size") else "?"
    memory = d.get("problem") or ("fits" if d.get("fits") else "too big" if d.get("fits") is False else "?")
    return (str(d["name"]), str(d["source"]), str(d.get("architecture") or "?"), str(d.get("num_loops") or "?"),
            str(d.get("quantization") or "?"), size, str(memory))


def _memory_plan(model: Any) -> str:
    facts = getattr(model, "facts", None)
    if facts is None:
        return "no memory plan (not a local GGUF model)"
    try:
        from model.memory_plan import plan_memory

        return plan_memory(facts, requested_ctx=int(model.context_size)).summary()
    except Exception as exc:  # noqa: BLE001 - informational only
        return f"memory plan unavailable: {exc}"


def pull_done_text(result: Any) -> str:
    """The line shown after a successful pull (``result``: a ``model.pull.PullResult``)."""
    from model.pull import format_pull_result

    return (f"{format_pull_result(result)}. Restart assistant to use it "
            "(a pulled Nanbeige GGUF is preferred over the demo model).")


class ModelScreen(Screen[None]):
    """Facts and health of ``model`` (None while it is still loading).

    ``pull``: a model name to start downloading when the screen opens (``/pull NAME``).
    """

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("u", "use_found", "Use this model")]

    DEFAULT_CSS = """
    ModelScreen VerticalScroll { padding: 1 2; }
    ModelScreen .section { text-style: bold; margin-top: 1; }
    ModelScreen #pull-row { height: auto; }
    ModelScreen #found { height: auto; max-height: 12; }
    ModelScreen #pull-name { width: 1fr; }
    ModelScreen #pull-progress { display: none; }
    ModelScreen #pull-progress.running { display: block; }
    """

    def __init__(self, model: Any, *, pull: str | None = None) -> None:
        super().__init__()
        self.model = model
        self._initial_pull = pull

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
            yield Static("Download", classes="section")
            with Horizontal(id="pull-row"):
                yield Input(value=self._initial_pull or "", placeholder="nanbeige4.2-3b or owner/repo[:QUANT]",
                            id="pull-name")
                yield Button("Download", id="pull-button")
            yield ProgressBar(id="pull-progress")
            yield Static("", id="pull-status")
            yield Static("On this machine (u or Enter: use this)", classes="section")
            yield DataTable(id="found", cursor_type="row")
            yield Static("looking…", id="found-status")
        yield Footer()

    def on_mount(self) -> None:
        self.found: list[Any] = []
        self.query_one("#found", DataTable).add_columns("name", "source", "architecture", "loops", "quant",
                                                        "size", "memory")
        self._discover()
        self._check()
        if self._initial_pull:
            self.start_pull(self._initial_pull)

    # -- models on disk ----------------------------------------------------------------
    @work(thread=True, exclusive=True, group="discover", exit_on_error=False)
    def _discover(self) -> None:
        from model.discover import discover_models

        try:
            config = getattr(self.app, "config", None)
            extra = list(config.model.search_paths) if config is not None else []
            found = discover_models(pulled_dir=paths.data_dir() / "models", extra_paths=extra)
        except Exception as exc:  # noqa: BLE001 - shown, never raised
            self.app.call_from_thread(self._found_status, f"search failed: {exc}")
            return
        self.app.call_from_thread(self._show_found, found)

    def _show_found(self, found: list[Any]) -> None:
        self.found = list(found)
        table = self.query_one("#found", DataTable)
        for i, item in enumerate(self.found):
            table.add_row(*found_row(item), key=str(i))
        self._found_status(f"{len(self.found)} found" if self.found else
                           "none found (pulled models, model.search_paths, Hugging Face cache, LM Studio, Ollama)")

    def _found_status(self, text: str) -> None:
        self.query_one("#found-status", Static).update(Text(text))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_use_found()

    def action_use_found(self) -> None:
        """Use the highlighted found model for this session (the app reloads it)."""
        table = self.query_one("#found", DataTable)
        if not self.found or table.cursor_row is None or not 0 <= table.cursor_row < len(self.found):
            return
        item = self.found[table.cursor_row]
        if item.problem:
            self._found_status(f"{item.name}: {item.problem}")
            return
        use = getattr(self.app, "use_model", None)
        if use is not None:
            self.app.pop_screen()
            use(str(item.path), item.name)

    # -- download ----------------------------------------------------------------------
    def start_pull(self, name: str) -> None:
        """Download ``name`` into ``data_dir()/models`` in a thread worker, showing progress."""
        name = name.strip()
        if not name:
            self._pull_status("Type a model name, e.g. nanbeige4.2-3b.", "warning")
            return
        button = self.query_one("#pull-button", Button)
        if button.disabled:
            self.app.notify("A download is already running.", severity="warning")
            return
        button.disabled = True
        bar = self.query_one("#pull-progress", ProgressBar)
        bar.update(total=None, progress=0)
        bar.add_class("running")
        self._pull_status(f"Downloading {name}…")
        self._pull(name)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "pull-button":
            self.start_pull(self.query_one("#pull-name", Input).value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "pull-name":
            self.start_pull(event.value)

    @work(thread=True, exclusive=True, group="pull", exit_on_error=False)
    def _pull(self, name: str) -> None:
        from model.pull import PullError, pull_model

        last = [-1]

        def report(done: int, total: int | None) -> None:  # throttled to ~200 updates a file
            step = (total or 0) // 200
            if last[0] < 0 or done == total or done - last[0] > step:
                last[0] = done
                self.app.call_from_thread(self._pull_progress, done, total)

        try:
            result = pull_model(name, paths.data_dir() / "models", progress=False, on_progress=report)
        except PullError as exc:
            text, level = str(exc), "error"
        except Exception as exc:  # noqa: BLE001 - shown as one line, never a crash
            text, level = f"download failed: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}", "error"
        else:
            text, level = pull_done_text(result), "info"
        try:
            self.app.call_from_thread(self._pull_finished, text, level)
        except RuntimeError:  # the app has exited meanwhile
            pass

    def _pull_progress(self, done: int, total: int | None) -> None:
        if not self.is_attached:  # the screen was closed: the download goes on, its result becomes a toast
            return
        self.query_one("#pull-progress", ProgressBar).update(total=total, progress=done)

    def _pull_finished(self, text: str, level: str) -> None:
        if not self.is_attached or not self.is_current:  # the user left this screen meanwhile
            self.app.notify(text, severity="error" if level == "error" else "information", timeout=30)
        if not self.is_attached:
            return
        self.query_one("#pull-button", Button).disabled = False
        bar = self.query_one("#pull-progress", ProgressBar)
        if level == "error":
            bar.remove_class("running")
        elif bar.total is None:  # already present: nothing was downloaded
            bar.update(total=1, progress=1)
        self._pull_status(text, level)

    def _pull_status(self, text: str, level: str = "info") -> None:
        self.query_one("#pull-status", Static).update(Text(text, style="red" if level == "error" else ""))

    @work(thread=True, exclusive=True, group="doctor", exit_on_error=False)
    def _check(self) -> None:
        lines = []
        try:
            from assistant.infra.paths import db_path
            from assistant.state import Store

            with Store(db_path(ensure=True)) as store:
                lines.append(f"task store: {store.integrity_check()}")
        except Exception as exc:  # noqa: BLE001
            lines.append(f"task store: {exc}")
        from model.canary import ensure_canary
        from model.types import ModelError

        try:
            ensure_canary()  # in a subprocess: a build this CPU cannot run must not crash the app
        except ModelError as exc:
            lines.append(f"llama.cpp: {exc}")
            self.app.call_from_thread(self._show, "\n".join(lines))
            return
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
