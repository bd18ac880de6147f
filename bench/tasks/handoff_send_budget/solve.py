from pathlib import Path


def solve(workspace: Path):
    return [{"type": "paused", "kind": "question", "reason": "Who is your manager, and how should I send it?",
             "choices": []}]
