"""A fifth per row of a sheet named like "Top 5" holding the right vendor in the right
place with its exact total (a header row is skipped; SUM formulas are evaluated)."""

from pathlib import Path

from _kit import cell_number, sheet_values

TOP5 = [("cafe mio", 2065.25), ("deutsche bahn", 1889.7), ("staples", 1863.4), ("uber", 1661.55),
        ("hilton", 1437.9)]


def grade(workspace: Path, transcript: list[dict]) -> float:
    sheets = sheet_values(workspace / "spending.xlsx")
    if not sheets:
        return 0.0
    ws = next((s for name, s in sheets.items() if name.strip().lower().replace("_", " ") in ("top 5", "top5")), None)
    if ws is None:
        return 0.0
    rows = [[c.value for c in r[:2]] for r in ws.iter_rows() if len(r) >= 2 and r[0].value is not None]
    if rows and cell_number(rows[0][1], sheets, ws.title) is None:
        rows = rows[1:]  # the header
    ok = 0
    for (name, total), (vendor, value) in zip(TOP5, rows):
        number = cell_number(value, sheets, ws.title)
        ok += str(vendor).strip().lower() == name and number is not None and abs(number - total) < 0.005
    return round(ok / 5, 3)
