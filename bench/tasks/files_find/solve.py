from pathlib import Path


def solve(workspace: Path):
    hit = next(p for p in workspace.rglob("*.txt") if "passport" in p.read_text().lower())
    return [{"type": "finished", "answer": f"It is {hit.relative_to(workspace).as_posix()}.", "status": "finished"}]
