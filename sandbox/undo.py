"""Reverting journaled changes from the blob store, never clobbering newer edits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox.blobs import sha256_hex
from sandbox.errors import SandboxError
from sandbox.records import ChangeRecord

if TYPE_CHECKING:  # pragma: no cover
    from sandbox.workspace import Workspace

__all__ = ["undo_changes"]

_DIR = "<folder>"


def _state(ws: "Workspace", path: str) -> str | None:
    """sha256 of the file at ``path``, ``_DIR`` for a folder, None when absent."""
    if ws.is_dir(path):
        return _DIR
    if not ws.exists(path):
        return None
    return sha256_hex(ws.read_bytes(path))


def _changed(path: str) -> str:
    return f"skipped {path}: changed since the task wrote it; left as is"


def _undo_one(ws: "Workspace", r: ChangeRecord) -> str:
    if r.op == "create":
        now = _state(ws, r.path)
        if now is None:
            return f"nothing to undo for {r.path}: already gone"
        if now != r.after_sha:
            return _changed(r.path)
        ws.delete(r.path)
        return f"removed {r.path} (created by the task; kept in the trash)"
    if r.op == "write":
        if _state(ws, r.path) != r.after_sha:
            return _changed(r.path)
        ws.write_bytes(r.path, ws.blobs.get(r.before_sha))
        return f"restored {r.path}"
    if r.op == "delete":
        now = _state(ws, r.path)
        want = _DIR if r.before_sha is None else r.before_sha
        if now == want:
            return f"nothing to undo for {r.path}: already there"
        if now is not None:
            return f"skipped {r.path}: something new is there; left as is"
        if r.before_sha is None:
            ws.mkdir(r.path)
        else:
            ws.write_bytes(r.path, ws.blobs.get(r.before_sha), overwrite=False)
        return f"restored {r.path}"
    if r.op == "move":
        assert r.dest is not None
        if _state(ws, r.dest) != (r.after_sha or _DIR):
            return _changed(r.dest)
        if ws.exists(r.path):
            return f"skipped {r.dest}: {r.path} exists again; left as is"
        ws.move(r.dest, r.path)
        if r.dest_before_sha:
            ws.write_bytes(r.dest, ws.blobs.get(r.dest_before_sha), overwrite=False)
            return f"moved {r.dest} back to {r.path} and restored the old {r.dest}"
        return f"moved {r.dest} back to {r.path}"
    if r.op == "copy":
        assert r.dest is not None
        if _state(ws, r.dest) != r.after_sha:
            return _changed(r.dest)
        if r.dest_before_sha:
            ws.write_bytes(r.dest, ws.blobs.get(r.dest_before_sha))
            return f"restored {r.dest}"
        ws.delete(r.dest)
        return f"removed the copy {r.dest}"
    if r.op == "mkdir":
        if not ws.is_dir(r.path):
            return f"nothing to undo for {r.path}: already gone"
        if next(iter(ws.walk(r.path, max_depth=1)), None) is not None:
            return f"kept folder {r.path}: it is not empty"
        ws.delete(r.path)
        return f"removed folder {r.path}"
    return f"cannot undo unknown change {r.op!r} on {r.path}"


def undo_changes(ws: "Workspace", records: list[ChangeRecord]) -> list[str]:
    """Revert ``records`` newest first, using the workspace's blob store.

    A change whose file was modified since (sha mismatch) is reported and
    left alone, never clobbered. The reverting writes are not sent to
    ``ws.on_change``.

    Returns:
        One line per record, saying what was done or why not.
    """
    lines: list[str] = []
    with ws.silenced():
        for record in reversed(records):
            try:
                lines.append(_undo_one(ws, record))
            except SandboxError as exc:
                lines.append(f"could not undo {record.op} of {record.path}: {exc}")
            except KeyError:
                lines.append(f"could not undo {record.op} of {record.path}: its saved content is missing")
    return lines
