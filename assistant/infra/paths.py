"""Where the assistant keeps its files: config, state (task DB, blobs), cache.

The directories follow the platform conventions (XDG on Linux) via
``platformdirs``. ``ASSISTANT_HOME=DIR`` puts all of them under ``DIR``
(``DIR/config``, ``DIR/state``, ``DIR/cache``, ``DIR/data``); tests and scripts
use it to keep runs isolated. Nothing is created on import; the ``ensure``
argument creates a directory on first use.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "APP_NAME",
    "home_override",
    "config_dir",
    "state_dir",
    "cache_dir",
    "data_dir",
    "user_config_file",
    "db_path",
    "blobs_dir",
    "trash_dir",
    "locks_dir",
]

APP_NAME = "assistant"


def home_override() -> Path | None:
    """The ``ASSISTANT_HOME`` directory when set (expanded, absolute), else None."""
    value = os.environ.get("ASSISTANT_HOME", "").strip()
    return Path(value).expanduser().resolve() if value else None


def _dir(kind: str, ensure: bool) -> Path:
    home = home_override()
    if home is not None:
        path = home / kind
    else:
        import platformdirs

        fn = {
            "config": platformdirs.user_config_dir,
            "state": platformdirs.user_state_dir,
            "cache": platformdirs.user_cache_dir,
            "data": platformdirs.user_data_dir,
        }[kind]
        path = Path(fn(APP_NAME, appauthor=False))
    if ensure:
        path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir(ensure: bool = False) -> Path:
    """The user config directory (holds ``config.toml`` and user plugins)."""
    return _dir("config", ensure)


def state_dir(ensure: bool = False) -> Path:
    """The state directory (task DB, change blobs, trash, locks)."""
    return _dir("state", ensure)


def cache_dir(ensure: bool = False) -> Path:
    """The cache directory (prompt caches, downloads in progress)."""
    return _dir("cache", ensure)


def data_dir(ensure: bool = False) -> Path:
    """The data directory (pulled models)."""
    return _dir("data", ensure)


def user_config_file() -> Path:
    """``config_dir()/config.toml`` (may not exist)."""
    return config_dir() / "config.toml"


def db_path(ensure: bool = False) -> Path:
    """The SQLite task store: ``state_dir()/tasks.db``."""
    return state_dir(ensure) / "tasks.db"


def blobs_dir() -> Path:
    """Content-addressed copies of what the agent replaced: ``state_dir()/blobs``."""
    return state_dir() / "blobs"


def trash_dir() -> Path:
    """Where deleted workspace files go until undone: ``state_dir()/trash``."""
    return state_dir() / "trash"


def locks_dir(ensure: bool = False) -> Path:
    """Per-task lock files (one process drives a task at a time)."""
    path = state_dir() / "locks"
    if ensure:
        path.mkdir(parents=True, exist_ok=True)
    return path
