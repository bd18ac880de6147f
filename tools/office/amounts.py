"""Amounts written as text: "1,200.00 EUR", "$1,845.25", "349.50".

Shared by the workbook writer (which stores such a text as a number with a
matching number format) and the table loader (which types a column of them as
DECIMAL so ``SUM`` works). Only comma-grouped thousands with a dot decimal are
read; a leading zero ("0170") is a code, not an amount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Amount", "parse_amount"]

_AMOUNT = re.compile(r"^\s*(?P<pre>[$€£]\s?)?(?P<num>-?(?:[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*|0)(?:\.\d+)?)"
                     r"\s?(?P<post>€|EUR|USD|GBP|CHF)?\s*$")


@dataclass(frozen=True)
class Amount:
    """One amount read from text: ``number`` is the plain number ("1200.00"),
    ``unit`` the currency as written ("EUR", "$" or ""), ``unit_first`` whether
    the unit came before the number, ``grouped`` whether it had thousands commas."""

    number: str
    unit: str
    unit_first: bool
    grouped: bool

    @property
    def decimals(self) -> int:
        return len(self.number.partition(".")[2])


def parse_amount(text: str) -> Amount | None:
    """The amount ``text`` spells, or None when it is not one.

    A bare integer ("42") is an amount too (``unit`` "", ``grouped`` False);
    callers decide whether that alone is enough.
    """
    m = _AMOUNT.match(text)
    if not m:
        return None
    num = m.group("num")
    pre, post = (m.group("pre") or "").strip(), m.group("post") or ""
    return Amount(num.replace(",", ""), pre or post, bool(pre), "," in num)
