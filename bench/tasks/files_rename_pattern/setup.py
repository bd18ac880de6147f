"""Starting state: five IMG_NNNN.jpg photos and one unrelated file."""

from pathlib import Path

NUMBERS = ["0007", "0012", "0013", "0101", "0420"]


def setup(workspace: Path) -> None:
    photos = workspace / "photos"
    photos.mkdir()
    for n in NUMBERS:
        (photos / f"IMG_{n}.jpg").write_bytes(f"jpeg {n}".encode())
    (photos / "readme.txt").write_text("do not rename me\n")
