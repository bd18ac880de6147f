"""What a goal names of a workspace table: a value of one of its text columns
(``goal_value``: "Travel" of category, "unpaid" of status, "class B"). Shared by
the table hints (``calls``) and the finish checks (``figures``)."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["goal_value"]


_TOTAL_LABEL = re.compile(r"(?:grand |sub-?)?totals?|sum|overall", re.IGNORECASE)


def goal_value(table: Any, goal: str) -> tuple[str, str] | None:
    """``(column, value)``: a value of one of ``table``'s text columns (at most 50
    distinct values, 3+ characters, not a total row's label such as "Total") that
    ``goal`` names as a whole word, from the column with the fewest distinct values
    ("Travel" of category), or a shorter one the goal names after its column ("class
    B"); else None."""
    best: tuple[str, str, int] | None = None
    for c in table.columns:
        if c.sql_type != "VARCHAR":
            continue
        values = {str(v) for v in c.values if v is not None}
        if len(values) > 50:
            continue
        for v in sorted(values):
            if _TOTAL_LABEL.fullmatch(v.strip()):  # xlsx_total at 21c8a9e: the row the goal asks to add, "Total",
                continue  # was read back and given as "SELECT SUM(amount) ... WHERE item = 'Total'" (NULL)
            # a short value only after its column's name ("class B"): alone, "B" matches too much
            said = re.escape(v) if len(v) >= 3 else rf"{re.escape(c.name)}\s+{re.escape(v)}"
            if re.search(rf"(?<!\w){said}(?!\w)", goal, re.IGNORECASE) \
                    and (best is None or len(values) < best[2]):
                best = (c.name, v, len(values))
    return (best[0], best[1]) if best else None
