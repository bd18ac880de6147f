"""Reading Excel workbooks: ``xlsx_info`` and ``xlsx_read``.

A range is shown as a table with formulas *and* their cached values
(``=SUM(B2:B4) → 60``). Files saved by programs that do not compute formulas
(openpyxl, many exporters) have no cached values; the reader says so rather
than showing blanks as if they were results. Large files are streamed in
openpyxl's read-only mode with row caps (merged cells are then not listed).
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from typing import Any

from pydantic import BaseModel, Field

from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.office._common import check_ooxml_zip, read_doc_bytes

__all__ = ["STREAM_BYTES", "STREAM_XML_BYTES", "should_stream", "open_workbook", "pick_sheet", "show_value", "XlsxInfoParams", "XlsxReadParams", "xlsx_info", "xlsx_read"]

STREAM_BYTES = 5 * 1024 * 1024
"""Files larger than this (bytes) are read in streaming (read-only) mode."""

STREAM_XML_BYTES = 4 * 1024 * 1024
"""Files whose XML parts total more than this (bytes, uncompressed, declared) are
streamed too: a 100k-row sheet is ~3 MB zipped but takes ~30 s and ~500 MB to
load fully (see docs/BENCHMARKS.md). All XML parts count, not only those under
xl/worksheets/: a workbook may keep its sheets anywhere."""

MAX_READ_ROWS = 2000
MAX_READ_COLS = 100


def open_workbook(data: bytes, name: str, *, data_only: bool = False, read_only: bool = False) -> Any:
    """Load workbook bytes with openpyxl after the hostile-file checks.

    Args:
        data_only: True for cached values instead of formulas.
        read_only: True to stream (large files); caller must ``close()`` it.

    Raises:
        ToolError: legacy .xls, encrypted, not a workbook, corrupt or unsafe.
    """
    import openpyxl

    check_ooxml_zip(data, name, "xlsx", streamed=("xl/worksheets/",) if read_only else ())
    try:
        return openpyxl.load_workbook(
            io.BytesIO(data),
            read_only=read_only,
            data_only=data_only,
            keep_vba=name.lower().endswith(".xlsm"),
        )
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many kinds
        msg = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise ToolError(f"{name} could not be read as an Excel workbook ({msg}); ask for an .xlsx saved by Excel or LibreOffice.") from None


def should_stream(data: bytes) -> bool:
    """True when a workbook is large enough to read in streaming mode."""
    if len(data) > STREAM_BYTES:
        return True
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return sum(i.file_size for i in zf.infolist() if i.filename.endswith(".xml")) > STREAM_XML_BYTES
    except zipfile.BadZipFile:
        return False  # open_workbook reports it


def pick_sheet(wb: Any, sheet: str | None, name: str) -> Any:
    """The named sheet (case-insensitive), or the active/first one when None.

    Raises:
        ToolError: no such sheet (the message lists the sheets).
    """
    if sheet is None or sheet == "":
        ws = wb.active if not getattr(wb, "read_only", False) else None
        return ws if ws is not None else wb.worksheets[0]
    for title in wb.sheetnames:
        if title == sheet or title.lower() == sheet.lower():
            return wb[title]
    raise ToolError(f"{name} has no sheet {sheet!r}; sheets: {', '.join(wb.sheetnames)}.")


def show_value(v: Any) -> str:
    """A cell value as short text: dates ISO, booleans TRUE/FALSE, None as ""."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, dt.datetime):
        return v.date().isoformat() if v.time() == dt.time(0) else v.isoformat(sep=" ")
    if isinstance(v, (dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return str(v)


def _formula(v: Any) -> str | None:
    """The formula text of a formula-workbook value, or None for constants."""
    if isinstance(v, str) and v.startswith("="):
        return v
    text = getattr(v, "text", None)  # ArrayFormula
    if isinstance(text, str):
        return text if text.startswith("=") else "=" + text
    if type(v).__name__ == "DataTableFormula":
        return "=TABLE(...)"
    return None


def _cell(v: str) -> str:
    return " ".join(v.replace("|", "\\|").split())


class XlsxInfoParams(BaseModel):
    path: str = Field(description="Workspace path of the .xlsx file.")


class XlsxReadParams(BaseModel):
    path: str = Field(description="Workspace path of the .xlsx file.")
    sheet: str | None = Field(None, description="Sheet name; omit for the active sheet.")
    range: str | None = Field(None, description="Cell range like 'A1:F50' or 'B:D'; omit for the whole used area.")
    max_rows: int = Field(100, ge=1, le=MAX_READ_ROWS, description="Show at most this many rows.")


def _formula_stats(fws: Any, vws: Any) -> tuple[int, int]:
    """(formula cells, formula cells without a cached value) of one sheet."""
    total = missing = 0
    for frow, vrow in zip(fws.iter_rows(), vws.iter_rows()):
        for fc, vc in zip(frow, vrow):
            if _formula(fc.value) is not None:
                total += 1
                missing += vc.value is None
    return total, missing


@tool("xlsx_info", risk=RiskClass.READ)
def xlsx_info(ctx: ToolContext, params: XlsxInfoParams) -> ToolResult:
    """List the sheets of an Excel workbook with their sizes, merged cells and formula counts."""
    data = read_doc_bytes(ctx, params.path)
    stream = should_stream(data)
    fwb = open_workbook(data, params.path, read_only=stream)
    vwb = None if stream else open_workbook(data, params.path, data_only=True)
    lines = [f"{params.path}: {len(fwb.sheetnames)} sheet(s)" + (" (large file: streamed; formula counts skipped)" if stream else "")]
    sheets = []
    for title in fwb.sheetnames:
        ws = fwb[title]
        try:
            if stream:
                try:
                    dims = ws.calculate_dimension()
                except ValueError:  # no <dimension> in the file: count by streaming the rows
                    dims = ws.calculate_dimension(force=True)
            else:
                dims = ws.dimensions
            rows, cols = ws.max_row, ws.max_column
        except Exception:  # noqa: BLE001 - chart sheets and broken dimensions
            dims, rows, cols = "unknown", None, None
        info: dict[str, Any] = {"name": title, "range": dims, "rows": rows, "cols": cols}
        extra = []
        if getattr(ws, "sheet_state", "visible") != "visible":
            extra.append(ws.sheet_state)
        if vwb is not None and hasattr(ws, "merged_cells"):
            info["merged"] = len(ws.merged_cells.ranges)
            total, missing = _formula_stats(ws, vwb[title])
            info["formulas"], info["formulas_without_value"] = total, missing
            if total:
                extra.append(f"{total} formulas" + (f", {missing} without cached values" if missing else ""))
            if info["merged"]:
                extra.append(f"{info['merged']} merged ranges")
        sheets.append(info)
        lines.append(f"- {title}: {dims} ({rows} rows x {cols} cols)" + (f"; {'; '.join(extra)}" if extra else ""))
    if any(s.get("formulas_without_value") for s in sheets):
        lines.append("Some formulas have no cached values (the file was saved by a program that does not compute them); use xlsx_recalc to compute them.")
    if stream:
        fwb.close()
    return ToolResult(text="\n".join(lines), data={"path": params.path, "sheets": sheets}, untrusted=True)


def _size(ws: Any) -> tuple[int | None, int | None]:
    """(rows, cols) of the used area, or Nones when a streamed sheet is unsized."""
    try:
        return ws.max_row, ws.max_column
    except Exception:  # noqa: BLE001 - unsized streamed sheets
        return None, None


def _bounds(ws: Any, spec: str | None) -> tuple[int, int, int, int | None]:
    """(min_col, min_row, max_col, max_row) of the range to show; max_row None
    when the sheet is unsized and the range leaves the end open."""
    from openpyxl.utils.cell import range_boundaries

    max_row, max_col = _size(ws)
    max_col = max_col or MAX_READ_COLS
    if not spec:
        return 1, 1, max_col, max_row
    try:
        c1, r1, c2, r2 = range_boundaries(spec.replace("$", "").upper())
    except (ValueError, TypeError):
        raise ToolError(f"bad range {spec!r}; use forms like 'A1:F50', 'B:D' or '3:10'.") from None
    return c1 or 1, r1 or 1, c2 or max_col, r2 or max_row


def _grid(ws: Any, r1: int, r2: int, c1: int, c2: int) -> list[list[Any]]:
    """Raw cell values of rows r1..r2, columns c1..c2 (1-based, inclusive)."""
    return [list(row) for row in ws.iter_rows(min_row=r1, max_row=r2, min_col=c1, max_col=c2, values_only=True)]


@tool("xlsx_read", risk=RiskClass.READ)
def xlsx_read(ctx: ToolContext, params: XlsxReadParams) -> ToolResult:
    """Read a range of an Excel sheet as a table showing formulas and their cached values."""
    from openpyxl.utils import get_column_letter

    data = read_doc_bytes(ctx, params.path)
    stream = should_stream(data)
    fwb = open_workbook(data, params.path, read_only=stream)
    try:
        fws = pick_sheet(fwb, params.sheet, params.path)
        title = fws.title
        others = [name for name in fwb.sheetnames if name != title]
        rows, cols = _size(fws)  # before reading: a normal worksheet grows when read past its end
        full = f"A1:{get_column_letter(cols)}{rows}" if rows and cols else "unknown"
        c1, r1, c2, r2 = _bounds(fws, params.range)
        c2 = min(c2, c1 + MAX_READ_COLS - 1)
        last = r1 + params.max_rows - 1 if r2 is None else min(r2, r1 + params.max_rows - 1)
        stop = last + 1 if r2 is None else last  # one extra row tells whether more follow
        grid = _grid(fws, r1, stop, c1, c2)
        more_unknown = r2 is None and len(grid) > last - r1 + 1 and any(v is not None for v in grid[-1])
        grid = grid[: last - r1 + 1]
        merged = []
        if not stream:
            for mr in fws.merged_cells.ranges:
                if mr.min_row <= last and mr.max_row >= r1 and mr.min_col <= c2 and mr.max_col >= c1:
                    merged.append(mr.coord)
    finally:
        if stream:
            fwb.close()
    formulas = sum(_formula(v) is not None for row in grid for v in row)
    cached: list[list[Any]] = []
    if formulas:  # a second pass for cached values, only when there are formulas to show
        vwb = open_workbook(data, params.path, data_only=True, read_only=stream)
        try:
            cached = _grid(vwb[title], r1, last, c1, c2)
        finally:
            if stream:
                vwb.close()
    missing = 0
    table: list[tuple[int, list[str]]] = []
    for n, row in enumerate(grid):
        cells = []
        for k, v in enumerate(row):
            f = _formula(v)
            if f is None:
                cells.append(_cell(show_value(v)))
                continue
            value = cached[n][k] if n < len(cached) and k < len(cached[n]) else None
            missing += value is None
            cells.append(_cell(f"{f} → {show_value(value) if value is not None else '?'}"))
        table.append((r1 + n, cells))
    if table:
        last = table[-1][0]
    if not params.range:  # drop empty columns at the right of the used area
        width = max((i + 1 for _, cells in table for i, c in enumerate(cells) if c), default=1)
        c2 = min(c2, c1 + width - 1)
    header = ["", *(get_column_letter(c) for c in range(c1, c2 + 1))]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for row_no, cells in table:
        lines.append("| " + " | ".join([str(row_no), *cells[: c2 - c1 + 1]]) + " |")
    shown = f"{get_column_letter(c1)}{r1}:{get_column_letter(c2)}{last}"
    notes = [f'Sheet "{title}" {shown} (used area {full}). Formulas show "=formula → cached value".']
    if missing:
        notes.append(
            f"{missing} of {formulas} formulas have no cached value (the file was saved by a program that does not "
            "compute formulas); '?' is unknown, not zero. Use xlsx_recalc to compute them."
        )
    if others:  # xlsx_two_sheet_total: Qwen 1.5B read sheet Q1 and never learnt that Q2 existed
        shown_others = ", ".join(f'"{n}"' for n in others[:10]) + (" ..." if len(others) > 10 else "")
        notes.append(f"This workbook has {len(others)} more sheet{'s' if len(others) > 1 else ''}: {shown_others} "
                     "(read one with sheet=NAME).")
    if merged:
        notes.append(f"Merged cells (value is in the top-left cell): {', '.join(merged[:50])}.")
    elif stream:
        notes.append("Large file read in streaming mode: merged cells are not listed.")
    if (r2 is not None and last < r2) or more_unknown:
        upto = f"more rows to {r2}" if r2 is not None else "more rows follow"
        notes.append(f"Showing {last - r1 + 1} rows; {upto}: read again with range starting at row {last + 1}.")
    text = "\n".join(notes[:1] + lines + notes[1:])
    return ToolResult(
        text=text,
        data={"path": params.path, "sheet": title, "range": shown, "formulas": formulas, "missing_values": missing, "merged": merged},
        untrusted=True,
    )
