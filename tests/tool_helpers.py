"""Helpers shared by the tool tests (the `ctx` fixture lives in conftest.py)."""

from __future__ import annotations


def call(tool, ctx, **args):
    """Validate ``args`` for ``tool`` and invoke it; returns the ToolResult."""
    return tool.invoke(ctx, tool.validate(args))
