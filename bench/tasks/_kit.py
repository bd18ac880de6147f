"""Shared helpers for bench tasks: build starting documents, read results, read transcripts.

Task files (``setup.py``, ``grade.py``, ``solve.py``) import this module as
``_kit``; the bench loader puts ``bench/tasks`` on ``sys.path`` before it
imports them. Builders write real files (docx via python-docx, xlsx via
openpyxl, pdf as a hand-written PDF with text operators that pypdf extracts).
Readers never raise on a missing or broken file: they return None/"" so a
grader scores 0 instead of crashing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterable

__all__ = [
    "make_pdf", "make_docx", "make_xlsx", "pdf_pages_text", "docx_text", "xlsx_rows",
    "sheet_values", "cell_number", "final_answer", "calls", "call_names", "pause_kind",
    "numbers_in", "has_number", "norm", "calendar_events", "notes_text",
]


# -- builders --------------------------------------------------------------------------
def _pdf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(path: Path, pages: list[list[str]]) -> None:
    """Write a PDF with one page per item of ``pages`` (each a list of text lines,
    Helvetica 12 pt, Latin-1 only). Raises ``UnicodeEncodeError`` for other text."""
    objs: list[bytes] = []
    n = len(pages)
    font_id = 3 + 2 * n
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n))
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode())
    for i, lines in enumerate(pages):
        ops = ["BT", "/F1 12 Tf", "14 TL", "72 760 Td"]
        for line in lines:
            ops.append(f"({_pdf_escape(line)}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                    f"/Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {4 + 2 * i} 0 R >>".encode())
        objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(bytes(out))


def make_docx(path: Path, blocks: Iterable[tuple[str, str]]) -> None:
    """Write a .docx from ``(style, text)`` blocks; style "h1"/"h2" for headings,
    "bullet" for a list item, anything else for a normal paragraph."""
    import docx

    doc = docx.Document()
    for style, text in blocks:
        if style in ("h1", "h2"):
            doc.add_heading(text, level=int(style[1]))
        elif style == "bullet":
            doc.add_paragraph(text, style="List Bullet")
        else:
            doc.add_paragraph(text)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(path))


def make_xlsx(path: Path, sheets: dict[str, list[list[Any]]]) -> None:
    """Write an .xlsx with one sheet per key; rows are lists of cell values."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    wb.save(str(path))


# -- readers -----------------------------------------------------------------------------
def pdf_pages_text(path: Path) -> list[str] | None:
    """Extracted text per page, or None when the file is missing or unreadable."""
    try:
        from pypdf import PdfReader

        return [p.extract_text() or "" for p in PdfReader(str(path)).pages]
    except Exception:  # noqa: BLE001 - graders score a broken file as 0
        return None


def docx_text(path: Path) -> str | None:
    """All paragraph and table text of a .docx joined by newlines, or None."""
    try:
        import docx

        d = docx.Document(str(path))
    except Exception:  # noqa: BLE001
        return None
    parts = [p.text for p in d.paragraphs]
    for table in d.tables:
        for row in table.rows:
            parts.append(" | ".join(c.text for c in row.cells))
    return "\n".join(parts)


def xlsx_rows(path: Path) -> dict[str, list[list[Any]]] | None:
    """``{sheet: rows}`` of raw cell values (formulas as strings), or None."""
    try:
        import openpyxl

        wb = openpyxl.load_workbook(str(path))
    except Exception:  # noqa: BLE001
        return None
    return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb.worksheets}


def sheet_values(path: Path) -> dict[str, Any] | None:
    """The workbook as ``{sheet: openpyxl worksheet}`` (formulas kept), or None."""
    try:
        import openpyxl

        wb = openpyxl.load_workbook(str(path))
    except Exception:  # noqa: BLE001
        return None
    return {ws.title: ws for ws in wb.worksheets}


_SUM = re.compile(r"^=\s*SUM\(\s*(?:'?([^'!]+)'?!)?\$?([A-Z]+)\$?(\d+)\s*:\s*\$?([A-Z]+)\$?(\d+)\s*\)\s*$", re.I)


_REF = r"(?:'?([^'!,]+)'?!)?\$?([A-Z]+)\$?(\d+)\s*:\s*\$?([A-Z]+)\$?(\d+)"
_SUMIF = re.compile(rf'^=\s*SUMIF\(\s*{_REF}\s*,\s*"([^"]*)"\s*,\s*{_REF}\s*\)\s*$', re.I)


def _cells(sheets: dict[str, Any], here: str, name: str | None, c1: str, r1: str, c2: str, r2: str) -> list[Any]:
    from openpyxl.utils import column_index_from_string

    ws = sheets.get(name or here)
    if ws is None:
        return []
    return [v for row in ws.iter_rows(min_row=int(r1), max_row=int(r2), min_col=column_index_from_string(c1),
                                      max_col=column_index_from_string(c2), values_only=True) for v in row]


def cell_number(value: Any, sheets: dict[str, Any] | None = None, here: str = "") -> float | None:
    """A cell value as a number: numbers as they are, numeric strings parsed,
    ``=SUM(A1:B9)`` / ``=SUM('Sheet'!B2:B9)`` and ``=SUMIF('Sheet'!A2:A9, "North",
    'Sheet'!C2:C9)`` evaluated over ``sheets``."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    m = _SUMIF.match(text)
    if m and sheets:
        keys, adds = _cells(sheets, here, *m.groups()[:5]), _cells(sheets, here, *m.groups()[6:])
        crit = m.group(6).strip().lower()
        return sum(cell_number(v, sheets, here) or 0.0 for k, v in zip(keys, adds)
                   if str(k if k is not None else "").strip().lower() == crit)
    m = _SUM.match(text)
    if m and sheets:
        from openpyxl.utils import column_index_from_string

        ws = sheets.get(m.group(1) or here)
        if ws is None:
            return None
        c1, r1, c2, r2 = column_index_from_string(m.group(2)), int(m.group(3)), column_index_from_string(m.group(4)), int(m.group(5))
        total = 0.0
        for row in ws.iter_rows(min_row=r1, max_row=r2, min_col=c1, max_col=c2, values_only=True):
            for v in row:
                n = cell_number(v, sheets, ws.title)
                total += n or 0.0
        return total
    try:
        return float(text.replace(",", "").replace("$", "").replace("€", ""))
    except ValueError:
        return None


# -- transcript ---------------------------------------------------------------------------
def final_answer(transcript: list[dict]) -> str:
    """The answer of the last ``finished`` event ("" when the run did not finish)."""
    for ev in reversed(transcript):
        if ev.get("type") == "finished":
            return str(ev.get("answer", ""))
    return ""


def calls(transcript: list[dict], name: str | None = None) -> list[dict]:
    """Tool calls that ran (``tool_call_finished`` events), optionally of one tool."""
    return [ev for ev in transcript if ev.get("type") == "tool_call_finished"
            and (name is None or ev.get("call", {}).get("name") == name)]


def call_names(transcript: list[dict]) -> list[str]:
    """Names of the tool calls that were started, in order."""
    return [ev.get("call", {}).get("name", "") for ev in transcript if ev.get("type") == "tool_call_started"]


def pause_kind(transcript: list[dict]) -> str | None:
    """The kind of the last pause when the run ended paused, else None."""
    for ev in reversed(transcript):
        if ev.get("type") == "paused":
            return str(ev.get("kind"))
        if ev.get("type") == "finished":
            return None
    return None


def norm(text: str) -> str:
    """Lower case with runs of whitespace collapsed."""
    return " ".join(str(text).lower().split())


def numbers_in(text: str) -> list[float]:
    """Every number written in ``text`` (thousands separators allowed)."""
    out = []
    for m in re.finditer(r"-?\d[\d,]*(?:\.\d+)?", text or ""):
        try:
            out.append(float(m.group().replace(",", "")))
        except ValueError:
            pass
    return out


def has_number(text: str, value: float, tol: float = 0.005) -> bool:
    """True when ``text`` mentions ``value`` (within ``tol``)."""
    return any(abs(n - value) <= tol for n in numbers_in(text))


# -- calendar and notes ----------------------------------------------------------------------
def calendar_events(workspace: Path) -> list[dict[str, Any]]:
    """Events of every ``calendar/*.ics`` in the workspace (the bench points the
    calendar plugin there): ``{"title", "start", "end", "location", "description", "attendees"}``
    with ``start``/``end`` as ``datetime`` (naive UTC wall time) or ``date``, ``attendees``
    a list of strings (each ATTENDEE's name and address)."""
    from datetime import datetime, timezone

    from icalendar import Calendar

    out = []
    for f in sorted((Path(workspace) / "calendar").glob("*.ics")):
        try:
            cal = Calendar.from_ical(f.read_text(encoding="utf-8"))
        except Exception:  # noqa: BLE001
            continue
        for ev in cal.walk("VEVENT"):
            def when(key: str):
                prop = ev.get(key)
                v = prop.dt if prop is not None else None
                if isinstance(v, datetime) and v.tzinfo is not None:
                    v = v.astimezone(timezone.utc).replace(tzinfo=None)
                return v
            people = ev.get("attendee") or []
            people = people if isinstance(people, list) else [people]
            out.append({"title": str(ev.get("summary", "")), "start": when("dtstart"), "end": when("dtend"),
                        "location": str(ev.get("location", "")), "description": str(ev.get("description", "")),
                        "attendees": [f"{p.params.get('CN', '')} {p}".strip() for p in people]})
    return out


def notes_text(workspace: Path) -> dict[str, str]:
    """``{file name: text}`` of the Markdown notes in ``notes/``."""
    folder = Path(workspace) / "notes"
    return {p.name: p.read_text(encoding="utf-8", errors="replace") for p in sorted(folder.glob("*.md"))} if folder.is_dir() else {}
