"""Shared, generic fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture
def assistant_home(tmp_path, monkeypatch):
    """Point ASSISTANT_HOME at a fresh folder so config/state/cache are isolated."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("ASSISTANT_HOME", str(home))
    return home


@pytest.fixture
def ctx(tmp_path):
    """A ToolContext on a fresh sandboxed workspace (``tmp_path / "ws"``)."""
    from sandbox import Workspace
    from tools.base import ToolContext

    root = tmp_path / "ws"
    root.mkdir()
    return ToolContext(workspace=Workspace(root))
