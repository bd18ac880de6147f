"""The sandbox's inner modules use the Workspace's public methods only: the
walk and the tree operations never reach into its private state, and no
module imports the workspace back (no import cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SANDBOX = Path(__file__).resolve().parents[1] / "sandbox"


@pytest.mark.parametrize("module", ["walk.py", "tree_ops.py", "reading.py", "_fdtree.py", "undo.py"])
def test_no_private_workspace_state_and_no_import_of_the_workspace(module: str) -> None:
    tree = ast.parse((SANDBOX / module).read_text())
    private = {"_dir", "_hidden"}
    used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not used & private
    runtime_imports = [
        n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module
    ]
    assert "sandbox.workspace" not in runtime_imports


def test_every_sandbox_module_stays_readable() -> None:
    for path in SANDBOX.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 400, path.name
