from pathlib import Path


def solve(workspace: Path):
    return [{"type": "paused", "kind": "question", "reason": "Which contract: Acme or Birch?", "choices": []}]
