"""An account's balance from an opening balance and a ledger of movements: "My account
had an opening balance of 1,250.00 on 1 November 2026. ledger.csv lists its movements:
credit rows add money, debit rows take money out. What was the balance at the end of
November 2026?".

Batch KZ at 6a1c8bc (KZB): the model added every amount up to 20 November, credits and
debits alike and without the opening balance (4064.14; the balance is 3153.20), and the
task was done. The harness works it out itself: the opening balance the goal gives,
plus the amounts of the rows whose type column says money came in, less those whose type
says it went out, for the rows dated on or before the day asked ("at the end of November
2026": its last day); an answer without that figure is doubted with the answer to copy.
"""

from __future__ import annotations

import calendar
import csv
import datetime as dt
import decimal
import io
import re
from pathlib import Path
from typing import NamedTuple

from .answer_form import answer_to_copy
from .dates_said import dates_in, month_number
from .evidence import asks_only_a_question, goal_files
from .numbers import normalise_number

__all__ = ["Balance", "balance_asked", "balance_wrong", "balance_text"]

_OPENING = re.compile(r"\b(?:opening|starting|start|initial|beginning)\s+balance\s+(?:of|was|is|:)?\s*"
                      r"(?:[$€£]\s*)?(?P<amount>-?\d{1,3}(?:[,\s]\d{3})*(?:\.\d+)?|-?\d+(?:\.\d+)?)", re.IGNORECASE)
_ASKED = re.compile(r"\bbalance\b[^.?!]{0,60}\b(?:at\s+the\s+end\s+of|on|as\s+of|after)\s+(?P<when>[^.?!]{3,40})|"
                    r"\b(?:end|closing)(?:ing)?\s+balance\b", re.IGNORECASE)
_END_OF_MONTH = re.compile(r"^(?P<month>[A-Za-z]+)\s+(?P<year>\d{4})\b")
_IN = frozenset("credit credits in income deposit deposits incoming received receipt +".split())
_OUT = frozenset("debit debits out expense expenses withdrawal withdrawals outgoing payment paid -".split())


class Balance(NamedTuple):
    """The ``balance`` on ``day`` from the ``opening`` balance and ``rows`` movements of ``table``."""

    balance: decimal.Decimal
    day: dt.date
    opening: decimal.Decimal
    rows: int
    table: str


def _number(text: str) -> decimal.Decimal | None:
    try:
        return decimal.Decimal(normalise_number(text.replace(" ", "").replace(",", "")))
    except (decimal.InvalidOperation, ValueError):
        return None


def _day_asked(when: str) -> dt.date | None:
    m = _END_OF_MONTH.match(when.strip())
    if m:
        try:
            month, year = month_number(m.group("month")), int(m.group("year"))
        except ValueError:
            return None
        return dt.date(year, month, calendar.monthrange(year, month)[1])
    found = dates_in(when)
    if found and found[0].year:
        try:
            return dt.date(found[0].year, found[0].month, found[0].day)
        except ValueError:
            return None
    return None


def balance_asked(goal: str, workspace: str | Path) -> Balance | None:
    """The :class:`Balance` when ``goal`` is a question for a balance at the end of a
    month (on a date) it gives, gives the opening balance, and the one CSV file it names
    has a date column (ISO), an amount column and a type column whose every value says
    money came in or went out (:data:`_IN`, :data:`_OUT`); None otherwise."""
    opening, asked = _OPENING.search(goal), _ASKED.search(goal)
    tables = [f for f in goal_files(goal)[1] if f.lower().endswith(".csv")]
    if not opening or not asked or not asked.group("when") or len(tables) != 1 or not asks_only_a_question(goal):
        return None
    day, start = _day_asked(asked.group("when")), _number(opening.group("amount"))
    if day is None or start is None:
        return None
    try:
        rows = list(csv.DictReader(io.StringIO((Path(workspace) / tables[0]).read_text(encoding="utf-8"))))
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if not rows or rows[0] is None:
        return None
    header = {k.strip().lower(): k for k in rows[0] if k}
    date_key = next((header[k] for k in ("date", "day", "booked", "booking date") if k in header), None)
    amount_key = next((header[k] for k in ("amount", "value", "sum", "eur", "usd") if k in header), None)
    type_key = next((header[k] for k in ("type", "kind", "direction", "credit/debit", "dc") if k in header), None)
    if not (date_key and amount_key and type_key):
        return None
    total, counted = start, 0
    for r in rows:
        kind = (r.get(type_key) or "").strip().casefold()
        amount = _number(r.get(amount_key) or "")
        try:
            when = dt.date.fromisoformat((r.get(date_key) or "").strip())
        except ValueError:
            return None
        if amount is None or kind not in _IN | _OUT:
            return None  # a row the harness cannot read: not its to judge
        if when <= day:
            total += abs(amount) if kind in _IN else -abs(amount)
            counted += 1
    return Balance(total, day, start, counted, tables[0])


def balance_wrong(goal: str, answer: str, workspace: str | Path) -> str:
    """The doubt when ``goal`` asks a balance (:func:`balance_asked`) and ``answer`` does
    not give it ("" otherwise), with the answer to copy."""
    found = balance_asked(goal, workspace)
    if found is None:
        return ""
    want = found.balance.quantize(decimal.Decimal("0.01"))
    said = {_number(m.group(0)) for m in re.finditer(r"-?\d[\d,]*(?:\.\d+)?", answer)}
    if want in said or found.balance in said:
        return ""
    copy = f"The balance on {found.day.isoformat()} was {want}."
    return (f"the task asks for the balance on {found.day.isoformat()}, and the answer does not give it; the harness "
            f"added the {found.rows} movements of {found.table} up to that day to the opening balance {found.opening} "
            f"(money in added, money out taken away): {answer_to_copy(copy)}")


def balance_text(goal: str, workspace: str | Path) -> str:
    """The balance of :func:`balance_asked` as a source of the answer's numbers
    and the day it is for ("3153.20 2026-11-30"), "" when the goal asks none: the harness worked it out."""
    found = balance_asked(goal, workspace)
    return f"{found.balance.quantize(decimal.Decimal('0.01'))} {found.day.isoformat()}" if found else ""
