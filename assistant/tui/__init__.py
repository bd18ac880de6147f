"""The Textual app (``assistant`` with no subcommand)."""

from .app import AssistantApp, run_app

__all__ = ["AssistantApp", "run_app"]
