"""Starting state: a five-row contacts CSV."""

from pathlib import Path

ROWS = [
    ["Name", "Email", "City"],
    ["Ines Costa", "ines@example.org", "Porto"],
    ["Tom Baker", "tom@example.org", "Leeds"],
    ["Yuki Sato", "yuki@example.org", "Osaka"],
    ["Omar Said", "omar@example.org", "Cairo"],
    ["Lea Roth", "lea@example.org", "Graz"],
]


def setup(workspace: Path) -> None:
    (workspace / "contacts.csv").write_text("\n".join(",".join(r) for r in ROWS) + "\n")
