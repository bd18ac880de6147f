"""No module of the project assigns one module-level name twice: the second
assignment silently replaces the first for every function that uses it (3afc1bb
added a second ``_NEGATED`` to finish.py for one check, and every check that used
the first, broader one got the new one; an older ``_QUOTED`` had been shadowed the
same way)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import assistant

ROOT = Path(assistant.__file__).parent.parent
SOURCES = sorted(p for pkg in ("assistant", "tools", "model", "plugins") for p in (ROOT / pkg).rglob("*.py"))


def _module_bindings(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names.append(node.target.id)
    return names


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_module_level_name_is_bound_twice(path):
    names = _module_bindings(ast.parse(path.read_text(encoding="utf-8")))
    twice = sorted({n for n in names if names.count(n) > 1} - {"__all__"})
    assert twice == [], f"{path.relative_to(ROOT)} binds {twice} more than once"
