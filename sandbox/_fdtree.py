"""Copying and removing whole trees through open folder descriptors.

Used when a rename cannot do the job (the trash on another file system gives
EXDEV). Every step is relative to a descriptor opened with ``O_NOFOLLOW |
O_DIRECTORY`` (``open(name, dir_fd=...)``, ``scandir(fd)``,
``unlink(name, dir_fd=...)``, ``rmdir(name, dir_fd=...)``), file contents are
read from descriptors opened with ``O_NOFOLLOW``, and the walks are
iterative (an explicit stack, one open folder per level). A symlink swapped
in mid-way makes a step fail with ELOOP/ENOTDIR; nothing is ever done
through a path string, so nothing outside the starting folder is reached.
"""

from __future__ import annotations

import os
import stat as st

from sandbox import _fs
from sandbox.errors import SandboxError

__all__ = ["copy_file_at", "copy_tree_fd", "empty_tree_fd", "same_file"]

_CHUNK = 1 << 20


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    """True when two stat results name the same inode."""
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _copy_fd(src: int, info: os.stat_result, ddfd: int, dname: str) -> None:
    """Write the bytes of open file ``src`` to a new file ``dname`` in ``ddfd``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _fs.O_NOFOLLOW | _fs.O_CLOEXEC | _fs.O_BINARY
    dst = os.open(dname, flags, 0o600, dir_fd=ddfd)
    try:
        while True:
            chunk = os.read(src, _CHUNK)
            if not chunk:
                break
            _fs.write_all(dst, chunk)
        os.fchmod(dst, st.S_IMODE(info.st_mode))
        os.utime(dst, ns=(info.st_atime_ns, info.st_mtime_ns))
        os.fsync(dst)
    finally:
        os.close(dst)


def copy_file_at(sdfd: int, sname: str, ddfd: int, dname: str, expect: os.stat_result | None = None) -> None:
    """Copy regular file ``sname`` in ``sdfd`` to new file ``dname`` in ``ddfd``.

    Args:
        expect: when given, the source must still be this inode.

    Raises:
        OSError: ELOOP when ``sname`` is a symlink, EEXIST when ``dname`` exists...
        SandboxError: the source is not a regular file, or not ``expect``.
    """
    src, info = _fs.open_file_read(sdfd, sname)
    try:
        if not st.S_ISREG(info.st_mode):
            raise SandboxError(f"{sname} is a {_fs.kind_of(info.st_mode)}, not a regular file; it is off limits", "special")
        if expect is not None and not same_file(info, expect):
            raise SandboxError(f"{sname} changed while it was being deleted; try again", "io")
        _copy_fd(src, info, ddfd, dname)
    finally:
        os.close(src)


def copy_tree_fd(src: int, ddfd: int, dname: str) -> None:
    """Copy the folder open as ``src`` to a new folder ``dname`` in ``ddfd``:
    regular files and folders only (modes and file times kept).

    ``src`` stays open (the caller closes it). Iterative: one open descriptor
    pair per level of nesting.

    Raises:
        OSError: a symlink swapped in (ELOOP), ``dname`` exists, I/O errors.
        SandboxError: a symlink or special file inside.
    """
    os.mkdir(dname, 0o700, dir_fd=ddfd)
    top = _fs.open_subdir(ddfd, dname)
    stack: list[tuple[int, int, list[str]]] = [(src, top, [])]
    try:
        stack[0] = (src, top, _fs.names_desc(src))
        while stack:
            sfd, dfd, names = stack[-1]
            if not names:
                stack.pop()
                try:
                    os.fchmod(dfd, st.S_IMODE(os.fstat(sfd).st_mode))
                finally:
                    os.close(dfd)
                    if sfd != src:
                        os.close(sfd)
                continue
            name = names.pop()
            info = _fs.lstat_at(sfd, name)
            if info is None:
                continue
            if st.S_ISDIR(info.st_mode):
                os.mkdir(name, 0o700, dir_fd=dfd)
                child = _fs.open_subdir(sfd, name)
                try:
                    stack.append((child, _fs.open_subdir(dfd, name), _fs.names_desc(child)))
                except BaseException:
                    os.close(child)
                    raise
            elif st.S_ISREG(info.st_mode):
                copy_file_at(sfd, name, dfd, name)
            else:
                raise SandboxError(f"{name} is a {_fs.kind_of(info.st_mode)}; remove it by hand", "special")
    finally:
        for sfd, dfd, _ in stack:
            os.close(dfd)
            if sfd != src:
                os.close(sfd)


def empty_tree_fd(top: int) -> None:
    """Remove everything inside the folder open as ``top`` (not the folder).

    Never follows a symlink: ``unlink`` and ``rmdir`` act on names in an open
    folder, and subfolders are opened with ``O_NOFOLLOW``. Iterative.

    Raises:
        OSError: a name changed kind meanwhile, permissions, I/O.
    """
    stack: list[tuple[int, list[str], str]] = [(top, [], "")]
    try:
        stack[0] = (top, _fs.names_desc(top), "")
        while stack:
            fd, names, name_in_parent = stack[-1]
            if not names:
                stack.pop()
                if fd != top:
                    os.close(fd)
                    os.rmdir(name_in_parent, dir_fd=stack[-1][0])
                continue
            name = names.pop()
            info = _fs.lstat_at(fd, name)
            if info is None:
                continue
            if st.S_ISDIR(info.st_mode):
                child = _fs.open_subdir(fd, name)
                try:
                    stack.append((child, _fs.names_desc(child), name))
                except BaseException:
                    os.close(child)
                    raise
            else:
                os.unlink(name, dir_fd=fd)
    finally:
        for fd, _, _ in stack:
            if fd != top:
                os.close(fd)
