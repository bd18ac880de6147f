"""Starting state: one existing note (notes live in notes/ of the workspace)."""

from pathlib import Path


def setup(workspace: Path) -> None:
    (workspace / "notes").mkdir()
    (workspace / "notes" / "shopping.md").write_text("# Shopping\n\nbread, eggs\n")
