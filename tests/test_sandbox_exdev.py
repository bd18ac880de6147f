"""Delete when the trash is on another file system (rename gives EXDEV): the
copy-then-remove fallback keeps the fast path's guarantees, even while a
racing thread swaps a folder of the path for a symlink to the outside."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Iterator

import pytest

from sandbox import BlobStore, Workspace, undo_changes
from tools.base import ToolContext
from tools.files import FILE_TOOLS

TOOLS = {t.name: t for t in FILE_TOOLS}
MARK = b"OUTSIDE-SECRET"


def call(ctx: ToolContext, name: str, **args):
    """The same validate + invoke path the agent uses."""
    t = TOOLS[name]
    return t.invoke(ctx, t.validate(args))


@pytest.fixture
def other_fs(tmp_path: Path) -> Iterator[Path]:
    """A fresh folder on a file system other than ``tmp_path``'s (skip when none)."""
    here = os.stat(tmp_path).st_dev
    for cand in ("/dev/shm", f"/run/user/{os.getuid()}", "/var/tmp", os.path.expanduser("~"), "/tmp"):
        try:
            if os.stat(cand).st_dev != here and os.access(cand, os.W_OK):
                made = Path(tempfile.mkdtemp(prefix="exdev-", dir=cand))
                break
        except OSError:
            continue
    else:
        pytest.skip("no second file system to put the trash on")
    yield made
    shutil.rmtree(made, ignore_errors=True)


@pytest.fixture
def ctx(tmp_path: Path, other_fs: Path) -> ToolContext:
    root = tmp_path / "w"
    root.mkdir()
    journal: list = []
    ws = Workspace(root, blobs=BlobStore(tmp_path / "blobs"), on_change=journal.append, trash_dir=other_fs / "trash")
    return ToolContext(workspace=ws, state={"journal": journal})


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_delete_and_undo_work_across_file_systems(ctx: ToolContext, other_fs: Path) -> None:
    ws = ctx.workspace
    ws.write_bytes("one.txt", b"one\n")
    ws.write_bytes("tree/a.txt", b"alpha\n")
    ws.write_bytes("tree/deep/b.bin", bytes(range(256)) * 1000)
    os.chmod(ws.root / "tree" / "deep" / "b.bin", 0o640)
    assert os.stat(ws.root).st_dev != os.stat(other_fs).st_dev
    before = snapshot(ws.root)
    start = len(ctx.state["journal"])

    assert not call(ctx, "delete", path="one.txt").error
    assert not call(ctx, "delete", path="tree").error
    assert snapshot(ws.root) == {}
    trashed = snapshot(other_fs / "trash")
    assert sorted(trashed.values()) == sorted(before.values())
    mode = next(p for p in (other_fs / "trash").rglob("b.bin")).stat().st_mode & 0o777
    assert mode == 0o640

    lines = undo_changes(ws, ctx.state["journal"][start:])
    assert not [line for line in lines if line.startswith(("could not", "skipped"))], lines
    assert snapshot(ws.root) == before


class Racer(threading.Thread):
    """Flips ``root/race`` between a real folder and a symlink to ``outside``."""

    def __init__(self, root: Path, outside: Path) -> None:
        super().__init__(daemon=True)
        self.race, self.real, self.outside = root / "race", root / "race.real", outside
        self.lock = threading.Lock()
        self.flips = 0
        self.stop = threading.Event()

    def flip(self) -> None:
        if self.race.is_symlink():
            os.unlink(self.race)
            os.rename(self.real, self.race)
        else:
            os.rename(self.race, self.real)
            os.symlink(self.outside, self.race)
        self.flips += 1

    def run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                self.flip()

    def settle(self) -> Path:
        """Call with ``lock`` held: leave the real folder at ``race``."""
        if self.race.is_symlink():
            self.flip()
        return self.race


def fill(folder: Path, payload: bytes) -> None:
    (folder / "sub" / "inner").mkdir(parents=True, exist_ok=True)
    (folder / "sub" / "x.txt").write_bytes(payload + b" x")
    (folder / "sub" / "inner" / "y.txt").write_bytes(payload + b" y")
    (folder / "f.txt").write_bytes(payload + b" f")


@pytest.mark.parametrize("target", ["race/sub", "race/f.txt"])
def test_a_symlink_swapped_in_during_a_cross_fs_delete_never_reaches_outside(
    ctx: ToolContext, tmp_path: Path, other_fs: Path, target: str
) -> None:
    ws = ctx.workspace
    outside = tmp_path / "outside"
    fill(outside, MARK)
    kept = snapshot(outside)
    fill(ws.root / "race", b"inside")
    racer = Racer(ws.root, outside)
    racer.start()
    deleted = attempts = 0
    try:
        while racer.flips < 1000 or attempts < 200:
            attempts += 1
            if not call(ctx, "delete", path=target).error:
                deleted += 1
            with racer.lock:
                fill(racer.settle(), b"inside")
            assert attempts < 20_000
    finally:
        racer.stop.set()
        racer.join()
    assert snapshot(outside) == kept, "the outside folder was changed"
    leaked = [name for name, data in snapshot(other_fs / "trash").items() if MARK in data]
    assert leaked == [], f"outside files were copied into the trash: {leaked[:3]}"
    assert racer.flips >= 1000 and deleted > 0
