"""Where the bundled plugins keep their files, and how they read and write them.

A location inside the task's workspace is read and written through the
workspace (``ws.read_text`` / ``ws.write_text`` / ``ws.exists``, so the sandbox
checks paths and journals changes for undo); a location outside it (the user's
data or config dir, or an absolute configured path) is written directly with
temp-file + rename so a crash never leaves half a file.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.base import ToolContext

__all__ = ["Loc", "locate", "data_dir", "config_dir", "atomic_write"]


def _home_dir(ctx: ToolContext | None, key: str, sub: str) -> Path:
    cfg = getattr(ctx, "config", None) or {}
    if cfg.get(key):
        return Path(str(cfg[key])).expanduser()
    home = os.environ.get("ASSISTANT_HOME")
    if home:
        return Path(home).expanduser() / sub
    import platformdirs

    fn = platformdirs.user_config_dir if sub == "config" else platformdirs.user_data_dir
    return Path(fn("assistant", appauthor=False))


def data_dir(ctx: ToolContext | None = None) -> Path:
    """``ctx.config["data_dir"]``, else ``$ASSISTANT_HOME/data``, else the XDG data dir."""
    return _home_dir(ctx, "data_dir", "data")


def config_dir(ctx: ToolContext | None = None) -> Path:
    """``ctx.config["config_dir"]``, else ``$ASSISTANT_HOME/config``, else the XDG config dir."""
    return _home_dir(ctx, "config_dir", "config")


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` via a temp file in the same folder and rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _ws_root(ws: Any) -> Path | None:
    root = getattr(ws, "root", None)
    return Path(root).resolve() if root is not None else None


@dataclass
class Loc:
    """A file or folder, either inside the workspace (``ws`` set, ``rel`` relative
    to its root) or outside it (``ws`` None)."""

    path: Path
    ws: Any = None
    rel: str = ""

    def child(self, name: str) -> "Loc":
        """The entry ``name`` inside this folder."""
        rel = f"{self.rel}/{name}" if self.rel else name
        return Loc(self.path / name, self.ws, rel if self.ws is not None else "")

    def exists(self) -> bool:
        return bool(self.ws.exists(self.rel)) if self.ws is not None else self.path.exists()

    def read_text(self) -> str | None:
        """The file's text, or None when it does not exist."""
        if not self.exists():
            return None
        if self.ws is not None:
            return self.ws.read_text(self.rel)
        return self.path.read_text(encoding="utf-8")

    def write_text(self, text: str) -> None:
        """Create or replace the file (through the workspace when inside it)."""
        if self.ws is not None:
            self.ws.write_text(self.rel, text)
        else:
            atomic_write(self.path, text)

    def files(self, suffix: str) -> list["Loc"]:
        """Regular files directly in this folder whose name ends with ``suffix``, sorted."""
        if not self.path.is_dir():
            return []
        names = sorted(p.name for p in self.path.iterdir()
                       if p.name.endswith(suffix) and not p.name.startswith(".") and p.is_file())
        return [self.child(n) for n in names]


def locate(ctx: ToolContext | None, configured: str | None, default: str, *, base: Path,
           prefer_workspace: bool) -> Loc:
    """Resolve where a plugin's file or folder lives.

    Args:
        ctx: the tool context (its ``workspace`` may be None).
        configured: the path from the plugin's settings, or None/"" for the default.
            Relative paths are taken from the workspace root when there is a
            workspace, else from ``base``.
        default: relative path used when nothing is configured.
        base: the folder outside the workspace (data or config dir).
        prefer_workspace: put the default inside the workspace when there is one.
    """
    ws = getattr(ctx, "workspace", None)
    root = _ws_root(ws) if ws is not None else None
    if configured:
        p = Path(configured).expanduser()
        if not p.is_absolute():
            p = (root / p) if root is not None else (base / p)
    elif root is not None and prefer_workspace:
        p = root / default
    else:
        p = base / default
    if root is not None:
        try:
            rel = Path(os.path.normpath(p)).relative_to(root)
        except ValueError:
            return Loc(Path(os.path.normpath(p)))
        return Loc(root / rel, ws, rel.as_posix() if str(rel) != "." else "")
    return Loc(Path(os.path.normpath(p)))
