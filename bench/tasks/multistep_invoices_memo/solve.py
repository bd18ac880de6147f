from pathlib import Path

import openpyxl

from _kit import make_docx


def solve(workspace: Path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Invoice", "Amount"])
    for row in (["INV-101", 1200.0], ["INV-102", 349.5], ["INV-103", 86.25]):
        ws.append(row)
    wb.save(str(workspace / "invoices.xlsx"))
    make_docx(workspace / "memo.docx", [("p", "To the finance team:"),
                                        ("p", "The three invoices total EUR 1,635.75.")])
