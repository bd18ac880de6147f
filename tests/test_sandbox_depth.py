"""Deeply nested folders: walks are iterative (a 1,500-level tree built
outside the agent never raises RecursionError), the tools say what they did
not look into, and nothing can create a path deeper than MAX_DEPTH."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

import pytest

from sandbox import MAX_DEPTH, BlobStore, SandboxError, Workspace, undo_changes
from tools.base import ToolContext
from tools.files import FILE_TOOLS

TOOLS = {t.name: t for t in FILE_TOOLS}
LEVELS = 1500


def call(ctx: ToolContext, name: str, **args):
    """The same validate + invoke path the agent uses."""
    t = TOOLS[name]
    return t.invoke(ctx, t.validate(args))


def make_ctx(tmp_path: Path) -> ToolContext:
    root = tmp_path / "w"
    root.mkdir()
    journal: list = []
    ws = Workspace(root, blobs=BlobStore(tmp_path / "blobs"), on_change=journal.append, trash_dir=tmp_path / "trash")
    return ToolContext(workspace=ws, state={"journal": journal})


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    return make_ctx(tmp_path)


@pytest.fixture(scope="module")
def deep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ToolContext, Path]]:
    """A workspace holding ``d/d/.../d`` 1,500 levels deep (made directly, as
    another program would; os.makedirs itself recurses too deep), a file at
    the bottom and one near the top. Removed bottom up afterwards (rmtree
    recurses; ext4 takes a few ms per rmdir, so it is built once)."""
    ctx = make_ctx(tmp_path_factory.mktemp("deep"))
    root = str(ctx.workspace.root)
    bottom = root
    for _ in range(LEVELS):
        bottom += "/d"
        os.mkdir(bottom)
    Path(bottom, "bottom.txt").write_text("needle at the bottom\n")
    Path(root, "d", "top.txt").write_text("needle at the top\n")
    yield ctx, Path(bottom)
    here = bottom
    while here != root:
        for name in os.listdir(here):
            if name != "d":
                os.unlink(os.path.join(here, name))
        if os.path.isdir(os.path.join(here, "d")):  # a copy the test made: not expected
            break
        os.rmdir(here)
        here = os.path.dirname(here)


def one_line_error(result) -> str:
    assert result.error, result.text
    assert "\n" not in result.text and "Recursion" not in result.text and "failed:" not in result.text
    return result.text


def test_read_tools_walk_a_1500_level_tree_and_say_what_they_left_out(deep: tuple[ToolContext, Path]) -> None:
    ctx, _ = deep
    r = call(ctx, "grep", pattern="needle")
    assert not r.error and "d/top.txt:1:" in r.text
    assert f"nested more than {MAX_DEPTH} levels deep is not searched" in r.text
    r = call(ctx, "find_files", pattern="*.txt")
    assert not r.error and r.data["paths"] == ["d/top.txt"] and "not searched" in r.text
    r = call(ctx, "find_files", pattern="*.nothing")
    assert "no files match" in r.text and "not searched" in r.text
    assert not call(ctx, "list_dir", depth=6).error
    assert not call(ctx, "file_info", path="d").error
    entries = list(ctx.workspace.walk("."))
    assert max(e.depth for e in entries) == MAX_DEPTH


def test_copy_and_delete_of_a_too_deep_tree_refuse_with_one_line(deep: tuple[ToolContext, Path]) -> None:
    ctx, bottom = deep
    assert "more than 64 levels deep" in one_line_error(call(ctx, "copy", src="d", dest="e"))
    assert "remove it by hand" in one_line_error(call(ctx, "delete", path="d"))
    assert Path(bottom, "bottom.txt").read_text() == "needle at the bottom\n"
    assert not (ctx.workspace.root / "e").exists()


def test_writes_deeper_than_the_limit_are_refused(ctx: ToolContext) -> None:
    ok = "/".join(["a"] * (MAX_DEPTH - 1)) + "/f.txt"
    too = "/".join(["a"] * MAX_DEPTH) + "/f.txt"
    assert not call(ctx, "write_file", path=ok, content="x").error
    msg = one_line_error(call(ctx, "write_file", path=too, content="x"))
    assert f"{MAX_DEPTH + 1} levels; limit {MAX_DEPTH}" in msg
    with pytest.raises(SandboxError, match="nested too deeply"):
        ctx.workspace.mkdir("/".join(["b"] * (MAX_DEPTH + 1)))
    ctx.workspace.mkdir("x/y")
    one_line_error(call(ctx, "move", src="a", dest="x/y/a"))  # would put f.txt 66 levels down
    one_line_error(call(ctx, "copy", src="a", dest="x/a"))
    assert not (ctx.workspace.root / "x" / "y" / "a").exists()
    assert not call(ctx, "move", src="a", dest="c").error  # same depth is fine


def test_a_tree_at_the_limit_is_deleted_and_undone_whole(ctx: ToolContext) -> None:
    path = "/".join(["a"] * (MAX_DEPTH - 1)) + "/f.txt"
    ctx.workspace.write_text(path, "deep\n")
    start = len(ctx.state["journal"])
    assert not call(ctx, "delete", path="a").error
    assert not (ctx.workspace.root / "a").exists()
    lines = undo_changes(ctx.workspace, ctx.state["journal"][start:])
    assert not [line for line in lines if line.startswith(("could not", "skipped"))], lines[:3]
    assert ctx.workspace.read_text(path) == "deep\n"
