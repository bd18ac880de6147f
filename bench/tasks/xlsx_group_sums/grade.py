"""A quarter per region whose total is right on a sheet named like 'By Region'."""

from pathlib import Path

from _kit import cell_number, sheet_values

TOTALS = {"north": 2145, "south": 2665, "east": 1920, "west": 2285}


def grade(workspace: Path, transcript: list[dict]) -> float:
    sheets = sheet_values(workspace / "sales.xlsx")
    if not sheets:
        return 0.0
    ws = next((s for name, s in sheets.items() if name.strip().lower().replace("_", " ") == "by region"), None)
    if ws is None:
        return 0.0
    found = {}
    for row in ws.iter_rows():
        key = str(row[0].value or "").strip().lower()
        if key in TOTALS and len(row) > 1:
            found[key] = cell_number(row[1].value, sheets, ws.title)
    ok = sum(found.get(k) is not None and abs(found[k] - v) < 0.01 for k, v in TOTALS.items())
    return ok / len(TOTALS)
