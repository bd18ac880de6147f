from pathlib import Path


def solve(workspace: Path):
    parts = [p.read_text() for p in sorted((workspace / "todo").glob("*.txt"))]
    (workspace / "todo" / "all.txt").write_text("".join(parts))
