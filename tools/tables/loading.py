"""Load the workspace's CSV/TSV files, workbook sheets and Word tables as typed columns.

Every byte is read through the task's workspace (``ctx.workspace``: no symlink
is followed, nothing outside the workspace is reachable); CSV text is decoded
and split by :mod:`tools.office.csvtools`, workbooks are opened by
:func:`tools.office.xlsx.open_workbook` after its hostile-file checks (cached
values of formulas; a formula never computed by a spreadsheet program reads as
empty), Word documents by :func:`tools.office.docx_read.docx_tables` (each table
of the body; a document without tables gives none, one that cannot be read is
passed over without a note: its tables are incidental to a query).

A table's first non-empty row holds the column names; fully empty rows are
dropped, and so are a sheet's closing total rows ("Total" and numbers: a sum
would count them twice), which :attr:`Table.left_out` shows. Column types are
inferred from all values: BOOLEAN (true/false), BIGINT, DECIMAL(18,s) for numbers with at most 6 decimals (so sums of money are
exact, not 7167559.57999999), DOUBLE, DATE, TIMESTAMP, TIME, else VARCHAR;
empty cells are NULL.
Numbers in text are plain ("1200.50") or amounts in one currency ("1,200.00 EUR",
"$5", read by :func:`tools.office.amounts.parse_amount`); a column of amounts in two
currencies stays text, and so does "1,200" alone (a comma that may be a decimal
comma). A column with leading zeros ("007", zip codes, ids) stays text. A sheet
column mixing numbers and such texts is numeric.
"""

from __future__ import annotations

import datetime as dt
import decimal
import posixpath
import re
from dataclasses import dataclass
from typing import Any

from tools.base import ToolContext, ToolError
from tools.office.amounts import Amount, parse_amount
from tools.tables.naming import sql_name, table_name, unique

__all__ = ["Column", "Table", "TABLE_SUFFIXES", "DOCX_TABLE", "FIRST_SHEET", "MAX_TABLE_FILES", "MAX_TABLE_FILE_BYTES",
           "load_tables", "infer_column"]

TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".xlsm", ".docx")
"""File types read as tables (a .docx: its tables)."""

DOCX_TABLE = "table"
"""How a Word document's table is named among its tables: "table 2" (its table ``<file>_table_2``)."""

MAX_TABLE_FILES = 50
"""Most table files loaded for one query (the first ones in path order)."""

MAX_TABLE_FILE_BYTES = 20 * 1024 * 1024
"""Largest table file loaded (bytes); larger ones are skipped with a note."""

_CACHE_KEY = "tables.loaded"
_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$")
_INT64 = (-(1 << 63), (1 << 63) - 1)
MAX_SCALE = 6
"""Most decimals a number may have for its column to be DECIMAL rather than DOUBLE."""


def _decimal_type(texts: list[str]) -> str:
    """``DECIMAL(18,s)`` when every plain number in ``texts`` fits it exactly, else ``DOUBLE``."""
    scale = whole = 0
    for t in texts:
        digits = t.lstrip("+-")
        if "e" in digits.lower() or not _FLOAT.match(t):
            return "DOUBLE"
        head, _, tail = digits.partition(".")
        scale, whole = max(scale, len(tail)), max(whole, len(head.lstrip("0")))
    return f"DECIMAL(18,{scale})" if scale <= MAX_SCALE and whole + scale <= 18 else "DOUBLE"


@dataclass(frozen=True)
class Column:
    """One typed column: ``sql_type`` is a DuckDB type name; ``values`` holds
    Python values of that type (None for NULL), one per row; ``header`` is the
    column's name as the file writes it ("Order" for the SQL name ``order_``; ""
    when not known)."""

    name: str
    sql_type: str
    values: list[Any]
    header: str = ""


@dataclass(frozen=True)
class Table:
    """One queryable table: its SQL ``name``, where it came from (``source``,
    e.g. "sales.csv" or "expenses.xlsx, sheet Q1") and its columns (equal length)."""

    name: str
    source: str
    columns: tuple[Column, ...]
    left_out: str = ""
    """The sheet's closing total rows, shown ("'Total', 389.9"), which the table leaves out; "" when none."""

    @property
    def rows(self) -> int:
        return len(self.columns[0].values) if self.columns else 0


def _text_type(cells: list[str]) -> str:
    """The narrowest type every non-empty text cell parses as."""
    if all(c.lower() in ("true", "false") for c in cells):
        return "BOOLEAN"
    if any(len(c.lstrip("+-")) > 1 and c.lstrip("+-")[0] == "0" and c.lstrip("+-")[1].isdigit() for c in cells):
        return "VARCHAR"
    if all(_INT.match(c) for c in cells) and all(_INT64[0] <= int(c) <= _INT64[1] for c in cells):
        return "BIGINT"
    if all(_FLOAT.match(c) for c in cells):
        return _decimal_type(cells)
    amounts = [parse_amount(c) for c in cells]
    if _money(amounts):
        return _decimal_type([a.number for a in amounts if a is not None])
    if all(_DATE.match(c) for c in cells):
        return "DATE"
    if all(_DATE.match(c) or _STAMP.match(c) for c in cells):
        return "TIMESTAMP"
    return "VARCHAR"


def _money(amounts: list[Amount | None]) -> bool:
    """Whether every cell is an amount in at most one currency, and the column shows
    it is money: a currency named, or a grouped number with decimals ("1,200.00").
    multistep_invoices_memo at 043112d: "1,200.00 EUR" written as text into a new
    workbook, and ``SUM(amount)`` failed on the VARCHAR column."""
    if not amounts or None in amounts:
        return False
    units = {a.unit for a in amounts if a is not None and a.unit}
    return len(units) <= 1 and (bool(units) or any(a is not None and a.grouped and a.decimals for a in amounts))


def _from_text(c: str, sql_type: str) -> Any:
    if sql_type in ("BIGINT", "DOUBLE") or sql_type.startswith("DECIMAL"):
        amount = parse_amount(c)
        c = amount.number if amount is not None else c
    if sql_type == "BOOLEAN":
        return c.lower() == "true"
    if sql_type == "BIGINT":
        return int(c)
    if sql_type == "DOUBLE":
        return float(c)
    if sql_type.startswith("DECIMAL"):
        return decimal.Decimal(c)
    if sql_type == "DATE":
        return dt.date.fromisoformat(c)
    if sql_type == "TIMESTAMP":
        return dt.datetime.fromisoformat(c)
    return c


def _show(v: Any) -> str:
    from tools.office.xlsx import show_value

    return show_value(v)


def infer_column(values: list[Any]) -> tuple[str, list[Any]]:
    """The DuckDB type of a column and its values converted to it.

    Args:
        values: cells as read: strings (CSV) or openpyxl values (str, int,
            float, bool, datetime, date, time, None).

    Returns:
        ``(sql_type, converted values)``; blank strings and None become None.
    """
    cells = [v.strip() if isinstance(v, str) else v for v in values]
    cells = [None if v == "" else v for v in cells]
    present = [v for v in cells if v is not None]
    if not present:
        return "VARCHAR", [None] * len(cells)
    kinds = {type(v) for v in present}
    if kinds == {str}:
        sql_type = _text_type(present)
        return sql_type, [None if v is None else _from_text(v, sql_type) for v in cells]
    if kinds == {bool}:
        return "BOOLEAN", cells
    if kinds <= {int, float} and bool not in kinds:
        if kinds == {int} and all(_INT64[0] <= v <= _INT64[1] for v in present):
            return "BIGINT", cells
        sql_type = _decimal_type([repr(float(v)) if isinstance(v, float) else str(v) for v in present])
        if sql_type == "DOUBLE":
            return "DOUBLE", [None if v is None else float(v) for v in cells]
        return sql_type, [None if v is None else decimal.Decimal(repr(v) if isinstance(v, float) else str(v))
                          for v in cells]
    if kinds <= {dt.datetime, dt.date}:
        stamps = [v if isinstance(v, dt.datetime) else dt.datetime.combine(v, dt.time(0)) for v in present]
        if all(s.time() == dt.time(0) for s in stamps):
            return "DATE", [None if v is None else (v.date() if isinstance(v, dt.datetime) else v) for v in cells]
        return "TIMESTAMP", [None if v is None else (v if isinstance(v, dt.datetime) else dt.datetime.combine(v, dt.time(0)))
                             for v in cells]
    if kinds == {dt.time}:
        return "TIME", cells
    if str in kinds and kinds <= {str, int, float}:  # numbers, and numbers or amounts typed as text
        texts = [v if isinstance(v, str) or v is None else (repr(v) if isinstance(v, float) else str(v)) for v in cells]
        sql_type = _text_type([t for t in texts if t is not None])
        if sql_type in ("BIGINT", "DOUBLE") or sql_type.startswith("DECIMAL"):
            return sql_type, [None if t is None else _from_text(t, sql_type) for t in texts]
    return "VARCHAR", [None if v is None else _show(v) for v in cells]


_TOTAL_LABEL = re.compile(r"(grand\s+|sub-?)?totals?\b|sum\b", re.IGNORECASE)


def _is_total_row(row: list[Any]) -> bool:
    """A row of a sheet's closing totals: a first filled cell "Total" (or "Grand
    total", "Subtotal", "Sum", up to 30 characters) and only numbers, amounts or
    empty cells (a formula never computed) after it."""
    cells = [v for v in row if v is not None and str(v).strip() != ""]
    if not cells or not isinstance(cells[0], str) or len(cells[0]) > 30 or not _TOTAL_LABEL.match(cells[0].strip()):
        return False
    return all(isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool)
               or isinstance(v, str) and (_FLOAT.match(v.strip()) or parse_amount(v) is not None) for v in cells[1:])


def _footer(body: list[list[Any]]) -> tuple[list[list[Any]], str]:
    """``(body without its closing total rows, those rows shown)``. xlsx_total at
    8b795c9: Qwen 1.5B wrote "Total" and 389.9 under the amounts, queried
    ``SUM(amount)`` again and got 779.8 (the total counted twice), and wrote that too."""
    cut = len(body)
    while cut > 2 and len(body) - cut < 3 and _is_total_row(body[cut - 1]):
        cut -= 1
    shown = "; ".join(", ".join(repr(v) if isinstance(v, str) else _show(v) for v in row
                                if v is not None and str(v).strip() != "") for row in body[cut:])
    return body[:cut], shown


def _columns(rows: list[list[Any]]) -> tuple[tuple[Column, ...], str]:
    """Typed columns of a grid whose first non-empty row is the header, and the
    closing total rows left out of them (shown; "" when none)."""
    rows = [r for r in rows if any(v is not None and str(v).strip() != "" for v in r)]
    if not rows:
        return (), ""
    header, (body, left_out) = rows[0], _footer(rows[1:])
    rows = [header, *body]
    width = max(len(r) for r in rows)
    taken: set[str] = set()
    out = []
    for i in range(width):
        raw = header[i] if i < len(header) else None
        values = [r[i] if i < len(r) else None for r in body]
        label = "" if raw is None else _show(raw)
        if not label.strip() and all(v is None or str(v).strip() == "" for v in values):
            continue  # an empty column (e.g. a stray formatted column in a sheet)
        name = unique(sql_name(label, prefix="c_", fallback=f"column_{i + 1}"), taken)
        sql_type, converted = infer_column(values)
        out.append(Column(name, sql_type, converted, label.strip()))
    return tuple(out), left_out


def _csv_grids(ctx: ToolContext, path: str) -> list[tuple[str | None, list[list[Any]]]]:
    from tools.office._common import read_doc_bytes
    from tools.office.csvtools import decode_text, parse_csv

    data = read_doc_bytes(ctx, path, limit=MAX_TABLE_FILE_BYTES)
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ToolError("binary, not CSV")
    text, _ = decode_text(data)
    rows, _ = parse_csv(text, "\t" if path.lower().endswith(".tsv") else None)
    return [(None, rows)]


def _xlsx_grids(ctx: ToolContext, path: str) -> list[tuple[str | None, list[list[Any]]]]:
    from tools.office._common import read_doc_bytes
    from tools.office.xlsx import open_workbook, should_stream

    data = read_doc_bytes(ctx, path, limit=MAX_TABLE_FILE_BYTES)
    stream = should_stream(data)
    wb = open_workbook(data, path, data_only=True, read_only=stream)
    try:
        sheets = [(ws.title, [list(r) for r in ws.iter_rows(values_only=True)]) for ws in wb.worksheets]
    finally:
        if stream:
            wb.close()
    return sheets


def _docx_grids(ctx: ToolContext, path: str) -> list[tuple[str | None, list[list[Any]]]]:
    from tools.office._common import read_doc_bytes
    from tools.office.docx_read import docx_tables

    data = read_doc_bytes(ctx, path, limit=MAX_TABLE_FILE_BYTES)
    return [(f"{DOCX_TABLE} {i}", rows) for i, rows in enumerate(docx_tables(data, path), 1)]


def _table_files(ctx: ToolContext) -> tuple[list[Any], int]:
    """(walk entries of table files, spreadsheets before Word documents, then shallowest first, then by
    path; how many more were not taken)."""
    from tools.files._common import sandboxed, workspace_of

    ws = workspace_of(ctx)
    with sandboxed():
        found = [e for e in ws.walk(".") if e.kind == "file" and e.path.lower().endswith(TABLE_SUFFIXES)
                 and not posixpath.basename(e.path).startswith(("~$", ".~lock"))]
    # files nearer the root win name clashes; a spreadsheet wins over a Word document's table
    found.sort(key=lambda e: (e.path.lower().endswith(".docx"), e.path.count("/"), e.path))
    return found[:MAX_TABLE_FILES], max(0, len(found) - MAX_TABLE_FILES)


def load_tables(ctx: ToolContext) -> tuple[list[Table], list[str]]:
    """Every table of the workspace, named by the rule in :mod:`tools.tables.naming`.

    Files unchanged since the last call of this task (same size and mtime) are
    taken from ``ctx.state``. A file that cannot be read is skipped and named
    in the notes.

    Returns:
        ``(tables, shallowest file first then by path; notes)``: notes are one line each ("skipped
        big.csv: larger than 20 MiB").

    Raises:
        ToolError: no workspace is open.
    """
    cache: dict[str, Any] = ctx.state.setdefault(_CACHE_KEY, {})
    entries, more = _table_files(ctx)
    notes = [f"{more} more table files not loaded (limit {MAX_TABLE_FILES})"] if more else []
    tables: list[Table] = []
    taken: set[str] = set()
    unions: list[tuple[str, str, list[tuple[str | None, tuple[Column, ...], str]]]] = []
    for entry in entries:
        document = entry.path.lower().endswith(".docx")
        key = (entry.size, entry.mtime)
        hit = cache.get(entry.path)
        if hit is None or hit[0] != key:
            if entry.size > MAX_TABLE_FILE_BYTES:
                if document:
                    continue
                notes.append(f"skipped {entry.path}: larger than {MAX_TABLE_FILE_BYTES >> 20} MiB")
                continue
            reader = _csv_grids if entry.path.lower().endswith((".csv", ".tsv")) else _docx_grids \
                if document else _xlsx_grids
            try:
                grids = [(sheet, *_columns(rows)) for sheet, rows in reader(ctx, entry.path)]
            except ToolError as exc:
                if not document:
                    notes.append(f"skipped {entry.path}: {str(exc).rstrip('.')}")
                continue
            hit = (key, grids)
            cache[entry.path] = hit
        grids = [(sheet, columns, left_out) for sheet, columns, left_out in hit[1] if columns]
        stem = posixpath.splitext(posixpath.basename(entry.path))[0]
        single = len(grids) == 1
        for sheet, columns, left_out in grids:
            name = unique(table_name(stem, None if single else sheet), taken)
            source = entry.path if sheet is None else f"{entry.path}, {sheet}" if document \
                else f"{entry.path}, sheet {sheet}"
            tables.append(Table(name, source, columns, left_out))
        if not single and not document:  # a Word document's tables are not pages of one table
            unions.append((stem, entry.path, grids))
    for stem, path, grids in unions:  # after every file: a union never takes a name a file would get
        if table_name(stem).lower() in taken:
            continue
        # the sheets shaped like the first: a sheet a task adds (a summary, a top 5) never changes what the
        # workbook's name reads. xlsx_top_vendors at 0417c73: after the sheet "Top 5" was added to spending.xlsx,
        # "FROM spending" (its table while it had one sheet) failed, and the task stalled.
        alike = [g for g in grids if [c.name for c in g[1]] == [c.name for c in grids[0][1]]]
        union = _all_sheets(path, [(sheet, columns) for sheet, columns, _ in alike],
                            every=len(alike) == len(grids)) if len(alike) > 1 else None
        if union is not None:
            left_out = "; ".join(f"sheet {sheet}: {left}" for sheet, _, left in alike if left)
            tables.append(Table(unique(table_name(stem), taken), union[0], union[1], left_out))
        elif len(alike) == 1:
            sheet, columns, left_out = alike[0]
            tables.append(Table(unique(table_name(stem), taken), f"{path}, sheet {sheet} {FIRST_SHEET}", columns,
                                left_out))
    return tables, notes


def _all_sheets(path: str, grids: list[tuple[str | None, tuple[Column, ...]]],
                every: bool = True) -> tuple[str, tuple[Column, ...]] | None:
    """``(source, columns)`` of one table holding the sheets ``grids`` (every sheet
    of the workbook, or with ``every`` False some of them, named in the source) when
    they have the same column names and types, with a first column ``sheet``
    naming each row's sheet; None when the sheets differ. xlsx_two_sheet_total at
    462ec82: Qwen 1.5B added two sheets' sums in one SELECT and wrote
    ``WHERE category = 'Travel' + (SELECT ...)``; ``SELECT SUM(amount) FROM expenses
    WHERE category = 'Travel'`` needs no such join."""
    names = [c.name for c in grids[0][1]]
    if any([c.name for c in columns] != names for _, columns in grids[1:]) or SHEET_COLUMN in names:
        return None
    types = [_wider({columns[i].sql_type for _, columns in grids}) for i in range(len(names))]
    if None in types:
        return None
    sheets = Column(SHEET_COLUMN, "VARCHAR", [str(sheet) for sheet, columns in grids for _ in columns[0].values])
    merged = tuple(Column(name, str(sql_type), [v for _, columns in grids for v in columns[i].values],
                          grids[0][1][i].header) for i, (name, sql_type) in enumerate(zip(names, types)))
    which = f"all {len(grids)} sheets" if every else "sheets " + ", ".join(str(sheet) for sheet, _ in grids)
    return f"{path}, {which} (column {SHEET_COLUMN} names the sheet)", (sheets, *merged)


def _wider(types: set[str]) -> str | None:
    """The one SQL type that holds every type in ``types`` exactly (BIGINT and
    DECIMAL(18,1) -> DECIMAL(18,1); with DOUBLE -> DOUBLE), None when they do not mix."""
    if len(types) == 1:
        return next(iter(types))
    if not all(t in ("BIGINT", "DOUBLE") or t.startswith("DECIMAL") for t in types):
        return None
    if "DOUBLE" in types:
        return "DOUBLE"
    scale = max(int(t[t.index(",") + 1:-1]) if t.startswith("DECIMAL(") else 0 for t in types)
    return f"DECIMAL(18,{scale})"


FIRST_SHEET = "(the first sheet)"
"""How a workbook's own table says it reads the first sheet only (its sheets differ)."""

SHEET_COLUMN = "sheet"
"""The column of a workbook's all-sheets table that names each row's sheet."""
