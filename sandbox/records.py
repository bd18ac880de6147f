"""The change record handed to the undo journal for every workspace mutation."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

__all__ = ["ChangeRecord", "OPS"]

Op = Literal["create", "write", "delete", "move", "copy", "mkdir"]
OPS: tuple[str, ...] = ("create", "write", "delete", "move", "copy", "mkdir")


@dataclass(frozen=True)
class ChangeRecord:
    """One change made to the workspace, enough to revert it.

    Attributes:
        op: "create" (new file), "write" (file replaced), "delete" (file or
            folder moved to the trash), "move", "copy" or "mkdir".
        path: workspace-relative POSIX path (for move/copy: the source).
        dest: for move/copy, the workspace-relative destination; else None.
        before_sha: sha256 hex of the content before the change (kept in the
            blob store), or None when there was no file (create, mkdir) or the
            path is a folder.
        after_sha: sha256 hex of the content after the change, or None when
            nothing is left at ``path``/``dest`` or it is a folder.
        dest_before_sha: sha256 hex of what a move/copy overwrote at ``dest``
            (kept in the blob store), or None.
    """

    op: Op
    path: str
    dest: str | None = None
    before_sha: str | None = None
    after_sha: str | None = None
    dest_before_sha: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-serialisable dict of the fields."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ChangeRecord":
        """Rebuild a record from :meth:`to_dict` output.

        Raises:
            ValueError: unknown ``op``, missing ``path`` or unknown keys.
        """
        known = {f.name for f in fields(cls)}
        extra = set(data) - known
        if extra:
            raise ValueError(f"unknown change record fields: {sorted(extra)}")
        if data.get("op") not in OPS:
            raise ValueError(f"unknown change record op: {data.get('op')!r}")
        if not isinstance(data.get("path"), str):
            raise ValueError("change record needs a string 'path'")
        return cls(**data)
