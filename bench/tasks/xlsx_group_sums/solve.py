from pathlib import Path

import openpyxl


def solve(workspace: Path):
    wb = openpyxl.load_workbook(str(workspace / "sales.xlsx"))
    totals: dict[str, float] = {}
    for region, _rep, amount in wb["Sales"].iter_rows(min_row=2, values_only=True):
        totals[region] = totals.get(region, 0) + amount
    ws = wb.create_sheet("By Region")
    ws.append(["Region", "Total"])
    for region, total in totals.items():
        ws.append([region, total])
    wb.save(str(workspace / "sales.xlsx"))
