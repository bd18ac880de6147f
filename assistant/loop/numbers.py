"""How the finish checks compare numbers: one normal form for "1,234.50", "$1,234.5" and "1234.5"."""

from __future__ import annotations

__all__ = ["normalise_number"]


def normalise_number(text: str) -> str:
    """``"1,234.50"`` / ``"1234.5"`` / ``"$1,234.5"`` -> ``"1234.5"``; ``"007"`` -> ``"7"``."""
    t = text.strip().lstrip("$€£+-").rstrip("%").replace(",", "")
    whole, _, frac = t.partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole
