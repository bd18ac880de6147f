"""The one-line status bar: model, loops, speed, context use, step and task status."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

__all__ = ["StatusBar"]


class StatusBar(Widget):
    """Shows ``model [demo model] · loops N · T tok/s · ctx P% · step n/limit · status``.

    Reactive attributes (set them from the app thread):
        model_name: the model label ("" while loading).
        is_demo: adds a highlighted "demo model" tag.
        loops: the model's ``num_loops`` (1 for ordinary models; 0 unknown).
        tps: decode speed of the last turn in tokens/s (0: not measured).
        ctx_pct: context used by the last prompt, 0..100 (None: unknown).
        step / max_steps: model turns taken and the task's step budget.
        status: task status ("idle", "running", "paused", "finished", ...).
        workspace: the folder tasks work in (its name; "" hides it).
        phase: what the running task does now, with its live figures (""
            none); shown instead of the last turn's tok/s.
    """

    DEFAULT_CSS = """
    StatusBar { height: 1; background: $panel; color: $text; padding: 0 1; }
    """

    model_name: reactive[str] = reactive("")
    is_demo: reactive[bool] = reactive(False)
    loops: reactive[int] = reactive(0)
    tps: reactive[float] = reactive(0.0)
    ctx_pct: reactive[float | None] = reactive(None)
    step: reactive[int] = reactive(0)
    max_steps: reactive[int] = reactive(0)
    status: reactive[str] = reactive("idle")
    phase: reactive[str] = reactive("")
    workspace: reactive[str] = reactive("")

    def set_model(self, model: Any) -> None:
        """Read ``name``, ``is_demo`` and ``facts.num_loops`` from a chat model."""
        self.model_name = str(getattr(model, "name", "") or "model")
        self.is_demo = bool(getattr(model, "is_demo", False))
        facts = getattr(model, "facts", None)
        self.loops = int(getattr(facts, "num_loops", 1) or 1) if facts is not None else 0

    def update_metrics(self, data: dict[str, Any], context_size: int | None = None) -> None:
        """Apply a ``Metrics`` event's data (keys used when present:
        ``decode_tps``, ``prompt_tokens``, ``step``, ``max_steps``)."""
        if "decode_tps" in data:
            self.tps = float(data.get("decode_tps") or 0.0)
        prompt = data.get("prompt_tokens")
        if prompt is not None and context_size:
            self.ctx_pct = min(100.0, 100.0 * float(prompt) / float(context_size))
        if data.get("step") is not None:
            self.step = int(data["step"])
        if data.get("max_steps") is not None:
            self.max_steps = int(data["max_steps"])

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        if not self.model_name:
            text.append("model loading…", style="italic")
        else:
            text.append(self.model_name, style="bold")
            if self.is_demo and "demo" not in self.model_name.lower():
                text.append(" [demo model]", style="reverse")
            elif self.is_demo:
                text.append(" [demo]", style="reverse")
        parts = []
        if self.loops:
            parts.append(f"loops {self.loops}")
        if self.phase:
            parts.append(self.phase)
        else:
            parts.append(f"{self.tps:.1f} tok/s" if self.tps > 0 else "– tok/s")
        parts.append(f"ctx {self.ctx_pct:.0f}%" if self.ctx_pct is not None else "ctx –")
        limit = f"/{self.max_steps}" if self.max_steps else ""
        parts.append(f"step {self.step}{limit}")
        if not self.phase:  # the phase says more than "running"
            parts.append(self.status)
        if self.workspace:
            parts.append(f"in {self.workspace}")
        text.append(" · " + " · ".join(parts))
        return text
