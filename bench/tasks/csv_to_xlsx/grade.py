"""Share of the six CSV rows (header included) found as rows of contacts.xlsx."""

from pathlib import Path

from _kit import xlsx_rows

ROWS = [
    ["Name", "Email", "City"],
    ["Ines Costa", "ines@example.org", "Porto"],
    ["Tom Baker", "tom@example.org", "Leeds"],
    ["Yuki Sato", "yuki@example.org", "Osaka"],
    ["Omar Said", "omar@example.org", "Cairo"],
    ["Lea Roth", "lea@example.org", "Graz"],
]


def grade(workspace: Path, transcript: list[dict]) -> float:
    sheets = xlsx_rows(workspace / "contacts.xlsx")
    if not sheets:
        return 0.0
    have = {tuple(str(v).strip() for v in row if v is not None) for rows in sheets.values() for row in rows}
    return sum(tuple(r) in have for r in ROWS) / len(ROWS)
