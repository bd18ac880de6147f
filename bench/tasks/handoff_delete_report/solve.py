from pathlib import Path


def solve(workspace: Path):
    return [{"type": "paused", "kind": "question", "reason": "Which report is the old one?", "choices": []}]
