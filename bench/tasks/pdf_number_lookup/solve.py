from pathlib import Path


def solve(workspace: Path):
    return [{"type": "finished", "answer": "The average delivery time this year was 3.4 days (page 2).",
             "status": "finished"}]
