"""Shared, generic fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    """Async tests (Textual's Pilot, MCP clients) run on asyncio."""
    return "asyncio"


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


@pytest.fixture
def ring():
    """An in-memory keyring installed for the test (the previous backend is restored)."""
    import keyring
    from memory_keyring import MemoryKeyring

    before = keyring.get_keyring()
    kr = MemoryKeyring()
    keyring.set_keyring(kr)
    yield kr
    keyring.set_keyring(before)


@pytest.fixture(autouse=True)
def _no_second_query(monkeypatch):
    """Scripted models answer only the turns a test scripts: the second query of a table
    question (assistant/loop/cross_check.py, ``[agent] cross_check``, on by default) is
    off unless a test turns it on (``cross_check=True``)."""
    monkeypatch.setenv("ASSISTANT_AGENT__CROSS_CHECK", "false")
