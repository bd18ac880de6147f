"""1 for a 'Total' row below the data whose Amount is the sum (value or =SUM);
0.7 when the sum is there but the label is missing or not in column B, as the task asks;
0 if the data changed. A formula or a number stored as text is no sum (at 1c551ec "=SUM(C2:C9)"
was written as a text cell, which Excel shows as that text; at 4f7db1e "389.90" as text, which
sums leave out), and a total row written more than once halves the grade (at 4f7db1e six
"Total" rows, B10 to B15)."""

from pathlib import Path

from _kit import cell_number, sheet_values

AMOUNTS = [84.20, 49.00, 12.35, 61.80, 24.00, 73.15, 55.40, 30.00]
TOTAL = round(sum(AMOUNTS), 2)


def grade(workspace: Path, transcript: list[dict]) -> float:
    sheets = sheet_values(workspace / "expenses.xlsx")
    if not sheets or "Expenses" not in sheets:
        return 0.0
    ws = sheets["Expenses"]
    data = [ws.cell(row=r, column=3).value for r in range(2, 2 + len(AMOUNTS))]
    if [cell_number(v) for v in data] != AMOUNTS:
        return 0.0
    best, rows = 0.0, 0
    for row in ws.iter_rows(min_row=2 + len(AMOUNTS)):
        values = [c.value for c in row]
        # a text cell ("s") is no sum, whatever it reads; a formula loads as type "f", a number as "n"
        nums = [None if c.data_type == "s" else cell_number(c.value, sheets, ws.title) for c in row]
        if any(n is not None and abs(n - TOTAL) < 0.01 for n in nums):
            rows += 1
            label = values[1] if len(values) > 1 else None
            labelled = isinstance(label, str) and label.strip().lower().startswith("total")
            best = max(best, 1.0 if labelled else 0.7)
    return best / 2 if rows > 1 else best
