"""Delete (to the trash), move and copy for :class:`sandbox.Workspace`."""

from __future__ import annotations

import errno
import os
import secrets
import time
from pathlib import Path

from sandbox import _fdtree, _fs
from sandbox.errors import SandboxError
from sandbox.paths import MAX_DEPTH, short
from sandbox.records import ChangeRecord

__all__ = ["TreeOps", "MAX_TREE_FILES"]

MAX_TREE_FILES = 10_000
"""Most files one folder delete or copy may touch."""


class TreeOps:
    """Mixin: the operations that act on one or two whole paths."""

    # ---- delete ----------------------------------------------------------

    def _read_regular(self, dfd: int, name: str, where: str, allow_links: bool) -> bytes:
        fd, info = _fs.open_file_read(dfd, name)
        try:
            kind = _fs.kind_of(info.st_mode)
            if kind != "file":
                raise SandboxError(f"{where} is a {kind}, not a regular file; it is off limits", "special")
            if info.st_nlink > 1 and not allow_links:
                raise SandboxError(self._hardlink_msg(where, info.st_nlink), "hardlink")
            if info.st_size > self.max_read_bytes:
                raise SandboxError(f"{where} is too large ({info.st_size} bytes; limit {self.max_read_bytes})", "too_large")
            return _fs.read_fd(fd, info.st_size + 1)
        finally:
            os.close(fd)

    def _snapshot(self, dfd: int, name: str, rel: str, out: list[ChangeRecord]) -> None:
        """Put every file under folder ``name`` in the blob store and collect
        "delete" records (pre-order, folders first). Iterative; refuses
        symlinks, special files, too many files and nesting past ``MAX_DEPTH``."""
        out.append(ChangeRecord(op="delete", path=rel))
        top = _fs.open_subdir(dfd, name)
        stack: list[tuple[int, str, list[str]]] = [(top, rel, [])]
        try:
            stack[0] = (top, rel, _fs.names_desc(top))
            while stack:
                fd, base, names = stack[-1]
                if not names:
                    os.close(stack.pop()[0])
                    continue
                child = names.pop()
                crel = f"{base}/{child}"
                info = _fs.lstat_at(fd, child)
                if info is None:
                    continue
                if crel.count("/") >= MAX_DEPTH:
                    raise SandboxError(
                        f"{short(rel)} holds folders nested more than {MAX_DEPTH} levels deep, which undo could "
                        "not restore; ask the user to remove it by hand", "too_deep")
                kind = _fs.kind_of(info.st_mode)
                if kind == "dir":
                    out.append(ChangeRecord(op="delete", path=crel))
                    sub = _fs.open_subdir(fd, child)
                    stack.append((sub, crel, []))
                    stack[-1] = (sub, crel, _fs.names_desc(sub))
                elif kind == "file":
                    if len(out) > MAX_TREE_FILES:
                        raise SandboxError(f"{short(rel)} holds more than {MAX_TREE_FILES} entries; delete smaller parts", "too_large")
                    data = self._read_regular(fd, child, short(crel), allow_links=True)
                    out.append(ChangeRecord(op="delete", path=crel, before_sha=self.blobs.put(data)))
                else:
                    raise SandboxError(f"{short(rel)} contains a {kind} ({short(crel)}); remove it by hand", "special")
        finally:
            for fd, _, _ in stack:
                os.close(fd)

    def _to_trash(self, dfd: int, name: str, rel: str, info: os.stat_result) -> None:
        """Move ``name`` (in ``dfd``, last seen as ``info``) into a fresh trash slot.

        The trash on another file system (EXDEV) gets a copy made and the
        original removed entirely through descriptors (see ``sandbox._fdtree``);
        a symlink swapped in meanwhile makes it fail, never reach outside."""
        slot = Path(self.trash_dir) / f"{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(3)}" / rel
        slot.parent.mkdir(parents=True, exist_ok=True)
        tfd = os.open(slot.parent, os.O_RDONLY | _fs.O_DIRECTORY | _fs.O_CLOEXEC)
        try:
            os.rename(name, slot.name, src_dir_fd=dfd, dst_dir_fd=tfd)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            self._to_other_fs(dfd, name, rel, info, tfd, slot.name)
        finally:
            os.close(tfd)
        _fs.fsync_dir(dfd)

    @staticmethod
    def _to_other_fs(dfd: int, name: str, rel: str, info: os.stat_result, tfd: int, tname: str) -> None:
        changed = SandboxError(f"{short(rel)} changed while it was being deleted; try again", "io")
        if _fs.kind_of(info.st_mode) == "file":
            _fdtree.copy_file_at(dfd, name, tfd, tname, expect=info)
            now = _fs.lstat_at(dfd, name)
            if now is None or not _fdtree.same_file(now, info):
                raise changed
            os.unlink(name, dir_fd=dfd)
            return
        src = _fs.open_subdir(dfd, name)
        try:
            if not _fdtree.same_file(os.fstat(src), info):
                raise changed
            _fdtree.copy_tree_fd(src, tfd, tname)
            _fdtree.empty_tree_fd(src)
        finally:
            os.close(src)
        os.rmdir(name, dir_fd=dfd)

    def delete(self, path: str) -> ChangeRecord:
        """Move a file or folder into the trash; its bytes go to the blob store.

        A folder yields one "delete" record per folder and file inside (all
        sent to ``on_change``); the record of ``path`` itself is returned.

        Raises:
            SandboxError: refused path, not found, the root, a special file,
                a symlink or special file inside the folder, too many files.
        """
        parts = self._validate(path)
        if not parts:
            raise SandboxError("cannot delete the workspace folder itself", "invalid")
        rel = "/".join(parts)
        records: list[ChangeRecord] = []
        with self.open_folder(parts[:-1]) as dfd:
            try:
                info = _fs.lstat_at(dfd, parts[-1])
                if info is None:
                    raise SandboxError(f"not found: {short(rel)}", "not_found")
                kind = _fs.kind_of(info.st_mode)
                if kind == "dir":
                    self._snapshot(dfd, parts[-1], rel, records)
                elif kind == "file":
                    data = self._read_regular(dfd, parts[-1], short(rel), allow_links=True)
                    records.append(ChangeRecord(op="delete", path=rel, before_sha=self.blobs.put(data)))
                else:
                    raise SandboxError(f"{short(rel)} is a {kind}, not a regular file; it is off limits", "special")
                self._to_trash(dfd, parts[-1], rel, info)
            except OSError as exc:
                raise _fs.fail(exc, short(rel)) from None
        for record in records:
            self._emit(record)
        return records[0]

    # ---- move ------------------------------------------------------------

    def _two(self, src: str, dest: str, verb: str) -> tuple[list[str], list[str]]:
        sp = self._validate(src)
        dp = self._validate(dest, for_write=True)
        if not sp or not dp:
            raise SandboxError(f"cannot {verb} the workspace folder itself", "invalid")
        if sp == dp:
            raise SandboxError(f"cannot {verb} {short('/'.join(sp))} onto itself (source and destination are the same "
                               "path); nothing was changed", "invalid")
        if [p.casefold() for p in dp[: len(sp)]] == [p.casefold() for p in sp] and len(dp) > len(sp):
            raise SandboxError(f"cannot {verb} {short('/'.join(sp))} into itself", "invalid")
        return sp, dp

    def move(self, src: str, dest: str, *, overwrite: bool = False) -> ChangeRecord:
        """Rename ``src`` (file or folder) to the full new path ``dest``.

        Without ``overwrite`` an existing ``dest`` is refused (checked
        atomically for files via a hard link + unlink). With it, a file at
        ``dest`` is replaced and its content kept in the blob store.

        Raises:
            SandboxError: refused paths, not found, dest exists / is a folder,
                moving a folder into itself, across file systems.
        """
        sp, dp = self._two(src, dest, "move")
        srel, drel = "/".join(sp), "/".join(dp)
        sha = dest_sha = None
        with self.open_folder(sp[:-1]) as sfd:
            try:
                sinfo = _fs.lstat_at(sfd, sp[-1])
                if sinfo is None:
                    raise SandboxError(f"not found: {short(srel)}", "not_found")
                skind = _fs.kind_of(sinfo.st_mode)
                if skind == "file":
                    sha = self.blobs.put(self._read_regular(sfd, sp[-1], short(srel), allow_links=True))
                elif skind != "dir":
                    raise SandboxError(f"{short(srel)} is a {skind}, not a regular file; it is off limits", "special")
                elif len(dp) > len(sp):
                    self._check_nesting(srel, len(dp) - len(sp))
                with self.open_folder(dp[:-1], create=True) as dfd:
                    dinfo = _fs.lstat_at(dfd, dp[-1])
                    same = dinfo is not None and (dinfo.st_dev, dinfo.st_ino) == (sinfo.st_dev, sinfo.st_ino)
                    if dinfo is not None and not same:
                        if not overwrite:
                            raise SandboxError(f"already exists: {short(drel)}; pass overwrite=true to replace it", "exists")
                        if _fs.kind_of(dinfo.st_mode) == "dir":
                            raise SandboxError(f"destination is a folder: {short(drel)}; give the full new path", "is_dir")
                        if skind == "dir":
                            raise SandboxError(f"cannot replace the file {short(drel)} with a folder", "invalid")
                        dest_sha = self.blobs.put(self._read_regular(dfd, dp[-1], short(drel), allow_links=False))
                        os.replace(sp[-1], dp[-1], src_dir_fd=sfd, dst_dir_fd=dfd)
                    elif skind == "file" and not same:
                        self._link_move(sfd, sp[-1], dfd, dp[-1])
                    else:
                        os.rename(sp[-1], dp[-1], src_dir_fd=sfd, dst_dir_fd=dfd)
                    _fs.fsync_dir(dfd)
                _fs.fsync_dir(sfd)
            except OSError as exc:
                if exc.errno == errno.EXDEV:
                    raise SandboxError("cannot move across file systems; copy, then delete", "io") from None
                raise _fs.fail(exc, short(drel)) from None
        record = ChangeRecord(op="move", path=srel, dest=drel, before_sha=sha, after_sha=sha, dest_before_sha=dest_sha)
        self._emit(record)
        return record

    def _check_nesting(self, srel: str, extra: int) -> None:
        """Refuse to move folder ``srel`` ``extra`` levels deeper when that
        would put something more than ``MAX_DEPTH`` levels down."""
        deep = self.deep_skipped
        nested = max((e.depth for e in self.walk(srel)), default=0)
        if self.deep_skipped > deep or len(srel.split("/")) + extra + nested > MAX_DEPTH:
            raise SandboxError(f"the move would nest folders more than {MAX_DEPTH} levels deep; pick a shallower destination", "too_deep")

    @staticmethod
    def _link_move(sfd: int, sname: str, dfd: int, dname: str) -> None:
        """Rename a file without ever replacing an existing ``dname``."""
        try:
            os.link(sname, dname, src_dir_fd=sfd, dst_dir_fd=dfd, follow_symlinks=False)
        except FileExistsError:
            raise
        except (OSError, NotImplementedError):  # no hard links here: check, then rename
            if _fs.lstat_at(dfd, dname) is not None:
                raise OSError(errno.EEXIST, "File exists", dname) from None
            os.rename(sname, dname, src_dir_fd=sfd, dst_dir_fd=dfd)
            return
        os.unlink(sname, dir_fd=sfd)

    # ---- copy ------------------------------------------------------------

    def copy(self, src: str, dest: str, *, overwrite: bool = False) -> ChangeRecord:
        """Copy a file, or a folder tree, to the full new path ``dest``.

        A file over an existing file needs ``overwrite`` (old content kept in
        the blob store); a folder copy never merges into an existing path.
        Each file copied yields a "copy" record, each folder made a "mkdir".

        Returns:
            The record of ``dest`` itself.

        Raises:
            SandboxError: refused paths, not found, dest exists, a symlink or
                special file inside the folder, too many files.
        """
        sp, dp = self._two(src, dest, "copy")
        srel, drel = "/".join(sp), "/".join(dp)
        info = self.stat(srel)
        kind = _fs.kind_of(info.st_mode)
        if kind == "file":
            return self._copy_file(srel, dp, overwrite, info.st_mode & 0o777)
        if kind != "dir":
            raise SandboxError(f"{short(srel)} is a {kind}, not a regular file; it is off limits", "special")
        if self.exists(drel):
            raise SandboxError(f"already exists: {short(drel)}; folders are never merged, pick a new name", "exists")
        deep = self.deep_skipped
        entries = list(self.walk(srel))
        nested = max((e.depth for e in entries), default=0)
        if self.deep_skipped > deep or len(dp) + nested > MAX_DEPTH:
            raise SandboxError(f"the copy would nest folders more than {MAX_DEPTH} levels deep; pick a shallower destination", "too_deep")
        bad = next((e for e in entries if e.kind not in ("file", "dir")), None)
        if bad is not None:
            raise SandboxError(f"{short(srel)} contains a {bad.kind} ({short(bad.path)}); copy its files one by one", "special")
        if len(entries) > MAX_TREE_FILES:
            raise SandboxError(f"{short(srel)} holds more than {MAX_TREE_FILES} entries; copy smaller parts", "too_large")
        top = self.mkdir(drel) or ChangeRecord(op="mkdir", path=drel)
        for entry in entries:
            target = dp + entry.path.split("/")[len(sp):]
            if entry.kind == "dir":
                self.mkdir("/".join(target))
            else:
                self._copy_file(entry.path, target, False, None)
        return top

    def _copy_file(self, srel: str, dp: list[str], overwrite: bool, mode: int | None) -> ChangeRecord:
        data = self.read_bytes(srel)
        _, before, after = self._write_parts(dp, data, overwrite, mode)
        record = ChangeRecord(op="copy", path=srel, dest="/".join(dp), after_sha=after, dest_before_sha=before)
        self._emit(record)
        return record
