"""Safe writes: atomic replace, exclusive create, crash safety, blobs, trash,
move / copy semantics, text decoding and size limits."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sandbox._fs as fs
from sandbox import BlobStore, ChangeRecord, SandboxError, Workspace, sha256_hex


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    root = tmp_path / "w"
    root.mkdir()
    ws = Workspace(root, blobs=BlobStore(tmp_path / "blobs"), trash_dir=tmp_path / "trash")
    ws.journal = []  # type: ignore[attr-defined]
    ws.on_change = ws.journal.append  # type: ignore[attr-defined]
    return ws


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_create_then_overwrite_journals_and_keeps_the_old_version(ws: Workspace) -> None:
    r1 = ws.write_text("notes/a.txt", "one")
    r2 = ws.write_text("notes/a.txt", "two")
    assert [r.op for r in ws.journal] == ["mkdir", "create", "write"]
    assert r1.after_sha == sha256_hex(b"one") and r1.before_sha is None
    assert r2.before_sha == sha256_hex(b"one") and ws.blobs.get(r2.before_sha) == b"one"
    assert ws.read_text("notes/a.txt") == "two"


def test_overwrite_keeps_the_file_mode(ws: Workspace) -> None:
    ws.write_bytes("run.sh", b"#!/bin/sh\n")
    os.chmod(ws.root / "run.sh", 0o750)
    ws.write_bytes("run.sh", b"#!/bin/sh\necho hi\n")
    assert (ws.root / "run.sh").stat().st_mode & 0o777 == 0o750


def test_exclusive_create_refuses_an_existing_file(ws: Workspace) -> None:
    ws.write_bytes("a", b"old")
    with pytest.raises(SandboxError, match="already exists"):
        ws.write_bytes("a", b"new", overwrite=False)
    assert ws.read_bytes("a") == b"old"


def test_exclusive_create_loses_a_race_without_clobbering(ws: Workspace, monkeypatch) -> None:
    original = fs.write_temp

    def racer(dfd, name, data, mode):
        (ws.root / "raced.txt").write_bytes(b"someone else")
        return original(dfd, name, data, mode)

    monkeypatch.setattr(fs, "write_temp", racer)
    with pytest.raises(SandboxError, match="already exists"):
        ws.write_bytes("raced.txt", b"mine")
    assert (ws.root / "raced.txt").read_bytes() == b"someone else"
    assert leftovers(ws.root) == []


def test_failure_in_the_middle_of_a_write_leaves_the_original(ws: Workspace, monkeypatch) -> None:
    ws.write_bytes("doc.txt", b"ORIGINAL" * 1000)

    def half_then_fail(fd: int, data: bytes) -> None:
        os.write(fd, bytes(data[: len(data) // 2]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fs, "write_all", half_then_fail)
    with pytest.raises(SandboxError, match="disk full"):
        ws.write_bytes("doc.txt", b"NEW" * 5000)
    assert ws.read_bytes("doc.txt") == b"ORIGINAL" * 1000
    assert leftovers(ws.root) == []
    assert [r.op for r in ws.journal] == ["create"]  # the failed write is not journaled


def test_failed_new_file_leaves_nothing_behind(ws: Workspace, monkeypatch) -> None:
    real = os.replace

    def boom(*args, **kwargs):
        if "src_dir_fd" in kwargs:
            raise OSError(5, "Input/output error")
        return real(*args, **kwargs)

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(SandboxError):
        ws.write_bytes("fresh.txt", b"new")
    monkeypatch.undo()
    assert sorted(p.name for p in ws.root.iterdir()) == []


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_failure_before_the_rename_leaves_the_original(ws: Workspace, monkeypatch, step: str) -> None:
    ws.write_bytes("doc.txt", b"ORIGINAL")
    real = getattr(os, step)

    def boom(*args, **kwargs):
        if step == "fsync" or "src_dir_fd" in kwargs:
            raise OSError(5, "Input/output error")
        return real(*args, **kwargs)

    monkeypatch.setattr(os, step, boom)
    with pytest.raises(SandboxError):
        ws.write_bytes("doc.txt", b"NEW CONTENT")
    monkeypatch.undo()
    assert ws.read_bytes("doc.txt") == b"ORIGINAL"
    assert leftovers(ws.root) == []


def test_a_write_killed_midway_leaves_old_or_new_never_a_mix(tmp_path: Path) -> None:
    root = tmp_path / "w"
    root.mkdir()
    a, b = b"A" * 3_000_000, b"B" * 3_000_000
    (root / "big.bin").write_bytes(a)
    child = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})
        from sandbox import Workspace
        ws = Workspace({str(root)!r})
        contents = [b"B" * 3_000_000, b"A" * 3_000_000]
        i = 0
        while True:
            ws.write_bytes("big.bin", contents[i % 2])
            i += 1
            print(i, flush=True)
        """
    )
    for kills in range(3):
        proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE)
        assert proc.stdout is not None
        for _ in range(2 + kills):
            proc.stdout.readline()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        assert (root / "big.bin").read_bytes() in (a, b)


def test_blob_store_round_trip_and_validation(tmp_path: Path) -> None:
    store = BlobStore(tmp_path / "b")
    sha = store.put(b"hello")
    assert sha == sha256_hex(b"hello") and store.has(sha) and store.get(sha) == b"hello"
    assert store.put(b"hello") == sha
    assert not store.has("0" * 64)
    with pytest.raises(KeyError):
        store.get("0" * 64)
    with pytest.raises(ValueError):
        store.get("../../etc/passwd")
    (tmp_path / "b" / sha[:2] / sha[2:]).write_bytes(b"tampered")
    with pytest.raises(KeyError, match="corrupt"):
        store.get(sha)


def test_change_record_json_round_trip() -> None:
    r = ChangeRecord(op="move", path="a", dest="b", before_sha="1" * 64, after_sha="1" * 64)
    assert ChangeRecord.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    with pytest.raises(ValueError):
        ChangeRecord.from_dict({"op": "explode", "path": "a"})
    with pytest.raises(ValueError):
        ChangeRecord.from_dict({"op": "create", "path": "a", "evil": 1})


def test_delete_moves_to_trash_and_keeps_bytes(ws: Workspace, tmp_path: Path) -> None:
    ws.write_bytes("d/x.txt", b"x")
    ws.write_bytes("d/e/y.txt", b"y")
    ws.journal.clear()
    top = ws.delete("d")
    assert top == ChangeRecord(op="delete", path="d")
    assert {r.path for r in ws.journal} == {"d", "d/e", "d/x.txt", "d/e/y.txt"}
    assert not ws.exists("d")
    trashed = sorted(p.name for p in (tmp_path / "trash").rglob("*") if p.is_file())
    assert trashed == ["x.txt", "y.txt"]
    for r in ws.journal:
        if r.before_sha:
            assert ws.blobs.has(r.before_sha)


def test_delete_refuses_root_and_missing(ws: Workspace) -> None:
    with pytest.raises(SandboxError, match="workspace folder itself"):
        ws.delete(".")
    with pytest.raises(SandboxError, match="not found"):
        ws.delete("ghost.txt")


def test_move_never_clobbers_without_overwrite(ws: Workspace) -> None:
    ws.write_bytes("a.txt", b"a")
    ws.write_bytes("b.txt", b"b")
    with pytest.raises(SandboxError, match="already exists"):
        ws.move("a.txt", "b.txt")
    assert ws.read_bytes("b.txt") == b"b" and ws.read_bytes("a.txt") == b"a"
    r = ws.move("a.txt", "b.txt", overwrite=True)
    assert ws.read_bytes("b.txt") == b"a" and not ws.exists("a.txt")
    assert ws.blobs.get(r.dest_before_sha) == b"b"


def test_move_onto_itself_is_refused_not_reported_as_moved(ws: Workspace) -> None:
    """A no-op move (src == dest) said "moved a.txt to a.txt"; a model took that as done."""
    ws.write_bytes("a.txt", b"a")
    before = len(ws.journal)
    with pytest.raises(SandboxError, match="onto itself"):
        ws.move("a.txt", "./a.txt")
    assert ws.read_bytes("a.txt") == b"a" and len(ws.journal) == before
    ws.move("a.txt", "A.txt")  # a case-only rename is a real change
    assert ws.read_bytes("A.txt") == b"a"


def test_move_folder_and_into_itself(ws: Workspace) -> None:
    ws.write_bytes("p/q.txt", b"q")
    with pytest.raises(SandboxError, match="into itself"):
        ws.move("p", "p/sub/p")
    r = ws.move("p", "new/p2")
    assert r.before_sha is None and ws.read_bytes("new/p2/q.txt") == b"q"


def test_mkdir_returns_the_deepest_new_folder(ws: Workspace) -> None:
    r = ws.mkdir("x/y/z")
    assert r == ChangeRecord(op="mkdir", path="x/y/z")
    assert [j.path for j in ws.journal] == ["x", "x/y", "x/y/z"]
    assert ws.mkdir("x/y") is None
    ws.write_bytes("file", b"")
    with pytest.raises(SandboxError, match="not a folder"):
        ws.mkdir("file/sub")


def test_copy_file_and_folder(ws: Workspace) -> None:
    ws.write_bytes("src/a.txt", b"a")
    ws.write_bytes("src/deep/b.txt", b"b")
    ws.copy("src/a.txt", "c.txt")
    assert ws.read_bytes("c.txt") == b"a"
    ws.copy("src", "dst")
    assert ws.read_bytes("dst/deep/b.txt") == b"b"
    with pytest.raises(SandboxError, match="already exists"):
        ws.copy("src", "dst")
    with pytest.raises(SandboxError, match="into itself"):
        ws.copy("src", "src/inner")


def test_read_limits_and_prefix_reads(tmp_path: Path) -> None:
    root = tmp_path / "w"
    root.mkdir()
    ws = Workspace(root, max_read_bytes=10, max_write_bytes=20)
    (root / "big").write_bytes(b"0123456789ABC")
    with pytest.raises(SandboxError, match="too large"):
        ws.read_bytes("big")
    assert ws.read_bytes("big", limit=4) == b"0123"
    with pytest.raises(SandboxError, match="too large"):
        ws.write_bytes("w", b"x" * 21)
    assert not ws.exists("w")


@pytest.mark.parametrize(
    "data, text, encoding",
    [
        ("héllo wörld".encode("utf-8"), "héllo wörld", "utf-8"),
        ("\ufeffBOM".encode("utf-8"), "BOM", "utf-8-sig"),
        ("hi there".encode("utf-16"), "hi there", "utf-16"),
        ("Café au lait, crème brûlée, déjà vu: naïve façade.".encode("cp1252"), "Café au lait, crème brûlée, déjà vu: naïve façade.", None),
    ],
)
def test_read_text_detects_encodings(ws: Workspace, data: bytes, text: str, encoding: str | None) -> None:
    (ws.root / "t.txt").write_bytes(data)
    got, enc = ws.read_text_info("t.txt")
    assert got == text
    if encoding:
        assert enc == encoding


@pytest.mark.parametrize("data, kind", [(b"%PDF-1.7\n...", "PDF"), (b"PK\x03\x04rest", "zip"), (b"\x00\x01\x02bin", "binary")])
def test_read_text_refuses_binary(ws: Workspace, data: bytes, kind: str) -> None:
    (ws.root / "f").write_bytes(data)
    with pytest.raises(SandboxError, match=kind) as err:
        ws.read_text("f")
    assert err.value.code == "binary"


def test_iter_files_globs(ws: Workspace) -> None:
    for p in ("a.md", "docs/b.md", "docs/deep/c.MD", "docs/d.txt"):
        ws.write_bytes(p, b"x")
    assert list(ws.iter_files(pattern="*.md")) == ["a.md", "docs/b.md", "docs/deep/c.MD"]
    assert list(ws.iter_files("docs", "deep/*")) == ["docs/deep/c.MD"]
    assert list(ws.iter_files(pattern="docs/*.md")) == ["docs/b.md"]
    assert list(ws.iter_files(pattern="docs/**/*.md")) == ["docs/b.md", "docs/deep/c.MD"]


def test_missing_root_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SandboxError, match="workspace folder not found"):
        Workspace(tmp_path / "nope")


@pytest.mark.parametrize(
    "text",
    ["Größe und Übermaß für Straße", "Le garçon a mangé une pêche à côté de l'hôtel.", "Café au lait, crème brûlée."],
)
def test_short_western_text_in_cp1252_reads_back(ws: Workspace, text: str) -> None:
    (ws.root / "t.txt").write_bytes(text.encode("cp1252"))
    assert ws.read_text("t.txt") == text
