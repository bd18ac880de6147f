"""One sixth per file found, unchanged, at inbox/<extension>/<name>."""

from pathlib import Path

FILES = {
    "invoice-march.pdf": b"%PDF-1.4 fake invoice\n",
    "scan.pdf": b"%PDF-1.4 fake scan\n",
    "beach.jpg": b"\xff\xd8\xff beach",
    "sunset.jpg": b"\xff\xd8\xff sunset",
    "notes.txt": b"call the bank\n",
    "todo.txt": b"buy milk\n",
}

def grade(workspace: Path, transcript: list[dict]) -> float:
    ok = 0
    for name, data in FILES.items():
        p = workspace / "inbox" / name.rsplit(".", 1)[1] / name
        ok += p.is_file() and p.read_bytes() == data
    return ok / len(FILES)
