"""Looking at the workspace for :class:`sandbox.Workspace`: stat, read, walk."""

from __future__ import annotations

import os
from typing import Iterator

from sandbox import _fs
from sandbox.errors import SandboxError
from sandbox.paths import short
from sandbox.text import BinaryContentError, decode_text
from sandbox.walk import Entry, iter_matching, walk_entries

__all__ = ["ReadOps"]


class ReadOps:
    """Mixin: the read-only operations (checks in ``sandbox.workspace``)."""

    def stat(self, path: str) -> os.stat_result:
        """``lstat`` of ``path`` (never follows a symlink).

        Raises:
            SandboxError: refused path, or "not found".
        """
        parts = self._validate(path)
        if not parts:
            return os.stat(self.root)
        with self.open_folder(parts[:-1]) as dfd:
            info = _fs.lstat_at(dfd, parts[-1])
        if info is None:
            raise SandboxError(f"not found: {short('/'.join(parts))}", "not_found")
        return info

    def _kind(self, path: str) -> str | None:
        try:
            return _fs.kind_of(self.stat(path).st_mode)
        except SandboxError as exc:
            if exc.code in ("not_found", "not_dir"):
                return None
            raise

    def exists(self, path: str) -> bool:
        """True when something is at ``path``. Raises SandboxError for refused paths."""
        return self._kind(path) is not None

    def is_file(self, path: str) -> bool:
        """True for a regular file. Raises SandboxError for refused paths."""
        return self._kind(path) == "file"

    def is_dir(self, path: str) -> bool:
        """True for a folder. Raises SandboxError for refused paths."""
        return self._kind(path) == "dir"

    def read_bytes(self, path: str, limit: int | None = None) -> bytes:
        """The content of a regular file.

        Args:
            limit: return at most this many bytes (a prefix). When None, the
                whole file, which must fit ``max_read_bytes``.

        Raises:
            SandboxError: refused path, not found, a folder, a special or
                hard-linked file, or larger than ``max_read_bytes``.
        """
        parts = self._validate(path)
        where = short("/".join(parts) or ".")
        if not parts:
            raise SandboxError(f"is a folder: {where}", "is_dir")
        with self.open_folder(parts[:-1]) as dfd:
            try:
                fd, info = _fs.open_file_read(dfd, parts[-1])
            except OSError as exc:
                raise _fs.fail(exc, where) from None
            try:
                self._check_regular(info, where)
                if limit is None and info.st_size > self.max_read_bytes:
                    raise SandboxError(
                        f"{where} is too large to read ({info.st_size} bytes; limit {self.max_read_bytes})",
                        "too_large",
                    )
                cap = self.max_read_bytes if limit is None else max(0, limit)
                return _fs.read_fd(fd, cap)
            finally:
                os.close(fd)

    def _check_regular(self, info: os.stat_result, where: str) -> None:
        kind = _fs.kind_of(info.st_mode)
        if kind == "dir":
            raise SandboxError(f"is a folder: {where}", "is_dir")
        if kind != "file":
            raise SandboxError(f"{where} is a {kind}, not a regular file; it is off limits", "special")
        if info.st_nlink > 1:
            raise SandboxError(self._hardlink_msg(where, info.st_nlink), "hardlink")

    def read_text_info(self, path: str) -> tuple[str, str]:
        """``(text, encoding)`` of a text file (BOM, UTF-8, else charset-normalizer).

        Raises:
            SandboxError: as :meth:`read_bytes`, or code "binary" for non-text.
        """
        data = self.read_bytes(path)
        try:
            return decode_text(data)
        except BinaryContentError as exc:
            raise SandboxError(f"{short(path)} is not a text file ({exc.kind})", "binary") from None

    def read_text(self, path: str) -> str:
        """The decoded text of a file; see :meth:`read_text_info`."""
        return self.read_text_info(path)[0]

    def walk(self, path: str = ".", *, max_depth: int | None = None) -> Iterator[Entry]:
        """Entries under folder ``path``, sorted, parents before children;
        never follows symlinks (they are listed as kind "symlink"), skips the
        internal folders and names that are not valid UTF-8 (counted in
        ``unnamed_skipped``) and does not enter non-empty folders
        ``MAX_DEPTH`` levels below the root (counted in ``deep_skipped``)."""
        parts = self._validate(path)
        with self.open_folder(parts) as top:
            fd = os.dup(top)
        return walk_entries(fd, parts, max_depth, is_hidden=self.is_hidden, on_skip=self._skipped)

    def _skipped(self, reason: str, path: str) -> None:
        if reason == "unnamed":
            self.unnamed_skipped += 1  # reported by list_dir and copy: the user can rename such files
            if len(self.unnamed_paths) < 5:
                self.unnamed_paths.append(path)
        elif reason == "too_deep":
            self.deep_skipped += 1

    def iter_files(self, path: str = ".", pattern: str = "**/*") -> Iterator[str]:
        """Workspace-relative paths of regular files under ``path`` matching
        the glob ``pattern`` (relative to ``path``; ``**`` spans folders; a
        pattern without "/" matches the file name at any depth)."""
        return iter_matching(self.walk(path), path_prefix=self.rel(self.resolve(path)), pattern=pattern)
