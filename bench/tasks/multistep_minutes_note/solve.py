from pathlib import Path


def solve(workspace: Path):
    (workspace / "notes").mkdir(exist_ok=True)
    (workspace / "notes" / "action-items.md").write_text(
        "# Action items\n\n- Ana: order the seed catalogue\n- Bruno: get a quote for the shed roof\n"
        "- Chen: update the member list\n")
