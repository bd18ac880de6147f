"""What the tools say when the sandbox refuses or leaves something out: one
line, the offending path kept whole, a next step that really works, and no
silent success when a folder copy skipped a file."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest

from sandbox import BlobStore, Workspace
from tools.base import ToolContext
from tools.files import FILE_TOOLS

TOOLS = {t.name: t for t in FILE_TOOLS}


def call(tool, ctx: ToolContext, **args):
    """The same validate + invoke path the agent uses."""
    return tool.invoke(ctx, tool.validate(args))


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    root = tmp_path / "w"
    root.mkdir()
    ws = Workspace(root, blobs=BlobStore(tmp_path / "blobs"), trash_dir=tmp_path / "trash")
    return ToolContext(workspace=ws, state={})


def test_a_folder_copy_says_which_entries_it_could_not_copy(ctx: ToolContext) -> None:
    root = ctx.workspace.root
    (root / "src").mkdir()
    (root / "src" / "good.txt").write_text("good")
    with open(os.path.join(os.fsencode(root), b"src", b"bad\xff.txt"), "wb") as fh:
        fh.write(b"bad")
    r = call(TOOLS["copy"], ctx, src="src", dest="dst")
    assert not r.error
    assert "NOT copied: 1 entry" in r.text and "bad\\udcff.txt" in r.text and "rename" in r.text
    assert r.data["skipped"] == 1
    assert (root / "dst" / "good.txt").read_text() == "good"
    r = call(TOOLS["copy"], ctx, src="dst", dest="dst2")
    assert "NOT copied" not in r.text and r.data["skipped"] == 0


@pytest.mark.parametrize("path, shown", [("..", "'..'"), ("../..", "'../..'"), ("../x", "../x")])
def test_error_messages_keep_the_offending_dots(ctx: ToolContext, path: str, shown: str) -> None:
    r = call(TOOLS["read_file"], ctx, path=path)
    assert r.error and "\n" not in r.text
    assert f"escapes the workspace: {shown}." in r.text


def test_the_hard_link_refusal_suggests_what_works(ctx: ToolContext, tmp_path: Path) -> None:
    root = ctx.workspace.root
    (root / "h.txt").write_text("shared\n")
    os.link(root / "h.txt", tmp_path / "outside-link.txt")
    for tool, args in (("read_file", {"path": "h.txt"}), ("copy", {"src": "h.txt", "dest": "h2.txt"}),
                       ("write_file", {"path": "h.txt", "content": "x"})):
        r = call(TOOLS[tool], ctx, **args)
        assert r.error and "hard-linked" in r.text and "\n" not in r.text
        assert "Copy the file to a new name" not in r.text and "cp FILE FILE.new && mv FILE.new FILE" in r.text
    shutil.copyfile(root / "h.txt", root / "h.txt.new")  # what the hint tells the user to do
    os.replace(root / "h.txt.new", root / "h.txt")
    r = call(TOOLS["read_file"], ctx, path="h.txt")
    assert not r.error and "shared" in r.text
    assert not call(TOOLS["write_file"], ctx, path="h.txt", content="mine\n").error
    assert (tmp_path / "outside-link.txt").read_text() == "shared\n"


def test_office_writers_give_one_line_sandbox_errors(ctx: ToolContext) -> None:
    from pypdf import PdfWriter

    from tools.office.pdf_pages import pdf_split
    from tools.office.xlsx_write import xlsx_write

    r = call(xlsx_write, ctx, path="../evil.xlsx", cells=[{"cell": "A1", "value": 1}])
    assert r.error and "\n" not in r.text and "SandboxError" not in r.text
    assert r.text.startswith("xlsx_write: path escapes the workspace: ../evil.xlsx.")
    writer, buf = PdfWriter(), io.BytesIO()
    writer.add_blank_page(72, 72)
    writer.write(buf)
    ctx.workspace.write_bytes("a.pdf", buf.getvalue())
    r = call(pdf_split, ctx, path="a.pdf", every=1, output_prefix="../out")
    assert r.error and "\n" not in r.text and "SandboxError" not in r.text
    assert r.text.startswith("pdf_split: path escapes the workspace: ../out-001.pdf.")
