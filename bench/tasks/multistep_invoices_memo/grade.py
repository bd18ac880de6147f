"""Spreadsheet: 0.5 x share of invoices with the right amount on the same row.
Memo: 0.5 when memo.docx states the total 1,635.75."""

from pathlib import Path

from _kit import cell_number, docx_text, has_number, sheet_values

AMOUNTS = {"INV-101": 1200.00, "INV-102": 349.50, "INV-103": 86.25}
TOTAL = 1635.75


def grade(workspace: Path, transcript: list[dict]) -> float:
    score = 0.0
    sheets = sheet_values(workspace / "invoices.xlsx")
    if sheets:
        found = set()
        for ws in sheets.values():
            for row in ws.iter_rows(values_only=True):
                labels = [str(v).strip().upper() for v in row if isinstance(v, str)]
                nums = [cell_number(v) for v in row]
                for inv, amount in AMOUNTS.items():
                    if inv in labels and any(n is not None and abs(n - amount) < 0.01 for n in nums):
                        found.add(inv)
        score += 0.5 * len(found) / len(AMOUNTS)
    memo = docx_text(workspace / "memo.docx")
    if memo and has_number(memo, TOTAL):
        score += 0.5
    return round(score, 3)
