"""Starting state: five notes; one holds the plumber's contact."""

from pathlib import Path

NOTES = {
    "shopping.md": "# Shopping\n\nbread, eggs, olive oil\n",
    "house.md": "# House\n\nPlumber: Jonas Berg, phone 0170 555 0199 (fixed the boiler in March).\n"
                "Electrician: Mira Falk, phone 0171 555 0123.\n",
    "books.md": "# Books to read\n\nThe Overstory; Piranesi\n",
    "ideas.md": "# Ideas\n\nRepaint the hallway.\n",
    "car.md": "# Car\n\nTyres changed in October.\n",
}


def setup(workspace: Path) -> None:
    (workspace / "notes").mkdir()
    for name, text in NOTES.items():
        (workspace / "notes" / name).write_text(text)
