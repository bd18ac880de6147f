"""Low-level file operations relative to open folder descriptors.

Every operation walks from the workspace root one name at a time with
``O_NOFOLLOW | O_DIRECTORY`` and acts on the last name with ``dir_fd``; a
symlink swapped into the path after validation makes the open fail instead
of leading outside (this narrows check-then-use races to nothing on POSIX).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat as st
from typing import Callable

from sandbox.errors import SandboxError

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
O_BINARY = getattr(os, "O_BINARY", 0)

SUPPORTED = (
    os.open in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and os.rename in os.supports_dir_fd
    and bool(O_NOFOLLOW)
)
"""True where dir_fd and O_NOFOLLOW exist (Linux, macOS, BSD)."""

_DIR_FLAGS = os.O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC


def fail(exc: OSError, where: str) -> SandboxError:
    """Translate an OSError into a one-line SandboxError about ``where``."""
    code = exc.errno
    if code == errno.ELOOP:
        return SandboxError(f"symlink in path (symlinks are not followed): {where}", "symlink")
    if code == errno.ENOENT:
        return SandboxError(f"not found: {where}", "not_found")
    if code == errno.ENOTDIR:
        return SandboxError(f"not a folder (a file is in the way): {where}", "not_dir")
    if code == errno.EEXIST:
        return SandboxError(f"already exists: {where}", "exists")
    if code == errno.EISDIR:
        return SandboxError(f"is a folder: {where}", "is_dir")
    if code in (errno.EACCES, errno.EPERM):
        return SandboxError(f"permission denied: {where}", "io")
    if code == errno.ENOSPC:
        return SandboxError(f"disk full while writing {where}", "io")
    return SandboxError(f"{os.strerror(code) if code else exc}: {where}", "io")


def open_root(root: str) -> int:
    """Open the workspace root folder (the root itself may be a symlink)."""
    return os.open(root, os.O_RDONLY | O_DIRECTORY | O_CLOEXEC)


def open_subdir(dfd: int, name: str) -> int:
    """Open folder ``name`` inside ``dfd`` without following a symlink
    (a symlink raises OSError ELOOP, whatever the platform reports)."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dfd)
    except NotADirectoryError:
        info = lstat_at(dfd, name)
        if info is not None and st.S_ISLNK(info.st_mode):
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), name) from None
        raise


def open_chain(
    root: str,
    parts: list[str],
    *,
    create: bool = False,
    on_create: Callable[[int], None] | None = None,
) -> int:
    """Open the folder ``root/parts...``; returns a descriptor the caller closes.

    Args:
        create: make missing folders (mode 0o777 minus umask).
        on_create: called with the index in ``parts`` of each folder made.

    Raises:
        OSError: ELOOP for a symlink, ENOTDIR, ENOENT (when not creating)...
    """
    fd = open_root(root)
    try:
        for i, name in enumerate(parts):
            try:
                nfd = open_subdir(fd, name)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                else:
                    if on_create:
                        on_create(i)
                nfd = open_subdir(fd, name)
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


def lstat_at(dfd: int, name: str) -> os.stat_result | None:
    """``lstat`` of ``name`` in ``dfd``, or None when it does not exist."""
    try:
        return os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def names_desc(dfd: int) -> list[str]:
    """The names in folder ``dfd``, sorted in reverse (so ``pop()`` gives them in order)."""
    with os.scandir(dfd) as it:
        return sorted((e.name for e in it), reverse=True)


def kind_of(mode: int) -> str:
    """"file", "dir", "symlink", "fifo", "socket", "device" or "other"."""
    if st.S_ISREG(mode):
        return "file"
    if st.S_ISDIR(mode):
        return "dir"
    if st.S_ISLNK(mode):
        return "symlink"
    if st.S_ISFIFO(mode):
        return "fifo"
    if st.S_ISSOCK(mode):
        return "socket"
    if st.S_ISCHR(mode) or st.S_ISBLK(mode):
        return "device"
    return "other"


def open_file_read(dfd: int, name: str) -> tuple[int, os.stat_result]:
    """Open a file for reading, never following a symlink nor blocking on a
    FIFO; returns ``(fd, fstat)``. The caller checks the type and closes."""
    fd = os.open(name, os.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_BINARY, dir_fd=dfd)
    return fd, os.fstat(fd)


def read_fd(fd: int, limit: int) -> bytes:
    """Up to ``limit`` bytes from ``fd``."""
    chunks = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd``."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def write_temp(dfd: int, name: str, data: bytes, mode: int | None) -> str:
    """Write ``data`` to a fresh temp file next to ``name`` and fsync it.

    Returns the temp file's name (in ``dfd``). On failure the temp file is
    removed and the error re-raised.
    """
    tmp = f".{name[:200]}.{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_BINARY
    fd = os.open(tmp, flags, 0o666, dir_fd=dfd)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        remove_quietly(dfd, tmp)
        raise
    return tmp


def remove_quietly(dfd: int, name: str) -> None:
    """Unlink ``name`` in ``dfd``, ignoring errors (temp-file cleanup)."""
    try:
        os.unlink(name, dir_fd=dfd)
    except OSError:
        pass


def fsync_dir(dfd: int) -> None:
    """Flush a folder's entries (so a rename survives a crash); best effort."""
    try:
        os.fsync(dfd)
    except OSError:
        pass
