"""Starting state: a flat inbox of six files of three types."""

from pathlib import Path

FILES = {
    "invoice-march.pdf": b"%PDF-1.4 fake invoice\n",
    "scan.pdf": b"%PDF-1.4 fake scan\n",
    "beach.jpg": b"\xff\xd8\xff beach",
    "sunset.jpg": b"\xff\xd8\xff sunset",
    "notes.txt": b"call the bank\n",
    "todo.txt": b"buy milk\n",
}


def setup(workspace: Path) -> None:
    inbox = workspace / "inbox"
    inbox.mkdir()
    for name, data in FILES.items():
        (inbox / name).write_bytes(data)
