"""A second, independent query for an answer about a table: the last check before
a question about the goal's CSV/Excel files is called done.

Every other finish check knows one kind of question; on a kind it does not know, a
small model's wrong answer passed them all (held-out batches DZ and EZ,
docs/BENCHMARKS.md, 2026-12-07: a total taken for the top average, the first city
for the second most common, 16:00 for 15:15). This check knows no kind: the model
is asked, in a fresh and short prompt (the goal, the tables' columns and first rows,
today's date, and nothing of the task's history), for one SQL query whose result
answers the goal; the harness runs it (read-only, :mod:`tools.tables.query`) and
compares its rows with the answer. The answer and the query are two derivations:
when they agree the answer is let through; when they disagree the task is handed to
the user with both, since the harness cannot tell which is right, and a confident
wrong "done" is the worst outcome (../shared/DESIGN.md). A query that cannot be
written, fails twice or returns no rows or too many to compare settles nothing: the
answer stands as the other checks left it.

Measured on Qwen2.5-Coder-1.5B with the right and the wrong answers of 16 held-out
questions (docs/BENCHMARKS.md, 2026-12-07, twenty-third session). The same scheme for
a change (a query of the whole table a rewritten CSV file should hold, compared cell
by cell) was tried and left out: its queries were right for 1 of 9 changes.

No second query is asked where the harness worked the answer out itself
(:func:`derived_by_the_harness`) and the finish checks held the answer to it, and a
query that filters out the value the answer names (:func:`excludes_the_answer`)
settles nothing: it asked another question.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from .dates_said import dates_in
from .evidence import asks_only_a_question, goal_files
from .figures import asks_one_total, tables_named
from .numbers import normalise_number

__all__ = ["CrossCheck", "cross_check_prompt", "query_of_reply", "agreement", "table_question_files",
           "run_cross_check", "MAX_COMPARED_ROWS", "cell_text", "derived_by_the_harness", "excludes_the_answer"]

#: the most result rows the check compares with an answer (more: the query did not answer the question itself)
MAX_COMPARED_ROWS = 12
#: the most tables (a workbook's sheets) and rows per table the check works on
_MAX_TABLES, _MAX_ROWS = 4, 20_000
_PREVIEW_ROWS = 5
_TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx")  # the files the check queries
_SQL_START = re.compile(r"\b(?:WITH|SELECT)\b", re.IGNORECASE)
_LIMIT = re.compile(r"\bLIMIT\b", re.IGNORECASE)
_FENCED = re.compile(r"```(?:sql|duckdb)?\s*\n?(.*?)```", re.DOTALL | re.IGNORECASE)
_ANSWER_NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w])|(?<![\w.])\.\d+(?![\w])")
#: a literal a query filters out: ``x != 'Food'``, ``x <> 'Food'``, ``x NOT IN ('Food', 'Home')``, ``NOT LIKE 'F%'``
_EXCLUDED = re.compile(r"(?:!=|<>)\s*'([^']*)'|\bNOT\s+(?:I?LIKE\s*'([^']*)'|IN\s*\(([^)]*)\))", re.IGNORECASE)
_CLOCK = re.compile(r"\b(\d{1,2})[:.](\d{2})(?::\d{2})?\s*(am|pm|a\.m\.|p\.m\.)?", re.IGNORECASE)


@dataclass(frozen=True)
class CrossCheck:
    """What the second query found.

    Attributes:
        sql: the query run (after the model's reply was cut to its SQL).
        columns: the result's column names.
        rows: the result's rows as Python values (at most :data:`MAX_COMPARED_ROWS` + 1).
        total: how many rows the result has.
        verdict: "agrees", "disagrees" or "unsettled" (nothing to compare).
        why: for "disagrees", the result rows the answer does not give, as text.
    """

    sql: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    total: int
    verdict: str
    why: str = ""


def table_question_files(goal: str) -> list[str]:
    """The files a question goal asks about when every file it names is a CSV/TSV or
    Excel table ([] otherwise: a change is asked for, no file is named, or a named
    file is a document or a folder the check cannot query)."""
    if not asks_only_a_question(goal):
        return []
    outputs, inputs = goal_files(goal)
    if outputs or not inputs or not all(f.lower().endswith(_TABLE_SUFFIXES) for f in inputs):
        return []
    return list(dict.fromkeys(inputs))


def derived_by_the_harness(goal: str, workspace: str | Path) -> str:
    """What the harness worked out itself for ``goal`` (e.g. "the people under Maria at
    every level"), "" when nothing: an answer the finish checks let through after that
    is the harness's own, and a second query does not overrule it (batch JZ, JZG3 at
    4d23469: the right "5 people" under Maria, found by :mod:`.hierarchy`, handed off
    against a second query that counted one level, 2)."""
    from .balance import balance_asked
    from .changed_rows import changed_rows
    from .free_slot import first_free_slot
    from .hierarchy import reports_under
    from .list_cells import list_count_asked
    from .overlaps import overlapping
    from .sequence_gap import gaps_asked

    derived = ((reports_under, "everyone under a person, at every level"),
               (first_free_slot, "the first free slot of the day"),
               (changed_rows, "the rows that differ between the two tables"),
               (overlapping, "the meetings that overlap"),
               (balance_asked, "the balance from the opening balance and the movements"),
               (list_count_asked, "the items of each list cell"),
               (gaps_asked, "the numbers missing from the run"))
    return next((what for found, what in derived if found(goal, workspace) is not None), "")


def excludes_the_answer(sql: str, answer: str) -> bool:
    """Whether ``sql`` filters out a value the answer names (``category != 'Food'`` for
    "Food, 591"): its result then cannot contradict that answer (xlsx_lookup at 238dd43:
    the right "Food 591" handed off against the second query's Travel)."""
    for m in _EXCLUDED.finditer(sql):
        values = re.findall(r"'([^']*)'", m.group(3)) if m.group(3) is not None else [m.group(1) or m.group(2) or ""]
        for v in values:
            v = v.strip("%_ ").casefold()
            if len(v) >= 2 and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", answer.casefold()):
                return True
    return False


def cell_text(v: Any) -> str:
    """A result cell as ``table_query`` shows it ("NULL", ISO dates, cut long text)."""
    from tools.tables.query import _cell

    return _cell(v)


#: what the query must give, worded two ways: the second is asked when the first settles nothing (no query, or
#: one that failed twice or gave no rows). Each row carries the column that names it: "Ben and Dan" is the answer
#: to "which email addresses are missing the @ sign" as much as "ben.y.com" (DZI at a3c921a). A second wording is
#: never asked to overrule a first that disagrees: on EZA's wrong "Alba" it wrote a query that agreed with it.
ASKS = (
    "Write one DuckDB SELECT over these tables whose result is exactly the answer to the question: only the rows "
    "it asks for, each with the column that names it and the values asked for (every row that matches: no LIMIT; "
    "the highest or lowest one: ORDER BY ... LIMIT 1; the second highest: LIMIT 1 OFFSET 1; a total, average or "
    "count of each group, such as a month or a customer: GROUP BY it). Reply with the SQL only.",
    "Write one DuckDB SELECT whose rows answer this question, each row with the column that names it and the "
    "values the question is about. Reply with the SQL only.",
)


def cross_check_prompt(goal: str, tables: Sequence[Any], today: dt.date, wording: int = 0) -> list[dict[str, str]]:
    """The two chat messages (system, user) that ask for the query: each table's name,
    source file, row count, columns with their DuckDB types and first rows, the goal,
    then what the query must give in the ``wording``-th way of :data:`ASKS`.
    ``tables``: :class:`tools.tables.loading.Table` objects."""
    from tools.tables.query import format_table

    parts = []
    for t in tables:
        cols = ", ".join(f"{c.name} {c.sql_type}" for c in t.columns)
        rows = [tuple(c.values[i] for c in t.columns) for i in range(min(t.rows, _PREVIEW_ROWS))]
        preview = "\n".join(format_table([c.name for c in t.columns], rows))
        parts.append(f"Table {t.name} (the file {t.source}), {t.rows} rows. Columns: {cols}.\nFirst rows:\n{preview}")
    user = "\n\n".join(parts) + f"\n\nToday is {today.isoformat()} ({today:%A}).\nQuestion: {goal}\n{ASKS[wording]}"
    return [{"role": "system", "content": "You write DuckDB SQL queries. You reply with one SQL query and nothing "
                                          "else."},
            {"role": "user", "content": user}]


def query_of_reply(reply: str) -> str:
    """The SQL in a model's reply: a fenced block's text, else the text from its first
    SELECT or WITH; one statement, no trailing semicolon; "" when there is none."""
    fenced = _FENCED.search(reply)
    text = fenced.group(1) if fenced else reply
    m = _SQL_START.search(text)
    if m is None:
        return ""
    sql = text[m.start():].split(";")[0].strip()
    return sql if len(sql) > 10 else ""


def _number_forms(v: Any) -> set[str]:
    """The normal forms an answer may write the number ``v`` in: as it is and rounded to
    2, 1 and 0 decimals; a share of 1 or less also as a percent."""
    try:
        d = decimal.Decimal(str(v))
    except decimal.InvalidOperation:
        return set()
    if not d.is_finite():
        return set()
    values = [d] + ([d * 100] if abs(d) <= 1 and d != d.to_integral_value() else [])
    out = set()
    for x in values:
        out.add(normalise_number(format(abs(x), "f")))
        for places in ("0.01", "0.1", "1"):
            out.add(normalise_number(format(abs(x).quantize(decimal.Decimal(places), decimal.ROUND_HALF_UP), "f")))
    return out


def _clock_times(answer: str) -> set[tuple[int, int]]:
    out = set()
    for m in _CLOCK.finditer(answer):
        hour, minute = int(m.group(1)), int(m.group(2))
        half = (m.group(3) or "").lower().replace(".", "")
        if half == "pm" and hour < 12:
            hour += 12
        elif half == "am" and hour == 12:
            hour = 0
        if hour < 24 and minute < 60:
            out.add((hour, minute))
    return out


def _names_month(answer: str, month: int, year: int | None = None) -> bool:
    """Whether ``answer`` names the month (its name or short name, or "2026-02"), in
    ``year`` when the answer gives a year with it."""
    import calendar

    if year is not None and f"{year}-{month:02d}" in answer:
        return True
    m = re.search(rf"\b(?:{calendar.month_name[month]}|{calendar.month_abbr[month]})\b\.?(?:\s+(\d{{4}}))?", answer,
                  re.IGNORECASE)
    return m is not None and (year is None or m.group(1) is None or int(m.group(1)) == year)


def _said(v: Any, answer: str, numbers: set[str], dates: set[tuple[int, int, int | None]],
          clocks: set[tuple[int, int]]) -> bool | None:
    """Whether the answer gives the cell ``v`` (None: a cell no answer gives, e.g. NULL)."""
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (dt.datetime, dt.date)):
        day = v.date() if isinstance(v, dt.datetime) else v
        if isinstance(v, dt.datetime) and (v.hour, v.minute) != (0, 0):  # a time of day: its clock time
            return (v.hour, v.minute) in clocks
        return any(m == day.month and d == day.day and y in (None, day.year) for m, d, y in dates) or (
            day.day == 1 and _names_month(answer, day.month, day.year))  # DATE_TRUNC('month', ...): the month
    if isinstance(v, dt.time):
        return (v.hour, v.minute) in clocks
    if isinstance(v, dt.timedelta):
        return normalise_number(str(v.days)) in numbers if v.days else None
    if isinstance(v, (int, float, decimal.Decimal)):
        return bool(_number_forms(v) & numbers)
    text = " ".join(str(v).split())
    if not text:
        return None
    if re.fullmatch(r"-?[\d,]*\.?\d+", text):
        return bool(_number_forms(text.replace(",", "")) & numbers)
    found = dates_in(text)
    if found and found[0].text == text:
        return any(m == found[0].month and d == found[0].day and y in (None, found[0].year) for m, d, y in dates)
    return re.search(rf"(?<!\w){re.escape(text.casefold())}(?!\w)", answer.casefold()) is not None


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, decimal.Decimal)) and not isinstance(v, bool) and math.isfinite(v)


def _row_mates(tables: Sequence[Any]) -> dict[str, list[tuple[Any, ...]]]:
    """Each text cell of ``tables`` (casefolded) -> the rows that hold it."""
    mates: dict[str, list[tuple[Any, ...]]] = {}
    for t in tables:
        for i in range(t.rows):
            row = tuple(c.values[i] for c in t.columns)
            for v in row:
                if isinstance(v, str) and len(v.strip()) >= 3:
                    mates.setdefault(v.strip().casefold(), []).append(row)
    return mates


def agreement(answer: str, rows: Sequence[Sequence[Any]], total: int, *, limited: bool = True,
              tables: Sequence[Any] = (), columns: Sequence[str] = (), one_total: bool = False) -> tuple[str, str]:
    """``(verdict, why)``: "agrees" when the answer gives a cell of the result's first
    row and, where it gives cells of several rows (a list) or the query has no LIMIT
    (``limited`` False: every row it selects is the answer), a cell of each row;
    "disagrees" otherwise, ``why`` naming the rows left out; "unsettled" when the
    result has no rows, more than :data:`MAX_COMPARED_ROWS`, or a first row with no
    cell an answer could give. A text cell of a row of ``tables`` (the goal's tables)
    is given too where the answer gives another cell of that row: "Ben and Dan" names
    the rows of the addresses "ben.y.com" and "dan-at-w.org" (DZI at a3c921a). A month
    is given by its name: a first of the month (``DATE_TRUNC``) or, in a result column
    named for months (``columns``: the result's names), a number from 1 to 12. When the
    goal asks for one total (``one_total``) and each row is one number and nothing
    else, the answer may give their sum: a query of one sum per sheet (``UNION ALL``)
    parts a total across two sheets (xlsx_two_sheet_total at 077ece7: 1034 and 991.5
    for the right 2025.5)."""
    if total == 0 or total > MAX_COMPARED_ROWS or not rows:
        return "unsettled", ""
    numbers = {normalise_number(m.group(0)) for m in _ANSWER_NUMBER.finditer(answer)}
    dates = {(d.month, d.day, d.year) for d in dates_in(answer)}
    clocks = _clock_times(answer)
    mates = _row_mates(tables) if tables else {}

    def said(v: Any) -> bool | None:
        own = _said(v, answer, numbers, dates, clocks)
        if own or not isinstance(v, str) or v.strip().casefold() not in mates:
            return own
        return any(_said(w, answer, numbers, dates, clocks) for row in mates[v.strip().casefold()] for w in row
                   if isinstance(w, str) and w != v and len(w.strip()) >= 2) or own

    months = [bool(re.search(r"month", str(c), re.IGNORECASE)) for c in columns]

    def said_in(v: Any, i: int) -> bool | None:  # SELECT month(date) AS month: 2 is "February"
        own = said(v)
        if not own and i < len(months) and months[i] and isinstance(v, int) and 1 <= v <= 12:
            return _names_month(answer, v) or own
        return own

    cells = [[said_in(v, i) for i, v in enumerate(row)] for row in rows]
    if all(s is None for s in cells[0]):
        return "unsettled", ""
    given = [any(s for s in row if s) for row in cells]
    if given[0] and (all(given) or limited and sum(given) < 2):
        return "agrees", ""
    if one_total and len(rows) == total and all(len(r) == 1 and _is_number(r[0]) for r in rows) and \
            _number_forms(sum(decimal.Decimal(str(r[0])) for r in rows)) & numbers:
        return "agrees", ""
    missing = [row for row, g in zip(rows, given) if not g]
    return "disagrees", "; ".join(", ".join(cell_text(v) for v in row) for row in missing[:5])


def _tables_of(workspace: str | Path, files: Sequence[str]) -> tuple[list[Any], list[Any]]:
    """``(the goal's tables, every table of the workspace)``; ([], []) when none loads."""
    from sandbox import Workspace
    from tools.base import ToolContext
    from tools.tables.loading import load_tables

    try:
        every = load_tables(ToolContext(workspace=Workspace(Path(workspace))))[0]
    except Exception:  # noqa: BLE001 - a file that cannot be loaded: nothing to check with
        return [], []
    # a workbook's table of every sheet ("x.xlsx, all sheets") is one of its sheets again: the sheets are shown
    return list({id(t): t for f in files for t in tables_named(every, f)}.values()), every


def _run(sql: str, tables: list[Any]) -> tuple[tuple[str, ...], list[tuple], int]:
    """Run ``sql`` read-only over ``tables``. Raises ToolError or duckdb.Error."""
    from tools.tables.query import _connect, _files_as_tables, run_query

    sql, _ = _files_as_tables(sql, tables)
    con = _connect(tables)
    try:
        names, rows, total = run_query(con, sql, max_rows=MAX_COMPARED_ROWS + 1, timeout_s=10.0)
    finally:
        con.close()
    return tuple(names), rows, total


def run_cross_check(answer: str, goal: str, workspace: str | Path, ask: Callable[[list[dict[str, str]]], str],
                    today: dt.date) -> CrossCheck | None:
    """Ask for the second query with ``ask`` (messages -> the model's reply text), run it
    and compare its result with ``answer``; when that settles nothing, ask once more in
    the second wording of :data:`ASKS`. None when the goal is no question about table files only, or their
    tables cannot be loaded or are too large; a query that fails is asked for once
    more with the error. Errors of ``ask`` propagate."""
    files = table_question_files(goal)
    if not files:
        return None
    mine, every = _tables_of(workspace, files)
    if not mine or len(mine) > _MAX_TABLES or any(t.rows > _MAX_ROWS or not t.columns for t in mine):
        return None
    one_total = asks_one_total(goal)
    first = _derive(answer, cross_check_prompt(goal, mine, today), every, mine, ask, one_total)
    return first if first.verdict != "unsettled" else _derive(answer, cross_check_prompt(goal, mine, today, 1),
                                                                every, mine, ask, one_total)


def _derive(answer: str, messages: list[dict[str, str]], tables: list[Any], mine: list[Any],
            ask: Callable[[list[dict[str, str]]], str], one_total: bool = False) -> CrossCheck:
    """One derivation: ask for the query (once more with the error when it fails), run
    it over ``tables`` and compare its result with ``answer`` (``mine``: the goal's
    tables; ``one_total``: the goal asks for one total, see :func:`agreement`)."""
    import duckdb
    from tools.base import ToolError

    sql = ""
    for _ in range(2):
        sql = query_of_reply(ask(messages))
        if not sql:
            break
        try:
            columns, rows, total = _run(sql, tables)
        except (ToolError, duckdb.Error) as exc:
            error = " ".join(str(exc).split())[:300]
            messages = [*messages, {"role": "assistant", "content": sql},
                        {"role": "user", "content": f"That query failed: {error}\nReply with the corrected SQL only."}]
            continue
        verdict, why = agreement(answer, rows, total, limited=bool(_LIMIT.search(sql)), tables=mine, columns=columns,
                                 one_total=one_total)
        if verdict == "disagrees" and excludes_the_answer(sql, answer):  # it asked another question
            verdict, why = "unsettled", ""
        return CrossCheck(sql=sql, columns=columns, rows=tuple(tuple(r) for r in rows), total=total,
                          verdict=verdict, why=why)
    return CrossCheck(sql=sql, columns=(), rows=(), total=0, verdict="unsettled")

