"""CSV tools: ``csv_read`` (encoding and delimiter detected) and ``csv_write``."""

from __future__ import annotations

import csv
import io
from typing import Union

from pydantic import BaseModel, Field

from tools.base import RiskClass, ToolContext, ToolError, ToolResult, tool
from tools.office._common import read_doc_bytes, save_bytes, target_risk

__all__ = ["CsvReadParams", "CsvWriteParams", "csv_read", "csv_write", "decode_text", "parse_csv"]

MAX_CSV_BYTES = 100 * 1024 * 1024


class CsvReadParams(BaseModel):
    path: str = Field(description="Workspace path of the .csv/.tsv file.")
    start_row: int = Field(1, ge=1, description="First data row to show (1 = the first line of the file).")
    max_rows: int = Field(100, ge=1, le=5000, description="Show at most this many rows.")
    delimiter: str | None = Field(None, max_length=1, description="Field separator; omit to detect it.")


class CsvWriteParams(BaseModel):
    path: str = Field(description="Workspace path of the .csv file.")
    rows: list[list[Union[bool, int, float, str, None]]] = Field(min_length=1, description="Rows of values; the first is usually the header.")
    delimiter: str = Field(",", min_length=1, max_length=1, description="Field separator.")
    overwrite: bool = Field(False, description="Replace the file if it exists.")


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode bytes as UTF-8 (with or without BOM), else the detected encoding.

    Returns:
        (text, encoding name).
    """
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data[:1_000_000]).best()
    enc = best.encoding if best is not None else "latin-1"
    return data.decode(enc, errors="replace"), enc


def parse_csv(text: str, delimiter: str | None = None) -> tuple[list[list[str]], str]:
    """Parse CSV text.

    Returns:
        (rows, delimiter used).

    Raises:
        ToolError: malformed CSV (e.g. a field larger than the csv module allows).
    """
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:65536], delimiters=",;\t|").delimiter
        except csv.Error:
            delimiter = ","
    try:
        return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)), delimiter
    except csv.Error as exc:
        raise ToolError(f"malformed CSV ({exc}); try another delimiter.") from None


@tool("csv_read", risk=RiskClass.READ)
def csv_read(ctx: ToolContext, params: CsvReadParams) -> ToolResult:
    """Read a CSV file as a table (delimiter and encoding detected)."""
    data = read_doc_bytes(ctx, params.path, limit=MAX_CSV_BYTES)
    if b"\x00" in data[:4096] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ToolError(f"{params.path} is binary, not CSV; for Excel files use xlsx_read.")
    text, enc = decode_text(data)
    rows, delim = parse_csv(text, params.delimiter)
    shown = rows[params.start_row - 1 : params.start_row - 1 + params.max_rows]
    width = max((len(r) for r in shown), default=0)
    lines = [f"{params.path}: {len(rows)} rows, {width} columns, delimiter {delim!r}, encoding {enc}."]
    for n, r in enumerate(shown, params.start_row):
        cells = [" ".join(c.replace("|", "\\|").split()) for c in r] + [""] * (width - len(r))
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    end = params.start_row - 1 + len(shown)
    if end < len(rows):
        lines.append(f"[{len(rows) - end} more rows; call csv_read with start_row={end + 1}]")
    return ToolResult(text="\n".join(lines), data={"path": params.path, "rows": len(rows), "columns": width}, untrusted=True)


@tool("csv_write", risk=target_risk("path"))
def csv_write(ctx: ToolContext, params: CsvWriteParams) -> ToolResult:
    """Write rows to a CSV file (UTF-8)."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, delimiter=params.delimiter, lineterminator="\r\n")
    for row in params.rows:
        writer.writerow(["" if v is None else ("TRUE" if v is True else "FALSE" if v is False else v) for v in row])
    save_bytes(ctx, params.path, buf.getvalue().encode("utf-8"), overwrite=params.overwrite)
    return ToolResult(text=f"wrote {len(params.rows)} rows to {params.path}.", data={"path": params.path, "rows": len(params.rows)})
