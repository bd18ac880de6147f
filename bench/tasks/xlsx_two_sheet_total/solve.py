from pathlib import Path

import openpyxl


def solve(workspace: Path):
    wb = openpyxl.load_workbook(str(workspace / "expenses.xlsx"))
    total = sum(amount for ws in wb.worksheets for category, amount in ws.iter_rows(min_row=2, values_only=True)
                if category == "Travel")
    return [{"type": "finished", "answer": f"Travel across Q1 and Q2: {total:,.2f} in total.", "status": "finished"}]
