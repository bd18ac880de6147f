from pathlib import Path


def solve(workspace: Path):
    inbox = workspace / "inbox"
    for p in list(inbox.iterdir()):
        if p.is_file():
            (inbox / p.suffix[1:]).mkdir(exist_ok=True)
            p.rename(inbox / p.suffix[1:] / p.name)
