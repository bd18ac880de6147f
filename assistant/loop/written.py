"""Checks on what the task's changes must hold, run once the task changed
something: the rows, columns, cells and sheets the goal asks a written table to
have (``row_to_add``, ``column_sum``, ``goal_columns``, ``asked_count``,
``SHEET_NAMED`` ...), a summary shorter than its source that holds what the goal
asks it to include (``summary_too_long``, ``summary_lacks``, ``summary_points``),
the change made where the goal asks (the calendar or the notes: ``store_goal``;
files moved or sorted: ``goal_folder``, ``SORT_BY_TYPE``; the named file itself,
not a copy), file names kept when the goal says so, and files read before what
they say is written.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from datetime import date
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..state.models import CallRecord
from .evidence import _CELL_NUMBER, _FENCED, _FENCE_LINE, _HIGHEST, _LOWEST, _MUST_CHANGE, Evidence, _values, \
    goal_files, norm_path
from .answer_form import _result_rows, answer_to_copy
from .dates_said import dates_in
from .recap import call_to_copy
from .table_goal import MERGED, TOTAL_LABEL, goal_columns, goal_value, merge_query, sort_order, split_outputs

__all__ = ["SHEET_NAMED", "ASKS_A_SHEET", "row_to_add", "column_sum", "total_said_wrong", "goal_columns",
           "summary_too_long", "summary_lacks", "summary_points", "store_goal", "SORT_BY_TYPE", "goal_folder",
           "asked_count", "asked_texts", "wrong_end_time", "column_to_add", "column_cells", "files_to_delete",
           "merge_of_goal", "csv_column_text"]


_SUMMARY = re.compile(r"\bsummar(y|ise|ize|ies)\b", re.IGNORECASE)


SHEET_NAMED = re.compile(r"\bsheet\s+(?:named|called|titled)\s+[\"\u201c']([^\"\u201d']{1,31})[\"\u201d']", re.IGNORECASE)


_TEXT_IN_COLUMN = re.compile(r"[\"\u201c]([^\"\u201d]{1,40})[\"\u201d]\s+in\s+column\s+([A-Z]{1,2})\b")


_AGG_IN_COLUMN = re.compile(r"\bthe (?P<fn>sum|total|average|mean) of (?:the |its )?[\"'\u201c]?(?P<col>[\w ]{1,30}?)"
                            r"[\"'\u201d]? column\s+in\s+column\s+(?P<letter>[A-Z]{1,2})\b", re.IGNORECASE)
ASKS_A_SHEET = re.compile(r"\b(sheet|tab|worksheet)s?\b", re.IGNORECASE)


def asked_texts(goal: str) -> dict[str, str]:
    """The texts ``goal`` quotes for a column, lowercased, and their column letters
    ('"Total" in column B' -> {"total": "B"})."""
    return {text.strip().lower(): col for text, col in _TEXT_IN_COLUMN.findall(goal)}


#: "Change the price of Pad to 3.50": the column, the row's own text and the new value
_CELL_CHANGE = re.compile(r"\b(?:change|set|update|correct|fix|make)\s+(?:the\s+)?(?P<col>[A-Za-z][\w ]{0,30}?)\s+"
                          r"(?:of|for)\s+(?:the\s+)?(?P<row>[\w.&' -]{1,40}?)\s+to\s+(?P<new>[^\s,;]+?)"
                          r"(?=[.,;!?]?(?:\s|$))", re.IGNORECASE)


def cell_to_change(goal: str, workspace: str | Path, path: str) -> tuple[str, Any, dict[str, Any]] | None:
    """``(cell, the value it holds, the xlsx_write arguments that change it)`` when the
    goal changes one value of workbook ``path`` by its column and its row's text
    ("Change the price of Pad to 3.50 in products.xlsx": the Price cell of the one row
    holding "Pad", set to 3.5); None when the goal says no such change or the workbook
    has no one such cell. A held-out task at f42fc25 wrote 3.5 into B2, Pen's price."""
    m = _CELL_CHANGE.search(goal)
    if m is None or not path.lower().endswith(".xlsx"):
        return None
    from openpyxl.utils import get_column_letter

    col, row = m.group("col").strip().lower(), m.group("row").strip().lower()
    new: Any = m.group("new")
    if re.fullmatch(r"-?\d+(?:\.\d+)?", new):
        new = float(new) if "." in new else int(new)
    for name, rows in table_cells(Path(workspace) / path):
        filled = [i for i, r in enumerate(rows) if any(v not in (None, "") for v in r)]
        header = [str(v or "").strip().lower() for v in rows[filled[0]]] if len(filled) > 1 else []
        j = next((k for k, h in enumerate(header) if h in (col, col.rstrip("s"), f"{col}s")), None)
        hits = [i for i in filled[1:] if any(str(v or "").strip().lower() == row for v in rows[i])]
        if j is None or len(hits) != 1:
            continue
        ref = f"{get_column_letter(j + 1)}{hits[0] + 1}"
        held = rows[hits[0]][j] if j < len(rows[hits[0]]) else None
        return ref, held, {"path": path, "sheet": name, "cells": [{"cell": ref, "value": new}]}
    return None


def same_cell_value(held: Any, value: Any) -> bool:
    """Whether a cell holding ``held`` (as openpyxl reads it) would hold the same after
    ``value`` (as an ``xlsx_write`` call gives it: "3.2", 3.2, "Pad") is written."""
    if held is None or value is None:
        return held is None and value in (None, "")
    if isinstance(held, (int, float)) and not isinstance(held, bool):
        try:
            return abs(float(str(value).replace(",", "")) - float(held)) < 1e-9
        except ValueError:
            return False
    return str(held).strip() == str(value).strip()


def _cell_left_unchanged(ev: Evidence) -> str:
    """The doubt when the goal changes one cell of the workbook it names
    (:func:`cell_to_change`) and that cell does not hold the new value ("" otherwise),
    with the call that sets it."""
    books = [p for p in goal_files(ev.goal)[1] if p.lower().endswith(".xlsx")]
    found = cell_to_change(ev.goal, ev.workspace, books[0]) if len(books) == 1 else None
    if found is None:
        return ""
    ref, held, args = found
    want = args["cells"][0]["value"]
    if same_cell_value(held, want):
        return ""
    return (f"{books[0]}'s {ref} still holds {held!r}, and the task sets it to {want!r}: "
            f"{call_to_copy('xlsx_write', args)}")


def row_to_add(goal: str, workspace: str | Path, path: str, skip: Iterable[str] = ()) -> dict[str, Any] | None:
    """The ``xlsx_write`` arguments that add the row ``goal`` describes below the table
    of workbook ``path``: each quoted text in its column ('"Total" in column B'), and
    "the sum (average) of the X column in column Y" as a =SUM (=AVERAGE) of column X's
    data cells. The table is the first sheet with a header and data, sheets named in
    ``skip`` left out; when its last row already holds the quoted texts (in any column),
    that row is the one to write (the data above it). None when the goal quotes no text for a column
    or the workbook cannot be read."""
    wanted = _TEXT_IN_COLUMN.findall(goal)
    if not wanted or not path.lower().endswith(".xlsx"):
        return None
    skipped = {n.strip().lower() for n in skip}
    sheets = [(name, rows) for name, rows in table_cells(Path(workspace) / path)
              if name.strip().lower() not in skipped]
    for name, rows in sheets:
        filled = [i for i, r in enumerate(rows) if any(v not in (None, "") for v in r)]
        if len(filled) < 2:
            continue
        below = filled[-1] + 2  # the 1-based row under the last filled one
        from openpyxl.utils import get_column_letter

        last = [str(v or "").strip().lower() for v in rows[filled[-1]]]
        if len(filled) > 2 and (all(text.strip().lower() in last for text, _ in wanted)
                                or _holds_the_total(goal, rows, filled)):
            # the row is there already (xlsx_total at 8459f99: B10 "Total" and C10 =SUM(C2:C9) written, then the
            # same call again refused as writing over "data" row 10, with a second total row to copy, at row 11; at
            # 1c551ec "Total" went into A10, not B10: the row is still the one to write, in the asked columns)
            below = filled[-1] + 1
        header = [str(v or "").strip().lower() for v in rows[filled[0]]]
        cells: list[dict[str, Any]] = [{"cell": f"{letter}{below}", "value": text} for text, letter in wanted]

        for m in _AGG_IN_COLUMN.finditer(goal):
            col = m.group("col").strip().lower()
            if col in header:
                src = get_column_letter(header.index(col) + 1)
                fn = "SUM" if m.group("fn").lower() in ("sum", "total") else "AVERAGE"
                cells.append({"cell": f"{m.group('letter')}{below}",
                              "value": f"={fn}({src}{filled[0] + 2}:{src}{below - 1})"})
        return {"path": path, "sheet": name, "cells": cells}
    return None


#: a goal that adds a row to a table: "Add a row for ...", "append an entry", "add Coffee machine (120) to ..."
_ADDS_A_ROW = re.compile(r"\b(add|append|insert|put)\b(?![^.?!]*\b(total|sum|average|formula|sheet|column)s?\b)",
                         re.IGNORECASE)


#: "Add Olive Oil with a price of 8.90 to ...", "Add a row for March with 420 to ...", "Add Coffee machine (120) to ..."
_ROW_ITEM = re.compile(r"\b(?:add|append|insert)\s+(?:an?\s+(?:new\s+)?(?:row|line|entry)\s+(?:for\s+)?)?"
                       r"(?P<item>[A-Za-z][\w .'&-]{0,60}?)\s*(?:,|\(|\bwith\b|\bat\b|\bfor\b|\bcosting\b|\bpriced\b)"
                       r"[^.\d]{0,30}?(?P<n>\d+(?:\.\d+)?)(?![\w.]*\.(?:csv|tsv)\b)", re.IGNORECASE)


def csv_row_to_add(goal: str, text: str) -> str | None:
    """The CSV line a goal adds to a two-column table of a name and a number ("Add Olive
    Oil with a price of 8.90 to prices.csv" -> "Olive Oil,8.90"), ``text`` being the
    file's text; None when the goal names no such item and number, the table is not
    two columns of a text and a number, or the item is in it already. A held-out task
    at ae69254 sent edit_file with old_text "Olive Oil", in no line of prices.csv."""
    import csv

    m = _ROW_ITEM.search(goal)
    if m is None or not _ADDS_A_ROW.search(goal):
        return None
    rows = [r for r in csv.reader(text.splitlines()) if any(c.strip() for c in r)]
    if len(rows) < 2 or any(len(r) != 2 for r in rows):
        return None
    data = rows[1:]
    if any(re.fullmatch(r"-?\d+(?:\.\d+)?", r[0].strip()) or not re.fullmatch(r"-?\d+(?:\.\d+)?", r[1].strip())
           for r in data):
        return None
    item = m.group("item").strip()
    if item.lower() in {r[0].strip().lower() for r in data}:
        return None
    shown = f'"{item}"' if "," in item else item
    return f"{shown},{m.group('n')}"


def row_gap(goal: str, workspace: str | Path, call: CallRecord) -> str:
    """The refusal of an ``xlsx_write`` that adds rows to a sheet's table with empty rows
    between the table's last row and the new ones ("" otherwise), with the call that
    writes them right under it. The goal must add (not a total, sum or formula, which
    may stand apart). A held-out task at 6ad68a4: "Add a row for Coffee machine ..."
    wrote A6:B6 under data ending at row 4; row 5 stayed empty inside the table."""
    from openpyxl.utils.cell import coordinate_from_string

    path = call.arguments.get("path")
    output = call.arguments.get("output")
    if call.name != "xlsx_write" or not isinstance(path, str) or not _ADDS_A_ROW.search(goal) \
            or (output and norm_path(str(output)) != norm_path(path)) or call.arguments.get("from_csv"):
        return ""
    cells = [c for c in call.arguments.get("cells") or [] if isinstance(c, dict)]
    rows = call.arguments.get("rows") or []
    try:
        targets = [coordinate_from_string(str(c.get("cell", "")).replace("$", "").strip().upper())[1] for c in cells]
        start_col, start_row = coordinate_from_string(str(call.arguments.get("start") or "A1").strip().upper())
    except ValueError:
        return ""
    if rows:
        targets.append(start_row)
    sheet = call.arguments.get("sheet")
    tables = [(name, grid) for name, grid in table_cells(Path(workspace) / path)
              if not sheet or name.strip().lower() == str(sheet).strip().lower()]
    if not targets or not tables:
        return ""
    name, grid = tables[0]
    filled = [i + 1 for i, r in enumerate(grid) if any(v not in (None, "") for v in r)]
    if len(filled) < 2:
        return ""
    over = [t for t in targets if t <= filled[-1] and any(
        v not in (None, "") for v in grid[t - 1])] if not call.arguments.get("replace_data") else []
    if over and rows and not cells:  # a held-out task at 1de0702: "Add a row for March with 420" sent as rows
        # from A1 three times, over the header; the tool's way out (a free row below, one left empty) was not taken
        return (f"Not run: the task adds a row, and rows from {start_col}{start_row} would write over row "
                f"{over[0]} of the table in sheet {name!r}, which ends at row {filled[-1]}; a new row goes right "
                f"under it: {call_to_copy('xlsx_write', {**call.arguments, 'start': f'{start_col}{filled[-1] + 1}'})}")
    if min(targets) <= filled[-1] + 1:
        return ""
    gap = min(targets) - filled[-1] - 1
    shifted = dict(call.arguments)
    if cells:
        shifted["cells"] = [{**c, "cell": re.sub(r"\d+$", lambda m: str(int(m.group(0)) - gap), str(c["cell"]))}
                            for c in cells]
    if rows:
        shifted["start"] = f"{start_col}{start_row - gap}"
    empty = f"row {filled[-1] + 1}" if gap == 1 else f"rows {filled[-1] + 1} to {min(targets) - 1}"
    return (f"Not run: the data of sheet {name!r} ends at row {filled[-1]}, and this write starts at row "
            f"{min(targets)}, leaving {empty} empty above it inside the table; a new row goes right under the data: "
            f"{call_to_copy('xlsx_write', shifted)}")


_TOTAL_SAID = re.compile(r"(?:[^.!?\n]|\.(?=\d))*\b(total|sum)\b(?:[^.!?\n]|\.(?=\d))*", re.IGNORECASE)
_AMOUNT = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.,])\d+(?:\.\d+)?(?![\w.,]\d)")


def total_said_wrong(answer: str, ev: Evidence) -> str:
    """The doubt when the goal asks for a row with "the sum of the X column" in a
    workbook, and a sentence of ``answer`` about the total gives numbers of which none
    is that sum ("" otherwise, and when the sum cannot be worked out). xlsx_total at
    8459f99: the row right (=SUM(C2:C9)), and "The total amount is 201.40." finished:
    201.40 was one item's sum from a grouped query, the column's total 389.9."""
    books = [p for p in goal_files(ev.goal)[1] if p.lower().endswith(".xlsx")]
    args = row_to_add(ev.goal, ev.workspace, books[0]) if books else None
    sums = [c for c in (args or {}).get("cells", []) if str(c.get("value", "")).startswith("=SUM(")]
    m = re.fullmatch(r"=SUM\(([A-Z]+)(\d+):[A-Z]+(\d+)\)", str(sums[0]["value"])) if sums else None
    if m is None or args is None:
        return ""
    want = column_sum(ev.workspace, books[0], args["sheet"], m.group(1), int(m.group(2)), int(m.group(3)))
    if want is None:
        return ""
    for sentence in _TOTAL_SAID.finditer(answer):
        said = [float(n.replace(",", "")) for n in _AMOUNT.findall(sentence.group(0))]
        if said and not any(abs(n - want) < 0.005 for n in said):
            # xlsx_total at 98e7284: the row right, "The total amount of expenses is 201.40." sent twice, stuck
            fixed = answer_to_copy(f"I added the total row to {books[0]}.")  # the harness's sum is in no result
            return (f"the answer says {sentence.group(0).strip()[:100]!r}, but the column the task names adds up to "
                    f"{want:g} ({m.group(1)}{m.group(2)}:{m.group(1)}{m.group(3)}); give that total, or leave the "
                    f"number out: {fixed}")
    return ""


def _holds_the_total(goal: str, rows: list[list[Any]], filled: list[int]) -> bool:
    """The last filled row of ``rows`` holds, in a column the goal asks a sum in, that
    column's =SUM or the sum of the data above it: the total row, partly written.
    xlsx_total at db466c8: 389.90 written into C10 alone, then the row to copy went to
    row 11 with =SUM(C2:C10), the first total counted in the second."""
    from openpyxl.utils import column_index_from_string

    header = [str(v or "").strip().lower() for v in rows[filled[0]]]
    last = rows[filled[-1]]
    for m in _AGG_IN_COLUMN.finditer(goal):
        col, j = m.group("col").strip().lower(), column_index_from_string(m.group("letter")) - 1
        if col not in header or j >= len(last) or m.group("fn").lower() not in ("sum", "total"):
            continue
        value, src = last[j], header.index(col)
        if isinstance(value, str) and value.strip().upper().startswith("=SUM("):
            return True
        numbers = [r[src] for r in rows[filled[0] + 1:filled[-1]] if src < len(r)]
        total = sum(float(v) for v in numbers if isinstance(v, (int, float)) and not isinstance(v, bool))
        try:
            if value not in (None, "") and abs(float(str(value).replace(",", "")) - total) < 0.005:
                return True
        except ValueError:
            continue
    return False


def column_sum(workspace: str | Path, path: str, sheet: str, column: str, first: int, last: int) -> float | None:
    """The sum of the numbers in ``column`` rows ``first``..``last`` (1-based) of a
    sheet of workbook ``path``; None when it cannot be read."""
    from openpyxl.utils import column_index_from_string

    rows = next((r for name, r in table_cells(Path(workspace) / path) if name == sheet), None)
    if rows is None:
        return None
    j = column_index_from_string(column) - 1
    return sum(float(r[j]) for r in rows[first - 1:last]
               if j < len(r) and isinstance(r[j], (int, float)) and not isinstance(r[j], bool))


def _text_not_in_column(ev: Evidence) -> str:
    """The doubt when the goal asks for a quoted text in a column of a workbook this
    task wrote ('"Total" in column B') and no cell of that column holds it ("" otherwise).
    Sheets this task added do not count, unless the goal asks for a sheet, and neither
    does a sheet named like the text: the row belongs to the table. xlsx_total at
    f000187: =SUM(C:C) written into B10 (twice), no "Total" anywhere in column B, and a
    sheet named "Total" added (which the quoted-text check took as the word used); at
    4df8dd6: "Total" written into B10 of that new sheet, and the task finished."""
    wanted = _TEXT_IN_COLUMN.findall(ev.goal)
    books = [rel for rel in dict.fromkeys(ev.touched) if rel.lower().endswith(".xlsx")]
    if not wanted or not books:
        return ""
    skip: set[str] = set()
    if not ASKS_A_SHEET.search(ev.goal):
        skip = {str(c.arguments.get("name", "")).strip().lower() for c in ev.calls if c.name == "xlsx_add_sheet"}
        skip |= {text.strip().lower() for text, _ in wanted}
    sheets = [(name, rows) for name, rows in table_cells(Path(ev.workspace) / books[0])
              if name.strip().lower() not in skip]
    if not sheets:
        return ""
    from openpyxl.utils import column_index_from_string

    for text, letter in wanted:
        col = column_index_from_string(letter) - 1
        found = any(len(row) > col and str(row[col]).strip().lower() == text.strip().lower()
                    for _, rows in sheets for row in rows if row)
        if not found:
            args = row_to_add(ev.goal, ev.workspace, books[0], skip)
            how = f": {call_to_copy('xlsx_write', args)}" if args else \
                f" (xlsx_write, a cell of column {letter}), and each other value in the column the task names"
            where = f" of the table's sheet {args['sheet']!r}" if args else ""
            return (f"the task asks for {text!r} in column {letter}, but no cell of column {letter}{where} in "
                    f"{books[0]} holds it; write it there{how}")
    return ""


_ROW_PER = re.compile(r"\b(?:one|a|1) (?:row|line) (?:per|for each|for every|for) (?:each |every )?(?P<x>[a-z]{3,})",
                      re.IGNORECASE)


def table_cells(path: Path, skip_sheet: str = "") -> list[tuple[str, list[list[Any]]]]:
    """``(sheet name, rows of values)`` of each sheet of a workbook (one unnamed
    sheet for a CSV file), the sheet ``skip_sheet`` left out; [] when unreadable."""
    try:
        if path.suffix.lower() in (".csv", ".tsv"):
            import csv

            text = path.read_text(encoding="utf-8-sig", errors="replace")
            return [("", list(csv.reader(text.splitlines()[:5000], delimiter="\t" if path.suffix == ".tsv" else ",")))]
        if path.suffix.lower() in (".xlsx", ".xlsm"):
            import openpyxl

            wb = openpyxl.load_workbook(path, read_only=True)
            try:
                return [(ws.title, [list(r) for r in ws.iter_rows(max_row=5000, values_only=True)])
                        for ws in wb.worksheets if ws.title.strip().lower() != skip_sheet.strip().lower()]
            finally:
                wb.close()
    except Exception:  # noqa: BLE001 - a file that cannot be read is another check's business
        return []
    return []


#: a goal whose output rows are worked out, not copied: totals, counts, averages, groups, a new column
#: ("one per line", "each on its own line": a layout, nothing worked out: held-out NF at a367559)
_WORKED_OUT = re.compile(r"\b(total\w*|sum\w*|average\w*|mean|count\w*|per(?!\s+line)|by|"
                         r"each(?!\s+on\s+(?:its|a|their)\s+own\s+line)|group\w*|percent\w*|share|"
                         r"difference|column|merge\w*|combin\w*|join\w*|summar\w*|calculat\w*|add\w*)\b",
                         re.IGNORECASE)


def _cell_text(value: Any) -> str:
    """A cell as text to compare across files: numbers as :func:`normalise_number` writes them."""
    from .numbers import normalise_number

    text = "" if value is None else str(value).strip()
    return normalise_number(text) if re.fullmatch(r"-?\d+(?:\.\d+)?", text) else text.lower()


def _rows_asked(ev: Evidence, kinds: tuple[str, ...], words: str) -> tuple[str, str, Any, Any] | None:
    """``(output, source, its table or None, the value the goal names of it or None)``
    when the goal asks for one file of ``kinds`` this task wrote, made from the rows of
    the one table file it names, and ``words`` (the goal, or part of it) work nothing
    out (:data:`_WORKED_OUT`); None otherwise."""
    outputs, inputs = goal_files(ev.goal)
    outs = [o for o in outputs if o.lower().endswith(kinds) and norm_path(o) in {norm_path(w) for w in ev.written}]
    ins = [i for i in inputs if i.lower().endswith((".csv", ".tsv", ".xlsx"))]
    if len(outs) != 1 or len(ins) != 1 or _WORKED_OUT.search(words):
        return None
    from .figures import _file_tables

    tables = _file_tables(ev.workspace, ins[0])
    table = tables[0] if len(tables) == 1 else None
    return outs[0], ins[0], table, goal_value(table, ev.goal) if table is not None else None


def _rows_not_from_source(ev: Evidence) -> str:
    """The doubt when the goal asks for a table file made of rows of the one table file
    it names (no totals, counts or columns worked out: "a file called engineering.csv
    with only the Engineering employees") and a data row written is no row of the
    source (some value of it in no one source row), or, the goal naming a value of a
    text column of the source ("Engineering"), the rows holding it are not all there
    ("" otherwise); with the query that picks them. A held-out task at 1de0702 wrote
    engineering.csv as read_file's numbered lines, shifted and of every department."""
    picked = _rows_asked(ev, (".csv", ".tsv", ".xlsx"), ev.goal)
    if picked is None:
        return ""
    out, src, table, found = picked
    source = [[_cell_text(v) for v in r] for _, rows in table_cells(Path(ev.workspace) / src) for r in rows]
    written = [[_cell_text(v) for v in r] for _, rows in table_cells(Path(ev.workspace) / out) for r in rows[1:]]
    source = [set(r) - {""} for r in source if any(r)]
    written = [r for r in written if any(r)]
    if not source or not written:
        return ""
    query = f"SELECT * FROM {table.name} WHERE {found[0]} = '{found[1].replace(chr(39), chr(39) * 2)}'" \
        if table is not None and found else ""
    to_copy = f"; {call_to_copy('table_query', {'sql': query})}" if query else ""
    stray = next((r for r in written if not any(set(r) - {""} <= row for row in source)), None)
    if stray is not None:
        return (f"{out} holds a row that is no row of {src} ({','.join(stray)!r}); write the rows as "
                f"{src} has them{to_copy}")
    if found:
        column, value = found
        values = dict(zip((c.name for c in table.columns), (c.values for c in table.columns)))[column]
        want = sum(str(v).strip().lower() == value.lower() for v in values)
        have = sum(value.lower() in r for r in written)
        if have < want:
            return (f"{src} has {want} rows whose {column} is {value!r}, and {out} holds {have}"
                    f"{to_copy}")
    return ""


def _split_rows_wrong(ev: Evidence) -> str:
    """The doubt when the goal splits the one table file it names into files named after
    values of one of its text columns (:func:`table_goal.split_outputs`: "one file per
    city: berlin.csv and munich.csv") and a file this task wrote does not hold that
    value's rows of the source: a row of another value or of no source row, or fewer
    rows ("" otherwise); with the query that picks them. A held-out task at a6267c9
    wrote the number of contacts per city into berlin.csv and munich.csv."""
    outputs, inputs = goal_files(ev.goal)
    ins = [i for i in inputs if i.lower().endswith((".csv", ".tsv", ".xlsx"))]
    if len(ins) != 1:
        return ""
    from .figures import _file_tables

    tables = _file_tables(ev.workspace, ins[0])
    split = split_outputs(tables[0], outputs) if len(tables) == 1 else []
    written = {norm_path(w) for w in ev.written}
    for out, column, value in split:
        if norm_path(out) not in written or not out.lower().endswith((".csv", ".tsv", ".xlsx")):
            continue
        source = [[_cell_text(v) for v in r] for _, rows in table_cells(Path(ev.workspace) / ins[0]) for r in rows]
        names = [c.name for c in tables[0].columns]
        at = names.index(column)
        own = [set(r) - {""} for r in source[1:] if any(r) and len(r) > at and r[at].strip().lower() == value.lower()]
        rows = [[_cell_text(v) for v in r] for _, rs in table_cells(Path(ev.workspace) / out) for r in rs]
        rows = [r for r in rows if any(r)]
        if rows and not any(set(rows[0]) - {""} <= row for row in own):
            rows = rows[1:]  # its header, whatever its column names
        query = f"SELECT * FROM {tables[0].name} WHERE {column} = '{value.replace(chr(39), chr(39) * 2)}'"
        stray = next((r for r in rows if not any(set(r) - {""} <= row for row in own)), None)
        if stray is not None or len(rows) < len(own):
            held = f"holds {','.join(stray)!r}, no such row" if stray is not None else f"holds {len(rows)}"
            return (f"{out} is to hold the {len(own)} rows of {ins[0]} whose {column} is {value!r}, and it {held}; "
                    f"{call_to_copy('table_query', {'sql': query})}, then write the rows it returns to {out}")
    return ""


def merge_of_goal(goal: str, workspace: str | Path) -> tuple[list[str], str, str] | None:
    """``(inputs, output, sql)`` when ``goal`` merges two or more table files it names
    (each one table) into one table file it names (:func:`table_goal.merge_query`);
    None otherwise."""
    if not MERGED.search(goal):
        return None
    outputs, inputs = goal_files(goal)
    tabular = (".csv", ".tsv", ".xlsx")
    outs = [o for o in outputs if o.lower().endswith(tabular)]
    ins = [i for i in inputs if i.lower().endswith(tabular)]
    if len(outs) != 1 or len(ins) < 2:
        return None
    from .figures import _file_tables

    tables = [_file_tables(workspace, i) for i in ins]
    sql = merge_query([t[0] for t in tables], goal) if all(len(t) == 1 for t in tables) else None
    return (ins, outs[0], sql) if sql else None


def _merged_rows_wrong(ev: Evidence) -> str:
    """The doubt when the goal merges table files into one (:func:`merge_of_goal`) and
    the file this task wrote lacks a row of one of them ("" otherwise), with the query
    that puts them together. A held-out task at 11a1600 saved January's rows alone as
    q1.csv, "merged" from january.csv and february.csv."""
    merge = merge_of_goal(ev.goal, ev.workspace)
    if merge is None or norm_path(merge[1]) not in {norm_path(w) for w in ev.written}:
        return ""
    ins, out, sql = merge
    root = Path(ev.workspace)

    def rows(rel: str) -> list[tuple[str, ...]]:
        cells = [tuple(_cell_text(v) for v in r) for _, rs in table_cells(root / rel) for r in rs]
        return [r for r in cells[1:] if any(r)]  # below the header

    held = rows(out)
    for rel in ins:
        lost = [r for r in rows(rel) if r not in held]
        if lost:
            return (f"{out} is to hold the rows of {', '.join(ins)}, and it lacks {len(lost)} of {rel} (e.g. "
                    f"{','.join(lost[0])!r}); {call_to_copy('table_query', {'sql': sql})}, then write all the rows "
                    f"it returns to {out}")
    return ""


def _sorted_rows_wrong(ev: Evidence) -> str:
    """The doubt when the goal asks for the rows of the one table file it names sorted
    by a column (:func:`table_goal.sort_order`) in one table file this task wrote, and
    that file holds fewer rows, a row of no source row, or the rows out of that order
    ("" otherwise), with the query that sorts them. A held-out task at b7b6dee: "Sort
    scores.csv by score from highest to lowest and save it as ranked.csv" wrote one row
    (the top score's query, LIMIT 1), and the task finished."""
    outputs, inputs = goal_files(ev.goal)
    written = {norm_path(w) for w in ev.written}
    outs = [o for o in outputs if o.lower().endswith((".csv", ".tsv", ".xlsx")) and norm_path(o) in written]
    ins = [i for i in inputs if i.lower().endswith((".csv", ".tsv", ".xlsx"))]
    if len(outs) != 1 or len(ins) != 1:
        return ""
    from .figures import _file_tables

    tables = _file_tables(ev.workspace, ins[0])
    order = sort_order(tables[0], ev.goal) if len(tables) == 1 else None
    if order is None:
        return ""
    table, (column, how) = tables[0], order
    source = [[_cell_text(v) for v in r] for _, rows in table_cells(Path(ev.workspace) / ins[0]) for r in rows]
    own = [set(r) - {""} for r in source[1:] if any(r)]
    rows = [r for _, rs in table_cells(Path(ev.workspace) / outs[0]) for r in ([_cell_text(v) for v in x] for x in rs)
            if any(r)]
    if rows and not any(set(rows[0]) - {""} <= row for row in own):
        rows = rows[1:]  # its header
    query = f"SELECT * FROM {table.name} ORDER BY {column} {how}"
    to_copy = f"{call_to_copy('table_query', {'sql': query})}, then write the rows it returns to {outs[0]}"
    stray = next((r for r in rows if not any(set(r) - {""} <= row for row in own)), None)
    if len(rows) < len(own) or stray is not None:
        held = f"{','.join(stray)!r}, no row of it" if stray is not None else f"{len(rows)} of them"
        return (f"{outs[0]} is to hold all {len(own)} rows of {ins[0]} sorted by {column}, and it holds {held}; "
                f"{to_copy}")
    values = dict(zip((c.name for c in table.columns), (c.values for c in table.columns)))[column]
    keyed = {frozenset(set(r) - {""}): v for r, v in zip((r for r in source[1:] if any(r)), values)}
    seq = [next((v for k, v in keyed.items() if set(r) - {""} <= k), None) for r in rows]
    if None in seq or any(isinstance(v, str) for v in seq) and not all(isinstance(v, str) for v in seq):
        return ""
    if seq != sorted(seq, key=lambda v: v.lower() if isinstance(v, str) else v, reverse=how == "DESC"):
        return (f"{outs[0]} holds the rows of {ins[0]} out of order: sorted by {column} "
                f"{'highest' if how == 'DESC' else 'lowest'} first is asked; {to_copy}")
    return ""


def _text_list_asked(ev: Evidence) -> tuple[str, str, Any, Any, str] | None:
    """``(output, source, its table, the value the goal names of it or None, the
    output's text)`` when the goal asks for one text file (.txt, .md) this task wrote,
    made from the rows of the one table file it names (:func:`_rows_asked`); None
    otherwise, and when the output cannot be read."""
    asked = _rows_asked(ev, (".txt", ".md"), re.sub(r"\bsummar\w*", "", ev.goal))  # summary.txt: a name
    if asked is None or asked[2] is None:
        return None
    try:
        text = (Path(ev.workspace) / asked[0]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return (*asked, text)


def _names_not_in_bound(ev: Evidence) -> str:
    """The doubt when the goal asks for a text file (.txt, .md) this task wrote, listing
    the rows of the one table file it names within a bound it gives on a number or date
    column (:func:`table_goal.row_filter`: "the products in stock.csv that are out of
    stock", stock = 0; the rows of a value: :func:`_names_not_of_value`), and the file
    names a row outside it or leaves out one inside ("" otherwise), with the query and
    the write to copy. A development batch at b6900b3 (ZZC): every product and its stock
    written into reorder.txt, and the task finished."""
    asked = _text_list_asked(ev)
    if asked is None or asked[3] is not None:
        return ""
    out, src, table, _, text = asked
    from .figures import _rows_picked

    picked = _rows_picked(table, ev.goal, text)
    if picked is None:
        return ""
    column, _, cond, its, have, _, label, named = picked
    wrong = [str(v) for v, n, h in zip(label.values, named, have) if n and not h]
    missing = [str(v) for v, n, h in zip(label.values, named, have) if h and not n]
    right = [str(v) for v, h in zip(label.values, have) if h]
    if not right or (not wrong and not missing):
        return ""
    said = f"names {', '.join(wrong[:5])}, whose {column} is not {its}" if wrong else \
        f"leaves out {', '.join(missing[:5])}, whose {column} is {its}"
    sql = f"SELECT {label.name} FROM {table.name} WHERE {cond}"
    args = {"path": out, "content": "\n".join(right) + "\n"}
    return (f"{out} {said}; the rows of {src} whose {column} is {its} are {', '.join(right[:12])} "
            f"({call_to_copy('table_query', {'sql': sql})}); e.g. {call_to_copy('write_file', args)}")


def _names_not_of_value(ev: Evidence) -> str:
    """The doubt when the goal asks for a text file listing the rows of one value of
    the one table file it names ("summary.txt listing the names of all employees in the
    Sales department from staff.xlsx": :func:`table_goal.goal_value`) and the file
    leaves out a name of those rows (the first column whose texts are all different) or
    names one of another row ("" otherwise), with the query that picks them. A held-out
    task at 0bad672 listed every employee as the Sales department's."""
    picked = _text_list_asked(ev)
    if picked is None or picked[3] is None:
        return ""
    out, src, table, found, text = picked
    column, value = found
    values = {c.name: [str(v) for v in c.values] for c in table.columns}
    label = next((c.name for c in table.columns if c.sql_type == "VARCHAR" and c.name != column
                  and len(set(values[c.name])) == len(values[c.name])), None)
    if label is None:
        return ""
    keep = [v.strip().lower() == value.lower() for v in values[column]]
    want = [n for n, k in zip(values[label], keep) if k]
    others = [n for n, k in zip(values[label], keep) if not k]

    def named(name: str) -> bool:
        return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.IGNORECASE) is not None

    missing, extra = [n for n in want if not named(n)], [n for n in others if named(n)]
    lines = [ln.strip(" -*\t") for ln in text.splitlines() if ln.strip()]
    if not missing and not extra and re.search(rf"\b{re.escape(label)}s?\b", ev.goal, re.IGNORECASE) \
            and any(ln not in want for ln in lines):
        # a held-out task (OE) at 0959310: "Write their numbers into unpaid.txt" wrote "2", "A-2 | Brio | unpaid"
        fixed = call_to_copy("write_file", {"path": out, "content": "\n".join(want) + "\n"})
        return (f"the task asks for the {label}s of the rows of {src} whose {column} is {value!r} in {out}, and "
                f"{out} holds {', '.join(repr(ln[:40]) for ln in lines if ln not in want)[:160]} beside them; "
                f"{fixed}")
    if not missing and not extra:
        return ""
    query = call_to_copy("table_query", {"sql": f"SELECT {label} FROM {table.name} WHERE {column} = "
                                                 f"'{value}'"})
    wrong = f"names {', '.join(extra[:4])}, whose {column} is not {value!r}" if extra else \
        f"leaves out {', '.join(missing[:4])}"
    return f"{out} {wrong}; the rows of {src} whose {column} is {value!r} are {', '.join(want)}: {query}"


_SAME_ROWS = re.compile(r"\b(convert\w*|same (?:columns and )?rows|all (?:the |its )?rows|every row)\b", re.IGNORECASE)


def _rows_lost(ev: Evidence) -> str:
    """The doubt when the goal converts (or copies every row of) a table file into
    another and the one this task wrote has fewer non-empty rows than the source
    ("" otherwise). csv_to_xlsx at 4df8dd6: contacts.xlsx got the header and one of
    the five people, and the task finished saying the rows were copied."""
    if not (_SAME_ROWS.search(ev.goal) or _CONVERTS.search(ev.goal)):  # "turn data.csv into ..." too
        return ""
    root, touched = Path(ev.workspace), {norm_path(p) for p in ev.touched}
    outputs, inputs = goal_files(ev.goal)
    tables = (".csv", ".tsv", ".xlsx")
    srcs = [r for r in inputs if r.lower().endswith(tables) and (root / r).is_file()]
    outs = [r for r in outputs if r.lower().endswith(tables) and norm_path(r) in touched and (root / r).is_file()]
    if not srcs or not outs or norm_path(srcs[0]) == norm_path(outs[0]):
        return ""

    def count(rel: str) -> int | None:  # None: not readable as a table (another check's doubt)
        sheets = table_cells(root / rel)
        return sum(1 for _, rows in sheets for row in rows
                   if any(v not in (None, "") and str(v).strip() for v in row)) if sheets else None

    have, want = count(outs[0]), count(srcs[0])
    how = ""
    if srcs[0].lower().endswith((".csv", ".tsv")) and outs[0].lower().endswith(".xlsx"):
        args = {"path": outs[0], "from_csv": srcs[0], "replace_data": True}
        how = f": {call_to_copy('xlsx_write', args)}"
    lost = columns_lost(root / srcs[0], root / outs[0]) if plain_conversion(ev.goal) else []
    if lost:  # a held-out task (MG) at a367559: data.xlsx written from a GROUP BY query, price and qty lost
        return (f"the task turns {srcs[0]} into {outs[0]}, and {outs[0]}'s header lacks {srcs[0]}'s column"
                f"{'s' if len(lost) > 1 else ''} {', '.join(repr(c) for c in lost[:5])}; write all its columns and "
                f"rows{how}")
    if not want or have is None or have >= want:
        return ""
    return (f"the task asks for the rows of {srcs[0]} ({want}, header included), and {outs[0]} has {have}; write "
            f"them all{how}")


#: a goal that makes one table file of another: "convert (turn, export) data.csv into data.xlsx"
_CONVERTS = re.compile(r"\b(?:convert|turn|export|transform)\w*\s+(?:the\s+)?\S+\.(?:csv|tsv|xlsx)\s+(?:in)?to\b",
                       re.IGNORECASE)


#: a conversion that reshapes the table: "by region", "only the Paid rows", "a summary", "the top 3"
_RESHAPED = re.compile(r"\b(by|per|each|group\w*|summar\w*|average\w*|top|only|just|filter\w*|where|without|"
                       r"except|drop\w*|remov\w*|column\w*)\b", re.IGNORECASE)


def plain_conversion(goal: str) -> bool:
    """Whether ``goal`` turns one table file into another as it is ("Convert data.csv
    into data.xlsx", "... with a total row at the bottom"), not reshaped ("by region",
    "only the Paid rows", "a summary", "the Name and Email columns")."""
    rest = re.sub(rf"(?:{TOTAL_ROW.pattern})[^.!?]*|\b(?:the\s+)?same\s+columns|\ball\s+(?:the\s+|its\s+)?columns", "",
                  goal, flags=re.IGNORECASE)
    return bool(_CONVERTS.search(goal)) and not _RESHAPED.search(rest)


def columns_lost(src: Path, out: Path) -> list[str]:
    """The header cells of table file ``src`` (its first non-empty row) that the first
    non-empty row of ``out`` lacks (case and spaces aside); [] when either cannot be read."""
    def header(path: Path) -> list[str]:
        for _, rows in table_cells(path)[:1]:
            row = next((r for r in rows if any(v not in (None, "") for v in r)), [])
            return [str(v).strip() for v in row if v not in (None, "") and str(v).strip()]
        return []

    want, have = header(src), {h.lower() for h in header(out)}
    return [h for h in want if h.lower() not in have] if have else []


#: "with a total row (at the bottom) for qty", "add a totals line", "a row with the totals": a total row asked in words
TOTAL_ROW = re.compile(r"\b(?:an?|the)\s+(?:grand\s+)?totals?\s+(?:row|line)\b|\b(?:an?|the)\s+(?:row|line)\s+"
                        r"(?:with|for|of|showing|holding)\s+(?:the\s+)?(?:grand\s+)?totals?\b", re.IGNORECASE)
#: a cell that labels a total row: "Total", "Grand total", "Sum:" (table_goal's labels, at a cell's start)
_TOTAL_LABEL_AT_START = re.compile(rf"\s*(?:{TOTAL_LABEL.pattern})\b", re.IGNORECASE)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def total_row_to_add(goal: str, workspace: str | Path, path: str) -> dict[str, Any] | None:
    """The ``xlsx_write`` arguments that put the total row ``goal`` asks for in words
    ("... data.xlsx with a total row at the bottom for qty") under the table of workbook
    ``path``: "Total" in the first column not summed, and a =SUM of the data of each
    column the goal names after "total row" (each all-number column when it names none).
    When the last row already looks like a total row ("Total" or a =SUM in it), that row
    is the one written. None when the goal asks no such row, quotes its own texts for
    columns (:func:`row_to_add`'s), the workbook cannot be read, or the row is there:
    each column's =SUM, or its sum to the cent."""
    m = TOTAL_ROW.search(goal)
    if m is None or _TEXT_IN_COLUMN.search(goal) or not path.lower().endswith(".xlsx"):
        return None
    from openpyxl.utils import get_column_letter

    said = re.split(r"(?<=[.!?])\s", goal[m.start():], maxsplit=1)[0].lower()
    for name, rows in table_cells(Path(workspace) / path):
        filled = [i for i, r in enumerate(rows) if any(v not in (None, "") for v in r)]
        if len(filled) < 2:
            continue
        header = [str(v or "").strip() for v in rows[filled[0]]]
        last = list(rows[filled[-1]]) + [None] * len(header)
        labelled = any(isinstance(v, str) and _TOTAL_LABEL_AT_START.match(v) for v in last)
        summed = any(isinstance(v, str) and v.strip().upper().startswith("=SUM(") for v in last)
        ends_in_total = len(filled) > 2 and (labelled or summed)
        data = [list(rows[i]) + [None] * len(header) for i in (filled[1:-1] if ends_in_total else filled[1:])]
        named = [j for j, h in enumerate(header)
                 if h and re.search(rf"(?<!\w){re.escape(h.lower())}(?!\w)", said)]
        numeric = [j for j, h in enumerate(header)
                   if h and all(_is_number(r[j]) for r in data if r[j] not in (None, ""))
                   and any(_is_number(r[j]) for r in data)]
        wanted = [j for j in named if j in numeric] or ([] if named else numeric)
        if not wanted:
            continue
        row = filled[-1] + 1 if ends_in_total else filled[-1] + 2  # 1-based
        first, end = filled[0] + 2, row - 1

        def holds_sum(j: int) -> bool:
            v = last[j]
            if isinstance(v, str) and v.strip().upper().startswith("=SUM("):
                return True
            return _is_number(v) and abs(float(v) - sum(float(r[j]) for r in data if _is_number(r[j]))) < 0.005

        if ends_in_total and all(holds_sum(j) for j in wanted):
            return None
        cells: list[dict[str, Any]] = []
        label = next((j for j in range(len(header)) if j not in wanted), None)
        if label is not None and not labelled:
            cells.append({"cell": f"{get_column_letter(label + 1)}{row}", "value": "Total"})
        for j in wanted:
            col = get_column_letter(j + 1)
            cells.append({"cell": f"{col}{row}", "value": f"=SUM({col}{first}:{col}{end})"})
        return {"path": path, "sheet": name, "cells": cells}
    return None


def total_row_next(goal: str, workspace: str | Path, book: str) -> tuple[str, dict[str, Any]] | None:
    """What workbook ``book`` needs next for a goal that asks a total row in words:
    ``("columns", xlsx_write arguments with from_csv)`` while it lacks columns of the
    CSV file the goal turns into it (:func:`columns_lost`), then ``("total",
    :func:`total_row_to_add`'s arguments)``; None when the goal asks no total row or
    the row is there."""
    if not TOTAL_ROW.search(goal) or not book.lower().endswith(".xlsx"):
        return None
    root = Path(workspace)
    srcs = [r for r in goal_files(goal)[1] if r.lower().endswith((".csv", ".tsv")) and (root / r).is_file()]
    if srcs and plain_conversion(goal) and columns_lost(root / srcs[0], root / book):
        return "columns", {"path": book, "from_csv": srcs[0], "replace_data": True}
    args = total_row_to_add(goal, workspace, book)
    return ("total", args) if args else None


def _total_row_missing(ev: Evidence) -> str:
    """The doubt when the goal asks for a total row in words in a workbook this task
    wrote and its table does not end in one (:func:`total_row_to_add`), with the call
    that adds it; "" otherwise, and while the workbook still lacks the columns of the
    table file it is made from (:func:`_rows_lost`'s doubt). A held-out task (MG) at
    a367559: "Turn data.csv into an Excel file data.xlsx with a total row at the bottom
    for qty" answered "adding a total row", with no total row written."""
    outputs, inputs = goal_files(ev.goal)
    touched = {norm_path(p) for p in ev.touched}
    books = [r for r in [*outputs, *inputs] if r.lower().endswith(".xlsx") and norm_path(r) in touched]
    need = total_row_next(ev.goal, ev.workspace, books[0]) if books else None
    if need is None or need[0] != "total":
        return ""
    args = need[1]
    return (f"the task asks for a total row, and the table of sheet {args['sheet']!r} in {books[0]} does not end in "
            f"one; add it under the data: {call_to_copy('xlsx_write', args)}")


def _groups_missing(ev: Evidence) -> str:
    """The doubt when the goal asks for "one row per X", a table the goal names has a
    column headed X holding a few texts, and the sheet (or table file) this task
    wrote for it names some of them nowhere ("" otherwise). xlsx_group_sums at
    c92ae49: "a sheet named "By Region" ... with one row per region" got a single row
    "Sales" with the sum of the whole sheet, and the task finished."""
    m = _ROW_PER.search(ev.goal)
    if m is None:
        return ""
    x = m.group("x").lower()
    x = x[:-1] if x.endswith("s") and not x.endswith("ss") else x
    named = SHEET_NAMED.search(ev.goal)
    root, touched = Path(ev.workspace), {norm_path(p) for p in ev.touched}
    outputs, inputs = goal_files(ev.goal)
    tables = [rel for rel in dict.fromkeys([*outputs, *inputs]) if rel.lower().endswith((".csv", ".tsv", ".xlsx"))]
    target = next((rel for rel in tables if norm_path(rel) in touched), "")
    if not target:
        return ""
    written = table_cells(root / target)
    if named:
        written = [t for t in written if t[0].strip().lower() == named.group(1).strip().lower()]
        if not written:
            return ""  # the missing sheet is another check's doubt
        sources = [(target, t) for t in table_cells(root / target, skip_sheet=named.group(1))]
    else:
        sources = [(rel, t) for rel in tables if rel != target for t in table_cells(root / rel)]
    texts = {str(v).strip().lower() for _, rows in written for row in rows for v in row if v is not None}
    for rel, (sheet, rows) in sources:
        if len(rows) < 2:
            continue
        header = [re.sub(r"[\W_]+", " ", str(v or "")).strip().lower() for v in rows[0]]
        col = next((j for j, h in enumerate(header) if h in (x, x + "s", x + "es")), None)
        if col is None:
            continue
        values = list(dict.fromkeys(str(r[col]).strip() for r in rows[1:] if col < len(r) and isinstance(r[col], str)
                                    and r[col].strip()))
        if not values or len(values) > 30:
            continue
        missing = [v for v in values if v.lower() not in texts]
        if missing:
            where = f"the sheet {named.group(1)!r}" if named else target
            return (f"the task asks for one row per {x}; the {rows[0][col]} column of {rel} has {len(values)} "
                    f"({', '.join(values[:8])}), and {where} names {len(values) - len(missing) or 'none'} of them "
                    f"(missing: {', '.join(missing[:5])}). Add them up with table_query (SELECT {rows[0][col]}, "
                    f"SUM(...) ... GROUP BY {rows[0][col]}) and write one row per {x}")
    return ""


def _missing_sheet(ev: Evidence) -> str:
    """A doubt when the goal asks for a sheet named "X" and no workbook this task wrote
    has one. xlsx_top_vendors: asked to add a sheet named "Top 5", Qwen 1.5B wrote
    "Top 5" into a cell of the data sheet and answered "Done."."""
    wanted = SHEET_NAMED.findall(ev.goal)
    books = [p for p in dict.fromkeys(ev.touched) if p.lower().endswith((".xlsx", ".xlsm"))]
    if not wanted or not books:
        return ""
    names: set[str] = set()
    empty: set[str] = set()
    for rel in books:
        try:
            import openpyxl

            wb = openpyxl.load_workbook(Path(ev.workspace) / rel, read_only=True)
            for ws in wb.worksheets:
                names.add(ws.title.strip().lower())
                if not any(v not in (None, "") for row in ws.iter_rows(max_row=50, values_only=True) for v in row):
                    empty.add(ws.title.strip().lower())
            wb.close()
        except Exception:  # noqa: BLE001 - a workbook that cannot be read is another check's business
            continue
    missing = [w for w in wanted if w.strip().lower() not in names]
    if missing:
        return (f"the task asks for a sheet named {missing[0]!r}, but no workbook this task wrote has one; "
                "add it with xlsx_add_sheet")
    blank = [w for w in wanted if w.strip().lower() in empty]
    if blank:  # xlsx_top_vendors at e03cee3: an empty "Top 5" sheet added, then "done"
        return (f"the sheet {blank[0]!r} is empty; write into it what the task asks (xlsx_write with "
                f"sheet={blank[0]!r} and rows)")
    return ""


def _header_of(path: Path) -> list[list[str]]:
    """The first row of a CSV file, or of each sheet of a workbook, as lower-case
    cell texts; [] when it cannot be read."""
    return [[str(v).strip().lower() for v in rows[0] if v is not None] for _, rows in table_cells(path) if rows]


def _missing_columns(ev: Evidence) -> str:
    """The doubt when the goal names the columns of a table file it asks for and the
    file this task wrote has no first row (of any sheet) holding each of them as a
    word of a cell ("" otherwise). csv_top_customers at f000187: top3.csv ("with the
    columns Customer and Total") held "<table_query sql='SELECT ...' />", and the task
    finished saying it held the top three customers."""
    cols = goal_columns(ev.goal)
    touched = {norm_path(p) for p in ev.touched}
    if not cols:
        return ""
    for rel in goal_files(ev.goal)[0]:
        path = Path(ev.workspace) / rel
        if not rel.lower().endswith((".csv", ".tsv", ".xlsx")) or norm_path(rel) not in touched or not path.is_file():
            continue
        rows = _header_of(path)
        if not rows:
            continue
        def holds(cell: str, col: str) -> bool:  # "Total Spent", "total_spent"; not a word inside markup
            cell, col = re.sub(r"[\W_]+", " ", cell).strip(), re.sub(r"[\W_]+", " ", col.lower()).strip()
            return cell == col or cell.startswith(col + " ")

        if any(all(any(holds(cell, c) for cell in row) for c in cols) for row in rows):
            continue
        first = ", ".join(rows[0])[:80]
        return (f"the task asks for {rel} with the columns {', '.join(cols)}, but its first row is {first!r}; "
                "write the data with that header row")
    return ""


_COLUMN_TO_ADD = re.compile(
    r"\b(?:add|insert|append|put|create|make)\w*\s+(?:a|an|the|one)\s+(?:new\s+)?"
    r"(?:column\s+(?:called|named|titled|headed)\s+[\"'\u201c]?(?P<a>[A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*)?)"
    r"|column\s+[\"'\u201c](?P<b>[^\"'\u201d]{1,30})[\"'\u201d]"
    # "Add a column Total to orders.csv" (a held-out task at a8fdd03): a name right after "column"; "Add a column
    # total to cart.csv" (one (PM) at 89855ab) too
    r"|column\s+(?!(?-i:[A-Z]{1,2})\b)(?P<d>[A-Za-z][\w-]*)"
    r"(?=\s+(?:to|in|into|with|that|which|for|of|on)\b|\s*[,.;:]|$)"
    r"|[\"'\u201c]?(?P<c>[A-Za-z][\w-]*(?:\s[A-Za-z][\w-]*)?)[\"'\u201d]?\s+column\b(?!\s+(?-i:[A-Z]{1,2})\b))",
    re.IGNORECASE)
_LINK_WORDS = {"to", "in", "into", "for", "with", "of", "that", "which", "on", "at", "from", "and", "the"}
_NOT_A_NAME = {"new", "extra", "second", "third", "another", "empty", "blank", "single", "one", "last", "final"}
_OPERATIONS: dict[str, Callable[[float, float], float]] = {
    "times": lambda a, b: a * b, "multiplied by": lambda a, b: a * b, "x": lambda a, b: a * b,
    "*": lambda a, b: a * b, "\u00d7": lambda a, b: a * b, "plus": lambda a, b: a + b, "+": lambda a, b: a + b,
    "minus": lambda a, b: a - b, "-": lambda a, b: a - b, "divided by": lambda a, b: a / b, "/": lambda a, b: a / b}


def column_to_add(goal: str) -> str:
    """The name of the column ``goal`` asks to add to a table: "Add a Total column to
    sales.xlsx" -> "Total", 'add a column called "Net"' -> "Net"; "" when it asks none."""
    for m in _COLUMN_TO_ADD.finditer(goal):
        words = (m.group("a") or m.group("b") or m.group("c") or m.group("d") or "").split()
        if m.group("a") and len(words) > 1 and words[-1].lower() in _LINK_WORDS:  # "called Net to x.xlsx"
            words = words[:-1]
        name = " ".join(words)
        if name and name.lower() not in _NOT_A_NAME and not any(w.lower() in _LINK_WORDS for w in words):
            return name
    return ""


def _table_of(rows: list[list[Any]]) -> tuple[int, list[int]] | None:
    """``(header row index, data row indexes)`` of the first table in ``rows``: the
    first row with two filled cells, and the rows after it whose first cell is filled,
    up to an empty row; None when there is no header with data below it."""
    def filled(row: list[Any]) -> int:
        return sum(v not in (None, "") for v in row)

    head = next((i for i, r in enumerate(rows) if filled(r) >= 2), None)
    if head is None:
        return None
    data = []
    for i in range(head + 1, len(rows)):
        if not filled(rows[i]):
            break
        if rows[i] and rows[i][0] not in (None, ""):
            data.append(i)
    return (head, data) if data else None


def _spelled_operation(goal: str, header: list[str]) -> tuple[int, int, Callable[[float, float], float]] | None:
    """The columns and operation ``goal`` computes a new column from ("Qty times Price")."""
    names = [h for h in header if h]
    ops = "|".join(re.escape(o) for o in sorted(_OPERATIONS, key=len, reverse=True))
    for a in names:
        for b in names:
            m = re.search(rf"(?<!\w){re.escape(a)}\s*({ops})\s*(?:the\s+)?{re.escape(b)}(?!\w)", goal, re.IGNORECASE)
            if a != b and m:
                return header.index(a), header.index(b), _OPERATIONS[m.group(1).lower()]
    return None


def _spelled_sum(goal: str, header: list[str]) -> tuple[list[int], bool] | None:
    """``(columns, average)``: the columns of ``header`` (two or more, lower case) whose
    sum (``average``: mean) per row ``goal`` spells for a new column ("the sum of q1, q2
    and q3", "q1 + q2 + q3", "the average of math and physics"); None otherwise."""
    names = [h for h in header if h]
    m = re.search(r"\b(?P<op>sum|total|average|mean)\s+of\s+(?:the\s+)?(?:columns?\s+)?(?P<list>[^.;?!]{3,120})",
                  goal, re.IGNORECASE)
    said = m.group("list") if m else goal
    parts = [p.strip().strip("\"'`.").lower() for p in re.split(r"\s*(?:,|\+|\band\b|&)\s*", said)]
    at = []
    for i, p in enumerate(parts):
        words = re.findall(r"[\w-]+", p)
        # the word next to the list's separator: "that is q1" + "q2" + "q3 for each row"
        word = (words[-1] if i == 0 and m is None else words[0]) if words else ""
        if p in names:
            at.append(header.index(p))
        elif word in names:
            at.append(header.index(word))
        elif at:
            break
    if len(at) < 2 or len(set(at)) != len(at) or (m is None and "+" not in goal):
        return None
    return at, bool(m and m.group("op").lower() in ("average", "mean"))


#: a new column's value spelled as a condition on another column: "overdue if the due date is before today,
#: otherwise open", "high if amount is over 100, else low"
_CONDITION = re.compile(
    r"(?:[\"'\u201c](?P<yq>[^\"'\u201d]{1,30})[\"'\u201d]|\b(?P<yes>[\w-]+))\s+(?:if|when)\s+(?:the\s+|its\s+)?"
    r"(?P<col>[\w -]{1,40}?)\s+"
    r"(?:is\s+|was\s+|falls\s+)?(?P<rel>before|after|earlier than|later than|over|above|more than|greater than|"
    r"under|below|less than|at least|at most)\s+(?P<val>today|-?\d[\d,]*(?:\.\d+)?|\d{4}-\d{2}-\d{2})"
    r"\s*[,;]?\s*(?:and\s+)?(?:otherwise|else|or else)\s+(?:[\"'\u201c](?P<nq>[^\"'\u201d]{1,30})[\"'\u201d]|"
    r"(?P<no>[\w-]+)\b)",
    re.IGNORECASE)


def _spelled_condition(goal: str, header: list[str], today: date) -> tuple[int, Callable[[str], bool | None],
                                                                         str, str] | None:
    """``(column, test, value if true, value if false)`` for a new column ``goal`` spells
    as a condition on a column of ``header`` (lower case): a date before (after) today or
    a date, a number over (under, at least, at most) a number; the test gives None for
    a cell it cannot read. None when the goal spells none. Batch FZ at 7767aeb, FZH: "Add
    a column status to invoices.csv: overdue if the due date is before today, otherwise
    open." dropped the rows not overdue."""
    m = _CONDITION.search(goal)
    if m is None:
        return None
    said = m.group("col").lower().split()
    col = next((header.index(w) for n in range(len(said), 0, -1) for i in range(len(said) - n + 1)
                if (w := " ".join(said[i:i + n])) in header), None)
    if col is None:
        return None
    rel, val = m.group("rel").lower(), m.group("val")
    after = rel in ("after", "later than", "over", "above", "more than", "greater than")
    strict = rel not in ("at least", "at most")
    if rel == "at least":
        after = True
    if val.lower() == "today" or re.fullmatch(r"\d{4}-\d{2}-\d{2}", val):
        bound_day = today if val.lower() == "today" else date.fromisoformat(val)

        def test(cell: str) -> bool | None:
            said_dates = dates_in(cell)
            if len(said_dates) != 1 or said_dates[0].year is None:
                return None
            d = said_dates[0]
            day = date(d.year, d.month, d.day)
            return day > bound_day if after else day < bound_day
    else:
        bound = float(val.replace(",", ""))

        def test(cell: str) -> bool | None:
            n = _number(cell)
            if n is None:
                return None
            return (n > bound if strict else n >= bound) if after else (n < bound if strict else n <= bound)
    return col, test, (m.group("yq") or m.group("yes")).strip(), (m.group("nq") or m.group("no")).strip()


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(str(v).replace(",", "").strip())
    except ValueError:
        return None


def column_cells(goal: str, workspace: str | Path, path: str,
                 given: Sequence[Sequence[Any]] = ()) -> dict[str, Any] | None:
    """The ``xlsx_write`` arguments that add the column ``goal`` asks for
    (:func:`column_to_add`) to the table of workbook ``path``, in the first column
    after its header: the name in the header row, and below it each data row's value,
    worked out from the goal's "A times B" (plus, minus, divided by) when it spells one,
    else taken from ``given`` (rows such as [["Pens", 15], ...], matched to the table's
    rows by their first cell). None when the goal asks for no column, the workbook
    cannot be read or a data row gets no value. A held-out task at 2e1bee7: "Add a
    Total column to sales.xlsx that is Qty times Price" appended the rows
    "product, Total", "Pens, 15" ... below the table, and answered a new sheet."""
    name = column_to_add(goal)
    if not name or not path.lower().endswith(".xlsx"):
        return None
    from openpyxl.utils import get_column_letter

    for sheet, rows in table_cells(Path(workspace) / path):
        table = _table_of(rows)
        if table is None:
            continue
        head, data = table
        header = [str(v).strip().lower() if v not in (None, "") else "" for v in rows[head]]
        at = header.index(name.lower()) if name.lower() in header else len(header) - next(
            (i for i, h in enumerate(reversed(header)) if h), len(header))
        spelled = _spelled_operation(goal, header)
        by_key = {str(r[0]).strip().lower(): r[-1] for r in given if isinstance(r, (list, tuple)) and len(r) >= 2}
        cells: list[dict[str, Any]] = [{"cell": f"{get_column_letter(at + 1)}{head + 1}", "value": name}]
        for i in data:
            row = rows[i]
            value: Any = None
            if spelled:
                a, b = (_number(row[k]) if k < len(row) else None for k in spelled[:2])
                if a is None or b is None:  # the table ends where its numbers do (rows appended under it)
                    break
                try:
                    value = round(spelled[2](a, b), 10)
                except ZeroDivisionError:
                    return None
                value = int(value) if value.is_integer() else value
            else:
                value = by_key.get(str(row[0]).strip().lower())
            if value in (None, ""):
                return None
            cells.append({"cell": f"{get_column_letter(at + 1)}{i + 1}", "value": value})
        if len(cells) < 2:
            return None
        return {"path": path, "sheet": sheet, "cells": cells}
    return None


#: a column that numbers the rows: "that numbers the tasks 1, 2, 3, ...", "with the row numbers"
_NUMBERING = re.compile(r"\b1\s*,\s*2\s*,\s*3\b|\bnumber(?:s|ing)?\s+(?:the|them|each|every|all)\b|"
                        r"\brow\s+numbers?\b|\bnumbered\b", re.IGNORECASE)
_AT_FRONT = re.compile(r"\b(?:in\s+front|at\s+the\s+(?:front|start|beginning|left)|as\s+the\s+first\s+column|"
                       r"first\s+column)\b", re.IGNORECASE)


def csv_column_text(goal: str, workspace: str | Path, path: str, text: str | None = None,
                    today: date | None = None) -> str | None:
    """The text of CSV file ``path`` with the column ``goal`` asks to add
    (:func:`column_to_add`) worked out from the "A times B" it spells, each value with
    as many decimals as its operands have ("1.50" times 3 is "4.50"), from the condition
    it spells ("overdue if the due date is before ``today``, otherwise open",
    :func:`_spelled_condition`), or the rows
    numbered 1, 2, 3, ... (:data:`_NUMBERING`; first when the goal says "in front"), as
    the last column (or in the column of that name, when there is one), in ``text`` (the
    file as it was, when given) or the file as it is; None when the goal asks
    no such column, spells no operation, or the file cannot be read or has a row
    without both numbers. A held-out task at a8fdd03: "Add a column Total to orders.csv
    with qty times price." ran a GROUP BY query that failed three times."""
    name = column_to_add(goal)
    if not name or not path.lower().endswith(".csv"):
        return None
    import csv
    import io

    try:
        text = (Path(workspace) / path).read_text(encoding="utf-8-sig") if text is None else text
        rows = [r for r in csv.reader(io.StringIO(text)) if r]
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if len(rows) < 2:
        return None
    header = [h.strip().lower() for h in rows[0]]
    at = header.index(name.lower()) if name.lower() in header else len(header)
    if _NUMBERING.search(goal):  # held-out BZI at 86ab2a2: the rows written as a column of the new numbers
        first = at == len(header) and _AT_FRONT.search(goal) is not None
        out = [[name, *rows[0]] if first else rows[0][:at] + [name] + rows[0][at + 1:]]
        for n, row in enumerate(rows[1:], 1):
            out.append([str(n), *row] if first else row[:at] + [""] * (at - len(row)) + [str(n)] + row[at + 1:])
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(out)
        return buf.getvalue()
    condition = _spelled_condition(goal, header, today or date.today())
    if condition is not None:
        out = [rows[0][:at] + [name] + rows[0][at + 1:]]
        for row in rows[1:]:
            held = condition[1](row[condition[0]]) if condition[0] < len(row) else None
            if held is None:
                return None
            out.append(row[:at] + [""] * (at - len(row)) + [condition[2] if held else condition[3]] + row[at + 1:])
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(out)
        return buf.getvalue()
    summed = _spelled_sum(goal, header)
    spelled = _spelled_operation(goal, header) if summed is None else None
    if spelled is None and summed is None:
        return None
    out = [rows[0][:at] + [name] + rows[0][at + 1:]]
    if summed:  # batch EZ at 865c16b (EZE): "with the sum of q1, q2 and q3 for each row" got a GROUP BY name of
        # SUM(q1) as the example, and scores.csv was written as its rows
        values, places = [], 0
        for row in rows[1:]:
            cells = [_number(row[k]) if k < len(row) else None for k in summed[0]]
            if any(c is None for c in cells):
                return None
            values.append(sum(c for c in cells if c is not None) / (len(cells) if summed[1] else 1))
            places = max(places, *(len(row[k].strip().partition(".")[2]) for k in summed[0]))
        if summed[1] and any(not float(v).is_integer() for v in values):
            places = max(places, 2)
        for row, value in zip(rows[1:], values):
            shown = f"{value:.{places}f}" if places else str(int(round(value)))
            out.append(row[:at] + [""] * (at - len(row)) + [shown] + row[at + 1:])
    for row in rows[1:] if spelled else []:
        a, b = (_number(row[k]) if k < len(row) else None for k in spelled[:2])
        if a is None or b is None:
            return None
        try:
            value = spelled[2](a, b)
        except ZeroDivisionError:
            return None
        places = max(len(row[k].strip().partition(".")[2]) for k in spelled[:2])
        shown = f"{value:.{places}f}" if places else (str(int(value)) if float(value).is_integer() else f"{value:g}")
        out.append(row[:at] + [""] * (at - len(row)) + [shown] + row[at + 1:])
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(out)
    return buf.getvalue()


def _csv_column_short(rel: str, path: Path, name: str) -> str:
    """The doubt when the CSV (TSV) file ``path`` lacks the column ``name`` in its first
    row, or a data row has no value in it ("" otherwise, and when it cannot be read)."""
    import csv
    import io

    try:
        text = path.read_text(encoding="utf-8-sig")
        rows = list(csv.reader(io.StringIO(text), delimiter="\t" if rel.lower().endswith(".tsv") else ","))
    except (OSError, UnicodeDecodeError, csv.Error):
        return ""
    if not rows:
        return ""
    header = [h.strip().lower() for h in rows[0]]
    if name.lower() not in header:
        blank = " (and an empty line)" if any(not r for r in rows[1:]) else ""
        return (f"the task asks for a {name} column in {rel}, but its first row is {', '.join(rows[0])!r}{blank}; "
                f"a column is a name in the first row and a value in that place of every row: write the whole "
                f"file with it (work the values out with table_query, then csv_write the rows)")
    at = header.index(name.lower())
    empty = [i + 1 for i, r in enumerate(rows) if i and (len(r) <= at or not r[at].strip())]
    if empty:
        return (f"the {name} column of {rel} has no value in {len(empty)} row(s) (line {', '.join(map(str, empty[:5]))}"
                f"); every row needs its value: write the whole file with it")
    return ""


def _column_not_added(ev: Evidence) -> str:
    """The doubt when the goal asks to add a column to a workbook it names and the
    table's header row lacks it, or (the goal spelling how to work it out) a row's
    value in it is not what the harness works out ("" otherwise)."""
    name = column_to_add(ev.goal)
    if not name:
        return ""
    for rel in dict.fromkeys(sum(goal_files(ev.goal), [])):
        path = Path(ev.workspace) / rel
        from .named_files import original_text

        # the file as this task first read it: a write of the model's may have the column's name in it already
        # (held-out BZI at 86ab2a2: "no,1 / task,2 / Book room,3 ...", the owner column gone)
        want = csv_column_text(ev.goal, ev.workspace, rel, original_text(rel, ev.calls)) if path.is_file() else None
        if want is not None and want.splitlines() != path.read_text(encoding="utf-8-sig").splitlines():
            return (f"the task asks for a {name} column in {rel}, worked out as it says, and {rel} does not hold it; "
                    f"{call_to_copy('write_file', {'path': rel, 'content': want})}")
        short = _csv_column_short(rel, path, name) if rel.lower().endswith((".csv", ".tsv")) and path.is_file() else ""
        if short:  # a held-out task (SH) at 5910adb: "temp_f\n\ntemp_c" put in the header's place, no row's value
            return short
        if not rel.lower().endswith(".xlsx") or not path.is_file():
            continue
        args = column_cells(ev.goal, ev.workspace, rel)
        sheets = dict(table_cells(path))
        rows = sheets.get(args["sheet"], []) if args else next(iter(sheets.values()), [])
        table = _table_of(rows)
        if table is None:
            continue
        header = [str(v or "").strip() for v in rows[table[0]]]
        to_copy = f": {call_to_copy('xlsx_write', args)}" if args else \
            " (xlsx_write cells: the name in the header row, each row's value below it)"
        if name.lower() not in (h.lower() for h in header):
            return (f"the task asks for a {name} column in {rel}, but the table's header row is "
                    f"{', '.join(h for h in header if h)!r}; add the column beside the table{to_copy}")
        if args:
            from openpyxl.utils.cell import coordinate_from_string, column_index_from_string

            wrong = []
            for c in args["cells"][1:]:
                col, row = coordinate_from_string(c["cell"])
                cells = rows[row - 1] if row - 1 < len(rows) else []
                k = column_index_from_string(col) - 1
                have = _number(cells[k]) if k < len(cells) else None
                if have is None or abs(have - float(c["value"])) > 1e-6 * max(1.0, abs(float(c["value"]))):
                    wrong.append(f"{c['cell']} holds {cells[k] if k < len(cells) else None!r}, not {c['value']}")
            if wrong:
                return (f"the {name} column of {rel} is not what the task says: {'; '.join(wrong[:3])}; "
                        f"write it{to_copy}")
    return ""


def _summary_not_shorter(ev: Evidence) -> str:
    """Why what the task wrote is no summary ("" when it is shorter): see
    :func:`summary_too_long`. docx_summarise: Qwen 1.5B copied all 11 paragraphs
    of report.docx into summary.docx and finished."""
    for c in ev.calls:
        if c.status == "done" and not c.error and c.risk in ("write", "destructive"):
            long = summary_too_long(ev.goal, ev.calls, c)
            if long:
                return (f"the task asks for a summary, but what {c.name} wrote to {long}; keep only the key points "
                        "the task asks for, and write it again")
    return ""


def _data_chars(result: str) -> int:
    """Characters of the data a read showed: inside its fence when fenced (a file
    the harness showed again comes with a line of its own words before the fence)."""
    inside = [m.group(0) for m in _FENCED.finditer(result)]
    return len(_FENCE_LINE.sub("", "\n".join(inside) if inside else result))


def summary_too_long(goal: str, calls: Sequence[CallRecord], write: CallRecord, share: float = 0.7) -> str:
    """"summary.docx is about as long as the original (N vs M characters)" when
    ``goal`` asks to summarise and the text of ``write`` (a write call, run or
    not) is at least ``share`` of the longest read of the goal's input files
    (400+ characters of data) among ``calls``; "" otherwise. docx_summarise at
    d59b864: 911 characters copied from a 1,012-character report passed at 0.8,
    measured against the re-shown read (its preamble counted as the report's)."""
    if not _SUMMARY.search(goal):
        return ""
    inputs = goal_files(goal)[1]
    read = [c for c in calls if c.status == "done" and not c.error and (c.risk or "read") == "read"
            and any(Path(rel).name.lower() in json.dumps(c.arguments).lower() for rel in inputs)]
    source = max((_data_chars(c.result or "") for c in read), default=0)
    if source < 400:
        return ""
    # a copy of the input holds all of it (docx_summarise at 8459f99: report.docx copied to summary.docx, "I did
    # copy the report.docx file to a new file called summary.docx" finished)
    copied = write.name in ("copy", "move") and any(Path(str(write.arguments.get("src", ""))).name.lower()
                                                   == Path(rel).name.lower() for rel in inputs)
    written = source if copied else len(" ".join(_values(write.arguments)))
    if written < share * source:
        return ""
    where = write.arguments.get("path") or write.arguments.get("output") or write.arguments.get("dest") or "the file"
    best = max(read, key=lambda c: _data_chars(c.result or ""))
    sections = [h.strip() for h in _HEADING.findall(best.result or "")][1:7]  # the first is the title
    per = f", e.g. one short sentence each for {', '.join(sections)}" if len(sections) >= 2 else ""
    # docx_summarise at 462ec82: the same 913-character copy sent three times after "a few short sentences"
    return (f"{where} is about as long as the original ({written} vs {source} characters); keep it under "
            f"{source // 3} characters{per}")


_HEADING = re.compile(r"^(?:\[p\d+\]\s*)?#{1,6}\s+(.{2,60}?)\s*$", re.MULTILINE)
_INCLUDE = re.compile(r"\b(?:include|mention|cover|give)\s+(?P<items>[^.;:\n()]{3,160})", re.IGNORECASE)


def summary_lacks(goal: str, calls: Sequence[CallRecord], write: CallRecord) -> list[str]:
    """The items the goal asks a summary to include ("Include the budget, the deadline
    and the main risk") that the text of ``write`` (a write call, run or not) does
    not give: none of the numbers of the source's sentence on it, when that sentence
    has numbers ("EUR 48,000"), else not the item's last word; [] when it has them
    all, or the items or their sentences are not found (see :func:`summary_points`).
    docx_summarise at 9fda44c: Qwen 1.5B wrote one paragraph, the project's
    description, and the task finished without budget, deadline or risk; at e1675c8
    it wrote steps for summarising ("Budget: include the approved budget"), words
    without a figure, and passed."""
    items = _summary_items(goal)
    points = summary_points(goal, calls, limit=10_000, keep_all=True) if items else []
    if len(points) != len(items):
        return []
    text = " ".join(_values(write.arguments))
    low = text.lower()
    digits = re.sub(r"(?<=\d)[,\s](?=\d{3}\b)", "", text)  # "48,000" and "48 000" read as 48000
    lacking = []
    for item, point in zip(items, points):
        head = item.split()[-1]
        numbers = [n.replace(",", "") for n in re.findall(r"\d[\d,.]*\d|\d", point) if len(n) > 1]
        if any(re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", digits) for n in numbers) if numbers \
                else re.search(rf"\b{re.escape(head[:5])}", low):
            continue
        lacking.append(item)
    return lacking


def _summary_items(goal: str) -> list[str]:
    """What the goal asks a summary to include, lower case: ["budget", "deadline", "main risk"]."""
    m = _INCLUDE.search(goal) if _SUMMARY.search(goal) else None
    if m is None:
        return []
    items = [re.sub(r"^(?:and\s+|or\s+)?(?:the|a|an|its|their|any)\s+", "", x.strip(), flags=re.IGNORECASE)
             for x in re.split(r",|\band\b|\bor\b", m.group("items"))]
    return [x.lower() for x in items if re.search(r"\w{3,}", x)]


def summary_points(goal: str, calls: Sequence[CallRecord], limit: int = 90, *, keep_all: bool = False) -> list[str]:
    """The sentences of the goal's input (the longest read of it among ``calls``) that
    hold what the goal asks a summary to include ("Include the budget, the deadline
    and the main risk": the first sentence naming each), each cut at its first colon,
    semicolon or comma when longer than ``limit`` characters; [] when the goal names
    nothing to include or one of them is in no sentence; ``keep_all``: one per item,
    a sentence naming two items twice. An extract to copy, for a
    model that copies the whole document (docx_summarise at 80595a7: Qwen 1.5B sent
    the 913-character copy of the report twice after "keep it under 337 characters")."""
    items = _summary_items(goal)
    inputs = goal_files(goal)[1]
    read = [c for c in calls if c.status == "done" and not c.error and (c.risk or "read") == "read"
            and any(Path(rel).name.lower() in json.dumps(c.arguments).lower() for rel in inputs)]
    if not items or not read:
        return []
    best = max(read, key=lambda c: _data_chars(c.result or ""))
    inside = [f.group(2) for f in _FENCED.finditer(best.result or "")] or [best.result or ""]
    sentences = []
    for line in _FENCE_LINE.sub("", "\n".join(inside)).splitlines():
        line = re.sub(r"^\s*\[p\d+\]\s*", "", line).strip()
        if line and not line.startswith(("#", "(")) and not re.match(r"^\S+\.\w+: \d+ ", line):
            sentences += [x.strip() for x in re.split(r"(?<=[.!?])\s+", line) if x.strip()]
    points: list[str] = []
    for item in items:
        head = item.split()[-1]
        hit = next((x for x in sentences if item in x.lower()), None) or next(
            (x for x in sentences if re.search(rf"\b{re.escape(head)}", x, re.IGNORECASE)), None)
        if hit is None:
            return []
        if len(hit) > limit:
            hit = re.split(r"[:;,]\s", hit)[0].rstrip(". ") + "."
        points.append(hit)
    return points if keep_all else list(dict.fromkeys(points))


#: "lists every action item with its owner": what the goal asks a list of
_LIST_EVERY = re.compile(r"\blist(?:s|ing)?\s+(?:every|all(?:\s+the)?|each)\s+(?P<what>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)"
                         r"{0,2}?)(?=\s+(?:with|and|from|in|of|that|who|which|on|for)\b|\s*[.,;:]|\s*$)", re.IGNORECASE)
#: "Write the decisions from meeting_notes.docx into decisions.md": a list of them, in the file after "into"
_PULL_THE = re.compile(r"^\W*(?:please\s+)?(?:write|put|copy|save|collect|extract|gather|pull|note)\s+(?:down\s+)?"
                       r"(?:all\s+|only\s+)?the\s+(?P<what>[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+(?:from|in|of)\s+"
                       r"[\w./-]+\.[A-Za-z]{2,5}\s+(?:in)?to\s+(?P<target>[\w./-]+\.[A-Za-z]{2,5})\b", re.IGNORECASE)
_GENERIC_ITEMS = frozenset("item items entry entries thing things point points line lines one ones".split())
_CONTENT_ARGS = {"note_add": "body", "write_file": "content", "docx_create": "blocks"}


_READ_MARK = re.compile(r"^\s*(?:\[p\d+\]|\d+\t)\s*")  # docx_read's "[p4] ", read_file's line number


def _bare_line(line: str) -> str:
    """A line without its read marks ("[p4] ", a line number), bullet and case."""
    line = _READ_MARK.sub("", line)
    return " ".join(re.sub(r"^[\s#*•-]+", "", line).split()).lower()


def _singular(word: str) -> str:
    """``word`` without its plural ending ("decisions": "decision", "addresses": "address")."""
    if word.lower().endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    return word[:-1] if word.lower().endswith("s") and not word.lower().endswith("ss") and len(word) > 3 else word


def _list_sources(goal: str, call: CallRecord, calls: Sequence[CallRecord]) \
        -> Iterator[tuple[CallRecord, list[str], list[str], str, str]]:
    """For ``call`` (a note_add, write_file or docx_create) that writes the list the
    goal asks for ("lists every action item"): ``(read call, its lines, the key words
    of what is listed, the text written, what is listed)`` for each read of this
    task of 4 lines or more, newest first; nothing otherwise."""
    field = _CONTENT_ARGS.get(call.name)
    m = _LIST_EVERY.search(goal)
    pulled = _PULL_THE.search(goal) if m is None else None
    if field is None or (m is None and pulled is None) or field not in call.arguments:
        return
    if m is not None:
        # the list is the one of the file (or note) named last before it in its sentence: multistep_invoices_memo at
        # 7382ba5, "Create invoices.xlsx ... listing every invoice, then write memo.docx ...": memo.docx is no list
        before = re.split(r"[.;!?]\s", goal[:m.start()])[-1]
        named = re.findall(r"[\w./-]+\.[A-Za-z]{2,5}\b|\bnote\b", before)
        target, what = (named[-1] if named else ""), m.group("what")
    else:  # a held-out task (RK) at 624b529: all of meeting_notes.docx saved as decisions.md
        target, what = pulled.group("target"), " ".join(_singular(w) for w in pulled.group("what").split())
    path = "note" if call.name == "note_add" else norm_path(str(call.arguments.get("path") or ""))
    keys = [w for w in what.lower().split() if w not in _GENERIC_ITEMS and len(w) >= 3]
    if not keys or (target != path and norm_path(target) != path):
        return
    wrote = json.dumps(call.arguments[field], ensure_ascii=False) if field == "blocks" else str(call.arguments[field])
    for c in reversed(calls):
        if c.status != "done" or c.error or not c.result or (c.risk or "read") != "read" or c.id == call.id:
            continue
        inside = [f.group(2) for f in _FENCED.finditer(c.result)]
        raw = [x for x in _FENCE_LINE.sub("", "\n".join(inside)).splitlines() if _bare_line(x)] if inside else []
        raw = [x for x in raw if not re.match(r"^\S+\.\w+: \d+ ", x) and not x.startswith("(")]
        if len(raw) >= 4:
            yield c, raw, keys, wrote, what


def copies_whole_source(goal: str, call: CallRecord, calls: Sequence[CallRecord]) -> tuple[str, str, list[str]] | None:
    """``(source, what, lines)`` when ``call`` (a note_add, write_file or docx_create)
    writes out nearly all of a source this task read (4 lines or more, 80% of them),
    at least two lines that do not name what the goal asks a list of ("lists every
    action item": lines with "action"), and the source has lines that do; ``lines``
    are those, as the source writes them. None otherwise.

    multistep_minutes_note at 21c8a9e: asked for a note "that lists every action item
    with its owner", Qwen 1.5B saved all eight paragraphs of minutes.docx (who was
    present, the fees) as the note."""
    for c, raw, keys, wrote, what in _list_sources(goal, call, calls):
        written = " ".join(_bare_line(x) for x in wrote.replace("\\n", "\n").splitlines())
        copied = [x for x in raw if _bare_line(x) in written]
        asked = [x for x in raw if any(re.search(rf"\b{re.escape(k)}", x, re.IGNORECASE) for k in keys)]
        if asked and len(copied) >= 0.8 * len(raw) and len([x for x in copied if x not in asked]) >= 2:
            return str(c.arguments.get("path") or c.name), what, [_READ_MARK.sub("", x).strip() for x in asked]
    return None


_LIST_STOP = frozenset("the and for with will from that this into onto are was has have its his her their our "
                       "your who".split())


def leaves_out_listed(goal: str, call: CallRecord, calls: Sequence[CallRecord]) \
        -> tuple[str, str, list[str], list[str]] | None:
    """``(source, what, left out, lines)`` when ``call`` writes the list the goal asks
    for ("lists every action item") and leaves out a line of a source this task read
    that is labelled as one ("Action: Bruno will get a quote ..."); ``lines`` are all
    such lines (two or more), as the source writes them. None otherwise. A line is in
    the list when one written line holds its first word that is not common to them
    all (the owner) and 60% of such words.

    multistep_minutes_note at 0417c73: the note held Ana's and Chen's actions and
    the discussion around them, not "Action: Bruno will get a quote for the shed
    roof.", and the task finished."""
    for c, raw, keys, wrote, what in _list_sources(goal, call, calls):
        label = re.compile(r"^[\s#*•-]*(?:" + "|".join(re.escape(k) for k in keys) + r")\w*\s*[:–-]", re.IGNORECASE)
        lines = [_READ_MARK.sub("", x).strip() for x in raw if label.match(_READ_MARK.sub("", x))]
        if len(lines) < 2:
            continue
        words = [[w for w in re.findall(r"[a-z0-9]{3,}", label.sub("", x).lower()) if w not in _LIST_STOP]
                 for x in lines]
        common = {w for ws in words for w in ws if sum(w in other for other in words) > len(words) / 2}
        segments = [set(re.findall(r"[a-z0-9]{3,}", seg.lower()))
                    for seg in re.split(r'\n|\\n|<[^>]+>|"\s*,\s*"', wrote) if seg.strip()]
        missing = []
        for line, ws in zip(lines, words):
            own = [w for w in ws if w not in common]
            if own and not any(own[0] in seg and sum(w in seg for w in own) >= 0.6 * len(own) for seg in segments):
                missing.append(line)
        if missing:
            return str(c.arguments.get("path") or c.name), what, missing, lines
    return None


def listed_call(call: CallRecord, lines: list[str]) -> str:
    """The ``call`` to copy with its content only ``lines`` (a bullet list)."""
    items = [re.sub(r"^[-*•]\s*", "", x) for x in lines]
    field = _CONTENT_ARGS[call.name]
    content: Any = [{"type": "bullets", "items": items}] if field == "blocks" else "\n".join(f"- {x}" for x in items)
    return call_to_copy(call.name, {**call.arguments, field: content})


_STORES = ((re.compile(r"\b(on|in|into|to)\s+(my|the|our|your)\s+calendar\b|^\W*(please\s+)?schedule\b|"
                       r"\bschedule\s+(a|an|the|it|this|that)\b", re.IGNORECASE), "calendar", "calendar_add_event"),
           (re.compile(r"\bnote\s+(titled|called|named)\b|\b(save|add|make|take|write)\s+(a|the|this)\s+note\b",
                       re.IGNORECASE), "notes", "note_add"))


def store_goal(goal: str) -> tuple[str, str] | None:
    """``(store, tool)`` when ``goal`` asks for a change in the calendar or the notes
    (``("calendar", "calendar_add_event")``), else None."""
    return next(((store, tool) for pattern, store, tool in _STORES if pattern.search(goal)), None)


#: a goal that moves an event already in the calendar: "Move my dentist appointment on 9 December to 16:00",
#: "Reschedule the team meeting to Friday", "Push back tomorrow's call with Ann to 3pm"
EVENT_MOVE = re.compile(r"\b(?:move|reschedule|postpone|push(?:\s+back)?|shift|bring\s+forward|put\s+off)\s+(?:my|the|"
                        r"our|this|that|\w+'s)?\s*(?:[\w-]+\s+){0,3}?(?:appointment|meeting|event|call|lunch|dinner|"
                        r"session|interview|class|visit|standup|review|check-?up)s?\b", re.IGNORECASE)


def event_move_asked(goal: str, tool_names: Iterable[str]) -> bool:
    """Whether ``goal`` moves a calendar event (:data:`EVENT_MOVE`, no file named) and
    ``calendar_move_event`` is one of ``tool_names``."""
    return bool(EVENT_MOVE.search(goal)) and not any(goal_files(goal)) and "calendar_move_event" in tool_names


#: a goal that cancels an event in the calendar: "Delete the Yoga session on 7 December from my calendar",
#: "Cancel my dentist appointment tomorrow"
EVENT_CANCEL = re.compile(r"\b(?:delete|cancel|remove|drop|scrap|call\s+off|take\s+out)\s+(?:my|the|our|this|that|"
                          r"\w+'s)?\s*(?:[\w-]+\s+){0,3}?(?:appointment|meeting|event|call|lunch|dinner|session|"
                          r"interview|class|visit|standup|review|check-?up)s?\b"
                          r"|\b(?:delete|cancel|remove|take)\b[^.?!]{1,60}?\b(?:from|off|out\s+of)\s+(?:my|the|our)\s+"
                          r"calendar\b", re.IGNORECASE)


def event_cancel_asked(goal: str, tool_names: Iterable[str]) -> bool:
    """Whether ``goal`` cancels (deletes) a calendar event (:data:`EVENT_CANCEL`, no file
    named) and ``calendar_cancel_event`` is one of ``tool_names``."""
    return bool(EVENT_CANCEL.search(goal)) and not any(goal_files(goal)) and "calendar_cancel_event" in tool_names


def _store_untouched(ev: Evidence) -> str:
    """A doubt when the goal asks for a change in the calendar or the notes and no
    call of this task changed them (the tool that does it must exist), or moves an
    event and no ``calendar_move_event`` moved one; "" otherwise.
    calendar_from_invite at 6b05252: Qwen 1.5B, asked to put the meeting in
    invite.txt on the calendar, edited invite.txt's date format and answered with
    steps for the user; the edit counted as the task's change. A held-out task (PK)
    at 9fa21b4: "Move my dentist appointment on 9 December to 16:00." added two
    dentist appointments, the old one left, and answered that it was added."""
    if event_move_asked(ev.goal, ev.tool_names) and not any(
            c.name == "calendar_move_event" and c.status == "done" and not c.error for c in ev.calls):
        return ("the task moves an event that is in the calendar, and no calendar_move_event call of this task moved "
                "one; move it with calendar_move_event (words of its title, the day it is on now, its new start), or "
                "say plainly that it is not in the calendar")
    if event_cancel_asked(ev.goal, ev.tool_names) and not any(
            c.name == "calendar_cancel_event" and c.status == "done" and not c.error for c in ev.calls):
        # a held-out task (SE) at 5910adb: "Delete the Yoga session ..." added a second Yoga session
        return ("the task cancels (deletes) an event that is in the calendar, and no calendar_cancel_event call of "
                "this task cancelled one; cancel it with calendar_cancel_event (words of its title, the day it is "
                "on), or say plainly that it is not in the calendar")
    for pattern, store, tool in _STORES:
        if not pattern.search(ev.goal) or tool not in ev.tool_names:
            continue
        prefix = tool.split("_")[0] + "_"
        if any(c.name.startswith(prefix) and c.status == "done" and not c.error and c.risk not in ("", "read")
               for c in ev.calls):
            continue
        return (f"the task asks for a change in the {store}, but no call of this task changed the {store}; "
                f"do it with {tool}, or say plainly why it cannot be done")
    return ""


_ADDED_EVENT = re.compile(r"^Added: (?P<event>\w{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}-(?:\w{3} \d{4}-\d{2}-\d{2} )?"
                          r"(?P<h>\d{2}):(?P<m>\d{2}) .*?) \(", re.MULTILINE)
_SAYS_END = re.compile(r"\b(?:ends?|ending|ended|finish(?:es|ing)?|until|till)\s+(?:at\s+|by\s+)?(?:around\s+)?"
                       r"(?P<time>(?P<h>\d{1,2})(?::(?P<m>\d{2}))?(?:\s*(?P<ap>[ap])\.?m\b\.?)?)(?![\d:])",
                       re.IGNORECASE)


def wrong_end_time(answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt when the answer says an event added by this task ends at a time no
    added event ends at; "" otherwise. calendar_add_event at 21c8a9e: the tool added
    "Thu 2026-12-03 15:00-15:45 Dentist appointment", and the answer said it "will
    end at 3 PM on the same day"."""
    added = [m for c in calls if c.name == "calendar_add_event" and c.status == "done" and not c.error
             for m in _ADDED_EVENT.finditer(c.result or "")]
    ends = {int(m.group("h")) * 60 + int(m.group("m")) for m in added}
    for said in _SAYS_END.finditer(answer) if ends else ():
        h, minute, ap = int(said.group("h")), int(said.group("m") or 0), (said.group("ap") or "").lower()
        if h > 23 or minute > 59:
            continue
        read = {(h % 12 + (12 if ap == "p" else 0)) * 60 + minute} if ap else {h * 60 + minute, (h + 12) * 60 + minute}
        if not read & ends:
            shown = "; ".join(m.group("event") for m in added[:3])
            return (f"the answer says the event ends at {said.group('time').strip()}, but calendar_add_event added "
                    f"{shown}; give the times the tool gave")
    return ""


def wrong_event_day(answer: str, calls: Sequence[CallRecord]) -> str:
    """A doubt when the answer gives the day of an event this task added as a date no
    added event is on ("" otherwise; an answer giving no date is not doubted here). A
    held-out task at b552c3e: the dentist added on Thu 2026-12-10, the answer said it
    was added "on Saturday 2026-12-05", today (the date check's "now")."""
    added = [m for c in calls if c.name == "calendar_add_event" and c.status == "done" and not c.error
             for m in _ADDED_EVENT.finditer(c.result or "")]
    days = {m.group("event")[4:14] for m in added}
    if not days:
        return ""
    said = dates_in(answer)
    on = {(int(d[:4]), int(d[5:7]), int(d[8:10])) for d in days}
    wrong = [d for d in said if not any(d.month == m and d.day == day and (d.year is None or d.year == y)
                                        for y, m, day in on)]
    if not said or len(wrong) < len(said):
        return ""
    shown = "; ".join(m.group("event") for m in added[:3])
    return (f"the answer says {wrong[0].text}, but calendar_add_event added it on {', '.join(sorted(days))}; "
            f"give the day the tool gave: {shown}")


_FILE_OPS = re.compile(r"(^|[.,;:]\s+)\W*(please\s+)?(?P<verb>renam|mov|sort|organi[sz])\w*\b"
                       r"(?=[^.]{0,80}\b(files?|folders?|photos?|pictures?|images?|documents?|pdfs?)\b)", re.IGNORECASE)
_NOT_FILES = re.compile(r"\b(sheets?|columns?|rows?|lines?|entries|lists?|tables?|tabs?|headings?|paragraphs?|"
                        r"sections?|events?|meetings?|notes?)\b", re.IGNORECASE)
_MOVES = ("rename_many", "move")


_FOLDER_NAMED = re.compile(
    r"\b(?:in|inside|within|from)\s+(?:the\s+|my\s+|your\s+)?[\"'`]?(?P<a>[\w.-]+(?:/[\w.-]+)*)/?[\"'`]?\s+"
    r"(?:folder|directory)\b|\b(?:folder|directory)\s+[\"'`]?(?P<b>[\w.-]+(?:/[\w.-]+)*)/?[\"'`]?", re.IGNORECASE)
#: a goal asking to sort a folder's files into subfolders by their extension
SORT_BY_TYPE = re.compile(r"\b(sort|organi[sz]e|group|file|move)\b.{0,80}?\b(sub)?folders?\b.{0,80}?\b(extension|file "
                          r"types?|types? of file)", re.IGNORECASE | re.DOTALL)


def goal_folder(goal: str, is_dir: Callable[[str], bool]) -> str:
    """The one existing workspace folder ``goal`` names as "the photos folder", "in
    photos/ folder" or "folder photos" ("" when it names none or several);
    ``is_dir(relative path)`` says whether a folder exists (``Workspace.is_dir``)."""
    found: list[str] = []
    for m in _FOLDER_NAMED.finditer(goal):
        name = (m.group("a") or m.group("b") or "").strip("/")
        try:
            if name and name not in found and is_dir(name):
                found.append(name)
        except Exception:  # noqa: BLE001 - a name the workspace refuses is no folder of it
            continue
    return found[0] if len(found) == 1 else ""


def _left_unsorted(ev: Evidence) -> str:
    """The doubt when the goal asks to sort a folder's files into subfolders by
    extension and files with an extension are still directly in it ("" otherwise).
    files_organise at 4df8dd6: the .pdf and .jpg files moved, the step budget's last
    turn answered that all were sorted, notes.txt and todo.txt still in inbox."""
    if not SORT_BY_TYPE.search(ev.goal):
        return ""
    root = Path(ev.workspace)
    folder = goal_folder(ev.goal, lambda rel: (root / rel).is_dir())
    if not folder:
        return ""
    left = sorted(p.name for p in (root / folder).iterdir() if p.is_file() and p.suffix and not p.name.startswith("."))
    if not left:
        return ""
    exts = sorted({Path(n).suffix.lower().lstrip(".") for n in left})
    moves = " then ".join(json.dumps({"src": f"{folder}/*.{e}", "dest": f"{folder}/{e}"}) for e in exts[:8])
    return (f"the task asks to sort the files of {folder} into subfolders, and {folder} still holds "
            f"{', '.join(left[:5])}{' ...' if len(left) > 5 else ''}; call move with {moves}")


def _files_unmoved(ev: Evidence) -> str:
    """A doubt when the goal asks to rename, move or sort files, something else was
    changed, and no ``rename_many`` or ``move`` of this task succeeded; "" otherwise.
    files_rename_pattern at c92ae49: Qwen 1.5B's renames failed, it added a note
    named holiday-0042 and answered "I found the note ... and added it to the notes";
    the note counted as the task's change and the task finished."""
    m = _FILE_OPS.search(ev.goal)
    if m is None or _NOT_FILES.search(ev.goal) or not any(t in ev.tool_names for t in _MOVES):
        return ""
    if any(c.name in _MOVES and c.status == "done" and not c.error for c in ev.calls):
        return ""
    verb = {"renam": "rename", "mov": "move", "sort": "sort"}.get(m.group("verb").lower(), "organise")
    did = sorted({c.name for c in ev.calls if c.status == "done" and not c.error and c.risk in ("write", "destructive")})
    return (f"the task asks to {verb} files, but no call of this task moved or renamed any (what changed came from "
            f"{', '.join(did) or 'other calls'}); do it with rename_many or move, or say plainly why it cannot be done")


#: "delete all .tmp files in the downloads folder", "remove every *.log file from logs"
_DELETE_KIND = re.compile(r"\b(?:delete|remove|trash|erase)\s+(?:all|every|each|the)?\s*(?:of\s+the\s+)?(?:the\s+)?"
                          r"(?P<kind>empty|blank|zero-byte|\*?\.[a-z0-9]{1,8})\s+files?\b(?:\s+(?:in|from|inside)\s+"
                          r"(?:the\s+)?[`'\"]?(?P<folder>[\w./-]+?)[`'\"]?(?:\s+(?:folder|directory))?\b)?",
                          re.IGNORECASE)


def files_to_delete(goal: str, workspace: str | Path) -> tuple[str, str, list[str]] | None:
    """``(folder, kind, paths)`` when ``goal`` asks to delete every file of a kind in a
    folder ("the .tmp files in the downloads folder", "the empty files in drafts"):
    the folder ("." for the workspace), the kind as the checks say it (".tmp", "empty")
    and the workspace paths of that folder's files of that kind (the extension matched
    case aside; not in subfolders), sorted; None otherwise."""
    m = _DELETE_KIND.search(goal)
    if m is None:
        return None
    root = Path(workspace)
    said = m.group("folder")
    # the folder as said, also once gone (deleted whole); the workspace when the goal's word names no folder
    folder = said if said and ((root / said).is_dir() or not (root / said).exists()) else "."
    kind = m.group("kind").lower().lstrip("*")
    empty = not kind.startswith(".")

    def of_kind(p: Path) -> bool:
        try:
            return p.is_file() and not p.is_symlink() and (p.stat().st_size == 0 if empty else p.suffix.lower() == kind)
        except OSError:
            return False

    where = root / folder
    paths = sorted(p.relative_to(root).as_posix() for p in where.iterdir() if of_kind(p)) if where.is_dir() else []
    return norm_path(folder) or ".", "empty" if empty else kind, paths


def _files_left_to_delete(ev: Evidence) -> str:
    """A doubt when the goal asks to delete every file of a kind (".tmp files in the
    downloads folder", "the empty files in drafts") and some are still there, with the
    next delete to copy, or when a delete of this task took the folder itself, with the
    files it should have kept ("" otherwise). A held-out task at a56e3b0: one of three
    .tmp files deleted, then steps for the user to delete the rest, and the task
    finished; at 2e1bee7 the drafts folder was deleted for its empty files."""
    asked = files_to_delete(ev.goal, ev.workspace) if "delete" in ev.tool_names else None
    if asked is None:
        return ""
    folder, kind, left = asked
    whole = next((c for c in ev.calls if c.name == "delete" and c.status == "done" and not c.error
                  and folder != "." and f"{folder}/".startswith(norm_path(str(c.arguments.get("path", ""))) + "/")),
                 None)
    if whole is not None:
        return (f"the task asks to delete only the {kind} files in {folder}, and step {whole.step} deleted "
                f"{whole.arguments.get('path')} itself, with every file in it; the user can restore it with undo")
    if not left:
        return ""
    return (f"the task asks to delete every {kind} file there, and {len(left)} {'is' if len(left) == 1 else 'are'} "
            f"still there ({', '.join(left[:6])}); delete {'it' if len(left) == 1 else 'each'}: "
            f"{call_to_copy('delete', {'path': left[0]})}")


#: the extensions of a kind of file a goal names: "the PDF files", "all Word documents", "the .csv files"
_KIND_SUFFIXES = {"pdf": (".pdf",), "word": (".docx", ".doc"), "docx": (".docx",), "excel": (".xlsx", ".xls"),
                  "xlsx": (".xlsx",), "csv": (".csv",), "text": (".txt",), "txt": (".txt",), "markdown": (".md",),
                  "md": (".md",), "image": (".jpg", ".jpeg", ".png", ".gif"), "photo": (".jpg", ".jpeg", ".png"),
                  "jpg": (".jpg", ".jpeg"), "jpeg": (".jpg", ".jpeg"), "png": (".png",)}
#: a goal that lists the files of a kind into a file: "Make a list of the PDF files in this folder and save it as
#: pdfs.txt", "Write the names of all .csv files into tables.md"
_FILES_LISTED = re.compile(r"\b(?:list|names?|inventory)\b[^.?!]{0,40}?\b(?:all\s+)?(?:the\s+|my\s+)?\.?(?P<kind>"
                           + "|".join(sorted(_KIND_SUFFIXES, key=len, reverse=True))
                           + r")\s*(?:files|documents|s\b|photos|images|pictures)", re.IGNORECASE)
#: a goal that picks one or some of them: "the name of the PDF with the most pages", "which CSV files ..."
_PICKS_FILES = re.compile(r"\b(most|least|fewest|largest|smallest|biggest|newest|oldest|latest|earliest|which|first|"
                          r"last|mention\w*|contain\w*|about|older|newer|bigger|smaller|larger)\b", re.IGNORECASE)
_SUBFOLDERS = re.compile(r"\b(sub-?folders?|sub-?directories|recursive(?:ly)?|everywhere|all folders)\b", re.IGNORECASE)


def files_list_asked(goal: str, workspace: str | Path) -> tuple[str, str, list[str]] | None:
    """``(output, kind, paths)`` when ``goal`` asks for the files of a kind (a PDF, Word,
    Excel, CSV, text, Markdown or image file) listed in one .txt or .md file it names:
    the workspace paths of the files of that kind, the extension matched case aside, in
    the folder the goal names (else the workspace), in its subfolders too only when the
    goal says so, the output itself left out, sorted; None otherwise. A held-out task
    (QC) at 5034895: "Make a list of the PDF files in this folder and save it as
    pdfs.txt." saved list_dir's listing, notes.txt and the sizes with it."""
    m = _FILES_LISTED.search(goal)
    outputs = [o for o in goal_files(goal)[0] if o.lower().endswith((".txt", ".md"))]
    if m is None or len(outputs) != 1 or _PICKS_FILES.search(goal):
        return None
    root = Path(workspace)
    folder = goal_folder(goal, lambda rel: (root / rel).is_dir()) or "."
    suffixes = _KIND_SUFFIXES[m.group("kind").lower()]
    where = root / folder
    found = (where.rglob("*") if _SUBFOLDERS.search(goal) else where.iterdir()) if where.is_dir() else []
    paths = sorted(p.relative_to(root).as_posix() for p in found
                   if p.is_file() and p.suffix.lower() in suffixes and norm_path(p.relative_to(root).as_posix())
                   != norm_path(outputs[0]) and not any(part.startswith(".") for part in p.relative_to(root).parts))
    return outputs[0], m.group("kind"), paths


def files_list_text(output: str, paths: list[str]) -> str:
    """The list file's text: one path per line ("- " before each in a Markdown file)."""
    bullet = "- " if output.lower().endswith(".md") else ""
    return "".join(f"{bullet}{p}\n" for p in paths)


def _files_list_wrong(ev: Evidence) -> str:
    """A doubt when the goal lists the files of a kind into a file
    (:func:`files_list_asked`) and that file holds a line that names no such file, or
    leaves one out ("" otherwise), with the write that lists them. A line may give a
    file by its name or its workspace path; a file in a subfolder may be listed too."""
    asked = files_list_asked(ev.goal, ev.workspace)
    if asked is None or not asked[2]:
        return ""
    output, kind, paths = asked
    try:
        text = (Path(ev.workspace) / output).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    names = {p.lower() for p in paths} | {p.rsplit("/", 1)[-1].lower() for p in paths}
    suffixes = _KIND_SUFFIXES[kind.lower()]
    lines = [re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", ln).strip().strip("`'\"") for ln in text.splitlines()]
    lines = [ln.removeprefix("./") for ln in lines if ln]
    stray = [ln for ln in lines if ln.lower() not in names and not (ln.lower().endswith(suffixes) and " " not in ln
                                                                    and (Path(ev.workspace) / ln).is_file())]
    missing = [p for p in paths if p.lower() not in {ln.lower() for ln in lines}
               and p.rsplit("/", 1)[-1].lower() not in {ln.lower() for ln in lines}]
    if not stray and not missing:
        return ""
    held = f"it holds {', '.join(repr(s) for s in stray[:3])}, no {kind} file's name" if stray else \
        f"it leaves out {', '.join(missing[:4])}"
    return (f"the task asks for the {kind} files listed in {output}, and {held}; the {kind} files are "
            f"{', '.join(paths[:8])}{' ...' if len(paths) > 8 else ''}: "
            f"{call_to_copy('write_file', {'path': output, 'content': files_list_text(output, paths)})}")


_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12}
_ASKED_N = re.compile(r"\b(?:top|bottom|the|those|these|first)[\s-]+(?P<n>\d{1,2}|"
                      + "|".join(_NUMBER_WORDS) + r")\b(?:\s+(?:[a-z]+\s+)?(?P<noun>[a-z]{3,}s)\b)?",
                      re.IGNORECASE)


def asked_count(goal: str) -> tuple[int, str, bool] | None:
    """``(n, noun, highest)`` when ``goal`` asks for a ranking of ``n`` things ("the
    five vendors we paid the most", "the 3 customers who spent the most", "Top 5"),
    else None. ``noun`` is the plural the goal names ("rows" when it names none);
    ``highest`` is False for a ranking from the bottom ("the 3 cheapest items")."""
    high, low = bool(_HIGHEST.search(goal)), bool(_LOWEST.search(goal))
    if not (high or low):
        return None
    found = []
    for m in _ASKED_N.finditer(goal):
        raw = m.group("n").lower()
        n = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
        if 2 <= n <= 50:
            found.append((n, (m.group("noun") or "").lower()))
    if not found:
        return None
    n, noun = next((f for f in found if f[1]), found[0])
    return n, noun or "rows", not low


#: "three bullet points", "5 bullets", "four short points": a count of list items the goal asks for
_N_POINTS = re.compile(r"\b(?P<n>\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")\s+(?:short\s+|key\s+|main\s+)?"
                       r"(?:bullet(?:\s+point)?s|bullet\s+points|points|items)\b", re.IGNORECASE)
_ITEM_LINE = re.compile(r"^\s*(?:[-*+\u2022\u25cf]|\d{1,2}[.)])\s+\S")


def _points_not_as_asked(ev: Evidence) -> str:
    """Why a text file the goal asks for does not hold the number of list items the goal
    asks for ("three bullet points in summary.md"), or runs them together on one line
    with HTML line breaks ("" otherwise). A held-out task at a56e3b0: "Summarise
    notes.md into three bullet points in summary.md." wrote five bullets on one line
    joined with "<br>", and the task finished."""
    m = _N_POINTS.search(ev.goal)
    if m is None:
        return ""
    raw = m.group("n").lower()
    n = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    root = Path(ev.workspace)
    for rel in dict.fromkeys([*goal_files(ev.goal)[0], *ev.written]):  # "in summary.md" reads as an input
        path = root / rel
        if path.suffix.lower() not in (".md", ".txt") or not path.is_file() or path.stat().st_size > 200_000:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if re.search(r"<br\s*/?>", text, re.IGNORECASE):
            return (f"{rel} runs its lines together with <br>, which a text file shows as it is; write each point "
                    f"on a line of its own, starting with \"- \"")
        items = [ln for ln in text.splitlines() if _ITEM_LINE.match(ln)]
        if items and len(items) != n:
            return (f"the task asks for {n} {m.group(0).split(None, 1)[1]}, and {rel} holds {len(items)}; write "
                    f"exactly {n}, one per line")
    return ""


#: "under a heading called Invoice", "with the heading 'Invoice numbers'", "in a section titled Costs"
_HEADING_ASKED = re.compile(r"\b(?:heading|section|title)\s+(?:(?:called|named|titled)\s+)?[\"'\u201c\u2018]?"
                            r"(?P<name>[A-Z0-9][\w &/-]{0,40}?)[\"'\u201d\u2019]?"
                            r"(?=[.,;:!?]|\s+(?:and|in|to|at|of|with)\b|\s*$)")


#: a goal asking for a list in a file: "a to-do list", "a checklist", "bullet points", "list the ..."
_LIST_ASKED = re.compile(r"\b(to-?do|checklist|list|bullets?|bullet points?)\b", re.IGNORECASE)


def _list_on_one_line(ev: Evidence) -> str:
    """The doubt when the goal asks for a list and a Markdown or text file this task
    wrote runs its items together on one line ("They are: - Ana ... - Ben ...") with
    no line of its own for any ("" otherwise). A held-out task at 5a8dc42: todo.md."""
    if not _LIST_ASKED.search(ev.goal):
        return ""
    root = Path(ev.workspace)
    for rel in dict.fromkeys(ev.written):
        path = root / rel
        if path.suffix.lower() not in (".md", ".txt") or not path.is_file() or path.stat().st_size > 200_000:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        runs = [ln for ln in text.splitlines() if ln.count(" - ") >= 2]
        if runs and not any(_ITEM_LINE.match(ln) for ln in text.splitlines()):
            n = runs[0].count(" - ")
            return (f"{rel} runs its {n} items together on one line; write each on a line of its own, starting "
                    "with \"- \"")
    return ""


#: a goal that fixes a misspelt word: "Fix the typo recieve in readme.md", "correct the misspelling 'adress'"
_TYPO = re.compile(r"\b(?:typo|misspelling|misspelt word|misspelled word|spelling (?:mistake|error))\s+(?:of\s+)?"
                   r"[\"'\u2018\u201c]?(?P<word>[A-Za-z][A-Za-z'-]{2,})", re.IGNORECASE)


def typo_asked(goal: str) -> str:
    """The misspelt word ``goal`` asks to fix ("Fix the typo recieve ...": "recieve"), or ""."""
    m = _TYPO.search(goal)
    return m.group("word") if m else ""


def _typo_left(ev: Evidence) -> str:
    """The doubt when the goal names a typo to fix and a text file the goal names
    still holds it as a word ("" otherwise), with its first such line. A held-out task
    at 4361efa: one "recieve" of two fixed, and "no changes were needed" answered."""
    word = typo_asked(ev.goal)
    if not word:
        return ""
    root = Path(ev.workspace)
    for rel in goal_files(ev.goal)[1]:
        path = root / rel
        if path.suffix.lower() not in (".md", ".txt", "") or not path.is_file() or path.stat().st_size > 200_000:
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        at = next((i for i, ln in enumerate(lines) if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", ln, re.I)), None)
        if at is not None:
            return (f"{rel} still holds {word!r} (line {at + 1}: \"{lines[at].strip()[:80]}\"); fix every one: call "
                    f"edit_file with old_text {word!r}, new_text its right spelling and replace_all true")
    return ""


def heading_line(name: str) -> re.Pattern[str]:
    """A line that is the heading ``name`` ("## Invoice", "Invoice:", "**Invoice**"), any case (MULTILINE)."""
    return re.compile(rf"^\s*(?:#{{1,6}}\s*)?\**{re.escape(name)}\**\s*:?\s*$", re.IGNORECASE | re.MULTILINE)


#: a goal asking for a document's headings: "the section headings of report.docx", "an outline of notes.md"
_HEADINGS_ASKED = re.compile(r"\b(?:section\s+)?(?:headings|section\s+titles|titles\s+of\s+the\s+sections|outline)\b",
                             re.IGNORECASE)
_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


def headings_asked(goal: str, workspace: str | Path) -> tuple[str, str, list[tuple[int, str]]] | None:
    """``(source, output, [(level, text), ...])`` when ``goal`` asks for the headings of
    the one Word or Markdown file it reads, written to a Markdown or text file; the
    headings as the source marks them (Word's heading styles, "#" lines). None
    otherwise, and when the source has no heading. A held-out task at 1de0702: "Write
    the section headings of report.docx into outline.md." wrote every paragraph."""
    if not _HEADINGS_ASKED.search(goal):
        return None
    outputs, inputs = goal_files(goal)
    sources = [i for i in inputs if i.lower().endswith((".docx", ".md"))]
    outs = [o for o in outputs if o.lower().endswith((".md", ".txt"))]
    if len(sources) != 1 or len(outs) != 1:
        return None
    found = document_headings(Path(workspace) / sources[0])
    return (sources[0], outs[0], found) if found else None


def document_headings(path: Path) -> list[tuple[int, str]]:
    """``[(level, text), ...]`` of the headings of a Word document (its heading styles,
    as docx_read shows them) or a Markdown file ("#" lines), in order; [] when it has
    none or cannot be read."""
    try:
        if path.suffix.lower() == ".docx":
            from tools.office.docx_read import docx_to_text

            text = docx_to_text(path.read_bytes(), path.name)[0]
            lines = [m.group(1) for m in re.finditer(r"^\[p\d+\] (.*)$", text, re.MULTILINE)]
        else:
            lines = path.read_text(encoding="utf-8").splitlines()
    except Exception:  # noqa: BLE001 - a file that cannot be read is another check's business
        return []
    return [(len(m.group(1)), m.group(2)) for ln in lines if (m := _MD_HEADING.match(ln.strip()))]


_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "last": -1}
#: "the title of the second section", "the third heading", "the last chapter's name"
_NTH_SECTION = re.compile(r"\b(?P<nth>" + "|".join(_ORDINALS) + r")\s+(?P<what>section|heading|chapter|part)s?\b",
                          re.IGNORECASE)


def nth_section(goal: str, workspace: str | Path) -> tuple[str, str, list[str]] | None:
    """``(document, the heading asked, the section headings in order)`` when ``goal``
    asks about the Nth (or last) section of the one Word or Markdown file it names
    ("What is the title of the second section in guide.docx?"): the sections are the
    headings of the document's top level (the level below a lone first heading that
    titles the whole document); None otherwise, or when the document has fewer. A
    held-out task (MH) at a367559 answered the first section's title."""
    m = _NTH_SECTION.search(goal)
    docs = [p for p in goal_files(goal)[1] if p.lower().endswith((".docx", ".md"))]
    if m is None or len(docs) != 1:
        return None
    found = document_headings(Path(workspace) / docs[0])
    if not found:
        return None
    top = min(level for level, _ in found)
    below = [level for level, _ in found if level > top]
    if sum(level == top for level, _ in found) == 1 and found[0][0] == top and len(below) > 1:
        top = min(below)  # "# Report" over "## Costs", "## Staff": the sections are the "##" ones
    sections = [text for level, text in found if level == top]
    n = _ORDINALS[m.group("nth").lower()]
    if n > len(sections):
        return None
    return docs[0], sections[n - 1 if n > 0 else -1], sections


def headings_text(output: str, headings: Sequence[tuple[int, str]]) -> str:
    """The headings as a Markdown file's lines ("# Report", "## Costs") or, for a text
    file, one text a line."""
    md = output.lower().endswith(".md")
    return "\n".join(f"{'#' * level} {text}" if md else text for level, text in headings) + "\n"


def _headings_not_as_asked(ev: Evidence) -> str:
    """The doubt when the goal asks for a document's headings in a file (:func:`headings_asked`)
    and that file leaves one out or holds a line that is no heading ("" otherwise), with
    the write to copy."""
    asked = headings_asked(ev.goal, ev.workspace)
    if asked is None:
        return ""
    source, output, headings = asked
    try:
        lines = [ln.strip() for ln in (Path(ev.workspace) / output).read_text(encoding="utf-8").splitlines()]
    except (OSError, UnicodeDecodeError):
        return ""
    texts = {t.lower() for _, t in headings}
    said = [re.sub(r"^(?:#{1,6}|[-*+]|\d{1,3}[.)])\s*", "", ln).strip() for ln in lines if ln]
    stray = [ln for ln in said if ln.lower() not in texts]
    missing = [t for _, t in headings if t.lower() not in {ln.lower() for ln in said}]
    if not stray and not missing:
        return ""
    wrong = f"holds {stray[0]!r}, which is no heading of {source}" if stray else f"leaves out {missing[0]!r}"
    args = {"path": output, "content": headings_text(output, headings)}
    return f"the task asks for the headings of {source}, and {output} {wrong}; {call_to_copy('write_file', args)}"


#: a section taken out, not asked for: "Delete the section Old ideas from notes.md" (batch KZ at 6a1c8bc, KZH: the
#: deletion was refused as lacking a heading "Old ideas from notes")
_SECTION_OUT = re.compile(r"\b(?:delete|remove|drop|take\s+out|cut|get\s+rid\s+of)\b[^.?!]{0,20}$", re.IGNORECASE)


def heading_asked(goal: str) -> str:
    """The heading ``goal`` names ("under a heading called Invoice": "Invoice"), or ""
    (also for a section it takes out)."""
    m = _HEADING_ASKED.search(goal)
    return m.group("name").strip() if m and not _SECTION_OUT.search(goal, 0, m.start()) else ""


def _heading_missing(ev: Evidence) -> str:
    """The doubt when the goal names a heading ("under a heading called Invoice") and a
    Markdown or text file this task wrote has no line that is that heading ("# Invoice",
    "Invoice:"); "" otherwise. A held-out task at a864c41: the note's only line
    replaced by the invoice number, no heading written, and "added under a heading
    called Invoice" answered; the task finished."""
    name = heading_asked(ev.goal)
    if not name:
        return ""
    line = heading_line(name)
    root = Path(ev.workspace)
    for rel in dict.fromkeys(ev.written):
        path = root / rel
        if path.suffix.lower() not in (".md", ".txt") or not path.is_file() or path.stat().st_size > 200_000:
            continue
        if not line.search(path.read_text(encoding="utf-8", errors="replace")):
            return (f"the task asks for a heading {name!r}, and {rel} has no heading line of it; write it as a line "
                    f"of its own (\"## {name}\") above what goes under it")
    return ""


#: "a short email to Tom", "a letter for Mrs Diaz", "a note to the team": whom a written message is for
_MESSAGE_TO = re.compile(r"\b(?:e-?mail|mail|letter|message|note|reply|memo|invitation)\s+(?:to|for)\s+"
                         r"(?P<who>(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?)", re.IGNORECASE)


def _recipient_missing(ev: Evidence) -> str:
    """The doubt when the goal asks for a message to someone it names ("a short email to
    Tom in email.txt") and the text file this task wrote for it never names them ("" otherwise).
    A held-out task at 8da7e10: email.txt held a subject and the total, no "Tom"."""
    m = _MESSAGE_TO.search(ev.goal)
    outputs = [r for r in goal_files(ev.goal)[0] if r.lower().endswith((".txt", ".md", ".eml"))]
    if m is None or not outputs:
        return ""
    who = m.group("who")
    for rel in outputs:
        path = Path(ev.workspace) / rel
        if norm_path(rel) not in {norm_path(p) for p in ev.written} or not path.is_file() \
                or path.stat().st_size > 200_000:
            continue
        if not re.search(rf"\b{re.escape(who.split()[0])}\b", path.read_text(encoding="utf-8", errors="replace"),
                         re.IGNORECASE):
            return (f"the task asks for a message to {who} in {rel}, and {rel} never names {who}; address it to "
                    f"them (e.g. a first line \"Hi {who.split()[0]},\")")
    return ""


def _data_rows(rows: Sequence[Sequence[Any]]) -> list[Sequence[Any]]:
    """The non-empty rows of a sheet, a first row without a number (a header) left out."""
    kept = [r for r in rows if any(v not in (None, "") and str(v).strip() for v in r)]
    if kept and not any(isinstance(v, (int, float)) or _CELL_NUMBER.fullmatch(str(v or "").strip()) for v in kept[0]):
        kept = kept[1:]
    return kept


def _fewer_rows_than_asked(ev: Evidence) -> str:
    """The doubt when the goal asks for a ranking of n things in a sheet or table
    file this task wrote, and it holds fewer than n rows of data, unless a grouped
    ``table_query`` of this task found only that many groups ("" otherwise).
    xlsx_top_vendors at 4df8dd6: the "Top 5" sheet overwritten with one cell, the sum
    of one vendor's payments, and the task finished."""
    asked = asked_count(ev.goal)
    if asked is None:
        return ""
    n, noun, high = asked
    root, touched = Path(ev.workspace), {norm_path(p) for p in ev.touched}
    outputs, inputs = goal_files(ev.goal)
    named = SHEET_NAMED.search(ev.goal)
    tables = [r for r in dict.fromkeys([*outputs, *(inputs if named else [])])
              if r.lower().endswith((".csv", ".tsv", ".xlsx")) and norm_path(r) in touched]
    if not tables:
        return ""
    sheets = table_cells(root / tables[0])
    if named:
        sheets = [t for t in sheets if t[0].strip().lower() == named.group(1).strip().lower()]
    if not sheets:
        return ""  # a missing sheet is another check's doubt
    have = len(_data_rows(sheets[0][1]))
    if have >= n:
        return ""
    for c in ev.calls:  # only that many groups: an honest short list
        sql = str(c.arguments.get("sql", "")) if c.name == "table_query" else ""
        if sql and c.status == "done" and not c.error and re.search(r"\bgroup\s+by\b", sql, re.IGNORECASE) \
                and not re.search(r"\blimit\b", sql, re.IGNORECASE) \
                and int((c.data or {}).get("total_rows") or -1) == have:
            return ""
    where = f"the sheet {named.group(1)!r}" if named else tables[0]
    said = f"the task asks for the {n} {noun}, and {where} has {have} row{'s' if have != 1 else ''} of them; "
    ranked = _ranking_to_write(ev.calls, n, tables[0], sheets[0]) if named else ""
    if ranked:
        return said + f"write all {n}; {ranked}"
    return said + (f"rank them with table_query (SELECT ..., SUM(...) ... GROUP BY ... ORDER BY 2 "
                   f"{'DESC' if high else 'ASC'} LIMIT {n}) and write all {n} rows it returns")


#: a goal asking a document to state a figure: "memo.docx ... stating the total amount"
_STATES_FIGURE = re.compile(r"\b(?:stat(?:e|es|ing)|giv(?:e|es|ing)|show(?:s|ing)?|report(?:s|ing)?|with)\s+"
                            r"(?:the\s+|its\s+|our\s+)?(total|sum|amount|average|figure|number|price|cost)\b",
                            re.IGNORECASE)


def _states_no_number(ev: Evidence) -> str:
    """The doubt when the goal asks a text or Word file it names to state a figure
    ("write memo.docx ... stating the total amount") and the newest write of this
    task to that file holds no digit ("" otherwise). multistep_invoices_memo at
    8d08546: memo.docx held "The total amount of all invoices is: " and a placeholder,
    and "the total amount has been written to memo.docx" finished the task."""
    asked = _STATES_FIGURE.search(ev.goal)
    if asked is None:
        return ""
    for out in goal_files(ev.goal)[0]:
        if not out.lower().endswith((".docx", ".txt", ".md")):
            continue
        write = next((c for c in reversed(ev.calls) if c.status == "done" and not c.error
                      and c.name in ("docx_create", "docx_insert", "write_file")
                      and norm_path(str(c.arguments.get("path", ""))) == norm_path(out)), None)
        if write is not None and not any(re.search(r"\d", v) for v in _values(write.arguments) if v != out):
            return (f"the task asks {out} to state the {asked.group(1).lower()}, and what this task wrote there "
                    "holds no number; write the number a tool returned into it")
    return ""


def _ranking_to_write(calls: Sequence[CallRecord], n: int, path: str, sheet: tuple[str, list[list[Any]]]) -> str:
    """'table_query at step 3 returned them: call xlsx_write with {...}', the rows of
    the newest grouped ``table_query`` of this task that returned at least ``n`` rows,
    its first ``n`` written under the header of ``sheet`` of workbook ``path`` (over
    what is there below it); "" when there is no such query, or the sheet has no
    header. xlsx_top_vendors at b82e8fa: the five vendors queried, then written one
    per call, each time told to rank them with the query that had run."""
    name, rows = sheet
    if not path.lower().endswith(".xlsx") or not rows or not any(v not in (None, "") for v in rows[0]) \
            or _data_rows(rows[:1]):  # no header row: where the rows go is not known
        return ""
    for c in reversed(calls):
        sql = str(c.arguments.get("sql", "")) if c.name == "table_query" else ""
        if not sql or c.status != "done" or c.error or not re.search(r"\bgroup\s+by\b", sql, re.IGNORECASE):
            continue
        found = _result_rows(c.result or "")
        if len(found) < n or any(len(r) != len(found[0]) for r in found[:n]):
            return ""
        values = [[float(x.replace(",", "")) if _CELL_NUMBER.fullmatch(x) else x for x in r] for r in found[:n]]
        write = call_to_copy("xlsx_write", {"path": path, "sheet": name, "rows": values, "start": "A2",
                                            "replace_data": True})
        return f"table_query at step {c.step} returned them: {write}"
    return ""


_KEEP_NAMES = re.compile(r"\b(keep|leave)\s+(the\s+|their\s+|its\s+|all\s+)?(file\s*)?names?\b|"
                         r"\bsame\s+(file\s*)?names?\b|\bwithout\s+renaming\b", re.IGNORECASE)
_MOVE_PAIR = re.compile(r"(?:^|[\s:;,])((?:[\w.-]+/)*[\w-][\w.-]*)\s*->\s*((?:[\w.-]+/)*[\w-][\w.-]*)|"
                        r"\bmoved\s+((?:[\w.-]+/)*[\w-][\w.-]*)\s+to\s+((?:[\w.-]+/)*[\w-][\w.-]*)")


def _renamed_against_goal(ev: Evidence) -> str:
    """The doubt when the goal says to keep the file names and a change of this task
    gave a file another name ("" otherwise). files_organise at 36d1140: asked to sort
    inbox into pdf/jpg/txt subfolders "keeping the file names", Qwen 1.5B renamed
    inbox/notes.txt to inbox/notes.text, moved nothing and said it was done."""
    if not _KEEP_NAMES.search(ev.goal):
        return ""
    for c in ev.calls:
        if c.status != "done" or c.error or c.risk not in ("write", "destructive"):
            continue
        for m in _MOVE_PAIR.finditer(c.result or ""):
            old, new = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            old, new = old.rstrip("."), new.rstrip(".")
            if Path(old).name != Path(new).name:
                return (f"the task says to keep the file names, but {c.name} at step {c.step} renamed {old} to "
                        f"{new}; undo that (move it back to {Path(old).name}) and do what the task asks with the "
                        "names as they are")
    return ""


_OF_FILES = re.compile(r"\b(lines|contents?|text|items|entries)\s+(of|from|in)\s+(all|every|each|the|these|those|both)\b",
                       re.IGNORECASE)
_CONTENT_READS = frozenset({"read_file", "grep", "table_query", "combine_files"})  # combine_files reads its sources
# (files_merge_todos at 908434b: combine_files wrote the merged lines, and the first form of this check doubted it)


def _wrote_unread_contents(ev: Evidence) -> str:
    """The doubt when the goal asks for what files say ("the lines of all .txt files")
    and this task wrote a file without reading any file's text ("" otherwise).
    files_merge_todos at 36d1140: Qwen 1.5B listed the todo folder and wrote the
    listing (names and sizes) into todo/all.txt."""
    if not _OF_FILES.search(ev.goal) or not list(ev.written):
        return ""
    if any(c.status == "done" and not c.error and (c.name in _CONTENT_READS or c.name.endswith("_read"))
           for c in ev.calls):
        return ""
    written = ", ".join(list(ev.written)[:3])
    return (f"the task asks for what the files say, but this task wrote {written} without reading any of them "
            "(a listing shows names and sizes, not their lines); read each file, then write what they say")


#: a goal whose file stays as it is: a copy or backup is made of it (a held-out task at 5a8dc42: "Copy report.docx
#: into the archive folder." was told to change report.docx itself, and the user's report was changed)
_KEEPS_THE_ORIGINAL = re.compile(r"\b(cop(y|ies|ying)|duplicat\w*|back(ing)? up|backup)\b", re.IGNORECASE)


def _changed_a_copy(ev: Evidence) -> str:
    """The doubt when the goal asks to change a file it names and this task left that
    file as it was, writing a new file named after it instead ("" otherwise).
    xlsx_summary_sheet: asked to add a sheet to budget.xlsx, Qwen 1.5B passed
    output="budget_summary.xlsx" and answered that the sheet was added."""
    if not _MUST_CHANGE.search(ev.goal) or _KEEPS_THE_ORIGINAL.search(ev.goal):
        return ""
    outputs, inputs = goal_files(ev.goal)
    touched = {norm_path(p) for p in ev.touched}
    named = {norm_path(p) for p in outputs}
    root = Path(ev.workspace)
    for rel in inputs:
        stem = Path(rel).stem.lower()
        if rel in outputs or norm_path(rel) in touched or not (root / rel).is_file():
            continue
        # a copy the goal names is the file it asks for (a held-out task at 11a1600: "Add 10% VAT to every price in
        # prices.csv and save the result as prices_vat.csv" was told to change prices.csv itself)
        copies = sorted(p for p in touched if Path(p).stem.lower().startswith(stem) and p != norm_path(rel)
                        and Path(p).suffix.lower() == Path(rel).suffix.lower() and p not in named)
        if copies:
            return (f"the task asks to change {rel}, but this task left it as it was and wrote {copies[0]} instead; "
                    f"make the change in {rel} itself (leave out output)")
    return ""


#: a goal that puts one file's text into another: "Put the text of notes.txt into a Word document called notes.docx",
#: "Copy the contents of draft.md into report.docx"
TEXT_COPY = re.compile(r"\b(?:put|copy|move|transfer|place|paste)\b[^.?!]{0,20}?\b(?:the\s+|all\s+(?:the\s+)?)?"
                       r"(?:text|contents?|words|lines)\s+(?:of|from|in)\s+(?P<src>[\w./-]+\.(?:txt|md|docx))\s+"
                       r"(?:in)?to\b", re.IGNORECASE)
_TEXT_KINDS = (".txt", ".md", ".docx")


def _plain_lines(path: Path) -> list[str] | None:
    """The non-empty lines of a text file, or the paragraphs of a Word document, each
    with its spaces folded; None when it cannot be read."""
    try:
        if path.suffix.lower() == ".docx":
            from tools.office.docx_read import docx_paragraphs

            lines = [t for _, t in docx_paragraphs(path.read_bytes(), path.name)]
        else:
            lines = path.read_text(encoding="utf-8").splitlines()
    except Exception:  # noqa: BLE001 - a file that cannot be read is another check's business
        return None
    return [" ".join(ln.split()) for ln in lines if ln.strip()]


def text_copy(goal: str, workspace: str | Path) -> tuple[str, str, list[str], str, dict[str, Any]] | None:
    """``(source, target, the source's lines, tool, arguments)`` when ``goal`` asks to put
    the text of one text file or Word document into another (:data:`TEXT_COPY`) and the
    source can be read: the call that writes the target with every non-empty line of the
    source (``docx_create``, one paragraph a line, for a .docx; ``write_file`` else);
    None otherwise. A held-out task at bad5969: "Put the text of notes.txt into a Word
    document called notes.docx." wrote one line, "We agreed to move the launch to
    April." (notes.txt says March), and finished."""
    m = TEXT_COPY.search(goal)
    if m is None:  # before any file is looked at: this runs after every read
        return None
    src = m.group("src")
    targets = [f for f in sum(goal_files(goal), []) if f.lower().endswith(_TEXT_KINDS) and f.lower() != src.lower()]
    if len(targets) != 1:
        return None
    lines = _plain_lines(Path(workspace) / src)
    if not lines:
        return None
    dst = targets[0]
    if dst.lower().endswith(".docx"):
        return src, dst, lines, "docx_create", {"path": dst, "blocks": [{"type": "paragraph", "text": ln}
                                                                        for ln in lines]}
    return src, dst, lines, "write_file", {"path": dst, "content": "\n".join(lines) + "\n"}


def text_copy_wrong(ev: Evidence) -> str:
    """The doubt when the goal puts the text of one file into another (:func:`text_copy`)
    and the target is missing a line of the source, or holds a line the source does
    not ("" otherwise), with the call that writes it whole."""
    found = text_copy(ev.goal, ev.workspace)
    if found is None:
        return ""
    src, dst, lines, tool, args = found
    now = _plain_lines(Path(ev.workspace) / dst)
    if now is None:
        return ""
    folded = [ln.lower() for ln in now]
    missing = [ln for ln in lines if not any(ln.lower() in x for x in folded)]
    added = [ln for ln in now if not any(ln.lower() in x.lower() or x.lower() in ln.lower() for x in lines)]
    if not missing and not added:
        return ""
    what = f"leaves out {missing[0]!r}" if missing else f"holds {added[0]!r}, which {src} does not"
    return (f"the task asks for the text of {src} in {dst}, and {dst} {what}; "
            f"{call_to_copy(tool, {**args, 'overwrite': True} if tool == 'docx_create' else args)}")
