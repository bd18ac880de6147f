"""The workspace jail: every path the model gives is checked, every write is
atomic and journaled.

Checks, in order: the path string (NUL bytes, UTF-8, length, ``~``, absolute
outside the root, ``..`` above the root, internal folders; see
``sandbox.paths``), then the disk, one component at a time without following
anything: a symlink anywhere, a file where a folder should be, a FIFO /
socket / device, a hard-linked file (link count > 1, it may be shared with a
file outside), and finally the resolved real path must be within the real
root (separator-aware). The operation itself then re-walks the same names
with ``O_NOFOLLOW`` descriptors, so a symlink swapped in after the check makes
it fail instead of escaping.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path, PurePath
from typing import Callable, Iterator

from sandbox import _fs
from sandbox.blobs import BlobStore, sha256_hex
from sandbox.errors import SandboxError
from sandbox.paths import MAX_DEPTH, short, split_path
from sandbox.records import ChangeRecord
from sandbox.reading import ReadOps
from sandbox.tree_ops import TreeOps

__all__ = ["Workspace"]


class Workspace(ReadOps, TreeOps):
    """A folder the agent may read and change, and nothing outside it.

    Args:
        root: the workspace folder (must exist; may itself be a symlink).
        blobs: where previous file versions go for undo; default
            ``root/.assistant/blobs``.
        on_change: called with each :class:`ChangeRecord` after the change is
            made and before the method returns (the undo journal).
        trash_dir: where deleted files go; default ``root/.assistant/trash``.
        internal_names: names nobody may touch (compared casefolded): the app's folder and
            its project settings file, which could otherwise lower approvals.
        max_read_bytes / max_write_bytes: size limits in bytes.

    Raises:
        SandboxError: root missing or not a folder, or the platform lacks
            ``O_NOFOLLOW`` / ``dir_fd`` (POSIX is required).

    Attributes:
        unnamed_skipped / deep_skipped: running counts of what walks left out
            (names that are not valid UTF-8; non-empty folders more than
            ``sandbox.paths.MAX_DEPTH`` levels down); callers reset and read them.
        unnamed_paths: the first five of the skipped names, made printable.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        blobs: BlobStore | None = None,
        on_change: Callable[[ChangeRecord], None] | None = None,
        trash_dir: Path | None = None,
        internal_names: tuple[str, ...] = (".assistant", ".assistant.toml"),
        max_read_bytes: int = 20_000_000,
        max_write_bytes: int = 50_000_000,
    ) -> None:
        if not _fs.SUPPORTED:
            raise SandboxError("this platform lacks O_NOFOLLOW/dir_fd; the workspace needs Linux or macOS", "io")
        given = Path(os.path.abspath(os.fspath(root)))
        real = Path(os.path.realpath(given))
        if not real.is_dir():
            raise SandboxError(f"workspace folder not found: {given}", "not_found")
        self.root = real
        self._roots: tuple[PurePath, ...] = tuple(dict.fromkeys([real, given]))
        self.internal = frozenset(n.casefold() for n in internal_names)
        self.unnamed_skipped = 0  # entries skipped by walks because their names are not valid UTF-8
        self.deep_skipped = 0  # folders walks did not enter: more than MAX_DEPTH levels down
        self.unnamed_paths: list[str] = []  # the first few unnamed_skipped, printable
        home = real / (internal_names[0] if internal_names else ".assistant")
        self.blobs = blobs if blobs is not None else BlobStore(home / "blobs")
        self.trash_dir = Path(trash_dir) if trash_dir is not None else home / "trash"
        self.on_change = on_change
        self.max_read_bytes = max_read_bytes
        self.max_write_bytes = max_write_bytes
        self._silent = 0
        self._hidden = [h for h in (self._inside(self.trash_dir), self._inside(self.blobs.root)) if h]

    # ---- paths -----------------------------------------------------------

    def _inside(self, path: Path) -> tuple[str, ...] | None:
        real = Path(os.path.realpath(path))
        if real != self.root and self.root in real.parents:
            return tuple(p.casefold() for p in real.relative_to(self.root).parts)
        return None

    def _unprefixed(self, parts: list[str]) -> list[str]:
        """``parts`` without a leading copy of the root's own absolute path written
        relative ("tmp/ws/a.txt" for the root /tmp/ws): small models copy the
        workspace's path from the prompt so; a Windows path's backslashes split
        (:meth:`_backslashed`). Kept as given when a file or folder of that first name
        exists in the root."""
        if not parts or os.path.lexists(self.root / parts[0]):
            return parts
        if any("\\" in p for p in parts):
            return self._backslashed(parts)
        for root in self._roots:
            names = list(root.parts[1:])
            if names and parts[: len(names)] == names:
                return parts[len(names) :]
        return parts

    def _backslashed(self, parts: list[str]) -> list[str]:
        """``parts`` with Windows separators split (".\\photos\\a.jpg" is photos/a.jpg: the
        files_rename_pattern bench task at bad5969 sent ".\\photos" three times and was
        told it is not a folder). Kept as given when a ".." would be among the names.

        Raises:
            SandboxError: a name is one of the assistant's internal folders.
        """
        names = [n for p in parts for n in p.split("\\") if n not in ("", ".")]
        if ".." in names:
            return parts
        for name in names:
            if name.casefold() in self.internal:
                raise SandboxError(f"{name} is the assistant's internal folder; it is off limits", "internal")
        return names

    def _parts(self, path: str) -> list[str]:
        parts = self._unprefixed(split_path(path, self._roots, self.internal))
        folded = tuple(p.casefold() for p in parts)
        for hidden in self._hidden:
            if folded[: len(hidden)] == hidden:
                raise SandboxError(f"{short(path)} is internal to the assistant (its own folder or settings file); it is off limits", "internal")
        return parts

    def _validate(self, path: str, for_write: bool = False) -> list[str]:
        """Check ``path`` lexically and on disk; returns its components."""
        parts = self._parts(path)
        if for_write and len(parts) > MAX_DEPTH:
            raise SandboxError(f"path is nested too deeply ({len(parts)} levels; limit {MAX_DEPTH}); use fewer folders: {short(path, 80)}", "too_deep")
        fd = _fs.open_root(str(self.root))
        try:
            for i, name in enumerate(parts):
                where = "/".join(parts[: i + 1])
                info = _fs.lstat_at(fd, name)
                if info is None:
                    break
                kind = _fs.kind_of(info.st_mode)
                last = i == len(parts) - 1
                if kind == "symlink":
                    raise SandboxError(f"symlink in path (symlinks are not followed): {short(where)}", "symlink")
                if not last:
                    if kind != "dir":
                        raise SandboxError(f"not a folder (a file is in the way): {short(where)}", "not_dir")
                    try:
                        nfd = _fs.open_subdir(fd, name)
                    except OSError as exc:
                        raise _fs.fail(exc, short(where)) from None
                    os.close(fd)
                    fd = nfd
                    continue
                if kind not in ("file", "dir"):
                    raise SandboxError(f"{short(where)} is a {kind}, not a regular file; it is off limits", "special")
                if for_write and kind == "file" and info.st_nlink > 1:
                    raise SandboxError(self._hardlink_msg(where, info.st_nlink), "hardlink")
        finally:
            os.close(fd)
        real = Path(os.path.realpath(self.root.joinpath(*parts)))
        if real != self.root and self.root not in real.parents:
            raise SandboxError(f"path escapes the workspace: {short(path)}", "escape")
        return parts

    @staticmethod
    def _hardlink_msg(where: str, links: int) -> str:
        return f"{short(where)} is hard-linked ({links} links) and may be shared with a file outside the workspace; refused"

    def resolve(self, path: str, *, for_write: bool = False) -> Path:
        """The absolute path of ``path`` inside the root, after every check.

        ``for_write`` also refuses hard-linked files. The path need not exist.

        Raises:
            SandboxError: the path is refused (see the module docstring).
        """
        return self.root.joinpath(*self._validate(path, for_write))

    def rel(self, p: Path | str) -> str:
        """``p`` (absolute, inside the root) as a workspace-relative POSIX
        string; ``"."`` for the root.

        Raises:
            SandboxError: ``p`` is not inside the root.
        """
        p = Path(p)
        for root in self._roots:
            if p == root or root in p.parents:
                return p.relative_to(root).as_posix() or "."
        raise SandboxError(f"path is outside the workspace: {short(str(p))}", "escape")

    def is_hidden(self, parts: list[str]) -> bool:
        """True when the components ``parts`` (relative to the root) name one
        of the app's own things walks skip: an internal name at the top of
        any folder level, or the trash / blob folders or anything inside them."""
        if parts and parts[-1].casefold() in self.internal:
            return True
        folded = tuple(p.casefold() for p in parts)
        return any(folded[: len(h)] == h for h in self._hidden)

    @contextlib.contextmanager
    def open_folder(self, parts: list[str], *, create: bool = False, made: list[ChangeRecord] | None = None) -> Iterator[int]:
        """An open descriptor of folder ``parts`` (checked components relative
        to the root), reached one name at a time with ``O_NOFOLLOW``.

        Args:
            create: make missing folders, journaling a "mkdir" for each (also
                appended to ``made``).

        Raises:
            SandboxError: a symlink or file in the way, not found (without ``create``).
        """

        def on_create(i: int) -> None:
            record = ChangeRecord(op="mkdir", path="/".join(parts[: i + 1]))
            if made is not None:
                made.append(record)
            self._emit(record)

        try:
            fd = _fs.open_chain(str(self.root), parts, create=create, on_create=on_create)
        except OSError as exc:
            raise _fs.fail(exc, short("/".join(parts) or ".")) from None
        try:
            yield fd
        finally:
            os.close(fd)

    def _emit(self, record: ChangeRecord) -> None:
        if self.on_change is not None and not self._silent:
            self.on_change(record)

    @contextlib.contextmanager
    def silenced(self) -> Iterator[None]:
        """Within this block, changes are not sent to ``on_change`` (undo uses it)."""
        self._silent += 1
        try:
            yield
        finally:
            self._silent -= 1

    # ---- writing ---------------------------------------------------------

    def _write_parts(self, parts: list[str], data: bytes, overwrite: bool, mode: int | None = None) -> tuple[str, str | None, str]:
        """Atomically put ``data`` at ``parts``; returns ``(op, before_sha, after_sha)``."""
        where = short("/".join(parts) or ".")
        if not parts:
            raise SandboxError("cannot write to the workspace folder itself; give a file name", "is_dir")
        if len(data) > self.max_write_bytes:
            raise SandboxError(f"content too large ({len(data)} bytes; limit {self.max_write_bytes})", "too_large")
        name = parts[-1]
        with self.open_folder(parts[:-1], create=True) as dfd:
            try:
                info = _fs.lstat_at(dfd, name)
                before = None
                if info is not None:
                    if not overwrite:
                        raise SandboxError(f"already exists: {where}", "exists")
                    fd, info = _fs.open_file_read(dfd, name)
                    try:
                        self._check_regular(info, where)
                        before = self.blobs.put(_fs.read_fd(fd, info.st_size + 1))
                    finally:
                        os.close(fd)
                    mode = info.st_mode & 0o7777
                tmp = _fs.write_temp(dfd, name, data, mode)
                placeholder = False
                try:
                    if before is None:  # exclusive create: fails if anything appeared meanwhile
                        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _fs.O_NOFOLLOW | _fs.O_CLOEXEC
                        os.close(os.open(name, flags, 0o600, dir_fd=dfd))
                        placeholder = True
                    os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
                except BaseException:
                    _fs.remove_quietly(dfd, tmp)
                    if placeholder:  # our own empty reservation, unless someone wrote to it
                        left = _fs.lstat_at(dfd, name)
                        if left is not None and left.st_size == 0 and _fs.kind_of(left.st_mode) == "file":
                            _fs.remove_quietly(dfd, name)
                    raise
                _fs.fsync_dir(dfd)
            except OSError as exc:
                raise _fs.fail(exc, where) from None
        return ("write" if before else "create"), before, sha256_hex(data)

    def write_bytes(self, path: str, data: bytes, *, overwrite: bool = True) -> ChangeRecord:
        """Write ``data`` to ``path`` atomically (temp file in the same folder,
        fsync, rename); a new file is created exclusively, missing folders are
        made. The previous content goes to the blob store first.

        Returns:
            The "create" or "write" record (already sent to ``on_change``).

        Raises:
            SandboxError: refused path, a folder or special file in the way,
                "already exists" when ``overwrite`` is False, too large, I/O.
        """
        parts = self._validate(path, for_write=True)
        op, before, after = self._write_parts(parts, bytes(data), overwrite)
        record = ChangeRecord(op=op, path="/".join(parts), before_sha=before, after_sha=after)
        self._emit(record)
        return record

    def write_text(self, path: str, text: str, *, overwrite: bool = True, encoding: str = "utf-8") -> ChangeRecord:
        """Encode ``text`` and :meth:`write_bytes` it."""
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError as exc:
            raise SandboxError(f"text cannot be written as {encoding}: {exc.reason}", "invalid") from None
        return self.write_bytes(path, data, overwrite=overwrite)

    def mkdir(self, path: str) -> ChangeRecord | None:
        """Make folder ``path`` and missing parents (one "mkdir" record each).

        Returns:
            The record of the deepest folder made, or None if it existed.

        Raises:
            SandboxError: refused path, or a file is in the way.
        """
        parts = self._validate(path, for_write=True)
        made: list[ChangeRecord] = []
        with self.open_folder(parts, create=True, made=made):
            pass
        return made[-1] if made else None
