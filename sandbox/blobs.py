"""A content-addressed store of file versions (sha256 -> bytes) on disk."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

__all__ = ["BlobStore", "sha256_hex"]

_SHA_RE = re.compile(r"[0-9a-f]{64}")


def sha256_hex(data: bytes) -> str:
    """The sha256 of ``data`` as 64 lowercase hex characters."""
    return hashlib.sha256(data).hexdigest()


class BlobStore:
    """Blobs stored as ``root/ab/cdef...`` (first two hex chars as a folder).

    Writes are atomic (temp file, fsync, rename), so a crash never leaves a
    truncated blob under its final name. The folder is created on first use.
    """

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def _path(self, sha: str) -> Path:
        if not isinstance(sha, str) or not _SHA_RE.fullmatch(sha):
            raise ValueError(f"not a sha256 hex digest: {sha!r}")
        return self.root / sha[:2] / sha[2:]

    def put(self, data: bytes) -> str:
        """Store ``data``; returns its sha256 hex. Storing twice is a no-op."""
        data = bytes(data)
        sha = sha256_hex(data)
        path = self._path(sha)
        if path.is_file():
            return sha
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return sha

    def get(self, sha: str) -> bytes:
        """The bytes stored under ``sha``.

        Raises:
            KeyError: no such blob, or the stored bytes no longer match ``sha``.
            ValueError: ``sha`` is not 64 hex characters.
        """
        path = self._path(sha)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise KeyError(sha) from None
        if sha256_hex(data) != sha:
            raise KeyError(f"blob {sha} is corrupt")
        return data

    def has(self, sha: str) -> bool:
        """True when a blob with this sha is stored."""
        try:
            return self._path(sha).is_file()
        except ValueError:
            return False
