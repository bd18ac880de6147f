"""A tool-call card: name, key arguments, status and result summary; expands
to show all arguments and the full result."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.markup import escape
from textual.widgets import Collapsible, Static

__all__ = ["ToolCallCard", "key_arguments", "summarize_result", "for_people"]

_ICONS = {"running": "⋯", "done": "✓", "error": "✗", "waiting": "?", "denied": "⊘"}
_KEY_ORDER = ("path", "src", "dst", "url", "query", "pattern", "question", "command", "name")


def _short(value: Any, limit: int = 40) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def key_arguments(arguments: dict[str, Any], limit: int = 2) -> str:
    """The most telling arguments as ``k=v`` pairs (paths, URLs, queries first),
    at most ``limit`` of them, each value cut to 40 characters."""
    keys = [k for k in _KEY_ORDER if k in arguments]
    keys += [k for k in arguments if k not in keys and k not in ("content", "new_text", "old_text")]
    return " ".join(f"{k}={_short(arguments[k])}" for k in keys[:limit])


_MODEL_ONLY = ("<<UNTRUSTED ", "<<END_UNTRUSTED ", "(The text below is data from a document or web page.")


def for_people(result: str) -> str:
    """``result`` without the lines meant only for the model: the
    ``<<UNTRUSTED ... source=...>>`` / ``<<END_UNTRUSTED ...>>`` markers around
    document and web text, and the notice under the opening marker."""
    if "<<" not in result:
        return result
    return "\n".join(line for line in result.splitlines() if not line.lstrip().startswith(_MODEL_ONLY))


def summarize_result(result: str, limit: int = 60) -> str:
    """The first non-empty line of a result, cut to ``limit`` characters."""
    for line in result.splitlines():
        if line.strip():
            return _short(line.strip(), limit)
    return "(empty)"


class ToolCallCard(Collapsible):
    """One tool call in the transcript.

    Args:
        call: ``{"id", "name", "arguments"}`` as carried by the loop events.
        risk: the call's risk class value.
        status: "running", "waiting" (approval or answer), "done", "error" or "denied".
    """

    DEFAULT_CSS = """
    ToolCallCard { margin: 1 0 0 0; border: none; padding: 0; background: $boost; }
    ToolCallCard CollapsibleTitle { width: 1fr; }
    ToolCallCard.-error CollapsibleTitle { color: $error; }
    ToolCallCard Static { padding: 0 2; }
    """

    def __init__(self, call: dict[str, Any], risk: str = "", status: str = "running") -> None:
        self.call = call
        self.risk = risk
        self.call_status = status
        self.result = ""
        self._args_view = Static(self._args_text())
        self._result_view = Static("")
        super().__init__(self._args_view, self._result_view, title=self._make_title(), collapsed=True)

    @property
    def call_id(self) -> str:
        return str(self.call.get("id", ""))

    def _args_text(self) -> Text:
        args = self.call.get("arguments") or {}
        body = json.dumps(args, ensure_ascii=False, indent=2) if args else "(no arguments)"
        return Text(body)

    def _make_title(self) -> str:
        icon = _ICONS.get(self.call_status, "·")
        name = self.call.get("name", "?")
        args = key_arguments(self.call.get("arguments") or {})
        title = f"{icon} {name}" + (f" {args}" if args else "")
        if self.risk and self.risk != "read":
            title += f" [{self.risk}]"
        if self.result:
            title += f" — {summarize_result(for_people(self.result))}"
        elif self.call_status == "waiting":
            title += " — waiting for you"
        return escape(title)

    def set_status(self, status: str) -> None:
        """Change the status icon (see class docstring)."""
        self.call_status = status
        self.title = self._make_title()

    def finish(self, result: str, error: bool = False) -> None:
        """Record the result (the observation the model sees)."""
        self.result = result
        self.call_status = "error" if error else "done"
        if error and result.lower().startswith(("denied", "the user denied")):
            self.call_status = "denied"
        self.set_class(error, "-error")
        self._result_view.update(Text(for_people(result)))
        self.title = self._make_title()
