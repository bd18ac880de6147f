import csv
from pathlib import Path

import openpyxl


def solve(workspace: Path):
    wb = openpyxl.Workbook()
    with open(workspace / "contacts.csv", newline="") as fh:
        for row in csv.reader(fh):
            wb.active.append(row)
    wb.save(str(workspace / "contacts.xlsx"))
