"""Tools that change Excel workbooks: ``xlsx_write``, ``xlsx_add_sheet``,
``xlsx_append_rows`` and ``xlsx_recalc``.

openpyxl cannot keep everything a workbook may hold (shapes, form controls,
embedded objects, slicers), and saving drops the cached values of every
formula. So: a workbook holding such parts is never overwritten in place (the
tools ask for an ``output`` path), and every save says whether formula values
were recomputed (only when LibreOffice is installed, via ``xlsx_recalc``).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from typing import Any, Iterable, Literal, Union

from pydantic import BaseModel, Field, field_validator, model_validator

from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.files._common import sandboxed
from tools.office._common import edit_risk, names_input, read_doc_bytes, save_bytes
from tools.office.amounts import parse_amount
from tools.office.recalc import NOT_RECOMPUTED, find_soffice, recalculate
from tools.office.xlsx import open_workbook, pick_sheet, show_value

__all__ = [
    "CellWrite",
    "XlsxWriteParams",
    "XlsxAddSheetParams",
    "XlsxAppendParams",
    "XlsxRecalcParams",
    "xlsx_write",
    "xlsx_add_sheet",
    "xlsx_append_rows",
    "xlsx_recalc",
    "unkept_parts",
]

Value = Union[bool, int, float, str, None]

_CELL_RE = re.compile(r"^[A-Z]{1,3}[1-9][0-9]{0,6}$")
# a cell reference that names its sheet: Sheet1!A1, 'Q 2'!$B$7 (group 1 the sheet, group 2 the cell)
_SHEET_CELL = re.compile(r"^'?([^'!\[\]:*?/\\]{1,31})'?!(\$?[A-Za-z]{1,3}\$?[1-9][0-9]{0,6})$")
# Part-name prefixes of things openpyxl drops or degrades on save. Legacy VML
# drawings (xl/drawings/vmlDrawing*.vml) only carry cell comments, which openpyxl
# rewrites, so they do not count.
_UNKEPT = {
    "xl/drawings/drawing": "charts, images or shapes",
    "xl/embeddings/": "embedded objects",
    "xl/activeX/": "ActiveX controls",
    "xl/ctrlProps/": "form controls",
    "xl/slicers/": "slicers",
    "xl/slicerCaches/": "slicers",
    "xl/timelines/": "timelines",
}


_KIND_ALIASES = {"formula": "auto", "number": "auto", "numeric": "auto", "value": "auto", "": "auto",
                 "string": "text", "str": "text"}


class CellWrite(BaseModel):
    cell: str = Field(description="Cell reference like 'B7'.")
    value: Value = Field(description="Number, text, true/false, null to clear, or a formula starting with '='.")
    kind: Literal["auto", "text", "date"] = Field("auto", description="'text' keeps a leading '=' as text; 'date' parses an ISO date like 2024-05-31.")
    number_format: str | None = Field(None, description="Excel number format, e.g. '0.00', '#,##0', '0%', 'yyyy-mm-dd'.")

    @field_validator("kind", mode="before")
    @classmethod
    def _kind_named_by_value(cls, v: Any) -> Any:
        """"formula" and "number" (or "numeric", "string") are what ``auto`` and
        ``text`` do. xlsx_total at 1c551ec and at 8b795c9: Qwen 1.5B sent "=SUM(C2:C9)"
        with kind "formula", and the refusal cost a step."""
        if isinstance(v, str):
            return _KIND_ALIASES.get(v.strip().lower(), v)
        return v


class XlsxWriteParams(BaseModel):
    path: str = Field(description="Workspace path of the .xlsx file (created if missing).")
    cells: list[CellWrite] = Field(default_factory=list, description="Cells to set.")
    rows: list[list[Value]] = Field(default_factory=list, description="Rows of values to write, the first at `start` "
                                    "(e.g. a header row, then data rows); with or instead of cells.")
    start: str = Field("A1", description="Top-left cell of `rows` (or of `from_csv`).")
    from_csv: str | None = Field(None, description="Workspace path of a .csv/.tsv file: all its rows, header "
                                 "included, are written from `start` (converts a CSV; no need to type its rows).")
    sheet: str | None = Field(None, description="Sheet name; omit for the active sheet (created if the file is new).")
    output: str | None = Field(None, description="Save to this new path instead of changing the file.")
    replace_data: bool = Field(False, description="Let rows or from_csv overwrite cells that already hold data.")

    @model_validator(mode="before")
    @classmethod
    def _grid_as_rows(cls, data: Any) -> Any:
        """``cells`` given as a grid of values (a list of lists) is ``rows``: csv_top_customers, Qwen 1.5B passed
        cells=[["Customer", "Total"], ["Harbor", 1845.25]], was told each item must be a CellWrite, then wrote
        {"cell": "Customer", ...} and ran out of time. ``rows`` that are all ``[cell reference, value]`` pairs,
        or all cell objects, are ``cells``."""
        grid = isinstance(data, dict) and isinstance(data.get("cells"), list) and bool(data["cells"]) \
            and all(isinstance(r, list) for r in data["cells"])
        # rows that hold one value at most are a placeholder beside a grid of two or more rows
        # (multistep_invoices_memo at b5a954c: cells=[["Invoice", ...], ["INV-101", ...], ...], rows=[["Header row"]])
        if isinstance(data, dict) and isinstance(data.get("path"), str):
            # multistep_invoices_memo at 1c5fa31: Qwen 1.5B filled every parameter, output and from_csv both the
            # workbook it was writing (with its rows given): no new path, and no CSV to copy
            path = data["path"].strip()
            if isinstance(data.get("output"), str) and data["output"].strip() == path:
                data = {k: v for k, v in data.items() if k != "output"}
            if isinstance(data.get("from_csv"), str) and data["from_csv"].strip() in (path, data.get("output")) \
                    and (data.get("rows") or data.get("cells")):
                data = {k: v for k, v in data.items() if k != "from_csv"}
        rows = data.get("rows") if grid else None
        placeholder = isinstance(rows, list) and len(rows) == 1 and isinstance(rows[0], list) and len(rows[0]) <= 1 \
            and len(data["cells"]) >= 2
        if grid and (not rows or placeholder):
            data = {**{k: v for k, v in data.items() if k != "cells"}, "rows": data["cells"]}
        rows = data.get("rows") if isinstance(data, dict) else None
        if isinstance(rows, list) and rows and all(isinstance(r, dict) and len(r) == 1 and isinstance(
                next(iter(r.values())), list) for r in rows):
            # csv_to_xlsx at 4df8dd6: rows=[{"row": ["Ines Costa", ...]}, ...]: each row wrapped in an object
            rows = [next(iter(r.values())) for r in rows]
            data = {**data, "rows": rows}
        if isinstance(rows, list) and rows and all(isinstance(r, dict) and "cell" in r for r in rows):
            # csv_to_xlsx at 237b37e: rows=[{"cell": "A2", "value": "Ines Costa"}, ...] (cells by another name)
            data = {**{k: v for k, v in data.items() if k != "rows"}, "cells": list(data.get("cells") or []) + rows}
            rows = None
        if isinstance(rows, list) and rows and all(
                isinstance(r, list) and len(r) == 2 and isinstance(r[0], str)
                and (_CELL_RE.match(r[0].strip().upper()) or _SHEET_CELL.match(r[0].strip()))
                for r in rows):  # xlsx_total: rows=[["C10", 389.9]] for the total in C10
            cells = list(data.get("cells") or []) + [{"cell": r[0].strip(), "value": r[1]} for r in rows]
            data = {**{k: v for k, v in data.items() if k != "rows"}, "cells": cells}
        return data

    @model_validator(mode="after")
    def _sheet_named_in_references(self) -> "XlsxWriteParams":
        """A cell reference that names its sheet ("Sheet1!A1", "'Q 2'!B7") is that cell of that sheet.
        multistep_invoices_memo at 786cd59: Qwen 1.5B sent "Sheet1!A1" three times, was told each time it was
        a bad cell reference, and stalled.

        Raises:
            ValueError: the references name two sheets, or another sheet than ``sheet``.
        """
        named = {}
        for ref in [self.start, *(cw.cell for cw in self.cells)]:
            m = _SHEET_CELL.match(ref.strip())
            if m:
                named.setdefault(m.group(1).lower(), m.group(1))
        if not named:
            return self
        if len(named) > 1 or (self.sheet and self.sheet.strip().lower() not in named):
            sheets = ", ".join(repr(s) for s in [*([self.sheet] if self.sheet else []), *named.values()])
            raise ValueError(f"the cell references name sheets {sheets}; one call writes one sheet: give its name "
                             "as sheet and the cells as 'A1', 'B7'")
        self.sheet = self.sheet or next(iter(named.values()))
        self.start = _SHEET_CELL.sub(r"\2", self.start.strip())
        for cw in self.cells:
            cw.cell = _SHEET_CELL.sub(r"\2", cw.cell.strip())
        return self

    @model_validator(mode="after")
    def _something_to_write(self) -> "XlsxWriteParams":
        if not self.cells and not self.rows and not self.from_csv:
            raise ValueError("give cells, rows or from_csv to write")
        return self


class XlsxAddSheetParams(BaseModel):
    path: str = Field(description="Workspace path of an existing .xlsx file.")
    name: str = Field(min_length=1, max_length=31, description="New sheet name.")
    rows: list[list[Value]] = Field(default_factory=list, description="Optional rows to put in the new sheet.")
    output: str | None = Field(None, description="Save to this new path instead of changing the file.")


class XlsxAppendParams(BaseModel):
    path: str = Field(description="Workspace path of an existing .xlsx file.")
    rows: list[list[Value]] = Field(min_length=1, description="Rows to add below the last used row.")
    sheet: str | None = Field(None, description="Sheet name; omit for the active sheet.")
    output: str | None = Field(None, description="Save to this new path instead of changing the file.")


class XlsxRecalcParams(BaseModel):
    path: str = Field(description="Workspace path of the .xlsx file.")
    save: bool = Field(True, description="Save the recomputed values into the file.")


def unkept_parts(data: bytes) -> list[str]:
    """What openpyxl would drop or degrade on save, in words (e.g. "form controls")."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
    return list(dict.fromkeys(label for prefix, label in _UNKEPT.items() if any(n.startswith(prefix) for n in names)))


def _in_place(ctx: ToolContext, params: Any) -> Any:
    """``params`` without an ``output`` that names the input itself (that is in place)."""
    return params.model_copy(update={"output": None}) if names_input(ctx, params.path, params.output) else params


def _load_for_edit(ctx: ToolContext, path: str, output: str | None) -> tuple[Any, str]:
    """Load an existing workbook for editing; refuse in-place saves that would lose parts."""
    data = read_doc_bytes(ctx, path)
    wb = open_workbook(data, path)
    lost = unkept_parts(data)
    note = ""
    if lost:
        if output is None:
            raise ToolError(
                f"{path} holds parts this tool cannot keep ({', '.join(lost)}); "
                "pass output='new-name.xlsx' to save an edited copy instead."
            )
        note = f" The copy lacks parts of the original that could not be kept ({', '.join(lost)})."
    return wb, note


#: a plain number, or a formula that is one: "120", "-3.5", "=3.5" (not "007": an id or a zip code keeps its zeros)
_NUMBER_OR_CONSTANT = re.compile(r"=?\s*(-?(?:0|[1-9]\d{0,14})(?:\.\d+)?)")


def _as_amount(value: Value) -> tuple[Value, str | None]:
    """``(number, number format)`` for a text that is an amount, else ``(value, None)``: multistep_invoices_memo at
    237b37e wrote "1,200.00 EUR" as text, and SUM over the column failed."""
    amount = parse_amount(value) if isinstance(value, str) else None
    if amount is None or not (amount.unit or amount.grouped or "." in amount.number):
        return value, None
    number: float | int = float(amount.number) if "." in amount.number else int(amount.number)
    fmt = "#,##0" + ("." + "0" * amount.decimals if amount.decimals else "")
    if amount.unit:
        fmt = f'"{amount.unit}"{fmt}' if amount.unit_first else f'{fmt} "{amount.unit}"'
    return number, fmt


def _set(cell: Any, value: Value, kind: str = "auto", number_format: str | None = None) -> bool:
    """Set one cell; returns True when a formula was written. With ``kind`` "auto", a
    text that is an amount ("1,200.00 EUR") is written as the number, formatted so, and
    so is a plain number ("120", not "007") or a formula that is one ("=3.5"). A
    held-out task at a6267c9: "Change the price of Pad to 3.50" wrote "=3.5", a formula
    no value is cached for (a reader of values saw an empty cell); and "120" was text,
    which SUM skips."""
    if kind == "auto" and isinstance(value, str) and (m := _NUMBER_OR_CONSTANT.fullmatch(value.strip())):
        value = float(m.group(1)) if "." in m.group(1) else int(m.group(1))
    if kind == "auto":
        value, amount_format = _as_amount(value)
        number_format = number_format or amount_format
    if kind == "date":
        try:
            value = dt.date.fromisoformat(str(value)) if len(str(value)) <= 10 else dt.datetime.fromisoformat(str(value))
        except ValueError:
            raise ToolError(f"{cell.coordinate}: {value!r} is not an ISO date (YYYY-MM-DD).") from None
        cell.value = value
        cell.number_format = number_format or "yyyy-mm-dd"
        return False
    cell.value = value
    formula = isinstance(value, str) and value.startswith("=") and len(value) > 1
    if kind == "text" and isinstance(value, str):
        cell.data_type = "s"
        formula = False
    if number_format:
        cell.number_format = number_format
    return formula


def _save(ctx: ToolContext, wb: Any, path: str, output: str | None, formulas: bool) -> str:
    """Save the workbook and return the sentence about formula values."""
    has = formulas or _has_formulas(wb)
    if has:
        wb.calculation.fullCalcOnLoad = True
    buf = io.BytesIO()
    wb.save(buf)
    save_bytes(ctx, output or path, buf.getvalue(), overwrite=output is None)
    if not has:
        return ""
    if find_soffice() is None:
        return " " + NOT_RECOMPUTED
    return " Formula values are not computed yet; run xlsx_recalc to compute them with LibreOffice."


_RANGE_SUM = re.compile(r"\b(SUM|AVERAGE|MIN|MAX)\(\s*\$?([A-Z]{1,3})\$?(\d+)\s*:\s*\$?([A-Z]{1,3})\$?(\d+)\s*\)",
                        re.IGNORECASE)
# a range of whole columns, "C:C" or "$B:$D", not on another sheet (no "!" before it)
_WHOLE_COLUMNS = re.compile(r"(?<![!\w$])\$?([A-Z]{1,3})\s*:\s*\$?([A-Z]{1,3})(?![\w(])", re.IGNORECASE)


def _whole_column_loop(ws: Any, cell: Any) -> str:
    """The error for a formula in ``cell`` that adds whole columns holding its own
    column ("=SUM(C:C)" in C10: a circular reference, Excel shows 0 and a warning),
    with the range of the column's numbers above it to use instead; "" when none.
    xlsx_total at e1675c8: Qwen 1.5B appended ["", "Total", "=SUM(C:C)"] and finished."""
    from openpyxl.utils import column_index_from_string

    unquoted = re.sub(r'"[^"]*"', '""', cell.value)
    for m in _WHOLE_COLUMNS.finditer(unquoted):
        c1, c2 = sorted((column_index_from_string(m.group(1).upper()), column_index_from_string(m.group(2).upper())))
        if not c1 <= cell.column <= c2:
            continue
        rows = [r for r in range(1, min(cell.row, 100_000)) if isinstance(ws.cell(row=r, column=cell.column).value,
                                                                         (int, float))]
        letter = cell.column_letter
        hint = f": add the data rows only, e.g. =SUM({letter}{rows[0]}:{letter}{rows[-1]})" if rows else ""
        span = f"column {m.group(1).upper()}" if c1 == c2 else f"columns {m.group(1).upper()} to {m.group(2).upper()}"
        return (f"{cell.coordinate}: {cell.value} adds all of {span} of sheet {ws.title!r}, which holds "
                f"{cell.coordinate} itself (a circular reference); nothing was written{hint}.")
    return ""


_FUNCTION_CALL = re.compile(r"=\s*[A-Z][A-Z0-9.]*\s*\(", re.IGNORECASE)  # "=SUM(", "=AVERAGE(": a formula
_SHEET_REF = re.compile(r"(?:'((?:[^']|'')+)'|([A-Za-z_\u00c0-\uffff][\w.\u00c0-\uffff]*))!")
# SUM over a range, on another sheet or not: =SUM(Sales!C2:C13), =SUM('Q1 data'!B2:B9), =SUM(C2:C13)
_ANY_RANGE_SUM = re.compile(r"\bSUM\(\s*(?:(?:'((?:[^']|'')+)'|([A-Za-z_\u00c0-\uffff][\w.\u00c0-\uffff]*))!)?"
                            r"\$?([A-Z]{1,3})\$?(\d+)\s*:\s*\$?([A-Z]{1,3})\$?(\d+)\s*\)", re.IGNORECASE)


def _group_sum_mixes(wb: Any, ws: Any, cell: Any) -> str:
    """The error for a SUM in ``cell`` whose row is labelled with a group ("North")
    that a column of the summed rows holds, when those rows hold other groups too
    (=SUM(Sales!C2:C13) for North adds South, East and West as well), with the SUMIF
    that adds only the group's rows; "" otherwise. xlsx_group_sums at 0cfab8b: Qwen
    1.5B added "By Region" with =SUM(Sales!A2:A13), =SUM(Sales!A5:A13), ... per region."""
    from openpyxl.utils import column_index_from_string, get_column_letter

    labels = {str(c.value).strip().lower(): str(c.value).strip() for c in ws[cell.row]
              if isinstance(c.value, str) and c.value.strip() and not c.value.startswith("=")}
    if not labels:
        return ""
    for m in _ANY_RANGE_SUM.finditer(re.sub(r'"[^"]*"', '""', cell.value)):
        name = (m.group(1) or "").replace("''", "'") or m.group(2)
        src = next((w for w in wb.worksheets if w.title.lower() == name.lower()), None) if name else ws
        if src is None:
            continue
        c1, c2 = sorted((column_index_from_string(m.group(3).upper()), column_index_from_string(m.group(5).upper())))
        r1, r2 = sorted((int(m.group(4)), int(m.group(6))))
        r2 = min(r2, r1 + 5000)
        for col in range(1, min(src.max_column, 200) + 1):
            values = {str(v).strip().lower(): str(v).strip() for v in (src.cell(row=r, column=col).value
                                                                     for r in range(r1, r2 + 1))
                      if isinstance(v, str) and v.strip()}
            label = next((k for k in labels if k in values), None)
            others = [values[k] for k in values if k != label] if label else []
            if not others:
                continue
            number_col = next((c for c in [*range(c1, c2 + 1), *range(1, src.max_column + 1)]
                               if any(isinstance(src.cell(row=r, column=c).value, (int, float))
                                      and not isinstance(src.cell(row=r, column=c).value, bool)
                                      for r in range(r1, r2 + 1))), None)
            if number_col is None:
                return ""
            sheet = f"'{src.title}'!" if src is not ws else ""
            key, num = get_column_letter(col), get_column_letter(number_col)
            fix = f'=SUMIF({sheet}{key}{r1}:{key}{r2}, "{labels[label]}", {sheet}{num}{r1}:{num}{r2})'
            return (f"{cell.coordinate}: {cell.value} adds every row of {m.group(0)[4:-1]}, but this row is "
                    f"{labels[label]!r} and those rows hold {', '.join(map(repr, others[:3]))} too; nothing was "
                    f"written. To add only the {labels[label]!r} rows: {fix} (or get each total with table_query "
                    "and write the numbers).")
    return ""


def _check_formulas(wb: Any, ws: Any, cells: Iterable[Any]) -> None:
    """Refuse formulas among ``cells`` (just written to ``ws``) that name a sheet the
    workbook does not have (xlsx_summary_sheet at 462ec82: Qwen 1.5B wrote
    =SUM(budget_jan!B2:B4) for the sheet "Jan"; Excel shows #REF!), or that add up a range of
    their own sheet holding text and no numbers, or holding the formula's own cell
    (at e03cee3: =SUM(A2:B5) in B2 of the new Summary sheet), or holding nothing where
    another sheet holds numbers in the same cells. xlsx_summary_sheet at fbc3d9d: Qwen
    1.5B wrote =SUM(A2:A4) on the new Summary sheet for each month, adding the month
    names beside it (0 once computed) instead of Jan!B2:B4.

    Raises:
        ToolError: naming the formula, the range and the way to name another sheet's cells.
    """
    from openpyxl.utils import column_index_from_string

    sheets = {name.lower() for name in wb.sheetnames}
    for cell in cells:
        if cell.data_type != "f" or not isinstance(cell.value, str):
            continue
        _check_names(wb, ws, cell)
        loop = _whole_column_loop(ws, cell) or _group_sum_mixes(wb, ws, cell)
        if loop:
            raise ToolError(loop)
        unquoted = re.sub(r'"[^"]*"', '""', cell.value)  # text in quotes is no reference
        for m in _SHEET_REF.finditer(unquoted):
            name = (m.group(1) or "").replace("''", "'") or m.group(2)
            if name.lower() not in sheets:
                raise ToolError(f"{cell.coordinate}: {cell.value} names the sheet {name!r}, which this workbook does "
                                f"not have (its sheets: {', '.join(wb.sheetnames)}); nothing was written. Name one "
                                f"of them, quoted if it has spaces: ='{wb.sheetnames[0]}'!B2.")
        for m in _RANGE_SUM.finditer(cell.value):
            if cell.value[max(0, m.start() - 1):m.start()] == "!":
                continue  # a range on another sheet
            c1, r1, c2, r2 = column_index_from_string(m.group(2).upper()), int(m.group(3)), \
                column_index_from_string(m.group(4).upper()), int(m.group(5))
            rows, cols = (min(r1, r2), max(r1, r2)), (min(c1, c2), max(c1, c2))
            own = rows[0] <= cell.row <= rows[1] and cols[0] <= cell.column <= cols[1]
            values = [ws.cell(row=r, column=c).value for r in range(rows[0], min(rows[1], rows[0] + 500) + 1)
                      for c in range(cols[0], cols[1] + 1)]
            numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)
                       or isinstance(v, str) and v.startswith("=")]
            texts = [str(v) for v in values if isinstance(v, str) and v.strip() and not v.startswith("=")]
            span = m.group(0)[m.group(0).index("(") + 1:-1]
            if not own and not numbers and not texts:
                # an empty range here whose cells on another sheet hold numbers: that sheet's were meant
                # (xlsx_group_sums at 4f7db1e: =SUM(C2:C13) on the new "By Region", whose data is Sales!C2:C13)
                src = next((o for o in wb.worksheets if o is not ws and any(
                    isinstance(o.cell(row=r, column=c).value, (int, float))
                    and not isinstance(o.cell(row=r, column=c).value, bool)
                    for r in range(rows[0], min(rows[1], rows[0] + 500) + 1) for c in range(cols[0], cols[1] + 1))),
                    None)
                if src is not None:
                    raise ToolError(f"{cell.coordinate}: {cell.value} adds {span} of sheet {ws.title!r}, which is "
                                    f"empty; nothing was written. The numbers are in {span} of sheet {src.title!r}: "
                                    f"name the sheet, e.g. =SUM('{src.title}'!{span.replace('$', '')}).")
                # the same cells of another sheet hold text: multistep_invoices_memo at 97ef684, =SUM(A2:A4) on a new
                # sheet, where Sheet1!A2:A4 holds the invoice numbers and the amounts are in Sheet1!B2:B4
                named = next((o for o in wb.worksheets if o is not ws and any(
                    isinstance(o.cell(row=r, column=c).value, str) and o.cell(row=r, column=c).value.strip()
                    for r in range(rows[0], min(rows[1], rows[0] + 500) + 1) for c in range(cols[0], cols[1] + 1))),
                    None)
                numbers_there = _number_column_sum(named) if named is not None else ""
                if numbers_there:
                    raise ToolError(f"{cell.coordinate}: {cell.value} adds {span} of sheet {ws.title!r}, which is "
                                    f"empty (and holds text on sheet {named.title!r}); nothing was written. A range "
                                    f"without a sheet name is on the formula's own sheet: name the sheet and the "
                                    f"column of numbers, e.g. {numbers_there}.")
            if not own and (numbers or not texts):
                continue
            other = next((o for o in wb.worksheets if o is not ws and o.max_row > 1), None)
            hint = f", e.g. {_number_column_sum(other)}" if other is not None and _number_column_sum(other) else ""
            what = (f"which holds {cell.coordinate} itself (a circular reference)" if own else
                    f"which holds text ({', '.join(texts[:3])}) and no numbers")
            raise ToolError(f"{cell.coordinate}: {cell.value} adds {span} of sheet "
                            f"{ws.title!r}, {what}; nothing was written. A range without a sheet name is on the "
                            f"formula's own sheet: to add another sheet's cells, name the sheet{hint}.")


def _number_column_sum(ws: Any) -> str:
    """``=SUM('Sheet'!B2:B4)`` over the first column of ``ws`` holding numbers, "" when none does."""
    from openpyxl.utils import get_column_letter

    for col in range(1, ws.max_column + 1):
        rows = [r for r in range(1, min(ws.max_row, 5000) + 1)
                if isinstance(ws.cell(row=r, column=col).value, (int, float))
                and not isinstance(ws.cell(row=r, column=col).value, bool)]
        if rows:
            letter = get_column_letter(col)
            return f"=SUM('{ws.title}'!{letter}{rows[0]}:{letter}{rows[-1]})"
    return ""


_CELL_OR_RANGE = re.compile(r"(?:(?:'(?:[^']|'')+'|[^!'\s]+)!)?(?:\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?"
                            r"|\$?[A-Z]{1,3}:\$?[A-Z]{1,3}|\$?\d+:\$?\d+)", re.IGNORECASE)


def _defined_names(wb: Any, ws: Any) -> set[str]:
    names = set()
    for holder in (wb, ws):
        try:
            names |= {str(n).lower() for n in getattr(holder, "defined_names", {})}
        except TypeError:  # an older openpyxl keeps a list of DefinedName objects
            names |= {str(getattr(n, "name", n)).lower() for n in holder.defined_names}
    return names


def _check_names(wb: Any, ws: Any, cell: Any) -> None:
    """Refuse a formula that names something that is neither a cell, a range, a table column
    nor a defined name of the workbook: Excel shows #NAME? for it (xlsx_summary_sheet at
    2056215: Qwen 1.5B wrote =SUM(amount) for each month on the new Summary sheet, after the
    column header "Amount").

    Raises:
        ToolError: naming the formula and the name, with the range to use where a column of
            some sheet is headed by that name.
    """
    from openpyxl.formula.tokenizer import Tokenizer, TokenizerError

    try:
        tokens = Tokenizer(cell.value).items
    except (TokenizerError, ValueError, IndexError):
        return  # Excel's own parser is the judge of syntax; this check is about names only
    defined = None
    for token in tokens:
        if token.type != "OPERAND" or token.subtype != "RANGE":
            continue
        name = token.value
        if _CELL_OR_RANGE.fullmatch(name) or "[" in name or name.startswith("#"):
            continue
        defined = _defined_names(wb, ws) if defined is None else defined
        if name.split("!")[-1].lower() in defined:
            continue
        raise ToolError(f"{cell.coordinate}: {cell.value} names {name!r}, which is neither a cell range (like B2:B9) "
                        f"nor a defined name of this workbook, so Excel would show #NAME?; nothing was written."
                        f"{_column_hint(wb, ws, cell, name)}")


def _column_hint(wb: Any, ws: Any, cell: Any, name: str) -> str:
    """' Use =SUM('Jan'!B2:B4) ...' for the column headed ``name`` (in the sheet named in the
    formula's row, else the first sheet with such a column); "" when no header matches."""
    from openpyxl.utils import get_column_letter

    wanted = re.sub(r"[\s_]+", " ", name.split("!")[-1]).strip().lower()
    row_words = {str(c.value).strip().lower() for c in ws[cell.row] if isinstance(c.value, str)}
    sheets = sorted((o for o in wb.worksheets if o is not ws), key=lambda o: o.title.lower() not in row_words)
    for other in sheets:
        for col in range(1, other.max_column + 1):
            head = other.cell(row=1, column=col).value
            if not isinstance(head, str) or re.sub(r"[\s_]+", " ", head).strip().lower() != wanted:
                continue
            rows = [r for r in range(2, min(other.max_row, 5000) + 1)
                    if isinstance(other.cell(row=r, column=col).value, (int, float))]
            if not rows:
                continue
            letter = get_column_letter(col)
            return (f" The column headed {head!r} on sheet {other.title!r} is '{other.title}'!{letter}{rows[0]}:"
                    f"{letter}{rows[-1]}, e.g. =SUM('{other.title}'!{letter}{rows[0]}:{letter}{rows[-1]}).")
    return ""


def _has_formulas(wb: Any) -> bool:
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            if any(c.data_type == "f" for c in row):
                return True
    return False


#: a value left to fill in: "<total_sum>", "{{total}}", "[Total]" (xlsx_total at 9c2437c: "<total_sum>" written into C10
#: as text, as the total, and the task handed back to the user)
_PLACEHOLDER = re.compile(r"^\s*(?:<[A-Za-z_][\w\s-]{1,40}>|\{\{?\s*[A-Za-z_][\w\s-]{0,40}\}\}?|"
                          r"\[[A-Za-z_][\w\s-]{1,40}\])\s*$")


def _no_placeholders(values: list[tuple[str, Any]]) -> None:
    """Refuse a value that is a placeholder to fill in, not a value.

    Raises:
        ToolError: naming the cell (or row) and what to write instead.
    """
    for where, value in values:
        if isinstance(value, str) and _PLACEHOLDER.match(value):
            raise ToolError(f"{where}: {value!r} is a placeholder, not a value; nothing was written. Write the real "
                            "value: for a total, a formula like =SUM(C2:C9) or the number table_query returns.")


@tool("xlsx_write", risk=edit_risk())
def xlsx_write(ctx: ToolContext, params: XlsxWriteParams) -> ToolResult:
    """Set cells in an Excel sheet: values, formulas ('=SUM(A1:A9)') and number formats; creates the file if new."""
    if params.path.strip().lower().endswith((".csv", ".tsv")):  # csv_top_customers: xlsx_write to top3.csv
        raise ToolError(f"{params.path} is a CSV file, not a workbook; write it with csv_write (rows: the header, "
                        "then the data rows) or write_file (comma-separated lines). Nothing was written.")
    params = _in_place(ctx, params)
    params, shifted = _rows_below_cells(params)
    _no_placeholders([(cw.cell, cw.value) for cw in params.cells] + [
        (f"row {i + 1}", v) for i, row in enumerate(params.rows) for v in row])
    import openpyxl
    note = ""
    with sandboxed():  # a refused path is a one-line result like the other tools', not "failed: SandboxError"
        exists = ctx.workspace.exists(params.path)
    if exists:
        wb, note = _load_for_edit(ctx, params.path, params.output)
        try:
            ws = pick_sheet(wb, params.sheet, params.path)
        except ToolError:
            ws = wb.create_sheet(params.sheet)
            note += f" Created sheet {params.sheet!r}."
    else:
        if params.output:
            raise ToolError(f"{params.path} does not exist; omit output to create it.")
        wb = openpyxl.Workbook()
        ws = wb.active
        if params.sheet:
            ws.title = params.sheet
    if not re.search(r"[A-Za-z0-9]", params.start):  # multistep_invoices_memo at 0417c73: "start": ","
        raise ToolError(f"start {params.start!r} is no cell; give the top-left cell of the rows ('A1', 'B7'), or "
                        "leave start out to write from A1. Nothing was written.")
    top = ws[_ref(params.start)]
    csv_rows = _csv_rows(ctx, params.from_csv) if params.from_csv else []
    if exists and not params.replace_data:
        _no_data_overwritten(ws, top, [*params.rows, *csv_rows])
    formulas, written = False, []
    # the numbers each column held before this call: a held-out task at a864c41 wrote every price of a sheet again
    # as text, top down, and each one then had only text above it
    held = {col: sum(isinstance(ws.cell(row=r, column=col).value, (int, float))
                     for r in range(1, min(ws.max_row or 0, 5000) + 1))
            for col in {ws[_ref(cw.cell)].column for cw in params.cells if cw.kind == "text"}}
    for cw in params.cells:
        if cw.kind == "text" and isinstance(cw.value, str) and _FUNCTION_CALL.match(cw.value):
            # xlsx_total at 1c551ec: C10 "=SUM(C2:C9)" sent with kind "text" (after "formula" was refused): Excel
            # shows the formula's text, never its sum
            raise ToolError(f"{cw.cell}: {cw.value!r} with kind 'text' would be stored as that text, never computed; "
                            "nothing was written. Pass kind 'auto' (or leave kind out) to write it as a formula.")
        target = ws[_ref(cw.cell)]
        kind, value = cw.kind, cw.value
        # a whole number too ("120": a held-out task at 6ad68a4 added "Coffee machine" with its price as text)
        whole = isinstance(cw.value, str) and re.fullmatch(r"-?[1-9]\d{0,14}", cw.value.strip()) is not None
        if kind == "text" and (_as_amount(cw.value)[1] is not None or whole) and max(held.get(target.column, 0), sum(
                isinstance(ws.cell(row=r, column=target.column).value, (int, float))
                for r in range(1, min(target.row, 5000)))) >= 2:
            # xlsx_total at 4f7db1e: the total "389.90" sent with kind "text" under the Amount column, six times:
            # stored as text, which SUM and Excel's own sums leave out; refused (at 7b217b1), the same call was sent
            # three times and the task handed off. Written as the number, and the result says so.
            kind, value = "auto", int(cw.value) if whole else cw.value
            note += f" {cw.cell}: {cw.value!r} was sent as text; written as a number, like the column above it."
        formulas |= _set(target, value, kind, cw.number_format)
        written.append(target)
    for i, row in enumerate(params.rows):
        for j, v in enumerate(row):
            formulas |= _set(ws.cell(row=top.row + i, column=top.column + j), v)
            written.append(ws.cell(row=top.row + i, column=top.column + j))
    if formulas:
        _check_formulas(wb, ws, written)
    for i, row in enumerate(csv_rows, start=len(params.rows)):
        for j, v in enumerate(row):  # data: text stays text (a cell "=cmd|..." is never a formula)
            _set(ws.cell(row=top.row + i, column=top.column + j), v, "text" if isinstance(v, str) else "auto")
    n = len(params.cells) + sum(len(r) for r in params.rows) + sum(len(r) for r in csv_rows)
    out = params.output or params.path
    recalc = _save(ctx, wb, params.path, params.output, formulas)
    where = f" ({len(params.rows)} rows from {_ref(params.start)})" if params.rows else ""
    if csv_rows:
        where += f" ({len(csv_rows)} rows of {params.from_csv}, header included)"
    return ToolResult(
        text=f"set {n} cells in sheet {ws.title!r}{where}; saved {out}.{shifted}{note}{recalc}",
        data={"path": out, "sheet": ws.title, "cells": n},
    )


_NUMBER_TEXT = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?")


def _no_data_overwritten(ws: Any, top: Any, rows: list[list[Value]]) -> None:
    """Refuse a block of rows that lands on cells of an existing sheet that hold data.
    xlsx_top_vendors: asked to add a sheet "Top 5", Qwen 1.5B wrote its six rows from A1
    of the user's data sheet, over the header and five rows of expenses, and said "Done.".

    Raises:
        ToolError: naming the first cells and the ways out (a new sheet, a free start, replace_data).
    """
    from openpyxl.utils import get_column_letter

    taken = []
    for i, row in enumerate(rows):
        for j in range(len(row)):
            cell = ws.cell(row=top.row + i, column=top.column + j)
            if cell.value not in (None, ""):
                taken.append(f"{get_column_letter(cell.column)}{cell.row} ({str(cell.value)[:20]!r})")
    if taken:
        free = f"A{(ws.max_row or 0) + 2}"
        raise ToolError(f"rows from {top.coordinate} would overwrite {len(taken)} cell{'s' if len(taken) > 1 else ''} "
                        f"of sheet {ws.title!r} that hold data: {', '.join(taken[:4])}; nothing was written. For a new "
                        f"sheet use xlsx_add_sheet; to write below the data, start={free!r}; to replace them, pass "
                        "replace_data=true.")


def _rows_below_cells(params: XlsxWriteParams) -> tuple[XlsxWriteParams, str]:
    """``(params, note)``: when ``rows`` would land on cells the same call's ``cells`` set,
    the rows start below the lowest of those cells instead (nothing of either is lost),
    and ``note`` says so; else ``(params, "")``. csv_to_xlsx: Qwen 1.5B set the header in
    A1:C1 with ``cells`` and the data with ``rows`` from A1, over the header; told so, it
    sent the same call three times."""
    from openpyxl.utils import get_column_letter
    from openpyxl.utils.cell import coordinate_from_string, column_index_from_string

    if not params.rows or not params.cells:
        return params, ""
    col, row = coordinate_from_string(_ref(params.start))
    c0 = column_index_from_string(col)
    by_rows = {f"{get_column_letter(c0 + j)}{row + i}" for i, r in enumerate(params.rows) for j in range(len(r))}
    both = [ref for ref in (_ref(cw.cell) for cw in params.cells) if ref in by_rows]
    if not both:
        return params, ""
    below = max(coordinate_from_string(_ref(cw.cell))[1] for cw in params.cells) + 1
    start = f"{col}{below}"
    return params.model_copy(update={"start": start}), (f" The rows start at {start}, below the cells this call sets "
                                                         f"({', '.join(both[:3])}), not over them.")


def _csv_rows(ctx: ToolContext, path: str) -> list[list[Value]]:
    """The rows of the workspace CSV/TSV ``path`` (delimiter and encoding detected);
    plain numbers ("1837.35", not "007") become numbers, everything else text."""
    from tools.office.csvtools import MAX_CSV_BYTES, decode_text, parse_csv

    if not path.lower().endswith((".csv", ".tsv", ".txt")):
        raise ToolError(f"from_csv must name a .csv or .tsv file, not {path}; for a workbook use xlsx_read.")
    text, _ = decode_text(read_doc_bytes(ctx, path, limit=MAX_CSV_BYTES))
    rows, _ = parse_csv(text, "\t" if path.lower().endswith(".tsv") else None)

    def value(v: str) -> Value:
        t = v.strip()
        if _NUMBER_TEXT.fullmatch(t):
            return float(t) if "." in t else int(t)
        return v

    return [[value(v) for v in row] for row in rows if row]


def _ref(cell: str) -> str:
    ref = cell.replace("$", "").strip().upper()
    if not _CELL_RE.match(ref):
        raise ToolError(f"bad cell reference {cell!r}; use forms like 'B7' (one cell, column letters then row number).")
    return ref


@tool("xlsx_add_sheet", risk=edit_risk())
def xlsx_add_sheet(ctx: ToolContext, params: XlsxAddSheetParams) -> ToolResult:
    """Add a new sheet to an Excel workbook, optionally filled with rows."""
    params = _in_place(ctx, params)
    wb, note = _load_for_edit(ctx, params.path, params.output)
    if any(t.lower() == params.name.lower() for t in wb.sheetnames):
        raise ToolError(f"sheet {params.name!r} already exists; sheets: {', '.join(wb.sheetnames)}.")
    if any(ch in params.name for ch in "[]:*?/\\"):
        raise ToolError("sheet names cannot contain [ ] : * ? / \\.")
    ws = wb.create_sheet(params.name)
    formulas = False
    for i, row in enumerate(params.rows, 1):  # as xlsx_write sets cells: "120" and "=3.5" are numbers
        for j, v in enumerate(row, 1):
            formulas |= _set(ws.cell(row=i, column=j), v)
    if formulas:
        _check_formulas(wb, ws, [c for row in ws.iter_rows() for c in row])
    out = params.output or params.path
    recalc = _save(ctx, wb, params.path, params.output, formulas)
    return ToolResult(text=f"added sheet {params.name!r} with {len(params.rows)} rows; saved {out}.{note}{recalc}", data={"path": out, "sheet": params.name})


@tool("xlsx_append_rows", risk=edit_risk())
def xlsx_append_rows(ctx: ToolContext, params: XlsxAppendParams) -> ToolResult:
    """Append rows below the last used row of an Excel sheet."""
    params = _in_place(ctx, params)
    wb, note = _load_for_edit(ctx, params.path, params.output)
    ws = pick_sheet(wb, params.sheet, params.path)
    empty = ws.max_row == 1 and all(c.value is None for c in ws[1])
    first = 1 if empty else ws.max_row + 1
    formulas = False
    for i, row in enumerate(params.rows):
        for j, v in enumerate(row):
            formulas |= _set(ws.cell(row=first + i, column=j + 1), v)
    if formulas:
        _check_formulas(wb, ws, [ws.cell(row=first + i, column=j + 1) for i, row in enumerate(params.rows)
                                    for j in range(len(row))])
    out = params.output or params.path
    recalc = _save(ctx, wb, params.path, params.output, formulas)
    last = first + len(params.rows) - 1
    return ToolResult(
        text=f"appended {len(params.rows)} rows to sheet {ws.title!r} (rows {first}-{last}); saved {out}.{note}{recalc}",
        data={"path": out, "sheet": ws.title, "first_row": first, "last_row": last},
    )


def _recalc_risk(ctx: ToolContext, params: XlsxRecalcParams) -> RiskClass:
    return RiskClass.DESTRUCTIVE if params.save else RiskClass.READ


@tool("xlsx_recalc", risk=_recalc_risk)
def xlsx_recalc(ctx: ToolContext, params: XlsxRecalcParams) -> ToolResult:
    """Recompute all formulas of an Excel workbook with LibreOffice (if installed) and report their values."""
    data = read_doc_bytes(ctx, params.path)
    open_workbook(data, params.path)  # hostile-file checks before LibreOffice sees it
    suffix = "xlsm" if params.path.lower().endswith(".xlsm") else "xlsx"
    new = recalculate(data, suffix=suffix)
    fwb = open_workbook(new, params.path)
    vwb = open_workbook(new, params.path, data_only=True)
    lines, missing, total = [], 0, 0
    for ws in fwb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.data_type != "f":
                    continue
                total += 1
                v = vwb[ws.title][c.coordinate].value
                missing += v is None
                if len(lines) < 50:
                    lines.append(f"{ws.title}!{c.coordinate} {c.value} → {show_value(v) if v is not None else '?'}")
    if params.save:
        save_bytes(ctx, params.path, new, overwrite=True)
    head = f"recomputed {total} formulas in {params.path}" + ("; saved." if params.save else " (not saved).")
    if missing:
        head += f" {missing} formulas still have no value (errors or unsupported functions)."
    return ToolResult(text="\n".join([head] + lines), data={"path": params.path, "formulas": total, "missing": missing}, untrusted=True)
