"""Undo round trips: the workspace comes back byte for byte, and a file the
user changed since is reported, never clobbered."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sandbox import BlobStore, ChangeRecord, Workspace, undo_changes


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under root, except the app's folders."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".assistant"]
        for d in dirnames:
            out[os.path.relpath(os.path.join(dirpath, d), root)] = None
        for f in filenames:
            out[os.path.relpath(os.path.join(dirpath, f), root)] = Path(dirpath, f).read_bytes()
    return out


@pytest.fixture
def setup(tmp_path: Path):
    root = tmp_path / "w"
    (root / "docs" / "old").mkdir(parents=True)
    (root / "docs" / "report.txt").write_bytes(b"report v1\n")
    (root / "docs" / "old" / "a.txt").write_bytes(b"a\n")
    (root / "docs" / "old" / "b.bin").write_bytes(bytes(range(256)))
    (root / "keep.txt").write_bytes(b"keep\n")
    (root / "target.txt").write_bytes(b"will be overwritten by a move\n")
    journal: list[ChangeRecord] = []
    ws = Workspace(root, blobs=BlobStore(tmp_path / "blobs"), on_change=journal.append, trash_dir=tmp_path / "trash")
    return ws, journal, root, tmp_path


def do_everything(ws: Workspace) -> None:
    ws.write_text("new/deep/file.txt", "brand new\n")
    ws.write_text("docs/report.txt", "report v2\n")
    ws.write_text("docs/report.txt", "report v3\n")
    ws.copy("docs/report.txt", "docs/report-copy.txt")
    ws.copy("docs/old", "docs/old-copy")
    ws.copy("keep.txt", "target.txt", overwrite=True)
    ws.move("docs/report-copy.txt", "target.txt", overwrite=True)
    ws.move("docs/old-copy", "archive/old")
    ws.delete("docs/old")
    ws.mkdir("empty/one")
    ws.delete("keep.txt")


def test_undo_restores_the_workspace_byte_for_byte(setup) -> None:
    ws, journal, root, _ = setup
    before = tree(root)
    do_everything(ws)
    assert tree(root) != before
    lines = undo_changes(ws, journal)
    assert len(lines) == len(journal)
    assert tree(root) == before, lines
    assert not any(line.startswith(("skipped", "could not")) for line in lines), lines


def test_undo_from_a_persisted_journal_in_a_new_process_state(setup) -> None:
    ws, journal, root, tmp = setup
    before = tree(root)
    do_everything(ws)
    saved = json.dumps([r.to_dict() for r in journal])
    fresh = Workspace(root, blobs=BlobStore(tmp / "blobs"), trash_dir=tmp / "trash")
    undo_changes(fresh, [ChangeRecord.from_dict(d) for d in json.loads(saved)])
    assert tree(root) == before


def test_undo_refuses_to_clobber_a_file_changed_since(setup) -> None:
    ws, journal, root, _ = setup
    ws.write_text("docs/report.txt", "agent's version\n")
    ws.write_text("made.txt", "agent made this\n")
    (root / "docs" / "report.txt").write_text("the user's later edit\n")
    (root / "made.txt").write_text("user edited the new file\n")
    lines = undo_changes(ws, journal)
    assert (root / "docs" / "report.txt").read_text() == "the user's later edit\n"
    assert (root / "made.txt").read_text() == "user edited the new file\n"
    assert sum("changed since" in line for line in lines) == 2


def test_undo_of_delete_does_not_overwrite_a_new_file(setup) -> None:
    ws, journal, root, _ = setup
    ws.delete("keep.txt")
    (root / "keep.txt").write_bytes(b"new file by the user\n")
    lines = undo_changes(ws, journal)
    assert (root / "keep.txt").read_bytes() == b"new file by the user\n"
    assert "left as is" in lines[0]


def test_undo_does_not_journal_itself(setup) -> None:
    ws, journal, _, _ = setup
    ws.write_text("x.txt", "1")
    n = len(journal)
    undo_changes(ws, list(journal))
    assert len(journal) == n


def test_undo_reports_a_missing_blob(setup) -> None:
    ws, _, root, _ = setup
    record = ChangeRecord(op="write", path="keep.txt", before_sha="0" * 64, after_sha=ws.blobs.put(b"keep\n"))
    lines = undo_changes(ws, [record])
    assert "missing" in lines[0]
    assert (root / "keep.txt").read_bytes() == b"keep\n"


def test_undo_of_a_created_file_keeps_it_in_the_trash(setup) -> None:
    ws, journal, root, tmp = setup
    ws.write_text("draft.txt", "draft\n")
    undo_changes(ws, journal)
    assert not (root / "draft.txt").exists()
    assert [p.read_bytes() for p in (tmp / "trash").rglob("draft.txt")] == [b"draft\n"]
