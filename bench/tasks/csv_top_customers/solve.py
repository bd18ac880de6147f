import csv
from collections import defaultdict
from pathlib import Path


def solve(workspace: Path):
    totals: dict[str, float] = defaultdict(float)
    with open(workspace / "orders.csv", newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            totals[row["Customer"]] += float(row["Amount"])
    top = sorted(totals.items(), key=lambda kv: -kv[1])[:3]
    with open(workspace / "top3.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["Customer", "Total"])
        for name, total in top:
            w.writerow([name, f"{total:.2f}"])
