"""The one exception the sandbox raises for anything it refuses or cannot do."""

from __future__ import annotations

__all__ = ["SandboxError"]


class SandboxError(Exception):
    """A workspace operation was refused or failed; the message is one line.

    Examples: ``"path escapes the workspace: ../x"``, ``"file not found: a.txt"``.

    Attributes:
        code: a short machine-readable reason the tools use to pick a hint:
            "escape", "symlink", "hardlink", "special", "internal", "invalid",
            "too_long", "too_deep", "not_found", "exists", "is_dir", "not_dir", "too_large",
            "binary" or "io".
    """

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code
