"""1 when top3.csv lists Harbor, Acme, Birch in that order with their exact totals;
1/3 per right customer in the right place with the right total otherwise."""

import csv
import io
from pathlib import Path

from _kit import cell_number

TOP3 = [("harbor", 1845.25), ("acme", 1813.65), ("birch", 1803.35)]


def grade(workspace: Path, transcript: list[dict]) -> float:
    try:
        text = (workspace / "top3.csv").read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return 0.0
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if rows and cell_number(rows[0][-1]) is None:
        rows = rows[1:]  # the header
    ok = 0
    for (name, total), row in zip(TOP3, rows):
        number = cell_number(row[-1]) if len(row) >= 2 else None
        ok += row[0].strip().lower() == name and number is not None and abs(number - total) < 0.005
    return round(ok / 3, 3)
