from collections import defaultdict
from pathlib import Path

import openpyxl


def solve(workspace: Path):
    wb = openpyxl.load_workbook(str(workspace / "spending.xlsx"))
    totals: dict[str, float] = defaultdict(float)
    for _date, vendor, _category, amount in wb["2026"].iter_rows(min_row=2, values_only=True):
        totals[vendor] += amount
    ws = wb.create_sheet("Top 5")
    ws.append(["Vendor", "Total"])
    for vendor, total in sorted(totals.items(), key=lambda kv: -kv[1])[:5]:
        ws.append([vendor, round(total, 2)])
    wb.save(str(workspace / "spending.xlsx"))
