"""SQL names for workspace tables and their columns.

The rule (shown to the model in ``table_query``'s description):

- a CSV/TSV file is a table named after its file name without the extension:
  ``sales.csv`` -> ``sales``; a workbook with one sheet likewise
  (``budget.xlsx`` -> ``budget``); a workbook with several sheets gives one
  table per sheet, ``<file>_<sheet>``: sheet "Q1" of ``expenses.xlsx`` ->
  ``expenses_q1``, and ``<file>`` reads the first sheet and every sheet with its
  columns (one table, with a ``sheet`` column, when there are several: a sheet
  a task adds, such as a summary, never changes what ``expenses`` reads); a
  Word document's tables are named like sheets "table 1", "table 2", ...
  (``quote.docx`` with one table -> ``quote``; with two, ``quote_table_1`` and
  ``quote_table_2``, and no ``quote``);
- names are lower case; every run of characters that are not letters or digits
  becomes one ``_`` ("Unit Price (EUR)" -> ``unit_price_eur``); a name that
  starts with a digit gets a prefix (``t_`` for tables, ``c_`` for columns:
  ``2024-sales.csv`` -> ``t_2024_sales``); an SQL reserved word gets a trailing
  ``_`` (a column "Order" -> ``order_``); a name with nothing left is
  ``table`` / ``column_<n>``;
- clashes are settled by file type (a spreadsheet before a Word document), then folder depth, then
  path: ``sales.csv`` is ``sales``,
  ``sales.xlsx`` ``sales_2``, ``old/sales.csv`` ``sales_3`` (the tool lists
  which file each table came from).
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["sql_name", "unique", "table_name"]

_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


@functools.lru_cache(maxsize=1)
def _reserved() -> frozenset[str]:
    """DuckDB's reserved keywords (``duckdb_keywords()``), lower case."""
    import duckdb

    con = duckdb.connect(":memory:")
    try:
        rows = con.execute("SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'").fetchall()
    finally:
        con.close()
    return frozenset(str(r[0]).lower() for r in rows)


def sql_name(text: str, *, prefix: str, fallback: str) -> str:
    """``text`` as an SQL identifier that needs no quotes (see the module rule).

    Args:
        text: a file stem, sheet title or column header.
        prefix: put before a name that starts with a digit ("t_" or "c_").
        fallback: the name when nothing usable is left of ``text``.

    Returns:
        A lower-case name of letters, digits and ``_``.
    """
    folded = unicodedata.normalize("NFKC", str(text)).lower()
    name = _NOT_WORD.sub("_", folded).strip("_")
    if not name:
        return fallback
    if name[0].isdigit():
        name = prefix + name
    if name in _reserved():
        name += "_"
    return name


def unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name_2``, ``name_3``... whichever is not in ``taken``
    (compared case-insensitively); the result is added to ``taken``."""
    out, n = name, 1
    while out.lower() in taken:
        n += 1
        out = f"{name}_{n}"
    taken.add(out.lower())
    return out


def table_name(stem: str, sheet: str | None = None) -> str:
    """The table name of a file (``sheet`` None) or of one sheet of a
    multi-sheet workbook, before clashes are settled."""
    text = stem if sheet is None else f"{stem}_{sheet}"
    return sql_name(text, prefix="t_", fallback="table")
