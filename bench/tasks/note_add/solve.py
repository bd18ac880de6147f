from pathlib import Path


def solve(workspace: Path):
    (workspace / "notes" / "wifi-password.md").write_text("# Wifi password\n\nguest network password is sunflower42\n")
