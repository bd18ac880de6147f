from pathlib import Path

import openpyxl


def solve(workspace: Path):
    wb = openpyxl.load_workbook(str(workspace / "expenses.xlsx"))
    ws = wb["Expenses"]
    last = ws.max_row
    ws.append([None, "Total", f"=SUM(C2:C{last})"])
    wb.save(str(workspace / "expenses.xlsx"))
