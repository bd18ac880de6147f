from pathlib import Path


def solve(workspace: Path):
    for p in (workspace / "photos").glob("IMG_*.jpg"):
        p.rename(p.with_name("holiday-" + p.name[4:]))
