"""Path attacks against the workspace: zero escapes, zero bytes written outside.

Covers the two 2025 advisories of the MCP filesystem server (a sibling folder
sharing the root's name as prefix, symlink escape), symlinks at every depth,
a symlink swapped in after validation, hard links, FIFOs, sockets, NUL bytes,
``~``, absolute paths, over-long and non-UTF-8 names.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from sandbox import SandboxError, Workspace
from sandbox.workspace import Workspace as _WS


def snapshot(top: Path, skip: Path) -> dict[str, bytes | str]:
    """Every entry under ``top`` except ``skip``: file bytes, or a kind tag."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        if Path(dirpath) == skip or skip in Path(dirpath).parents:
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if p == skip:
                continue
            if p.is_symlink():
                out[str(p)] = "link:" + os.readlink(p)
            elif p.is_file():
                out[str(p)] = p.read_bytes()
            else:
                out[str(p)] = "dir" if p.is_dir() else "special"
    return out


@pytest.fixture
def world(tmp_path: Path):
    """A workspace ``work`` with hostile things inside, and the world around it."""
    root = tmp_path / "work"
    evil = tmp_path / "work-evil"
    outside = tmp_path / "outside"
    for d in (root / "a" / "b", evil, outside):
        d.mkdir(parents=True)
    (outside / "secret.txt").write_bytes(b"TOP SECRET")
    (evil / "x.txt").write_bytes(b"evil")
    (root / "ok.txt").write_bytes(b"fine")
    (root / "a" / "inner.txt").write_bytes(b"inner")
    for depth in ("", "a/", "a/b/"):
        os.symlink(outside, root / f"{depth}link_out")
        os.symlink(outside / "secret.txt", root / f"{depth}file_link")
        os.symlink(outside / "new.txt", root / f"{depth}dangling")
    os.symlink(root / "a", root / "link_in")
    os.symlink(evil, root / "link_evil")
    os.link(outside / "secret.txt", root / "hard")
    os.mkfifo(root / "fifo")
    cwd = os.getcwd()
    os.chdir(root)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind("sock")
    os.chdir(cwd)
    before = snapshot(tmp_path, root)
    yield Workspace(root), tmp_path, root
    sock.close()
    assert snapshot(tmp_path, root) == before, "something outside the workspace changed"


ATTACKS = [
    "../outside/secret.txt",
    "../../etc/passwd",
    "a/../../outside/secret.txt",
    "./../outside/secret.txt",
    "a/b/../../../outside/secret.txt",
    "a/../../../../../../etc/passwd",
    "../work/../outside/secret.txt",
    "../work-evil/x.txt",
    "..",
    "{root}/../outside/secret.txt",
    "{root}/../work-evil/x.txt",
    "{tmp}/work-evil/x.txt",
    "{tmp}/work-evil",
    "{root}-evil/x.txt",
    "{tmp}/outside/secret.txt",
    "{tmp}",
    "/etc/passwd",
    "/",
    "/dev/null",
    "~",
    "~/secret.txt",
    "~root/.bashrc",
    "a\x00b.txt",
    "ok.txt\x00.png",
    "\x00",
    "x" * 256,
    "a/" + "b" * 300,
    "/".join(["d"] * 2100),
    "\udcff.txt",
    "a/\udc80\udc81",
    "link_out/secret.txt",
    "a/link_out/secret.txt",
    "a/b/link_out/secret.txt",
    "{root}/link_out/secret.txt",
    "link_out/new.txt",
    "file_link",
    "a/file_link",
    "a/b/file_link",
    "dangling",
    "a/dangling",
    "a/b/dangling",
    "link_in/inner.txt",
    "link_evil/x.txt",
    "hard",
    "fifo",
    "sock",
    ".assistant/blobs/x",
    ".ASSISTANT/x",
    "a/.assistant/x",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_attack_is_refused_for_reads_and_writes(world, attack: str) -> None:
    ws, tmp, root = world
    path = attack.format(root=root, tmp=tmp) if "{" in attack else attack
    with pytest.raises(SandboxError) as err:
        ws.resolve(path, for_write=True)
    assert str(err.value) and "\n" not in str(err.value)
    with pytest.raises(SandboxError):
        ws.write_bytes(path, b"PWNED")
    with pytest.raises(SandboxError):
        ws.read_bytes(path)
    with pytest.raises(SandboxError):
        ws.copy("ok.txt", path)
    with pytest.raises(SandboxError):
        ws.move("ok.txt", path)
    assert (root / "ok.txt").read_bytes() == b"fine"


def test_there_are_at_least_forty_attacks() -> None:
    assert len(ATTACKS) >= 40


def test_sibling_prefix_folder_is_outside(world) -> None:
    """MCP advisory 1: '/work-evil' must not pass a prefix test for '/work'."""
    ws, tmp, root = world
    assert str(tmp / "work-evil").startswith(str(root))  # the trap is real
    with pytest.raises(SandboxError, match="outside the workspace"):
        ws.read_bytes(str(tmp / "work-evil" / "x.txt"))


def test_symlink_escape_is_refused(world) -> None:
    """MCP advisory 2: a symlink inside the root pointing outside."""
    ws, _, _ = world
    with pytest.raises(SandboxError, match="symlink"):
        ws.read_bytes("link_out/secret.txt")
    with pytest.raises(SandboxError, match="symlink"):
        ws.write_bytes("dangling", b"x")


def test_absolute_paths_inside_the_root_are_allowed(world) -> None:
    ws, _, root = world
    assert ws.read_bytes(str(root / "ok.txt")) == b"fine"
    assert ws.resolve(str(root)) == root
    assert ws.rel(root / "a" / "inner.txt") == "a/inner.txt"


def test_dot_dot_that_stays_inside_is_allowed(world) -> None:
    ws, _, _ = world
    assert ws.read_bytes("a/b/../inner.txt") == b"inner"


def test_workspace_root_given_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "f.txt").write_bytes(b"1")
    os.symlink(real, tmp_path / "alias")
    ws = Workspace(tmp_path / "alias")
    assert ws.read_bytes(str(tmp_path / "alias" / "f.txt")) == b"1"
    assert ws.read_bytes(str(real / "f.txt")) == b"1"
    with pytest.raises(SandboxError):
        ws.read_bytes(str(tmp_path / "alias-x"))


def test_hard_link_to_an_outside_file_cannot_be_written(world) -> None:
    ws, tmp, _ = world
    with pytest.raises(SandboxError, match="hard-linked"):
        ws.write_bytes("hard", b"PWNED")
    with pytest.raises(SandboxError, match="hard-linked"):
        ws.read_bytes("hard")
    assert (tmp / "outside" / "secret.txt").read_bytes() == b"TOP SECRET"


def test_fifo_is_refused_without_blocking(world) -> None:
    ws, _, _ = world
    with pytest.raises(SandboxError, match="fifo"):
        ws.read_bytes("fifo")
    with pytest.raises(SandboxError, match="fifo"):
        ws.write_bytes("fifo", b"x")


def test_internal_folder_and_trash_are_off_limits(tmp_path: Path) -> None:
    root = tmp_path / "w"
    root.mkdir()
    ws = Workspace(root, trash_dir=root / "bin")
    (root / "f").write_bytes(b"1")
    ws.delete("f")
    with pytest.raises(SandboxError, match="internal"):
        ws.read_bytes(".assistant/blobs")
    with pytest.raises(SandboxError, match="internal"):
        list(ws.iter_files("bin"))
    assert list(ws.iter_files()) == []


def _swap_after_validation(monkeypatch, action) -> None:
    original = _WS._validate

    def validate(self, path, for_write=False):
        parts = original(self, path, for_write)
        action()
        return parts

    monkeypatch.setattr(_WS, "_validate", validate)


def test_folder_swapped_for_symlink_after_validation(world, monkeypatch) -> None:
    ws, tmp, root = world
    (root / "c").mkdir()

    def swap() -> None:
        if (root / "c").is_dir() and not (root / "c").is_symlink():
            os.rmdir(root / "c")
            os.symlink(tmp / "outside", root / "c")

    _swap_after_validation(monkeypatch, swap)
    with pytest.raises(SandboxError, match="symlink"):
        ws.write_bytes("c/secret.txt", b"PWNED")
    with pytest.raises(SandboxError, match="symlink"):
        ws.read_bytes("c/secret.txt")
    assert not (tmp / "outside" / "new.txt").exists()
    os.unlink(root / "c")


def test_file_swapped_for_symlink_after_validation(world, monkeypatch) -> None:
    ws, tmp, root = world

    def swap() -> None:
        if not (root / "ok.txt").is_symlink():
            os.unlink(root / "ok.txt")
            os.symlink(tmp / "outside" / "secret.txt", root / "ok.txt")

    _swap_after_validation(monkeypatch, swap)
    with pytest.raises(SandboxError, match="symlink"):
        ws.read_bytes("ok.txt")
    with pytest.raises(SandboxError, match="symlink"):
        ws.write_bytes("ok.txt", b"PWNED")
    os.unlink(root / "ok.txt")
    (root / "ok.txt").write_bytes(b"fine")


def test_walk_never_follows_symlinks_nor_lists_specials_as_files(world) -> None:
    ws, _, _ = world
    files = set(ws.iter_files())
    assert files == {"ok.txt", "a/inner.txt", "hard"}  # "hard" is listed, but not readable
    kinds = {e.path: e.kind for e in ws.walk()}
    assert kinds["link_out"] == "symlink" and kinds["fifo"] == "fifo" and kinds["sock"] == "socket"
    assert not any(p.startswith("link_out/") for p in kinds)


def test_non_utf8_names_on_disk_are_skipped(tmp_path: Path) -> None:
    root = tmp_path / "w"
    root.mkdir()
    with open(os.path.join(os.fsencode(root), b"bad\xff.txt"), "wb") as fh:
        fh.write(b"x")
    (root / "good.txt").write_bytes(b"y")
    assert list(Workspace(root).iter_files()) == ["good.txt"]


def test_errors_are_one_line_and_name_the_problem(world) -> None:
    ws, _, _ = world
    cases = {
        "../x": "escapes the workspace",
        "a\x00": "NUL byte",
        "x" * 300: "name too long",
        "~/x": "home folder",
        "/etc/passwd": "outside the workspace",
        "nope.txt": "not found",
    }
    for path, words in cases.items():
        with pytest.raises(SandboxError, match=words) as err:
            ws.read_bytes(path)
        assert "\n" not in str(err.value)


def test_the_project_settings_file_is_off_limits(tmp_path):
    """The agent must never write its own configuration (it could lower approvals
    or start programs on the next run)."""
    from sandbox import SandboxError, Workspace

    ws = Workspace(tmp_path)
    for name in (".assistant.toml", ".ASSISTANT.TOML", "sub/../.assistant.toml"):
        with pytest.raises(SandboxError, match="off limits"):
            ws.write_text(name, '[agent]\napprove = "all"\n')
    assert not (tmp_path / ".assistant.toml").exists()


def test_the_roots_own_path_written_without_its_leading_slash_names_the_root(world) -> None:
    """Models copy the workspace's path from the prompt as a relative one ("./tmp/.../work"):
    it names the root, not a folder of that name inside it, when no such folder exists."""
    ws, _, root = world
    bare = str(root).lstrip("/")
    assert ws.resolve(bare) == root
    assert ws.resolve(f"./{bare}/a/inner.txt") == root / "a" / "inner.txt"
    assert ws.read_bytes(f"{bare}/ok.txt") == b"fine"
    ws.write_bytes(f"./{bare}/new.txt", b"new")
    assert (root / "new.txt").read_bytes() == b"new"
    with pytest.raises(SandboxError, match="not found"):
        ws.read_bytes(f"{bare}/../ok.txt")


def test_a_folder_of_the_roots_name_inside_it_is_kept(tmp_path: Path) -> None:
    root = tmp_path / "work"
    first = str(root).lstrip("/").split("/")[0]
    (root / first).mkdir(parents=True)
    ws = Workspace(root)
    ws.write_bytes(f"{str(root).lstrip('/')}/x.txt", b"x")
    assert (root / str(root).lstrip("/") / "x.txt").read_bytes() == b"x"


def test_a_windows_path_names_the_same_place_and_stays_inside(world) -> None:
    """files_rename_pattern at bad5969: Qwen 1.5B sent the folder ".\\photos" three times and was told it is not a
    folder. Backslashes split names only when no such name exists; ".." and the internal folder stay refused."""
    ws, outside, root = world
    assert ws.resolve(".\\a\\inner.txt") == root / "a" / "inner.txt"
    assert ws.read_bytes("a\\inner.txt") == b"inner"
    ws.write_bytes(".\\a\\b\\new.txt", b"new")
    assert (root / "a" / "b" / "new.txt").read_bytes() == b"new"
    for escape in ("..\\outside\\secret.txt", "a\\..\\..\\outside\\secret.txt"):
        with pytest.raises(SandboxError):
            ws.read_bytes(escape)
    with pytest.raises(SandboxError, match="internal"):
        ws.write_bytes(".\\.assistant\\x.txt", b"x")
    (root / "odd\\name.txt").write_bytes(b"kept")  # a name with a backslash that exists is that name
    assert ws.read_bytes("odd\\name.txt") == b"kept"
